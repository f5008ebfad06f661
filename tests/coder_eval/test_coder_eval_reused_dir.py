"""Two coder-eval runs into one --run-dir (fixtures/coder_eval_reused_dir/, written by coder-eval 0.12.16's CLI).
coder-eval does not clear the directory: the second run (good x 2 replicates) left the first run's
good/coin70/02 and mixed/coin70/* task.json files beside its own run.json, which lists 2 replicates.

Before R38 evalhouse pooled them into the second run (6 replicates, R15 and R16 disagreeing with run.json). The
expected facts are read from the JSON files here, without the loader."""
from __future__ import annotations

import json

from helpers import FIXTURES, built_once, query, run_results

RUN = FIXTURES / "coder_eval_reused_dir"
SELECT = ["+coder_eval_variant_rates", "+coder_eval_run_summaries", "+coder_eval_criterion_stats",
          "+int_dq__coder_eval_r38_replicate_not_in_run_json", "+data_quality_findings"]

built = built_once(RUN, SELECT, "coder_eval_reused_dir")


def _listed() -> set[tuple[str, str, int]]:
    run = json.loads((RUN / "run.json").read_text())
    return {(r["variant_id"], r["task_id"], r["replicate_index"]) for r in run["task_results"]}


def _on_disk() -> dict[tuple[str, str, int], str]:
    found = {}
    for path in sorted(RUN.glob("*/*/[0-9][0-9]/task.json")):
        doc = json.loads(path.read_text())
        found[(doc["variant_id"], doc["task_id"], int(path.parent.name))] = str(path)
    return found


def test_the_fixture_holds_files_its_run_json_does_not_list():
    left_behind = set(_on_disk()) - _listed()
    assert len(_listed()) == 2 and len(left_behind) == 4
    assert {v for v, _, _ in left_behind} == {"good", "mixed"}


def test_r38_negative_control_a_task_json_the_run_does_not_list_is_a_finding(built):
    db, tmp = built
    assert run_results(tmp / "target")["r38_coder_eval_replicates_are_the_runs"]["status"] == "warn"
    expected = sorted(f for key, f in _on_disk().items() if key not in _listed())
    rows = query(db, "select source_file from intermediate.int_dq__coder_eval_r38_replicate_not_in_run_json "
                     "order by source_file")
    assert [f for (f,) in rows] == expected
    assert query(db, "select count(*) from marts.data_quality_findings where rule_id = 'R38'") == [(4,)]


def test_the_run_is_what_run_json_lists(built):
    db, _ = built
    stored = json.loads((RUN / "run.json").read_text())
    (row,) = query(db, "select tasks_run_recomputed, tasks_succeeded_recomputed, pass_rate_recomputed, "
                       "counts_consistent, pass_rate_consistent from marts.coder_eval_run_summaries")
    assert row == (stored["tasks_run"], stored["tasks_succeeded"], stored["pass_rate"], True, True)
    assert query(db, "select variant_id, n_replicates from marts.coder_eval_variant_rates") == [("good", 2)]
    # criterion results are the listed replicates' alone
    n_results = sum(len(json.loads((RUN / v / t / f"{i:02d}" / "task.json").read_text())["success_criteria_results"])
                    for v, t, i in _listed())
    assert query(db, "select variant_id, sum(n_results) from marts.coder_eval_criterion_stats group by 1") == \
        [("good", n_results)]
    assert query(db, "select count(*) from marts.data_quality_findings where rule_id in ('R15', 'R16')") == [(0,)]
