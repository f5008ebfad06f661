"""Sections to files: one self-contained HTML page, SVG + PDF per figure, LaTeX / Markdown / CSV per table,
and numbers.json (every number with the mart row it comes from; the page's `data-n` attributes point into it).

The page loads nothing: figures are inlined as data: URIs, the style is inline, there is no script, and a
Content-Security-Policy forbids every other source, so it opens offline and makes no request.
"""
from __future__ import annotations

import base64
import csv
import html
import io
import re
from typing import Iterable

from .. import sql as sqlfmt
from .content import Cell, Figure, Part, Section, Table
from .numbers import Interval, Num, plain

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2329;max-width:1180px;margin:0 auto;
padding:0 20px 60px}
h1{font-size:24px;margin:24px 0 4px}h2{font-size:19px;margin:36px 0 8px;border-bottom:1px solid #dfe3e8;padding-bottom:4px}
h3{font-size:15px;margin:22px 0 6px}figure{margin:12px 0 22px}figure img{max-width:100%;height:auto;display:block}
figcaption{font-size:12.5px;color:#3c4650;max-width:900px;margin-top:6px}
.files{font-size:11.5px;color:#6b7785}.absent{background:#fff7e6;border-left:3px solid #f0a500;padding:6px 10px}
table{border-collapse:collapse;font-size:11.5px;margin:6px 0 14px;display:block;overflow-x:auto}th,td{padding:2px 8px;border-bottom:1px solid #edf0f3;
text-align:left;vertical-align:top}th{border-bottom:1.5px solid #8d99a6}td.num{text-align:right;white-space:nowrap}
nav a{margin-right:12px}details summary{cursor:pointer;color:#1f5fa8;font-size:12.5px}
"""


class Numbering:
    """Gives each `Num` an id in document order and keeps them for numbers.json."""

    def __init__(self):
        self.nums: list[Num] = []

    def __call__(self, n: Num) -> Num:
        if not n.id:
            n.id = f"n{len(self.nums) + 1}"
            self.nums.append(n)
        return n


def text(cell: Cell) -> str:
    if cell is None:
        return "—"
    if isinstance(cell, (Num, Interval)):
        return cell.text()
    if isinstance(cell, list):
        return "".join(text(p) for p in cell)
    return str(cell)


def _num_html(n: Num | None, ids: Numbering) -> str:
    if n is None:
        return "—"
    return f'<span data-n="{ids(n).id}">{html.escape(n.text())}</span>'


def cell_html(cell: Cell, ids: Numbering) -> str:
    if isinstance(cell, Num):
        return _num_html(cell, ids)
    if isinstance(cell, Interval):
        if cell.est.value is None:
            return _num_html(cell.est, ids)
        if cell.low.value is None or cell.high.value is None:
            return f"{_num_html(cell.est, ids)} [no interval]"
        return f"{_num_html(cell.est, ids)} [{_num_html(cell.low, ids)}, {_num_html(cell.high, ids)}]"
    if isinstance(cell, list):
        return "".join(cell_html(p, ids) for p in cell)
    # `code` in a statement (the rule texts) as code
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text(cell)))


def _is_num(cell: Cell) -> bool:
    """Right-aligned: intervals and numbers (text and labels stay left)."""
    return isinstance(cell, Interval) or (isinstance(cell, Num) and cell.kind not in ("text",))


def table_html(t: Table, ids: Numbering) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in t.columns)
    body = []
    for row in t.rows:
        tds = "".join(f'<td{" class=num" if _is_num(c) else ""}>{cell_html(c, ids)}</td>' for c in row)
        body.append(f"<tr>{tds}</tr>")
    cap = f'<p class="files">{caption_html(t.caption, ids)}</p>' if t.caption else ""
    return (f'<table id="table-{t.id}" data-table="{t.id}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>{cap}')


def caption_text(parts: Iterable[Part]) -> str:
    return "".join(text(p) for p in parts)


def caption_html(parts: Iterable[Part], ids: Numbering) -> str:
    return "".join(cell_html(p, ids) for p in parts)


def table_files(t: Table) -> dict[str, str]:
    """{extension: content} for .md, .tex (booktabs) and .csv. CSV carries full-precision values, an interval
    as three columns; Markdown and LaTeX carry the printed text, `0.82 [0.71, 0.90]`."""
    rows = [[text(c) for c in r] for r in t.rows]
    out = {"md": sqlfmt.render(t.columns, rows, "markdown") + "\n",
           "tex": sqlfmt.render(t.columns, rows, "latex") + "\n"}
    header: list[str] = []
    for i, name in enumerate(t.columns):
        if any(isinstance(r[i], Interval) for r in t.rows):
            header += [name, f"{name} ci_low", f"{name} ci_high"]
        else:
            header.append(name)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for r in t.rows:
        line = []
        for i, c in enumerate(r):
            interval_col = any(isinstance(x[i], Interval) for x in t.rows)
            if isinstance(c, Interval):
                line += [plain(c.est.value), plain(c.low.value), plain(c.high.value)]
            elif interval_col:
                line += [text(c), "", ""]
            elif isinstance(c, Num):
                line.append(plain(c.value))
            else:
                line.append(text(c))
        w.writerow(["" if v is None else v for v in line])
    out["csv"] = buf.getvalue()
    return out


def figure_html(f: Figure, svg: bytes, ids: Numbering) -> str:
    uri = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
    files = (f"figures/{f.id}.svg · figures/{f.id}.pdf"
             + (f" · tables/{f.table.id}.tex · .md · .csv" if f.table else ""))
    out = [f'<figure id="fig-{f.id}" data-figure="{f.id}"><h3>{html.escape(f.title)}</h3>',
           f'<img alt="{html.escape(f.title)}" src="{uri}">',
           f"<figcaption>{caption_html(f.caption, ids)}</figcaption>", f'<p class="files">{files}</p>']
    if f.table is not None:
        is_open = " open" if len(f.table.rows) <= 16 else ""
        out.append(f"<details{is_open}><summary>Table: {html.escape(f.table.title)} ({len(f.table.rows)} rows)"
                   f"</summary>{table_html(f.table, ids)}</details>")
    out.append("</figure>")
    return "".join(out)


def page(title: str, header: str, sections: list[Section], svgs: dict[str, bytes], ids: Numbering) -> str:
    nav = " ".join(f'<a href="#{s.id}">{html.escape(s.title)}</a>' for s in sections)
    body = []
    for s in sections:
        part = [f'<section id="{s.id}" data-section="{s.id}"><h2>{html.escape(s.title)}</h2>']
        if s.intro:
            part.append(f"<p>{html.escape(s.intro)}</p>")
        for a in s.absent:
            part.append(f'<p class="absent">Absent: {html.escape(a)}</p>')
        for f in s.figures:
            part.append(figure_html(f, svgs[f.id], ids))
        for t in s.tables:
            part.append(f"<h3>{html.escape(t.title)}</h3>{table_html(t, ids)}")
        part.append("</section>")
        body.append("".join(part))
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<header><h1>{html.escape(title)}</h1><p>{header}</p><nav>{nav}</nav></header>"
            f'{"".join(body)}</body></html>\n')
