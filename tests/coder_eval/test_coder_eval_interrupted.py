"""An interrupted coder-eval run finished with `--resume` (fixtures/coder_eval_interrupted/, written by coder-eval
0.12.16's CLI). Two replicates were cancelled during setup, and coder-eval wrote its placeholder for them: FAILURE,
score 0.0, no criterion result, no routing keys and no `system_prompt_semantics`. `--resume` counted them as finished.

Before R37, evalhouse counted each as a graded failure, read the absent marker as the pre-append regime, and so split
their variants into two regime rows (n=1 and n=8). The expected facts are read from the task.json files here,
without the loader."""
from __future__ import annotations

import json
from pathlib import Path

from helpers import FIXTURES, built_once, query, run_results

RUN = FIXTURES / "coder_eval_interrupted"
SELECT = ["+coder_eval_variant_rates", "+fct_coder_eval_replicates", "+int_dq__coder_eval_r37_failure_without_verdict",
          "+data_quality_findings"]

built = built_once(RUN, SELECT, "coder_eval_interrupted")


def _replicates() -> dict[Path, dict]:
    return {p: json.loads(p.read_text()) for p in sorted(RUN.glob("*/*/[0-9][0-9]/task.json"))}


def _without_verdict(doc: dict) -> bool:
    return (doc["final_status"] == "FAILURE" and not doc["success_criteria_results"]
            and not doc["post_failure_criteria_results"])


def _interrupted() -> list[str]:
    return [str(p) for p, d in _replicates().items() if _without_verdict(d)]


def test_the_fixture_holds_two_placeholders_that_run_json_counts_as_failures():
    assert len(_replicates()) == 27
    placeholders = [d for d in _replicates().values() if _without_verdict(d)]
    assert len(placeholders) == 2
    for d in placeholders:
        assert d["weighted_score"] == 0.0 and d["iteration_count"] == 0
        assert "api_routing" not in d["environment_info"]
        assert "system_prompt_semantics" not in d["environment_info"]
    run = json.loads((RUN / "run.json").read_text())
    assert run["tasks_run"] == 27 and run["tasks_not_graded"] == 0     # run.json grades them as failures


def test_r37_negative_control_a_failure_without_a_verdict_is_a_finding(built):
    db, tmp = built
    assert run_results(tmp / "target")["r37_coder_eval_failures_have_a_verdict"]["status"] == "warn"
    rows = query(db, "select source_file, detail from intermediate.int_dq__coder_eval_r37_failure_without_verdict "
                     "order by source_file")
    assert [f for f, _ in rows] == sorted(_interrupted())
    assert all("no criterion result" in d and "--resume" in d for _, d in rows)
    assert query(db, "select count(*) from marts.data_quality_findings where rule_id = 'R37'") == [(2,)]


def test_a_placeholder_is_not_graded_and_takes_its_variants_regime(built):
    db, _ = built
    rows = query(db, "select source_file, status_category, is_graded, system_prompt_regime, "
                     "is_system_prompt_regime_inferred from marts.fct_coder_eval_replicates "
                     "where is_failure_without_verdict order by source_file")
    assert [r[0] for r in rows] == sorted(_interrupted())
    for _, category, graded, regime, inferred in rows:
        assert (category, graded, inferred) == ("ungraded", False, True)
        assert regime == "unknown"      # what every other replicate of the run states
    assert query(db, "select count(*) from marts.fct_coder_eval_replicates where not is_failure_without_verdict "
                     "and status_category = 'ungraded'") == [(0,)]


def test_each_variant_is_one_row_whose_rate_leaves_the_placeholders_out(built):
    db, _ = built
    expected = {}
    for path, doc in _replicates().items():
        variant = path.parent.parent.parent.name
        n, graded, passed = expected.get(variant, (0, 0, 0))
        verdict = not _without_verdict(doc) and doc["final_status"] != "NOT_GRADED"
        expected[variant] = (n + 1, graded + verdict, passed + (doc["final_status"] == "SUCCESS"))
    rows = query(db, "select variant_id, system_prompt_regime, n_replicates, n_graded, n_succeeded, pass_rate "
                     "from marts.coder_eval_variant_rates order by variant_id")
    assert [r[0] for r in rows] == sorted(expected)            # one row per variant: no regime split
    for variant, regime, n, graded, passed, rate in rows:
        assert regime == "unknown"
        assert (n, graded, passed) == expected[variant]
        assert abs(rate - passed / graded) < 1e-12
