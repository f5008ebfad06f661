"""A token count below 0 never prices a record: an inspect_ai log (the both_models .json fixture, its model renamed
to one on the rate card) in which one sample's input tokens are below 0. That record is unpriced with the reason
`invalid_token_counts`, the others are repriced as before, and no cost anywhere is below 0. Before, the negative
count was priced, and a cost below 0 came into the totals."""
from __future__ import annotations

import json

from helpers import FIXTURES, load_and_build, query

SRC = next((FIXTURES / "inspect" / "both_models").glob("*.json"))
MODEL = "mockllm/gpt-4.1-mini"          # on the rate card once the provider prefix is stripped


def test_a_negative_token_count_prices_nothing(tmp_path):
    log = json.loads(SRC.read_text())
    old = log["eval"]["model"]
    log["eval"]["model"] = MODEL
    for s in log["samples"]:
        if old in (s.get("model_usage") or {}):
            s["model_usage"][MODEL] = s["model_usage"].pop(old)
    bad = next(s for s in log["samples"] if s.get("model_usage", {}).get(MODEL))
    bad["model_usage"][MODEL]["input_tokens"] = -500
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "log.json").write_text(json.dumps(log))
    db = load_and_build(tmp_path / "logs", tmp_path, ["+fct_costs_repriced", "+costs_repriced_totals"])
    rows = query(db, "select record_key, cost_basis, unpriced_reason, cost_usd_best from marts.fct_costs_repriced "
                     "where model = 'gpt-4.1-mini'")
    negative = [r for r in rows if r[0].startswith(f"{tmp_path / 'logs' / 'log.json'}|{bad['id']}|{bad['epoch']}|")]
    assert [r[1:] for r in negative] == [("unpriced", "invalid_token_counts", None)]
    assert any(basis == "repriced" and cost > 0 for _, basis, _, cost in rows)
    assert query(db, "select count(*) from marts.fct_costs_repriced where cost_usd_best < 0 or cost_usd_repriced < 0") \
        == [(0,)]
    assert query(db, "select count(*) from marts.costs_repriced_totals where cost_usd_best_total < 0") == [(0,)]
