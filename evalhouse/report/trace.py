"""Check a written report against a warehouse: every number in numbers.json is re-queried from its mart row,
and the page shows each number as printed.

    from evalhouse.report.trace import verify
    problems = verify("evalhouse.analyst.duckdb", "report")     # [] when every number traces
"""
from __future__ import annotations

import html
import json
import math
import os
import random
import re
from pathlib import Path

from .content import quote, rel
from .numbers import plain


def _same(got, want) -> bool:
    got = plain(got)
    if got is None or want is None:
        return got is None and want is None
    if isinstance(got, bool) or isinstance(want, bool):
        return got == want
    if isinstance(got, (int, float)) and isinstance(want, (int, float)):
        return math.isclose(float(got), float(want), rel_tol=1e-9, abs_tol=1e-12)
    return str(got) == str(want)


def recompute(con, num: dict) -> list:
    """The values `SELECT expr FROM mart WHERE key... AND population` returns (one, for a number that traces)."""
    clauses = [f"{quote(k)} IS NOT DISTINCT FROM ?" for k, _ in num["where"]]
    if num.get("population"):
        clauses.append(f"({num['population']})")
    sql = f"SELECT {num['expr']} FROM {rel(num['mart'])}" + (f" WHERE {' AND '.join(clauses)}" if clauses else "")
    return [r[0] for r in con.execute(sql, [v for _, v in num["where"]]).fetchall()]


def check_numbers(con, numbers: list[dict]) -> list[str]:
    problems = []
    for num in numbers:
        got = recompute(con, num)
        where = ", ".join(f"{k}={v!r}" for k, v in num["where"]) or num.get("population") or "all rows"
        if len(got) != 1:
            problems.append(f"{num['id']}: {num['mart']} [{where}] gives {len(got)} rows for {num['expr']}, not 1")
        elif not _same(got[0], num["value"]):
            problems.append(f"{num['id']}: {num['mart']}.{num['expr']} [{where}] is {plain(got[0])!r}, "
                            f"the report says {num['value']!r}")
    return problems


def check_page(page: str, numbers: list[dict]) -> list[str]:
    shown = dict(re.findall(r'data-n="(n\d+)">([^<]*)<', page))
    problems = []
    for num in numbers:
        if num["id"] not in shown:
            problems.append(f"{num['id']}: not on the page")
        elif shown[num["id"]] != html.escape(num["text"]):
            problems.append(f"{num['id']}: the page shows {shown[num['id']]!r}, numbers.json {num['text']!r}")
    return problems


def verify(db: os.PathLike | str, out_dir: os.PathLike | str, sample: int | None = None, seed: int = 0) -> list[str]:
    """Problems found (empty: every number checked traces). `sample` checks that many numbers at random."""
    from ..locking import connect_ro

    out = Path(out_dir)
    numbers = json.loads((out / "numbers.json").read_text())["numbers"]
    if sample is not None and sample < len(numbers):
        numbers = random.Random(seed).sample(numbers, sample)
    con = connect_ro(db)
    try:
        problems = check_numbers(con, numbers)
    finally:
        con.close()
    return problems + check_page((out / "report.html").read_text(encoding="utf-8"), numbers)
