"""A scorer's grader is found however deep below its scorer span (R35; fixtures/inspect_deep_graders, written by
inspect_ai): two models' logs of one task scored by match() and by agent_judge(), a scorer with no arguments that
calls its grader two spans down (the scorer span, an `agent` span, a `tool` span, then the model call); model-a's
grader is mockllm/strict, model-b's mockllm/lenient. Read only one span down, neither judge called a model, the two
judges looked like one instrument, and the lenient grader counted as model-b being better.
The oracle is test_inspect_instruments' reading of each log's JSON, which follows a span's parents to any depth."""
from __future__ import annotations

from helpers import FIXTURES, built_once, query, run_results
from test_inspect_instruments import SELECT, _instrument
from test_inspect_metrics import _members

LOGS = FIXTURES / "inspect_deep_graders"
GRADERS = {"mockllm/strict", "mockllm/lenient"}

built = built_once(LOGS, SELECT, "inspect_deep_graders")


def _logs() -> dict[str, dict]:
    return {str(p): _instrument(p) for p in sorted(LOGS.glob("*.eval"))}


def test_the_fixture_states_what_it_is_there_for():
    by_model = {log["model"]: log for log in _logs().values()}
    a, b = by_model["mockllm/model-a"], by_model["mockllm/model-b"]
    assert a["scorers"]["agent_judge"] == ({}, frozenset({"mockllm/strict"}))
    assert b["scorers"]["agent_judge"] == ({}, frozenset({"mockllm/lenient"}))
    assert a["scorers"]["match"] == b["scorers"]["match"]
    assert {k: v for k, v in a.items() if k not in ("model", "scorers")} == \
        {k: v for k, v in b.items() if k not in ("model", "scorers")}
    # every grader call sits two spans below the judge's scorer span: one span down, the judge calls nothing
    n_calls = 0
    for path in LOGS.glob("*.eval"):
        for name, sample in _members(path).items():
            if not name.startswith("samples/"):
                continue
            spans = {e["id"]: e for e in sample["events"] if e["event"] == "span_begin"}
            for e in sample["events"]:
                if e["event"] == "model" and e["model"] in GRADERS:
                    tool = spans[e["span_id"]]
                    agent = spans[tool["parent_id"]]
                    judge = spans[agent["parent_id"]]
                    assert (tool["type"], agent["type"], judge["type"], judge["name"]) == \
                        ("tool", "agent", "scorer", "agent_judge")
                    n_calls += 1
    assert n_calls == 2 * 6


def test_each_scorer_reads_the_models_it_called_at_any_depth(built):
    db, _ = built
    expected = {(f, scorer, ", ".join(sorted(models)) or None)
                for f, log in _logs().items() for scorer, (_, models) in log["scorers"].items()}
    got = set(query(db, "select source_file, scorer, scorer_models from intermediate.int_inspect__scorer_instruments"))
    assert got == expected
    assert {m for _, s, m in got if s == "agent_judge"} == GRADERS


def test_only_the_match_scores_are_compared_and_the_judges_are_a_finding(built):
    db, tmp = built
    pairs = query(db, "select model_a, model_b, scorer from marts.inspect_model_pairs")
    assert pairs and {p[2] for p in pairs} == {"match"}
    assert {p[:2] for p in pairs} == {("mockllm/model-a", "mockllm/model-b")}
    rows = query(db, "select source_file, detail from intermediate.int_dq__inspect_r35_instruments_differ")
    assert len(rows) == 1
    (source_file, detail), = rows
    assert detail.split()[1] == "agent_judge" and "its scores are not compared" in detail
    assert "mockllm/lenient" in detail and "mockllm/strict" in detail
    assert [f for f in _logs() if f != source_file][0] in detail          # it names the other log
    results = run_results(tmp / "target")
    assert results["r35_inspect_logs_measured_alike"]["status"] == "warn"
    assert results["r35_inspect_pairs_share_an_instrument"]["status"] == "pass"
