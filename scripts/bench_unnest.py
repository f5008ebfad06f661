"""Unnesting a JSON list on DuckDB: the shipped json_each / json_each_entry macros against the table-function
form they replaced, on the same documents in the same run.

    .venv/bin/python scripts/bench_unnest.py [ELEMENTS] [PAD_BYTES] [DOCS] [ROUNDS]

Builds DOCS documents of a list of ELEMENTS objects padded to PAD_BYTES (defaults: 800 elements of 12 kB, one
10 MB document, the shape of an inspect_ai log with long transcripts), then DOCS documents of one object of
ELEMENTS / 8 members of the same size (the baseline's object form grows much faster: at 800 members of 6 kB it
took a minute and then ran out of 24 GB of memory).
The shipped SQL is rendered from macros/engine/json.sql (the DuckDB `default__` macros); the baseline is the
previous DuckDB form, `json_each(...)` as a table function in a lateral join. A third case keeps the shipped
unnest and reads a field of the document (task.json's task_id, a reduction's scorer) once per element from the
whole document (baseline) or once per document before the unnest (shipped: base_coder_eval__task_docs,
base_inspect__reduced_samples), on at least 20 documents of ELEMENTS / 4 elements of PAD_BYTES / 2 (with one
document DuckDB reads the field once either way). Each round runs both forms, alternating, and checks they return
the same rows; prints each round and the median ratio (baseline / shipped).
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import duckdb
import jinja2

MACROS = Path(__file__).resolve().parent.parent / "macros" / "engine" / "json.sql"

BASELINE = {
    "list": """cross join lateral (
        select je.value::varchar as value, je.key::integer as position
        from json_each({expr}, '{path}') as je
        where json_type({expr}, '{path}') = 'ARRAY'
    ) as u""",
    "object": """cross join lateral (
        select je.key::varchar as key, je.value::varchar as value,
            (row_number() over (order by je.id) - 1)::integer as position
        from json_each({expr}, '{path}') as je
        where json_type({expr}, '{path}') = 'OBJECT'
    ) as u""",
}


def shipped(kind: str, path: str) -> str:
    """The lateral join the DuckDB macro compiles to, unnesting `path` of docs.doc as `u`."""
    module = jinja2.Environment(extensions=["jinja2.ext.do"]).from_string(MACROS.read_text()).module
    macro = module.default__json_each if kind == "list" else module.default__json_each_entry
    return str(macro("d.doc", path, "u"))


def baseline(kind: str, path: str) -> str:
    return BASELINE[kind].format(expr="d.doc", path=path)


def _query(unnest: str, key: str = "null", docs: str = "docs") -> str:
    return f"select d.id, {key} as key, u.value, u.position from {docs} as d {unnest} order by 1, 4"


def unnest_query(kind: str, path: str, form: str) -> str:
    """SELECT of (id, key, value, position) over table docs(id, doc), ordered; form 'baseline' or 'shipped'."""
    return _query((baseline if form == "baseline" else shipped)(kind, path), "u.key" if kind == "object" else "null")


def _cases() -> dict[str, tuple[str, str, str]]:
    """kind -> (the document's key, baseline SQL, shipped SQL)."""
    items = shipped("list", "$.items")
    task_id_once = "(select id, json_extract_string(doc, '$.task_id') as task_id, doc from docs)"
    return {
        "list": ("items", unnest_query("list", "$.items", "baseline"), unnest_query("list", "$.items", "shipped")),
        "object": ("members", unnest_query("object", "$.members", "baseline"),
                   unnest_query("object", "$.members", "shipped")),
        "field": ("items", _query(items, "json_extract_string(d.doc, '$.task_id')"),
                  _query(items, "d.task_id", task_id_once)),
    }


def _timed(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[float, list]:
    t0 = time.monotonic()
    rows = con.execute(sql).fetchall()
    return time.monotonic() - t0, rows


def main(elements: int = 800, pad: int = 12_000, docs: int = 1, rounds: int = 5) -> None:
    for kind, (key, base_sql, new_sql) in _cases().items():
        n = {"list": elements, "object": max(1, elements // 8), "field": max(1, elements // 4)}[kind]
        n_docs = max(docs, 20) if kind == "field" else docs
        con = duckdb.connect()
        con.execute("create table docs (id integer, doc varchar)")
        for i in range(n_docs):
            items = [{"id": j, "pad": "x" * (pad // 2 if kind == "field" else pad)} for j in range(n)]
            body = {f"k{j}": x for j, x in enumerate(items)} if kind == "object" else items
            con.execute("insert into docs values (?, ?)", [i, json.dumps({"task_id": f"t{i}", key: body})])
        size = con.execute("select sum(length(doc)) from docs").fetchall()[0][0]
        print(f"{kind}: {n_docs} document(s) of {n} elements, {size / 1e6:.1f} MB in all")
        ratios = []
        for r in range(rounds):
            t_base, rows_base = _timed(con, base_sql)
            t_new, rows_new = _timed(con, new_sql)
            if rows_base != rows_new or len(rows_new) != n_docs * n:
                sys.exit(f"{kind}: the two forms return different rows ({len(rows_base)} vs {len(rows_new)})")
            ratios.append(t_base / t_new)
            print(f"  {kind} round {r + 1}: baseline {t_base:.3f} s, shipped {t_new:.3f} s, ratio {ratios[-1]:.1f}x")
        print(f"{kind}: median ratio baseline / shipped {statistics.median(ratios):.1f}x over {rounds} rounds "
              f"({len(rows_new)} rows, identical)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:5]))
