"""Land brownfield matrix / layered fixture files into raw tables.

Uses evalhouse.load.load_paths when the loader exists; until then a small INSERT helper (parameters
only) that writes rows with the same provenance columns the loader writes.
"""
from __future__ import annotations

import hashlib
import uuid
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from evalhouse.schema import ensure_raw_schema

TABLES = {"logs": "matrix_lines", "logs_layered": "layered_lines", "logs_big": "big_lines"}


def _insert(db: Path, paths: list[Path]) -> None:
    con = duckdb.connect(str(db))
    try:
        ensure_raw_schema(con)
        load_id = f"test-{uuid.uuid4().hex[:12]}"
        now = datetime.now(timezone.utc)
        for path in paths:
            table = TABLES[path.parent.name]
            data = path.read_bytes()
            file_sha = hashlib.sha256(data).hexdigest()
            rows = []
            for i, line in enumerate(data.decode().splitlines(), start=1):
                if not line.strip():
                    continue
                rows.append((load_id, now, str(path), i, line, hashlib.sha256(line.encode()).hexdigest(),
                             file_sha, None))
            con.executemany(f"insert into raw.{table} values (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    finally:
        con.close()


def land(db: Path, paths: list[Path]) -> None:
    """Land JSONL files (their parent directory names the family) into the raw tables of `db`."""
    try:
        from evalhouse.load import load_paths  # type: ignore
    except ImportError:
        load_paths = None
    if load_paths is not None:
        load_paths([Path(p) for p in paths], db=db)
    else:
        _insert(db, [Path(p) for p in paths])
