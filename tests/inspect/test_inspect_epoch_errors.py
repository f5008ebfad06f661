"""Errored epochs within a sample (fixtures/inspect_epoch_errors, written by inspect_ai with fail_on_error=False):
inspect_ai reduces a sample over the epochs that were scored, so 2 correct epochs and 1 errored one read 1.0.
R29 counts an errored sample 0; evalhouse counts an errored epoch 0 too, by taking the reducer again over every
attempted epoch (mean, max, median, pass_at_k). The oracle below reads the log's sample members itself and reduces
every attempted epoch by hand; the old models (an errored epoch dropped) fail it. Two scorers: match (pass/fail)
and closeness (1.0 or 0.5, epochs that are not pass/fail)."""
from __future__ import annotations

import math
import statistics


from helpers import FIXTURES, built_once, query, run_results, status_after_planting
from test_inspect_metrics import SELECT, _members, _to_float

LOGS = FIXTURES / "inspect_epoch_errors"
REDUCERS = ("mean", "max", "median", "pass_at_2")
SCORERS = {"match": "accuracy", "closeness": "mean"}         # scorer -> its metric


def _epoch_values(path, scorer: str = "match") -> tuple[dict[str, int], dict[str, list[float]]]:
    """sample id -> epochs attempted (a record each, errored or not); sample id -> the scored epochs' values."""
    attempted: dict[str, int] = {}
    scored: dict[str, list[float]] = {}
    for key, s in _members(path).items():
        if key.startswith("samples/"):
            attempted[str(s["id"])] = attempted.get(str(s["id"]), 0) + 1
            sc = (s.get("scores") or {}).get(scorer)
            if sc is not None and _to_float(sc["value"]) is not None:
                scored.setdefault(str(s["id"]), []).append(_to_float(sc["value"]))
    return attempted, scored


def _pass_at_2(values: list[float], n: int) -> float:
    c = sum(v >= 1 for v in values)
    return 1 - math.comb(n - c, 2) / math.comb(n, 2)


def _reduce(reducer: str, values: list[float], n: int) -> float:
    """A sample's value over n epochs: `values` and the other n - len(values) counted 0."""
    every = values + [0.0] * (n - len(values))
    if reducer == "mean":
        return statistics.fmean(every)
    if reducer == "max":
        return max(every)
    if reducer == "median":
        return statistics.median(every)
    return _pass_at_2(values, n)


def _ambiguous(reducer: str, values: list[float], n: int) -> bool:
    """pass_at_2 at 1 over scored epochs that are not all pass/fail, with an epoch unscored: the threshold that
    counted a pass is not known, so evalhouse does not take it again."""
    return (reducer == "pass_at_2" and n > len(values) >= 2 and any(v not in (0, 1) for v in values)
            and _pass_at_2(values, len(values)) == 1)


def oracle(path, scorer: str = "match") -> dict:
    """reducer -> {the mean over samples with every unattempted-or-errored epoch 0 (None where a sample cannot be
    taken again), the same with only a whole errored sample 0 and its other epochs as inspect_ai reduced them (the
    old reading), epochs without a score}."""
    attempted, scored = _epoch_values(path, scorer)
    out = {}
    for reducer in REDUCERS:
        every = [_reduce(reducer, scored.get(i, []), n) for i, n in attempted.items()]
        ambiguous = any(_ambiguous(reducer, scored.get(i, []), n) for i, n in attempted.items())
        # inspect_ai's pass_at_2 below 2 scored epochs is NaN: unscored, then 0
        old = [_reduce(reducer, scored[i], len(scored[i])) if len(scored.get(i, [])) >= (2 if reducer == "pass_at_2" else 1)
               else 0.0 for i in attempted]
        out[reducer] = {"errors_as_incorrect": None if ambiguous else statistics.fmean(every),
                        "old": statistics.fmean(old),
                        "unscored_epochs": sum(n - len(scored.get(i, [])) for i, n in attempted.items())}
    return out


built = built_once(LOGS, SELECT, "inspect_epoch_errors")


def test_an_errored_epoch_counts_0_in_value_errors_as_incorrect(built):
    db, tmp = built
    logs = sorted(LOGS.glob("*.eval"))
    assert len(logs) == 2
    moved, ambiguous = set(), 0
    for path in logs:
        for scorer, metric in SCORERS.items():
            want = oracle(path, scorer)
            for reducer in REDUCERS:
                (row,) = query(db, "select value_stored, value_recomputed, value_errors_as_incorrect, n_epochs_unscored, "
                                   "value_errors_as_incorrect_ci_low, value_errors_as_incorrect_ci_high, "
                                   "value_errors_as_incorrect_ci_reason from marts.inspect_metrics "
                                   "where source_file = ? and scorer = ? and reducer = ? and metric = ?",
                               [str(path), scorer, reducer, metric])
                stored, recomputed, e, unscored, lo, hi, reason = row
                w = want[reducer]
                assert math.isclose(stored, recomputed, rel_tol=1e-9), (path.name, scorer, reducer)
                assert unscored == w["unscored_epochs"], (path.name, scorer, reducer)
                if w["errors_as_incorrect"] is None:
                    assert e is None and reason.startswith("epochs without a score under a reducer"), (scorer, reducer)
                    ambiguous += 1
                    continue
                assert math.isclose(e, w["errors_as_incorrect"], rel_tol=1e-9), (path.name, scorer, reducer, e, w)
                assert lo <= e <= hi and reason is None, (path.name, scorer, reducer, lo, e, hi, reason)
                if not math.isclose(w["errors_as_incorrect"], w["old"], rel_tol=1e-9):
                    moved.add((scorer, reducer))
    # model-a's values change once an errored epoch counts 0 (not only its all-errored sample), on both scorers;
    # closeness's pass_at_2 has a sample at 1 over epochs 1.0 and 0.5, with one errored (not taken again)
    assert {("match", "mean"), ("match", "pass_at_2"), ("closeness", "mean"), ("closeness", "median")} <= moved, moved
    assert ambiguous == 1
    res = run_results(tmp / "target")
    assert res["r29_inspect_errored_samples_counted"]["status"] == "pass"
    assert res["r28_inspect_stored_metrics_agree"]["status"] == "pass"


def test_a_nan_reduction_is_unscored_as_inspect_counts_it(built):
    """pass_at_2 over fewer than 2 scored epochs is NaN in the log: inspect_ai counts the sample unscored, and
    evalhouse's scored count and mean agree with the log's (no NaN mean)."""
    db, _ = built
    rows = query(db, "select scored_samples_stored, n_samples_scored, value_recomputed from marts.inspect_metrics "
                     "where reducer = 'pass_at_2' and metric = 'accuracy' order by source_file")
    assert {r[0] for r in rows} == {4, 6}
    assert all(stored == n and not math.isnan(v) for stored, n, v in rows), rows


def test_model_pairs_compare_with_errored_epochs_counted_0(built):
    db, _ = built
    by_model = {}
    for path in sorted(LOGS.glob("*.eval")):
        model = _members(path)["header.json"]["eval"]["model"]
        by_model[model] = oracle(path)
    for reducer in REDUCERS:
        (row,) = query(db, "select model_a, model_b, n_pairs, value_mean_a, value_mean_b from marts.inspect_model_pairs "
                           "where scorer = 'match' and reducer = ?", [reducer])
        model_a, model_b, n_pairs, a, b = row
        assert n_pairs == 6
        assert math.isclose(a, by_model[model_a][reducer]["errors_as_incorrect"], rel_tol=1e-9), (reducer, a)
        assert math.isclose(b, by_model[model_b][reducer]["errors_as_incorrect"], rel_tol=1e-9), (reducer, b)


def test_r29_negative_control_a_null_rate_without_its_reason_fails(built, tmp_path):
    assert status_after_planting(
        built[0], tmp_path, "update marts.inspect_metrics set value_errors_as_incorrect = null "
                            "where metric = 'accuracy' and reducer = 'mean' and n_epochs_unscored > 0",
        "r29_inspect_errored_samples_counted") == "fail"


def test_a_reducer_that_cannot_be_taken_again_is_null_with_its_reason(built):
    """mode over the scored epochs cannot be taken again with an errored epoch counted 0: model-a's rate is NULL
    and says why, model-b's (no epoch unscored) is its value; the mode is not compared between them."""
    db, tmp = built
    rows = dict((m, (u, e, r)) for m, u, e, r in query(
        db, "select model, n_epochs_unscored, value_errors_as_incorrect, value_errors_as_incorrect_ci_reason "
            "from marts.inspect_metrics where scorer = 'match' and reducer = 'mode' and metric = 'accuracy'"))
    unscored, e, reason = rows["model-a"]
    assert unscored == 8 and e is None and reason.startswith("epochs without a score under a reducer evalhouse cannot")
    unscored, e, reason = rows["model-b"]
    assert unscored == 0 and e is not None
    assert query(db, "select count(*) from marts.inspect_model_pairs where reducer = 'mode'") == [(0,)]
    assert run_results(tmp / "target")["r29_inspect_errored_samples_counted"]["status"] == "pass"
