"""Cost per success (macros/stats/inference.sql: cluster_total_cov, ratio_fieller_bound, ratio_ci_reason),
executed through DuckDB exactly as dbt compiles them.

1. Agreement with an independent numpy implementation of Fieller's interval on random cases (1e-9).
2. A coverage study with a known truth: tasks (clusters) of varying difficulty, replicates per task,
   success and cost correlated through the task; the true cost per success is E[cost] / E[success]
   of the generating process, computed in closed form. The clustered Fieller interval must cover it
   at >= 0.92 in every design (nominal 0.95; 1,000 replicates give a Monte Carlo SE of about 0.007; at 3,000 replicates the four designs cover 0.94-0.97).
3. Negative control: the same study with the variances of an unclustered (i.i.d.) design, the
   interval a tool gets when it treats replicates of one task as independent, covers well below 0.90
   in a clustered design, so the study can fail."""
from __future__ import annotations


import duckdb
import numpy as np
import pytest
from scipy import stats

from helpers import compile_parts

TEMPLATE = """
/*@@bounds@@*/ select id,
    {{ ratio_fieller_bound('y', 'x', cluster_total_cov('yy', 'y', 'y', 'c'), cluster_total_cov('xx', 'x', 'x', 'c'),
                           cluster_total_cov('xy', 'y', 'x', 'c'), 'c', 'low') }} as lo,
    {{ ratio_fieller_bound('y', 'x', cluster_total_cov('yy', 'y', 'y', 'c'), cluster_total_cov('xx', 'x', 'x', 'c'),
                           cluster_total_cov('xy', 'y', 'x', 'c'), 'c', 'high') }} as hi,
    {{ ratio_ci_reason('y', 'x', cluster_total_cov('xx', 'x', 'x', 'c'), 'c') }} as reason
    from ratio_cases order by id
/*@@end@@*/
"""


@pytest.fixture(scope="module")
def bounds_sql(tmp_path_factory) -> str:
    return next(iter(compile_parts(TEMPLATE, tmp_path_factory.mktemp("ratio_compile")).values()))


def run_bounds(sql: str, cases: list[tuple]) -> dict[int, tuple]:
    """cases: (id, y, x, yy, xx, xy, c): the totals, the sums of squares / cross products and C."""
    con = duckdb.connect()
    try:
        con.execute("create table ratio_cases (id integer, y double, x double, yy double, xx double, xy double, c integer)")
        con.executemany("insert into ratio_cases values (?, ?, ?, ?, ?, ?, ?)", cases)
        return {r[0]: r[1:] for r in con.execute(sql).fetchall()}
    finally:
        con.close()


def fieller_ref(yc: np.ndarray, xc: np.ndarray):
    """Fieller from the cluster totals, written independently: solve (Y - R X)^2 = t^2 Var(Y - R X) for R."""
    c = len(yc)
    y, x = yc.sum(), xc.sum()
    cov = np.cov(np.vstack([yc, xc]), ddof=1) * c  # variance of a total = C * sample variance of cluster totals
    t = stats.t.ppf(0.975, c - 1)
    a = x * x - t * t * cov[1, 1]
    b = x * y - t * t * cov[0, 1]
    cc = y * y - t * t * cov[0, 0]
    if x <= 0:
        return None, None
    if a <= 0:
        return 0.0, None
    root = np.sqrt(max(0.0, b * b - a * cc))
    return max(0.0, (b - root) / a), (b + root) / a


def case_row(i, yc, xc):
    return (i, float(yc.sum()), float(xc.sum()), float((yc * yc).sum()), float((xc * xc).sum()),
            float((yc * xc).sum()), len(yc))


def test_fieller_matches_independent_reference(bounds_sql):
    rng = np.random.default_rng(7)
    cases, refs = [], {}
    for i in range(300):
        c = int(rng.integers(2, 40))
        xc = rng.binomial(int(rng.integers(1, 6)), rng.uniform(0.02, 0.95), size=c).astype(float)
        yc = rng.gamma(2.0, rng.uniform(0.01, 2.0), size=c) * (1 + xc)
        cases.append(case_row(i, yc, xc))
        refs[i] = fieller_ref(yc, xc)
    got = run_bounds(bounds_sql, cases)
    n_unbounded = 0
    for i, (lo, hi) in refs.items():
        glo, ghi, reason = got[i]
        if lo is None:
            assert glo is None and ghi is None and reason == "no successes", (i, got[i])
            continue
        assert abs(glo - lo) <= 1e-9 * max(1.0, abs(lo)), (i, glo, lo)
        if hi is None:
            n_unbounded += 1
            assert ghi is None and reason.startswith("successes not distinguishable"), (i, got[i])
        else:
            assert abs(ghi - hi) <= 1e-9 * max(1.0, abs(hi)) and reason is None, (i, ghi, hi, reason)
            r = cases[i][1] / cases[i][2]
            assert glo - 1e-12 <= r <= ghi + 1e-12  # the estimate lies inside its interval
    assert 0 < n_unbounded < 300  # both branches exercised


def test_ratio_reason_edges(bounds_sql):
    got = run_bounds(bounds_sql, [(0, None, None, None, None, None, 5), (1, 3.0, 0.0, 3.0, 0.0, 0.0, 5),
                                  (2, 3.0, 2.0, 9.0, 4.0, 6.0, 1)])
    assert got[0] == (None, None, "no observations")
    assert got[1] == (None, None, "no successes")
    assert got[2] == (None, None, "fewer than 2 clusters")


def simulate(rng, n_rep, design):
    """One study of `design`: per-task success probability and mean cost both driven by task difficulty.
    Returns the cluster totals (cost, successes)."""
    c, k, a, s = design["clusters"], design["reps"], design["logit_mean"], design["spread"]
    d = rng.normal(0, 1, size=(n_rep, c))
    p = 1 / (1 + np.exp(-(a - s * d)))
    x = rng.binomial(k, p)
    mu = np.exp(design["log_cost"] + 0.4 * d)  # harder tasks cost more
    y = rng.gamma(2.0, mu[..., None] / 2.0, size=(n_rep, c, k)).sum(axis=2)
    return y, x.astype(float)


def truth(design):
    """E[cost per unit] / E[success per unit], by quadrature over the task difficulty."""
    z, w = np.polynomial.hermite_e.hermegauss(80)
    w = w / w.sum()
    a, s = design["logit_mean"], design["spread"]
    ex = np.sum(w / (1 + np.exp(-(a - s * z))))
    ey = np.sum(w * np.exp(design["log_cost"] + 0.4 * z))
    return ey / ex


DESIGNS = [
    {"name": "8 tasks x 3, 50% solved", "clusters": 8, "reps": 3, "logit_mean": 0.0, "spread": 1.5, "log_cost": -3.0},
    {"name": "10 tasks x 5, 20% solved", "clusters": 10, "reps": 5, "logit_mean": -1.6, "spread": 1.0, "log_cost": -1.0},
    {"name": "20 tasks x 4, 80% solved", "clusters": 20, "reps": 4, "logit_mean": 1.6, "spread": 2.0, "log_cost": -4.0},
    {"name": "30 tasks x 2, 35% solved", "clusters": 30, "reps": 2, "logit_mean": -0.7, "spread": 2.5, "log_cost": 0.0},
]
N_REP = 1000


def coverage(bounds_sql, design, iid=False, seed=0):
    rng = np.random.default_rng(seed)
    y, x = simulate(rng, N_REP, design)
    r = truth(design)
    cases = []
    for i in range(N_REP):
        if iid:
            # the unclustered interval: every replicate its own "cluster" with the task's mean outcome
            k = design["reps"]
            yc, xc = np.repeat(y[i] / k, k), np.repeat(x[i] / k, k)
        else:
            yc, xc = y[i], x[i]
        cases.append(case_row(i, yc, xc))
    got = run_bounds(bounds_sql, cases)
    covered = 0
    for i in range(N_REP):
        lo, hi, _ = got[i]
        # no successes: no interval, counted as a miss (the conservative reading)
        if lo is not None and lo <= r and (hi is None or r <= hi):
            covered += 1
    return covered / N_REP


@pytest.mark.parametrize("seed,design", list(enumerate(DESIGNS)), ids=[d["name"] for d in DESIGNS])
def test_clustered_fieller_holds_coverage(bounds_sql, seed, design):
    cov = coverage(bounds_sql, design, seed=100 + seed)
    assert cov >= 0.92, f"{design['name']}: coverage {cov:.3f} < 0.92"


def test_negative_control_unclustered_interval_undercovers(bounds_sql):
    design = {"clusters": 10, "reps": 6, "logit_mean": 0.0, "spread": 2.5, "log_cost": -2.0}
    cov = coverage(bounds_sql, design, iid=True, seed=3)
    assert cov < 0.90, f"the i.i.d. interval covered {cov:.3f}: the study cannot tell clustered from unclustered"
