"""inspect_ai tokens and cost (issue 17): every token counted once per (log, spend kind, role, model), the grader's
spend never the evaluated model's (R33), input tokens by the version-dependent convention, repriced against the
rate card; the per-sample fact (fct_inspect_samples) agrees with the log files read here without the loader; the
inspect rules R31-R33 pass on the fixtures and fire on planted violations."""
from __future__ import annotations

import csv
import json
import math
import os
from pathlib import Path

import pytest

from helpers import FIXTURES, PROJECT_DIR, built_once, load_and_build, query, run_results, status_after_planting
from test_inspect_metrics import _members

XDIST_GROUP = "inspect_costs"      # its own xdist group: it builds its own warehouse (tests/conftest.py)
LOGS = FIXTURES / "inspect"
SELECT = ["+inspect_spend", "+fct_inspect_samples", "+inspect_metrics", "+inspect_model_pairs", "stg_inspect__messages",
          "stg_inspect__events",
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


built = built_once(LOGS, SELECT, "inspect_costs")


def _logs():
    return sorted(p for p in LOGS.rglob("*") if p.suffix in (".eval", ".json"))


def _samples():
    """(log path, sample member) for every sample member of every log."""
    for path in _logs():
        for name, s in _members(path).items():
            if name.startswith("samples/"):
                yield path, s


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
    db = load_and_build(logs, tmp_path, ["+inspect_spend"])
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
    for path, s in _samples():
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


def test_messages_and_events_are_typed_one_row_each(built):
    """Every message and every event of every sample member is one typed row; the model events' token usage adds
    up to what the sample's model_usage states (each call once, whoever made it)."""
    db, _ = built
    n = 0
    for path, s in _samples():
        key = [str(path), str(s["id"]), s["epoch"]]
        roles = [r for (r,) in query(db, "select role from staging.stg_inspect__messages where source_file = ? and "
                                         "sample_id = ? and epoch = ? order by message_index", key)]
        assert roles == [m["role"] for m in s["messages"]]
        kinds = [k for (k,) in query(db, "select event_kind from staging.stg_inspect__events where source_file = ? and "
                                         "sample_id = ? and epoch = ? order by event_index", key)]
        assert kinds == [e["event"] for e in s["events"]]
        (calls,) = query(db, "select coalesce(sum(total_tokens), 0) from staging.stg_inspect__events where "
                             "source_file = ? and sample_id = ? and epoch = ? and event_kind = 'model'", key)[0]
        stated = sum(u.get("total_tokens") or 0 for u in (s.get("model_usage") or {}).values())
        assert calls == stated, (path.name, s["id"], s["epoch"])
        n += 1
    assert n >= 60


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


# --- inspect_ai's own analysis functions as the reference ------------------------------------------------------
# fixtures/inspect_reference.json is what inspect_ai's evals_df / samples_df say of the fixture logs
# (scripts/inspect_reference.py, regenerated by `make inspect-fixtures`). `make inspect-check LOGS=dir` runs the
# same comparison on any folder of logs: it writes the reference with inspect_ai and points these tests at it.
REF_LOGS = Path(os.environ.get("EVALHOUSE_INSPECT_LOGS", LOGS))
REFERENCE = Path(os.environ.get("EVALHOUSE_INSPECT_REFERENCE", FIXTURES / "inspect_reference.json"))


@pytest.fixture(scope="module")
def reference_build(request, tmp_path_factory):
    if REF_LOGS.resolve() == LOGS.resolve():
        return request.getfixturevalue("built")[0]
    return load_and_build(REF_LOGS, tmp_path_factory.mktemp("inspect_reference"), SELECT)


def _reference_logs(db) -> list[tuple[str, dict]]:
    ref = json.loads(REFERENCE.read_text())
    files = [f for (f,) in query(db, "select distinct source_file from intermediate.int_inspect__logs")]
    out = []
    for rel, want in sorted(ref.items()):
        (path,) = [f for f in files if f.endswith("/" + rel)]
        out.append((path, want))
    return out


def test_metrics_equal_inspects_evals_df(reference_build):
    """Every score column evals_df reports for a log (score_<score>_<metric>, or score_<score>_<reducer>_<metric>
    when a score has several reducers) equals evalhouse's recomputation from the samples. A log that holds no sample
    record (written with log_samples=False: an R36 finding) has nothing to recompute from; its stored value is
    compared."""
    db = reference_build
    checked = 0
    sampleless = {f for (f,) in query(db, "select source_file from intermediate.int_inspect__logs "
                                          "where has_header and n_sample_epochs = 0")}
    for path, want in _reference_logs(db):
        ours: dict[str, list[float]] = {}
        column = "value_stored" if path in sampleless else "value_recomputed"
        for name, reducer, metric, value in query(db, f"select score_name, reducer, metric, {column} from "
                                                      "marts.inspect_metrics where source_file = ? and is_recomputed",
                                                  [path]):
            for key in (f"score_{name}_{metric}", f"score_{name}_{reducer}_{metric}"):
                ours.setdefault(key, []).append(value)
        for key, value in want["metrics"].items():
            if not key.endswith(("_accuracy", "_mean", "_stderr", "_std", "_var")):
                continue
            assert any(v is not None and math.isclose(v, value, rel_tol=1e-9, abs_tol=1e-12) for v in ours.get(key, [])), \
                (path, key, value, ours.get(key))
            checked += 1
    assert checked >= 40 or REF_LOGS != LOGS


def test_samples_equal_inspects_samples_df(reference_build):
    """Per (log, sample, epoch): error, limit and scores as samples_df reads them, and the tokens inspect counts
    for the sample (total_tokens over model_usage) equal evalhouse's spend rows summed, so no token is counted
    twice or lost (R33). samples_df reads sample summaries, which carried no usage before inspect_ai 0.3.184:
    where it reports 0 tokens and the sample member states usage, the tokens are not compared."""
    db = reference_build
    checked = tokens = 0
    for path, want in _reference_logs(db):
        for s in want["samples"]:
            rows = query(db, "select is_errored, limit_type, scores_json from marts.fct_inspect_samples where source_file = ? "
                             "and sample_id = ? and epoch = ?", [path, s["id"], s["epoch"]])
            assert len(rows) == 1, (path, s["id"], s["epoch"])
            errored, limit_type, scores_json = rows[0]
            assert errored == s["error"] and limit_type == s["limit"], (path, s)
            ours = json.loads(scores_json) if scores_json else {}
            for scorer, value in s["scores"].items():
                got = ours.get(scorer)
                if isinstance(value, str) and value.startswith("{"):
                    value = json.loads(value)
                assert got == value or (isinstance(got, float) and math.isclose(got, value)), (path, s["id"], scorer)
            (total,) = query(db, "select coalesce(sum(total_tokens), 0) from intermediate.int_inspect__sample_spend "
                                 "where source_file = ? and sample_id = ? and epoch = ?", [path, s["id"], s["epoch"]])[0]
            if s["total_tokens"] or not total:
                assert total == (s["total_tokens"] or 0), (path, s["id"], s["epoch"])
                tokens += 1
            checked += 1
    assert (checked >= 60 and tokens >= 50) or REF_LOGS != LOGS
