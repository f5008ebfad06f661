"""One bad record never stops a load (issue 14, 7): a lone surrogate in a KEY, in the first lines DuckDB's key
sampling reads or past them, lands repaired with a note, and the good lines of the same file land beside it."""
from __future__ import annotations

import json

import pytest

from lutil import load, q, write

SURROGATE_KEY = '{"\\ud83d": 1, "id": "S1"}\n'


@pytest.mark.parametrize("before", [0, 5, 3000])
def test_a_lone_surrogate_in_a_key_is_repaired_and_the_file_lands(tmp_path, before):
    good = "".join(json.dumps({"id": f"G{i}", "kind": "fix"}) + "\n" for i in range(before))
    write(tmp_path / "logs_big" / "a.jsonl", good + SURROGATE_KEY + '{"id": "G-last"}\n')
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.records_landed == before + 2 and s.lines_quarantined == 0
    (rec, note), = q(db, "SELECT record, repaired FROM raw.big_lines WHERE source_line = ?", [before + 1])
    assert json.loads(rec) == {"\ufffd": 1, "id": "S1"} and "surrogate" in note and "(key)" in note


def test_a_lone_surrogate_key_in_a_coder_eval_document_lands_repaired(tmp_path):
    run = tmp_path / "runs" / "r1"
    write(run / "run.json", json.dumps({"run_id": "r1"}))
    write(run / "v" / "t" / "00" / "task.json", '{"\\ud83d": 1, "task_id": "t"}')
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.records_landed == 2
    (doc,), = q(db, "SELECT document FROM raw.ce_task_docs")
    assert json.loads(doc)["task_id"] == "t"
