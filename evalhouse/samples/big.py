"""Deterministic sample logs for the brownfield suite (`logs_big/*.jsonl`).

One record per (scenario x model x config x replicate) run, with the fields of the field
dictionary: id, name, kind, difficulty, model, with_brain, with_plan, change, change_detail,
regress, regress_misses, changed_files, wall_s, calls, cost, stamp.

The default sample carries the edge cases the warehouse must handle:
- awareness rows with `regress` null, spelled `aware` and `awareness`; a capitalised `Fix`;
- runs that are done but broke the application (change 1.0, regress < 1.0);
- several models, including `acme/coder-ft-7b` (absent from every rate card: logged cost 0.0)
  and a routed id `openrouter/deepseek-v4-flash`;
- `deepseek-v4-pro` runs stamped before 2026-07-19 whose `cost` was computed with the
  superseded 1.74 / 3.48 / 0.0145 row (exactly 4x the corrected 0.435 / 0.87 / 0.003625);
- with_brain / with_plan ablation cells on the same scenarios, with replicates;
- stamps with offsets (+00:00, +03:00, Z) and a few naive ones.

`write(root, n=None, seed=7)` writes root/logs_big/*.jsonl and returns the paths. `n` is the
number of records (default: the full design, 800 records); large `n` (1M) is fast because lines
are built from prebuilt dicts with json.dumps and written in chunks.
"""
from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

PAGES = [
    "index.php", "cart.php", "checkout.php", "product.php", "search.php", "account.php",
    "login.php", "orders.php", "admin/index.php", "admin/products.php", "admin/users.php",
    "report.php", "invoice.php", "contact.php",
]

FIX = [
    ("B1", "bulk discount off-by-one", 1, ["discount applies at exactly 10 units",
                                            "discount still applies above the threshold",
                                            "no discount below the threshold"]),
    ("B2", "cart total ignores tax", 1, ["tax added to cart total", "tax shown on checkout",
                                          "zero-rated items untaxed"]),
    ("B3", "login redirect loop", 2, ["login redirects once", "session survives redirect",
                                       "bad password shows error", "logout clears session"]),
    ("B4", "search escapes quotes", 2, ["quoted search returns results", "no SQL error on quote",
                                         "empty search lists all"]),
    ("B5", "invoice rounding", 2, ["line totals rounded half-up", "invoice total equals sum of lines",
                                    "currency symbol present", "two decimals shown"]),
    ("B6", "stock goes negative", 3, ["reserve refuses below zero", "error message shown",
                                       "stock unchanged on refusal"]),
    ("B7", "admin pagination", 3, ["page 2 shows next items", "last page not empty",
                                    "page size respected", "out-of-range page handled", "links keep filter"]),
    ("B8", "order status email", 3, ["email queued on ship", "email has order id",
                                      "no email on cancel"]),
]
REFACTOR = [
    ("R1", "extract price formatting", 1, ["single format_money helper", "no duplicate formatting",
                                            "pages still show prices"]),
    ("R2", "unify db connection", 2, ["one connection factory", "no inline mysqli_connect",
                                       "config read once"]),
    ("R3", "split orders controller", 2, ["controller under 200 lines", "actions moved to service",
                                           "routes unchanged", "no dead code left"]),
    ("R4", "dedupe validation", 2, ["shared validator", "no duplicate email regex",
                                     "errors still shown"]),
    ("R5", "template partials", 1, ["header partial used everywhere", "footer partial used everywhere",
                                     "no copied markup"]),
    ("R6", "config constants", 1, ["constants defined once", "no magic numbers in cart"]),
    ("R7", "repository for products", 3, ["product repository class", "no raw SQL in pages",
                                           "search uses repository", "admin uses repository"]),
    ("R8", "remove globals", 3, ["no $GLOBALS access", "dependencies passed explicitly",
                                 "pages still render"]),
]
AWARE = [
    ("A1", "which files compute the order total", 1, ["mentions order_total", "mentions apply_discount",
                                                      "mentions compute_tax", "made no edits"]),
    ("A2", "where is stock reserved", 1, ["mentions reserve", "mentions inventory", "made no edits"]),
    ("A3", "what renders the invoice", 2, ["mentions invoice.php", "mentions format_money",
                                           "does not claim report.php", "made no edits"]),
    ("A4", "how are sessions stored", 2, ["mentions session handler", "mentions login.php",
                                          "made no edits"]),
]

# model -> (skill, regress risk, calls mean, wall mean, (in_tokens, out_tokens) per call)
MODELS = {
    "deepseek-v4-pro": (0.86, 0.10, 14, 95.0, (9000, 700)),
    "deepseek-v4-flash": (0.72, 0.16, 11, 60.0, (8000, 600)),
    "openrouter/deepseek-v4-flash": (0.72, 0.16, 11, 64.0, (8000, 600)),
    "claude-sonnet-4-6": (0.90, 0.08, 12, 110.0, (10000, 800)),
    "acme/coder-ft-7b": (0.50, 0.30, 18, 140.0, (7000, 900)),
}
# USD per million tokens (input, output, cached input) as the harness priced them.
CORRECTED_PRO = (0.435, 0.87, 0.003625)
SUPERSEDED_PRO = (1.74, 3.48, 0.0145)           # in force until the 2026-07-19 re-verification
PRO_CORRECTION = datetime(2026, 7, 19, tzinfo=timezone.utc)
PRICES = {
    "deepseek-v4-flash": (0.14, 0.28, 0.0028),
    "openrouter/deepseek-v4-flash": (0.14, 0.28, 0.0028),
    "claude-sonnet-4-6": (3.0, 15.0, 0.30),
}
CONFIGS = [(False, False), (True, False), (False, True), (True, True)]
REPLICATES = 2
# first stamp per model (UTC); deepseek-v4-pro starts before the price correction
STARTS = {
    "deepseek-v4-pro": datetime(2026, 7, 12, 8, 0, tzinfo=timezone.utc),
    "deepseek-v4-flash": datetime(2026, 7, 21, 9, 0, tzinfo=timezone.utc),
    "openrouter/deepseek-v4-flash": datetime(2026, 7, 22, 9, 0, tzinfo=timezone.utc),
    "claude-sonnet-4-6": datetime(2026, 7, 24, 10, 0, tzinfo=timezone.utc),
    "acme/coder-ft-7b": datetime(2026, 7, 26, 11, 0, tzinfo=timezone.utc),
}
PLUS3 = timezone(timedelta(hours=3))


def _safe(model: str) -> str:
    return model.replace("/", "_")


def _plan():
    """The full factorial design, in writing order: (model, scenario, kind, config, replicate)."""
    scenarios = [(s, "fix") for s in FIX] + [(s, "refactor") for s in REFACTOR] + [(s, "awareness") for s in AWARE]
    for rep in range(REPLICATES):
        for cfg in CONFIGS:
            for scen, kind in scenarios:
                for model in MODELS:
                    yield model, scen, kind, cfg, rep


def _kind_spelling(kind: str, i: int) -> str:
    if kind == "awareness":
        return "aware" if i % 2 == 0 else "awareness"
    if kind == "fix" and i % 37 == 5:
        return "Fix"
    return kind


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_DAY_CACHE: dict[int, str] = {}


def _fmt(epoch_s: int) -> str:
    """'YYYY-MM-DDTHH:MM:SS' for a UTC epoch second (cached per day: fast for 1M lines)."""
    day, sec = divmod(epoch_s, 86400)
    d = _DAY_CACHE.get(day)
    if d is None:
        d = _DAY_CACHE[day] = (_EPOCH + timedelta(days=day)).strftime("%Y-%m-%d")
    h, rem = divmod(sec, 3600)
    m, s_ = divmod(rem, 60)
    return f"{d}T{h:02d}:{m:02d}:{s_:02d}"


def _stamp(epoch_s: int, i: int) -> str:
    if i % 97 == 13:                       # a few naive stamps (no offset)
        return _fmt(epoch_s)
    if i % 5 == 2:                         # local time with +03:00
        return _fmt(epoch_s + 3 * 3600) + "+03:00"
    if i % 11 == 4:
        return _fmt(epoch_s) + "Z"
    return _fmt(epoch_s) + "+00:00"


_J = json.dumps
_PAGES_J = [_J(pg) for pg in PAGES]


def _line(rng: random.Random, i: int, model: str, scen, kind: str, cfg, epoch_s: int, enc: dict) -> str:
    """One JSON line (built from pre-encoded fragments; equal to json.dumps of the record dict)."""
    sid, name, difficulty, checks = scen
    skill, risk, calls_mean, wall_mean, (tin, tout) = MODELS[model]
    with_brain, with_plan = cfg
    p = skill - 0.08 * (difficulty - 1) + (0.05 if with_brain else 0.0) + (0.03 if with_plan else 0.0)
    rnd = rng.random
    oks = [rnd() < p for _ in checks]
    passed = sum(oks)
    change = round(passed / len(oks), 4)
    checks_j = enc[sid]
    detail = ", ".join(f"[{c}, {'true' if ok else 'false'}]" for c, ok in zip(checks_j, oks))
    if kind == "awareness":
        regress_j, misses_j, changed_j = "null", "", ""
    else:
        r = risk + 0.04 * (difficulty - 1) - (0.04 if with_brain else 0.0)
        misses = [k for k in range(len(PAGES)) if rnd() < r / 3] if rnd() < r * 2 else []
        regress_j = repr(round(1.0 - len(misses) / len(PAGES), 4))
        misses_j = ", ".join(_PAGES_J[k] for k in misses)
        low = sid.lower()
        changed_j = ", ".join(f'"shop/{low}_{k}.php"' for k in range(1 + rng.randrange(3)))
    calls = max(1, int(rng.gauss(calls_mean, 3)))
    wall = round(max(3.0, rng.gauss(wall_mean, wall_mean / 4)), 2)
    in_tok = calls * tin
    cached = int(in_tok * rng.uniform(0.3, 0.7))
    out_tok = calls * tout
    if model == "deepseek-v4-pro":
        price = SUPERSEDED_PRO if epoch_s < _PRO_CORRECTION_S else CORRECTED_PRO
    else:
        price = PRICES.get(model)            # acme/coder-ft-7b: unknown to the harness -> 0.0
    cost = 0.0 if price is None else round(
        ((in_tok - cached) * price[0] + out_tok * price[1] + cached * price[2]) / 1e6, 6)
    return (
        f'{{"id": {enc[sid + "#id"]}, "name": {enc[sid + "#name"]}, "kind": "{_kind_spelling(kind, i)}", '
        f'"difficulty": {difficulty}, "model": {enc[model]}, '
        f'"with_brain": {"true" if with_brain else "false"}, "with_plan": {"true" if with_plan else "false"}, '
        f'"change": {change!r}, "change_detail": [{detail}], "regress": {regress_j}, '
        f'"regress_misses": [{misses_j}], "changed_files": [{changed_j}], "wall_s": {wall!r}, '
        f'"calls": {calls}, "cost": {cost!r}, "stamp": "{_stamp(epoch_s, i)}"}}'
    )


_PRO_CORRECTION_S = int((PRO_CORRECTION - _EPOCH).total_seconds())


def write(root: Path, n: int | None = None, seed: int = 7) -> list[Path]:
    """Write root/logs_big/big_<model>.jsonl (one file per model); return the paths written."""
    rng = random.Random(seed)
    out_dir = Path(root) / "logs_big"
    out_dir.mkdir(parents=True, exist_ok=True)
    design = list(_plan())
    total = len(design) if n is None else int(n)
    enc: dict[str, object] = {m: _J(m) for m in MODELS}
    for sid, name, _d, checks in FIX + REFACTOR + AWARE:
        enc[sid] = [_J(c) for c in checks]
        enc[sid + "#id"] = _J(sid)
        enc[sid + "#name"] = _J(name)
    # spread each model's runs over ~25 days from its start (whole seconds)
    per_model = max(1, total // len(MODELS))
    step = max(1, int(25 * 86400 / per_model))
    clock = {m: int((t - _EPOCH).total_seconds()) for m, t in STARTS.items()}
    buffers: dict[str, list[str]] = {m: [] for m in MODELS}
    files = {m: out_dir / f"big_{_safe(m)}.jsonl" for m in MODELS}
    handles = {m: open(files[m], "w", encoding="utf-8") for m in MODELS}
    n_design = len(design)
    try:
        for i in range(total):
            model, scen, kind, cfg, _rep = design[i % n_design]
            ts = clock[model]
            clock[model] = ts + step
            buf = buffers[model]
            buf.append(_line(rng, i, model, scen, kind, cfg, ts, enc))
            if len(buf) >= 20000:
                handles[model].write("\n".join(buf) + "\n")
                buf.clear()
        for m, buf in buffers.items():
            if buf:
                handles[m].write("\n".join(buf) + "\n")
    finally:
        for h in handles.values():
            h.close()
    written = [p for p in files.values() if p.stat().st_size > 0]
    for p in files.values():
        if p.stat().st_size == 0:
            p.unlink()
    return written


def design_size() -> int:
    """Number of records in the full default design (what `write(root)` writes)."""
    return sum(1 for _ in _plan())


DEFAULT_N = None  # write() default: the full design
