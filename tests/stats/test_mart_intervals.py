"""Issue 5, last bullet: recompute mart rows' intervals in Python (scripts/stats_oracle.py: scipy /
numpy, not the SQL macros) from the fct_* rows beneath them, and require agreement to 1e-9.

Uses the session build of tests/stats/conftest.py (clean fixtures, the marts checked here and their
parents, plus the stats models with their unit tests)."""
from __future__ import annotations

from collections import defaultdict

import pytest

from helpers import normalise_model, query, script_module

oracle = script_module("stats_oracle")

TOL = 1e-9


def close(got, want):
    if want is None:
        return got is None
    return got is not None and abs(got - want) <= TOL


def binary(values) -> bool:
    """Every observation 0 or 1: the mean is a clustered binary rate and takes the rate's interval."""
    return all(v in (0, 1) for v in values)


def need(mart_db, mart: str):
    """The db, failing the test (with dbt's message) unless `mart` was built."""
    db, status, log = mart_db
    st = status.get(mart)
    if st is None or st[0] != "success":
        pytest.fail(f"{mart} did not build: {st}\n{log}")
    return db


def test_big_rates_intervals_recomputed_from_fct_big_runs(mart_db):
    db = need(mart_db, "big_rates")
    runs = query(db, """select kind, model, with_brain, with_plan, scenario_id, change, regress,
                                    change_assertions_passed, change_assertions_total
                             from marts.fct_big_runs where kind in ('fix', 'refactor')""")
    groups = defaultdict(lambda: defaultdict(list))
    items = defaultdict(list)  # per stratum: a measured change's assertion count, None unless it is their pass share (R04's 0.005)
    for kind, model, brain, plan, scenario, change, regress, passed, total in runs:
        groups[(kind, model, brain, plan)][scenario].append((change, regress))
        if change is not None:
            items[(kind, model, brain, plan)].append(total if total and abs(change - passed / total) <= 0.005 else None)
    rates = query(db, """select kind, model, with_brain, with_plan, change_mean, change_se, change_ci_low,
                                     change_ci_high, regress_mean, regress_se, regress_ci_low, regress_ci_high
                              from marts.big_rates""")
    assert rates and len(rates) == len(groups)
    n_with_se = n_itemised = 0
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
            n_clusters = sum(1 for n in ns if n > 0)
            values = [v[idx] for obs in clusters.values() for v in obs if v[idx] is not None]
            counts = items[(kind, model, brain, plan)]
            if idx == 0 and counts and None not in counts:  # change: a share of assertions, the rate over them
                n_itemised += 1
                lo, hi = oracle.clustered_mean_ci(mean, se, n_clusters, sum(counts), binary=True)
            else:
                lo, hi = oracle.clustered_mean_ci(mean, se, n_clusters, total, binary=binary(values))
            want += [mean, se, lo, hi]
        assert all(close(g, w) for g, w in zip(got, want)), (kind, model, brain, plan, got, want)
        n_with_se += got[1] is not None
    assert n_with_se > 0  # at least one row actually exercises the clustered interval
    assert n_itemised > 0  # the assertion-share rule is exercised (regress, with no item count, takes the mean rule)


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
        values, ids = [], []
        for cid, obs in clusters.items():
            values += [float(p) for p in obs if p is not None]
            ids += [cid for p in obs if p is not None]
        kept = [[float(p) for p in obs if p is not None] for obs in clusters.values()]
        kept = [v for v in kept if v]
        want_se = oracle.cluster_se_two_pass([sum(v) for v in kept], [len(v) for v in kept]) if kept else None
        assert close(se, want_se), (cell, turn_type, evidence_class, difficulty, se, want_se)
        if want_se is not None:  # the same SE as inspect_ai's clustered stderr (its outer products leave ~1e-9 residue)
            assert abs(oracle.cluster_se_inspect(values, ids) - want_se) < 1e-7
        assert n_clusters == len(set(ids))
        want_lo, want_hi = oracle.clustered_rate_ci(sum(outcomes), len(outcomes), want_se, len(set(ids)))
        assert close(lo, want_lo) and close(hi, want_hi), (cell, turn_type, lo, hi, want_lo, want_hi)
        n_with_se += se is not None
    assert n_with_se > 0


def test_coder_eval_variant_rates_intervals(mart_db):
    db = need(mart_db, "coder_eval_variant_rates")
    rows = query(db, """select run_id, variant_id, system_prompt_regime, n_succeeded, n_graded, pass_rate,
                                    pass_rate_ci_low, pass_rate_ci_high, average_score, average_score_se,
                                    average_score_ci_low, average_score_ci_high, n_tasks_all_passed, n_tasks_graded,
                                    task_pass_rate, task_pass_rate_ci_low, task_pass_rate_ci_high, pass_rate_se, n_clusters
                             from marts.coder_eval_variant_rates""")
    folds = query(db, """select run_id, variant_id, system_prompt_regime, task_id, graded_score_sum, n_graded, n_succeeded
                              from intermediate.int_coder_eval__regime_task_folds where n_graded > 0""")
    clusters = defaultdict(list)
    for run_id, variant_id, regime, _task, score_sum, n, k in folds:
        clusters[(run_id, variant_id, regime)].append((score_sum, n, k))
    scores = defaultdict(list)  # the graded replicates' scores counted for averages, per stratum
    for run_id, variant_id, regime, score in query(
            db, """select run_id, variant_id, system_prompt_regime, score_for_average
                   from intermediate.int_coder_eval__replicates where is_graded"""):
        scores[(run_id, variant_id, regime)].append(score)
    assert rows
    checked = 0
    for (run_id, variant_id, regime, k, n, rate, lo, hi, avg, se, alo, ahi, tk, tn, trate, tlo, thi, pse, nc) in rows:
        c = clusters[(run_id, variant_id, regime)]
        assert nc == len(c)
        if rate is not None:
            want_pse = oracle.cluster_se_two_pass([kk for _, _, kk in c], [m for _, m, _ in c])
            assert close(pse, want_pse), (run_id, variant_id, pse, want_pse)
            want = oracle.clustered_rate_ci(k, n, want_pse, len(c))
            assert close(lo, want[0]) and close(hi, want[1]), (run_id, variant_id, lo, hi, want)
        if trate is not None:
            want = oracle.wilson(tk, tn)
            assert close(tlo, want[0]) and close(thi, want[1])
        if avg is not None:
            want_se = oracle.cluster_se_two_pass([s for s, _, _ in c], [m for _, m, _ in c])
            assert close(se, want_se), (run_id, variant_id, regime, se, want_se)
            want_lo, want_hi = oracle.clustered_mean_ci(avg, want_se, len(c), n,
                                                        binary=binary(scores[(run_id, variant_id, regime)]))
            assert close(alo, want_lo) and close(ahi, want_hi), (run_id, variant_id, regime, alo, ahi, want_lo, want_hi)
            checked += want_se is not None
    assert checked > 0


def test_coder_eval_variant_comparisons_tests_and_intervals(mart_db):
    db = need(mart_db, "coder_eval_variant_comparisons")
    rows = query(db, """select mean_difference, difference_se, difference_ci_low, difference_ci_high,
                                    min_detectable_difference, n_only_a_passed, n_only_b_passed, mcnemar_p,
                                    n_pairs, p_value
                             from marts.coder_eval_variant_comparisons""")
    assert rows
    for diff, se, lo, hi, mdd, b, c, p, n_pairs, p_value in rows:
        want_lo, want_hi = oracle.clustered_mean_ci(diff, se, n_pairs, n_pairs, -1.0, 1.0)
        assert close(lo, want_lo) and close(hi, want_hi), (diff, se, lo, hi, want_lo, want_hi)
        assert close(mdd, oracle.mdd_t(se, n_pairs))
        assert close(p_value, oracle.paired_t_p(diff, se, n_pairs)), (diff, se, n_pairs, p_value)
        if p is not None:
            assert close(p, oracle.mcnemar_p(b, c)), (b, c, p)
    assert any(r[7] is not None for r in rows) and any(r[1] is not None for r in rows)


def test_big_ablation_pairs_recomputed_from_fct_big_runs(mart_db):
    """R07 pairs: replicates averaged per (scenario, arm), d = on - off, SE clustered by scenario, t(C-1)
    interval, MDD and paired t p-value; Holm / BH within (ablation, kind)."""
    db = need(mart_db, "big_ablation_pairs")
    runs = query(db, """select kind, model, scenario_id, with_brain, with_plan, change, regress from marts.fct_big_runs
                        where with_brain is not null and with_plan is not null and scenario_id is not null
                          and model is not null and kind is not null""")
    arms = defaultdict(list)  # (ablation, kind, model, other, scenario, on) -> [(change, regress)]
    for kind, model, scenario, brain, plan, change, regress in runs:
        arms[("with_brain", kind, model, plan, scenario, brain)].append((change, regress))
        arms[("with_plan", kind, model, brain, scenario, plan)].append((change, regress))

    def avg(values):
        values = [v for v in values if v is not None]
        return sum(values) / len(values) if values else None

    groups = defaultdict(list)  # (ablation, kind, model, other) -> [(scenario, on, off) per metric]
    for (ablation, kind, model, other, scenario, on), obs in arms.items():
        if not on or (ablation, kind, model, other, scenario, False) not in arms:
            continue
        off = arms[(ablation, kind, model, other, scenario, False)]
        groups[(ablation, kind, model, other)].append(
            (scenario, [(avg([o[i] for o in obs]), avg([o[i] for o in off])) for i in (0, 1)]))
    rows = query(db, """select ablation, kind, model, case when ablation = 'with_brain' then with_plan else with_brain end,
                               n_pairs, change_diff_mean, change_diff_se, change_diff_ci_low, change_diff_ci_high,
                               change_diff_mdd, change_arm_corr, change_p_value, regress_diff_mean, regress_diff_se,
                               regress_diff_ci_low, regress_diff_ci_high, regress_diff_mdd, regress_arm_corr,
                               regress_p_value
                        from marts.big_ablation_pairs""")
    assert rows and len(rows) == len(groups)
    n_with_se = 0
    for ablation, kind, model, other, n_pairs, *got in rows:
        pairs = groups[(ablation, kind, model, other)]
        assert n_pairs == len(pairs)
        want = []
        for i in (0, 1):
            both = [(s, m[i][0], m[i][1]) for s, m in pairs if m[i][0] is not None and m[i][1] is not None]
            by_scenario = defaultdict(list)
            for s, on, off in both:
                by_scenario[s].append(on - off)
            mean = sum(on - off for _, on, off in both) / len(both) if both else None
            se = oracle.cluster_se_two_pass([sum(v) for v in by_scenario.values()], [len(v) for v in by_scenario.values()])
            n_cl = len(by_scenario)
            lo, hi = oracle.clustered_mean_ci(mean, se, n_cl, len(both), -1.0, 1.0)
            corr = oracle.pearson([on for _, on, _ in both], [off for _, _, off in both]) if len(both) >= 3 else None
            corr = None if corr is None else max(-1.0, min(1.0, corr))
            want += [mean, se, lo, hi, oracle.mdd_t(se, n_cl), corr, oracle.paired_t_p(mean, se, n_cl)]
        assert all(close(g, w) for g, w in zip(got, want)), (ablation, kind, model, other, got, want)
        n_with_se += got[1] is not None
    assert n_with_se > 0


def _score_ci(mean, se, n_clusters, values):
    """The coder-eval score intervals: the unit-range interval for a mean in [0, 1] (the rate's when every
    value is 0 or 1); a mean outside it (scores the logs let exceed [0, 1]) gets the t interval widened to
    contain it."""
    n_obs = len(values)
    if mean is None:
        return None, None
    if 0 <= mean <= 1:
        return oracle.clustered_mean_ci(mean, se, n_clusters, n_obs, binary=binary(values))
    return oracle.clustered_mean_ci(mean, se, n_clusters, n_obs, min(0.0, mean), max(1.0, mean))


def test_coder_eval_run_summaries_wilson_recomputed_from_fct_coder_eval_replicates(mart_db):
    """R25: run-level pass_rate / error_share intervals clustered by task (Wilson at the design-effect n,
    t(C-1)), NULL when coder-eval's rate is NULL (graded = 0 or nothing measured) or below 2 tasks."""
    db = need(mart_db, "coder_eval_run_summaries")
    counts = defaultdict(lambda: {"run": 0, "succeeded": 0, "error": 0, "ungraded": 0, "measured": 0})
    tasks = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))  # run_dir -> task -> [graded, succeeded, error]
    for run_dir, task_id, category, measured in query(db, """select run_dir, task_id, status_category, is_measured
                                                    from marts.fct_coder_eval_replicates"""):
        if category != "ungraded":
            t = tasks[run_dir][task_id]
            t[0] += 1
            t[1] += category == "succeeded"
            t[2] += category == "error"
        c = counts[run_dir]
        c["run"] += 1
        c["succeeded"] += category == "succeeded"
        c["error"] += category == "error"
        c["ungraded"] += category == "ungraded"
        c["measured"] += bool(measured)
    rows = query(db, """select run_dir, pass_rate_recomputed, pass_rate_recomputed_ci_low, pass_rate_recomputed_ci_high,
                               error_share_recomputed, error_share_recomputed_ci_low, error_share_recomputed_ci_high
                        from marts.coder_eval_run_summaries""")
    assert rows
    n_estimated = n_null = 0
    for run_dir, rate, lo, hi, share, slo, shi in rows:
        c = counts.get(run_dir)
        graded = c["run"] - c["ungraded"] if c else 0
        nothing = c is None or graded == 0 or (c["ungraded"] > 0 and c["measured"] == 0)
        if nothing:
            assert (rate, lo, hi, share, slo, shi) == (None,) * 6, (run_dir, rate, lo, hi, share, slo, shi)
            n_null += 1
            continue
        n_estimated += lo is not None
        assert close(rate, c["succeeded"] / graded) and close(share, c["error"] / graded), run_dir
        cl = [t for t in tasks[run_dir].values() if t[0] > 0]
        se_p = oracle.cluster_se_two_pass([t[1] for t in cl], [t[0] for t in cl])
        se_e = oracle.cluster_se_two_pass([t[2] for t in cl], [t[0] for t in cl])
        want_lo, want_hi = oracle.clustered_rate_ci(c["succeeded"], graded, se_p, len(cl))
        assert close(lo, want_lo) and close(hi, want_hi), (run_dir, lo, hi, want_lo, want_hi)
        want_lo, want_hi = oracle.clustered_rate_ci(c["error"], graded, se_e, len(cl))
        assert close(slo, want_lo) and close(shi, want_hi), (run_dir, slo, shi, want_lo, want_hi)
    assert n_estimated > 0 and n_null > 0  # both the interval and the NULL guard are exercised


def test_coder_eval_suite_results_average_weighted_score_clustered_by_dataset_row(mart_db):
    """R25: average_weighted_score's SE clustered by dataset row (task_id) within (run, variant, suite)."""
    db = need(mart_db, "coder_eval_suite_results")
    groups = defaultdict(lambda: defaultdict(list))
    for run_id, variant_id, suite_id, task_id, score in query(
            db, """select run_id, variant_id, suite_id, task_id, weighted_score from marts.fct_coder_eval_replicates
                   where suite_id is not null"""):
        if score is not None:
            groups[(run_id, variant_id, suite_id)][task_id].append(score)
    rows = query(db, """select distinct run_id, variant_id, suite_id, average_weighted_score, average_weighted_score_se,
                               average_weighted_score_ci_low, average_weighted_score_ci_high, n_clusters
                        from marts.coder_eval_suite_results""")
    assert rows
    n_with_se = 0
    for run_id, variant_id, suite_id, avg, se, lo, hi, n_clusters in rows:
        clusters = groups.get((run_id, variant_id, suite_id), {})
        values = [v for obs in clusters.values() for v in obs]
        assert n_clusters == len(clusters)
        assert close(avg, sum(values) / len(values) if values else None), (run_id, suite_id, avg)
        want_se = oracle.cluster_se_two_pass([sum(v) for v in clusters.values()], [len(v) for v in clusters.values()])
        assert close(se, want_se), (run_id, variant_id, suite_id, se, want_se)
        want_lo, want_hi = _score_ci(avg, want_se, len(clusters), values)
        assert close(lo, want_lo) and close(hi, want_hi), (run_id, suite_id, lo, hi, want_lo, want_hi)
        n_with_se += se is not None
    assert n_with_se > 0


def test_coder_eval_criterion_stats_mean_scores_clustered_by_task(mart_db):
    """R25: mean_score / mean_score_gating over evaluated results, SE clustered by task."""
    db = need(mart_db, "coder_eval_criterion_stats")
    groups = {"all": defaultdict(lambda: defaultdict(list)), "gating": defaultdict(lambda: defaultdict(list))}
    for run_id, run_dir, variant_id, phase, ctype, task_id, status, gating, score in query(
            db, """select run_id, run_dir, variant_id, result_phase, criterion_type, task_id, evaluation_status,
                          gating, score from staging.stg_coder_eval__criterion_results"""):
        key = (run_id, run_dir, variant_id, phase, ctype)
        if status == "evaluated" and score is not None:
            groups["all"][key][task_id].append(score)
            if gating:
                groups["gating"][key][task_id].append(score)
    rows = query(db, """select run_id, run_dir, variant_id, result_phase, criterion_type,
                               mean_score, score_se, score_ci_low, score_ci_high, n_score_clusters,
                               mean_score_gating, score_gating_se, score_gating_ci_low, score_gating_ci_high,
                               n_score_gating_clusters, n_evaluated_gating
                        from marts.coder_eval_criterion_stats""")
    assert rows
    n_with_se = {"all": 0, "gating": 0}
    n_binary = 0  # interior pass/fail means: the rows that take the rate's interval
    for run_id, run_dir, variant_id, phase, ctype, *got in rows:
        key = (run_id, run_dir, variant_id, phase, ctype)
        for which, (mean, se, lo, hi, n_clusters) in (("all", got[0:5]), ("gating", got[5:10])):
            clusters = groups[which].get(key, {})
            values = [v for obs in clusters.values() for v in obs]
            assert n_clusters == len(clusters), (key, which)
            assert close(mean, sum(values) / len(values) if values else None), (key, which, mean)
            want_se = oracle.cluster_se_two_pass([sum(v) for v in clusters.values()],
                                                 [len(v) for v in clusters.values()])
            assert close(se, want_se), (key, which, se, want_se)
            want_lo, want_hi = _score_ci(mean, want_se, len(clusters), values)
            assert close(lo, want_lo) and close(hi, want_hi), (key, which, lo, hi, want_lo, want_hi)
            n_with_se[which] += se is not None
            n_binary += se is not None and len(clusters) >= 2 and binary(values) and 0 < mean < 1
        assert got[10] == sum(len(v) for v in groups["gating"].get(key, {}).values())
    assert n_with_se["all"] > 0 and n_with_se["gating"] > 0 and n_binary > 0


def test_layered_layer_costs_means_clustered_by_scenario(mart_db):
    """R25: mean logged cost and latency per (pipeline, measurement, layer, model), SE clustered by scenario
    (task_id; a row without one is its own cluster), unclipped t(C-1) intervals."""
    db = need(mart_db, "layered_layer_costs")
    groups = defaultdict(lambda: {"cost": defaultdict(list), "latency": defaultdict(list)})
    for key, task_id, measurement, l1, l2, l3, *values in query(
            db, """select measurement_key, task_id, pipeline || '|' || measurement, l1, l2, l3, l1_cost, l1_latency,
                          l2_cost, l2_latency, l3_cost, l3_latency, total_cost, total_latency
                   from marts.fct_layered_measurements"""):
        for i, (layer, model) in enumerate((("l1", l1), ("l2", l2), ("l3", l3), ("total", None))):
            cost, latency = values[2 * i], values[2 * i + 1]
            if cost is None and latency is None:
                continue
            g = groups[(measurement, layer, normalise_model(model))]   # the mart's model is the normalised id
            cluster = task_id if task_id is not None else key
            g["cost"][cluster] += [cost] if cost is not None else []
            g["latency"][cluster] += [latency] if latency is not None else []
    rows = query(db, """select pipeline || '|' || measurement, layer, model,
                               cost_usd_logged_mean, cost_usd_logged_se, cost_usd_logged_ci_low, cost_usd_logged_ci_high,
                               n_cost_usd_logged_clusters, latency_s_mean, latency_s_se, latency_s_ci_low,
                               latency_s_ci_high, n_latency_s_clusters
                        from marts.layered_layer_costs""")
    assert rows and len(rows) == len(groups)
    n_with_se = 0
    for measurement, layer, model, *got in rows:
        g = groups[(measurement, layer, model)]
        for which, (mean, se, lo, hi, n_clusters) in (("cost", got[0:5]), ("latency", got[5:10])):
            clusters = {k: v for k, v in g[which].items() if v}
            values = [v for obs in clusters.values() for v in obs]
            assert n_clusters == len(clusters), (measurement, layer, model, which)
            assert close(mean, sum(values) / len(values) if values else None), (measurement, layer, which, mean)
            want_se = oracle.cluster_se_two_pass([sum(v) for v in clusters.values()],
                                                 [len(v) for v in clusters.values()])
            assert close(se, want_se), (measurement, layer, model, which, se, want_se)
            want_lo, want_hi = oracle.clustered_mean_ci(mean, want_se, len(clusters), len(values), None, None)
            assert close(lo, want_lo) and close(hi, want_hi), (measurement, layer, model, which, lo, hi)
            n_with_se += se is not None
    assert n_with_se > 0


def test_big_model_pairs_recomputed_from_fct_big_runs(mart_db):
    """Model vs model: replicates averaged per (scenario, model), d = b - a per scenario, t(C-1) interval,
    paired t p-value, and Holm within the kind's family (statsmodels)."""
    from statsmodels.stats.multitest import multipletests  # noqa: PLC0415

    db = need(mart_db, "big_model_pairs")
    arms = defaultdict(list)
    for kind, brain, plan, model, scenario, change in query(
            db, """select kind, with_brain, with_plan, model, scenario_id, change from marts.fct_big_runs
                   where with_brain is not null and with_plan is not null and scenario_id is not null
                     and model is not null and kind is not null"""):
        arms[(kind, brain, plan, model, scenario)].append(change)

    def avg(v):
        v = [x for x in v if x is not None]
        return sum(v) / len(v) if v else None

    rows = query(db, """select kind, with_brain, with_plan, model_a, model_b, n_pairs, change_diff_mean, change_diff_se,
                               change_diff_ci_low, change_diff_ci_high, change_p_value, change_p_holm, family
                        from marts.big_model_pairs""")
    assert rows
    by_family = defaultdict(list)
    for kind, brain, plan, a, b, n_pairs, mean, se, lo, hi, p, holm, family in rows:
        scen = {s for (k, br, pl, m, s) in arms if (k, br, pl, m) == (kind, brain, plan, a)}
        scen &= {s for (k, br, pl, m, s) in arms if (k, br, pl, m) == (kind, brain, plan, b)}
        assert n_pairs == len(scen)
        d = [avg(arms[(kind, brain, plan, b, s)]) - avg(arms[(kind, brain, plan, a, s)]) for s in sorted(scen)
             if avg(arms[(kind, brain, plan, a, s)]) is not None and avg(arms[(kind, brain, plan, b, s)]) is not None]
        want_mean = sum(d) / len(d) if d else None
        want_se = oracle.cluster_se_two_pass(d, [1] * len(d))
        assert close(mean, want_mean) and close(se, want_se), (kind, a, b, mean, want_mean, se, want_se)
        want_lo, want_hi = oracle.clustered_mean_ci(want_mean, want_se, len(d), len(d), -1.0, 1.0)
        assert close(lo, want_lo) and close(hi, want_hi)
        assert close(p, oracle.paired_t_p(want_mean, want_se, len(d)))
        assert family == f"big_model_pairs/{kind}"
        by_family[family].append((p, holm))
    for family, ps in by_family.items():
        real = [(p, h) for p, h in ps if p is not None]
        if real:
            want = multipletests([p for p, _ in real], method="holm")[1]
            assert all(close(h, float(w)) for (_, h), w in zip(real, want)), family


def test_coder_eval_pass_at_k_recomputed_with_scipy_comb(mart_db):
    """pass@k = 1 - C(n - c, k) / C(n, k) and pass^k = C(c, k) / C(n, k) per task, averaged over the tasks
    with n >= k; at the largest k every task reaches, pass^k is the all-replicates-pass share."""
    from scipy.special import comb  # noqa: PLC0415

    db = need(mart_db, "coder_eval_pass_at_k")
    folds = defaultdict(list)
    for run_id, variant_id, regime, n, c in query(
            db, """select run_id, variant_id, system_prompt_regime, n_graded, n_succeeded
                   from intermediate.int_coder_eval__regime_task_folds where n_graded > 0"""):
        folds[(run_id, variant_id, regime)].append((n, c))
    rows = query(db, """select run_id, variant_id, system_prompt_regime, k, n_tasks, pass_at_k, pass_hat_k,
                               pass_at_k_se, pass_at_k_ci_low, pass_at_k_ci_high from marts.coder_eval_pass_at_k""")
    assert rows
    for run_id, variant_id, regime, k, n_tasks, pak, phk, se, lo, hi in rows:
        tasks = [(n, c) for n, c in folds[(run_id, variant_id, regime)] if n >= k]
        assert n_tasks == len(tasks) > 0
        at = [1 - comb(n - c, k) / comb(n, k) for n, c in tasks]
        hat = [comb(c, k) / comb(n, k) for n, c in tasks]
        assert close(pak, sum(at) / len(at)) and close(phk, sum(hat) / len(hat)), (run_id, variant_id, k)
        want_se = oracle.cluster_se_two_pass(at, [1] * len(at))
        assert close(se, want_se)
        want_lo, want_hi = oracle.clustered_mean_ci(sum(at) / len(at), want_se, len(at), len(at), binary=binary(at))
        assert close(lo, want_lo) and close(hi, want_hi), (run_id, variant_id, k, lo, hi, want_lo, want_hi)
