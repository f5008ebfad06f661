"""The package installs as a wheel and works without the checkout (issue 15): the dbt project ships inside the
wheel (setup.py copies it to evalhouse/project/), and `evalhouse demo` from the installed files loads, builds and
publishes, with dbt's target in a cache folder rather than site-packages."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _source_copy(dest: Path) -> Path:
    """The checkout's files (tracked, and new ones git does not ignore) in a folder of their own: the wheel is
    built there, so no build/ or egg-info folder of the checkout is read or written (a build/ left in the
    checkout once broke this build half-way)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    src = _source_copy(tmp_path_factory.mktemp("source"))
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(src)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (whl,) = out.glob("evalhouse-*.whl")
    return whl


def test_the_wheel_carries_the_dbt_project(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for must in ("evalhouse/project/dbt_project.yml", "evalhouse/project/models/marts/data_quality_findings.sql",
                 "evalhouse/project/seeds/rate_card.csv", "evalhouse/profiles/profiles.yml",
                 "evalhouse/loader/core.py", "evalhouse/project/fixtures/coder_eval/README.md"):
        assert must in names, must
    assert not any("/target/" in n or n.endswith(".duckdb") for n in names)


def test_evalhouse_demo_runs_from_the_installed_wheel(wheel, tmp_path):
    site = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = tmp_path / "run"
    run.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EVALHOUSE_", "DBT_"))}
    env.update(PYTHONPATH=str(site), XDG_CACHE_HOME=str(tmp_path / "cache"), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    where = subprocess.run([sys.executable, "-c", "import evalhouse.paths as p; print(p.PROJECT_DIR)"], cwd=run,
                           env=env, capture_output=True, text=True)
    assert where.stdout.strip() == str(site / "evalhouse" / "project"), where.stdout + where.stderr
    proc = subprocess.run([sys.executable, "-m", "evalhouse.cli", "demo", "--db", str(run / "w.duckdb"),
                           "--data-dir", str(run / "demo_data")], cwd=run, env=env, capture_output=True, text=True,
                          timeout=1200)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert (run / "w.analyst.duckdb").exists() and "big_rates" in proc.stdout
    # the report too: its rule index is package data, and the build recorded the tests it ran
    page = (run / "report" / "report.html").read_text(encoding="utf-8")
    assert proc.stdout.strip().endswith(str(run / "report" / "report.html"))
    assert "r27_logged_cost_audit_findings (warn): warn" in page and 'data-figure="big_rates"' in page
    project = site / "evalhouse" / "project"
    assert not (project / "target").exists() and not (project / "logs").exists()   # nothing written into the package
    assert (tmp_path / "cache" / "evalhouse" / "dbt-target" / "run_results.json").exists()
