"""Cost you can quote (issue 13), on the demo-built warehouse (the sample logs with their routes, stale
prices and unpriced models, plus the coder-eval fixtures with agentless, dialog and per-request runs).
Each figure is recomputed here independently from the typed facts and the rate-card CSV."""
from __future__ import annotations

import csv
import math
from collections import defaultdict
from datetime import datetime, time, timezone

import numpy as np
import pytest
from scipy import stats

from evalhouse.paths import PROJECT_DIR
from helpers import normalise_model, query

SEEDS = PROJECT_DIR / "seeds"


def _ts(s: str) -> datetime:
    return datetime.fromisoformat(s.replace(" ", "T").replace("+00", "+00:00"))


class Card:
    """The rate card read from its CSV, and the alias seed applied in Python (not through dbt)."""

    def __init__(self):
        with open(SEEDS / "rate_card.csv") as f:
            self.rows = list(csv.DictReader(f))
        self.by_id = {r["rate_id"]: r for r in self.rows}

    @staticmethod
    def normalise(raw: str) -> str:
        return normalise_model(raw)

    def in_force(self, model, at, superseded):
        out = []
        for r in self.rows:
            if r["model"] != model or bool(r["superseded_by"]) != superseded:
                continue
            if at < _ts(r["effective_from"]) or (r["effective_to"] and at >= _ts(r["effective_to"])):
                continue
            if r["tod_start_utc"]:
                t = at.astimezone(timezone.utc).time()
                end = time(23, 59, 59, 999999) if r["tod_end_utc"].startswith("24") else time.fromisoformat(r["tod_end_utc"])
                if not (time.fromisoformat(r["tod_start_utc"]) <= t < end or (r["tod_end_utc"].startswith("24") and t >= end)):
                    continue
            out.append(r)
        assert len(out) <= 1, (model, at, out)
        return out[0] if out else None


@pytest.fixture(scope="module")
def db(docs_build):
    return docs_build.db


@pytest.fixture(scope="module")
def card():
    return Card()


def test_best_known_big_bill_per_model_is_the_corrected_one(db, card):
    """Per model: logged x exact factor where the superseded row was in force, the logged cost where a
    current per-token row was, unknown otherwise; every record accounted for by one basis."""
    runs = query(db, "select model, stamp, cost_usd_logged from marts.fct_big_runs")
    expected = defaultdict(lambda: [0.0, 0, 0])  # total, n known, n unknown
    for model, stamp, logged in runs:
        sup = card.in_force(model, stamp, True) if stamp else None
        cur = card.in_force(model, stamp, False) if stamp else None
        e = expected[model]
        if logged is not None and sup is not None:
            fix = card.by_id[sup["superseded_by"]]
            e[0] += logged * float(fix["input_usd_per_mtok"]) / float(sup["input_usd_per_mtok"])
            e[1] += 1
        elif logged is not None and cur is not None and cur["billing"] == "per_token":
            e[0] += logged
            e[1] += 1
        else:
            e[2] += 1
    got = {r[0]: r[1:] for r in query(db, """
        select model, cost_usd_best_total, n_records, n_basis_repriced + n_basis_corrected + n_basis_logged_current
            + n_basis_actual + n_basis_estimate + n_basis_unpriced + n_basis_no_model_call, n_basis_unpriced,
            cost_best_complete, n_basis_corrected
        from marts.costs_repriced_totals where source_family = 'big'""")}
    assert set(got) == set(expected)
    for model, (total, n_known, n_unknown) in expected.items():
        best, n, n_by_basis, n_unpriced, complete, _ = got[model]
        assert n == n_by_basis == n_known + n_unknown, model
        assert n_unpriced == n_unknown and complete == (n_unknown == 0), model
        assert (best is None and n_known == 0) or best == pytest.approx(total, rel=1e-12), (model, best, total)
    # the demo plants the stale deepseek-v4-pro table: its bill is complete and below the logged sum
    pro = got["deepseek-v4-pro"]
    logged = sum(r[2] for r in runs if r[0] == "deepseek-v4-pro")
    assert pro[4] and pro[5] > 0 and pro[0] < logged


def test_unpriced_and_no_model_call_rows_carry_no_rate_row(db):
    rows = query(db, """select cost_basis, count(*), count(rate_row_date), count(best_rate_id), count(cost_usd_best),
                               min(cost_usd_best), max(cost_usd_best), bool_and(cost_best_complete), bool_or(cost_is_estimate)
                        from marts.fct_costs_repriced group by cost_basis""")
    by = {r[0]: r[1:] for r in rows}
    assert {"repriced", "corrected", "logged_current", "actual", "estimate", "unpriced", "no_model_call"} <= set(by)
    for basis, (n, n_date, n_rate, n_cost, lo, hi, complete, estimate) in by.items():
        if basis in ("unpriced", "no_model_call"):
            assert n_date == 0 and n_rate == 0, basis
        else:
            assert n_date == n and n_rate == n, basis
        assert n_cost == (0 if basis == "unpriced" else n), basis
        assert complete == (basis not in ("unpriced", "estimate")), basis
        assert bool(estimate) == (basis == "estimate"), basis
    assert by["no_model_call"][4:6] == (0.0, 0.0)


def test_agentless_replicates_are_a_known_zero(db):
    rows = query(db, """select r.agent_type, r.uncached_input_tokens, c.cost_basis, c.cost_usd_best, c.spend_kind
                        from marts.fct_coder_eval_replicates as r
                        inner join marts.fct_costs_repriced as c on c.record_key = r.replicate_key""")
    agentless = [r for r in rows if r[0] == "none"]
    assert agentless and all(r[2] == "no_model_call" and r[3] == 0.0 and r[4] == "agent" for r in agentless)
    # a replicate that spent tokens is never a no-model-call
    assert not [r for r in rows if r[1] is not None and r[2] == "no_model_call"]


def test_simulator_spend_is_repriced_from_its_tokens(db, card):
    rows = query(db, """select r.simulator_model, r.simulator_input_tokens, r.simulator_output_tokens, c.cost_usd_repriced,
                               c.best_rate_id, c.unit_key = r.replicate_key
                        from marts.fct_coder_eval_replicates as r
                        inner join marts.fct_costs_repriced as c on c.record_key = r.replicate_key || '|simulator'""")
    n_sim = query(db, "select count(*) from marts.fct_coder_eval_replicates where simulator_input_tokens is not null")[0][0]
    assert rows and len(rows) == n_sim
    for model, tin, tout, repriced, rate_id, same_unit in rows:
        rate = card.by_id[rate_id]
        assert rate["model"] == card.normalise(model) and same_unit
        want = (tin * float(rate["input_usd_per_mtok"]) + tout * float(rate["output_usd_per_mtok"])) / 1e6
        assert repriced == pytest.approx(want, rel=1e-12)


def test_every_model_column_is_the_normalised_key(db, card):
    cols = query(db, """select table_name from information_schema.columns
                        where table_schema = 'marts' and column_name = 'model'""")
    assert len(cols) >= 8
    for (table,) in cols:
        for (m,) in query(db, f"select distinct model from marts.{table} where model is not null"):
            assert card.normalise(m) == m, (table, m)


def test_big_rates_join_cost_on_model_counts_each_run_once(db):
    runs = query(db, "select count(*) from marts.fct_big_runs where kind in ('fix', 'refactor')")[0][0]
    joined = query(db, """select count(*), sum(b.n_runs), count(c.model), max(b.n_model_spellings)
                          from marts.big_rates as b
                          left join marts.costs_repriced_totals as c on c.source_family = 'big' and c.model = b.model""")
    n_rows = query(db, "select count(*) from marts.big_rates")[0][0]
    assert joined[0][:3] == (n_rows, runs, n_rows)  # no row lost, none duplicated, every run once
    assert joined[0][3] == 2  # the demo logs one model under two routes: they are one stratum


def test_with_plan_cost_effect_is_paired_on_best_known_costs(db):
    runs = query(db, """select r.kind, r.model, r.with_brain, r.with_plan, r.scenario_id, c.cost_usd_best, c.cost_best_complete
                        from marts.fct_big_runs as r
                        inner join marts.fct_costs_repriced as c on c.unit_key = r.run_key and c.source_family = 'big'
                        where r.with_brain is not null and r.with_plan is not null""")
    arms = defaultdict(list)
    for kind, model, brain, plan, scen, cost, complete in runs:
        arms[(kind, model, brain, scen, plan)].append(cost if complete else None)
    pairs = defaultdict(list)
    for (kind, model, brain, scen, plan), costs in arms.items():
        off = arms.get((kind, model, brain, scen, False))
        if plan and off and None not in costs and None not in off:
            pairs[(kind, model, brain)].append(sum(costs) / len(costs) - sum(off) / len(off))
    got = {r[:3]: r[3:] for r in query(db, """select kind, model, with_brain, n_cost_pairs, cost_diff_mean
                                              from marts.big_ablation_pairs where ablation = 'with_plan'""")}
    assert pairs and all(k in got for k in pairs)
    for key, ds in pairs.items():
        assert got[key][0] == len(ds) and got[key][1] == pytest.approx(sum(ds) / len(ds), rel=1e-9, abs=1e-15)
    assert all(v[0] == 0 and v[1] is None for k, v in got.items() if k not in pairs)


def _fieller(yc, xc):
    c = len(yc)
    y, x = sum(yc), sum(xc)
    if x <= 0 or c < 2:
        return None, None
    cov = np.cov(np.vstack([yc, xc]), ddof=1) * c
    t = stats.t.ppf(0.975, c - 1)
    a, b, cc = x * x - t * t * cov[1, 1], x * y - t * t * cov[0, 1], y * y - t * t * cov[0, 0]
    if a <= 0:
        return 0.0, None
    root = math.sqrt(max(0.0, b * b - a * cc))
    return max(0.0, (b - root) / a), (b + root) / a


def test_cost_quality_frontier_matches_its_units(db):
    units = query(db, """select source_family, stratum, arm, cluster_key, is_success, cost_usd_best, cost_known, n_estimates
                         from intermediate.int_costs__quality_units""")
    arms = defaultdict(list)
    for u in units:
        arms[u[:3]].append(u[3:])
    mart = {r[:3]: r[3:] for r in query(db, """
        select source_family, stratum, arm, n_units, n_graded, n_successes, success_rate, n_cost_known, cost_complete,
               cost_usd_mean, cost_per_success, cost_per_success_ci_low, cost_per_success_ci_high,
               success_rate_ci_low, success_rate_ci_high, cost_usd_mean_ci_low, cost_usd_mean_ci_high, is_dominated
        from marts.cost_quality_frontier""")}
    assert set(mart) == set(arms)  # one row per (family, stratum, arm): the grain
    assert {k[0] for k in mart} == {"big", "coder_eval", "matrix"}
    n_ratio = 0
    for key, us in arms.items():
        row = mart[key]
        graded = [u for u in us if u[1] is not None]
        known = [u for u in us if u[3]]
        assert row[:3] == (len(us), len(graded), sum(1 for u in graded if u[1]))
        assert row[4] == len(known) and row[5] == (len(known) == len(us) and sum(u[4] for u in us) == 0)
        if known:
            assert row[6] == pytest.approx(sum(u[2] for u in known) / len(known), rel=1e-12)
        both = [u for u in us if u[3] and u[1] is not None]
        ys, xs = defaultdict(float), defaultdict(float)
        for u in both:
            ys[u[0]] += u[2]
            xs[u[0]] += 1.0 if u[1] else 0.0
        succ = sum(xs.values())
        if succ > 0:
            assert row[7] == pytest.approx(sum(ys.values()) / succ, rel=1e-12)
            lo, hi = _fieller([ys[c] for c in ys], [xs[c] for c in ys])
            if lo is not None:
                n_ratio += 1
                assert row[8] == pytest.approx(lo, rel=1e-9, abs=1e-12)
                assert (row[9] is None and hi is None) or row[9] == pytest.approx(hi, rel=1e-9)
        else:
            assert row[7] is None
    assert n_ratio > 5
    # the dominance rule, re-derived from the mart's own intervals
    for key, row in mart.items():
        if not row[5] or row[10] is None:
            assert row[14] is None, key
            continue
        rivals = [o for k, o in mart.items() if k[:2] == key[:2] and k != key and o[5]]
        dominated = any(o[13] is not None and row[12] is not None and o[13] < row[12] and o[10] > row[11] for o in rivals)
        assert row[14] == dominated, key
