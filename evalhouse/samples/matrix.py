"""Deterministic sample logs for the chat x coder matrix (`logs/<chat>__<coder>.jsonl`).

One record per turn of one of 5 escalating conversation scripts, with the fields of the field
dictionary: scenario_id, turn_index, rep, type ('chat' | 'coder'), check_kind, check_passed,
check_note, prompt_tokens, completion_tokens, cached_tokens (prompt INCLUDES cached), cost_usd,
latency_s, difficulty, stamp. The file stem is the matrix cell `<chat model>__<coder model>`.

The default sample carries the edge cases the warehouse must handle:
- all three evidence strengths, each with several spellings (`exec`, `executed`, `run`,
  `py_compile`, `compile`, `syntax`, `syntax_only`, and a capitalised `Exec`);
- reps repeating a turn (the cluster for standard errors is (scenario_id, turn_index));
- a chat model the rate card does not price (`acme-chat-1`: the harness logged cost 0.0);
- records that carry their own `chat_model` / `coder_model` / `model` fields (they win over the
  file stem), spelled with routing prefixes and dated ids (`bedrock/us.anthropic.claude-...`);
- deepseek turns on both sides of 2026-08-16 16:00 UTC (peak / off-peak billing), at peak and
  off-peak hours; the harness kept logging the flat price, so repricing differs after the switch;
- stamps with offsets (Z, +00:00, +02:00) and a few naive ones.

`write(root, n=None, seed=7)` writes root/logs/*.jsonl and returns the paths. `n` is the total
number of records (default: the full design, 264 records: 4 cells x 66 turns), spread over the cells.
"""
from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

# cell -> (first stamp UTC, hours between turns, skill of chat side, skill of coder side)
CELLS = {
    "deepseek-v4-flash__deepseek-v4-pro": (datetime(2026, 8, 14, 0, 30, tzinfo=timezone.utc), 1.4, 0.80, 0.72),
    "gpt-4.1-mini__claude-sonnet-4-6": (datetime(2026, 8, 20, 9, 0, tzinfo=timezone.utc), 0.25, 0.85, 0.82),
    "acme-chat-1__gpt-4.1": (datetime(2026, 8, 22, 13, 0, tzinfo=timezone.utc), 0.20, 0.60, 0.75),
    "claude-haiku-4-5__gpt-4.1-nano": (datetime(2026, 8, 25, 7, 0, tzinfo=timezone.utc), 0.15, 0.78, 0.55),
}

# the price table the harness used when it logged cost_usd (input, output, cached input; USD / M)
HARNESS_PRICES = {
    "deepseek-v4-flash": (0.14, 0.28, 0.0028),
    "deepseek-v4-pro": (0.435, 0.87, 0.003625),
    "gpt-4.1": (2.00, 8.00, 0.50),
    "gpt-4.1-mini": (0.40, 1.60, 0.10),
    "gpt-4.1-nano": (0.10, 0.40, 0.025),
    "claude-haiku-4-5": (1.00, 5.00, 0.10),
    "claude-sonnet-4-6": (3.00, 15.00, 0.30),
}

# the same models as some records spell them (record fields win over the file stem)
ROUTED = {
    "claude-sonnet-4-6": "bedrock/us.anthropic.claude-sonnet-4-6",
    "gpt-4.1-mini": "openrouter/openai/gpt-4.1-mini",
    "claude-haiku-4-5": "claude-haiku-4-5-20251001",
}

SCENARIOS = [  # (scenario_id, [(turn type, difficulty)])
    ("S1", [("chat", "easy"), ("coder", "easy"), ("chat", "easy"), ("coder", "medium")]),
    ("S2", [("chat", "easy"), ("coder", "medium"), ("coder", "medium"), ("chat", "medium")]),
    ("S3", [("chat", "medium"), ("coder", "medium"), ("chat", "medium"), ("coder", "hard")]),
    ("S4", [("chat", "medium"), ("coder", "hard"), ("coder", "hard"), ("chat", "hard"), ("coder", "hard")]),
    ("S5", [("chat", "hard"), ("coder", "hard"), ("chat", "hard"), ("coder", "hard"), ("coder", "hard")]),
]
REPS = 3
DEFAULT_N = 264          # the full design: 4 cells x 66 turns (22 turns x 3 reps)
CODER_KINDS = ["exec", "executed", "run", "py_compile", "compile", "Exec"]
CHAT_KINDS = ["syntax", "syntax_only"]
DIFF_PENALTY = {"easy": 0.0, "medium": 0.12, "hard": 0.28}
KIND_BONUS = {"exec": 0.0, "executed": 0.0, "run": 0.0, "Exec": 0.0,
              "py_compile": 0.1, "compile": 0.1, "syntax": 0.15, "syntax_only": 0.15}
NOTES = {True: ["ok", "all assertions passed", "compiled"],
         False: ["AssertionError in test_total", "SyntaxError: invalid syntax", "timeout after 30s",
                 "NameError: name 'cart' is not defined"]}


def _stamp(ts: datetime, i: int) -> str:
    if i % 53 == 7:                               # a few naive stamps (no offset)
        return ts.strftime("%Y-%m-%dT%H:%M:%S")
    if i % 11 == 3:                               # same instant written with a +02:00 offset
        return ts.astimezone(timezone(timedelta(hours=2))).isoformat()
    if i % 2:
        return ts.strftime("%Y-%m-%dT%H:%M:%SZ")
    return ts.isoformat()


def _cost(model: str, prompt: int, completion: int, cached: int) -> float:
    price = HARNESS_PRICES.get(model)
    if price is None:                             # unknown to the harness: it logged 0.0
        return 0.0
    inp, out, cache = price
    return round((max(0, prompt - cached) * inp + cached * cache + completion * out) / 1e6, 8)


def _turns(rng: random.Random):
    """Every (scenario, turn, rep) of the design, in log order."""
    for sid, turns in SCENARIOS:
        for rep in range(REPS):
            for t, (typ, diff) in enumerate(turns):
                yield sid, t, rep, typ, diff


def write(root: Path, n: int | None = None, seed: int = 7) -> list[Path]:
    rng = random.Random(seed)
    out_dir = Path(root) / "logs"
    out_dir.mkdir(parents=True, exist_ok=True)
    design = list(_turns(rng))
    per_cell = len(design) if n is None else max(1, n // len(CELLS))
    paths = []
    i = 0
    for cell, (start, step_h, chat_skill, coder_skill) in CELLS.items():
        chat_model, coder_model = cell.split("__")
        lines = []
        for k in range(per_cell):
            sid, t, rep, typ, diff = design[k % len(design)]
            cycle = k // len(design)
            # large n: the same time span, denser (the deepseek cell always straddles 2026-08-16 16:00 UTC)
            ts = start + timedelta(hours=step_h * k * min(1.0, len(design) / per_cell), minutes=rng.randint(0, 50))
            kinds = CHAT_KINDS if typ == "chat" else CODER_KINDS
            check_kind = kinds[(t + rep + cycle + len(sid)) % len(kinds)]
            skill = chat_skill if typ == "chat" else coder_skill
            p = min(0.97, max(0.03, skill - DIFF_PENALTY[diff] + KIND_BONUS[check_kind]))
            passed = rng.random() < p
            prompt = rng.randint(400, 6000) + 700 * t
            cached = 0 if t == 0 else int(prompt * rng.choice([0.0, 0.3, 0.55, 0.8]))
            completion = rng.randint(40, 900) if typ == "chat" else rng.randint(200, 2400)
            model = chat_model if typ == "chat" else coder_model
            rec = {
                "scenario_id": sid,
                "turn_index": t,
                "rep": rep + REPS * cycle,
                "type": typ,
                "check_kind": check_kind,
                "check_passed": passed,
                "check_note": rng.choice(NOTES[passed]),
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "cached_tokens": cached,
                "cost_usd": _cost(model, prompt, completion, cached),
                "latency_s": round(rng.uniform(0.4, 4.0) + completion / 180.0, 3),
                "difficulty": diff,
                "stamp": _stamp(ts, i),
            }
            # some records name their own models (the record wins over the file stem)
            if k % 9 == 4 and (chat_model in ROUTED or coder_model in ROUTED):
                if chat_model in ROUTED:
                    rec["chat_model"] = ROUTED[chat_model]
                if coder_model in ROUTED:
                    rec["coder_model"] = ROUTED[coder_model]
            if k % 13 == 6 and model in ROUTED:
                rec["model"] = ROUTED[model]
            lines.append(json.dumps(rec))
            i += 1
        path = out_dir / f"{cell}.jsonl"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths
