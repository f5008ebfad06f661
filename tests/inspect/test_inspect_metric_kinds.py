"""The metrics and reducers no other fixture states (fixtures/inspect_metric_kinds, written by inspect_ai): std(),
var() and bootstrap_stderr() over C / P / I letters (P is partial credit, 0.5), a scorer whose values are booleans,
and 3 epochs reduced by mean, at_least_2 and max. Each stored metric evalhouse takes again must agree with the value
the samples give, computed from each epoch's score in Python (test_inspect_metrics' oracle, and `statistics` for std
and var); bootstrap_stderr resamples at random, so it is stated and never taken again (R28 does not judge it)."""
from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from helpers import FIXTURES, built_once, query, run_results
from test_inspect_metrics import SELECT, _members, oracle

LOGS = FIXTURES / "inspect_metric_kinds"
REDUCED_BY = ("mean", "at_least_2", "max")


built = built_once(LOGS, SELECT, "inspect_metric_kinds")


def _path() -> Path:
    (path,) = LOGS.glob("*.eval")
    return path


def _oracle() -> dict[tuple[str, str, str], float]:
    """(scorer, reducer, metric) -> its value over the samples, each reduced over its 3 epochs (test_inspect_metrics'
    oracle), and their sample standard deviation and variance."""
    out = {}
    for (_, scorer, reducer), o in oracle(_path()).items():
        values = o["values"]
        assert len(values) == 12
        out[(scorer, reducer, "accuracy" if scorer == "letters" else "mean")] = o["mean"]
        out[(scorer, reducer, "stderr")] = o["stderr"]
        out[(scorer, reducer, "std")] = statistics.stdev(values)
        out[(scorer, reducer, "var")] = statistics.variance(values)
    return out


def test_the_fixture_states_what_it_is_there_for():
    log = _members(_path())
    letters = [s["scores"]["letters"]["value"] for k, s in log.items() if k.startswith("samples/")]
    exact = [s["scores"]["exact"]["value"] for k, s in log.items() if k.startswith("samples/")]
    assert {"C", "P", "I"} <= set(letters) and set(map(type, exact)) == {bool}
    stored = {(s["name"], s["reducer"], m) for s in log["header.json"]["results"]["scores"] for m in s["metrics"]}
    assert {("letters", r, m) for r in REDUCED_BY for m in ("std", "var", "bootstrap_stderr")} <= stored
    want = _oracle()
    # the reducers give different values, so a reducer taken for another would show
    assert len({round(want[("letters", r, "accuracy")], 9) for r in REDUCED_BY}) == 3


def test_every_stored_metric_but_the_bootstrap_is_taken_again_and_agrees(built):
    db, tmp = built
    log = _members(_path())
    want = _oracle()
    stored = {(s["name"], s["reducer"], metric): m["value"] for s in log["header.json"]["results"]["scores"]
              for metric, m in s["metrics"].items()}
    rows = query(db, "select score_name, reducer, metric, value_stored, value_recomputed, is_recomputed "
                     "from marts.inspect_metrics")
    assert {r[:3] for r in rows} == set(stored)
    assert len(stored) == 3 * 5 + 3 * 2            # letters: 5 metrics, exact: 2, under each of 3 reducers
    for scorer, reducer, metric, value_stored, value_recomputed, is_recomputed in rows:
        key = (scorer, reducer, metric)
        assert value_stored == pytest.approx(stored[key], abs=1e-12), key
        if metric == "bootstrap_stderr":
            assert (is_recomputed, value_recomputed) == (False, None), key
        else:
            assert is_recomputed, key
            assert value_recomputed == pytest.approx(want[key], abs=1e-12), key
            assert value_stored == pytest.approx(value_recomputed, abs=1e-9), key
    assert run_results(tmp / "target")["r28_inspect_stored_metrics_agree"]["status"] == "pass"
