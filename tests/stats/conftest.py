"""Session build shared by tests/stats: load the clean fixtures, then ONE `dbt build` of the marts whose
intervals test_mart_intervals.py recomputes (and their parents), then the statistics harness
(integration_tests/: the stats seeds and models with their unit tests, out of users' warehouses) into the
same file. Data tests are excluded (they belong to the suites of the marts' owners); check=False so a
broken mart elsewhere only fails the tests that need it (see test_mart_intervals.need)."""
from __future__ import annotations

import json

import pytest

from evalhouse.paths import FIXTURES_DIR, PROJECT_DIR
from helpers import dbt, fresh_db

HARNESS = PROJECT_DIR / "integration_tests"

MARTS = ["big_rates", "big_ablation_pairs", "matrix_pass_rates", "coder_eval_variant_rates", "coder_eval_variant_comparisons",
         "coder_eval_run_summaries", "coder_eval_suite_results", "coder_eval_criterion_stats", "layered_layer_costs", "fct_layered_measurements",
         "big_model_pairs", "coder_eval_pass_at_k", "fct_coder_eval_replicates", "fct_big_runs", "fct_matrix_turns", "matrix_model_pairs", "layered_router_pairs", "layered_pipeline_pass_rates"]


@pytest.fixture(scope="session")
def mart_db(tmp_path_factory):
    """(db, {node name or unit-test unique_id: (status, message)}, tail of dbt's output)."""
    from evalhouse.load import load_paths

    tmp = tmp_path_factory.mktemp("stats_marts")
    db = fresh_db(tmp / "warehouse.duckdb")  # not "marts.duckdb": the catalog name would clash with the schema
    load_paths([FIXTURES_DIR / "brownfield" / "clean", FIXTURES_DIR / "brownfield_matrix" / "clean",
                FIXTURES_DIR / "coder_eval"], db=db)
    target = tmp / "target"
    proc = dbt(["build", "--select", *[f"+{m}" for m in MARTS], "--exclude-resource-type", "test"], db, target,
               check=False)
    status = _status(target)
    harness_target = tmp / "target_harness"
    harness = dbt(["build"], db, harness_target, check=False, project=HARNESS)
    status.update(_status(harness_target))
    return db, status, proc.stdout[-2000:] + harness.stdout[-2000:]


def _status(target) -> dict:
    status = {}
    path = target / "run_results.json"
    for r in json.loads(path.read_text())["results"] if path.exists() else []:
        entry = (r["status"], r.get("message"))
        status[r["unique_id"].split(".")[-1]] = entry
        if r["unique_id"].startswith("unit_test."):
            status[r["unique_id"]] = entry
    return status
