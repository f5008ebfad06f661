"""One bad record never stops a load (issue 14, 7): a lone surrogate in a KEY, in the first lines DuckDB's key
sampling reads or past them, lands repaired with a note, and the good lines of the same file land beside it."""
from __future__ import annotations

import json

import pytest

from lutil import errors, load, q, rows, write

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


def _alias_bomb(levels: int = 9) -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    names = "abcdefghijklmnop"
    for i in range(1, levels):
        ref = ", ".join([f"*{names[i - 1]}"] * 9)
        lines.append(f"{names[i]}: &{names[i]} [{ref}]")
    return "\n".join(lines) + "\n"


def test_a_yaml_alias_bomb_is_quarantined_fast_and_the_rest_lands(tmp_path):
    """Issue 14 (8): a ~450-byte judge YAML whose aliases expand to 9^9 values hung the load at about 2 GB.
    It is refused with a reason naming the file, in well under a second, and its neighbours land."""
    import time

    run = tmp_path / "runs" / "r1"
    write(run / "run.json", json.dumps({"run_id": "r1"}))
    write(run / "v" / "t" / "00" / "task.json", json.dumps({"task_id": "t"}))
    bomb = write(run / "v" / "t" / "00" / "judge-1.yaml", _alias_bomb())
    ok = write(run / "v" / "t" / "00" / "judge-2.yaml", "verdict: pass\nscore: 1\n")
    assert len(bomb.read_bytes()) < 600
    db = tmp_path / "w.duckdb"
    t0 = time.monotonic()
    s = load(tmp_path, db)
    assert time.monotonic() - t0 < 20
    assert s.records_landed == 3 and s.files_failed == 1
    (err,), = q(db, "SELECT error FROM raw.load_errors WHERE source_file = ?", [str(bomb)])
    assert "alias" in err and "judge-1.yaml" in err
    assert q(db, "SELECT count(*) FROM raw.ce_judge_docs WHERE source_file = ?", [str(ok)]) == [(1,)]


def test_yaml_aliases_of_a_reasonable_size_still_load(tmp_path):
    run = tmp_path / "runs" / "r1"
    write(run / "run.json", json.dumps({"run_id": "r1"}))
    write(run / "v" / "t" / "00" / "judge-1.yaml", _alias_bomb(levels=4))   # 9^4 = 6,561 values
    db = tmp_path / "w.duckdb"
    assert load(tmp_path, db).records_landed == 2


def test_out_of_memory_names_the_setting_and_writes_nothing(tmp_path):
    """Issue 14 (10): a line under the record limit but too large for a memory limit set too low fails the
    load with a message that names EVALHOUSE_LOAD_MEMORY_LIMIT, never DuckDB's bare text, and nothing is
    written. (A line past the record limit is quarantined instead: the tests below.)"""
    from lutil import run_cli

    write(tmp_path / "logs_big" / "a.jsonl", json.dumps({"id": "x", "blob": "y" * 30_000_000}) + "\n")
    db = tmp_path / "w.duckdb"
    proc = run_cli(["load", str(tmp_path), "--db", str(db)], env_extra={"EVALHOUSE_LOAD_MEMORY_LIMIT": "20MB"})
    assert proc.returncode == 1
    assert "EVALHOUSE_LOAD_MEMORY_LIMIT" in proc.stderr and "Traceback" not in proc.stderr
    tables = q(db, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'raw'") if db.exists() else []
    assert ("big_lines",) not in tables or q(db, "SELECT count(*) FROM raw.big_lines") == [(0,)]


def test_a_folder_with_nothing_to_load_says_why(tmp_path):
    """Issue 14 (clear errors): an empty folder, or one whose files are all ignored, used to exit 0 in silence."""
    from lutil import run_cli

    write(tmp_path / "in" / "notes" / "readme.txt", "hello")
    write(tmp_path / "in" / "runs.jsonl", '{"id": "x"}\n')            # a log outside logs_big/, logs/, ...
    proc = run_cli(["load", str(tmp_path / "in"), "--db", str(tmp_path / "w.duckdb")])
    assert proc.returncode == 0
    assert "every file was ignored" in proc.stdout
    assert "readme.txt: not a file evalhouse loads" in proc.stdout and "runs.jsonl" in proc.stdout
    (tmp_path / "empty").mkdir()
    proc = run_cli(["load", str(tmp_path / "empty"), "--db", str(tmp_path / "w.duckdb")])
    assert proc.returncode == 0 and "no files under the given paths" in proc.stdout


@pytest.mark.parametrize("direct", ["1", "0"])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_a_line_past_the_record_limit_is_quarantined_and_the_rest_lands(tmp_path, monkeypatch, direct, where):
    """Issue 14 (10): one 100 MB line made the whole load fail out of memory. A line past the record limit
    ($EVALHOUSE_MAX_RECORD_BYTES; lowered here so the test is fast) is quarantined with a reason naming the
    setting; every other line lands, on the direct path and on the chunked one."""
    monkeypatch.setenv("EVALHOUSE_MAX_RECORD_BYTES", str(64 << 10))
    monkeypatch.setenv("EVALHOUSE_LOAD_DIRECT", direct)
    good = [json.dumps({"id": f"G{i}", "kind": "fix"}) for i in range(6)]
    huge = json.dumps({"id": "HUGE", "pad": "x" * (100 << 10)})
    at = {"first": 0, "middle": 3, "last": 6}[where]
    lines = good[:at] + [huge] + good[at:]
    f = write(tmp_path / "logs_big" / "a.jsonl", "\n".join(lines) + "\n")
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.records_landed == 6 and s.lines_quarantined == 1
    assert [json.loads(r[1])["id"] for r in rows(db)] == [f"G{i}" for i in range(6)]
    (line, err, text), = errors(db, f)
    assert line == at + 1 and "EVALHOUSE_MAX_RECORD_BYTES" in err and "record limit" in err
    assert text.startswith('{"id": "HUGE"') and len(text) <= 4096
    # unchanged file, same limit: nothing again
    assert load(tmp_path, db).records_landed == 0
    # a larger limit: the file lands again, whole, and the once-too-large line is now a record
    monkeypatch.setenv("EVALHOUSE_MAX_RECORD_BYTES", str(1 << 20))
    s = load(tmp_path, db)
    assert s.records_landed == 7 and s.files_replaced == 1
    assert sorted(json.loads(r[1])["id"] for r in rows(db)) == sorted([f"G{i}" for i in range(6)] + ["HUGE"])
    assert load(tmp_path, db).records_landed == 0          # and it does not land a third time


def test_an_appended_line_past_the_limit_is_quarantined_and_the_landed_lines_stay(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALHOUSE_MAX_RECORD_BYTES", str(64 << 10))
    f = write(tmp_path / "logs_big" / "a.jsonl", '{"id": "A"}\n')
    db = tmp_path / "w.duckdb"
    load(tmp_path, db)
    with open(f, "a") as fh:
        fh.write(json.dumps({"id": "HUGE", "pad": "y" * (80 << 10)}) + '\n{"id": "B"}\n')
    s = load(tmp_path, db)
    assert s.records_landed == 1 and s.lines_quarantined == 1
    assert [json.loads(r[1])["id"] for r in rows(db)] == ["A", "B"]
    assert errors(db, f)[0][0] == 2


def test_a_document_past_the_record_limit_is_quarantined_and_its_run_lands(tmp_path, monkeypatch):
    """Issue 14 (10): a 120 MB task.json. The document is refused with the setting named; the run lands."""
    monkeypatch.setenv("EVALHOUSE_MAX_RECORD_BYTES", str(64 << 10))
    run = tmp_path / "runs" / "r1"
    write(run / "run.json", json.dumps({"run_id": "r1"}))
    big = write(run / "v" / "t" / "00" / "task.json", json.dumps({"task_id": "t", "pad": "z" * (100 << 10)}))
    write(run / "v" / "t" / "01" / "task.json", json.dumps({"task_id": "t"}))
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.records_landed == 2 and s.files_failed == 1
    (line, err, _), = errors(db, big)
    assert line is None and "task.json" in err and "EVALHOUSE_MAX_RECORD_BYTES" in err
    monkeypatch.setenv("EVALHOUSE_MAX_RECORD_BYTES", str(1 << 20))
    assert load(tmp_path, db).records_landed == 1
    assert q(db, "SELECT count(*) FROM raw.ce_task_docs")[0][0] == 2


def test_a_40_mb_line_at_the_default_limits_is_quarantined_without_running_out_of_memory(tmp_path):
    """The defaults hold together: a line past the default 32 MiB limit is quarantined at the default 1 GB
    memory limit (before, a 100 MB line failed the whole load), and a 30 MB line under it lands."""
    f = write(tmp_path / "logs_big" / "a.jsonl",
              '{"id": "A"}\n' + json.dumps({"id": "BIG", "pad": "x" * (40 << 20)}) + "\n"
              + json.dumps({"id": "OK30", "pad": "x" * (30 << 20)}) + '\n{"id": "B"}\n')
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.records_landed == 3 and s.lines_quarantined == 1
    assert errors(db, f)[0][0] == 2
    assert q(db, "SELECT count(*) FROM raw.big_lines WHERE source_line = 3 AND length(record) > 30000000")[0][0] == 1


def test_a_record_limit_that_is_not_a_number_is_a_usage_error(tmp_path, monkeypatch):
    from evalhouse.load import UsageError
    monkeypatch.setenv("EVALHOUSE_MAX_RECORD_BYTES", "32MB")
    write(tmp_path / "logs_big" / "a.jsonl", '{"id": "A"}\n')
    with pytest.raises(UsageError, match="EVALHOUSE_MAX_RECORD_BYTES"):
        load(tmp_path, tmp_path / "w.duckdb")
    assert not (tmp_path / "w.duckdb").exists()
