"""Helpers for the loader tests: write files, load them, read the raw tables back."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb

from evalhouse.load import load_paths
from evalhouse.schema import CODER_EVAL_TABLES, JSONL_TABLES
from tests.helpers import query

VENV_BIN = Path(sys.executable).parent
EVALHOUSE = str(VENV_BIN / "evalhouse")


def write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def load(paths, db: Path, **kw):
    return load_paths([str(p) for p in (paths if isinstance(paths, (list, tuple)) else [paths])], str(db),
                      wait=kw.pop("wait", 5), **kw)


q = query  # the loader tests' short name for tests.helpers.query


def rows(db: Path, family: str = "big", path: Path | None = None) -> list[tuple]:
    """(source_line, record, repaired) of one JSONL family, optionally for one file, by line."""
    sql = f"SELECT source_line, record, repaired FROM raw.{JSONL_TABLES[family]}"
    if path is not None:
        return q(db, sql + " WHERE source_file = ? ORDER BY source_line", [str(path)])
    return q(db, sql + " ORDER BY source_file, source_line")


def errors(db: Path, path: Path | None = None) -> list[tuple]:
    """(source_line, error, raw_text) of raw.load_errors."""
    sql = "SELECT source_line, error, raw_text FROM raw.load_errors"
    if path is not None:
        return q(db, sql + " WHERE source_file = ? ORDER BY source_line NULLS FIRST", [str(path)])
    return q(db, sql + " ORDER BY source_file, source_line NULLS FIRST")


def fingerprint(db: Path) -> dict:
    """Row count and an order-independent content hash of every raw table (the warehouse state)."""
    if not Path(db).exists():
        return {}
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'raw' ORDER BY 1").fetchall()]
        return {t: con.execute(f'SELECT count(*), coalesce(sum(hash(t)), 0) FROM raw."{t}" AS t').fetchall()[0]
                for t in tables}
    finally:
        con.close()


def run_cli(args: list[str], env_extra: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.run([EVALHOUSE, *args], capture_output=True, text=True, timeout=timeout, env=env)


def total_raw_rows(db: Path) -> int:
    tables = list(JSONL_TABLES.values()) + list(CODER_EVAL_TABLES.values())
    return sum(q(db, f"SELECT count(*) FROM raw.{t}")[0][0] for t in tables)
