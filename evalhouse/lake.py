"""The lake: the raw layer as Parquet, for engines other than DuckDB (Spark reads it as its sources).

`export_raw(db, lake)` writes every `raw.*` table of the working file to `<lake>/raw/<table>/`, one
Parquet directory per table, with the same columns and provenance. Each table is written to a fresh
directory and swapped in whole, so a reader sees the previous export or the new one, never a mix, and a
re-export lands nothing twice (the raw tables are already exactly-once; the lake is their image).
A Spark build writes its marts under `<lake>/marts/<mart>/` (the `spark` target in the bundled profile).
"""
from __future__ import annotations

import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

import duckdb

from .locking import connect_ro, db_lock

# evalhouse's own bookkeeping of builds: not a source of any model
NOT_EXPORTED = {"builds", "build_tests"}


@dataclass(frozen=True)
class ExportedTable:
    table: str
    rows: int
    path: Path


def raw_dir(lake: Path) -> Path:
    return Path(lake) / "raw"


def export_raw(db: Path, lake: Path) -> list[ExportedTable]:
    """Export the raw tables of `db` to `<lake>/raw/<table>/` as Parquet; returns what was written."""
    out = raw_dir(lake)
    out.mkdir(parents=True, exist_ok=True)
    con = connect_ro(db)
    done: list[ExportedTable] = []
    try:
        tables = [r[0] for r in con.execute(
            "select table_name from duckdb_tables() where schema_name = 'raw' order by table_name").fetchall()]
        for table in tables:
            if table in NOT_EXPORTED:
                continue
            final = out / table
            tmp = out / f".{table}.tmp-{uuid.uuid4().hex[:8]}"
            tmp.mkdir()
            # one file per table keeps row order irrelevant and the listing small; an empty table still
            # writes a file, so its schema is known to the reader
            con.execute(f"copy (select * from raw.\"{table}\") to '{tmp / 'part-0.parquet'}' "
                        "(format parquet, compression zstd)")
            rows = con.execute(f"select count(*) from raw.\"{table}\"").fetchall()[0][0]
            old = out / f".{table}.old-{uuid.uuid4().hex[:8]}"
            if final.exists():
                final.rename(old)
            tmp.rename(final)
            shutil.rmtree(old, ignore_errors=True)
            done.append(ExportedTable(table, rows, final))
    finally:
        con.close()
    for stale in out.glob(".*.tmp-*"):       # a killed export's leftovers
        shutil.rmtree(stale, ignore_errors=True)
    return done


def export_raw_locked(db: Path, lake: Path, wait: float | None = None) -> list[ExportedTable]:
    """export_raw under the evalhouse lock: never a load half-landed (a load holds the same lock)."""
    with db_lock(db, wait=wait, what="export"):
        return export_raw(db, lake)


def mart_dir(lake: Path, mart: str) -> Path:
    """Where a Spark build writes the Parquet files of `mart`."""
    return Path(lake) / "marts" / mart


def marts_views_db(lake: Path, path: Path | None = None) -> Path:
    """A DuckDB file (default <lake>/lake_marts.duckdb) with one view marts.<mart> per Parquet mart a Spark
    build wrote, so its marts can be queried (and the demo's headline tables printed) with DuckDB. (Not
    marts.duckdb: DuckDB names a database after its file, and a database `marts` would shadow the schema.)"""
    lake = Path(lake).resolve()
    path = Path(path) if path else lake / "lake_marts.duckdb"
    tmp = path.with_name(path.name + f".tmp-{uuid.uuid4().hex[:8]}")
    con = duckdb.connect(str(tmp))
    try:
        con.execute("create schema marts")
        for d in sorted(p for p in (lake / "marts").iterdir() if p.is_dir() and any(p.glob("*.parquet"))):
            glob = str(d / "*.parquet").replace("'", "''")
            con.execute(f'create view marts."{d.name}" as select * from read_parquet(\'{glob}\')')
        con.execute("checkpoint")
    finally:
        con.close()
    tmp.replace(path)
    return path
