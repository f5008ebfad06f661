"""A log written without its samples (fixtures/inspect_sampleless/, written by inspect_ai: model-a's log with
log_samples=False, model-b's with its samples). Such a log holds its header and no sample record, so evalhouse, which
reads spend, cost and its own metrics from the samples, has none of them for it: R36 makes that a finding with the
usage the header states, instead of a log whose spend silently is no row. The expected facts are read from the log
files here, without the loader."""
from __future__ import annotations

import json

from helpers import FIXTURES, built_once, query, run_results
from test_inspect_metrics import _members

LOGS = FIXTURES / "inspect_sampleless"
SELECT = ["+inspect_spend", "+inspect_metrics", "+int_dq__inspect_r36_samples_not_logged", "+data_quality_findings"]

built = built_once(LOGS, SELECT, "inspect_sampleless")


def _logs() -> dict[str, dict]:
    return {str(p): _members(p) for p in sorted(LOGS.glob("*.eval"))}


def _sampleless() -> str:
    (path,) = [p for p, m in _logs().items() if not any(n.startswith("samples/") for n in m)]
    return path


def test_the_fixture_has_one_log_without_samples_that_states_its_usage():
    logs = _logs()
    path = _sampleless()
    header = logs[path]["header.json"]
    assert header["eval"]["config"]["log_samples"] is False and header["status"] == "success"
    assert header["results"]["total_samples"] == 6 and header["stats"]["model_usage"]
    (other,) = set(logs) - {path}
    assert sum(n.startswith("samples/") for n in logs[other]) == 6


def test_r36_negative_control_a_log_without_its_samples_is_a_finding(built):
    db, tmp = built
    path = _sampleless()
    usage = _logs()[path]["header.json"]["stats"]["model_usage"]
    assert run_results(tmp / "target")["r36_inspect_logs_hold_their_samples"]["status"] == "warn"
    rows = query(db, "select source_file, detail from intermediate.int_dq__inspect_r36_samples_not_logged")
    assert [f for f, _ in rows] == [path]            # the log with its samples is no finding
    detail = rows[0][1]
    assert "log_samples=False" in detail and "6 samples run" in detail
    stated = json.loads(detail.split("stats.model_usage: ", 1)[1].split(") is in no", 1)[0])
    assert stated == usage
    assert query(db, "select count(*) from marts.data_quality_findings where rule_id = 'R36' and source_file = ?",
                 [path]) == [(1,)]


def test_only_the_log_with_its_samples_has_spend(built):
    db, _ = built
    path = _sampleless()
    spent = {f for (f,) in query(db, "select distinct source_file from marts.inspect_spend")}
    assert spent == set(_logs()) - {path}
