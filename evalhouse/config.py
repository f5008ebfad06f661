"""Every `EVALHOUSE_*` setting, parsed in one place (read when asked, so a changed environment counts).

| variable | meaning | default |
|---|---|---|
| `EVALHOUSE_DB` | the working file (paths.resolve_db) | `./evalhouse.duckdb` |
| `EVALHOUSE_LOCK_WAIT` | seconds a load / build / publish waits for the lock | 60 |
| `EVALHOUSE_LOAD_MEMORY_LIMIT` | DuckDB memory_limit of a load | 1GB |
| `EVALHOUSE_MAX_RECORD_BYTES` | a line or document past this is quarantined | 32 MiB |
| `EVALHOUSE_LOAD_COMPRESSION` | `zstd` or `auto` (DuckDB's choice) for the rows a load writes | zstd |
| `EVALHOUSE_LOAD_DIRECT` | 0: no direct path (A/B benchmarks, tests) | 1 |
| `EVALHOUSE_LOAD_BATCH` | 0: no small-file batches (A/B benchmarks, tests) | 1 |
| `EVALHOUSE_BUILD_ALL` | 1: a repeat build builds everything | 0 |
| `EVALHOUSE_DBT_PROJECT_DIR` | build another dbt project with the bundled profile | the shipped project |
| `EVALHOUSE_LAKE` | the lake folder of a Spark build (raw and marts as Parquet) | `<stem>.lake` beside the working file |
| `EVALHOUSE_SPARK_THREADS` | Spark local worker threads (`local[N]`; read by the bundled profile) | 2 |
| `EVALHOUSE_SPARK_MEMORY` | Spark driver memory (read by the bundled profile) | 4g |

A bad value is a UsageError that names the variable (the CLI exits 2); none is ever silently replaced.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

MEMORY_LIMIT = "1GB"
MAX_RECORD_BYTES = 32 << 20
LOCK_WAIT = 60.0
_TRUE = ("1", "true", "yes")
_FALSE = ("0", "false", "no")


class UsageError(ValueError):
    """A bad argument or setting; str() says which and what to do."""


def _env(name: str) -> str:
    return os.environ.get(name, "").strip()


def _flag(name: str, default: bool) -> bool:
    v = _env(name).lower()
    if not v:
        return default
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise UsageError(f"{name}={v!r}: expected 1 or 0")


def lock_wait() -> float:
    v = _env("EVALHOUSE_LOCK_WAIT")
    if not v:
        return LOCK_WAIT
    try:
        wait = float(v)
    except ValueError:
        wait = -1.0
    if not wait >= 0:
        raise UsageError(f"EVALHOUSE_LOCK_WAIT={v!r}: expected a number of seconds, e.g. 60")
    return wait


def load_memory_limit() -> str:
    v = _env("EVALHOUSE_LOAD_MEMORY_LIMIT") or MEMORY_LIMIT
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?\s*[KMGT]?i?B", v, re.IGNORECASE):
        raise UsageError(f"EVALHOUSE_LOAD_MEMORY_LIMIT={v!r}: expected a size such as 1GB or 512MB")
    return v


def max_record_bytes() -> int:
    """The largest line or document a load lands."""
    v = _env("EVALHOUSE_MAX_RECORD_BYTES")
    if not v:
        return MAX_RECORD_BYTES
    if not v.isdigit() or int(v) < 1024:
        raise UsageError(f"EVALHOUSE_MAX_RECORD_BYTES={v!r}: expected a whole number of bytes, at least 1024")
    return int(v)


def load_compression() -> str:
    v = (_env("EVALHOUSE_LOAD_COMPRESSION") or "zstd").lower()
    if v not in ("zstd", "auto"):
        raise UsageError(f"EVALHOUSE_LOAD_COMPRESSION={v!r}: expected zstd or auto")
    return v


def load_direct_enabled() -> bool:
    return _flag("EVALHOUSE_LOAD_DIRECT", True)


def load_batch_enabled() -> bool:
    return _flag("EVALHOUSE_LOAD_BATCH", True)


def build_all() -> bool:
    return _flag("EVALHOUSE_BUILD_ALL", False)


def dbt_project_dir(default: Path) -> Path:
    v = _env("EVALHOUSE_DBT_PROJECT_DIR")
    return Path(v) if v else default


def lake_dir(db: Path) -> Path:
    """The lake of a Spark build: $EVALHOUSE_LAKE, else <stem>.lake beside the working file `db`."""
    v = _env("EVALHOUSE_LAKE")
    if v:
        return Path(v)
    db = Path(db)
    return db.with_name(db.name.split(".", 1)[0] + ".lake")


def spark_threads() -> int:
    """EVALHOUSE_SPARK_THREADS (the profile reads the variable itself; this checks it before Spark starts)."""
    v = _env("EVALHOUSE_SPARK_THREADS") or "2"
    if not v.isdigit() or int(v) < 1:
        raise UsageError(f"EVALHOUSE_SPARK_THREADS={v!r}: expected a whole number of threads, at least 1")
    return int(v)


def version() -> str:
    """The installed evalhouse version ("unknown" when run from a tree that is not installed)."""
    try:
        from importlib.metadata import version as _v
        return _v("evalhouse")
    except Exception:  # noqa: BLE001 - metadata missing
        return "unknown"
