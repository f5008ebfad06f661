"""A build after the dbt project changed is a full refresh: incremental models never keep rows computed by
older model code. The decision uses raw.builds (the project fingerprint of the last complete build)."""
from __future__ import annotations

import json
import shutil
import subprocess

import duckdb

from relutil import EVALHOUSE, MINI_PROJECT, env_for, insert_lines, make_working


def _builds(db):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT complete, full_refresh, dbt_args FROM raw.builds ORDER BY finished_at").fetchall()
    finally:
        con.close()


def _build(tmp_path, project, db, *extra):
    """`evalhouse build --no-publish` of `project` (a copy of the mini project) on `db`."""
    env = env_for(tmp_path)
    env["EVALHOUSE_DBT_PROJECT_DIR"] = str(project)
    proc = subprocess.run([*EVALHOUSE, "build", "--db", str(db), "--no-publish", *(["--", *extra] if extra else [])],
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def test_a_changed_project_makes_the_next_build_a_full_refresh(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(MINI_PROJECT, project, ignore=shutil.ignore_patterns("target", "logs", "dbt_packages"))
    db = make_working(tmp_path / "w.duckdb")
    insert_lines(db, 1, 5)

    first = _build(tmp_path, project, db)                    # a fresh warehouse: nothing to refresh
    again = _build(tmp_path, project, db)                    # same project: incremental as usual
    assert "full refresh" not in first.stdout + again.stdout
    model = project / "models" / "staging" / "mini_lines.sql"
    model.write_text(model.read_text() + "\n-- a model change that keeps the same columns\n")
    changed = _build(tmp_path, project, db)                  # project changed: --full-refresh
    assert "full refresh" in changed.stdout
    after = _build(tmp_path, project, db)                    # recorded: back to incremental
    assert "full refresh" not in after.stdout
    (project / "macros" / "extra.sql").write_text("{% macro unused_macro() %}1{% endmacro %}\n")
    selected = _build(tmp_path, project, db, "--select", "mini_lines")   # a partial build refreshes its selection ...
    assert "full refresh" in selected.stdout
    complete = _build(tmp_path, project, db)                 # ... but does not count as the project's build
    assert "full refresh" in complete.stdout

    rows = _builds(db)
    assert [(c, f) for c, f, _ in rows] == [(True, False), (True, False), (True, True), (True, False),
                                            (False, True), (True, True)]
    assert "--full-refresh" in json.loads(rows[2][2]) and "--full-refresh" not in json.loads(rows[3][2])


def test_a_warehouse_built_without_a_record_is_refreshed_once(tmp_path):
    """Models exist but raw.builds has no row (built by plain dbt or an older evalhouse): refresh, then record."""
    project = tmp_path / "project"
    shutil.copytree(MINI_PROJECT, project, ignore=shutil.ignore_patterns("target", "logs", "dbt_packages"))
    db = make_working(tmp_path / "w.duckdb")
    insert_lines(db, 1, 3)
    _build(tmp_path, project, db)
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM raw.builds")
    con.close()
    assert "full refresh" in _build(tmp_path, project, db).stdout
    assert "full refresh" not in _build(tmp_path, project, db).stdout
