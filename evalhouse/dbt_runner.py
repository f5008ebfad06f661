"""Run dbt against one database file with the bundled profile.

Used by `evalhouse build` and by the test-suite. Each call can get its own target/log
directory so that several builds (tests, helpers) never clobber each other's artifacts.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .paths import PROFILES_DIR, PROJECT_DIR, dbt_work_dir


def dbt_env(db: Path, target_path: Path | None = None, project_dir: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["EVALHOUSE_DB"] = str(db)
    env.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
    env["DBT_PROFILES_DIR"] = str(PROFILES_DIR)
    env["DBT_PROJECT_DIR"] = str(project_dir or PROJECT_DIR)
    if target_path is None and "DBT_TARGET_PATH" not in env:
        target_path = dbt_work_dir()                 # an installed wheel: a cache folder, not site-packages
    if target_path is not None:
        env["DBT_TARGET_PATH"] = str(target_path)
        env["DBT_LOG_PATH"] = str(Path(target_path) / "logs")
    return env


def dbt_executable() -> str:
    """The dbt next to the running interpreter (the project's .venv), else whatever is on PATH."""
    candidate = Path(sys.executable).parent / "dbt"
    return str(candidate) if candidate.exists() else "dbt"


def run_dbt(args: list[str], db: Path, target_path: Path | None = None,
            capture: bool = False, project_dir: Path | None = None) -> subprocess.CompletedProcess:
    """Run `dbt <args>` for the evalhouse project (or `project_dir`) against `db`. Returns the CompletedProcess."""
    cmd = [dbt_executable(), *args]
    return subprocess.run(
        cmd,
        cwd=project_dir or PROJECT_DIR,
        env=dbt_env(db, target_path, project_dir),
        text=True,
        capture_output=capture,
        check=False,
    )
