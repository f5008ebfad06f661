"""Where things live: the project root, the bundled profile, the default database file."""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent          # the dbt project (dbt_project.yml) lives at the repo root
PROFILES_DIR = PACKAGE_DIR / "profiles"   # bundled profiles.yml: no ~/.dbt needed
FIXTURES_DIR = PROJECT_DIR / "fixtures"   # sample data shipped with the project

DEFAULT_DB = "evalhouse.duckdb"


def resolve_db(db: str | os.PathLike | None) -> Path:
    """--db, else $EVALHOUSE_DB, else ./evalhouse.duckdb (contract: CLI)."""
    if db:
        return Path(db).expanduser().resolve()
    env = os.environ.get("EVALHOUSE_DB")
    if env:
        return Path(env).expanduser().resolve()
    return Path(DEFAULT_DB).resolve()
