"""coder-eval part B: variant.json / experiment.json / suite.json staging and the marts
coder_eval_variant_rates, coder_eval_variant_comparisons, coder_eval_suite_results; rules R17, R20, R21, R24.

Builds (session-scoped, to keep the suite fast):
  * corpus   - the project's copy of the coder-eval corpus (fixtures/coder_eval): conformance,
               Python oracles, error-severity rule tests pass; a tampered COPY of it is the negative
               control for the rules on what evalhouse computes (R17, R20, R21, R24 error tests).
  * dirty    - two planted copies of gen_legacy_shapes: one whose variant.json/experiment.json are
               honestly TASK grain over 2 replicates (R21 plant), one whose variant.json
               average_score is stale (R24 plant): each warn test fires, on its own plant only.
  * clean    - a copy of the dirty warehouse whose raw variant/experiment documents are put back to
               what the replicate rows say (the staging/intermediate layers are views, so only the
               tests are re-run): the warn tests on what the logs claim pass.
"""
from __future__ import annotations

import json
import math
import shutil
from collections import defaultdict
from pathlib import Path

import duckdb
import pytest

from evalhouse.load import load_paths
from helpers import FIXTURES, dbt, fresh_db, query, run_results

CORPUS = FIXTURES / "coder_eval"
MY_MODELS = ("+fct_coder_eval_replicates +coder_eval_variant_rates +coder_eval_variant_comparisons +coder_eval_suite_results "
             "+int_dq__coder_eval_r21_variant_grain +int_dq__coder_eval_r24_variant_stale").split()
ERROR_TESTS = ["r17_coder_eval_variant_average_score", "r20_coder_eval_variant_rates_single_regime",
               "r20_coder_eval_variant_comparisons_single_regime", "r21_coder_eval_variant_rates_grains",
               "r24_coder_eval_variant_rates_flags_stale"]
WARN_TESTS = ["r21_coder_eval_variant_grain_findings", "r24_coder_eval_variant_stale_findings"]
CATEGORY = {"SUCCESS": "succeeded", "FAILURE": "failed", "TIMEOUT": "failed", "MAX_TURNS_EXHAUSTED": "failed",
            "TOKEN_BUDGET_EXCEEDED": "failed", "COST_BUDGET_EXCEEDED": "failed", "ERROR": "error",
            "BUILD_FAILED": "error", "NOT_GRADED": "ungraded"}


class _Dbt:
    """Every dbt invocation of this module runs against ONE database path and ONE target dir, so
    dbt's partial parsing survives between them (a changed profile path forces a full re-parse);
    each warehouse state is kept as a copy of that file, each run's results as a copy of
    run_results.json."""

    def __init__(self, root: Path):
        self.root = root
        self.active = root / "active.duckdb"
        self.target = root / "target"

    def run(self, args: list[str], db_in: Path | None, name: str) -> tuple[Path, Path]:
        if db_in is not None:
            shutil.copy(db_in, self.active)
        dbt(args, self.active, self.target, check=False)
        out = self.root / name
        out.mkdir()
        shutil.copy(self.target / "run_results.json", out / "run_results.json")
        db = out / "wh.duckdb"
        shutil.copy(self.active, db)
        return db, out


@pytest.fixture(scope="session")
def dbt_runner(tmp_path_factory):
    return _Dbt(tmp_path_factory.mktemp("coder_eval_variant"))


def _build(runner: _Dbt, name: str, roots: list[Path], extra_select: list[str] = ()) -> tuple[Path, Path]:
    if runner.active.exists():
        runner.active.unlink()
    fresh_db(runner.active)
    load_paths([str(r) for r in roots], str(runner.active))
    return runner.run(["build", "--select", *MY_MODELS, *extra_select], None, name)


@pytest.fixture(scope="session")
def corpus(dbt_runner):
    return _build(dbt_runner, "corpus", [CORPUS], ["+data_quality_findings"])


def _rewrite(path: Path, doc, indent: int) -> None:
    # re-serialised with a plant-specific indent: new bytes, so the loader never treats it as a copy
    path.write_text(json.dumps(doc, indent=indent))


def _plant_copy(dst: Path, indent: int) -> Path:
    shutil.copytree(CORPUS / "gen_legacy_shapes", dst)
    for p in dst.rglob("*.json"):
        _rewrite(p, json.loads(p.read_text()), indent)
    return dst


@pytest.fixture(scope="session")
def dirty(dbt_runner, tmp_path_factory):
    runs = tmp_path_factory.mktemp("coder_eval_variant_runs")
    # R21 plant: fix_import gets a 2nd replicate that passes; the stored aggregates are what
    # coder-eval writes (task grain, worst-of folding) - correct, but not replicate grain.
    r21 = _plant_copy(runs / "r21_plant", 3)
    rep0 = r21 / "default/fix_import/00/task.json"
    rep1 = json.loads(rep0.read_text())
    rep1.update(final_status="SUCCESS", weighted_score=1.0)
    (r21 / "default/fix_import/01").mkdir()
    _rewrite(r21 / "default/fix_import/01/task.json", rep1, 3)
    # ... and run.json lists it, as coder-eval writes it (a task.json it does not list is no replicate, R38)
    run = json.loads((r21 / "run.json").read_text())
    (row0,) = [r for r in run["task_results"] if r["task_id"] == "fix_import"]
    run["task_results"].append({**row0, "replicate_index": 1, "status": "SUCCESS", "weighted_score": 1.0})
    run.update(tasks_run=run["tasks_run"] + 1, tasks_succeeded=run["tasks_succeeded"] + 1)
    _rewrite(r21 / "run.json", run, 3)
    folded = (0.6625 + 1.0) / 2
    task_avg = (folded + 1.0 + 0.0 + 0.0) / 4
    var = json.loads((r21 / "default/variant.json").read_text())
    var["average_score"] = task_avg
    _rewrite(r21 / "default/variant.json", var, 3)
    exp = json.loads((r21 / "experiment.json").read_text())
    exp["variant_aggregates"]["default"]["average_score"] = task_avg
    for ts in exp["task_summaries"]:
        if ts["task_id"] == "fix_import":
            ts["variant_results"][0].update(weighted_score=folded, replicate_count=2)
    _rewrite(r21 / "experiment.json", exp, 3)
    # R24 plant: variant.json average_score no longer what the (single) replicates say
    r24 = _plant_copy(runs / "r24_plant", 4)
    var = json.loads((r24 / "default/variant.json").read_text())
    var["average_score"] = 0.5
    _rewrite(r24 / "default/variant.json", var, 4)
    db, target = _build(dbt_runner, "dirty", [runs])
    return db, target, r21, r24


@pytest.fixture(scope="session")
def clean(dirty, dbt_runner):
    """The dirty warehouse with its planted documents put back: r24's variant.json gets its true
    average_score, and r21's task-grain variant.json / experiment.json are removed (a run with
    replicate_count 1 writes no grain difference; the single-replicate legacy documents of r24
    stay in and must raise nothing)."""
    db, _, r21, r24 = dirty
    copy = dbt_runner.root / "clean_input.duckdb"
    shutil.copy(db, copy)
    original = json.loads((CORPUS / "gen_legacy_shapes/default/variant.json").read_text())
    con = duckdb.connect(str(copy))
    try:
        con.execute("update raw.ce_variant_docs set document = ? where run_id = 'r24_plant'", [json.dumps(original)])
        for t in ("ce_variant_docs", "ce_experiment_docs"):
            con.execute(f"delete from raw.{t} where run_id = 'r21_plant'")
    finally:
        con.close()
    return dbt_runner.run(["test", "--select", *WARN_TESTS], copy, "clean")


# ---------------------------------------------------------------- Python oracle over task.json
def _replicates():
    """(run, variant, regime) -> task -> list of (category, weighted_score) from the fixture task.json files.
    regime = environment_info.system_prompt_semantics, 'pre_append' when the key is absent; a synthetic
    record (BUILD_FAILED, environment_info {}) takes its variant's single regime (fct_coder_eval_replicates' rule)."""
    reps = []
    for p in sorted(CORPUS.rglob("task.json")):
        d = json.loads(p.read_text())
        run = next(q for q in p.parents if (q / "run.json").is_file()).name
        env = d.get("environment_info") or {}
        regime = env.get("system_prompt_semantics", "pre_append") if env else None
        reps.append((run, d["variant_id"], regime, d["task_id"], CATEGORY[d["final_status"]], d.get("weighted_score")))
    regimes = defaultdict(set)
    for run, var, regime, *_ in reps:
        if regime is not None:
            regimes[(run, var)].add(regime)
    out = defaultdict(lambda: defaultdict(list))
    for run, var, regime, task, cat, score in reps:
        if regime is None and len(regimes[(run, var)]) == 1:
            regime = next(iter(regimes[(run, var)]))
        out[(run, var, regime)][task].append((cat, score))
    return out


def _wilson_at(p, n, crit):
    d = 1 + crit * crit / n
    c, h = (p + crit * crit / (2 * n)) / d, crit / d * math.sqrt(max(0.0, p * (1 - p) / n + crit * crit / (4 * n * n)))
    return (0.0 if p <= 0 else max(0.0, c - h)), (1.0 if p >= 1 else min(1.0, c + h))


def _t(n_clusters):
    from scipy import stats  # noqa: PLC0415

    return float(stats.t.ppf(0.975, n_clusters - 1))


def _clustered_rate_ci(k, n, se, n_clusters):
    """Replicates of one task are one cluster: Wilson at the design-effect n with t(C-1)."""
    if n_clusters < 2:
        return None, None
    p = k / n
    n_eff = n if k in (0, n) or se is None or se <= 1e-12 else min(n, p * (1 - p) / se ** 2)
    return _wilson_at(p, n_eff, _t(n_clusters))


def _unit_mean_ci(m, se, n_clusters, n_obs, binary=False):
    """A score mean in [0, 1]: of 0/1 scores (binary), the clustered rate's interval; otherwise t(C-1) on the
    angular scale (C >= 4), plain t (C < 4), Wilson at SE = 0."""
    if m is None or se is None or n_clusters < 2:
        return None, None
    if binary:
        return _clustered_rate_ci(m * n_obs, n_obs, se, n_clusters)
    t = _t(n_clusters)
    if se <= 1e-12:
        return _wilson_at(m, n_obs, t)
    if 0 < m < 1 and n_clusters >= 4:
        a, sa = math.asin(math.sqrt(m)), se / (2 * math.sqrt(m * (1 - m)))
        return math.sin(max(0.0, a - t * sa)) ** 2, math.sin(min(math.pi / 2, a + t * sa)) ** 2
    return max(0.0, min(1.0, m - t * se)), max(0.0, min(1.0, m + t * se))


def _cluster_se(clusters):
    """clusters: list of lists of observations; Miller 2024 with C/(C-1)."""
    obs = [x for c in clusters for x in c]
    n, C = len(obs), len(clusters)
    if C < 2:
        return None
    m = sum(obs) / n
    return math.sqrt(C / (C - 1) * sum(sum(x - m for x in c) ** 2 for c in clusters)) / n


def _oracle_rates():
    rows = {}
    for key, tasks in _replicates().items():
        reps = [r for t in tasks.values() for r in t]
        graded = [r for r in reps if r[0] != "ungraded"]
        n_ung = len(reps) - len(graded)
        measured = sum(1 for r in reps if r[1] is not None)
        nothing = (n_ung > 0 and measured == 0) or not graded
        succ = sum(1 for r in graded if r[0] == "succeeded")
        clusters = [[(s if s is not None else 0.0) for c, s in t if c != "ungraded"] for t in tasks.values()]
        clusters = [c for c in clusters if c]
        row = dict(n_replicates=len(reps), n_graded=len(graded), n_succeeded=succ, n_clusters=len(clusters))
        if nothing:
            row.update(pass_rate=None, ci=(None, None), avg=None, se=None)
        else:
            avg = sum(x for c in clusters for x in c) / len(graded)
            se = _cluster_se(clusters)
            passed = [[1.0 if c == "succeeded" else 0.0 for c, _s in t if c != "ungraded"] for t in tasks.values()]
            passed = [c for c in passed if c]
            ci = _clustered_rate_ci(succ, len(graded), _cluster_se(passed), len(passed))
            row.update(pass_rate=succ / len(graded), ci=ci, avg=avg, se=se,
                       avg_ci=_unit_mean_ci(avg, se, len(clusters), len(graded),
                                            binary=all(x in (0, 1) for c in clusters for x in c)))
        rows[key] = row
    return rows


def _close(a, b, tol=1e-9):
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= tol)


def test_coder_eval_variant_rates_python_oracle(corpus):
    db, _ = corpus
    got = {(r[0], r[1], r[2]): r[3:] for r in query(db, """
        select run_id, variant_id, system_prompt_regime, n_replicates, n_graded, n_succeeded, pass_rate,
               pass_rate_ci_low, pass_rate_ci_high, average_score, average_score_se, average_score_ci_low,
               average_score_ci_high, n_clusters
        from marts.coder_eval_variant_rates""")}
    want = _oracle_rates()
    assert set(got) == set(want)
    for key, w in want.items():
        n_rep, n_gr, n_succ, pr, lo, hi, avg, se, alo, ahi, ncl = got[key]
        assert (n_rep, n_gr, n_succ, ncl) == (w["n_replicates"], w["n_graded"], w["n_succeeded"], w["n_clusters"]), key
        assert _close(pr, w["pass_rate"]) and _close(lo, w["ci"][0]) and _close(hi, w["ci"][1]), key
        assert _close(avg, w["avg"]) and _close(se, w["se"]), key
        if w["se"] is not None:
            assert _close(alo, w["avg_ci"][0]) and _close(ahi, w["avg_ci"][1]), key
        else:
            assert alo is None and ahi is None, key
    # sanity: the oracle covers the interesting cases (legacy pre_append, a nothing-measured stratum)
    assert ("gen_legacy_shapes", "default", "pre_append") in want
    assert want[("gen_execute_only", "default", "append")]["pass_rate"] is None


def test_coder_eval_variant_comparisons_python_oracle(corpus):
    db, _ = corpus
    reps = _replicates()
    got = {(r[0], r[1], r[2], r[3]): r[4:] for r in query(db, """
        select run_id, system_prompt_regime, variant_a, variant_b, n_pairs, mean_difference, difference_se,
               arms_correlation, n_only_a_passed, n_only_b_passed, mcnemar_p
        from marts.coder_eval_variant_comparisons""")}
    key = ("gen_ab_experiment", "append", "sonnet", "opus")
    assert key in got
    arms = {}
    for v in ("sonnet", "opus"):
        arms[v] = {t: ([s if s is not None else 0.0 for c, s in rs if c != "ungraded"],
                       all(c == "succeeded" for c, s in rs if c != "ungraded"))
                   for t, rs in reps[("gen_ab_experiment", v, "append")].items()}
    tasks = sorted(set(arms["sonnet"]) & set(arms["opus"]))
    a = [sum(arms["sonnet"][t][0]) / len(arms["sonnet"][t][0]) for t in tasks]
    b = [sum(arms["opus"][t][0]) / len(arms["opus"][t][0]) for t in tasks]
    d = [y - x for x, y in zip(a, b)]
    se = _cluster_se([[x] for x in d])
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    corr = sum((x - ma) * (y - mb) for x, y in zip(a, b)) / math.sqrt(
        sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
    bb = sum(1 for t in tasks if arms["sonnet"][t][1] and not arms["opus"][t][1])
    cc = sum(1 for t in tasks if not arms["sonnet"][t][1] and arms["opus"][t][1])
    p = 1.0 if bb == cc else min(1.0, 2 * sum(math.comb(bb + cc, i) for i in range(min(bb, cc) + 1)) / 2 ** (bb + cc))
    n_pairs, mean_d, got_se, got_corr, got_b, got_c, got_p = got[key]
    assert n_pairs == len(tasks) == 4
    assert _close(mean_d, sum(d) / len(d)) and _close(got_se, se) and _close(got_corr, corr)
    assert (got_b, got_c) == (bb, cc) and _close(got_p, p)
    # identical arms (cli_dataset_suite control vs treatment): zero difference, McNemar p = 1
    same = got[("cli_dataset_suite", "unknown", "control", "treatment")]
    assert same[0] == 8 and _close(same[1], 0.0) and _close(same[6], 1.0)


def test_coder_eval_variant_rates_task_grain_and_stored_columns(corpus):
    db, _ = corpus
    rows = {(r[0], r[1], r[2]): r[3:] for r in query(db, """
        select run_id, variant_id, system_prompt_regime, pass_rate, task_pass_rate,
               variant_json_task_pass_rate_stored, variant_json_is_stale, variant_json_spans_regimes
        from marts.coder_eval_variant_rates""")}
    # gen_ab_experiment/opus: 4 of 12 replicates pass, but no task passes every replicate (R21)
    pr, tpr, stored, stale, spans = rows[("gen_ab_experiment", "opus", "append")]
    assert _close(pr, 4 / 12) and tpr == 0.0 and stored == 0.0 and stale is False and spans is False
    # cli_execute_then_grade: variant.json was not rewritten by the detached grade (R24)
    assert rows[("cli_execute_then_grade", "default", "unknown")][3] is True
    # gen_execute_only: nothing measured -> NULL at both grains, although variant.json says 0.0
    pr, tpr, stored, stale, _ = rows[("gen_execute_only", "default", "append")]
    assert pr is None and tpr is None and stored == 0.0 and stale is False


def test_coder_eval_suite_results(corpus):
    db, _ = corpus
    rows = query(db, """
        select variant_id, suite_id, metric, passed_stored, passed_recomputed, names_unemitted_metric,
               counts_consistent, pass_rate_consistent, rows_found
        from marts.coder_eval_suite_results order by variant_id, suite_id, metric""")
    by = {(r[0], r[1], r[2]): r[3:] for r in rows}
    for v in ("control", "treatment"):
        assert by[(v, "sentiment_suite", "f1.macro")][:3] == (False, False, True)
        assert by[(v, "sentiment_suite", "macro_f1")][:3] == (False, False, False)
        assert by[(v, "sentiment_suite", "accuracy")][:5] == (True, True, False, True, True)
    # legacy suite: no row task.json was written, so nothing can be recomputed (not a fake 0)
    assert by[("default", "legacy_suite", None)][3:] == (None, None, False)


def test_r21_r24_corpus_differences_are_all_explained(corpus):
    """Every stored variant.json / experiment.json value that differs from the replicate-grain
    recomputation has an R21 or R24 row in data_quality_findings for that document."""
    db, target = corpus
    assert run_results(target)["data_quality_findings"]["status"] == "success"
    findings = defaultdict(set)
    for rule, src, detail in query(db, "select rule_id, source_file, detail from marts.data_quality_findings "
                                       "where rule_id in ('R21', 'R24')"):
        findings[src].add(rule)
    oracle = _oracle_rates()
    per_variant = defaultdict(lambda: dict(n=0, succ=0, graded=0))
    for (run, var, _), r in oracle.items():
        pv = per_variant[(run, var)]
        pv["n"] += r["n_replicates"]
        pv["succ"] += r["n_succeeded"]
        pv["graded"] += r["n_graded"]
    n_checked = 0
    for vf in sorted(CORPUS.glob("*/*/variant.json")):
        run, var = vf.parent.parent.name, vf.parent.name
        stored = json.loads(vf.read_text())
        pv = per_variant[(run, var)]
        differs = stored["tasks_run"] != pv["n"] or stored["tasks_succeeded"] != pv["succ"]
        for src in (str(vf), str(vf.parent.parent / "experiment.json")):
            if differs:
                n_checked += 1
                assert findings[src] & {"R21", "R24"}, src
    assert n_checked >= 20
    ex = CORPUS / "cli_execute_then_grade"
    assert "R24" in findings[str(ex / "default/variant.json")]
    assert "R24" in findings[str(ex / "experiment.json")]
    detail = query(db, "select detail from marts.data_quality_findings where rule_id = 'R21' and source_file = ?",
                   [str(CORPUS / "gen_execute_only/default/variant.json")])
    assert detail and "pass_rate = 0.0" in detail[0][0] and "nothing measured" in detail[0][0]
    # a fresh legacy run (one replicate per task) has nothing to explain
    assert not findings[str(CORPUS / "gen_legacy_shapes/default/variant.json")]


def test_error_rule_tests_pass_on_corpus(corpus):
    _, target = corpus
    res = run_results(target)
    for t in ERROR_TESTS:
        assert res[t]["status"] == "pass", (t, res[t])
    for t in WARN_TESTS:
        assert res[t]["status"] == "warn" and res[t]["failures"] > 0, (t, res[t])


@pytest.fixture(scope="session")
def tampered(corpus, dbt_runner):
    """A copy of the corpus warehouse where each mart column a rule protects is broken in ONE
    stratum (each in a different run), then only the rule tests are re-run."""
    db, _ = corpus
    copy = dbt_runner.root / "tampered_input.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    try:
        # R17: errored replicates dropped from the average instead of counting 0.0
        con.execute("""
            update marts.coder_eval_variant_rates as v set average_score = (
                select avg(r.weighted_score) from marts.fct_coder_eval_replicates as r
                where r.run_id = v.run_id and r.variant_id = v.variant_id
                  and r.system_prompt_regime = v.system_prompt_regime and r.status_category not in ('error', 'ungraded'))
            where v.run_id = 'cli_agentless_ab' and v.variant_id = 'control'""")
        # R20: a replicate of another regime pooled into opus' append row, and a row for a regime
        # stratum that holds no replicate (sonnet's row relabelled into a second regime)
        con.execute("""update marts.coder_eval_variant_rates set n_replicates = n_replicates + 1, n_graded = n_graded + 1,
                       n_failed = n_failed + 1 where run_id = 'gen_ab_experiment' and variant_id = 'opus'""")
        con.execute("""insert into marts.coder_eval_variant_rates select * replace ('replace' as system_prompt_regime)
                       from marts.coder_eval_variant_rates where run_id = 'gen_ab_experiment' and variant_id = 'sonnet'""")
        con.execute("update marts.coder_eval_variant_comparisons set n_pairs = n_pairs + 1 where run_id = 'gen_ab_experiment'")
        # R21: the task-grain rate written into the replicate-grain column
        con.execute("""update marts.coder_eval_variant_rates set pass_rate = task_pass_rate
                       where run_id = 'gen_unpriced_model' and variant_id = 'inhouse'""")
        # R24: the stale variant.json not flagged
        con.execute("""update marts.coder_eval_variant_rates set variant_json_is_stale = false
                       where run_id = 'cli_execute_then_grade'""")
    finally:
        con.close()
    _, out = dbt_runner.run(["test", "--select", *ERROR_TESTS], copy, "tampered")
    return run_results(out)


@pytest.mark.parametrize("test, failures", [
    ("r17_coder_eval_variant_average_score", 1),
    # the pooled opus row (13 != 12 replicates) and the row of a regime stratum with no replicate
    ("r20_coder_eval_variant_rates_single_regime", 2),
    ("r20_coder_eval_variant_comparisons_single_regime", 1),
    ("r21_coder_eval_variant_rates_grains", 1),
    ("r24_coder_eval_variant_rates_flags_stale", 1),
])
def test_variant_rule_negative_controls(tampered, test, failures):
    """Each planted violation (the tampered fixture above) makes its rule's test fail on exactly its rows."""
    assert (tampered[test]["status"], tampered[test]["failures"]) == ("fail", failures)


def test_r21_r24_findings_pass_on_clean_fixture(clean):
    db, target = clean
    res = run_results(target)
    for t in WARN_TESTS:
        assert res[t]["status"] == "pass", (t, res[t])
    # the clean fixture still has stored documents that were checked (and agree)
    checked = query(db, "select count(*), count(*) filter (where explanation = 'agrees') "
                        "from intermediate.int_coder_eval__variant_json_checks")[0]
    assert checked[0] >= 10 and checked[0] == checked[1]


def test_r21_grain_findings_negative_control(dirty):
    db, target, r21, r24 = dirty
    res = run_results(target)
    assert res["r21_coder_eval_variant_grain_findings"]["status"] == "warn"
    assert res["r21_coder_eval_variant_grain_findings"]["failures"] == 2  # variant.json + experiment.json
    files = {r[0] for r in query(db, "select source_file from intermediate.int_dq__coder_eval_r21_variant_grain")}
    assert files == {str(r21 / "default/variant.json"), str(r21 / "experiment.json")}
    for t in ERROR_TESTS:
        assert res[t]["status"] == "pass", (t, res[t])


def test_r24_stale_findings_negative_control(dirty):
    db, target, r21, r24 = dirty
    res = run_results(target)
    assert res["r24_coder_eval_variant_stale_findings"]["status"] == "warn"
    assert res["r24_coder_eval_variant_stale_findings"]["failures"] == 1
    (src, detail), = query(db, "select source_file, detail from intermediate.int_dq__coder_eval_r24_variant_stale")
    assert src == str(r24 / "default/variant.json") and "average_score = 0.5" in detail
    stale = query(db, "select run_id, variant_json_is_stale from marts.coder_eval_variant_rates order by 1")
    assert stale == [("r21_plant", False), ("r24_plant", True)]


def test_report_staging_types_legacy_and_modern(corpus):
    """variant.json / suite.json staging: legacy documents get the model defaults for keys an older
    writer did not emit (flagged, never compared), modern ones keep their stored computed keys."""
    db, _ = corpus
    rows = {r[0]: r[1:] for r in query(db, """
        select run_id || '/' || variant_id, tasks_not_graded, has_tasks_not_graded_key, tasks_measured,
               has_tasks_measured_key, pass_rate_stored, has_pass_rate_key, has_invalid_fields
        from staging.stg_coder_eval__variants""")}
    assert rows["gen_legacy_shapes/default"] == (0, False, 0, False, None, False, False)
    assert rows["gen_execute_only/default"] == (0, True, 2, True, 0.0, True, False)
    suites = {r[0]: r[1:] for r in query(db, """
        select suite_id, rows_not_graded, passed, pass_rate_stored, n_criterion_aggregates
        from staging.stg_coder_eval__suites where variant_id = 'control' or suite_id = 'legacy_suite'""")}
    assert suites["legacy_suite"] == (0, True, 2 / 3, 0)
    assert suites["sentiment_suite"] == (0, False, 0.625, 2)
    # every per_replicate_scores entry of the corpus is typed (96 scores in 7 experiment.json files)
    assert query(db, "select count(*), count(score) from staging.stg_coder_eval__per_replicate_scores")[0] == (96, 96)


def test_report_staging_flags_uncastable_values(corpus, tmp_path):
    """Staging never drops a document: a value that does not cast becomes NULL and is named in
    invalid_fields (the staging layer is views, so a raw edit in a copy is enough)."""
    db, _ = corpus
    copy = tmp_path / "wh.duckdb"
    shutil.copy(db, copy)
    src = str(CORPUS / "cli_agentless_ab/control/variant.json")
    doc = json.loads(Path(src).read_text())
    doc.update(tasks_run="four", average_score="high")
    con = duckdb.connect(str(copy))
    try:
        con.execute("update raw.ce_variant_docs set document = ? where source_file = ?", [json.dumps(doc), src])
        row = con.execute("""select tasks_run, average_score, tasks_succeeded, invalid_fields, has_invalid_fields
                             from staging.stg_coder_eval__variants where source_file = ?""", [src]).fetchall()
        n = con.execute("select count(*) from staging.stg_coder_eval__variants").fetchall()[0][0]
    finally:
        con.close()
    assert row == [(None, None, 1, "tasks_run, average_score", True)]
    assert n == 12
