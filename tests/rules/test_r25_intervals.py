"""R25 negative controls: every rate or mean in a mart carries its denominator and an interval at
the right unit (tests/dbt/r25_*.sql). Builds: tests/rules/conftest.py."""
from __future__ import annotations

import pytest
from rules_builds import R25_TESTS, load_rules_table

from helpers import query

rules_table = load_rules_table()

CATALOG, PER_ROW = R25_TESTS


def _status(results, name):
    assert name in results, f"{name} did not run; ran: {sorted(results)}"
    return results[name]


@pytest.mark.parametrize("name", R25_TESTS)
def test_r25_tests_pass_on_clean_build(rules_runs, name):
    r = _status(rules_runs["clean"][1], name)
    assert r["status"] == "pass", r


def test_r25_catalog_test_fires_on_planted_columns(rules_runs):
    _db, results, fails = rules_runs["tampered"]
    r = _status(results, CATALOG)
    assert r["status"] == "fail" and r["failures"] == 3, r
    got = {(t, c, p.split(" (")[0].split(":")[0]) for t, c, p in fails[CATALOG]}
    assert got == {
        ("r25_plant_no_interval", "pass_rate", "no interval columns"),
        ("r25_plant_no_denominator", "pass_rate", "no denominator column"),
        ("r25_plant_mean_without_se", "score_mean", "a mean whose interval has no standard error column"),
    }, got  # the stored-only column and the fct_ table are deliberately out of scope: no row for them


def test_r25_per_row_test_fires_on_planted_rows(rules_runs):
    _db, results, fails = rules_runs["tampered"]
    r = _status(results, PER_ROW)
    got = {(row[0], row[1], row[2]) for row in fails[PER_ROW]}
    assert got == {
        # a clustered rate whose interval went missing: the SE is known, and no reason is given
        ("matrix_pass_rates", "pass_rate", "clustered interval null while the standard error is known"),
        ("matrix_pass_rates", "pass_rate", "interval null without a reason in ci_reason"),
        ("coder_eval_variant_rates", "average_score", "standard error null with n_clusters >= 2"),
        ("big_rates", "change_mean", "interval does not contain the estimate"),
        ("big_ablation_pairs", "change_diff_mean", "clustered interval null while the standard error is known"),
        ("big_ablation_pairs", "change_diff_mean", "interval null without a reason in change_diff_ci_reason"),
        ("inspect_metrics", "value_recomputed", "interval does not contain the estimate"),
        # (no <stem>_se column: the check of an interval with no standard error, which its reason column exempts)
        ("inspect_metrics", "value_errors_as_incorrect", "wilson interval null on a row with an estimate (n > 0)"),
        # R25 revised: never zero-width around an estimate strictly inside its range
        ("coder_eval_variant_comparisons", "mean_difference", "zero-width interval around an estimate strictly inside its range"),
        ("coder_eval_pass_at_k", "pass_at_k", "zero-width interval around an estimate strictly inside its range"),
    }, got
    assert r["status"] == "fail" and r["failures"] == len(got), r


def test_r25_open_gaps_are_still_real(rules_runs):
    """With the open-gap list emptied, the catalog test fails on exactly the listed columns: each is
    a real gap (remove it from r25_open_gaps() once its owner adds the interval) and there is no other."""
    db, results, fails = rules_runs["strict"]
    gaps = rules_table.r25_open_gaps()
    r = _status(results, CATALOG)
    if not gaps:
        assert r["status"] == "pass", r
        return
    assert r["status"] == "fail", r
    got = {f"{t}.{c}" for t, c, _p in fails[CATALOG]}
    assert got == set(gaps), (sorted(got - set(gaps)), sorted(set(gaps) - got))
    # and each listed column exists in the clean build
    cols = {f"{t}.{c}" for t, c in query(db, "select table_name, column_name from information_schema.columns "
                                             "where table_schema = 'marts'")}
    assert set(gaps) <= cols
