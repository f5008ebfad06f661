"""Every model passes `sqlfluff lint` with the dbt templater and the DuckDB dialect: zero violations."""
import os
import subprocess
import sys
from pathlib import Path

from helpers import fresh_db

from evalhouse.paths import PROJECT_DIR


def test_sqlfluff_lint_models_has_zero_violations(tmp_path: Path):
    db = fresh_db(tmp_path / "lint.duckdb")
    env = dict(os.environ, EVALHOUSE_DB=str(db), DBT_TARGET_PATH=str(tmp_path / "target"),
               DBT_LOG_PATH=str(tmp_path / "logs"), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    sqlfluff = Path(sys.executable).parent / "sqlfluff"
    proc = subprocess.run([str(sqlfluff), "lint", "models", "--format", "human", "--processes", "2"],
                          cwd=PROJECT_DIR, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, f"sqlfluff found violations:\n{proc.stdout[-10000:]}\n{proc.stderr[-3000:]}"
