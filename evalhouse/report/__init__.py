"""`evalhouse report`: the figures and tables a paper needs, from the marts of the analyst file.

    from evalhouse.report import write_report
    result = write_report("evalhouse.analyst.duckdb", "report")   # -> result.html, result.figures, ...

writes into the output folder:
- report.html: one self-contained page (nothing fetched), a section per family present, each figure with a
  caption stating its population, unit of clustering, n, stamp range and (for costs) the price table dates;
- figures/<id>.svg and figures/<id>.pdf: every plot, as vector files;
- tables/<id>.tex (booktabs), .md and .csv: every table, intervals printed `0.82 [0.71, 0.90]` beside their
  denominators (the CSV keeps full precision, an interval as three columns);
- numbers.json: every number of the page with the mart row it comes from (`SELECT expr FROM mart WHERE ...`).

Layout: content.py (tables, figures, sections, the warehouse reader), numbers.py (numbers with provenance),
strata.py (forest plots from a mart declaration), sections.py (the families), evidence.py (overview, cost,
data quality, admissibility checks), figures.py (matplotlib), render.py (HTML and table files).
"""
from __future__ import annotations

import datetime as _dt
import html
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .evidence import checks, cost, data_quality, overview
from .figures import render as render_figure
from .sections import brownfield, coder_eval, inspect_ai, layered, matrix
from .content import Section, Warehouse
from .render import Numbering, caption_text, page, table_files

SECTIONS = [overview, brownfield, matrix, layered, coder_eval, inspect_ai, cost, data_quality, checks]


@dataclass
class ReportResult:
    out_dir: Path
    html: Path
    figures: list[str] = field(default_factory=list)       # figure ids, in page order
    tables: list[str] = field(default_factory=list)        # table ids
    absent: list[str] = field(default_factory=list)        # what the warehouse does not hold
    n_numbers: int = 0


def collect(wh: Warehouse) -> list[Section]:
    """The report's sections for a warehouse open read-only."""
    return [make(wh) for make in SECTIONS]


def _replace(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_report(db: os.PathLike | str, out_dir: os.PathLike | str) -> ReportResult:
    """Read the warehouse at `db` (read-only) and write the report into `out_dir`."""
    from ..config import version
    from ..locking import connect_ro

    db, out = Path(db), Path(out_dir)
    con = connect_ro(db)
    try:
        wh = Warehouse(con)
        secs = collect(wh)
        last_build = wh.value("raw.builds", "max(finished_at)") if wh.has("raw.builds") else None
    finally:
        con.close()
    (out / "figures").mkdir(parents=True, exist_ok=True)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    result = ReportResult(out, out / "report.html")
    svgs: dict[str, bytes] = {}
    written: set[Path] = set()
    for s in secs:
        result.absent += [f"{s.title}: {a}" for a in s.absent]
        for f in s.figures:
            fig = f.draw()
            svgs[f.id], pdf = render_figure(fig, f.id)
            for ext, data in (("svg", svgs[f.id]), ("pdf", pdf)):
                _replace(out / "figures" / f"{f.id}.{ext}", data)
                written.add(out / "figures" / f"{f.id}.{ext}")
            result.figures.append(f.id)
        for t in [f.table for f in s.figures if f.table] + s.tables:
            for ext, content in table_files(t).items():
                _replace(out / "tables" / f"{t.id}.{ext}", content.encode("utf-8"))
                written.add(out / "tables" / f"{t.id}.{ext}")
            result.tables.append(t.id)
    for sub in ("figures", "tables"):   # files of an earlier report that this one no longer has
        for p in (out / sub).iterdir():
            if p.is_file() and p not in written and p.suffix in (".svg", ".pdf", ".tex", ".md", ".csv"):
                p.unlink()
    ids = Numbering()
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    built = last_build.strftime("%Y-%m-%d %H:%M UTC") if last_build else "unknown (no evalhouse build recorded)"
    header = (f"Made from <code>{html.escape(db.name)}</code> on {stamp} by evalhouse {html.escape(version())}; "
              f"last build {built}. Every interval is 95%; every rate sits beside its denominator "
              "(n) and its number of independent clusters (C).")
    doc = page("evalhouse report", header, secs, svgs, ids)
    _replace(result.html, doc.encode("utf-8"))
    captions = {f.id: caption_text(f.caption) for s in secs for f in s.figures}
    _replace(out / "numbers.json", json.dumps(
        {"database": str(db), "generated_at": stamp, "captions": captions,
         "numbers": [n.to_json() for n in ids.nums]}, indent=1, default=str).encode("utf-8"))
    result.n_numbers = len(ids.nums)
    return result
