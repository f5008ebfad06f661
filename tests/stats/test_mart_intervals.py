"""Issue 5, last bullet: recompute mart rows' intervals in Python (scripts/stats_oracle.py: scipy /
numpy, not the SQL macros) from the fct_* rows beneath them, and require agreement to 1e-9.

One session build of the clean fixtures (brownfield, matrix, coder-eval) with `dbt run` of just the
marts checked here and their parents."""
from __future__ import annotations

import importlib.util
import json
from collections import defaultdict

import pytest

from evalhouse.paths import FIXTURES_DIR, PROJECT_DIR
from helpers import dbt, fresh_db, query

_spec = importlib.util.spec_from_file_location("stats_oracle", PROJECT_DIR / "scripts" / "stats_oracle.py")
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

TOL = 1e-9
MARTS = ["big_rates", "matrix_pass_rates", "ce_variant_rates", "ce_variant_comparisons"]


def close(got, want):
    if want is None:
        return got is None
    return got is not None and abs(got - want) <= TOL


@pytest.fixture(scope="session")
def mart_db(tmp_path_factory):
    from evalhouse.load import load_paths

    tmp = tmp_path_factory.mktemp("stats_marts")
    db = fresh_db(tmp / "warehouse.duckdb")  # not "marts.duckdb": the catalog name would clash with the schema
    load_paths([FIXTURES_DIR / "brownfield" / "clean", FIXTURES_DIR / "brownfield_matrix" / "clean",
                FIXTURES_DIR / "coder_eval"], db=db)
    # seeds + models only (the data tests belong to the suites of the marts' owners). check=False: each
    # test below requires only its own mart (and parents) to have built, see need().
    target = tmp / "target"
    proc = dbt(["build", "--select", *[f"+{m}" for m in MARTS], "--exclude-resource-type", "test", "unit_test"], db,
               target, check=False)
    status = {}
    results = json.loads((target / "run_results.json").read_text())["results"] if (target / "run_results.json").exists() else []
    for r in results:
        status[r["unique_id"].split(".")[-1]] = (r["status"], r.get("message"))
    return db, status, proc.stdout[-4000:]


def need(mart_db, mart: str):
    """The db, failing the test (with dbt's message) unless `mart` was built."""
    db, status, log = mart_db
    st = status.get(mart)
    if st is None or st[0] != "success":
        pytest.fail(f"{mart} did not build: {st}\n{log}")
    return db


def test_big_rates_intervals_recomputed_from_fct_big_runs(mart_db):
    db = need(mart_db, "big_rates")
    runs = query(db, """select kind, model, with_brain, with_plan, scenario_id, change, regress
                             from marts.fct_big_runs where kind in ('fix', 'refactor')""")
    groups = defaultdict(lambda: defaultdict(list))
    for kind, model, brain, plan, scenario, change, regress in runs:
        groups[(kind, model, brain, plan)][scenario].append((change, regress))
    rates = query(db, """select kind, model, with_brain, with_plan, change_mean, change_se, change_ci_low,
                                     change_ci_high, regress_mean, regress_se, regress_ci_low, regress_ci_high
                              from marts.big_rates""")
    assert rates and len(rates) == len(groups)
    n_with_se = 0
    for kind, model, brain, plan, *got in rates:
        clusters = groups[(kind, model, brain, plan)]
        want = []
        for idx in (0, 1):  # change, regress
            sums = [sum(v[idx] for v in obs if v[idx] is not None) if any(v[idx] is not None for v in obs) else None
                    for obs in clusters.values()]
            ns = [sum(1 for v in obs if v[idx] is not None) for obs in clusters.values()]
            total = sum(n for n in ns)
            mean = sum(s for s in sums if s is not None) / total if total else None
            se = oracle.cluster_se_two_pass(sums, ns)
            lo, hi = oracle.mean_ci(mean, se)
            want += [mean, se, lo, hi]
        assert all(close(g, w) for g, w in zip(got, want)), (kind, model, brain, plan, got, want)
        n_with_se += got[1] is not None
    assert n_with_se > 0  # at least one row actually exercises the clustered interval


def test_matrix_pass_rates_recomputed_from_fct_matrix_turns(mart_db):
    db = need(mart_db, "matrix_pass_rates")
    turns = query(db, """select cell, turn_type, evidence_class, difficulty, cluster_key, check_passed
                              from marts.fct_matrix_turns where evidence_class is not null""")
    groups = defaultdict(lambda: defaultdict(list))
    for cell, turn_type, evidence_class, difficulty, cluster_key, passed in turns:
        groups[(cell, turn_type, evidence_class, difficulty)][cluster_key].append(passed)
    rates = query(db, """select cell, type, evidence_class, difficulty, n_turns, n_passed, ci_low, ci_high,
                                     n_clusters, se_clustered from marts.matrix_pass_rates""")
    assert rates and len(rates) == len(groups)
    n_with_se = 0
    for cell, turn_type, evidence_class, difficulty, n_turns, n_passed, lo, hi, n_clusters, se in rates:
        clusters = groups[(cell, turn_type, evidence_class, difficulty)]
        outcomes = [p for obs in clusters.values() for p in obs if p is not None]
        assert (n_turns, n_passed) == (len(outcomes), sum(outcomes))
        want_lo, want_hi = oracle.wilson(sum(outcomes), len(outcomes))
        assert close(lo, want_lo) and close(hi, want_hi), (cell, turn_type, lo, hi, want_lo, want_hi)
        values, ids = [], []
        for cid, obs in clusters.items():
            values += [float(p) for p in obs if p is not None]
            ids += [cid for p in obs if p is not None]
        want_se = oracle.cluster_se_inspect(values, ids) if values else None
        assert close(se, want_se), (cell, turn_type, evidence_class, difficulty, se, want_se)
        n_with_se += se is not None
    assert n_with_se > 0


def test_ce_variant_rates_intervals(mart_db):
    db = need(mart_db, "ce_variant_rates")
    rows = query(db, """select run_id, variant_id, system_prompt_regime, n_succeeded, n_graded, pass_rate,
                                    pass_rate_ci_low, pass_rate_ci_high, average_score, average_score_se,
                                    average_score_ci_low, average_score_ci_high, n_tasks_all_passed, n_tasks_graded,
                                    task_pass_rate, task_pass_rate_ci_low, task_pass_rate_ci_high
                             from marts.ce_variant_rates""")
    folds = query(db, """select run_id, variant_id, system_prompt_regime, task_id, graded_score_sum, n_graded
                              from intermediate.int_ce_v__regime_task_folds where n_graded > 0""")
    clusters = defaultdict(list)
    for run_id, variant_id, regime, _task, score_sum, n in folds:
        clusters[(run_id, variant_id, regime)].append((score_sum, n))
    assert rows
    checked = 0
    for (run_id, variant_id, regime, k, n, rate, lo, hi, avg, se, alo, ahi, tk, tn, trate, tlo, thi) in rows:
        if rate is not None:
            want = oracle.wilson(k, n)
            assert close(lo, want[0]) and close(hi, want[1]), (run_id, variant_id, lo, hi, want)
        if trate is not None:
            want = oracle.wilson(tk, tn)
            assert close(tlo, want[0]) and close(thi, want[1])
        if avg is not None:
            c = clusters[(run_id, variant_id, regime)]
            want_se = oracle.cluster_se_two_pass([s for s, _ in c], [m for _, m in c])
            assert close(se, want_se), (run_id, variant_id, regime, se, want_se)
            want_lo, want_hi = oracle.mean_ci(avg, want_se)
            assert close(alo, want_lo) and close(ahi, want_hi)
            checked += want_se is not None
    assert checked > 0


def test_ce_variant_comparisons_tests_and_intervals(mart_db):
    db = need(mart_db, "ce_variant_comparisons")
    rows = query(db, """select mean_difference, difference_se, difference_ci_low, difference_ci_high,
                                    min_detectable_difference, n_only_a_passed, n_only_b_passed, mcnemar_p
                             from marts.ce_variant_comparisons""")
    assert rows
    for diff, se, lo, hi, mdd, b, c, p in rows:
        want_lo, want_hi = oracle.mean_ci(diff, se, -1.0, 1.0)
        assert close(lo, want_lo) and close(hi, want_hi), (diff, se, lo, hi)
        assert close(mdd, oracle.mdd(se))
        if p is not None:
            assert close(p, oracle.mcnemar_p(b, c)), (b, c, p)
