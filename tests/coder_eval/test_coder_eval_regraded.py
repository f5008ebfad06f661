"""A coder-eval run executed without grading and graded afterwards (fixtures/coder_eval_regraded/, written by
coder-eval 0.12.16's CLI): `coder-eval execute`, then `coder-eval evaluate <replicate dir>` for each replicate with its
recorded config, then `coder-eval evaluate edited/coin70.yaml <replicate dir>` for two coin70 replicates, with a task
file that adds a third criterion. coder-eval refreshed run.json each time, so run.json pools coin70's two sets of
criteria; variant.json and experiment.json stay as `execute` wrote them (R24 says so).

Before R39 nothing said that coin70's rate pooled two instruments. The expected facts are read from the task.json
files here, without the loader. fixtures/coder_eval_resumed_edited/ is the other way coder-eval writes such a run: an
interrupted `coder-eval run` resumed after its task file was edited (`--resume` does not notice)."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from helpers import FIXTURES, built_once, load_and_build, query, run_results

RUN = FIXTURES / "coder_eval_regraded"
SELECT = ["+coder_eval_variant_rates", "+coder_eval_run_summaries", "+fct_coder_eval_replicates",
          "+int_dq__coder_eval_r39_criteria_differ", "+data_quality_findings"]

built = built_once(RUN, SELECT, "coder_eval_regraded")

RESUMED = FIXTURES / "coder_eval_resumed_edited"
resumed = built_once(RESUMED, SELECT, "coder_eval_resumed_edited")


@pytest.fixture(scope="module")
def half_regraded(tmp_path_factory):
    """The run as if only the edited task file's two regrades had been made: coin70's other four replicates are put
    back to their `coder-eval execute` records (task.execute.json: NOT_GRADED, stating the original criteria)."""
    tmp = tmp_path_factory.mktemp("coder_eval_half_regraded")
    run = tmp / "regraded"
    shutil.copytree(RUN, run)
    put_back = [p for p in sorted(run.glob("*/coin70/[0-9][0-9]/task.json"))
                if json.loads(p.read_text())["task_config"]["source_file"] == "tasks/coin70.yaml"]
    assert len(put_back) == 4
    for p in put_back:
        shutil.copyfile(p.parent / "task.execute.json", p)
    return load_and_build(run, tmp, SELECT)


def _replicates() -> dict[Path, dict]:
    return {p: json.loads(p.read_text()) for p in sorted(RUN.glob("*/*/[0-9][0-9]/task.json"))}


def _criteria(doc: dict) -> str:
    return json.dumps(doc["task_config"]["resolved"]["success_criteria"], sort_keys=True)


def _mixed_tasks() -> set[str]:
    sets: dict[str, set[str]] = {}
    for doc in _replicates().values():
        sets.setdefault(doc["task_id"], set()).add(_criteria(doc))
    return {task for task, found in sets.items() if len(found) > 1}


def test_the_fixture_grades_one_task_by_two_sets_of_criteria():
    docs = _replicates()
    assert len(docs) == 12 and _mixed_tasks() == {"coin70"}
    by_file = Counter((d["task_id"], d["task_config"]["source_file"]) for d in docs.values())
    assert by_file[("coin70", "edited/coin70.yaml")] == 2 and by_file[("coin70", "tasks/coin70.yaml")] == 4
    # run.json was refreshed by every regrade: its counts pool both sets, as evalhouse's recomputation does
    run = json.loads((RUN / "run.json").read_text())
    assert run["tasks_graded"] == 12 and run["tasks_not_graded"] == 0
    assert all((p.parent / "task.execute.json").exists() for p in docs)


def test_r39_negative_control_a_task_graded_by_two_sets_of_criteria_is_a_finding(built):
    db, tmp = built
    assert run_results(tmp / "target")["r39_coder_eval_tasks_graded_by_one_instrument"]["status"] == "warn"
    expected = sorted(str(p) for p, d in _replicates().items() if d["task_id"] in _mixed_tasks())
    rows = query(db, "select source_file, detail from intermediate.int_dq__coder_eval_r39_criteria_differ "
                     "order by source_file")
    assert [f for f, _ in rows] == expected
    edited = {str(p) for p, d in _replicates().items() if d["task_config"]["source_file"] == "edited/coin70.yaml"}
    for f, detail in rows:
        if f in edited:
            assert "graded by 3 success criteria" in detail and "edited/coin70.yaml" in detail
            assert "shared by 2 of the task's 6 graded records" in detail
        else:
            assert "graded by 2 success criteria" in detail and "shared by 4 of the task's 6 graded records" in detail
        assert "coder-eval evaluate" in detail
    assert query(db, "select count(*) from marts.data_quality_findings where rule_id = 'R39'") == [(6,)]


def test_every_replicate_of_the_mixed_task_is_flagged_and_no_other(built):
    db, _ = built
    rows = query(db, "select task_id, bool_and(is_task_criteria_mixed), bool_or(is_task_criteria_mixed), count(*) "
                     "from marts.fct_coder_eval_replicates group by 1 order by 1")
    assert rows == [("coin70", True, True, 6), ("score_stdout", False, False, 6)]


def test_the_run_is_recomputed_as_run_json_counts_it(built):
    """The flag changes no rate: the regraded replicates stay in, as in run.json (which set is the run's is the
    user's call; the finding says how to make one)."""
    db, _ = built
    run = json.loads((RUN / "run.json").read_text())
    (row,) = query(db, "select tasks_succeeded_recomputed, tasks_failed_recomputed, pass_rate_recomputed, "
                       "counts_consistent, pass_rate_consistent from marts.coder_eval_run_summaries")
    assert row == (run["tasks_succeeded"], run["tasks_failed"], run["pass_rate"], True, True)


def test_records_graded_by_no_criteria_are_no_evidence(half_regraded):
    """A NOT_GRADED record states its task's criteria but ran none: coin70's graded records share one set."""
    db = half_regraded
    assert query(db, "select count(*) from marts.fct_coder_eval_replicates where is_task_criteria_mixed") == [(0,)]
    assert query(db, "select count(*) from marts.data_quality_findings where rule_id = 'R39'") == [(0,)]
    assert query(db, "select status_category, count(*) from marts.fct_coder_eval_replicates where task_id = 'coin70' "
                     "group by 1 order by 1") == [("failed", 2), ("ungraded", 4)]


def test_r39_a_run_resumed_after_its_task_file_changed_is_a_finding(resumed):
    db, tmp = resumed
    docs = {str(p): json.loads(p.read_text()) for p in sorted(RESUMED.glob("*/*/[0-9][0-9]/task.json"))}
    ran = {f: len(d["success_criteria_results"]) for f, d in docs.items() if d["success_criteria_results"]}
    assert sorted(Counter(ran.values()).items()) == [(2, 2), (3, 3)] and len(docs) == 6   # one placeholder (R37)
    assert run_results(tmp / "target")["r39_coder_eval_tasks_graded_by_one_instrument"]["status"] == "warn"
    rows = query(db, "select source_file, detail from intermediate.int_dq__coder_eval_r39_criteria_differ "
                     "order by source_file")
    assert [f for f, _ in rows] == sorted(ran)
    for f, detail in rows:
        assert f"graded by {ran[f]} success criteria" in detail
        assert f"shared by {Counter(ran.values())[ran[f]]} of the task's 5 graded records" in detail
    assert query(db, "select count(*), count(*) filter (where is_task_criteria_mixed) "
                     "from marts.fct_coder_eval_replicates") == [(6, 6)]
