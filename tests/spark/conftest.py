"""One warehouse of every family's fixtures, built on DuckDB and on Spark (session-scoped: built once)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import FIXTURES, evalhouse_cli

from evalhouse.spark_build import spark_available

FAMILY_DIRS = [
    "brownfield/clean", "brownfield/dirty", "brownfield/adversarial", "brownfield_matrix/clean", "brownfield_matrix/dirty",
    *[f"coder_eval/{p.name}" for p in sorted((FIXTURES / "coder_eval").iterdir()) if p.is_dir()],
    *[f"inspect/{p.name}" for p in sorted((FIXTURES / "inspect").iterdir()) if p.is_dir()], "inspect_retry", "inspect_rescore",
    "inspect_grouped", "inspect_scales", "inspect_epoch_errors", "inspect_group_keys",
    "inspect_metric_kinds", "inspect_cluster_ids", "inspect_value_kinds",
    "inspect_nonfinite", "inspect_instruments", "inspect_deep_graders", "inspect_relogged", "inspect_agentic",
    "coder_eval_interrupted", "coder_eval_reused_dir", "coder_eval_regraded", "coder_eval_resumed_edited",
]


def pytest_collection_modifyitems(config, items):
    missing = spark_available()
    if missing:
        for item in items:
            if "tests/spark/" in str(item.fspath):
                item.add_marker(pytest.mark.skip(reason=missing))


def outcomes(target: Path) -> dict[str, tuple[str, int | None]]:
    """unique_id -> (status, failures) from a dbt target folder's run_results.json."""
    results = json.loads((target / "run_results.json").read_text())["results"]
    return {r["unique_id"]: (r["status"], r.get("failures")) for r in results}


@pytest.fixture(scope="session")
def both(tmp_path_factory):
    """(working db, lake, DuckDB build process, Spark build process, DuckDB outcomes, Spark outcomes)."""
    tmp = tmp_path_factory.mktemp("spark_parity")
    db = tmp / "evalhouse.duckdb"
    for d in FAMILY_DIRS:
        evalhouse_cli(["load", "--db", str(db), "--create", str(FIXTURES / d)], tmp)
    duck = evalhouse_cli(["build", "--db", str(db), "--no-publish"], tmp, check=False)
    lake = tmp / "lake"
    # a Spark build of ~500 nodes takes 5-8 minutes beside the rest of the suite on 2 cores; the timeout is
    # for a hung JVM, not a slow one
    spark = evalhouse_cli(["build", "--db", str(db), "--target", "spark", "--lake", str(lake)], tmp, check=False,
                          timeout=2400)
    return db, lake, duck, spark, outcomes(tmp / "target"), outcomes(lake / "target")
