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


def _lake_rows(lake: Path, table: str) -> list[tuple]:
    return _rows(duckdb.connect(), f"select * from read_parquet('{lake}/raw/{table}/*.parquet')")


def _db_rows(db: Path, table: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return _rows(con, f"select * from raw.{table}")
    finally:
        con.close()


def test_an_append_exports_only_the_new_load_and_a_reexport_writes_nothing(tmp_path: Path):
    logs = tmp_path / "logs_big"
    logs.mkdir()
    src = FIXTURES / "brownfield" / "clean" / "logs_big" / "runs_small.jsonl"
    lines = src.read_text().splitlines(keepends=True)
    (logs / "runs.jsonl").write_text("".join(lines[:10]))
    db, lake = tmp_path / "w.duckdb", tmp_path / "lake"
    evalhouse_cli(["load", "--db", str(db), str(tmp_path)], tmp_path)
    first = {t.table: t for t in export_raw(db, lake)}
    assert (first["big_lines"].rows_written, first["big_lines"].files_written) == (10, 1)
    (old_file,) = (lake / "raw" / "big_lines").glob("*.parquet")
    inode = old_file.stat().st_ino
    (logs / "runs.jsonl").write_text("".join(lines[:15]))
    evalhouse_cli(["load", "--db", str(db), str(tmp_path)], tmp_path)
    second = {t.table: t for t in export_raw(db, lake)}
    # only the appended 5 lines are written (the new load's file); the first load's file is the same file
    assert (second["big_lines"].rows, second["big_lines"].rows_written, second["big_lines"].files_written) == (15, 5, 1)
    assert old_file.stat().st_ino == inode
    assert _lake_rows(lake, "big_lines") == _db_rows(db, "big_lines")
    n, distinct = duckdb.connect().execute(f"select count(*), count(distinct source_line) from "
                                           f"read_parquet('{lake}/raw/big_lines/*.parquet')").fetchall()[0]
    assert (n, distinct) == (15, 15)
    third = export_raw(db, lake)
    assert {t.table: t.rows_written for t in third if t.rows_written} == {}, "a re-export writes nothing"
    assert all(_lake_rows(lake, t.table) == _db_rows(db, t.table) for t in third)


def test_a_rewritten_log_file_leaves_no_stale_lines_in_the_lake(tmp_path: Path):
    """A log file rewritten in place: the loader replaces its lines; the lake's image follows (the old load's
    file is rewritten without them, the new load's file is added)."""
    logs = tmp_path / "logs_big"
    logs.mkdir()
    lines = (FIXTURES / "brownfield" / "clean" / "logs_big" / "runs_small.jsonl").read_text().splitlines(keepends=True)
    (logs / "a.jsonl").write_text("".join(lines[:6]))
    (logs / "b.jsonl").write_text("".join(lines[6:12]))
    db, lake = tmp_path / "w.duckdb", tmp_path / "lake"
    evalhouse_cli(["load", "--db", str(db), str(tmp_path)], tmp_path)
    export_raw(db, lake)
    (logs / "a.jsonl").write_text("".join(lines[12:16]))          # rewritten: 4 different lines
    evalhouse_cli(["load", "--db", str(db), str(tmp_path)], tmp_path)
    after = {t.table: t for t in export_raw(db, lake)}
    assert after["big_lines"].rows == 10
    assert _lake_rows(lake, "big_lines") == _db_rows(db, "big_lines")
    for table in ("files", "loads", "load_errors"):
        assert _lake_rows(lake, table) == _db_rows(db, table), table


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
