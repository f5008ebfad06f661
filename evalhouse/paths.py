"""Where things live: the project root, the bundled profile, the default database file."""
from __future__ import annotations

import errno
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
_BUNDLED = PACKAGE_DIR / "project"        # the dbt project inside an installed wheel (setup.py copies it)
# the dbt project (dbt_project.yml): in the wheel, else at the root of the checkout (an editable install)
INSTALLED = (_BUNDLED / "dbt_project.yml").is_file()
PROJECT_DIR = _BUNDLED if INSTALLED else PACKAGE_DIR.parent
PROFILES_DIR = PACKAGE_DIR / "profiles"   # bundled profiles.yml: no ~/.dbt needed
FIXTURES_DIR = PROJECT_DIR / "fixtures"   # sample data shipped with the project


def dbt_work_dir() -> Path | None:
    """Where dbt writes target/ and its logs when nobody says: None in a checkout (the project's own target/);
    for an installed wheel a per-user cache folder, never site-packages."""
    if not INSTALLED:
        return None
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "evalhouse" / "dbt-target"

DEFAULT_DB = "evalhouse.duckdb"


# DuckDB names a database after its file name up to the first dot; these names are taken by
# DuckDB's own catalogs, so dbt would resolve `main.raw...` against the wrong database.
RESERVED_CATALOG_NAMES = {"main", "temp", "system", "memory"}


# the warehouse's own schemas: a database (catalog) of the same name makes `raw.x` ambiguous
SCHEMA_NAMES = {"raw", "staging", "intermediate", "marts"}
SQLITE_MAGIC = b"SQLite format 3\x00"


def check_db_name(db: Path) -> str | None:
    """A message for a database file evalhouse cannot use as its working file, else None."""
    catalog = db.name.split(".", 1)[0]
    if catalog.lower() in RESERVED_CATALOG_NAMES:
        return (f"{db.name}: DuckDB would name this database '{catalog}', which is reserved "
                f"({', '.join(sorted(RESERVED_CATALOG_NAMES))}); choose another file name, e.g. evalhouse.duckdb")
    if catalog.lower() in SCHEMA_NAMES:
        return (f"{db.name}: DuckDB would name this database '{catalog}', the name of one of the warehouse's "
                f"schemas ({', '.join(sorted(SCHEMA_NAMES))}), so table names would be ambiguous; choose another "
                "file name, e.g. evalhouse.duckdb")
    if db.name.endswith(".analyst.duckdb"):
        return (f"{db.name} is an analyst file (a read-only copy that every build replaces); pass the working "
                f"file instead, e.g. --db {db.name[:-len('.analyst.duckdb')]}.duckdb")
    if db.exists():
        if not db.is_file():
            return f"{db}: not a regular file (a device or a directory); pass a DuckDB file, e.g. evalhouse.duckdb"
        try:
            with open(db, "rb") as fh:
                head = fh.read(len(SQLITE_MAGIC))
        except OSError as exc:
            return f"{db}: cannot read it ({exc.strerror or exc}); check its permissions"
        if head == SQLITE_MAGIC:
            return f"{db} is a SQLite database, not a DuckDB file; pass a DuckDB file, e.g. evalhouse.duckdb"
    return None


def is_duckdb_file(path: Path) -> bool:
    """A DuckDB database file (its header carries the magic bytes DUCK at offset 8)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(12)[8:12] == b"DUCK"
    except OSError:
        return False


def other_warehouses(db: Path) -> list[Path]:
    """The working files (DuckDB, not analyst copies) in db's folder other than db itself."""
    try:
        found = sorted(p for p in db.parent.glob("*.duckdb")
                       if p != db and not p.name.endswith(".analyst.duckdb") and p.is_file() and is_duckdb_file(p))
    except OSError:
        return []
    return found


def missing_db_problem(db: Path, command: str, create: bool = False) -> str | None:
    """Why `command` must not go on with a working file that does not exist, else None.

    `load` creates the file, unless the folder already holds another warehouse (a mistyped --db would
    silently start an empty one): then it needs --create. build and publish never create one."""
    if db.exists():
        return None
    others = other_warehouses(db)
    hint = f"; this folder holds {', '.join(p.name for p in others[:3])}" if others else ""
    if command == "load":
        if create or not others:
            return None
        return (f"{db} does not exist{hint}: is --db mistyped? Pass --create to start a new warehouse "
                f"at {db.name}")
    if command in ("build", "publish"):          # `sql` says the same itself (exit 1, as before)
        return (f"{db} does not exist{hint}: check --db (or $EVALHOUSE_DB), or land logs first with "
                f"evalhouse load PATH --db {db}")
    return None


def resolve_db(db: str | os.PathLike | None) -> Path:
    """--db, else $EVALHOUSE_DB, else ./evalhouse.duckdb (contract: CLI)."""
    if db:
        return Path(db).expanduser().resolve()
    env = os.environ.get("EVALHOUSE_DB")
    if env:
        return Path(env).expanduser().resolve()
    return Path(DEFAULT_DB).resolve()


DISK_FULL_ERRNOS = {errno.ENOSPC, errno.EDQUOT}


def is_disk_full(exc: BaseException) -> bool:
    """An OSError (or a DuckDB I/O error) that says the disk or the quota is full."""
    if isinstance(exc, OSError) and exc.errno in DISK_FULL_ERRNOS:
        return True
    text = str(exc)
    return "No space left on device" in text or "Disk quota exceeded" in text


def os_failure_message(command: str, exc: OSError, db: os.PathLike | str, unchanged: str) -> str:
    """`evalhouse <command>: failed, ...` for an OSError: a full disk said as such, else the error and its file."""
    if is_disk_full(exc):
        return f"evalhouse {command}: failed, {disk_full_message(exc, db)}"
    return f"evalhouse {command}: failed, {unchanged} is unchanged: {exc.strerror or exc} ({exc.filename or db})"


def disk_full_message(exc: BaseException, db: os.PathLike | str) -> str:
    where = getattr(exc, "filename", None) or os.path.dirname(os.fspath(db)) or "."
    return (f"the disk is full (writing {where}): free some space there -- a load or build needs room for the "
            f"database, its .wal and its .tmp spill folder -- and run it again; nothing was changed")


# the side files of a working file (the analyst copy, the build copy, a kept failed build)
ANALYST_SUFFIX = ".analyst.duckdb"


def _stem(db: Path) -> str:
    """The name the side files derive from: the file name without `.duckdb` (any other suffix is kept, so
    `w.duckdb` and `w.db` in one folder never share an analyst file)."""
    return db.name[:-len(".duckdb")] if db.name.endswith(".duckdb") and len(db.name) > len(".duckdb") else db.name


def analyst_path(db: os.PathLike | str) -> Path:
    """./evalhouse.duckdb -> ./evalhouse.analyst.duckdb"""
    db = Path(db)
    return db.with_name(_stem(db) + ANALYST_SUFFIX)


def build_temp_path(db: Path) -> Path:
    """Where `evalhouse build` builds: same directory (the final rename stays atomic) and a stable
    name, because dbt's partial parsing is invalidated whenever the profile's path changes (only one
    build runs at a time: it holds the lock)."""
    return db.with_name(f"{_stem(db)}.build.duckdb")


def failed_build_path(db: Path) -> Path:
    return db.with_name(f"{_stem(db)}.failed.duckdb")
