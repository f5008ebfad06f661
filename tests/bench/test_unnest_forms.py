"""The DuckDB json_each / json_each_entry macros (an unnest in a lateral's SELECT list) return exactly the rows of
DuckDB's json_each table function, the form they replaced, on documents built to break them: nulls, nested and
empty containers, NaN-like text, duplicate keys (DuckDB keeps both), keys with dots and quotes, a path that is not
a list, a missing path, a NULL document and the root `$`. The SQL is rendered from macros/engine/json.sql by
scripts/bench_unnest.py, so the benchmark and this test run the same text; a smoke run of the benchmark checks
its own row equality on a small input."""
from __future__ import annotations

import json

import duckdb
import pytest

from helpers import script_module

DOCS = [
    '{"a": [1, "two", null, [3, [4]], {"k": null}, 1.50, -0.0, true, "", "NaN"]}',
    '{"a": {"k": 1, "z": "s", "m": null, "n": [1], "o": {"p": 2}, "dup": 1, "dup": 2, "we.ird": 3, "q\\"k": 4}}',
    '{"a": []}',
    '{"a": {}}',
    '{"a": null}',
    '{"a": 3}',
    '{"a": "[1, 2]"}',
    '{"b": [1]}',
    '[10, {"x": [1]}, null]',
    '{}',
    None,
]


@pytest.fixture(scope="module")
def con():
    con = duckdb.connect()
    con.execute("create table docs (id integer, doc varchar)")
    for i, doc in enumerate(DOCS):
        con.execute("insert into docs values (?, ?)", [i, doc])
    yield con
    con.close()


@pytest.mark.parametrize("kind", ["list", "object"])
@pytest.mark.parametrize("path", ["$.a", "$"])
def test_shipped_macro_returns_the_table_functions_rows(con, kind, path):
    bench = script_module("bench_unnest")
    want = con.execute(bench.unnest_query(kind, path, "baseline")).fetchall()
    got = con.execute(bench.unnest_query(kind, path, "shipped")).fetchall()
    assert got == want
    # rows come from exactly the documents whose `path` is a non-empty list / object (not from a NULL document,
    # a scalar, a string that looks like a list, a missing key or an empty container)
    expected_ids = {("list", "$.a"): {0}, ("object", "$.a"): {1}, ("list", "$"): {8},
                    ("object", "$"): {0, 1, 2, 3, 4, 5, 6, 7}}[(kind, path)]
    assert {r[0] for r in got} == expected_ids


def test_positions_and_values_are_the_documents(con):
    bench = script_module("bench_unnest")
    rows = con.execute(bench.unnest_query("list", "$.a", "shipped")).fetchall()
    assert [r[3] for r in rows] == list(range(10))
    assert [json.loads(r[2]) for r in rows][:5] == [1, "two", None, [3, [4]], {"k": None}]
    entries = con.execute(bench.unnest_query("object", "$.a", "shipped")).fetchall()
    assert [r[1] for r in entries] == ["k", "z", "m", "n", "o", "dup", "dup", "we.ird", 'q"k']
    assert [r[2] for r in entries][5:7] == ["1", "2"]


def test_benchmark_runs_and_checks_its_rows(capsys):
    script_module("bench_unnest").main(20, 100, 2, 1)
    out = capsys.readouterr().out
    assert out.count("identical") == 3, out
