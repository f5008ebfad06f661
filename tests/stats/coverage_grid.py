"""The coverage grid: the interval formulas alone (scripts/stats_oracle.py, which the SQL macros match
to 1e-9) over a grid of clustered designs with a known truth, no loader and no dbt, so that many
designs run in a minute. It measures where the unit-range mean interval (`clustered_mean_bound`) and the
clustered rate interval (`clustered_rate_bound`) hold their 95%, and where they do not
(docs/statistics.md, "Known limitation: skewed clusters"); and the same for the paired difference of two
arms run on the same clusters (the t(C-1) interval on [-1, 1] of the comparison marts).

Design: C clusters (tasks, scenarios), each with an effect u ~ N(0, sigma) on the logit scale around mu;
R replicates per cluster; each replicate's score is, by `kind`:
  bin     pass/fail with probability p = expit(mu + u)   (the mean is the clustered rate: same interval)
  frac10  the share of 10 assertions passing, each with probability p (`items`: the interval the marts give a
          share whose assertions the logs count, the clustered rate over the 10 x n assertions)
  beta10  a continuous score ~ Beta(10 p, 10 (1 - p))
Truth: E[expit(mu + u)] by Gauss-Hermite quadrature (the super-population mean). The paired design adds a
second arm on the same clusters at mu + DELTA (same u): truth E[expit(mu + DELTA + u) - expit(mu + u)].

The mean of groups (inspect_ai's grouped(metric, key, all="groups"): the unweighted mean of the group means,
oracle.mean_of_groups) has a grid of its own: G groups of equal and unequal sizes (GROUP_SIZES), group g's samples with
effects u ~ N(0, sigma) around mu + GROUP_OFFSETS[g] (spread evenly over [-1, 1]), R epochs per sample, each
sample its own cluster and its value the mean of its epochs; truth: the mean over the groups of
E[expit(mu_g + u)].

    .venv/bin/python tests/stats/coverage_grid.py [--sims 1000] [--seed 5]

prints, per score kind, the worst coverage of each interval (mean, diff, rate, and `cand`: the fix not
taken, Wilson at the design-effect n applied to the mean) over the grid, cand's width against the mean
interval's, and the designs below 0.93; then the same for the mean of groups.
"""
from __future__ import annotations

import argparse
import itertools

import numpy as np
from coverage_study import normal_mean, oracle
from scipy.special import expit

CLUSTERS = (3, 4, 6, 10, 20)
REPLICATES = (1, 3)
MUS = (0.0, 1.5, 3.0)
SIGMAS = (0.5, 1.5, 2.5)
KINDS = ("bin", "frac10", "beta10")
DELTA = 0.5


def truth(mu: float, sigma: float, delta: float = 0.0) -> float:
    """E[expit(mu + delta + sigma Z)] for Z ~ N(0, 1)."""
    return normal_mean(lambda z: expit(mu + delta + sigma * z))


def scores(rng, kind: str, p: np.ndarray, replicates: int) -> np.ndarray:
    pp = np.repeat(p[:, None], replicates, 1)
    if kind == "bin":
        return (rng.random(pp.shape) < pp).astype(float)
    if kind == "frac10":
        return rng.binomial(10, pp) / 10
    return rng.beta(10 * pp, 10 * (1 - pp))


def cell(rng, kind, n_clusters, replicates, mu, sigma, sims) -> dict[str, float]:
    """Coverage of the mean interval, the paired difference's interval and (for pass/fail scores) the rate
    interval in one design."""
    want = truth(mu, sigma)
    want_diff = truth(mu, sigma, DELTA) - want
    covered = {"mean": 0, "diff": 0, "rate": 0, "cand": 0, "items": 0}
    width = {"mean": 0.0, "cand": 0.0, "items": 0.0}
    for _ in range(sims):
        u = sigma * rng.standard_normal(n_clusters)
        x = scores(rng, kind, expit(mu + u), replicates)
        n = x.size
        se = oracle.cluster_se_two_pass(list(x.sum(1)), [replicates] * n_clusters)
        # a mean of pass/fail scores is marked binary, as the marts mark it (every observation 0 or 1)
        lo, hi = oracle.clustered_mean_ci(float(x.mean()), se, n_clusters, n, binary=bool(np.isin(x, (0.0, 1.0)).all()))
        covered["mean"] += lo - 1e-12 <= want <= hi + 1e-12
        width["mean"] += hi - lo
        # the rate rule (Wilson at the design-effect n): the rate interval of pass/fail scores, and on any
        # score the candidate fix not taken (docs)
        lo, hi = oracle.clustered_rate_ci(float(x.sum()), n, se, n_clusters)
        hit = lo - 1e-12 <= want <= hi + 1e-12
        covered["cand"] += hit
        covered["rate"] += hit
        width["cand"] += hi - lo
        if kind == "frac10":  # the marts' rule for a share of assertions they can count: the rate over the assertions
            lo, hi = oracle.clustered_rate_ci(float(x.sum()) * 10, n * 10, se, n_clusters)
            covered["items"] += lo - 1e-12 <= want <= hi + 1e-12
            width["items"] += hi - lo
        d = scores(rng, kind, expit(mu + DELTA + u), replicates).mean(1) - x.mean(1)   # one pair per cluster
        se = oracle.cluster_se_two_pass(list(d), [1] * n_clusters)
        lo, hi = oracle.clustered_mean_ci(float(d.mean()), se, n_clusters, n_clusters, -1.0, 1.0)
        covered["diff"] += lo - 1e-12 <= want_diff <= hi + 1e-12
    out = {k: v / sims for k, v in covered.items() if (kind == "bin" or k != "rate") and (kind == "frac10" or k != "items")}
    for k in ("cand", "items") if kind == "frac10" else ("cand",):
        out[f"{k}_width"] = width[k] / width["mean"] if width["mean"] else float("nan")
    return out


def grid(sims: int, seed: int, kinds=KINDS):
    """((kind, clusters, replicates, mu, sigma, truth), coverage by interval) for every design of the grid."""
    rng = np.random.default_rng(seed)
    for kind, c, r, mu, sigma in itertools.product(kinds, CLUSTERS, REPLICATES, MUS, SIGMAS):
        yield (kind, c, r, mu, sigma, round(truth(mu, sigma), 3)), cell(rng, kind, c, r, mu, sigma, sims)


GROUP_SIZES = ((5, 5), (12, 3), (30, 4), (6, 3, 2), (10, 10, 10), (20, 5, 3), (4, 4, 4, 4, 4), (20, 8, 4, 3, 2))
GROUP_MUS = (0.0, 1.5, 3.0)
GROUP_SIGMAS = (0.5, 1.5)


def group_mus(mu: float, sizes: tuple[int, ...]) -> np.ndarray:
    """The groups' centres on the logit scale: spread evenly over mu - 1 .. mu + 1."""
    return mu + np.linspace(-1.0, 1.0, len(sizes))


def groups_cell(rng, kind, sizes, replicates, mu, sigma, sims) -> float:
    """Coverage of the mean-of-groups interval in one design (the draws where it is not NULL: every group here
    has at least 2 samples, so all of them)."""
    mus = group_mus(mu, sizes)
    want = float(np.mean([truth(m, sigma) for m in mus]))
    covered = 0
    for _ in range(sims):
        means, ses, obs, binary = [], [], [], []
        for m, size in zip(mus, sizes):
            x = scores(rng, kind, expit(m + sigma * rng.standard_normal(size)), replicates)
            v = x.mean(1)                           # a sample's value: the mean of its epochs
            means.append(float(v.mean()))
            ses.append(oracle.cluster_se_two_pass(list(v), [1] * size))
            obs.append(x.size)
            binary.append(bool(np.isin(x, (0.0, 1.0)).all()))
        *_, lo, hi = oracle.mean_of_groups(means, ses, list(sizes), obs, binary)
        covered += lo - 1e-12 <= want <= hi + 1e-12
    return covered / sims


def groups_grid(sims: int, seed: int, kinds=("bin", "beta10")):
    """((kind, group sizes, replicates, mu, sigma, truth), coverage of the mean-of-groups interval) per design."""
    rng = np.random.default_rng(seed)
    for kind, sizes, r, mu, sigma in itertools.product(kinds, GROUP_SIZES, REPLICATES, GROUP_MUS, GROUP_SIGMAS):
        want = float(np.mean([truth(m, sigma) for m in group_mus(mu, sizes)]))
        yield (kind, sizes, r, mu, sigma, round(want, 3)), groups_cell(rng, kind, sizes, r, mu, sigma, sims)


def main(argv=None) -> int:  # pragma: no cover - the documented manual run
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    rows = list(grid(args.sims, args.seed))
    print("| scores | interval | designs | worst coverage | designs below 0.93 |\n|---|---|---|---|---|")
    for kind in KINDS:
        for name in ("mean", "diff", "rate", "cand", "items"):
            cov = [c[name] for (k, *_), c in rows if k == kind and name in c]
            if cov:
                print(f"| {kind} | {name} | {len(cov)} | {min(cov):.3f} | {sum(v < 0.93 for v in cov)} |")
    print("\ncand: the candidate not taken; its width / the mean interval's, by kind: median, max")
    for kind in KINDS:
        ratios = sorted(c["cand_width"] for (k, *_), c in rows if k == kind)
        print(kind, f"{ratios[len(ratios) // 2]:.2f}", f"{ratios[-1]:.2f}")
    ratios = sorted(c["items_width"] for (k, *_), c in rows if k == "frac10")
    print(f"items (frac10): its width / the mean interval's: median {ratios[len(ratios) // 2]:.2f}, max {ratios[-1]:.2f}")
    print("\nbelow 0.93 (kind, clusters, replicates, mu, sigma, truth): coverage")
    for key, c in rows:
        if any(v < 0.93 for k, v in c.items() if not k.endswith("_width")):
            print(key, c)
    groups = list(groups_grid(args.sims, args.seed))
    print("\nthe mean of groups: | scores | designs | worst coverage | designs below 0.93 |")
    for kind in ("bin", "beta10"):
        cov = [c for (k, *_), c in groups if k == kind]
        print(f"| {kind} | {len(cov)} | {min(cov):.3f} | {sum(v < 0.93 for v in cov)} |")
    for key, c in groups:
        if c < 0.93:
            print(key, round(c, 3))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
