"""R27 negative control: the logged-price audit. Matrix turns whose logged cost was computed from the
superseded deepseek-v4-pro row (a stale price table in the harness) are flagged record by record, naming
that row; turns whose logged cost matches the row in force produce no finding; a logged cost that
matches no row says so. Each through the real loader and dbt."""
from __future__ import annotations

import json

import pytest

from evalhouse.load import load_paths
from helpers import dbt, fresh_db, query, run_results

STALE = (1.74, 3.48, 0.0145)        # orange_2026-07-05_deepseek-v4-pro (superseded)
CURRENT = (0.435, 0.87, 0.003625)   # orange_2026-07-19_deepseek-v4-pro (in force in July)


def _turn(i, prices, prompt=40_000, completion=8_000, cached=10_000, stamp="2026-07-10T09:00:00+00:00"):
    inp, out, cache = prices
    cost = ((prompt - cached) * inp + cached * cache + completion * out) / 1e6
    return {"scenario_id": f"S{i}", "turn_index": 1, "rep": 0, "type": "coder", "check_kind": "exec",
            "check_passed": True, "check_note": "ok", "prompt_tokens": prompt, "completion_tokens": completion,
            "cached_tokens": cached, "cost_usd": round(cost, 8), "latency_s": 1.0, "difficulty": "easy",
            "stamp": stamp}


@pytest.fixture(scope="module")
def audit(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("r27")
    logs = tmp / "logs"
    logs.mkdir()
    (logs / "gpt-4.1-mini__deepseek-v4-pro.jsonl").write_text("\n".join(json.dumps(t) for t in (
        [_turn(i, STALE) for i in range(3)]
        + [_turn(i + 3, CURRENT) for i in range(4)]
        + [{**_turn(9, CURRENT), "cost_usd": 0.123456}])) + "\n")
    db = fresh_db(tmp / "w.duckdb")
    load_paths([logs], db=db)
    dbt(["build", "--select", "+int_dq__costs_r27_logged_cost_audit", "--exclude-resource-type", "unit_test"], db, tmp / "t",
        check=False)
    rows = query(db, "select source_file, source_line, detail from intermediate.int_dq__costs_r27_logged_cost_audit "
                     "order by source_line")
    return rows, run_results(tmp / "t")


@pytest.fixture(scope="module")
def findings(audit):
    return audit[0]


def test_r27_stale_price_table_is_flagged_record_by_record(findings):
    stale = [r for r in findings if "SUPERSEDED row orange_2026-07-05_deepseek-v4-pro" in r[2]]
    assert [r[1] for r in stale] == [1, 2, 3], findings
    assert all(r[0].endswith("gpt-4.1-mini__deepseek-v4-pro.jsonl") for r in stale)
    assert all("orange_2026-07-19_deepseek-v4-pro" in r[2] and "cost_usd_best" in r[2] for r in stale)


def test_r27_logged_costs_matching_the_card_produce_no_finding(findings):
    assert not [r for r in findings if r[1] in (4, 5, 6, 7)], findings


def test_r27_logged_cost_audit_findings_warns_and_the_build_goes_on(audit):
    r = audit[1]["r27_logged_cost_audit_findings"]
    assert r["status"] == "warn" and r["failures"] == 4, r


def test_r27_a_cost_matching_no_row_says_so(findings):
    other = [r for r in findings if r[1] == 8]
    assert len(other) == 1 and "matches no rate-card row" in other[0][2], findings
    assert len(findings) == 4
