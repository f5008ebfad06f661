"""Deterministic sample logs for the three-layer pipeline (`logs_layered/*.jsonl`).

One record per measurement. Each task is measured standalone per layer (`l1` router, `l2plan` and
`l2conv` planner modes, `l3` coder) and end-to-end (`total`). Fields: task_id, rep, measurement,
l1, l2, l3, ref_coder, route_expected, route_actual, plan, note, passed, l1_cost / l1_latency,
l2_cost / l2_latency, l3_cost / l3_latency, total_cost, total_latency, stamp.

Token counts: standalone rows (l1, l2plan, l2conv, l3) exercise ONE model (the layer's) and carry
`prompt_tokens`, `completion_tokens`, `cached_tokens` (prompt includes cached) for it; `total`
rows span three models and carry no token counts (only per-layer and total cost), so they cannot
be repriced.

The default sample carries the edge cases the warehouse must handle:
- l1 rows whose `route_actual` is missing (router timed out) -> not gradeable;
- `total` rows that also carry route fields (must never be pooled into router accuracy, R10);
- failed `total` rows with a route mismatch, with a note naming the planner or the coder, with a
  note naming nobody, and with no note at all (R11);
- a routed model id (`openrouter/deepseek/deepseek-v4-flash`), stamps on both sides of the
  DeepSeek peak / off-peak switch (2026-08-16 16:00 UTC), a few naive stamps.

`write(root, n=None, seed=7)` writes root/logs_layered/*.jsonl and returns the paths. `n` is the
total number of records (default: the full design, 240 records).
"""
from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

PIPELINES = {
    # file stem -> (l1, l2, l3, ref_coder, first stamp, router skill, planner skill, coder skill)
    "pipeline_nano_pro_flash": ("gpt-4.1-nano", "deepseek-v4-pro", "deepseek-v4-flash", "claude-sonnet-4-6",
                                datetime(2026, 8, 15, 6, 0, tzinfo=timezone.utc), 0.85, 0.80, 0.75),
    "pipeline_haiku_mini_router": ("claude-haiku-4-5", "gpt-4.1-mini", "openrouter/deepseek/deepseek-v4-flash",
                                   "claude-sonnet-4-6",
                                   datetime(2026, 8, 16, 12, 0, tzinfo=timezone.utc), 0.92, 0.85, 0.70),
}
# (input, output, cached) USD / M used by the harness for its logged per-layer costs
PRICES = {
    "gpt-4.1-nano": (0.10, 0.40, 0.025), "deepseek-v4-pro": (0.435, 0.87, 0.003625),
    "deepseek-v4-flash": (0.14, 0.28, 0.0028), "openrouter/deepseek/deepseek-v4-flash": (0.14, 0.28, 0.0028),
    "claude-haiku-4-5": (1.0, 5.0, 0.10), "gpt-4.1-mini": (0.40, 1.60, 0.10),
}
TASKS = [(f"T{i:02d}", route) for i, route in enumerate(
    ["chat", "code", "plan_code", "code", "chat", "plan_code", "code", "plan_code", "chat", "code",
     "plan_code", "code"], start=1)]
REPS = 2
DEFAULT_N = 240          # the full design: 2 pipelines x 12 tasks x 2 reps x 5 measurements
MEASUREMENTS = ["l1", "l2plan", "l2conv", "l3", "total"]
ROUTES = ["chat", "code", "plan_code"]
PLANNER_NOTES = ["planner omitted the migration step", "planner produced an empty plan"]
CODER_NOTES = ["coder broke the unit tests", "coder edited the wrong file"]
NOBODY_NOTES = ["flaky sandbox, retried", ""]


def _stamp(ts: datetime, i: int) -> str:
    if i % 41 == 5:
        return ts.strftime("%Y-%m-%d %H:%M:%S")       # naive, space-separated
    if i % 3 == 1:
        return ts.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return ts.isoformat()


def _tokens(rng: random.Random, measurement: str) -> tuple[int, int, int]:
    base = {"l1": 900, "l2plan": 3500, "l2conv": 5200, "l3": 7000}[measurement]
    prompt = base + rng.randint(0, base)
    cached = int(prompt * rng.choice([0.0, 0.25, 0.6]))
    completion = rng.randint(20, 120) if measurement == "l1" else rng.randint(300, 2500)
    return prompt, completion, cached


def _cost(model: str, prompt: int, completion: int, cached: int) -> float:
    inp, out, cache = PRICES.get(model, (0.0, 0.0, 0.0))
    return round((max(0, prompt - cached) * inp + cached * cache + completion * out) / 1e6, 8)


def _records(rng: random.Random, stem: str):
    l1, l2, l3, ref, start, r_skill, p_skill, c_skill = PIPELINES[stem]
    k = 0
    for rep in range(REPS):
        for task_id, route in TASKS:
            for m in MEASUREMENTS:
                ts = start + timedelta(minutes=47 * k + rng.randint(0, 20))
                rec = {"task_id": task_id, "rep": rep, "measurement": m, "l1": l1, "l2": l2, "l3": l3,
                       "ref_coder": ref}
                if m in ("l1", "total"):
                    actual = route if rng.random() < r_skill else rng.choice([r for r in ROUTES if r != route])
                    rec["route_expected"] = route
                    if m == "l1" and k % 17 == 3:
                        rec["route_actual"] = None          # router timed out: not gradeable
                    elif not (m == "l1" and k % 23 == 8):     # ... or the key is missing altogether
                        rec["route_actual"] = actual
                if m == "l1":
                    model = l1
                    rec["passed"] = rec.get("route_actual") == route if rec.get("route_actual") else None
                elif m in ("l2plan", "l2conv"):
                    model = l2
                    rec["plan"] = f"1. read {task_id}\n2. edit\n3. test"
                    rec["passed"] = rng.random() < p_skill
                elif m == "l3":
                    model = l3
                    rec["passed"] = rng.random() < c_skill
                else:
                    model = None
                if model is not None:
                    pt, ct, cached = _tokens(rng, m)
                    layer = {"l1": "l1", "l2plan": "l2", "l2conv": "l2", "l3": "l3"}[m]
                    rec.update({"prompt_tokens": pt, "completion_tokens": ct, "cached_tokens": cached,
                                f"{layer}_cost": _cost(model, pt, ct, cached),
                                f"{layer}_latency": round(rng.uniform(0.3, 2.0) + ct / 150.0, 3)})
                else:
                    costs, lats = {}, {}
                    for layer, mdl, mm in (("l1", l1, "l1"), ("l2", l2, "l2plan"), ("l3", l3, "l3")):
                        pt, ct, cached = _tokens(rng, mm)
                        costs[layer] = _cost(mdl, pt, ct, cached)
                        lats[layer] = round(rng.uniform(0.3, 2.0) + ct / 150.0, 3)
                        rec[f"{layer}_cost"] = costs[layer]
                        rec[f"{layer}_latency"] = lats[layer]
                    rec["total_cost"] = round(sum(costs.values()), 8)
                    rec["total_latency"] = round(sum(lats.values()) + 0.25, 3)
                    rec["plan"] = f"1. read {task_id}\n2. edit\n3. test"
                    router_ok = rec.get("route_actual") == route
                    ok = router_ok and rng.random() < p_skill * c_skill - 0.05
                    rec["passed"] = ok
                    if not ok:
                        if not router_ok and (k // 5) % 3 == 0:
                            rec["note"] = rng.choice(CODER_NOTES)   # mismatch wins over the note
                        elif router_ok:
                            which = (k // 5) % 6
                            if which in (0, 1):
                                rec["note"] = rng.choice(PLANNER_NOTES)
                            elif which in (2, 3):
                                rec["note"] = rng.choice(CODER_NOTES)
                            elif which == 4:
                                rec["note"] = rng.choice(NOBODY_NOTES)
                            # else: no note at all
                rec["stamp"] = _stamp(ts, k)
                yield rec
                k += 1


def write(root: Path, n: int | None = None, seed: int = 7) -> list[Path]:
    rng = random.Random(seed)
    out_dir = Path(root) / "logs_layered"
    out_dir.mkdir(parents=True, exist_ok=True)
    per_file = None if n is None else max(1, n // len(PIPELINES))
    paths = []
    for stem in PIPELINES:
        lines = []
        cycle = 0
        while True:
            for rec in _records(rng, stem):
                if cycle:
                    rec["rep"] += REPS * cycle
                lines.append(json.dumps(rec))
                if per_file is not None and len(lines) >= per_file:
                    break
            cycle += 1
            if per_file is None or len(lines) >= per_file:
                break
        path = out_dir / f"{stem}.jsonl"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths
