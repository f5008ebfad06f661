"""Session build of tests/rules (see rules_builds.py for what each run plants)."""
from __future__ import annotations

import json
import shutil

import pytest
from rules_builds import R25_TESTS, R26_TESTS, _failures, _tamper

from evalhouse.paths import FIXTURES_DIR
from helpers import dbt, fresh_db, run_results


@pytest.fixture(scope="session")
def rules_runs(tmp_path_factory):
    """{'clean'|'tampered'|'strict': (db, run_results, {test name: failing rows})}"""
    from evalhouse.load import load_paths

    tmp = tmp_path_factory.mktemp("rules")
    work, target = tmp / "wh.duckdb", tmp / "target"
    fresh_db(work)
    load_paths([FIXTURES_DIR / "brownfield" / "clean", FIXTURES_DIR / "brownfield_matrix" / "clean",
                FIXTURES_DIR / "coder_eval", FIXTURES_DIR / "inspect_scales"], db=work)
    dbt(["build", "--select", "+path:models/marts", "--exclude-resource-type", "test", "unit_test"], work, target)
    base = work.rename(tmp / "built.duckdb")
    out = {}
    for name, tamper, extra in (("clean", False, []), ("tampered", True, []),
                                ("strict", False, ["--vars", json.dumps({"r25_open_gaps": {}})])):
        shutil.copy(base, work)
        if tamper:
            _tamper(work)
        tests = R25_TESTS + R26_TESTS if name != "strict" else R25_TESTS[:1]
        dbt(["test", "--store-failures", "--select", *tests, *extra], work, target, check=False)
        results = run_results(target)
        fails = {t: _failures(work, t) for t in tests
                 if results.get(t, {}).get("status") == "fail"}
        out[name] = (work.rename(tmp / f"{name}.duckdb"), results, fails)
    return out
