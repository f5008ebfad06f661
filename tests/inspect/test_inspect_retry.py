"""A retried inspect_ai eval (fixtures/inspect_retry/, written by inspect_ai's eval_set): the retry's log carries the
failed log's finished samples over, the same runs under the same sample uuids. With both logs in the warehouse, each
run's tokens and cost are counted once, in the log where it ran; the carried-over rows say so and where from. The
expected numbers are read from the log files here, without the loader."""
from __future__ import annotations

import pytest

from helpers import FIXTURES, load_and_build, query
from test_inspect_metrics import _members

XDIST_GROUP = "inspect_retry"      # its own xdist group: it builds its own warehouse (tests/conftest.py)
LOGS = FIXTURES / "inspect_retry"
FAILED, RETRIED = LOGS / "failed.eval", LOGS / "retried.eval"


def _samples(path) -> dict[str, dict]:
    return {s["id"]: s for name, s in _members(path).items() if name.startswith("samples/")}


def _tokens(sample: dict) -> int:
    return sum(u.get("total_tokens") or 0 for u in (sample.get("model_usage") or {}).values())


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("retry")
    return load_and_build(LOGS, tmp, ["+inspect_spend", "+fct_inspect_samples", "+costs_repriced_totals"])


def test_the_fixture_is_a_retry_that_carries_samples_over():
    failed, retried = _samples(FAILED), _samples(RETRIED)
    carried = {i for i in failed if failed[i]["uuid"] == retried[i]["uuid"]}
    assert carried and carried < set(retried)          # some runs carried over, some run again
    assert all(_tokens(failed[i]) == _tokens(retried[i]) > 0 for i in carried)


def test_each_run_is_costed_once_where_it_ran(db):
    failed, retried = _samples(FAILED), _samples(RETRIED)
    runs = {s["uuid"]: _tokens(s) for s in [*failed.values(), *retried.values()]}     # one entry per run
    assert query(db, "select sum(total_tokens) from intermediate.int_costs__inspect as c "
                     "inner join intermediate.int_inspect__sample_spend as s on c.record_key = s.record_key") \
        == [(sum(runs.values()),)]
    (n_records,) = query(db, "select n_records from marts.costs_repriced_totals where source_family = 'inspect'")
    assert n_records[0] == sum(1 for t in runs.values() if t)
    # per log: the failed log's own runs; the retry's, only the run it made
    new = {i for i in retried if retried[i]["uuid"] != failed.get(i, {}).get("uuid")}
    got = dict(query(db, "select source_file, total_tokens from marts.inspect_spend where spend_kind = 'agent'"))
    assert got == {str(FAILED): sum(_tokens(s) for s in failed.values()),
                   str(RETRIED): sum(_tokens(retried[i]) for i in new)}


def test_carried_over_rows_say_so_and_keep_the_runs_cost(db):
    failed, retried = _samples(FAILED), _samples(RETRIED)
    rows = {(f, s): (c, frm, cost, tok) for f, s, c, frm, cost, tok in query(
        db, "select source_file, sample_id, is_carried_over, carried_over_from, agent_cost_usd, agent_total_tokens "
            "from marts.fct_inspect_samples")}
    for sid, s in retried.items():
        carried = s["uuid"] == failed[sid]["uuid"]
        is_carried, came_from, cost, tokens = rows[(str(RETRIED), sid)]
        assert (is_carried, came_from) == ((True, str(FAILED)) if carried else (False, None)), sid
        assert tokens == _tokens(s)
        if carried:                                     # the run's cost, as in the row of the log where it ran
            assert cost == rows[(str(FAILED), sid)][2] and cost > 0
    assert not any(c for (f, _), (c, *_) in rows.items() if f == str(FAILED))
    # summing the rows that are not carried over counts each run once
    (total,) = query(db, "select sum(agent_cost_usd) from marts.fct_inspect_samples where not is_carried_over")
    (quoted,) = query(db, "select cost_usd_best_total from marts.costs_repriced_totals where source_family = 'inspect'")
    assert total[0] == pytest.approx(quoted[0], rel=1e-12)
