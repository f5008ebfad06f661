"""`evalhouse sql [QUERY]`: query the published analyst file, read-only.

Without a query it prints how to open the analyst file with the duckdb CLI, Python or
harlequin. The working file is never opened here (unless --working is given, read-only), so an
analyst session never blocks `evalhouse load` / `build`.
"""
from __future__ import annotations

import csv
import datetime as _dt
import decimal
import io
import json
import math
from pathlib import Path
from typing import Iterable, Sequence

from .locking import connect_ro
from .paths import analyst_path

MAX_CELL = 60
FORMATS = ("table", "csv", "json", "markdown", "latex")


def _cell(v, max_cell: int | None = MAX_CELL) -> str:
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
    return s if max_cell is None or len(s) <= max_cell else s[: max_cell - 1] + "…"


def _is_numeric(v) -> bool:
    return isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)


def format_table(columns: Sequence[str], rows: Iterable[Sequence], max_cell: int | None = MAX_CELL) -> str:
    """Aligned plain-text table: numbers right-aligned, text left-aligned; cells cut at max_cell (None: never)."""
    rows = [list(r) for r in rows]
    cells = [[_cell(v, max_cell) for v in r] for r in rows]
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


def _plain(v):
    """A value as JSON / CSV carry it: full precision, never cut."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, (_dt.datetime, _dt.date, _dt.time)):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray)):
        return v.hex()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return v


def _text(v) -> str:
    v = _plain(v)
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return repr(v) if isinstance(v, float) else str(v)


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
          "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _latex(s: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in s)


def render(columns: Sequence[str], rows: Sequence[Sequence], fmt: str, max_cell: int | None = MAX_CELL) -> str:
    """The result in one of FORMATS. Only `table` ever cuts a value (and only with max_cell set)."""
    if fmt == "table":
        return format_table(columns, rows, max_cell)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(columns)
        w.writerows([_text(v) for v in r] for r in rows)
        return buf.getvalue().rstrip("\n")
    if fmt == "json":
        return json.dumps([dict(zip(columns, (_plain(v) for v in r))) for r in rows], indent=1, ensure_ascii=False)
    numeric = [bool(rows) and all(_is_numeric(r[i]) or r[i] is None for r in rows) for i in range(len(columns))]
    if fmt == "markdown":
        esc = [[_text(v).replace("|", "\\|") for v in r] for r in rows]
        lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in esc])
    if fmt == "latex":
        spec = "".join("r" if n else "l" for n in numeric)
        lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", " & ".join(_latex(c) for c in columns) + r" \\",
                 "\\midrule"]
        lines += [" & ".join(_latex(_text(v)) for v in r) + r" \\" for r in rows]
        return "\n".join(lines + ["\\bottomrule", "\\end{tabular}"])
    raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")


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
