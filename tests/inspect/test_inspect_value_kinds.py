"""Score values that value_to_float reads in its less common ways (fixtures/inspect_value_kinds, written by inspect_ai):
text that is a number (" 0.5", "1E1"), text that is not ("maybe", "C ", "inf", "nan", "0x10", ""), yes / TRUE, numbers,
a boolean, and a list and a dict under plain metrics; 2 epochs reduced by mean and max. inspect_ai's metrics count a
value they cannot read as 0, so every sample is scored. Before evalhouse read them alike it left 5 of the 19 samples
out of the denominator and reported a false R28 disagreement on every metric. The oracle reads the samples in Python,
with value_to_float written out here."""
from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

from helpers import FIXTURES, built_once, query, run_results
from test_inspect_metrics import REDUCERS, SELECT, _members

LOGS = FIXTURES / "inspect_value_kinds"


built = built_once(LOGS, SELECT, "inspect_value_kinds")


def _path() -> Path:
    (path,) = LOGS.glob("*.eval")
    return path


def value_to_float(value) -> float:
    """inspect_ai's value_to_float(), as its docs state it: the letters, then numbers and booleans as they are, then
    text: yes / true 1, no / false 0, a finite number as that number; anything else 0 (a list, a dict, other text)."""
    letters = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}
    if isinstance(value, str) and value in letters:
        return letters[value]
    if isinstance(value, (bool, int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.lower()
        if text in ("yes", "true"):
            return 1.0
        if text in ("no", "false"):
            return 0.0
        try:
            number = float(text)
        except ValueError:
            return 0.0
        return number if math.isfinite(number) else 0.0
    return 0.0


def _reduced(value: list | dict | object, reducer: str) -> float:
    """A sample's value after the epoch reducer; a list or dict is reduced per element, and the metric reads it as 0."""
    return 0.0 if isinstance(value[0], (list, dict)) else REDUCERS[reducer]([value_to_float(v) for v in value])


def oracle() -> dict[tuple[str, str], float]:
    members = _members(_path())
    epochs: dict[str, list] = {}
    for key, sample in members.items():
        if key.startswith("samples/"):
            epochs.setdefault(sample["id"], []).append(sample["scores"]["kinds"]["value"])
    out = {}
    for reducer in ("mean", "max"):
        values = [_reduced(v, reducer) for v in epochs.values()]
        out[(reducer, "mean")] = out[(reducer, "accuracy")] = statistics.fmean(values)
        out[(reducer, "stderr")] = statistics.stdev(values) / math.sqrt(len(values))
    return out


def test_the_fixture_states_what_it_is_there_for():
    members = _members(_path())
    values = [s["scores"]["kinds"]["value"] for k, s in members.items() if k.startswith("samples/")]
    assert {type(v) for v in values} == {str, int, float, bool, list, dict}
    assert {"maybe", "inf", "nan", " 0.5", "1E1"} <= {v for v in values if isinstance(v, str)}
    stored = {(s["reducer"], m): x["value"] for s in members["header.json"]["results"]["scores"]
              for m, x in s["metrics"].items()}
    want = oracle()
    assert set(stored) == set(want)
    # the oracle gives inspect_ai's own numbers
    assert all(math.isclose(stored[k], want[k], rel_tol=1e-12) for k in want), (stored, want)


def test_every_sample_is_scored_and_every_metric_agrees_with_the_log(built):
    db, _ = built
    want = oracle()
    rows = query(db, "select reducer, metric, value_stored, value_recomputed, n_samples_scored, n_samples_attempted "
                     "from marts.inspect_metrics")
    assert len(rows) == len(want) == 6
    for reducer, metric, stored, recomputed, n_scored, n_attempted in rows:
        assert n_scored == n_attempted == 19, (reducer, metric)
        assert math.isclose(recomputed, want[(reducer, metric)], rel_tol=1e-9), (reducer, metric, recomputed)
        assert math.isclose(recomputed, stored, rel_tol=1e-9), (reducer, metric)
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r28_stored_metric_disagrees") == [(0,)]


def test_the_staged_values_read_as_value_to_float_reads_them(built):
    db, _ = built
    rows = query(db, "select value_json, value_float from staging.stg_inspect__sample_scores")
    assert len(rows) == 38
    for value_json, value_float in rows:
        value = json.loads(value_json)
        assert value_float == value_to_float(value), (value_json, value_float)


NONFINITE = FIXTURES / "inspect_nonfinite"

# the whole DAG under R25 (an error: what evalhouse computes must hold), which a score of inf once failed
built_nonfinite = built_once(NONFINITE, [*SELECT, "+r25_intervals_present_when_estimable"], "inspect_nonfinite")


def test_a_nonfinite_metric_the_samples_give_too_agrees(built_nonfinite):
    """Two models' scores of inf and NaN (fixtures/inspect_nonfinite): inspect_ai stores a mean of inf and a stderr of
    NaN, and the samples give the same, so R28 has nothing to report (a NaN on one side only still is a finding:
    test_inspect_metrics.py::test_r28_negative_control_a_nan_stored_metric_is_a_finding); the mean has no interval,
    and says why, and the build (R25 included) passes."""
    db, tmp = built_nonfinite
    logs = sorted(NONFINITE.glob("*.eval"))
    assert len(logs) == 2
    for path in logs:
        stored = {m: x["value"] for s in _members(path)["header.json"]["results"]["scores"]
                  for m, x in s["metrics"].items()}
        assert stored["mean"] == math.inf and math.isnan(stored["stderr"])
        rows = {m: rest for m, *rest in query(db, "select metric, value_recomputed, value_ci_low, value_ci_high, "
                                                  "value_ci_reason from marts.inspect_metrics where source_file = ?",
                                              [str(path)])}
        assert rows["mean"] == [math.inf, None, None, "the estimate is not finite"]
        assert math.isnan(rows["stderr"][0])
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r28_stored_metric_disagrees") == [(0,)]
    assert run_results(tmp / "target")["r25_intervals_present_when_estimable"]["status"] == "pass"
