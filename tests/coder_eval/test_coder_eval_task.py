"""coder-eval part A: run.json / task.json warehouse, rules R15, R16, R18, R19, R22, R23.

One clean build over the project's copy of the corpus (fixtures/coder_eval) and one dirty build where
each rule's violation is planted in its own records of a tmp copy of the corpus. Rules on what evalhouse
COMPUTES are checked against tampered copies of the clean marts. The dirty DB also holds a modern twin of
gen_legacy_shapes (the legacy files up-converted to the current writer's shapes) for the legacy test.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from coder_eval_land import land  # noqa: E402
from helpers import FIXTURES, dbt, fresh_db, query, run_results  # noqa: E402

from evalhouse.dbt_runner import dbt_env, dbt_executable  # noqa: E402
from evalhouse.paths import PROJECT_DIR  # noqa: E402

CORPUS = FIXTURES / "coder_eval"
RUNS = sorted(p.parent.name for p in CORPUS.glob("*/run.json"))

MODELS = "tag:coder_eval_task final_status_categories +data_quality_findings"
TESTS = "tag:coder_eval_task final_status_categories r19_coder_eval_task_execute_not_downstream"

WARN_TESTS = ["r15_coder_eval_stored_counts_consistent", "r15_coder_eval_report_counts_partition", "r16_coder_eval_stored_pass_rate_matches",
              "r22_coder_eval_turn_tokens_match_messages", "r23_coder_eval_stored_total_cost_matches",
              "r37_coder_eval_failures_have_a_verdict", "r38_coder_eval_replicates_are_the_runs",
              "r39_coder_eval_tasks_graded_by_one_instrument"]
ERROR_TESTS = ["r15_coder_eval_recomputed_counts_partition", "r16_coder_eval_pass_rate_formula", "r18_coder_eval_status_known",
               "r18_coder_eval_seed_categories", "r18_coder_eval_replicate_status_category_known",
               "r19_coder_eval_task_execute_not_downstream", "r19_coder_eval_replicates_not_from_snapshot",
               "r23_coder_eval_total_cost_is_sum", "r26_fct_coder_eval_replicates_has_provenance",
               "r26_coder_eval_run_summaries_has_provenance"]


def _build(db: Path, target: Path) -> dict:
    dbt(["seed"], db, target)
    dbt(["run", "--select", *MODELS.split()], db, target)
    dbt(["test", "--indirect-selection", "cautious", "--select", *TESTS.split()], db, target, check=False)
    return run_results(target)


# ---------------------------------------------------------------- plants ---------------------------------

def _edit(path: Path, fn) -> None:
    doc = json.loads(path.read_text())
    fn(doc)
    path.write_text(json.dumps(doc, indent=2))


def _plant(root: Path) -> None:
    # R15: stored counts no longer partition tasks_run (and disagree with the rows)
    _edit(root / "gen_ab_experiment/run.json", lambda d: d.update(tasks_succeeded=d["tasks_succeeded"] + 1))
    # R15: folded variant counts and suite row counts that do not partition their totals
    _edit(root / "gen_unpriced_model/inhouse/variant.json", lambda d: d.update(tasks_failed=d["tasks_failed"] + 1))
    _edit(root / "cli_dataset_suite/control/sentiment_suite/suite.json",
          lambda d: d.update(rows_passed=d["rows_passed"] + 1))
    # R16: a stale stored pass_rate
    _edit(root / "cli_agentless_ab/run.json", lambda d: d.update(pass_rate=0.5))
    # R18: a status that is not a FinalStatus (the dashboard fixture's category spelling)
    _edit(root / "gen_unpriced_model/haiku/fix_import/00/task.json", lambda d: d.update(final_status="succeeded"))

    # R22: one message's output tokens no longer add up to the turn's token_usage
    def r22(d):
        d["iterations"][0]["messages"][0]["output_tokens"] += 7
    _edit(root / "gen_ab_experiment/sonnet/fix_import/00/task.json", r22)

    # R23: a row whose stored total is not agent + judge + simulator
    def r23(d):
        d["task_results"][0]["total_cost_usd"] = (d["task_results"][0]["total_cost_usd"] or 0) + 1.0
    _edit(root / "gen_execute_only/run.json", r23)


_JUDGE_TYPES = {"llm_judge", "agent_judge", "system_one_judge"}
_CLASS_TYPES = {"classification_match", "skill_triggered"}


def _modern_usage(u):
    if isinstance(u, dict) and "uncached_input_tokens" not in u and "input_tokens" in u:
        u["uncached_input_tokens"] = u.pop("input_tokens")
        u["input_tokens"] = (u["uncached_input_tokens"] + u.get("cache_creation_input_tokens", 0)
                             + u.get("cache_read_input_tokens", 0))


def _modernise_task(d: dict) -> None:
    """What the current writer emits for the same content: only the legacy renames and defaults change."""
    if "turns" in d and "iterations" not in d:
        d["iterations"] = d.pop("turns")
    _modern_usage(d.get("total_token_usage"))
    for it in d.get("iterations", []):
        _modern_usage(it.get("token_usage"))
    for key in ("success_criteria_results", "post_failure_criteria_results"):
        for c in d.get(key, []):
            c.setdefault("result_kind", "judge" if c["criterion_type"] in _JUDGE_TYPES
                         else "classification" if c["criterion_type"] in _CLASS_TYPES else "basic")
            c.setdefault("evaluation_status", "evaluated")
            c.setdefault("gating", True)
            _modern_usage(c.get("token_usage"))


def _modern_twin(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst)
    for p in dst.rglob("task.json"):
        _edit(p, _modernise_task)

    def run(d):
        d.setdefault("tasks_not_graded", 0)
        d.setdefault("tasks_measured", sum(r.get("weighted_score") is not None for r in d["task_results"]))
        d["run_id"] = dst.name
        for r in d["task_results"]:
            if "turns" in r and "iterations" not in r:
                r["iterations"] = r.pop("turns")
    _edit(dst / "run.json", run)


# ---------------------------------------------------------------- builds ---------------------------------

@pytest.fixture(scope="session")
def coder_eval_clean(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("coder_eval_clean")
    db = fresh_db(tmp / "clean.duckdb")
    assert land(db, [CORPUS]) > 100
    target = tmp / "target"
    return db, target, _build(db, target)


@pytest.fixture(scope="session")
def coder_eval_dirty(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("coder_eval_dirty")
    corpus = tmp / "corpus"
    shutil.copytree(CORPUS, corpus)
    _plant(corpus)
    _modern_twin(CORPUS / "gen_legacy_shapes", tmp / "twin" / "gen_legacy_shapes_modern_twin")
    # a second, different run directory with a name already taken (a re-run copied elsewhere and edited)
    shutil.copytree(CORPUS / "gen_execute_only", tmp / "elsewhere" / "gen_execute_only")
    _edit(tmp / "elsewhere" / "gen_execute_only" / "run.json", lambda d: d.update(note="re-run elsewhere"))
    # not a violation: two task files the run skipped, as coder-eval 0.12.16 writes them
    _edit(corpus / "cli_dataset_suite" / "run.json", lambda d: d.update(skipped_tasks=SKIPPED_TASKS))
    db = fresh_db(tmp / "dirty.duckdb")
    land(db, [corpus, tmp / "twin", tmp / "elsewhere"])
    target = tmp / "target"
    return db, target, _build(db, target)


# run.json `skipped_tasks` of a fresh `coder-eval run` (0.12.16, agent type none): a task file that failed to
# load (task_timeout below the minimum) and a `skip: true` opt-out
SKIPPED_TASKS = [
    {"path": "tasks/c.yaml",
     "reason": "ValueError: Invalid task definition: 1 validation error for TaskDefinition\nrun_limits.task_timeout\n"
               "  Input should be greater than or equal to 30 [type=greater_than_equal, input_value=4, input_type=int]\n"
               "    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal"},
    {"path": "tasks/b.yaml", "reason": "skip: true (task_id='opted_out')"},
]


def _status(results: dict, name: str) -> tuple[str, int]:
    assert name in results, f"{name} did not run: {sorted(k for k in results if k.startswith('r'))}"
    return results[name]["status"], results[name]["failures"]


def _findings(db: Path, rule: str) -> list[str]:
    rows = query(db, "select source_file from marts.data_quality_findings "
                     "where rule_id = ? and source_family = 'coder_eval'", [rule])
    return [r[0] for r in rows]


# ---------------------------------------------------------------- clean corpus -------------------------

def test_clean_corpus_all_rule_tests_pass(coder_eval_clean):
    db, _, results = coder_eval_clean
    for name in WARN_TESTS + ERROR_TESTS:
        assert _status(results, name)[0] == "pass", (name, results[name])
    unit = [r for r in results.values() if r["unique_id"].endswith(".ut_int_coder_eval__run_recomputed_coder_eval_formulas")]
    assert [u["status"] for u in unit] == ["pass"]
    assert query(db, "select count(*) from marts.data_quality_findings where source_family = 'coder_eval' "
                     "and rule_id in ('R15', 'R16', 'R22', 'R23')") == [(0,)]


def test_every_corpus_run_and_replicate_is_modelled(coder_eval_clean):
    db, _, _ = coder_eval_clean
    runs = dict(query(db, "select run_id, tasks_run_recomputed from marts.coder_eval_run_summaries"))
    assert sorted(runs) == RUNS
    for run in RUNS:
        stored = json.loads((CORPUS / run / "run.json").read_text())
        assert runs[run] == len(stored["task_results"]) == stored["tasks_run"]
        n_task_json = len(list((CORPUS / run).rglob("task.json")))
        assert query(db, "select count(*) from marts.fct_coder_eval_replicates where run_id = ? "
                         "and record_source = 'task_json'", [run]) == [(n_task_json,)]


def _expected_rates(stored: dict) -> tuple[int, float | None, float | None]:
    """coder-eval's RunSummary formulas (models/results.py), from the stored counts with the legacy defaults."""
    not_graded = stored.get("tasks_not_graded", 0)
    measured = stored.get("tasks_measured", 0)
    graded = stored["tasks_run"] - not_graded
    if (not_graded > 0 and measured == 0) or graded == 0:
        return graded, None, None
    return graded, stored["tasks_succeeded"] / graded, stored["tasks_error"] / graded


@pytest.mark.parametrize("run", RUNS)
def test_conformance_rates_equal_stored_run_json(coder_eval_clean, run):
    db, _, _ = coder_eval_clean
    stored = json.loads((CORPUS / run / "run.json").read_text())
    graded, pass_rate, error_share = _expected_rates(stored)
    if "pass_rate" in stored:          # the library's own stored computation wins as the reference
        pass_rate, error_share = stored["pass_rate"], stored["error_share"]
    if "tasks_graded" in stored:
        graded = stored["tasks_graded"]
    (row,) = query(db, "select pass_rate_recomputed, error_share_recomputed, tasks_graded_recomputed, "
                       "counts_consistent, pass_rate_consistent from marts.coder_eval_run_summaries where run_id = ?", [run])
    assert row[0] == pass_rate            # exact, or both NULL
    assert row[1] == error_share
    assert row[2] == graded
    assert row[3] is True
    assert row[4] is ("pass_rate" in stored or None)


def test_replicate_rows_agree_with_run_json_rows(coder_eval_clean):
    """task.json-built replicate rows reproduce coder-eval's own run.json projection (modern writers)."""
    db, _, _ = coder_eval_clean
    bad = query(db, """
        select f.replicate_key
        from marts.fct_coder_eval_replicates as f
        inner join staging.stg_coder_eval__run_task_results as r
            using (run_dir, variant_id, task_id, replicate_index)
        where r.has_cost_breakdown and (
            f.final_status <> r.final_status
            or f.weighted_score is distinct from r.weighted_score
            or f.cost_complete is distinct from r.cost_complete
            or f.total_tokens is distinct from r.total_tokens
            or f.uncached_input_tokens is distinct from r.uncached_input_tokens
            or f.total_turns <> r.total_turns
            or f.stopped_early is distinct from r.stopped_early
            or abs(coalesce(f.judge_cost_usd, -1) - coalesce(r.judge_cost_usd, -1)) > 1e-12
            or abs(coalesce(f.agent_cost_usd, -1) - coalesce(r.agent_cost_usd, -1)) > 1e-12
            or abs(coalesce(f.total_cost_usd, -1) - coalesce(r.total_cost_usd, -1)) > 1e-9)
    """)
    assert bad == []
    assert query(db, "select count(*) from staging.stg_coder_eval__run_task_results where has_cost_breakdown") \
        == [(104,)]


def test_semantics_on_corpus(coder_eval_clean):
    db, _, _ = coder_eval_clean
    # NOT_GRADED is ungraded (not failed), BUILD_FAILED/ERROR are error; regimes from task.json environment_info
    cats = dict(query(db, "select distinct final_status, status_category from marts.fct_coder_eval_replicates"))
    assert cats["NOT_GRADED"] == "ungraded" and cats["ERROR"] == "error" and cats["TIMEOUT"] == "failed"
    regimes = dict(query(db, "select run_id, string_agg(distinct system_prompt_regime, ',') "
                             "from marts.fct_coder_eval_replicates group by run_id"))
    assert regimes["gen_legacy_shapes"] == "pre_append"
    assert regimes["gen_ab_experiment"] == "append"
    assert regimes["cli_agentless_ab"] == "unknown"
    # dataset rows: suite_id / row_id from task_config.resolved
    assert query(db, "select count(*), count(distinct row_id) from marts.fct_coder_eval_replicates "
                     "where run_id = 'cli_dataset_suite' and suite_id = 'sentiment_suite'") == [(32, 8)]
    # execute-only run: nothing measured -> NULL rates, never 0
    assert query(db, "select pass_rate_recomputed, error_share_recomputed, nothing_was_measured "
                     "from marts.coder_eval_run_summaries where run_id = 'gen_execute_only'") == [(None, None, True)]
    # unpriced model: NULL cost, not 0, and the run is flagged incomplete
    assert query(db, "select count(*) from marts.fct_coder_eval_replicates where model = 'acme/coder-ft-7b' "
                     "and agent_cost_usd is null and not cost_complete") == [(4,)]
    assert query(db, "select count(*) from marts.fct_coder_eval_replicates where agent_cost_usd = 0") == [(0,)]
    # judge transcripts are linked through transcript_path
    assert query(db, "select count(*), count(*) filter (where has_transcript) "
                     "from intermediate.int_coder_eval__judge_transcript_links") == [(15, 15)]
    # not_evaluated post-failure results never average in as 0.0
    (row,) = query(db, """select sum(n_not_evaluated), count(*) filter (where n_evaluated = 0 and mean_score is not null)
                          from marts.coder_eval_criterion_stats where result_phase = 'post_failure'""")
    assert row[0] > 0 and row[1] == 0
    # per-request billing rows carry the captured actual cost
    assert query(db, "select count(*) from intermediate.int_costs__coder_eval where actual_cost_usd is not null")[0][0] > 0


def test_r22_token_invariant_holds_on_corpus(coder_eval_clean):
    db, _, results = coder_eval_clean
    assert _status(results, "r22_coder_eval_turn_tokens_match_messages") == ("pass", 0)
    n_turns = query(db, "select count(*) from staging.stg_coder_eval__iterations where has_token_usage")[0][0]
    assert n_turns > 20   # the invariant was actually checked on real turns


def test_r19_execute_snapshots_staged_but_never_aggregated(coder_eval_clean):
    db, _, _ = coder_eval_clean
    assert query(db, "select count(*) from staging.stg_coder_eval__task_executes") == [(3,)]
    # the pre-grade snapshots say NOT_GRADED; the aggregates use the graded task.json
    assert query(db, "select count(*) from marts.fct_coder_eval_replicates where run_id = 'cli_execute_then_grade' "
                     "and source_file like '%task.execute.json'") == [(0,)]


# ---------------------------------------------------------------- negative controls (dirty corpus) ------

def test_coder_eval_run_names_unique_negative_control(coder_eval_clean, coder_eval_dirty):
    """Issue 14 (9): two run directories with one name used to fail the build on a uniqueness test, with no
    file named. The second gets the id <name>@<8 hex>; the warn test fires on exactly it, naming both."""
    assert _status(coder_eval_clean[2], "coder_eval_run_names_unique") == ("pass", 0)
    db, _, results = coder_eval_dirty
    assert _status(results, "coder_eval_run_names_unique") == ("warn", 1)
    (file, detail), = query(db, "select source_file, detail from intermediate.int_dq__coder_eval_run_name_collisions")
    assert file.endswith("elsewhere/gen_execute_only/run.json")
    assert "rename one directory" in detail and "/corpus/gen_execute_only" in detail
    ids = sorted(r[0] for r in query(db, "select distinct run_id from marts.coder_eval_run_summaries "
                                         "where run_id like 'gen_execute_only%'"))
    assert len(ids) == 2 and ids[0] == "gen_execute_only" and ids[1].startswith("gen_execute_only@")


def test_skipped_task_files_are_counted_in_the_run_summary(coder_eval_clean, coder_eval_dirty):
    """A task file that failed to load, or opted out, never ran and is in no count: the run summary says how many
    there were (a suite not run whole), and staging keeps each one's path and reason. The counts still agree."""
    clean = query(coder_eval_clean[0], "select count(*), sum(n_skipped_tasks) from marts.coder_eval_run_summaries")
    assert clean == [(len(RUNS), 0)]
    db, _, _ = coder_eval_dirty
    rows = dict(query(db, "select run_id, n_skipped_tasks from marts.coder_eval_run_summaries"))
    assert rows.pop("cli_dataset_suite") == len(SKIPPED_TASKS)
    assert rows and set(rows.values()) == {0}
    assert query(db, "select skipped_path, skipped_reason from staging.stg_coder_eval__skipped_tasks "
                     "order by skipped_index") == [(t["path"], t["reason"]) for t in SKIPPED_TASKS]
    assert query(db, "select counts_consistent, pass_rate_consistent from marts.coder_eval_run_summaries "
                     "where run_id = 'cli_dataset_suite'") == [(True, True)]


def test_r15_stored_counts_negative_control(coder_eval_dirty):
    db, _, results = coder_eval_dirty
    status, failures = _status(results, "r15_coder_eval_stored_counts_consistent")
    assert status == "warn" and failures >= 1
    assert any(f.endswith("gen_ab_experiment/run.json") for f in _findings(db, "R15"))
    assert query(db, "select counts_consistent from marts.coder_eval_run_summaries "
                     "where run_id = 'gen_ab_experiment'") == [(False,)]


def test_r15_report_counts_negative_control(coder_eval_dirty):
    db, _, results = coder_eval_dirty
    status, failures = _status(results, "r15_coder_eval_report_counts_partition")
    assert (status, failures) == ("warn", 2)
    findings = _findings(db, "R15")
    assert any(f.endswith("gen_unpriced_model/inhouse/variant.json") for f in findings)
    assert any(f.endswith("cli_dataset_suite/control/sentiment_suite/suite.json") for f in findings)


def test_r16_stored_pass_rate_negative_control(coder_eval_dirty):
    db, _, results = coder_eval_dirty
    status, failures = _status(results, "r16_coder_eval_stored_pass_rate_matches")
    assert status == "warn" and failures >= 1
    assert any(f.endswith("cli_agentless_ab/run.json") for f in _findings(db, "R16"))
    # the stored value is shown, never preferred
    assert query(db, "select pass_rate_stored, pass_rate_recomputed, pass_rate_consistent from marts.coder_eval_run_summaries "
                     "where run_id = 'cli_agentless_ab'") == [(0.5, 4 / 24, False)]


def test_r18_unknown_status_negative_control(coder_eval_dirty):
    db, _, results = coder_eval_dirty
    assert _status(results, "r18_coder_eval_status_known")[0] == "fail"
    assert _status(results, "r18_coder_eval_replicate_status_category_known")[0] == "fail"
    assert query(db, "select final_status, status_category from marts.fct_coder_eval_replicates "
                     "where status_category is null") == [("succeeded", None)]


def test_r22_token_buckets_negative_control(coder_eval_dirty):
    db, _, results = coder_eval_dirty
    status, failures = _status(results, "r22_coder_eval_turn_tokens_match_messages")
    assert (status, failures) == ("warn", 1)
    (f,) = _findings(db, "R22")
    assert f.endswith("gen_ab_experiment/sonnet/fix_import/00/task.json")


def test_r23_stored_total_negative_control(coder_eval_dirty):
    db, _, results = coder_eval_dirty
    status, failures = _status(results, "r23_coder_eval_stored_total_cost_matches")
    assert status == "warn" and failures >= 1
    findings = _findings(db, "R23")
    assert findings and all(f.endswith("gen_execute_only/run.json") for f in findings)


def test_computed_rule_tests_still_pass_in_dirty_build(coder_eval_dirty):
    """Planted LOG claims never break what evalhouse computes. (R18's unknown status does, by design: its row has
    no category, so r15_coder_eval_recomputed_counts_partition fails on that run too and is not listed here.)"""
    _, _, results = coder_eval_dirty
    for name in ["r16_coder_eval_pass_rate_formula", "r19_coder_eval_replicates_not_from_snapshot",
                 "r23_coder_eval_total_cost_is_sum", "r19_coder_eval_task_execute_not_downstream"]:
        assert _status(results, name)[0] == "pass", name


# ---------------------------------------------------------------- tampered computations -----------------

@pytest.fixture(scope="session")
def coder_eval_tampered(coder_eval_clean, tmp_path_factory):
    db, _, _ = coder_eval_clean
    tmp = tmp_path_factory.mktemp("coder_eval_tampered")
    tdb = tmp / "tampered.duckdb"
    shutil.copy(db, tdb)
    import duckdb
    con = duckdb.connect(str(tdb))
    try:
        # R15: a recomputed count that no longer partitions tasks_run
        con.execute("update marts.coder_eval_run_summaries set tasks_failed_recomputed = tasks_failed_recomputed + 1 "
                    "where run_id = 'gen_ab_experiment'")
        # R16: an unmeasured run reported as 0.0 instead of NULL
        con.execute("update marts.coder_eval_run_summaries set pass_rate_recomputed = 0.0 where run_id = 'gen_execute_only'")
        # R19: a replicate taken from the pre-grade snapshot
        con.execute("update marts.fct_coder_eval_replicates set source_file = replace(source_file, 'task.json', "
                    "'task.execute.json') where replicate_key = 'cli_execute_then_grade|default|greeting|0'")
        # R23: judge spend left out of the total (counted as if agent-only)
        con.execute("update marts.fct_coder_eval_replicates set total_cost_usd = agent_cost_usd "
                    "where replicate_key = 'gen_ab_experiment|sonnet|fix_import|0'")
        # R18: BUILD_FAILED miscounted as failed in the seed
        con.execute("update staging.final_status_categories set status_category = 'failed' "
                    "where final_status = 'BUILD_FAILED'")
    finally:
        con.close()
    target = tmp / "target"
    dbt(["test", "--select", "r15_coder_eval_recomputed_counts_partition", "r16_coder_eval_pass_rate_formula",
         "r19_coder_eval_replicates_not_from_snapshot", "r23_coder_eval_total_cost_is_sum", "r18_coder_eval_seed_categories"],
        tdb, target, check=False)
    return run_results(target)


@pytest.mark.parametrize("name", ["r15_coder_eval_recomputed_counts_partition", "r16_coder_eval_pass_rate_formula",
                                  "r19_coder_eval_replicates_not_from_snapshot", "r23_coder_eval_total_cost_is_sum",
                                  "r18_coder_eval_seed_categories"])
def test_computed_rule_negative_controls(coder_eval_tampered, coder_eval_clean, name):
    status, failures = _status(coder_eval_tampered, name)
    assert status == "fail" and failures == 1, (name, coder_eval_tampered[name])
    assert _status(coder_eval_clean[2], name)[0] == "pass"


def test_r19_graph_negative_control(coder_eval_clean, tmp_path):
    """A model that selects from the task.execute.json staging model makes the graph test fail."""
    db, _, _ = coder_eval_clean
    proj = tmp_path / "proj"
    proj.mkdir()
    for name in ["dbt_project.yml", "models", "macros", "seeds", "analyses", "docs"]:
        src = PROJECT_DIR / name
        if src.is_dir():
            shutil.copytree(src, proj / name)
        elif src.exists():
            shutil.copy(src, proj / name)
    (proj / "tests").mkdir()
    shutil.copytree(PROJECT_DIR / "tests" / "dbt", proj / "tests" / "dbt")
    (proj / "models" / "planted_r19_leak.sql").write_text(
        "select count(*) as n from {{ ref('stg_coder_eval__task_executes') }}\n")
    target = tmp_path / "target"
    env = dbt_env(db, target)
    env["DBT_PROJECT_DIR"] = str(proj)
    proc = subprocess.run([dbt_executable(), "test", "--select", "r19_coder_eval_task_execute_not_downstream"],
                          cwd=proj, env=env, text=True, capture_output=True, check=False)
    assert proc.returncode != 0, proc.stdout[-3000:]
    results = run_results(target)
    assert results["r19_coder_eval_task_execute_not_downstream"]["status"] == "fail"
    assert results["r19_coder_eval_task_execute_not_downstream"]["failures"] == 1


# ---------------------------------------------------------------- legacy shapes ------------------------

def test_legacy_readback_matches_library(coder_eval_clean):
    """gen_legacy_shapes read the way coder-eval 0.12.16 reads it back (LEGACY_READBACK.json)."""
    db, _, _ = coder_eval_clean
    readback = json.loads((CORPUS / "gen_legacy_shapes" / "LEGACY_READBACK.json").read_text())
    for rel, exp in readback.items():
        if not rel.endswith("task.json"):
            continue
        task = rel.split("/")[1]
        (row,) = query(db, "select uncached_input_tokens, uncached_input_tokens + cache_creation_input_tokens "
                           "+ cache_read_input_tokens from marts.fct_coder_eval_replicates "
                           "where run_id = 'gen_legacy_shapes' and task_id = ?", [task])
        assert row[0] == exp["total_token_usage.uncached_input_tokens(adopted from legacy input_tokens)"]
        assert row[1] == exp["total_token_usage.input_tokens(recomputed)"]
        assert query(db, "select count(*) from staging.stg_coder_eval__iterations "
                         "where run_id = 'gen_legacy_shapes' and task_id = ?", [task]) == [(exp["iterations_loaded"],)]
        crit = query(db, "select result_kind, evaluation_status, gating from staging.stg_coder_eval__criterion_results "
                         "where run_id = 'gen_legacy_shapes' and task_id = ? and result_phase = 'success' "
                         "order by criterion_index", [task])
        kinds = {"CriterionResult": "basic", "JudgeCriterionResult": "judge",
                 "ClassificationCriterionResult": "classification"}
        assert [c[0] for c in crit] == [kinds[k] for k in exp["result_kinds_inferred"]]
        assert [c[1] for c in crit] == exp["evaluation_status_defaulted"]
        assert [c[2] for c in crit] == exp["gating_defaulted"]
    run = readback["run.json"]
    assert query(db, "select tasks_not_graded_stored, tasks_measured_stored, pass_rate_recomputed, "
                     "error_share_recomputed, round(total_cost_usd, 8) from marts.coder_eval_run_summaries "
                     "where run_id = 'gen_legacy_shapes'") == [(
                         run["tasks_not_graded(defaulted)"], run["tasks_measured(defaulted)"],
                         run["pass_rate(recomputed)"], run["error_share(recomputed)"],
                         run["total_cost_usd(recomputed; pre-0.10.1 row total_cost_usd was agent-only)"])]


_LEGACY_ONLY = {
    "fct_coder_eval_replicates": {"replicate_key", "run_id", "run_dir", "source_file", "load_id", "document_sha256",
                          "is_legacy_token_usage"},
    "stg_coder_eval__criterion_results": {"run_id", "run_dir", "source_file", "load_id", "document_sha256",
                                          "is_result_kind_inferred", "is_evaluation_status_defaulted",
                                          "is_gating_defaulted", "judge_input_tokens_stored",
                                          "judge_is_legacy_input_tokens"},
    "stg_coder_eval__iterations": {"run_id", "run_dir", "source_file", "load_id", "document_sha256", "iterations_key",
                                   "turn_input_tokens_stored", "turn_is_legacy_input_tokens"},
    "stg_coder_eval__messages": {"run_id", "run_dir", "source_file", "load_id", "document_sha256"},
    "stg_coder_eval__tasks": {"run_id", "run_dir", "source_file", "load_id", "loaded_at", "document_sha256",
                              "file_sha256", "uses_legacy_turns_key", "total_input_tokens_stored",
                              "total_is_legacy_input_tokens"},
}


@pytest.mark.parametrize("relation", sorted(_LEGACY_ONLY))
def test_legacy_rows_equal_modern_twin(coder_eval_dirty, relation):
    """Legacy files give the same typed rows as the same content in current shapes, except legacy-only fields."""
    db, _, _ = coder_eval_dirty
    schema = "marts" if relation.startswith("fct") else "staging"
    cols = [c for (c,) in query(db, "select column_name from information_schema.columns where table_name = ? "
                                    "order by ordinal_position", [relation]) if c not in _LEGACY_ONLY[relation]]
    sel = ", ".join(cols)

    def rows(run_id):
        return query(db, f"select {sel} from {schema}.{relation} where run_id = ? order by all", [run_id])
    legacy, modern = rows("gen_legacy_shapes"), rows("gen_legacy_shapes_modern_twin")
    assert legacy and legacy == modern
    # and the legacy markers say which file was legacy
    if relation == "stg_coder_eval__tasks":
        flags = query(db, "select run_id, bool_and(uses_legacy_turns_key) from staging.stg_coder_eval__tasks "
                          "where run_id like 'gen_legacy_shapes%' group by run_id order by run_id")
        assert flags == [("gen_legacy_shapes", True), ("gen_legacy_shapes_modern_twin", False)]
