"""grouped() over sample metadata that is not a plain string (fixtures/inspect_group_keys, written by inspect_ai):
inspect_ai names each group str(value), so a list is "['a', 'b']", a dict "{'k': 1}" and a float 1e-07.
evalhouse must spell the name the same way (inspect_group_name) to take the group's metric again. Before, such a
group matched nothing. Its stored value had no recomputation and no interval, and R28 reported 11 stored groups
whose "samples give nothing". The oracle is Python's own str() of the metadata as the log stores it."""
from __future__ import annotations


import pytest

from helpers import FIXTURES, built_once, query, run_results
from test_inspect_metrics import SELECT, _members

LOGS = FIXTURES / "inspect_group_keys"


built = built_once(LOGS, [*SELECT, "stg_inspect__sample_metadata"], "inspect_group_keys")


def _log():
    (path,) = LOGS.glob("*.eval")
    return _members(path)


def test_group_names_are_python_str_of_the_metadata(built):
    db, _ = built
    want = {(str(s["id"]), s["epoch"], key): str(value)
            for name, s in _log().items() if name.startswith("samples/") for key, value in s["metadata"].items()}
    got = {(sid, epoch, key): name for sid, epoch, key, name in
           query(db, "select sample_id, epoch, metadata_key, metadata_str from staging.stg_inspect__sample_metadata")}
    assert len(want) == 6 * 2 * 12
    assert got == want
    # the kinds the fixture is there for, spelled as Python spells them
    names = set(got.values())
    assert {"['a', 'b']", "{'k': 1, 'z': 'x'}", "1e-07", "1e+20", "-0.0", "None", "True"} <= names
    assert {"[\"it's\", 'say \"hi\"']", "['both \\' and \"', 'back\\\\slash']", "['new\\nline\\ttab']"} <= names


def test_every_stored_group_is_taken_again_and_agrees(built):
    db, tmp = built
    stored = {(s["name"], entry): m["value"] for s in _log()["header.json"]["results"]["scores"]
              for entry, m in s["metrics"].items() if entry != "all"}
    assert len(stored) == 12 * 3 - 2          # 12 keys of 3 values each, but `maybe` (None, "x") and `flag` (True, False)
    rows = {(score, group): (v_stored, v_re) for score, group, v_stored, v_re in query(db, """
        select score_name, group_name, value_stored, value_recomputed from marts.inspect_metrics
        where group_name is not null""")}
    assert set(rows) == set(stored)
    for key, (v_stored, v_re) in rows.items():
        assert v_stored == pytest.approx(stored[key]) and v_re == pytest.approx(v_stored), key
    assert run_results(tmp / "target")["r28_inspect_stored_metrics_agree"]["status"] == "pass"
