"""An agentic eval (fixtures/inspect_agentic/, written by inspect_ai): two models' logs of a react() agent that calls
bash in inspect_ai's local sandbox and submits its answer, scored by includes() and by model_graded_fact(), whose
grader role is bound to mockllm/grader in both logs. The expected numbers are read from the logs' JSON here,
without the loader: each sample's scores and usage, the stored metrics, and the transcript's tool calls."""
from __future__ import annotations

import json

import pytest

from helpers import FIXTURES, built_once, query
from test_inspect_metrics import _members

LOGS = FIXTURES / "inspect_agentic"
SELECT = ["+fct_inspect_samples", "+inspect_spend", "+inspect_metrics", "+inspect_model_pairs", "+stg_inspect__events",
          "+int_dq__inspect_r28_stored_metric_disagrees", "+int_dq__inspect_r35_instruments_differ"]
VALUE = {"C": 1.0, "I": 0.0}

built = built_once(LOGS, SELECT, "inspect_agentic")


def _logs() -> dict[str, dict]:
    """Per log file: its header and its samples by id."""
    out = {}
    for path in sorted(LOGS.glob("*.eval")):
        members = _members(path)
        out[str(path)] = {"header": members["header.json"],
                          "samples": {s["id"]: s for n, s in members.items() if n.startswith("samples/")}}
    return out


def test_the_fixture_is_an_agent_that_runs_tools_in_a_sandbox_and_is_graded_by_a_role():
    for log in _logs().values():
        assert log["header"]["status"] == "success" and len(log["samples"]) == 6
        for s in log["samples"].values():
            tools = [e["function"] for e in s["events"] if e["event"] == "tool"]
            assert tools == ["bash", "submit"]
            assert any(e["event"] == "sandbox" for e in s["events"])
            assert set(s["role_usage"]) == {"grader"} and "mockllm/grader" in s["model_usage"]


def test_each_samples_scores_and_tool_calls_are_the_logs(built):
    db, _ = built
    got = {(f, sid): n for f, sid, n in query(
        db, "select source_file, sample_id, count(*) from staging.stg_inspect__events where event_kind = 'tool' "
            "group by all")}
    assert got == {(f, sid): 2 for f, log in _logs().items() for sid in log["samples"]}
    rows = query(db, "select source_file, sample_id, scores_json from marts.fct_inspect_samples")
    assert {(f, sid): json.loads(sj) for f, sid, sj in rows} == \
        {(f, sid): {k: v["value"] for k, v in s["scores"].items()} for f, log in _logs().items()
         for sid, s in log["samples"].items()}


def test_the_agents_and_the_graders_spend_are_apart_and_whole(built):
    db, _ = built
    got = {(f, kind, m): t for f, kind, m, t in query(
        db, "select source_file, spend_kind, model_raw, total_tokens from marts.inspect_spend")}
    want = {}
    for f, log in _logs().items():
        model = log["header"]["eval"]["model"]
        for s in log["samples"].values():
            agent = (f, "agent", model)
            judge = (f, "judge", "mockllm/grader")
            want[agent] = want.get(agent, 0) + s["model_usage"][model]["total_tokens"]
            want[judge] = want.get(judge, 0) + s["role_usage"]["grader"]["total_tokens"]
    assert got == want


def test_metrics_are_taken_again_and_both_scorers_are_compared(built):
    db, _ = built
    for f, log in _logs().items():
        stored = {(sc["name"], k): m["value"] for sc in log["header"]["results"]["scores"]
                  for k, m in sc["metrics"].items()}
        rows = query(db, "select score_name, metric, value_recomputed from marts.inspect_metrics where source_file = ?",
                     [f])
        assert {(n, m): v for n, m, v in rows} == pytest.approx(stored)
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r28_stored_metric_disagrees") == [(0,)]
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r35_instruments_differ") == [(0,)]
    by_model = {log["header"]["eval"]["model"]: log for log in _logs().values()}
    pairs = query(db, "select scorer, model_a, model_b, n_pairs, value_mean_a, value_mean_b from marts.inspect_model_pairs")
    assert {p[0] for p in pairs} == {"includes", "model_graded_fact"}
    for scorer, a, b, n, mean_a, mean_b in pairs:
        assert n == 6
        for model, mean in ((a, mean_a), (b, mean_b)):
            values = [VALUE[s["scores"][scorer]["value"]] for s in by_model[model]["samples"].values()]
            assert mean == pytest.approx(sum(values) / len(values))
