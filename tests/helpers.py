"""Shared test helpers: load fixtures into a fresh DuckDB file, run dbt, read run results."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from evalhouse.dbt_runner import run_dbt
from evalhouse.paths import PROJECT_DIR
from evalhouse.schema import init_warehouse

FIXTURES = PROJECT_DIR / "fixtures"

# every test id pytest collected, before -k / -m deselect any: tests/conftest.py stores them in config.stash,
# tests/test_rule_coverage.py checks that the rules table names only real tests
COLLECTED_IDS = pytest.StashKey[frozenset]()


def script_module(name: str):
    """scripts/<name>.py imported as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(f"evalhouse_script_{name}", PROJECT_DIR / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fresh_db(path: Path) -> Path:
    """An empty warehouse file with the raw schema in place."""
    return init_warehouse(path)


def dbt(args: list[str], db: Path, target: Path, check: bool = True, project: Path | None = None):
    """Run dbt with its own target dir (on the evalhouse project, or `project`); on failure with check=True,
    fail with dbt's output."""
    proc = run_dbt(args, db=db, target_path=target, capture=True, project_dir=project)
    if check and proc.returncode != 0:
        raise AssertionError(f"dbt {' '.join(args)} failed:\n{proc.stdout[-8000:]}\n{proc.stderr[-3000:]}")
    return proc



def load_and_build(logs: Path, tmp: Path, select: list[str], check: bool = True) -> Path:
    """A fresh warehouse tmp/w.duckdb with `logs` loaded through the CLI and the `select`ed models built with the
    tests on them alone (no unit tests); dbt's target dir is tmp/target."""
    from evalhouse.cli import main

    db = fresh_db(tmp / "w.duckdb")
    assert main(["load", str(logs), "--db", str(db), "--quiet"]) == 0
    dbt(["build", "--select", *select, "--indirect-selection", "cautious", "--exclude-resource-type", "unit_test"], db,
        tmp / "target", check=check)
    return db

def built_once(logs: Path, select: list[str], name: str):
    """A module-scoped fixture, `built = built_once(LOGS, SELECT, "name")`: `logs` loaded and `select` built once
    (load_and_build) for the module's tests, as (db, tmp)."""

    @pytest.fixture(scope="module")
    def built(tmp_path_factory):
        tmp = tmp_path_factory.mktemp(name)
        return load_and_build(logs, tmp, select), tmp

    return built


def compile_parts(template: str, tmp: Path) -> dict[str, str]:
    """`dbt compile --inline` of a template whose parts are marked `/*@@name@@*/ ... /*@@end@@*/`, as dbt
    compiles them for DuckDB. Each part comes prefixed with the SQL functions dbt's on-run-start creates
    (stats_create_functions), so it runs as is in a fresh DuckDB connection."""
    db = fresh_db(tmp / "compile.duckdb")
    template = template.replace("/*@@end@@*/", "/*@@functions@@*/ {{ stats_create_functions() }}\n/*@@end@@*/")
    out = dbt(["--quiet", "compile", "--output", "json", "--inline", template], db, tmp / "target").stdout
    text = json.loads(out[out.index("{"):out.rindex("}") + 1])["compiled"]
    pieces = re.split(r"/\*@@(\w+)@@\*/", text)
    parts = {pieces[i]: pieces[i + 1] for i in range(1, len(pieces) - 1, 2)}
    functions = parts.pop("functions").strip().rstrip(";")
    return {name: f"{functions};\n{sql}" for name, sql in parts.items()}


def run_results(target: Path) -> dict[str, dict]:
    """unique_id-less view of run_results.json: node name -> {status, failures, message}."""
    data = json.loads((Path(target) / "run_results.json").read_text())
    out = {}
    for r in data["results"]:
        name = r["unique_id"].split(".")[2] if r["unique_id"].startswith(("test.", "model.", "seed.", "unit_test.")) else r["unique_id"]
        out[name] = {"status": r["status"], "failures": r.get("failures"), "message": r.get("message"),
                     "unique_id": r["unique_id"]}
    return out


def evalhouse_cli(args: list[str], cwd: Path, check: bool = True, timeout: float = 900) -> subprocess.CompletedProcess:
    """The `evalhouse` console script as a user runs it, in `cwd`, with dbt's target and logs in cwd (parallel
    test workers never share a run_results.json)."""
    env = dict(os.environ, DBT_TARGET_PATH=str(Path(cwd) / "target"), DBT_LOG_PATH=str(Path(cwd) / "target" / "logs"))
    proc = subprocess.run([str(Path(sys.executable).with_name("evalhouse")), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"evalhouse {' '.join(args)} exited {proc.returncode}:\n{proc.stdout[-3000:]}\n"
                             f"{proc.stderr[-3000:]}")
    return proc


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
HAVE_CHROMIUM = CHROMIUM.exists() and CHROMEDRIVER.exists()


def chromium(profile_dir: Path, window: str = "1400,1100", logs: bool = False):
    """Debian's Chromium, headless and offline (no name resolves), driven by Selenium. `logs`: keep the
    console and the network log (driver.get_log("browser") / ("performance"))."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--disable-extensions", f"--window-size={window}",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost", f"--user-data-dir={profile_dir}"):
        opts.add_argument(arg)
    if logs:
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)


def keep_screenshot(driver, path: Path, min_bytes: int = 10_000) -> None:
    """Save a screenshot (it must show something) and keep a copy in ./artifacts/ as a test artifact."""
    import shutil

    assert driver.save_screenshot(str(path)) and path.stat().st_size > min_bytes
    artifacts = PROJECT_DIR / "artifacts"
    artifacts.mkdir(exist_ok=True)
    shutil.copyfile(path, artifacts / path.name)


def query(db: Path, sql: str, params=None) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def normalise_model(raw: str | None) -> str | None:
    """The model_aliases seed applied in Python (independently of the model_name_map macro): routing
    prefixes stripped from the lower-cased id until none matches, then an exact alias."""
    import csv

    from evalhouse.paths import PROJECT_DIR

    if raw is None:
        return None
    with open(PROJECT_DIR / "seeds" / "model_aliases.csv") as f:
        rows = list(csv.DictReader(f))
    prefixes = sorted((r["pattern"] for r in rows if r["rule_kind"] == "prefix"), key=len, reverse=True)
    exact = {r["pattern"]: r["canonical_model"] for r in rows if r["rule_kind"] == "exact"}
    name, changed = raw.strip().lower(), True
    while changed:
        changed = False
        for p in prefixes:
            if name.startswith(p) and len(name) > len(p):
                name, changed = name[len(p):], True
                break
    return exact.get(name, name)


def status_after_planting(db: Path, tmp_path: Path, sql: str, test: str) -> str:
    """Run one dbt test on a copy of the built warehouse `db` after `sql` planted a violation in it (a negative
    control); returns the test's status."""
    import shutil

    work = tmp_path / "planted.duckdb"
    shutil.copyfile(db, work)
    con = duckdb.connect(str(work))
    con.execute(sql)
    con.close()
    dbt(["test", "--select", test], work, tmp_path / "planted_target", check=False)
    return run_results(tmp_path / "planted_target")[test]["status"]
