"""Are a Spark build's marts the DuckDB build's marts? Row for row, on every mart table.

`compare_marts(db, lake)` reads each table of the DuckDB file's `marts` schema and the Parquet files the
Spark build wrote for it (<lake>/marts/<mart>/), and returns the differences:
- the same column names in the same order;
- the same number of rows, matched after sorting on every column (floating point rounded for the sort);
- every non-float value equal exactly (timestamps as UTC instants); every float equal to 1e-9 relative
  (1e-12 absolute near 0), NaN equal to NaN. Summation order differs between the engines, so the last
  bits of a float may differ; nothing else may. One exception: a number printed inside a text (a
  finding's detail) may differ in its last printed digit, where the rounding met an exact tie.
"""
from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import duckdb

from .lake import mart_dir

REL_TOL = 1e-9
ABS_TOL = 1e-12


@dataclass
class MartDiff:
    mart: str
    problems: list[str] = field(default_factory=list)


def _norm(v):
    if isinstance(v, Decimal):
        return float(v)
    if isinstance(v, dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        return v
    return v


def _sort_key(row):
    key = []
    for v in row:
        if v is None:
            key.append((0, ""))
        elif isinstance(v, float):
            key.append((1, "nan" if math.isnan(v) else f"{v:.6g}"))
        else:
            key.append((2, str(v)))
    return key


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", re.I)


def _same_text(a: str, b: str) -> bool:
    """Equal, or equal but for numbers printed inside the text (a finding's detail) that differ only in their
    last printed digit: the engines round an exact tie differently (docs/spark.md, known differences)."""
    if a == b:
        return True
    if _NUMBER.split(a) != _NUMBER.split(b):
        return False
    for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b)):
        if x == y:
            continue
        if "." not in x or "e" in x.lower():        # an integer (a count) or an exponent form: exactly
            return False
        last_digit = 10.0 ** -len(x.split(".")[1])
        if abs(float(x) - float(y)) > last_digit * 1.000001:
            return False
    return True


def _same(a, b) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return _same_text(a, b)
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is None and b is None
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= max(ABS_TOL, REL_TOL * max(abs(a), abs(b)))
    return a == b


def mart_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [r[0] for r in con.execute(
        "select table_name from duckdb_tables() where schema_name = 'marts' order by table_name").fetchall()]


def compare_mart(con: duckdb.DuckDBPyConnection, lake: Path, mart: str, max_problems: int = 5) -> MartDiff:
    diff = MartDiff(mart)
    files = sorted(mart_dir(lake, mart).glob("*.parquet"))
    duck_cur = con.execute(f'select * from marts."{mart}"')
    duck_cols = [d[0] for d in duck_cur.description]
    duck = [tuple(_norm(v) for v in r) for r in duck_cur.fetchall()]
    if not files:
        if not mart_dir(lake, mart).is_dir():
            diff.problems.append(f"no Spark output at {mart_dir(lake, mart)}")
        elif duck:
            diff.problems.append(f"Spark wrote no rows, DuckDB has {len(duck)}")
        return diff
    spark_cur = con.execute("select * from read_parquet(?)", [[str(f) for f in files]])
    spark_cols = [d[0] for d in spark_cur.description]
    spark = [tuple(_norm(v) for v in r) for r in spark_cur.fetchall()]
    if [c.lower() for c in duck_cols] != [c.lower() for c in spark_cols]:
        diff.problems.append(f"columns differ: duckdb {duck_cols} vs spark {spark_cols}")
        return diff
    if len(duck) != len(spark):
        diff.problems.append(f"row count: duckdb {len(duck)} vs spark {len(spark)}")
        return diff
    duck.sort(key=_sort_key)
    spark.sort(key=_sort_key)
    for i, (a, b) in enumerate(zip(duck, spark)):
        for col, x, y in zip(duck_cols, a, b):
            if not _same(x, y):
                diff.problems.append(f"row {i} (sorted) column {col}: duckdb {x!r} vs spark {y!r}")
                break
        if len(diff.problems) >= max_problems:
            break
    return diff


def compare_marts(db: Path, lake: Path) -> list[MartDiff]:
    """One MartDiff per mart table with problems (an empty list: the engines agree)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        con.execute("set TimeZone = 'UTC'")
        return [d for d in (compare_mart(con, Path(lake), m) for m in mart_tables(con)) if d.problems]
    finally:
        con.close()
