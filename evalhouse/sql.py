"""`evalhouse sql [QUERY]`: query the published analyst file, read-only.

Without a query it prints how to open the analyst file with the duckdb CLI, Python or
harlequin. The working file is never opened here (unless --working is given, read-only), so an
analyst session never blocks `evalhouse load` / `build`.
"""
from __future__ import annotations

import datetime as _dt
import decimal
import math
import os
from pathlib import Path
from typing import Iterable, Sequence

from .locking import DatabaseBusy, connect_ro, eprint
from .publish import analyst_path

MAX_CELL = 60


def _cell(v) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return str(v)
        return f"{v:.4g}" if abs(v) < 1e-3 and v != 0 else f"{v:,.4f}".rstrip("0").rstrip(".")
    if isinstance(v, decimal.Decimal):
        return format(v, "f")
    if isinstance(v, _dt.datetime):
        return v.isoformat(sep=" ", timespec="seconds")
    s = str(v).replace("\n", "\\n")
    return s if len(s) <= MAX_CELL else s[: MAX_CELL - 1] + "…"


def _is_numeric(v) -> bool:
    return isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)


def format_table(columns: Sequence[str], rows: Iterable[Sequence]) -> str:
    """Aligned plain-text table: numbers right-aligned, text left-aligned."""
    rows = [list(r) for r in rows]
    cells = [[_cell(v) for v in r] for r in rows]
    widths = [len(c) for c in columns]
    for r in cells:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))
    numeric = [bool(rows) and all(_is_numeric(r[i]) or r[i] is None for r in rows) for i in range(len(columns))]

    def fmt(vals):
        out = []
        for i, c in enumerate(vals):
            out.append(c.rjust(widths[i]) if numeric[i] else c.ljust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [fmt(list(columns)), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in cells]
    return "\n".join(lines)


def how_to_open(db: Path) -> str:
    a = analyst_path(db)
    return (
        f"The analyst file is {a} (read-only; replaced atomically by `evalhouse build` / `evalhouse publish`).\n"
        "Open it read-only with any of:\n"
        f"  duckdb -readonly '{a}'\n"
        f"  python -c \"import duckdb; con = duckdb.connect('{a}', read_only=True); "
        "print(con.sql('show all tables'))\"\n"
        f"  harlequin --read-only '{a}'\n"
        f"  evalhouse sql \"select * from marts.data_quality_findings limit 20\"\n"
        "An open connection keeps its snapshot while new builds are published; reconnect to see new data.\n"
        f"Do not open the working file {db} while loads or builds may run: DuckDB allows no writer while it is open."
    )


def run_query(path: Path, query: str) -> tuple[list[str], list[tuple]]:
    con = connect_ro(path)
    try:
        cur = con.execute(query)
        if cur.description is None:
            return [], []
        cols = [d[0] for d in cur.description]
        return cols, cur.fetchall()
    finally:
        con.close()


def main_sql(db: Path, query: str | None = None, working: bool = False, max_rows: int = 200) -> int:
    path = Path(db) if working else analyst_path(db)
    if not query:
        print(how_to_open(Path(db)))
        return 0 if path.exists() else 1
    if not path.exists():
        eprint(f"evalhouse sql: {path} does not exist yet: run `evalhouse build` (it publishes) "
               "or `evalhouse publish`.")
        return 1
    try:
        cols, rows = run_query(path, query)
    except DatabaseBusy as exc:
        eprint(f"evalhouse sql: {exc}")
        return 1
    except Exception as exc:  # duckdb errors: print them like a SQL shell would
        eprint(f"evalhouse sql: {type(exc).__name__}: {exc}")
        return 1
    if not cols:
        return 0
    shown = rows[:max_rows]
    print(format_table(cols, shown))
    more = f" (showing {max_rows})" if len(rows) > max_rows else ""
    print(f"({len(rows)} row{'s' if len(rows) != 1 else ''}{more})")
    return 0


if __name__ == "__main__":  # pragma: no cover
    import sys

    sys.exit(main_sql(Path(os.environ.get("EVALHOUSE_DB", "evalhouse.duckdb")), " ".join(sys.argv[1:])))
