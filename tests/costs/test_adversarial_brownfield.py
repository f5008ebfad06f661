"""Logs that break every field's type at once (fixtures/brownfield/adversarial: floats in integer fields, booleans
spelled as words or with spaces, a negative cost, a model named '', a stamp that is not a date, a repeated key,
NaN, foreign JSON, non-objects). Found by building held-out logs on both engines (scripts/spark_parity.py): the
build failed its own R12 and R25 tests. What the logs claim is a finding; what evalhouse computes must hold, so
the build passes, and the numbers stay admissible."""
from __future__ import annotations

import pytest

from helpers import FIXTURES, evalhouse_cli, query, status_after_planting

ADVERSARIAL = FIXTURES / "brownfield" / "adversarial"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("adversarial")
    db = tmp / "w.duckdb"
    evalhouse_cli(["load", "--db", str(db), "--create", str(FIXTURES / "brownfield" / "clean"), str(ADVERSARIAL)], tmp)
    proc = evalhouse_cli(["build", "--db", str(db), "--no-publish"], tmp, check=False)
    return db, proc


def test_the_build_passes_its_own_tests_on_adversarial_logs(built):
    db, proc = built
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert query(db, "select count(*) from marts.data_quality_findings where source_file like '%adversarial%'")[0][0] > 0


def test_a_negative_logged_cost_prices_nothing(built):
    db, _ = built
    rows = query(db, "select cost_basis, unpriced_reason, cost_usd_best, cost_usd_logged_raw from marts.fct_costs_repriced "
                     "where source_file like '%adversarial%' and cost_usd_logged_raw < 0")
    assert rows == [("unpriced", "invalid_logged_cost", None, -0.5)]
    assert query(db, "select count(*) from marts.fct_costs_repriced where cost_usd_best < 0")[0][0] == 0
    assert query(db, "select count(*) from marts.cost_quality_frontier where cost_usd_mean < 0")[0][0] == 0


def test_a_cost_total_of_unstamped_records_has_no_stamp_range(built):
    db, _ = built
    rows = query(db, "select t.n_records, t.first_stamp, t.last_stamp from marts.costs_repriced_totals as t "
                     "where not exists (select 1 from marts.fct_costs_repriced as c where c.source_family = t.source_family "
                     "and c.model is not distinct from t.model and c.stamp is not null)")
    assert rows and all(r[1] is None and r[2] is None for r in rows), rows


def test_floats_and_words_are_typed_as_duckdb_reads_them(built):
    db, _ = built
    got = dict(query(db, "select scenario_id, struct_pack(difficulty, calls, with_brain, with_plan)::varchar "
                         "from staging.stg_big__runs where source_file like '%adversarial%' and scenario_id in ('B8', 'B10')"))
    assert got == {"B8": "{'difficulty': 2, 'calls': 2, 'with_brain': true, 'with_plan': NULL}",
                   "B10": "{'difficulty': 2, 'calls': 1000, 'with_brain': true, 'with_plan': false}"}


def test_r12_fires_when_a_cost_total_with_stamped_records_loses_its_range(built, tmp_path):
    """R12's negative control for cost totals: only a total of unstamped records may lack a stamp range."""
    db, _ = built
    assert query(db, "select count(*) from marts.costs_repriced_totals where n_unstamped > 0 and n_unstamped < n_records "
                     "and first_stamp is not null")[0][0] > 0        # the plant below has rows to hit
    plant = ("update marts.costs_repriced_totals set first_stamp = null "
             "where n_unstamped > 0 and n_unstamped < n_records")
    assert status_after_planting(db, tmp_path, plant, "r12_rate_rows_have_stamp_range") == "fail"
    # and the exemption is exactly that: the totals of unstamped records alone pass with no range
    assert query(db, "select count(*) from marts.costs_repriced_totals where n_unstamped = n_records "
                     "and first_stamp is null")[0][0] > 0
