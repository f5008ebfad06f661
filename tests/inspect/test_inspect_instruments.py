"""Logs measured with different instruments are not compared (R35; fixtures/inspect_instruments, written by
inspect_ai): eight models' logs of one task, each unlike model-a's in one way: model-c graded by a lenient grader,
model-d's scorer with other arguments (match(location="end")), model-e 3 epochs not 2, model-f the task at version 1,
model-g with no grader bound (model_graded_qa grades with model-g itself), model-h one sample's target edited (the
version not bumped); model-b the same instrument as model-a.
Paired before R35, a lenient grader counted as model-c being better, and max over 3 epochs as model-e being better.
The oracle reads each log's JSON: the task version, the epochs, each scorer's arguments and the models called inside
its scorer spans (at any depth), and each sample's target."""
from __future__ import annotations

import itertools
from pathlib import Path

from helpers import FIXTURES, built_once, query, run_results, status_after_planting
from test_inspect_metrics import _members

LOGS = FIXTURES / "inspect_instruments"
SELECT = ["+inspect_model_pairs", "+int_dq__inspect_r35_instruments_differ", "+r35_inspect_pairs_share_an_instrument",
          "+r35_inspect_logs_measured_alike"]

built = built_once(LOGS, SELECT, "inspect_instruments")


def _instrument(path: Path) -> dict:
    """What the log says it measured with: per scorer its arguments and the models called in its spans."""
    members = _members(path)
    ev = members["header.json"]["eval"]
    called: dict[str, set[str]] = {}
    targets = {}
    for name, sample in members.items():
        if not name.startswith("samples/"):
            continue
        targets[sample["id"]] = sample["target"]
        spans = {e["id"]: e for e in sample["events"] if e["event"] == "span_begin"}

        def scorer_of(span_id):
            """The scorer whose span holds this one, however deep (None outside every scorer span)."""
            seen = set()
            while span_id in spans and span_id not in seen:
                seen.add(span_id)
                if spans[span_id].get("type") == "scorer":
                    return spans[span_id]["name"]
                span_id = spans[span_id].get("parent_id")
            return None
        for e in sample["events"]:
            if e["event"] == "model" and scorer_of(e["span_id"]):
                called.setdefault(scorer_of(e["span_id"]), set()).add(e["model"])
    return {"model": ev["model"], "version": ev["task_version"], "epochs": ev["config"]["epochs"], "targets": targets,
            "scorers": {s["name"]: (s["options"], frozenset(called.get(s["name"], ()))) for s in ev["scorers"]},
            "reducers": {(s["scorer"], s.get("reducer")) for s in members["header.json"]["results"]["scores"]}}


def _logs() -> dict[str, dict]:
    return {str(p): _instrument(p) for p in sorted(LOGS.glob("*.eval"))}


def _comparable(a: dict, b: dict, scorer: str, reducer: str) -> bool:
    return (a["version"] == b["version"] and a["targets"] == b["targets"] and a["scorers"][scorer] == b["scorers"][scorer]
            and (a["epochs"] == b["epochs"] or reducer == "mean" or reducer.startswith("pass_at_")))


def test_the_fixture_states_what_it_is_there_for():
    by_model = {log["model"]: log for log in _logs().values()}
    a = by_model["mockllm/model-a"]
    assert a == {**by_model["mockllm/model-b"], "model": a["model"]}           # model-b: the same instrument
    assert a["scorers"]["model_graded_qa"][1] == {"mockllm/strict"}
    assert by_model["mockllm/model-c"]["scorers"]["model_graded_qa"][1] == {"mockllm/lenient"}
    assert by_model["mockllm/model-d"]["scorers"]["match"][0] != a["scorers"]["match"][0]
    assert (by_model["mockllm/model-e"]["epochs"], a["epochs"]) == (3, 2)
    assert (by_model["mockllm/model-f"]["version"], a["version"]) == (1, 0)
    assert by_model["mockllm/model-g"]["scorers"]["model_graded_qa"][1] == {"mockllm/model-g"}   # graded by itself
    h = by_model["mockllm/model-h"]
    assert {k: v for k, v in h["targets"].items() if a["targets"][k] != v} == {"q4": "Berlin, Germany"}
    assert {k: v for k, v in h.items() if k not in ("model", "targets")} == {k: v for k, v in a.items() if k not in ("model", "targets")}


def test_only_logs_measured_with_the_same_instrument_are_compared(built):
    db, _ = built
    logs = _logs()
    expected = set()
    for (fa, a), (fb, b) in itertools.combinations(sorted(logs.items(), key=lambda kv: kv[1]["model"]), 2):
        for scorer, reducer in a["reducers"] & b["reducers"]:
            if _comparable(a, b, scorer, reducer):
                expected.add((a["model"], b["model"], scorer, reducer))
    got = {tuple(r) for r in query(db, "select model_a, model_b, scorer, reducer from marts.inspect_model_pairs")}
    assert got == expected
    # what R35 holds back: another grader, other scorer arguments, max over other epochs, another task version
    assert ("mockllm/model-a", "mockllm/model-b", "model_graded_qa", "mean") in got
    assert ("mockllm/model-a", "mockllm/model-c", "match", "mean") in got
    for held_back in [("mockllm/model-a", "mockllm/model-c", "model_graded_qa", "mean"),
                      ("mockllm/model-a", "mockllm/model-d", "match", "mean"),
                      ("mockllm/model-a", "mockllm/model-e", "match", "max"),
                      ("mockllm/model-a", "mockllm/model-f", "match", "mean"),
                      ("mockllm/model-a", "mockllm/model-g", "model_graded_qa", "mean"),
                      ("mockllm/model-a", "mockllm/model-h", "match", "mean")]:
        assert held_back not in got
    assert ("mockllm/model-a", "mockllm/model-e", "match", "pass_at_2") in got


def test_each_pair_of_logs_measured_differently_is_a_finding(built):
    db, tmp = built
    # the findings' test warns (what the logs claim), and the build goes on; the pairs' test passes
    results = run_results(tmp / "target")
    assert results["r35_inspect_logs_measured_alike"]["status"] == "warn"
    assert results["r35_inspect_pairs_share_an_instrument"]["status"] == "pass"
    logs = _logs()
    differing = set()
    for (fa, a), (fb, b) in itertools.combinations(logs.items(), 2):
        for scorer in a["scorers"].keys() & b["scorers"].keys():
            if (a["version"], a["epochs"], a["targets"], a["scorers"][scorer]) != (
                    b["version"], b["epochs"], b["targets"], b["scorers"][scorer]):
                differing.add((frozenset((fa, fb)), scorer))
    rows = query(db, "select source_file, detail from intermediate.int_dq__inspect_r35_instruments_differ")
    assert len(rows) == len(differing)
    found = set()
    for source_file, detail in rows:
        (other,) = [f for f in logs if f != source_file and f in detail]
        found.add((frozenset((source_file, other)), detail.split()[1]))
    assert found == differing
    graders = [d for _, d in rows if "called mockllm/lenient" in d or "called mockllm/strict" in d]
    assert graders and all("its scores are not compared" in d for d in graders)
    epochs_only = [d for _, d in rows if d.split("compared")[1].startswith("; epochs: 2 here, 3 there:")]
    assert epochs_only and all("only its mean and pass_at_k reducers are compared" in d for d in epochs_only)
    edited = [d for _, d in rows if "1 sample(s) of one id have another target there (first: q4)" in d]
    assert len(edited) == 2 * 7 and all("its scores are not compared" in d for d in edited)   # model-h vs each other


def test_r35_negative_control_logs_measured_alike_pass(tmp_path):
    """Two logs of model-a and model-b, the same instrument: no finding, and the warn test passes."""
    from helpers import load_and_build
    logs = tmp_path / "logs"
    logs.mkdir()
    by_model = {log["model"]: Path(f) for f, log in _logs().items()}
    for model in ("mockllm/model-a", "mockllm/model-b"):
        (logs / by_model[model].name).write_bytes(by_model[model].read_bytes())
    db = load_and_build(logs, tmp_path, SELECT)
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r35_instruments_differ") == [(0,)]
    assert run_results(tmp_path / "target")["r35_inspect_logs_measured_alike"]["status"] == "pass"
    assert len(query(db, "select * from marts.inspect_model_pairs")) == 6       # 2 scorers x 3 reducers


def test_r35_negative_control_a_pair_graded_by_two_graders_fails(built, tmp_path):
    """The build above ran R35 and passed (load_and_build fails on a failing test); a comparison of model-a with
    model-c's log on model_graded_qa (graded by another grader), planted beside model-a's with model-b, must make it
    fire."""
    db, _ = built
    by_model = {log["model"]: f for f, log in _logs().items()}
    plant = ("insert into marts.inspect_model_pairs select * replace ("
             f"'{by_model['mockllm/model-c']}' as source_file_b, 'mockllm/model-c' as model_b) "
             "from marts.inspect_model_pairs where model_a = 'mockllm/model-a' and model_b = 'mockllm/model-b' "
             "and scorer = 'model_graded_qa'")
    assert status_after_planting(db, tmp_path, plant, "r35_inspect_pairs_share_an_instrument") == "fail"
