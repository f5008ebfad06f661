"""`inspect score` copies (fixtures/inspect_rescore/, written by inspect_ai): a copy of model-a's log keeps its runs
(the same sample uuids, eval id and creation time). `append` keeps the log's scores and adds a scorer; `overwrite`
scores the same runs again under the same score name, with match(location="any"): another instrument than match(),
so its arm is compared with no other (R35). An arm that a copy repeats (the same runs, the same values) is one arm:
inspect_model_pairs compares it once, so the multiplicity family counts the tests really made. The expected
comparisons are worked out here from the log files, without the loader."""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from helpers import FIXTURES, load_and_build, query, status_after_planting
from test_inspect_metrics import _members

XDIST_GROUP = "inspect_rescore"      # its own xdist group: it builds its own warehouse (tests/conftest.py)
LOGS = FIXTURES / "inspect_rescore"
VALUE = {"C": 1.0, "I": 0.0}


def _samples(path) -> dict[str, dict]:
    return {s["id"]: s for name, s in _members(path).items() if name.startswith("samples/")}


def _arms(path) -> dict[str, dict[str, tuple[str, float]]]:
    """score name -> {sample id: (the run's uuid, its value)} (one epoch, so no reducer)."""
    arms: dict[str, dict] = {}
    for sid, s in _samples(path).items():
        for name, score in s["scores"].items():
            arms.setdefault(name, {})[sid] = (s["uuid"], VALUE[score["value"]])
    return arms


def _options(path) -> dict[str, dict]:
    """scorer name -> its arguments as the eval states them (an instrument of its own, R35)."""
    return {sc["name"]: sc["options"] for sc in _members(Path(path))["header.json"]["eval"]["scorers"]}


def _logs() -> list:
    """The logs in the order they were recorded: creation time, then file name (a copy keeps the time)."""
    return sorted(LOGS.glob("*.eval"), key=lambda p: (_members(p)["header.json"]["eval"]["created"], p.name))


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rescore")
    return load_and_build(LOGS, tmp, ["+inspect_model_pairs", "+fct_inspect_samples"])


def test_the_fixture_holds_both_kinds_of_copy():
    a = _arms(LOGS / "model-a.eval")
    append, overwrite = _arms(LOGS / "model-a.rescored-append.eval"), _arms(LOGS / "model-a.rescored-overwrite.eval")
    assert append["match"] == a["match"] and set(append) == {"match", "includes"}
    runs = {sid: run for sid, (run, _) in a["match"].items()}
    assert {sid: run for sid, (run, _) in overwrite["match"].items()} == runs      # the same runs ...
    assert overwrite["match"] != a["match"]                                       # ... scored to other values


def test_an_arm_a_copy_repeats_is_compared_once(db):
    kept: list[tuple[str, str, dict]] = []        # (log, score, arm), repeats of an earlier log's arm left out
    for log in _logs():
        for name, arm in _arms(log).items():
            if not any(n == name and a == arm for _, n, a in kept):
                kept.append((str(log), name, arm))
    want = {(x, y, name) for (x, name, arm_x), (y, name_y, arm_y) in combinations(kept, 2)
            if name == name_y and set(arm_x) == set(arm_y) and _options(x)[name] == _options(y)[name]}
    want = {(min(x, y), max(x, y), name) for x, y, name in want}       # the mart puts model_a's log first
    rows = query(db, "select source_file_a, source_file_b, score_name, family_size, value_mean_a, value_mean_b "
                     "from marts.inspect_model_pairs")
    assert {(a, b, s) for a, b, s, *_ in rows} == want
    # model-a vs model-b; the runs scored again by match(location="any") are another instrument (R35), and the
    # append copy's match arm repeats model-a's (R34)
    assert len(want) == 1
    overwrite = str(LOGS / "model-a.rescored-overwrite.eval")
    assert _options(overwrite)["match"] != _options(LOGS / "model-a.eval")["match"]
    assert not [r for r in rows if overwrite in r[:2]]
    assert all(size == len(want) for *_, size, _, _ in rows)
    means = {log: sum(v for _, v in arm.values()) / len(arm) for log, name, arm in kept if name == "match"}
    for a, b, _, _, mean_a, mean_b in rows:
        assert (mean_a, mean_b) == (pytest.approx(means[a]), pytest.approx(means[b]))


def test_a_copys_runs_are_costed_once(db):
    runs = {s["uuid"]: sum(u["total_tokens"] for u in s["model_usage"].values())
            for log in _logs() for s in _samples(log).values()}
    (total,) = query(db, "select sum(agent_total_tokens) from marts.fct_inspect_samples where not is_carried_over")
    assert total[0] == sum(runs.values()) and len(runs) == 12       # six samples, two models


def test_r34_negative_control_a_copys_arm_compared_again_fails(db, tmp_path):
    """The build above ran R34 and passed (load_and_build fails on a failing test); a comparison of model-b with
    the arm that the append copy repeats, planted beside the one with model-a's own, must make it fire."""
    plant = ("insert into marts.inspect_model_pairs select * replace ("
             "replace(source_file_a, '/model-a.eval', '/model-a.rescored-append.eval') as source_file_a) "
             "from marts.inspect_model_pairs where source_file_a like '%/model-a.eval' and source_file_b like '%/model-b.eval'")
    assert status_after_planting(db, tmp_path, plant, "r34_inspect_repeated_arms_compared_once") == "fail"
