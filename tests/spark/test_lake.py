"""The lake export (evalhouse.lake): the raw layer as Parquet, the same columns and rows, replaced whole."""
from __future__ import annotations

from pathlib import Path

import duckdb

from helpers import FIXTURES, evalhouse_cli

from evalhouse.lake import export_raw, marts_views_db


def _rows(con, sql):
    return sorted(con.execute(sql).fetchall(), key=repr)


def test_export_is_the_raw_tables_and_a_reexport_lands_nothing_twice(tmp_path: Path):
    db = tmp_path / "w.duckdb"
    evalhouse_cli(["load", "--db", str(db), str(FIXTURES / "brownfield" / "clean")], tmp_path)
    lake = tmp_path / "lake"
    first = {t.table: t.rows for t in export_raw(db, lake)}
    assert first["big_lines"] > 0 and "builds" not in first
    again = {t.table: t.rows for t in export_raw(db, lake)}
    assert again == first
    con = duckdb.connect(str(db), read_only=True)
    try:
        for table in ("big_lines", "files", "loads"):
            parquet = _rows(con, f"select * from read_parquet('{lake}/raw/{table}/*.parquet')")
            assert parquet == _rows(con, f"select * from raw.{table}"), table
            cols = [d[0] for d in con.execute(f"select * from read_parquet('{lake}/raw/{table}/*.parquet') limit 0")
                    .description]
            assert cols == [d[0] for d in con.execute(f"select * from raw.{table} limit 0").description]
    finally:
        con.close()
    assert not list((lake / "raw").glob(".*")), "no temporary folder left behind"


def test_an_append_reexported_holds_each_line_once(tmp_path: Path):
    logs = tmp_path / "logs_big"
    logs.mkdir()
    src = FIXTURES / "brownfield" / "clean" / "logs_big" / "runs_small.jsonl"
    lines = src.read_text().splitlines(keepends=True)
    (logs / "runs.jsonl").write_text("".join(lines[:10]))
    db = tmp_path / "w.duckdb"
    evalhouse_cli(["load", "--db", str(db), str(tmp_path)], tmp_path)
    export_raw(db, tmp_path / "lake")
    (logs / "runs.jsonl").write_text("".join(lines[:15]))
    evalhouse_cli(["load", "--db", str(db), str(tmp_path)], tmp_path)
    export_raw(db, tmp_path / "lake")
    con = duckdb.connect()
    n, distinct = con.execute(f"select count(*), count(distinct source_line) from "
                              f"read_parquet('{tmp_path}/lake/raw/big_lines/*.parquet')").fetchall()[0]
    assert (n, distinct) == (15, 15)


def test_marts_views_db_reads_each_parquet_mart(tmp_path: Path):
    lake = tmp_path / "lake"
    (lake / "marts" / "m1").mkdir(parents=True)
    (lake / "marts" / "empty").mkdir(parents=True)
    con = duckdb.connect()
    con.execute(f"copy (select 1 as a union all select 2) to '{lake}/marts/m1/part-0.parquet' (format parquet)")
    views = marts_views_db(lake)
    con = duckdb.connect(str(views), read_only=True)
    assert con.execute("select sum(a) from marts.m1").fetchall() == [(3,)]
    assert [r[0] for r in con.execute("select view_name from duckdb_views() where schema_name = 'marts'")
            .fetchall()] == ["m1"]
