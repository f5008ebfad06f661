"""The small-sample inference macros (macros/stats/inference.sql) against scipy / statsmodels on
many cases, executed through DuckDB exactly as dbt compiles them. Agreement: 1e-9.

t quantiles (df 1..100 from the generated table, Cornish-Fisher beyond), the paired t-test's
two-sided p-value, Wilson at a real-valued effective n with a t critical value, the design-effect
n, the clustered-mean interval (including SE = 0 and C < 2), the t-based MDD, Holm and BH, and the
C(a, k) / C(n, k) of the pass@k estimators."""
from __future__ import annotations

import math
import re
import subprocess
import sys

import duckdb
import numpy as np
import pytest
from scipy import stats

from evalhouse.paths import PROJECT_DIR
from helpers import compile_parts

TOL = 1e-9

TEMPLATE = """
/*@@tq@@*/ select df, {{ t_quantile('df', 0.975) }} as q975, {{ t_quantile('df', 0.9) }} as q90,
    {{ t_quantile('df', 0.8) }} as q80 from t_cases order by df
/*@@tp@@*/ select id, {{ t_two_sided_p('t', 'df') }} as p from tp_cases order by id
/*@@paired@@*/ select id, {{ paired_t_p('m', 'se', 'c - 1') }} as p from paired_cases order by id
/*@@wb@@*/ select id, {{ wilson_bound('p', 'n', 'crit', 'low') }} as lo, {{ wilson_bound('p', 'n', 'crit', 'high') }} as hi
    from wb_cases order by id
/*@@crate@@*/ select id, {{ effective_n('k', 'n', 'se') }} as n_eff,
    {{ clustered_rate_bound('k', 'n', 'se', 'c', 'low') }} as lo, {{ clustered_rate_bound('k', 'n', 'se', 'c', 'high') }} as hi
    from crate_cases order by id
/*@@tmean@@*/ select id, {{ clustered_mean_bound('m', 'se', 'c', 'n', 'low') }} as lo01, {{ clustered_mean_bound('m', 'se', 'c', 'n', 'high') }} as hi01,
    {{ clustered_mean_bound('m', 'se', 'c', 'n', 'low', lower=-1, upper=1) }} as lo11,
    {{ clustered_mean_bound('m', 'se', 'c', 'n', 'high', lower=-1, upper=1) }} as hi11,
    {{ clustered_mean_bound('m', 'se', 'c', 'n', 'low', lower=none, upper=none) }} as lo_free,
    {{ ci_null_reason('m', 'c') }} as reason,
    {{ clustered_mean_bound('m', 'se', 'c', 'n', 'low', binary='m * n = round(m * n)') }} as lo_bin,
    {{ clustered_mean_bound('m', 'se', 'c', 'n', 'high', binary='m * n = round(m * n)') }} as hi_bin,
    {{ clustered_mean_bound('m', 'se', 'c', 'n', 'low', lower=-1, upper=1, binary='true') }} as lo11_bin
    from tmean_cases order by id
/*@@mdd@@*/ select id, {{ t_min_detectable_difference('se', 'c') }} as mdd80, {{ t_min_detectable_difference('se', 'c', power=0.9) }} as mdd90
    from mdd_cases order by id
/*@@adjust@@*/ with ranked as (select *, {{ p_adjust_rank('p', ['fam']) }} as r, {{ p_family_size('p', ['fam']) }} as m from adjust_cases)
    select id, {{ p_holm('p', 'r', 'm', ['fam']) }} as holm, {{ p_bh('p', 'r', 'm', ['fam']) }} as bh, m from ranked order by id
/*@@corr@@*/ select g, {{ arm_corr('x', 'y') }} as r from corr_cases group by g order by g
/*@@comb@@*/ select id, {{ stats_comb_ratio('a', 'n', 'k') }} as r from comb_cases order by id
/*@@end@@*/
"""


@pytest.fixture(scope="session")
def compiled(tmp_path_factory) -> dict[str, str]:
    return compile_parts(TEMPLATE, tmp_path_factory.mktemp("inference_compile"))


def run(sql, ddl, rows):
    con = duckdb.connect()
    try:
        name = re.search(r"from (\w+_cases)", sql).group(1)
        con.execute(f"create table {name} ({ddl})")
        con.executemany(f"insert into {name} values ({', '.join('?' * len(rows[0]))})", rows)
        return con.execute(sql).fetchall()
    finally:
        con.close()


def close(got, want):
    if want is None:
        return got is None
    return got is not None and abs(got - want) <= TOL


def wilson_ref(p, n, crit):
    """Wilson as the root of the score equation (p - q)^2 = crit^2 q (1 - q) / n (independent of the closed form)."""
    a = 1 + crit * crit / n
    b = -(2 * p + crit * crit / n)
    c = p * p
    disc = math.sqrt(max(0.0, b * b - 4 * a * c))
    lo, hi = (-b - disc) / (2 * a), (-b + disc) / (2 * a)
    return (0.0 if p <= 0 else max(0.0, lo)), (1.0 if p >= 1 else min(1.0, hi))


def test_generated_t_table_is_current():
    proc = subprocess.run([sys.executable, str(PROJECT_DIR / "scripts" / "gen_t_quantiles.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_t_quantiles_match_scipy(compiled):
    dfs = list(range(1, 131)) + [150, 200, 500, 1000, 10_000, 1_000_000]
    rows = run(compiled["tq"], "df integer", [(d,) for d in dfs] + [(0,), (None,)])
    got = {r[0]: r[1:] for r in rows}
    for d in dfs:
        for q, p in zip(got[d], (0.975, 0.9, 0.8)):
            assert abs(q - stats.t.ppf(p, d)) <= 1e-9, (d, p, q, stats.t.ppf(p, d))
    assert got[0] == (None, None, None) and got[None] == (None, None, None)
    # the values the issue quotes
    assert abs(got[7][0] - 2.3646) < 1e-4 and abs(got[3][0] - 3.1824) < 1e-4 and abs(got[1][0] - 12.7062) < 1e-4


def test_t_two_sided_p_matches_scipy(compiled):
    rng = np.random.default_rng(12)
    cases = []
    for df in [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 30, 31, 99, 100, 101, 500, 2001]:
        for t in [0.0, 1e-6, 0.05, 0.5, -0.9, 1.0, 1.96, -2.5, 3.3, 7.0, 25.0, -120.0, *rng.normal(0, 3, 4)]:
            cases.append((len(cases), float(t), df))
    cases += [(len(cases), None, 3), (len(cases) + 1, 1.0, None), (len(cases) + 2, 1.0, 0)]
    got = dict(run(compiled["tp"], "id integer, t double, df integer", cases))
    for i, t, df in cases:
        want = None if t is None or df is None or df < 1 else float(2 * stats.t.sf(abs(t), df))
        assert close(got[i], want), (t, df, got[i], want)


def test_paired_t_p_edges(compiled):
    cases = [(0, 0.1, 0.05, 5), (1, 0.0, 0.0, 4), (2, 0.2, 0.0, 4), (3, 0.1, 0.05, 1), (4, 0.1, None, 5),
             (5, -0.3, 0.1, 2)]
    got = dict(run(compiled["paired"], "id integer, m double, se double, c integer", cases))
    assert close(got[0], 2 * stats.t.sf(2.0, 4))
    assert got[1] == 1.0 and got[2] is None and got[3] is None and got[4] is None
    assert close(got[5], 2 * stats.t.sf(3.0, 1))


def test_wilson_bound_matches_score_equation(compiled):
    rng = np.random.default_rng(3)
    cases = [(0, 0.0, 10.0, 1.96), (1, 1.0, 10.0, 1.96), (2, 0.5, 2.0, 12.7), (3, 0.3, 7.5, 3.18), (4, 0.5, 0.0, 2.0),
             (5, None, 4.0, 2.0)]
    for _ in range(300):
        cases.append((len(cases), float(rng.uniform()), float(rng.uniform(0.5, 2000)), float(rng.uniform(1.5, 13))))
    got = {r[0]: r[1:] for r in run(compiled["wb"], "id integer, p double, n double, crit double", cases)}
    for i, p, n, crit in cases:
        if p is None or n <= 0:
            assert got[i] == (None, None)
            continue
        lo, hi = wilson_ref(p, n, crit)
        assert close(got[i][0], lo) and close(got[i][1], hi), (p, n, crit, got[i], (lo, hi))
    # with crit = z and integer n it is statsmodels' Wilson interval
    from statsmodels.stats.proportion import proportion_confint  # noqa: PLC0415
    lo, hi = proportion_confint(3, 11, method="wilson")
    one = run(compiled["wb"], "id integer, p double, n double, crit double", [(0, 3 / 11, 11.0, stats.norm.ppf(0.975))])
    assert close(one[0][1], lo) and close(one[0][2], hi)


def test_clustered_rate_interval(compiled):
    # k, n, se, C: an interior rate, a rate at 0 and 1, se = 0 interior, one cluster, n_eff capped at n
    cases = [(0, 14, 20, 0.12, 5), (1, 0, 20, 0.0, 5), (2, 20, 20, 0.0, 4), (3, 10, 20, 0.0, 4), (4, 7, 10, 0.1, 1),
             (5, 30, 60, 0.01, 8), (6, 3, 6, 0.3, 2)]
    got = {r[0]: r[1:] for r in run(compiled["crate"], "id integer, k integer, n integer, se double, c integer", cases)}
    for i, k, n, se, c in cases:
        p = k / n
        n_eff = n if k in (0, n) or se == 0 else min(n, p * (1 - p) / se ** 2)
        assert close(got[i][0], n_eff)
        if c < 2:
            assert got[i][1:] == (None, None)
            continue
        lo, hi = wilson_ref(p, n_eff, stats.t.ppf(0.975, c - 1))
        assert close(got[i][1], lo) and close(got[i][2], hi), (i, got[i], lo, hi)
    assert got[1][1] == 0.0 and got[1][2] > 0  # all fail: never [0, 0]
    assert got[2][2] == 1.0 and got[2][1] < 1  # all pass: never [1, 1]
    assert got[5][0] == 60  # SE below the binomial SE: n_eff capped at n


def test_clustered_mean_interval(compiled):
    rng = np.random.default_rng(5)
    cases = [(0, 0.8, 0.05, 4, 8), (1, 1.0, 0.0, 4, 8), (2, 0.5, 0.0, 3, 6), (3, 0.0, 0.0, 2, 4), (4, 0.7, 0.1, 1, 3),
             (5, None, None, 0, 0), (6, 0.99, 0.2, 2, 4), (7, 0.6, 1e-17, 5, 10), (8, 0.97, 0.004, 8, 16),
             (9, 0.97, 0.004, 3, 6), (10, 0.5, 0.3, 4, 8)]
    for _ in range(200):
        cases.append((len(cases), float(rng.uniform(-1, 1)), float(rng.uniform(0, 0.5)), int(rng.integers(2, 150)),
                      int(rng.integers(2, 500))))
    got = {r[0]: r[1:] for r in run(compiled["tmean"], "id integer, m double, se double, c integer, n integer", cases)}
    for i, m, se, c, n in cases:
        lo01, hi01, lo11, hi11, lo_free, reason, lo_bin, hi_bin, lo11_bin = got[i]
        if m is None or c < 2:
            assert (lo01, hi01, lo11, hi11, lo_free, lo_bin, hi_bin, lo11_bin) == (None,) * 8
            assert reason == ("no observations" if m is None else "fewer than 2 clusters")
            continue
        t = stats.t.ppf(0.975, c - 1)
        zero = se <= 1e-12
        # unit range: the angular (arcsine square-root) t interval, Wilson at n when SE = 0
        if zero and 0 <= m <= 1:
            wl, wh = wilson_ref(m, n, t)
            assert close(lo01, wl) and close(hi01, wh), (i, m, se, lo01, hi01, wl, wh)
        elif 0 < m < 1 and c >= 4:
            a, sa = math.asin(math.sqrt(m)), se / (2 * math.sqrt(m * (1 - m)))
            wl, wh = math.sin(max(0.0, a - t * sa)) ** 2, math.sin(min(math.pi / 2, a + t * sa)) ** 2
            assert close(lo01, wl) and close(hi01, wh), (i, m, se, c, n, lo01, hi01, wl, wh)
        else:
            assert close(lo01, max(0, min(1, m - t * se))) and close(hi01, max(0, min(1, m + t * se)))
        # [-1, 1] (paired differences): t, or Wilson on the rescaled mean at SE = 0
        if zero:
            wl, wh = wilson_ref((m + 1) / 2, n, t)
            assert close(lo11, -1 + 2 * wl) and close(hi11, -1 + 2 * wh) and hi11 > lo11  # never zero-width
            assert close(lo_free, m)  # unbounded: the t formula
        else:
            assert close(lo11, max(-1, min(1, m - t * se))) and close(hi11, max(-1, min(1, m + t * se)))
            assert close(lo_free, m - t * se)
        assert reason is None
        if 0 < m < 1:
            assert hi01 > lo01  # never zero-width around an interior mean
        # binary (every observation 0 or 1; here: when m * n is a whole count): the clustered rate interval,
        # Wilson at the design-effect n (at most n) with t(C-1); `binary` means nothing off the unit range
        if 0 <= m <= 1 and m * n == round(m * n):
            k = m * n
            n_eff = n if k <= 0 or k >= n or se <= 1e-12 else min(n, m * (1 - m) / se ** 2)
            wl, wh = wilson_ref(m, n_eff, t)
            assert close(lo_bin, wl) and close(hi_bin, wh), (i, m, se, c, n, lo_bin, hi_bin, wl, wh)
        else:
            assert close(lo_bin, lo01) and close(hi_bin, hi01)
        assert close(lo11_bin, lo11)
    # the binary cases above: an interior pass/fail mean and the all-pass one
    assert any(0 < m < 1 and m * n == round(m * n) and se > 0 for _, m, se, c, n in cases[:11] if m is not None and c >= 2)


def test_t_mdd(compiled):
    cases = [(0, 0.05, 2), (1, 0.05, 3), (2, 0.02, 8), (3, 0.0, 8), (4, None, 8), (5, 0.1, 1), (6, 0.01, 400)]
    got = {r[0]: r[1:] for r in run(compiled["mdd"], "id integer, se double, c integer", cases)}
    for i, se, c in cases:
        if se is None or se == 0 or c < 2:
            assert got[i] == (None, None)  # never a zero MDD
            continue
        for g, power in zip(got[i], (0.8, 0.9)):
            assert close(g, (stats.t.ppf(0.975, c - 1) + stats.t.ppf(power, c - 1)) * se)


def test_holm_and_bh_match_statsmodels(compiled):
    from statsmodels.stats.multitest import multipletests  # noqa: PLC0415
    rng = np.random.default_rng(7)
    rows, fams = [], {}
    for f in range(12):
        m = int(rng.integers(1, 40))
        ps = [float(x) for x in rng.uniform(0, 1, m) ** 3]
        if m > 3:
            ps[1] = ps[2]  # a tie
        ps += [None] * int(rng.integers(0, 3))  # rows that are not tests
        fams[f] = ps
        rows += [(len(rows) + j, f"fam{f}", p) for j, p in enumerate(ps)]
    got = {r[0]: r[1:] for r in run(compiled["adjust"], "id integer, fam varchar, p double", rows)}
    i = 0
    for f, ps in fams.items():
        real = [p for p in ps if p is not None]
        holm = multipletests(real, method="holm")[1]
        bh = multipletests(real, method="fdr_bh")[1]
        for j, p in enumerate(ps):
            g_holm, g_bh, m = got[i]
            assert m == len(real)
            if p is None:
                assert g_holm is None and g_bh is None
            else:
                assert close(g_holm, holm[j]) and close(g_bh, bh[j]), (f, j, p, g_holm, holm[j], g_bh, bh[j])
            i += 1


def test_arm_corr_clamped_and_null_below_three_pairs(compiled):
    rows = [("two", 0.1, 0.2), ("two", 0.3, 0.9), ("three", 0.1, 0.1), ("three", 0.2, 0.2), ("three", 0.3, 0.3 + 1e-16),
            ("noisy", 1.0, 0.3), ("noisy", 2.0, 0.1), ("noisy", 3.0, 0.9), ("noisy", 4.0, 0.7)]
    got = dict(run(compiled["corr"], "g varchar, x double, y double", rows))
    assert got["two"] is None
    assert -1 <= got["three"] <= 1 and abs(got["three"] - 1) < 1e-9
    assert close(got["noisy"], float(np.corrcoef([1, 2, 3, 4], [0.3, 0.1, 0.9, 0.7])[0, 1]))


def test_comb_ratio_matches_math_comb_and_is_exact_where_it_is_a_plain_ratio(compiled):
    """C(a, k) / C(n, k) against math.comb; exactly 1 when a = n and exactly a / n for k = 1 (the lgamma form is
    off by about 1e-16 there, which made an estimate of 0 print as 1.1e-16); NULL when k > n, 0 when a < k."""
    cases = [(a, n, k) for n in range(0, 13) for a in range(0, n + 1) for k in range(0, n + 2)] + [(90, 200, 50)]
    rows = [(i, a, n, k) for i, (a, n, k) in enumerate(cases)]
    got = dict(run(compiled["comb"], "id integer, a integer, n integer, k integer", rows))
    for i, a, n, k in rows:
        if k > n:
            assert got[i] is None, (a, n, k)
            continue
        want = math.comb(a, k) / math.comb(n, k)
        assert abs(got[i] - want) <= TOL * max(1.0, want), (a, n, k, got[i], want)
        if a == n or k == 1 or a < k:
            assert got[i] == (1.0 if a == n else a / n if k == 1 else 0.0), (a, n, k, got[i])
