"""Land brownfield JSONL fixtures into raw.<family>_lines for the tests.

Uses the real loader (`evalhouse.load.load_paths`) when it exists; otherwise a minimal
stand-in that writes the same raw rows: one row per non-empty line with the record as JSON
text, 1-based line numbers, sha256s, and NaN / Infinity rewritten to null with a `repaired`
note (as the loader does). Lines that are not JSON objects are written to raw.load_errors.
"""
from __future__ import annotations

import hashlib
import json
import math
import uuid
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from evalhouse.schema import JSONL_TABLES, ensure_raw_schema


def _nonfinite_paths(obj, path="$"):
    if isinstance(obj, float) and not math.isfinite(obj):
        yield path
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _nonfinite_paths(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _nonfinite_paths(v, f"{path}[{i}]")


def _scrub(obj):
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _scrub(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_scrub(v) for v in obj]
    return obj


def land(db: Path, paths: list[Path]) -> str:
    """Land `paths` (files or directories) with the real loader when present; return the load_id."""
    try:
        from evalhouse.load import load_paths
    except ImportError:  # loader not there: the stand-in below
        files = [f for p in paths for f in (sorted(Path(p).rglob("*.jsonl")) if Path(p).is_dir() else [Path(p)])]
        return land_jsonl(db, files)
    return load_paths([str(p) for p in paths], db).load_id


def land_jsonl(db: Path, files: list[Path], family: str = "big") -> str:
    """Stand-in loader: land `files` as `family` lines in `db`; return the load_id."""
    table = JSONL_TABLES[family]
    load_id = uuid.uuid4().hex
    now = datetime.now(timezone.utc)
    rows, errors = [], []
    for f in files:
        data = Path(f).read_bytes()
        fsha = hashlib.sha256(data).hexdigest()
        for i, line in enumerate(data.decode("utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as exc:
                errors.append((load_id, str(f), i, f"invalid JSON: {exc}", line[:4096]))
                continue
            if not isinstance(obj, dict):
                errors.append((load_id, str(f), i, "not a JSON object", line[:4096]))
                continue
            bad = list(_nonfinite_paths(obj))
            record = json.dumps(_scrub(obj), ensure_ascii=False) if bad else line
            repaired = ("nonfinite: " + ", ".join(bad)) if bad else None
            rows.append((load_id, now, str(f), i, record,
                         hashlib.sha256(line.encode()).hexdigest(), fsha, repaired))
    con = duckdb.connect(str(db))
    try:
        ensure_raw_schema(con)
        con.execute("insert into raw.loads (load_id, started_at, finished_at, records_landed, lines_quarantined)"
                    " values (?, ?, ?, ?, ?)", [load_id, now, now, len(rows), len(errors)])
        if rows:
            con.executemany(f"insert into raw.{table} values (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        if errors:
            con.executemany("insert into raw.load_errors values (?, ?, ?, ?, ?)", errors)
    finally:
        con.close()
    return load_id
