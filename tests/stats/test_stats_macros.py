"""The statistics macros (macros/stats/) against an independent oracle (scripts/stats_oracle.py:
scipy.stats.binomtest, scipy.stats.norm, numpy two-pass, inspect_ai's clustered stderr) on many
random cases, executed through DuckDB exactly as dbt compiles them. Agreement: 1e-9."""
from __future__ import annotations

import json
import math

import duckdb
import numpy as np
import pytest

from helpers import compile_parts, query, script_module

oracle = script_module("stats_oracle")

TOL = 1e-9
MDD_COMBOS = [(0.05, 0.8), (0.01, 0.9), (0.1, 0.5), (0.001, 0.95), (0.2, 0.99), (0.05, 0.9)]

# one inline compile; each query is introduced by a /*@@name@@*/ marker (SQL comments survive compilation)
TEMPLATE = """
/*@@wilson@@*/ select id, {{ wilson_low('k', 'n') }} as lo, {{ wilson_high('k', 'n') }} as hi from wilson_cases order by id
/*@@mcnemar@@*/ select id, {{ mcnemar_exact_p('b', 'c') }} as p from mcnemar_cases order by id
/*@@cluster@@*/ select stratum, sum(cluster_sum) / sum(cluster_n) as m, {{ cluster_se('cluster_sum', 'cluster_n') }} as se,
    case when count(kept_n) >= 2 then sqrt(count(kept_n) / (count(kept_n) - 1.0)
        * {{ evalhouse.default__stats_cluster_resid_ss('kept_sum', 'kept_n') }}) / sum(kept_n) end as se_portable
    from (select *, case when cluster_n > 0 and cluster_sum is not null then cluster_sum end as kept_sum,
                 case when cluster_n > 0 and cluster_sum is not null then cluster_n end as kept_n from clusters)
    group by stratum order by stratum
/*@@ci@@*/ select id, {{ mean_ci_low('m', 'se') }} as lo01, {{ mean_ci_high('m', 'se') }} as hi01,
    {{ mean_ci_low('m', 'se', lower=-1, upper=1) }} as lo11, {{ mean_ci_high('m', 'se', lower=-1, upper=1) }} as hi11,
    {{ mean_ci_low('m', 'se', lower=none, upper=none) }} as lo_free, {{ mean_ci_high('m', 'se', lower=none, upper=none) }} as hi_free
    from ci_cases order by id
/*@@mdd@@*/ select {% for a, p in combos %}{{ min_detectable_difference('se', alpha=a, power=p) }} as mdd_{{ loop.index0 }}{{ ', ' if not loop.last }}{% endfor %} from mdd_cases
/*@@corr@@*/ select g, {{ corr('x', 'y') }} as r from corr_cases group by g order by g
/*@@end@@*/
"""


@pytest.fixture(scope="session")
def compiled(tmp_path_factory) -> dict[str, str]:
    template = TEMPLATE.replace("combos", json.dumps([list(c) for c in MDD_COMBOS]))
    return compile_parts(template, tmp_path_factory.mktemp("stats_compile"))


def _run(sql: str, tables: dict[str, tuple[str, list[tuple]]]) -> list[tuple]:
    con = duckdb.connect()
    try:
        for name, (ddl, rows) in tables.items():
            con.execute(f"create table {name} ({ddl})")
            if rows:
                con.executemany(f"insert into {name} values ({', '.join('?' * len(rows[0]))})", rows)
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _close(got, want, rel=TOL):
    if want is None:
        return got is None
    return got is not None and (abs(got - want) <= TOL or abs(got - want) <= rel * abs(want))


def test_wilson_random_cases_match_oracle(compiled):
    rng = np.random.default_rng(20261130)
    cases = [(1, 2), (0, 0), (0, 10), (10, 10), (0, 1), (1, 1), (3, None)]
    for scale in (5, 50, 1_000, 100_000, 10_000_000):
        for _ in range(80):
            n = int(rng.integers(1, scale + 1))
            cases.append((int(rng.integers(0, n + 1)), n))
    rows = [(i, k, n) for i, (k, n) in enumerate(cases)]
    got = _run(compiled["wilson"], {"wilson_cases": ("id int, k bigint, n bigint", rows)})
    assert len(got) == len(rows)
    for (i, lo, hi), (_, k, n) in zip(got, rows):
        want_lo, want_hi = oracle.wilson(k, n)
        assert _close(lo, want_lo) and _close(hi, want_hi), (k, n, lo, hi, want_lo, want_hi)
    by_id = {i: (lo, hi) for i, lo, hi in got}
    assert round(by_id[0][0], 6) == 0.094531 and round(by_id[0][1], 6) == 0.905469  # hand-checked k=1, n=2
    assert by_id[1] == (None, None)  # n = 0: NULL, not an error
    assert by_id[6] == (None, None)  # n NULL
    assert by_id[2][0] == 0.0 and by_id[3][1] == 1.0  # all-fail low is 0, all-pass high is 1


def test_mcnemar_random_cases_match_binomtest(compiled):
    rng = np.random.default_rng(7)
    cases = [(0, 0), (1, 1), (1000, 1000), (0, 2000), (950, 1050), (900, 1100), (1, 0), (0, 1), (2999, 1)]
    for total in (5, 30, 200, 2000, 3000):
        for _ in range(40):
            b = int(rng.binomial(total, rng.uniform(0.3, 0.7)))
            cases.append((b, total - b))
    rows = [(i, b, c) for i, (b, c) in enumerate(cases)]
    got = _run(compiled["mcnemar"], {"mcnemar_cases": ("id int, b bigint, c bigint", rows)})
    assert len(got) == len(rows)
    for (i, p), (_, b, c) in zip(got, rows):
        want = oracle.mcnemar_p(b, c)
        assert _close(p, want, rel=1e-9), (b, c, p, want)
        if b == c:
            assert p == 1.0  # identical arms: exactly 1
    assert 0 <= min(p for _, p in got) and max(p for _, p in got) <= 1.0


def test_cluster_se_matches_two_pass_and_inspect_ai(compiled):
    rng = np.random.default_rng(42)
    cluster_rows, observations = [], {}
    for s in range(60):
        n_clusters = 1 if s == 0 else int(rng.integers(2, 40))
        p = rng.uniform(0, 1)
        obs = []
        for c in range(n_clusters):
            size = int(rng.integers(1, 11))
            if s == 1:  # all clusters have the same mean -> SE exactly 0
                vals = [1.0, 0.0] * size
            elif s % 2:
                vals = list(rng.binomial(1, p, size).astype(float))
            else:
                vals = list(rng.uniform(0, 1, size))
            obs.extend((c, v) for v in vals)
            cluster_rows.append((f"s{s:02d}", f"c{c}", float(sum(vals)), len(vals)))
        observations[f"s{s:02d}"] = obs
        if s % 5 == 2:  # rows that are not clusters of the mean: no observations / no sum
            cluster_rows += [(f"s{s:02d}", "empty0", 0.0, 0), (f"s{s:02d}", "nullsum", None, 3),
                             (f"s{s:02d}", "nulln", 1.0, None)]
    got = _run(compiled["cluster"], {"clusters": ("stratum varchar, cluster_id varchar, cluster_sum double, cluster_n bigint",
                                                  cluster_rows)})
    assert len(got) == 60
    for stratum, m, se, se_portable in got:
        rows = [r for r in cluster_rows if r[0] == stratum]
        want = oracle.cluster_se_two_pass([r[2] for r in rows], [r[3] for r in rows])
        obs = observations[stratum]
        want_inspect = oracle.cluster_se_inspect([v for _, v in obs], [c for c, _ in obs])
        assert _close(se, want) and _close(se, want_inspect), (stratum, se, want, want_inspect)
        assert _close(se_portable, want), (stratum, se_portable, want)
        if not any(r[1] in ("nullsum", "nulln") for r in rows):
            assert abs(m - np.mean([v for _, v in obs])) <= TOL
    by = {s: se for s, _, se, _ in got}
    assert by["s00"] is None  # single cluster
    assert by["s01"] == 0.0  # identical cluster means: exactly zero with the DuckDB two-pass


def test_cluster_se_with_one_observation_per_cluster_is_the_iid_standard_error(compiled):
    rng = np.random.default_rng(3)
    values = rng.uniform(0, 1, 200)
    rows = [("iid", f"c{i}", float(v), 1) for i, v in enumerate(values)]
    (_, _, se, _), = _run(compiled["cluster"], {"clusters": ("stratum varchar, cluster_id varchar, cluster_sum double, "
                                                             "cluster_n bigint", rows)})
    assert abs(se - np.std(values, ddof=1) / math.sqrt(len(values))) <= TOL


def test_mean_ci_clipping_and_nulls(compiled):
    rng = np.random.default_rng(11)
    cases = [(0.01, 0.1), (0.99, 0.1), (0.5, None), (None, 0.1), (-0.9, 0.2), (0.5, 0.0)]
    cases += [(float(rng.uniform(-1, 1)), float(rng.uniform(0, 0.5))) for _ in range(100)]
    rows = [(i, m, se) for i, (m, se) in enumerate(cases)]
    got = _run(compiled["ci"], {"ci_cases": ("id int, m double, se double", rows)})
    for (i, lo01, hi01, lo11, hi11, lo_free, hi_free), (_, m, se) in zip(got, rows):
        for (lo, hi), bounds in (((lo01, hi01), (0.0, 1.0)), ((lo11, hi11), (-1.0, 1.0)),
                                 ((lo_free, hi_free), (None, None))):
            want_lo, want_hi = oracle.mean_ci(m, se, *bounds)
            assert _close(lo, want_lo) and _close(hi, want_hi), (m, se, bounds, lo, hi, want_lo, want_hi)
    assert got[0][1] == 0.0 and got[1][2] == 1.0  # clipped to [0, 1]
    assert got[2][1:] == (None,) * 6 and got[3][1:] == (None,) * 6


def test_min_detectable_difference_matches_norm_ppf(compiled):
    ses = [0.0, 0.01, 0.1, 1.0, None]
    got = _run(compiled["mdd"], {"mdd_cases": ("se double", [(s,) for s in ses])})
    for row, se in zip(got, ses):
        for value, (alpha, power) in zip(row, MDD_COMBOS):
            want = oracle.mdd(se, alpha, power)
            assert _close(value, want, rel=1e-12), (se, alpha, power, value, want)
    # the documented default constants, to 1e-12
    assert abs(got[3][0] - (1.959963984540054 + 0.8416212335729143)) <= 1e-12


def test_corr_matches_numpy(compiled):
    rng = np.random.default_rng(5)
    rows = []
    for g in range(30):
        n = int(rng.integers(2, 50))
        x = rng.normal(size=n)
        y = 0.5 * x + rng.normal(size=n) * rng.uniform(0.1, 2)
        rows += [(f"g{g:02d}", float(a), float(b)) for a, b in zip(x, y)]
    rows += [("single", 1.0, 2.0), ("flat", 1.0, 3.0), ("flat", 2.0, 3.0)]
    got = _run(compiled["corr"], {"corr_cases": ("g varchar, x double, y double", rows)})
    for g, r in got:
        sel = [row for row in rows if row[0] == g]
        want = oracle.pearson([row[1] for row in sel], [row[2] for row in sel])
        assert _close(r, want), (g, r, want)
    assert dict(got)["single"] is None and dict(got)["flat"] is None


def test_generated_unit_tests_and_seeds_are_up_to_date():
    """integration_tests/models/stats/_stats__unit_tests.yml and its seeds are what the oracle generates."""
    assert oracle.UNIT_TEST_YML.read_text() == oracle.unit_test_yaml()
    for name, body in oracle.seed_csvs().items():
        assert (oracle.SEED_DIR / name).read_text() == body, name
    assert (0.094531206, 0.905468794) == tuple(round(x, 9) for x in oracle.wilson(1, 2))


def test_the_statistics_harness_is_not_in_users_warehouses():
    """The stats test models and seeds live in integration_tests/, not in the shipped dbt project."""
    from evalhouse.paths import PROJECT_DIR
    assert not (PROJECT_DIR / "models" / "intermediate" / "stats").exists()
    assert not (PROJECT_DIR / "seeds" / "stats").exists()
    assert (PROJECT_DIR / "integration_tests" / "models" / "stats" / "int_stats__wilson.sql").exists()


def test_stats_models_and_unit_tests_build(mart_db):
    """dbt build of the stats seeds/models (session build, conftest.py): every unit test passes, and the
    models agree with the oracle."""
    db, status, log = mart_db
    unit = {k: v for k, v in status.items() if k.startswith("unit_test.evalhouse_integration_tests.int_stats__")}
    assert len(unit) == len(oracle.unit_tests()) >= 16, log
    assert all(v[0] == "pass" for v in unit.values()), unit
    wilson = query(db, "select k, n, wilson_low, wilson_high from intermediate.int_stats__wilson")
    assert len(wilson) == sum(len(v) for v in oracle.WILSON.values())
    for k, n, lo, hi in wilson:
        want_lo, want_hi = oracle.wilson(k, n)
        assert _close(lo, want_lo) and _close(hi, want_hi)
    for b, c, p in query(db, "select b, c, mcnemar_p from intermediate.int_stats__mcnemar"):
        assert _close(p, oracle.mcnemar_p(b, c))
