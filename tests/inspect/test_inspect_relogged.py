"""A sample logged twice in one .eval archive (fixtures/inspect_relogged/, written by inspect_ai's eval_set): the
first attempt errors, the retry attempt seeds the same log file and appends each re-run sample's new record under the
same member name. inspect_ai reads the last entry of a name; so must evalhouse, or each re-run sample is two rows,
the build stops on the members' grain test, and its errored record counts against the model. The expected numbers
are read from the log here, without the loader: the last entry of each name, and the metrics inspect_ai stored."""
from __future__ import annotations

import zipfile

import pytest

from helpers import FIXTURES, built_once, query
from test_inspect_metrics import _entries, _members

LOG = FIXTURES / "inspect_relogged" / "relogged.eval"
SELECT = ["+fct_inspect_samples", "+inspect_metrics"]

built = built_once(LOG.parent, SELECT, "inspect_relogged")


def _names() -> list[str]:
    return [i.filename for i in zipfile.ZipFile(LOG).infolist()]


def _entries_of(name: str) -> list[dict]:
    """Every entry of `name` in the archive, in the order the archive lists them."""
    return [doc for n, doc in _entries(LOG) if n == name]


def test_the_fixture_logs_samples_twice_and_the_last_record_is_the_run_that_counts():
    names = _names()
    twice = {n for n in names if names.count(n) > 1}
    assert twice and all(n.startswith("samples/") for n in twice)
    for name in twice:
        first, last = _entries_of(name)
        assert first["error"] and not last.get("error") and last["scores"]       # errored, then run again and scored
        assert first["uuid"] != last["uuid"]
    header = _members(LOG)["header.json"]
    samples = {n for n in names if n.startswith("samples/")}
    assert header["status"] == "success" and header["results"]["total_samples"] == len(samples)


def test_each_member_lands_once_as_its_last_entry(built):
    db, _ = built
    names = _names()
    rows = query(db, "select member, json_extract_string(document, '$.uuid') from raw.inspect_members "
                     "where member_kind = 'sample'")
    samples = {n for n in names if n.startswith("samples/")}
    got = dict(rows)
    assert len(rows) == len(samples) and set(got) == samples
    assert {n: got[n] for n in samples if names.count(n) > 1} == \
        {n: _entries_of(n)[-1]["uuid"] for n in samples if names.count(n) > 1}


def test_the_samples_and_metrics_are_inspect_ais_reading(built):
    db, _ = built
    results = _members(LOG)["header.json"]["results"]
    assert query(db, "select count(*), count(*) filter (where is_errored) from marts.fct_inspect_samples") == \
        [(results["total_samples"], 0)]
    stored = {k: m["value"] for k, m in results["scores"][0]["metrics"].items()}
    rows = query(db, "select metric, value_stored, value_recomputed from marts.inspect_metrics where group_name is null")
    assert {m: s for m, s, _ in rows} == pytest.approx(stored)
    assert {m: r for m, _, r in rows} == pytest.approx(stored)
