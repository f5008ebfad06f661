#!/usr/bin/env python3
"""Independent oracle for the statistics macros (macros/stats/).

Computes the expected values of the dbt unit tests on integration_tests/models/stats/ with
scipy/numpy (not with the SQL formulas), so anyone can regenerate and audit them:

    .venv/bin/python scripts/stats_oracle.py            # print the unit-test YAML
    .venv/bin/python scripts/stats_oracle.py --write    # rewrite integration_tests/seeds/stats/*.csv and
                                                        # integration_tests/models/stats/_stats__unit_tests.yml
    .venv/bin/python scripts/stats_oracle.py --check    # exit 1 if they are not what --write writes

Methods (see docs/statistics.md):
  * Wilson: statsmodels' closed form (proportion_confint(method='wilson')) with z = norm.ppf(0.975),
    cross-checked against a root-finder on the score equation (k - n p)^2 = z^2 n p (1 - p).
  * McNemar: scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue (two-sided, exact); 1 when b + c = 0.
  * Cluster SE: direct two-pass numpy computation, and inspect_ai's clustered stderr formula
    (sum over clusters of the outer product of centred values).
  * MDD: (norm.ppf(1 - alpha/2) + norm.ppf(power)) * se.   * corr: numpy.corrcoef.
The tests/stats/ pytest suite imports these functions for its random-case comparisons.
"""
from __future__ import annotations

import argparse
import csv
import io
import math
import sys
from collections import OrderedDict, defaultdict
from pathlib import Path

import numpy as np
import yaml
from scipy import optimize, stats

ROOT = Path(__file__).resolve().parent.parent
SEED_DIR = ROOT / "integration_tests" / "seeds" / "stats"
UNIT_TEST_YML = ROOT / "integration_tests" / "models" / "stats" / "_stats__unit_tests.yml"
DIGITS = 9  # the stats models round their outputs to 9 decimals

Z95 = float(stats.norm.ppf(0.975))


# ----------------------------------------------------------------------------- methods
def wilson(k, n):
    """(low, high) of the 95% Wilson score interval; (None, None) when n is None or <= 0."""
    if n is None or k is None or n <= 0 or k < 0 or k > n:
        return None, None
    z = Z95
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    if k == 0:
        low = 0.0
    if k == n:
        high = 1.0
    # cross-check against the definition: the bounds q solve (k/n - q)^2 = z^2 q (1 - q) / n
    score = lambda q: (p - q) ** 2 - z * z * q * (1 - q) / n  # noqa: E731
    if 0 < k:
        root = optimize.brentq(score, 1e-300, min(p, 1 - 1e-16), xtol=1e-15, rtol=1e-15, maxiter=500)
        assert abs(root - low) < 1e-10, (k, n, root, low)
    if k < n:
        root = optimize.brentq(score, max(p, 1e-300), 1.0, xtol=1e-15, rtol=1e-15, maxiter=500)
        assert abs(root - high) < 1e-10, (k, n, root, high)
    return low, high


def mcnemar_p(b, c):
    """Exact two-sided McNemar p-value from discordant counts."""
    if b is None or c is None or b < 0 or c < 0:
        return None
    if b + c == 0:
        return 1.0
    return float(stats.binomtest(min(b, c), b + c, 0.5).pvalue)


def cluster_se_two_pass(cluster_sums, cluster_ns):
    """Cluster-robust SE of sum(s)/sum(n) from per-cluster totals (direct two-pass).
    Clusters without observations (sum None, n None or n <= 0) are not clusters of the mean."""
    kept = [(a, b) for a, b in zip(cluster_sums, cluster_ns) if a is not None and b is not None and b > 0]
    s = np.asarray([a for a, _ in kept], dtype=float)
    n = np.asarray([b for _, b in kept], dtype=float)
    c = len(s)
    if c < 2:
        return None
    m = s.sum() / n.sum()
    return float(math.sqrt(c / (c - 1) * float(np.sum((s - n * m) ** 2))) / n.sum())


def cluster_se_inspect(values, clusters):
    """inspect_ai's clustered stderr (inspect_ai/scorer/_metrics/std.py), observation level."""
    values = np.asarray(values, dtype=float)
    clusters = np.asarray(clusters)
    mean = float(np.mean(values))
    unique = np.unique(clusters)
    count = len(unique)
    if count < 2:
        return None
    variance = 0.0
    for cid in unique:
        data = values[clusters == cid]
        variance += np.outer(data - mean, data - mean).sum()
    return float(np.sqrt(variance * count / (count - 1)) / len(values))


def clip(lo, hi, lower, upper):
    """An interval clipped to [lower, upper] (a None bound does not clip)."""
    if upper is not None:
        lo, hi = min(upper, lo), min(upper, hi)
    if lower is not None:
        lo, hi = max(lower, lo), max(lower, hi)
    return lo, hi


def mean_ci(mean, se, lower=0.0, upper=1.0):
    if mean is None or se is None:
        return None, None
    return clip(mean - Z95 * se, mean + Z95 * se, lower, upper)


def t_crit(df, p=0.975):
    return float(stats.t.ppf(p, df))


def wilson_crit(p, n, crit):
    """Wilson bounds of a proportion p at a real-valued n with critical value crit."""
    denom = 1 + crit * crit / n
    centre = (p + crit * crit / (2 * n)) / denom
    half = crit / denom * math.sqrt(max(0.0, p * (1 - p) / n + crit * crit / (4 * n * n)))
    return (0.0 if p <= 0 else max(0.0, centre - half)), (1.0 if p >= 1 else min(1.0, centre + half))


def clustered_mean_ci(mean, se, n_clusters, n_obs, lower=0.0, upper=1.0, binary=False):
    """The contract's clustered-mean interval (macros/stats/inference.sql::clustered_mean_bound):
    a mean of pass/fail observations (binary, unit range): the clustered rate interval;
    unit range with C >= 4: the angular t(C-1) interval; otherwise mean -/+ t(C-1) SE clipped;
    SE = 0 on a bounded range: Wilson of the rescaled mean at n_obs with t(C-1); NULL when C < 2."""
    if mean is None or se is None or n_clusters is None or n_clusters < 2:
        return None, None
    if binary and (lower, upper) == (0.0, 1.0):
        return clustered_rate_ci(mean * n_obs, n_obs, se, n_clusters)
    t = t_crit(n_clusters - 1)
    if se <= 1e-12 and lower is not None and upper is not None:
        lo, hi = wilson_crit((mean - lower) / (upper - lower), n_obs, t)
        return lower + (upper - lower) * lo, lower + (upper - lower) * hi
    if (lower, upper) == (0.0, 1.0) and 0 < mean < 1 and n_clusters >= 4:
        a, sa = math.asin(math.sqrt(mean)), se / (2 * math.sqrt(mean * (1 - mean)))
        return math.sin(max(0.0, a - t * sa)) ** 2, math.sin(min(math.pi / 2, a + t * sa)) ** 2
    return clip(mean - t * se, mean + t * se, lower, upper)


def clustered_rate_ci(k, n, se, n_clusters):
    """Wilson at the design-effect n (at most n; n at p in {0, 1} or SE = 0) with t(C-1); NULL when C < 2."""
    if n is None or n <= 0 or k is None or n_clusters is None or n_clusters < 2:
        return None, None
    p = k / n
    n_eff = n if k <= 0 or k >= n or se is None or se <= 1e-12 else min(n, p * (1 - p) / se ** 2)
    return wilson_crit(p, n_eff, t_crit(n_clusters - 1))


def mean_of_groups(means, ses, clusters, n_obs, binary, lower=0.0, upper=1.0):
    """An unweighted mean of G group means (inspect_ai's grouped(..., all="groups")), the groups fixed strata
    weighted 1/G: (mean, SE, df, n, lo, hi). SE = sqrt(sum SE_g^2) / G; df = floor (+ 1e-9) of Welch-Satterthwaite
    (sum SE_g^2)^2 / sum(SE_g^4 / (C_g - 1)), at least 1, and min(C_g) - 1 when every SE_g is 0 (below 1e-12); n = G^2 / sum(1 / n_g),
    the observations an equal-weight mean of binomial groups carries. The interval is clustered_mean_ci at df + 1
    clusters and n observations, binary when every group is. A group whose mean is None is not a group of the mean;
    the SE and interval are None when a group's SE is None (a group of one cluster). lower / upper: the values'
    range (None: not stated)."""
    groups = [(m, s, c, n, b) for m, s, c, n, b in zip(means, ses, clusters, n_obs, binary) if m is not None]
    if not groups:
        return None, None, None, None, None, None
    g = len(groups)
    mean = sum(m for m, *_ in groups) / g
    n = g * g / sum(1.0 / nn for _, _, _, nn, _ in groups)
    if any(s is None for _, s, *_ in groups):
        return mean, None, None, n, None, None
    var = [s * s if s > 1e-12 else 0.0 for _, s, *_ in groups]   # below 1e-12: clusters that agree (effective_n)
    se = math.sqrt(sum(var)) / g
    den = sum(v * v / (c - 1) for v, (_, _, c, _, _) in zip(var, groups))
    df = max(1, math.floor(sum(var) ** 2 / den + 1e-9)) if sum(var) > 0 else min(c for _, _, c, _, _ in groups) - 1
    lo, hi = clustered_mean_ci(mean, se, df + 1, n, lower, upper, binary=all(b for *_, b in groups))
    return mean, se, df, n, lo, hi


def mdd_t(se, n_clusters, power=0.8):
    if se is None or se <= 1e-12 or n_clusters is None or n_clusters < 2:
        return None
    return (t_crit(n_clusters - 1) + t_crit(n_clusters - 1, power)) * se


def paired_t_p(mean, se, n_clusters):
    if mean is None or se is None or n_clusters is None or n_clusters < 2:
        return None
    if se <= 1e-12:
        return 1.0 if abs(mean) <= 1e-12 else None
    return float(2 * stats.t.sf(abs(mean / se), n_clusters - 1))


def mdd(se, alpha=0.05, power=0.8):
    if se is None:
        return None
    return float((stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)) * se)


def pearson(xs, ys):
    x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return None
    return float(np.corrcoef(x, y)[0, 1])


def paired_diff(rows):
    """rows: (cluster_id, pair_id, arm, score). Replicates averaged per (pair, arm), d = b - a per
    pair, cluster-robust SE over clusters of pairs. Returns dict of the model's columns."""
    arms = defaultdict(list)
    for cluster_id, pair_id, arm, score in rows:
        arms[(cluster_id, pair_id, arm)].append(score)
    diffs = defaultdict(list)
    pairs = []  # (mean_a, mean_b)
    for (cluster_id, pair_id, arm) in sorted(arms):
        if arm != "a" or (cluster_id, pair_id, "b") not in arms:
            continue
        a, b = float(np.mean(arms[(cluster_id, pair_id, "a")])), float(np.mean(arms[(cluster_id, pair_id, "b")]))
        pairs.append((a, b))
        diffs[cluster_id].append(b - a)
    sums = [float(np.sum(d)) for d in diffs.values()]
    ns = [len(d) for d in diffs.values()]
    mean = sum(sums) / sum(ns)
    se = cluster_se_two_pass(sums, ns)
    lo, hi = mean_ci(mean, se, -1.0, 1.0)
    binary = all(a in (0.0, 1.0) and b in (0.0, 1.0) for a, b in pairs)
    disc_b = sum(1 for a, b in pairs if a == 1 and b == 0) if binary else None
    disc_c = sum(1 for a, b in pairs if a == 0 and b == 1) if binary else None
    return {"n_clusters": len(ns), "n_pairs": sum(ns), "mean_diff": mean, "se": se,
            "ci_low": lo, "ci_high": hi, "mdd": mdd(se),
            "arm_corr": pearson([a for a, _ in pairs], [b for _, b in pairs]),
            "discordant_b": disc_b, "discordant_c": disc_c,
            "mcnemar_p": mcnemar_p(disc_b, disc_c) if binary else None}


# ----------------------------------------------------------------------------- cases
# test name -> cases; the integration_tests/seeds/stats/*.csv files are the union of these (written by --write)
WILSON = OrderedDict([
    ("wilson_hand_checked_k1_n2", [("half", 1, 2)]),
    ("wilson_edges_empty_all_pass_all_fail", [
        ("zero_n", 0, 0), ("null_n", 5, None), ("all_fail", 0, 10), ("all_pass", 10, 10),
        ("single_fail", 0, 1), ("single_pass", 1, 1)]),
    ("wilson_typical_and_large_n", [
        ("small", 5, 17), ("typical", 37, 100), ("near_one", 999, 1000),
        ("large_rare", 1, 1_000_000), ("large_half", 500_000, 1_000_000)]),
])
MCNEMAR = OrderedDict([
    ("mcnemar_identical_arms_p_is_one", [("no_discordant", 0, 0), ("balanced", 5, 5), ("large_balanced", 1000, 1000)]),
    ("mcnemar_small_counts", [
        ("one_b", 1, 0), ("one_c", 0, 1), ("five_zero", 0, 5), ("three_ten", 3, 10), ("ten_three", 10, 3),
        ("twenty_zero", 0, 20), ("seven_21", 7, 21)]),
    ("mcnemar_large_n_2000", [("large_close", 950, 1050), ("large_far", 900, 1100), ("large_extreme", 0, 2000)]),
])
CLUSTER = OrderedDict([
    ("cluster_se_single_cluster_is_null", [("single_cluster", "c1", 3.0, 5)]),
    ("cluster_se_equal_cluster_means_is_zero", [
        ("equal_means", "c1", 1.0, 2), ("equal_means", "c2", 2.0, 4), ("equal_means", "c3", 3.0, 6),
        ("all_pass", "c1", 3.0, 3), ("all_pass", "c2", 4.0, 4), ("all_fail", "c1", 0.0, 3), ("all_fail", "c2", 0.0, 2)]),
    ("cluster_se_iid_and_mixed_sizes", [
        ("iid", "o1", 1.0, 1), ("iid", "o2", 0.0, 1), ("iid", "o3", 1.0, 1), ("iid", "o4", 1.0, 1), ("iid", "o5", 0.0, 1),
        ("mixed", "c1", 1.0, 2), ("mixed", "c2", 2.0, 2), ("mixed", "c3", 0.0, 3), ("mixed", "c4", 4.0, 5)]),
])


def _paired(exp, spec):
    # spec: list of (cluster, pair, arm, [scores...])
    return [(exp, cl, pr, arm, i, float(s)) for cl, pr, arm, scores in spec for i, s in enumerate(scores)]


PAIRED = OrderedDict([
    ("paired_diff_identical_arms_zero", _paired("identical", [
        ("c1", "p1", "a", [1]), ("c1", "p1", "b", [1]), ("c1", "p2", "a", [0]), ("c1", "p2", "b", [0]),
        ("c2", "p3", "a", [1]), ("c2", "p3", "b", [1])])),
    ("paired_diff_shift", _paired("shift", [
        ("c1", "p1", "a", [0]), ("c1", "p1", "b", [1]), ("c1", "p2", "a", [1]), ("c1", "p2", "b", [1]),
        ("c2", "p3", "a", [0]), ("c2", "p3", "b", [0]), ("c3", "p4", "a", [0]), ("c3", "p4", "b", [1]),
        ("c3", "p5", "a", [1]), ("c3", "p5", "b", [0])])),
    ("paired_diff_replicates_averaged_first", _paired("replicates", [
        ("c1", "p1", "a", [1, 0, 0]), ("c1", "p1", "b", [1, 1, 0]), ("c2", "p2", "a", [1, 1]),
        ("c2", "p2", "b", [1, 1]), ("c3", "p3", "a", [0]), ("c3", "p3", "b", [1, 1]),
        ("c3", "p9", "a", [1])])),  # p9 has no arm b: not a pair, ignored
    ("paired_diff_strong_shift_mcnemar", _paired("strong_shift", [
        (f"c{i // 2}", f"p{i}", arm, [0 if arm == "a" else 1]) for i in range(8) for arm in ("a", "b")]
        + [("c4", "p8", "a", [1]), ("c4", "p8", "b", [1]), ("c4", "p9", "a", [0]), ("c4", "p9", "b", [0])])),
    ("paired_diff_single_cluster_is_null", _paired("single_cluster", [
        ("c1", "p1", "a", [0]), ("c1", "p1", "b", [1]), ("c1", "p2", "a", [1]), ("c1", "p2", "b", [1])])),
])
MDD = OrderedDict([
    ("mdd_defaults_and_other_alpha_power", [("tenth", 0.1), ("twentieth", 0.05), ("zero", 0.0), ("missing", None)]),
])
CORR = OrderedDict([
    ("corr_pearson", [
        ("positive", 1.0, 2.0), ("positive", 2.0, 4.0), ("positive", 3.0, 6.0),
        ("negative", 1.0, 3.0), ("negative", 2.0, 2.0), ("negative", 3.0, 1.0),
        ("noisy", 1.0, 0.3), ("noisy", 2.0, 0.1), ("noisy", 3.0, 0.9), ("noisy", 4.0, 0.7), ("noisy", 5.0, 1.4)]),
    ("corr_degenerate_is_null", [
        ("constant_y", 1.0, 1.0), ("constant_y", 2.0, 1.0), ("constant_y", 3.0, 1.0), ("single", 1.0, 1.0)]),
])


# (case_id, mean, se, n_clusters, n_obs, k, n): C = 2, SE = 0, p = 0 / 1, near-bound means, large C
INFERENCE = OrderedDict([
    ("inference_two_clusters", [("c2_interior", 0.6, 0.1, 2, 4, 3, 5), ("c2_se_zero", 0.5, 0.0, 2, 4, 2, 4)]),
    ("inference_se_zero_and_bounds", [
        ("all_pass", 1.0, 0.0, 4, 8, 8, 8), ("all_fail", 0.0, 0.0, 4, 8, 0, 8), ("agree_interior", 0.25, 0.0, 5, 20, 5, 20)]),
    ("inference_near_bound_and_large_c", [
        ("near_one_c8", 0.97, 0.012, 8, 16, 15, 16), ("typical_c6", 0.4, 0.08, 6, 30, 12, 30),
        ("three_clusters", 0.8, 0.05, 3, 9, 7, 9), ("large_c", 0.55, 0.01, 150, 600, 330, 600),
        ("one_cluster", 0.7, None, 1, 3, 2, 3)]),
])
# (stratum, group_id, group mean, group SE, clusters, observations, binary): one row per group of a mean of groups
MEAN_OF_GROUPS = OrderedDict([
    ("mean_of_groups_pass_fail_and_continuous", [
        ("pass_fail", "a", 0.8, 0.1, 10, 20, True), ("pass_fail", "b", 0.5, 0.2886751345948129, 4, 8, True),
        ("pass_fail", "c", 1.0, 0.0, 3, 6, True),
        ("continuous", "a", 0.62, 0.05, 6, 6, False), ("continuous", "b", 0.41, 0.12, 3, 3, True),
        ("equal_groups", "a", 0.4, 0.1, 5, 5, False), ("equal_groups", "b", 0.6, 0.1, 5, 5, False)]),
    ("mean_of_groups_agree_one_cluster_no_mean", [
        ("all_agree", "a", 1.0, 0.0, 3, 6, True), ("all_agree", "b", 1.0, 0.0, 2, 2, True),
        ("one_cluster_group", "a", 0.7, 0.1, 5, 5, True), ("one_cluster_group", "b", 1.0, None, 1, 1, True),
        ("group_without_mean", "a", 0.6, 0.1, 5, 10, True), ("group_without_mean", "b", 0.3, 0.15, 4, 8, True),
        ("group_without_mean", "c", None, None, 2, 2, True)]),
])
P_ADJUST = OrderedDict([
    ("p_adjust_holm_bh", [("f1", "a", 0.01), ("f1", "b", 0.04), ("f1", "c", 0.03), ("f1", "d", 0.2), ("f1", "e", None),
                          ("f2", "a", 0.5), ("f2", "b", 0.5), ("f2", "c", 0.001)]),
    ("p_adjust_single_test", [("solo", "a", 0.03)]),
])


# ----------------------------------------------------------------------------- expectations
_near_boundary: list[str] = []


def r(x, what=""):
    """Round like the models do (9 decimals); warn when x is within 1e-12 of a rounding boundary."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    scaled = x * 10 ** DIGITS
    if abs(abs(scaled - math.floor(scaled)) - 0.5) < 1e-12 * 10 ** DIGITS:
        _near_boundary.append(f"{what}={x!r}")
    return round(float(x), DIGITS) + 0.0  # + 0.0 turns -0.0 into 0.0


EDGE_NOTES = {
    "wilson_hand_checked_k1_n2": "Hand-checked case: k=1, n=2 gives [0.094531, 0.905469].",
    "wilson_edges_empty_all_pass_all_fail": "Edge cases: n=0 and n NULL give NULL (no error); k=0 gives low 0; k=n gives high 1.",
    "mcnemar_identical_arms_p_is_one": "Identical arms / balanced discordance give p exactly 1.",
    "mcnemar_large_n_2000": "b+c=2000 via lgamma: no overflow, matches binomtest (p underflows to 0 only at 0 vs 2000).",
    "cluster_se_single_cluster_is_null": "A single cluster gives a NULL SE and NULL interval bounds.",
    "cluster_se_equal_cluster_means_is_zero": "Clusters with equal means (incl. all-pass, all-fail) give SE exactly 0.",
    "paired_diff_identical_arms_zero": "Identical arms give difference 0, SE 0, interval [0, 0] and McNemar p 1.",
    "paired_diff_replicates_averaged_first": "Replicates are averaged per (pair, arm) before differencing; unpaired tasks ignored.",
    "paired_diff_single_cluster_is_null": "All pairs in one cluster: SE, interval and MDD are NULL.",
    "corr_degenerate_is_null": "Fewer than 2 pairs or a constant variable give NULL, not NaN.",
    "inference_two_clusters": "C = 2 (t = 12.7): the plain t interval; SE = 0 gives Wilson, never [m, m].",
    "inference_se_zero_and_bounds": "SE = 0 at p = 1, p = 0 and an interior mean: non-degenerate Wilson bounds.",
    "mean_of_groups_pass_fail_and_continuous": "Unequal pass/fail groups (Wilson at the design-effect n, Satterthwaite df), a "
    "group that is not pass/fail (the angular t interval), two equal groups (df exactly 8: floored without losing it).",
    "mean_of_groups_agree_one_cluster_no_mean": "Every SE 0 (df = min C - 1, Wilson at G^2 / sum(1 / n_g)); a group of one "
    "cluster (SE and interval NULL); a group with no mean is not a group of it.",
    "inference_near_bound_and_large_c": "Near-bound mean (angular interval), C = 3 (t interval), C = 150 (Cornish-Fisher t), one cluster (NULL).",
}


def unit_tests() -> list[dict]:
    out = []

    def add(name, model, seed, given_rows, expect_rows, description):
        if name in EDGE_NOTES:
            description = EDGE_NOTES[name] + " " + description
        out.append({"name": f"test_{name}", "description": description, "model": model,
                    "given": [{"input": f"ref('{seed}')", "rows": given_rows}],
                    "expect": {"rows": expect_rows}})

    for name, cases in WILSON.items():
        expect = []
        for cid, k, n in cases:
            lo, hi = wilson(k, n)
            expect.append({"case_id": cid, "k": k, "n": n, "wilson_low": r(lo, cid), "wilson_high": r(hi, cid)})
        add(name, "int_stats__wilson", "stats_wilson_cases",
            [{"case_id": c, "k": k, "n": n} for c, k, n in cases], expect,
            "wilson_low/wilson_high vs statsmodels' closed form + score-equation root (scripts/stats_oracle.py).")
    for name, cases in MCNEMAR.items():
        add(name, "int_stats__mcnemar", "stats_mcnemar_cases",
            [{"case_id": c, "b": b, "c": cc} for c, b, cc in cases],
            [{"case_id": c, "b": b, "c": cc, "mcnemar_p": r(mcnemar_p(b, cc), c)} for c, b, cc in cases],
            "mcnemar_exact_p vs scipy.stats.binomtest(min(b,c), b+c, 0.5).pvalue.")
    for name, cases in CLUSTER.items():
        by = OrderedDict()
        for stratum, cid, s, n in cases:
            by.setdefault(stratum, []).append((s, n))
        expect = []
        for stratum, rows in by.items():
            sums, ns = [s for s, _ in rows], [n for _, n in rows]
            mean = sum(sums) / sum(ns)
            se = cluster_se_two_pass(sums, ns)
            lo, hi = mean_ci(mean, se)
            expect.append({"stratum": stratum, "n_clusters": len(rows), "n_obs": sum(ns), "mean_value": r(mean),
                           "se": r(se, stratum), "ci_low": r(lo, stratum), "ci_high": r(hi, stratum)})
        add(name, "int_stats__cluster_se", "stats_cluster_cases",
            [{"stratum": st, "cluster_id": cid, "cluster_sum": s, "cluster_n": n} for st, cid, s, n in cases], expect,
            "cluster_se + mean_ci_low/high vs a direct numpy two-pass cluster-robust SE.")
    for name, rows in PAIRED.items():
        res = paired_diff([(cl, pr, arm, s) for _, cl, pr, arm, _, s in rows])
        expect = [{"experiment_id": rows[0][0], "n_clusters": res["n_clusters"], "n_pairs": res["n_pairs"],
                   **{k: r(res[k], name) for k in ("mean_diff", "se", "ci_low", "ci_high", "mdd", "arm_corr")},
                   "discordant_b": res["discordant_b"], "discordant_c": res["discordant_c"],
                   "mcnemar_p": r(res["mcnemar_p"], name)}]
        add(name, "int_stats__paired_diff", "stats_paired_cases",
            [{"experiment_id": e, "cluster_id": cl, "pair_id": pr, "arm": arm, "replicate_index": i, "score": s}
             for e, cl, pr, arm, i, s in rows], expect,
            "Paired difference (replicates averaged per pair and arm, clustered SE, CI in [-1, 1], MDD, arm correlation, "
            "McNemar on binary pairs) vs numpy/scipy.")
    for name, cases in INFERENCE.items():
        expect = []
        for cid, m, se, c, n_obs, k, n in cases:
            ulo, uhi = clustered_mean_ci(m, se, c, n_obs)
            dlo, dhi = clustered_mean_ci(m, se, c, n_obs, -1.0, 1.0)
            rlo, rhi = clustered_rate_ci(k, n, se, c)
            expect.append({"case_id": cid, "mean_value": m, "se": se, "n_clusters": c, "n_obs": n_obs, "k": k, "n": n,
                           "t975": r(t_crit(c - 1) if c >= 2 else None, cid),
                           "unit_ci_low": r(ulo, cid), "unit_ci_high": r(uhi, cid),
                           "diff_ci_low": r(dlo, cid), "diff_ci_high": r(dhi, cid),
                           "rate_ci_low": r(rlo, cid), "rate_ci_high": r(rhi, cid),
                           "mdd": r(mdd_t(se, c), cid), "p_value": r(paired_t_p(m, se, c), cid)})
        add(name, "int_stats__inference", "stats_inference_cases",
            [{"case_id": cid, "mean_value": m, "se": se, "n_clusters": c, "n_obs": n_obs, "k": k, "n": n}
             for cid, m, se, c, n_obs, k, n in cases], expect,
            "t quantile, clustered mean / rate intervals, t MDD and paired t p-value vs scipy.stats.t "
            "(scripts/stats_oracle.py).")
    for name, cases in MEAN_OF_GROUPS.items():
        strata = OrderedDict()
        for stratum, _, *group in cases:
            strata.setdefault(stratum, []).append(group)
        expect = []
        for stratum, groups in strata.items():
            mean, se, df, n, lo, hi = mean_of_groups(*zip(*groups))
            expect.append({"stratum": stratum, "mean_value": r(mean, stratum), "se": r(se, stratum), "df": df,
                           "n_obs": r(n, stratum), "is_binary": all(b for m, *_, b in groups if m is not None),
                           "ci_low": r(lo, stratum), "ci_high": r(hi, stratum)})
        add(name, "int_stats__mean_of_groups", "stats_mean_of_groups_cases",
            [{"stratum": st, "group_id": g, "group_mean": m, "group_se": se, "group_clusters": c, "group_obs": n,
              "group_binary": b} for st, g, m, se, c, n, b in cases], expect,
            "mean_of_groups_columns + clustered_mean_bound at df + 1 vs the oracle's mean of groups (SE, Welch-Satterthwaite "
            "df, scipy's t).")
    for name, cases in P_ADJUST.items():
        from statsmodels.stats.multitest import multipletests  # noqa: PLC0415
        expect = []
        fams = OrderedDict()
        for fam, cid, p in cases:
            fams.setdefault(fam, []).append((cid, p))
        for fam, rows in fams.items():
            real = [p for _, p in rows if p is not None]
            holm = list(multipletests(real, method="holm")[1]) if real else []
            bh = list(multipletests(real, method="fdr_bh")[1]) if real else []
            i = 0
            for cid, p in rows:
                if p is None:
                    expect.append({"family": fam, "case_id": cid, "p_value": None, "family_size": len(real),
                                   "p_holm": None, "p_bh": None})
                else:
                    expect.append({"family": fam, "case_id": cid, "p_value": p, "family_size": len(real),
                                   "p_holm": r(float(holm[i])), "p_bh": r(float(bh[i]))})
                    i += 1
        add(name, "int_stats__p_adjust", "stats_p_adjust_cases",
            [{"family": f, "case_id": c, "p_value": p} for f, c, p in cases], expect,
            "Holm and Benjamini-Hochberg vs statsmodels.stats.multitest.multipletests.")
    for name, cases in MDD.items():
        expect = []
        for cid, se in cases:
            lo, _ = mean_ci(se, se, None, None)
            expect.append({"case_id": cid, "se": se, "mdd_default": r(mdd(se), cid),
                           "mdd_a01_p90": r(mdd(se, 0.01, 0.9), cid), "mdd_a10_p50": r(mdd(se, 0.1, 0.5), cid),
                           "unclipped_ci_low": r(lo, cid)})
        add(name, "int_stats__mdd", "stats_mdd_cases", [{"case_id": c, "se": se} for c, se in cases], expect,
            "min_detectable_difference at (0.05, 0.8), (0.01, 0.9), (0.1, 0.5) vs scipy.stats.norm.ppf.")
    for name, cases in CORR.items():
        by = OrderedDict()
        for g, x, y in cases:
            by.setdefault(g, []).append((x, y))
        expect = [{"group_id": g, "n_pairs": len(v), "pearson_r": r(pearson([a for a, _ in v], [b for _, b in v]), g)}
                  for g, v in by.items()]
        add(name, "int_stats__corr", "stats_corr_cases", [{"group_id": g, "x": x, "y": y} for g, x, y in cases],
            expect, "corr vs numpy.corrcoef; NULL for fewer than 2 pairs or a constant variable.")
    return out


def unit_test_yaml() -> str:
    header = ("# GENERATED by scripts/stats_oracle.py --write -- do not edit by hand.\n"
              "# Expected values computed independently with scipy/numpy, rounded to 9 decimals like the models.\n")
    return header + yaml.safe_dump({"version": 2, "unit_tests": unit_tests()}, sort_keys=False, width=120)


def seed_csvs() -> dict[str, str]:
    def csv_text(header, rows):
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(header)
        for row in rows:
            w.writerow(["" if v is None else v for v in row])
        return buf.getvalue()

    def union(d):
        return [row for rows in d.values() for row in rows]

    return {
        "stats_wilson_cases.csv": csv_text(["case_id", "k", "n"], union(WILSON)),
        "stats_mcnemar_cases.csv": csv_text(["case_id", "b", "c"], union(MCNEMAR)),
        "stats_cluster_cases.csv": csv_text(["stratum", "cluster_id", "cluster_sum", "cluster_n"], union(CLUSTER)),
        "stats_paired_cases.csv": csv_text(
            ["experiment_id", "cluster_id", "pair_id", "arm", "replicate_index", "score"], union(PAIRED)),
        "stats_mdd_cases.csv": csv_text(["case_id", "se"], union(MDD)),
        "stats_corr_cases.csv": csv_text(["group_id", "x", "y"], union(CORR)),
        "stats_inference_cases.csv": csv_text(["case_id", "mean_value", "se", "n_clusters", "n_obs", "k", "n"],
                                              union(INFERENCE)),
        "stats_p_adjust_cases.csv": csv_text(["family", "case_id", "p_value"], union(P_ADJUST)),
        "stats_mean_of_groups_cases.csv": csv_text(
            ["stratum", "group_id", "group_mean", "group_se", "group_clusters", "group_obs", "group_binary"],
            union(MEAN_OF_GROUPS)),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help="rewrite the seeds and the unit-test yml")
    ap.add_argument("--check", action="store_true", help="exit 1 if the seeds or the unit-test yml are not what it writes")
    args = ap.parse_args(argv)
    text = unit_test_yaml()
    if _near_boundary:
        print("WARNING: expected values within 1e-12 of a 9-decimal rounding boundary: "
              + ", ".join(_near_boundary), file=sys.stderr)
    if args.check:
        stale = [str(UNIT_TEST_YML.relative_to(ROOT))] if UNIT_TEST_YML.read_text() != text else []
        stale += [f"integration_tests/seeds/stats/{n}" for n, body in seed_csvs().items() if (SEED_DIR / n).read_text() != body]
        if stale:
            print("stale (run scripts/stats_oracle.py --write): " + ", ".join(stale), file=sys.stderr)
            return 1
        return 0
    if args.write:
        UNIT_TEST_YML.write_text(text)
        for name, body in seed_csvs().items():
            (SEED_DIR / name).write_text(body)
        print(f"wrote {UNIT_TEST_YML.relative_to(ROOT)} and {len(seed_csvs())} seeds in {SEED_DIR.relative_to(ROOT)}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
