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


def _mini(tmp_path):
    """A copy of the mini project (so a test can edit it) and an empty working file."""
    project = tmp_path / "project"
    shutil.copytree(MINI_PROJECT, project, ignore=shutil.ignore_patterns("target", "logs", "dbt_packages"))
    return project, make_working(tmp_path / "w.duckdb")


def _build(tmp_path, project, db, *extra):
    """`evalhouse build --no-publish` of `project` (a copy of the mini project) on `db`."""
    env = env_for(tmp_path)
    env["EVALHOUSE_DBT_PROJECT_DIR"] = str(project)
    proc = subprocess.run([*EVALHOUSE, "build", "--db", str(db), "--no-publish", *(["--", *extra] if extra else [])],
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def _counts(db):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT n_lines, value_sum FROM marts.mini_counts").fetchall()[0]
    finally:
        con.close()


def test_a_changed_project_makes_the_next_build_a_full_refresh(tmp_path):
    project, db = _mini(tmp_path)
    insert_lines(db, 1, 5)

    first = _build(tmp_path, project, db)                    # a fresh warehouse: nothing to refresh
    insert_lines(db, 2, 3)
    again = _build(tmp_path, project, db)                    # same project, new raw lines: incremental
    assert "full refresh" not in first.stdout + again.stdout
    assert _counts(db) == (8, sum(range(1000, 1005)) + sum(range(2000, 2003)))
    model = project / "models" / "staging" / "mini_lines.sql"
    model.write_text(model.read_text() + "\n-- a model change that keeps the same columns\n")
    changed = _build(tmp_path, project, db)                  # project changed: --full-refresh
    assert "full refresh" in changed.stdout
    after = _build(tmp_path, project, db)                    # recorded; same raw data: dbt not run
    assert "full refresh" not in after.stdout and "nothing to do" in after.stdout
    (project / "macros" / "extra.sql").write_text("{% macro unused_macro() %}1{% endmacro %}\n")
    selected = _build(tmp_path, project, db, "--select", "mini_lines")   # a partial build refreshes its selection ...
    assert "full refresh" in selected.stdout
    complete = _build(tmp_path, project, db)                 # ... but does not count as the project's build
    assert "full refresh" in complete.stdout

    rows = _builds(db)
    assert [(c, f) for c, f, _ in rows] == [(True, False), (True, False), (True, True), (True, False),
                                            (False, True), (True, True)]
    args = [json.loads(r[2]) for r in rows]
    assert "--full-refresh" in args[2] and "--full-refresh" not in args[3]
    # a repeat build of an unchanged project builds only what the changed raw tables feed, without unit tests
    # and seeds; the first build, and every refresh, runs everything
    assert args[1][-6:] == ["--exclude-resource-type", "unit_test", "--exclude-resource-type", "seed",
                            "--select", "source:*.big_lines+"]
    assert [("--exclude-resource-type" in a) for a in args] == [False, True, False, False, False, False]
    assert "building what changed raw tables feed (big_lines)" in again.stdout
    assert _counts(db) == (8, sum(range(1000, 1005)) + sum(range(2000, 2003)))


def test_a_repeat_build_after_new_lines_equals_a_build_of_everything(tmp_path, monkeypatch):
    """The selective repeat build leaves every mart exactly as a build of everything would."""
    project, db = _mini(tmp_path)
    insert_lines(db, 1, 4)
    _build(tmp_path, project, db)
    insert_lines(db, 2, 6)
    assert "source:*.big_lines+" in json.loads(_builds(_build_and_return(tmp_path, project, db))[-1][2])
    selective = _marts(db)
    monkeypatch.setenv("EVALHOUSE_BUILD_ALL", "1")
    _build(tmp_path, project, db)
    assert "--select" not in json.loads(_builds(db)[-1][2])
    assert _marts(db) == selective and selective["mini_counts"][0][0] == 10


def _build_and_return(tmp_path, project, db):
    _build(tmp_path, project, db)
    return db


def _marts(db):
    con = duckdb.connect(str(db), read_only=True)
    try:
        names = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables "
                                           "WHERE table_schema = 'marts' ORDER BY 1").fetchall()]
        return {n: sorted(con.execute(f"SELECT * FROM marts.{n}").fetchall(), key=repr) for n in names}
    finally:
        con.close()


def test_models_read_raw_only_through_source():
    """The repeat build selects `source:*.<changed raw table>+`: a model or data test reading raw.* directly
    would be missed (models, macros, singular tests; the mini project too)."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    offenders = []
    sql_dirs = [root / "models", root / "macros", root / "tests" / "dbt",
                root / "tests" / "reliability" / "mini_project"]
    for path in [p for d in sql_dirs for p in d.rglob("*.sql")]:
        text = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.S)
        text = re.sub(r"--[^\n]*", "", text)
        if re.search(r"\braw\.[a-z_]+", text):
            offenders.append(str(path.relative_to(root)))
    assert offenders == []


def test_a_warehouse_built_without_a_record_is_refreshed_once(tmp_path):
    """Models exist but raw.builds has no row (built by plain dbt or an older evalhouse): refresh, then record."""
    project, db = _mini(tmp_path)
    insert_lines(db, 1, 3)
    _build(tmp_path, project, db)
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM raw.builds")
    con.close()
    assert "full refresh" in _build(tmp_path, project, db).stdout
    assert "full refresh" not in _build(tmp_path, project, db).stdout


def test_build_all_builds_everything_on_a_repeat_build(tmp_path, monkeypatch):
    project, db = _mini(tmp_path)
    insert_lines(db, 1, 3)
    _build(tmp_path, project, db)
    monkeypatch.setenv("EVALHOUSE_BUILD_ALL", "1")
    out = _build(tmp_path, project, db)
    assert "skipped" not in out.stdout and "nothing to do" not in out.stdout
    assert json.loads(_builds(db)[-1][2]) == ["build"]


def test_a_rewrite_with_the_same_even_line_count_rebuilds(tmp_path):
    """Issue 14 (3): a file rewritten in place with the same, even number of lines brings a new load_id on
    every row; the repeat-build signature must see it (a per-row XOR cancelled in pairs and the build said
    "nothing to do" over stale marts)."""
    import hashlib

    from evalhouse.locking import connect_rw

    project, db = _mini(tmp_path)
    insert_lines(db, 1, 4)
    _build(tmp_path, project, db)
    assert _counts(db) == (4, sum(range(1000, 1004)))
    con = connect_rw(db)
    try:   # the loader's replacement of a rewritten file: its rows deleted, the new lines under a new load
        con.execute("delete from raw.big_lines where source_file = 'batch_1.jsonl'")
        for i in range(4):
            text = json.dumps({"value": 7000 + i, "batch": 7})
            con.execute("insert into raw.big_lines (load_id, loaded_at, source_file, source_line, record, "
                        "record_sha256, file_sha256) values ('rewrite', now(), 'batch_1.jsonl', ?, ?, ?, 'g')",
                        [i + 1, text, hashlib.sha256(text.encode()).hexdigest()])
    finally:
        con.close()
    rebuilt = _build(tmp_path, project, db)
    assert "nothing to do" not in rebuilt.stdout
    assert _counts(db) == (4, sum(range(7000, 7004)))
