"""inspect_ai tokens and cost (issue 17): every token counted once per (log, spend kind, role, model), the grader's
spend never the evaluated model's (R33), input tokens by the version-dependent convention, repriced against the
rate card; the per-sample fact (fct_inspect_samples) agrees with the log files read here without the loader; the
inspect rules R31-R33 pass on the fixtures and fire on planted violations."""
from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from evalhouse.cli import main
from helpers import FIXTURES, PROJECT_DIR, dbt, fresh_db, query, run_results, status_after_planting
from test_inspect_metrics import _members

LOGS = FIXTURES / "inspect"
SELECT = ["+inspect_spend", "+fct_inspect_samples", "+inspect_metrics", "+inspect_model_pairs",
          "r31_inspect_statuses_never_pooled", "r32_inspect_scores_and_reducers_never_pooled",
          "r33_inspect_grader_spend_never_the_models"]
BUCKETS = ("input_tokens", "output_tokens", "total_tokens", "input_tokens_cache_read")


def _rate(model: str) -> dict[str, float]:
    """The rate card's open-ended row for `model` (read from the seed, not restated here)."""
    with open(PROJECT_DIR / "seeds" / "rate_card.csv") as fh:
        rows = [r for r in csv.DictReader(fh) if r["model"] == model and not r["effective_to"] and not r["superseded_by"]]
    (row,) = rows
    return {k: float(row[f"{k}_usd_per_mtok"]) for k in ("input", "output", "cache_read", "cache_write")}


def spend_oracle(path: Path) -> dict[tuple[str, str | None, str], dict[str, int]]:
    """(spend kind, role, model) -> summed token buckets, from the sample members: a role's usage is its own; each
    model keeps its model_usage less the role_usage of roles bound to it; the log's model is the agent."""
    members = _members(path)
    head = members.get("header.json") or members["_journal/start.json"]
    log_model, roles = head["eval"]["model"], {r: c["model"] for r, c in (head["eval"].get("model_roles") or {}).items()}
    out: dict = {}

    def add(key, usage, sign=1):
        acc = out.setdefault(key, dict.fromkeys(BUCKETS, 0))
        for b in BUCKETS:
            acc[b] += sign * (usage.get(b) or 0)

    for name, s in members.items():
        if not name.startswith("samples/"):
            continue
        for model, usage in (s.get("model_usage") or {}).items():
            kind = "agent" if model == log_model else "unattributed"
            add((kind, None, model), usage)
        for role, usage in (s.get("role_usage") or {}).items():
            add(("judge" if role == "grader" else "role", role, roles[role]), usage)
            if roles[role] in (s.get("model_usage") or {}):
                add(("agent" if roles[role] == log_model else "unattributed", None, roles[role]), usage, -1)
    return {k: v for k, v in out.items() if any(v.values())}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("inspect_costs")
    db = fresh_db(tmp / "w.duckdb")
    assert main(["load", str(LOGS), "--db", str(db), "--quiet"]) == 0
    dbt(["build", "--select", *SELECT, "--indirect-selection", "cautious", "--exclude-resource-type", "unit_test"], db,
        tmp / "target")
    return db, tmp


def _logs():
    return sorted(p for p in LOGS.rglob("*") if p.suffix in (".eval", ".json"))


def test_tokens_per_spend_kind_match_an_oracle_and_none_is_counted_twice(built):
    db, tmp = built
    checked = 0
    for path in _logs():
        want = spend_oracle(path)
        got = {(k, r, m): dict(zip(BUCKETS, (i, o, t, c))) for k, r, m, i, o, t, c in query(
            db, "select s.spend_kind, s.role, s.model_raw, sum(p.input_tokens_stated), sum(p.output_tokens), "
                "sum(p.total_tokens), sum(p.cache_read_tokens_stated) from marts.inspect_spend as s "
                "inner join intermediate.int_inspect__sample_spend as p using (source_file, spend_kind, model_raw) "
                "where s.source_file = ? and s.role is not distinct from p.role group by all", [str(path)])}
        got = {k: {b: int(v or 0) for b, v in d.items()} for k, d in got.items()}
        assert got == want, path.name
        checked += 1
    assert checked >= 8
    res = run_results(tmp / "target")
    for rule in ("r31_inspect_statuses_never_pooled", "r32_inspect_scores_and_reducers_never_pooled",
                 "r33_inspect_grader_spend_never_the_models"):
        assert res[rule]["status"] == "pass", rule


def test_a_grader_on_the_evaluated_model_is_split_out_and_both_are_repriced(built):
    """features/: mockllm/gpt-4.1-mini grades itself. model_usage merges the two; the agent row is model_usage
    less role_usage, the judge row is the role's, and each is priced at the gpt-4.1-mini row of the rate card."""
    db, _ = built
    path = next((LOGS / "features").glob("*.eval"))
    header = _members(path)["header.json"]
    merged = header["stats"]["model_usage"]["mockllm/gpt-4.1-mini"]
    grader = header["stats"]["role_usage"]["grader"]
    rows = {k: (u, cr, cw, o, t, c, n) for k, u, cr, cw, o, t, c, n in query(
        db, "select spend_kind, uncached_input_tokens, cache_read_tokens, cache_write_tokens, output_tokens, total_tokens, "
            "cost_usd, n_unpriced from marts.inspect_spend where source_file = ?", [str(path)])}
    assert set(rows) == {"agent", "judge"}
    assert rows["agent"][0] + rows["judge"][0] == merged["input_tokens"]
    assert rows["judge"][0] == grader["input_tokens"] and rows["judge"][4] == grader["total_tokens"]
    rate = _rate("gpt-4.1-mini")
    for kind, (u, cr, cw, o, _t, cost, n_unpriced) in rows.items():
        assert n_unpriced == 0 and cw == 0                     # total_tokens pins the omitted cache-write bucket at 0
        want = (u * rate["input"] + cr * rate["cache_read"] + o * rate["output"]) / 1e6
        assert math.isclose(cost, want, rel_tol=1e-12), kind
    # the per-sample fact carries the same split, sample by sample
    (agent, judge, complete) = query(db, "select sum(agent_cost_usd), sum(judge_cost_usd), bool_and(cost_complete) "
                                         "from marts.fct_inspect_samples where source_file = ?", [str(path)])[0]
    assert complete and math.isclose(agent, rows["agent"][5], rel_tol=1e-12)
    assert math.isclose(judge, rows["judge"][5], rel_tol=1e-12)


@pytest.mark.parametrize("version, includes", [("0.3.150", True), ("0.3.184", False)])
def test_old_versions_counted_cache_reads_in_input_tokens(tmp_path, version, includes):
    """Before inspect_ai 0.3.184 an OpenAI-path provider's input_tokens included the cache reads it also stated:
    the same log, stamped 0.3.150 and renamed to openai/gpt-4.1-mini, has its cache reads subtracted before
    pricing (and not when stamped 0.3.184)."""
    src = next((LOGS / "both_models").glob("*.json"))
    text = src.read_text().replace("mockllm/model-b", "openai/gpt-4.1-mini")
    obj = json.loads(text)
    obj["eval"]["packages"]["inspect_ai"] = version
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "old.json").write_text(json.dumps(obj))
    db = fresh_db(tmp_path / "w.duckdb")
    assert main(["load", str(logs), "--db", str(db), "--quiet"]) == 0
    dbt(["build", "--select", "+inspect_spend", "--indirect-selection", "cautious", "--exclude-resource-type", "unit_test"],
        db, tmp_path / "target")
    stated = obj["stats"]["model_usage"]["openai/gpt-4.1-mini"]
    (flag, u, cr, o, cost) = query(db, "select input_includes_cache_read, uncached_input_tokens, cache_read_tokens, "
                                       "output_tokens, cost_usd_priced from marts.inspect_spend where spend_kind = 'agent'")[0]
    assert flag is includes and cr == stated["input_tokens_cache_read"] and o == stated["output_tokens"]
    assert u == stated["input_tokens"] - (stated["input_tokens_cache_read"] if includes else 0)
    rate = _rate("gpt-4.1-mini")
    if not includes:      # the 0.3.184 log prices every bucket (total_tokens pins cache writes at 0)
        assert math.isclose(cost, (u * rate["input"] + cr * rate["cache_read"] + o * rate["output"]) / 1e6, rel_tol=1e-12)


def test_the_sample_fact_matches_the_log_files(built):
    """One row per (log, sample, epoch) with its scores, error and limit as the sample member states them."""
    db, _ = built
    n = 0
    for path in _logs():
        for name, s in _members(path).items():
            if not name.startswith("samples/"):
                continue
            (errored, limited, limit_type, scores) = query(
                db, "select is_errored, is_limited, limit_type, scores_json from marts.fct_inspect_samples "
                    "where source_file = ? and sample_id = ? and epoch = ?", [str(path), str(s["id"]), s["epoch"]])[0]
            assert errored == (s.get("error") is not None) and limited == (s.get("limit") is not None)
            assert limit_type == (s.get("limit") or {}).get("type")
            want = {k: v["value"] for k, v in (s.get("scores") or {}).items()}
            assert (json.loads(scores) if scores else {}) == want
            n += 1
    assert n >= 60
    assert query(db, "select count(*) from marts.fct_inspect_samples where is_limited") >= [(4,)]


def test_r31_negative_control_a_killed_run_relabelled_success_fails(built, tmp_path):
    assert status_after_planting(
        built[0], tmp_path, "update marts.inspect_spend set status = 'success' where status = 'started'",
        "r31_inspect_statuses_never_pooled") == "fail"


def test_r32_negative_control_two_scorers_pooled_into_one_row_fails(built, tmp_path):
    assert status_after_planting(
        built[0], tmp_path, "update marts.inspect_metrics set score_name = 'match+includes', scorer = 'match+includes' "
                            "where scorer = 'match'", "r32_inspect_scores_and_reducers_never_pooled") == "fail"


def test_r33_negative_control_grader_spend_counted_as_the_models_fails(built, tmp_path):
    """Plant the double count R33 exists for: the agent row of the self-graded log also carries the grader's
    tokens (model_usage taken as is, without subtracting role_usage)."""
    assert status_after_planting(
        built[0], tmp_path,
        "update marts.inspect_spend as a set total_tokens = a.total_tokens + j.total_tokens, "
        "output_tokens = a.output_tokens + j.output_tokens from marts.inspect_spend as j "
        "where a.source_file = j.source_file and a.spend_kind = 'agent' and j.spend_kind = 'judge' "
        "and a.model_raw = j.model_raw", "r33_inspect_grader_spend_never_the_models") == "fail"
    assert status_after_planting(
        built[0], tmp_path, "update marts.inspect_spend set spend_kind = 'agent' where role = 'grader'",
        "r33_inspect_grader_spend_never_the_models") == "fail"
