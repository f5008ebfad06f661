"""The lake: the raw layer as Parquet, for engines other than DuckDB (Spark reads it as its sources).

`export_raw(db, lake)` writes every `raw.*` table of the working file to `<lake>/raw/<table>/`, one
Parquet folder per table, with the same columns and provenance.
- **Incremental.** A table of landed log content (it has `load_id` and `source_file`) is one Parquet file
  per load, `load-<id>.parquet`. A file is rewritten only when its load's rows changed (count and a digest
  of the rows, kept in the folder's `_evalhouse_export.json`): an append writes only the new load's file, a
  re-export writes nothing, and a rewritten log file rewrites the old load's file (its old lines are gone)
  and adds the new load's. The small bookkeeping tables (`loads`, `files`) are one file, rewritten when
  they changed.
- **Whole-table swaps.** Each table's new folder is assembled beside the old one (unchanged files are
  hard links, not copies) and swapped in whole, so a reader sees the previous export or the new one,
  never a mix. A re-export lands nothing twice: the raw tables are exactly-once, and the lake is their image.
A Spark build writes its marts under `<lake>/marts/<mart>/` (the `spark` target in the bundled profile).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

import duckdb

from .locking import connect_ro, db_lock

# evalhouse's own bookkeeping of builds: not a source of any model
NOT_EXPORTED = {"builds", "build_tests"}
# beside the Parquet files of a table: what each file holds (Spark and DuckDB's *.parquet globs skip it)
MANIFEST = "_evalhouse_export.json"


@dataclass(frozen=True)
class ExportedTable:
    table: str
    rows: int            # rows in the lake's image of the table
    path: Path
    rows_written: int    # rows this export wrote (0: nothing changed)
    files_written: int


def raw_dir(lake: Path) -> Path:
    return Path(lake) / "raw"


def _part_name(load_id: str) -> str:
    """A file name per load: readable, and unique even when two ids differ only in unsafe characters."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", load_id)[:60]
    return f"load-{safe}-{hashlib.sha1(load_id.encode()).hexdigest()[:8]}.parquet"


def _parts(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, tuple[str | None, list]]:
    """file name -> (load_id or None for the whole table, [rows, digest, digest]) for the table's export."""
    cols = {r[0] for r in con.execute(f'describe raw."{table}"').fetchall()}
    digest = "count(*), cast(bit_xor(hash(t)) as varchar), cast(sum(cast(hash(t) as hugeint)) as varchar)"
    if {"load_id", "source_file"} <= cols:
        rows = con.execute(f'select load_id, {digest} from raw."{table}" as t group by load_id').fetchall()
        return {_part_name(r[0]): (r[0], list(r[1:])) for r in rows}
    n, *d = con.execute(f'select {digest} from raw."{table}" as t').fetchall()[0]
    return {"all.parquet": (None, [n, *d])}


def _export_table(con: duckdb.DuckDBPyConnection, out: Path, table: str) -> ExportedTable:
    final = out / table
    old_manifest = json.loads((final / MANIFEST).read_text()) if (final / MANIFEST).exists() else {}
    parts = _parts(con, table)
    tmp = out / f".{table}.tmp-{uuid.uuid4().hex[:8]}"
    tmp.mkdir()
    written = files = 0
    for name, (load_id, fp) in sorted(parts.items()):
        if old_manifest.get(name) == fp and (final / name).exists():
            os.link(final / name, tmp / name)           # unchanged: the same file, no copy
            continue
        where = "" if load_id is None else "where load_id = $load_id"
        con.execute(f"copy (select * from raw.\"{table}\" {where}) to '{tmp / name}' (format parquet, compression zstd)",
                    {} if load_id is None else {"load_id": load_id})
        written += fp[0]
        files += 1
    if not parts:                                       # no load yet: still a file, with the schema, for readers
        con.execute(f"copy (select * from raw.\"{table}\" limit 0) to '{tmp / 'empty.parquet'}' (format parquet)")
    (tmp / MANIFEST).write_text(json.dumps({k: v[1] for k, v in parts.items()}, sort_keys=True))
    old = out / f".{table}.old-{uuid.uuid4().hex[:8]}"
    if final.exists():
        final.rename(old)
    tmp.rename(final)
    shutil.rmtree(old, ignore_errors=True)
    return ExportedTable(table, sum(fp[0] for _, fp in parts.values()), final, written, files)


def export_raw(db: Path, lake: Path) -> list[ExportedTable]:
    """Export the raw tables of `db` to `<lake>/raw/<table>/` as Parquet (only what changed since the last
    export); returns each table's image and what was written."""
    out = raw_dir(lake)
    out.mkdir(parents=True, exist_ok=True)
    con = connect_ro(db)
    try:
        tables = [r[0] for r in con.execute(
            "select table_name from duckdb_tables() where schema_name = 'raw' order by table_name").fetchall()]
        done = [_export_table(con, out, t) for t in tables if t not in NOT_EXPORTED]
    finally:
        con.close()
    for stale in [*out.glob(".*.tmp-*"), *out.glob(".*.old-*")]:       # a killed export's leftovers
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
