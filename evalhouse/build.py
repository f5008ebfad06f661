"""`evalhouse build`: make sure the raw schema exists, then `dbt build` with the bundled profile."""
from __future__ import annotations

from pathlib import Path

import duckdb

from .dbt_runner import run_dbt
from .schema import ensure_raw_schema


def main_build(db: Path, dbt_args: list[str] | None = None) -> int:
    db.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(db))
    try:
        ensure_raw_schema(con)
    finally:
        con.close()
    proc = run_dbt(["build", *(dbt_args or [])], db=db)
    return 0 if proc.returncode == 0 else 1
