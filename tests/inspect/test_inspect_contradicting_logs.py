"""Logs that contradict themselves, made from the both_models fixture: the build goes on, and what is compared is
what the rules allow.

- A sample whose epochs state different targets (one record has none) is no one item: it is not paired, so the
  two logs are not compared (R30's identical sample sets), and the pair held back is an R35 finding. Pairing it by
  one of its targets broke R35's own test and stopped the build.
- Two copies of a log with the same runs, one with an epoch's scores gone (so that sample's value with its unscored
  epochs counted 0 differs, while reductions.json still states the same reduced values): an arm whose compared
  values differ is not a repeat, and each is compared (R34); R34's test judged repeats by the reduced value, called
  them one arm compared twice and stopped the build."""
from __future__ import annotations

import json
import shutil

from helpers import FIXTURES, load_and_build, query, run_results

SRC = FIXTURES / "inspect" / "both_models"
MODEL_A = next(SRC.glob("*.eval"))
MODEL_B = next(SRC.glob("*.json"))
SELECT = ["+inspect_model_pairs", "+int_dq__inspect_r35_instruments_differ", "+r34_inspect_repeated_arms_compared_once",
          "+r35_inspect_pairs_share_an_instrument"]


def _write_b(path, edit) -> None:
    log = json.loads(MODEL_B.read_text())
    edit(log["samples"])
    path.write_text(json.dumps(log))


def _sample(samples, sid, epoch) -> dict:
    (s,) = [s for s in samples if s["id"] == sid and s["epoch"] == epoch]
    return s


def test_a_sample_whose_epochs_disagree_on_its_target_is_not_paired(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copyfile(MODEL_A, logs / MODEL_A.name)
    _write_b(logs / "model-b.json", lambda samples: _sample(samples, 1, 1).pop("target"))
    db = load_and_build(logs, tmp_path, SELECT)
    results = run_results(tmp_path / "target")
    assert results["r35_inspect_pairs_share_an_instrument"]["status"] == "pass"
    assert query(db, "select count(*) from marts.inspect_model_pairs") == [(0,)]
    details = [d for (d,) in query(db, "select detail from intermediate.int_dq__inspect_r35_instruments_differ")]
    assert details and all("1 sample(s) of one id have another target there (first: 1)" in d for d in details)


def test_copies_whose_compared_values_differ_are_each_compared_once(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copyfile(MODEL_A, logs / MODEL_A.name)
    shutil.copyfile(MODEL_B, logs / "model-b.json")
    _write_b(logs / "model-b-copy.json", lambda samples: _sample(samples, 2, 1).update(scores={}))
    db = load_and_build(logs, tmp_path, SELECT)
    assert run_results(tmp_path / "target")["r34_inspect_repeated_arms_compared_once"]["status"] == "pass"
    got = {(a.rsplit("/", 1)[1], b.rsplit("/", 1)[1], scorer, reducer, diff)
           for a, b, scorer, reducer, diff in query(
               db, "select source_file_a, source_file_b, scorer, reducer, value_diff_mean from marts.inspect_model_pairs")}
    against_b = {(s, r): d for a, b, s, r, d in got if {a, b} == {MODEL_A.name, "model-b.json"}}
    against_copy = {(s, r): d for a, b, s, r, d in got if {a, b} == {MODEL_A.name, "model-b-copy.json"}}
    # an arm whose values the lost scores change is compared for both logs, with other results; one they leave alike
    # is a repeat, compared once (in the copy: the two share a creation time, and its name sorts first)
    both = set(against_b) & set(against_copy)
    assert ("match", "mean") in both and all(against_b[k] != against_copy[k] for k in both)
    assert set(against_b) <= set(against_copy)
