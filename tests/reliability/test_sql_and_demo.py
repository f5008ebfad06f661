"""`evalhouse sql` reads the analyst file read-only; `evalhouse demo` (the Quickstart) runs end to end."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb

from relutil import evalhouse

from evalhouse.paths import analyst_path


def test_sql_queries_the_analyst_file_read_only(built):
    db, _ = built
    proc = evalhouse(["sql", "--db", str(db), "select n_lines, value_sum, 'x' as label from marts.mini_counts"],
                     db.parent)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["n_lines", "value_sum", "label"]
    assert set(lines[1]) == {"-", " "}
    assert lines[2].split() == ["5", "10", "x"]
    assert lines[3] == "(1 row)"
    # writes are refused: the analyst file is opened read-only
    proc = evalhouse(["sql", "--db", str(db), "delete from marts.mini_counts"], db.parent)
    assert proc.returncode == 1 and "read-only" in proc.stderr, proc.stderr
    # without a query: how to open the analyst file
    proc = evalhouse(["sql", "--db", str(db)], db.parent)
    assert proc.returncode == 0
    assert f"duckdb -readonly '{analyst_path(db)}'" in proc.stdout and "harlequin" in proc.stdout


def test_sql_without_published_file_says_what_to_do(tmp_path: Path):
    proc = evalhouse(["sql", "--db", str(tmp_path / "evalhouse.duckdb"), "select 1"], tmp_path)
    assert proc.returncode == 1
    assert "evalhouse build" in proc.stderr and "does not exist" in proc.stderr


def test_demo_runs_end_to_end(tmp_path: Path):
    """The Quickstart: sample logs + shipped coder-eval runs -> load -> full dbt build -> headline tables."""
    env = dict(os.environ, DBT_TARGET_PATH=str(tmp_path / "target"), DBT_LOG_PATH=str(tmp_path / "logs"),
               DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    env.pop("EVALHOUSE_DBT_PROJECT_DIR", None)
    env.pop("EVALHOUSE_DB", None)
    db = tmp_path / "evalhouse.duckdb"
    cmd = [sys.executable, "-m", "evalhouse.cli", "demo", "--db", str(db), "--data-dir", str(tmp_path / "demo_data")]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-4000:]
    out = proc.stdout
    target = analyst_path(db)
    assert target.exists()
    con = duckdb.connect(str(target), read_only=True)
    try:
        marts = {r[0] for r in con.execute(
            "select table_name from information_schema.tables where table_schema = 'marts'").fetchall()}
        raw = {t: con.execute(f"select count(*) from raw.{t}").fetchall()[0][0]
               for t in ("big_lines", "matrix_lines", "layered_lines", "ce_run_docs")}
    finally:
        con.close()
    assert all(n > 0 for n in raw.values()), raw  # every family landed
    # the contract's headline marts exist and are printed as tables
    for name in ("big_rates", "matrix_pass_rates", "coder_eval_variant_rates", "data_quality_findings"):
        assert name in marts
        assert f"== marts.{name}" in out, out[-4000:]
    assert "Analyst file (open read-only)" in out
    assert "Working file:" in out


def test_demo_data_and_load_are_idempotent(tmp_path: Path):
    """Re-running the demo rewrites no data file and the second load lands nothing (no dbt needed here)."""
    from evalhouse.demo import write_demo_data
    from evalhouse.load import load_paths

    data, db = tmp_path / "demo_data", tmp_path / "evalhouse.duckdb"
    first = write_demo_data(data)
    assert first["sample_files_written"] > 0 and first["coder_eval_files_written"] > 0
    assert first["inspect_files_written"] > 0 and first["skipped"] == []
    assert (data / "coder_eval").is_dir() and any((data / "coder_eval").rglob("run.json"))
    assert any((data / "inspect").rglob("*.eval")) and any((data / "inspect").rglob("*.json"))
    assert {p.name for p in data.iterdir()} >= {"logs_big", "logs", "logs_layered", "coder_eval", "inspect"}
    mtimes = {p: p.stat().st_mtime_ns for p in data.rglob("*") if p.is_file()}
    landed = load_paths([data], db).records_landed
    assert landed > 0
    again = write_demo_data(data)
    assert again == {"sample_files_written": 0, "coder_eval_files_written": 0, "inspect_files_written": 0, "skipped": []}
    assert {p: p.stat().st_mtime_ns for p in data.rglob("*") if p.is_file()} == mtimes
    assert load_paths([data], db).records_landed == 0
