"""Where things live: the project root, the bundled profile, the default database file."""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent          # the dbt project (dbt_project.yml) lives at the repo root
PROFILES_DIR = PACKAGE_DIR / "profiles"   # bundled profiles.yml: no ~/.dbt needed
FIXTURES_DIR = PROJECT_DIR / "fixtures"   # sample data shipped with the project

DEFAULT_DB = "evalhouse.duckdb"


# DuckDB names a database after its file name up to the first dot; these names are taken by
# DuckDB's own catalogs, so dbt would resolve `main.raw...` against the wrong database.
RESERVED_CATALOG_NAMES = {"main", "temp", "system", "memory"}


def check_db_name(db: Path) -> str | None:
    """A message for a database file name DuckDB cannot use as a catalog, else None."""
    catalog = db.name.split(".", 1)[0]
    if catalog.lower() in RESERVED_CATALOG_NAMES:
        return (f"{db.name}: DuckDB would name this database '{catalog}', which is reserved "
                f"({', '.join(sorted(RESERVED_CATALOG_NAMES))}); choose another file name, e.g. evalhouse.duckdb")
    return None


def resolve_db(db: str | os.PathLike | None) -> Path:
    """--db, else $EVALHOUSE_DB, else ./evalhouse.duckdb (contract: CLI)."""
    if db:
        return Path(db).expanduser().resolve()
    env = os.environ.get("EVALHOUSE_DB")
    if env:
        return Path(env).expanduser().resolve()
    return Path(DEFAULT_DB).resolve()
