"""Exactly once (issue 2 "Done when"): reload lands 0, appends land alone, copies are duplicates,
rewrites are replaced as a unit; discovery and coder-eval path parsing on the real corpus layout."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import duckdb
import pytest

from evalhouse.paths import FIXTURES_DIR
from evalhouse.loader import prepass as P
from lutil import errors, load, q, rows, run_cli, total_raw_rows, write


def _lines(n, start=0, tag="x"):
    return "".join(json.dumps({"i": i, "tag": tag}) + "\n" for i in range(start, start + n))


@pytest.fixture
def logs(tmp_path):
    write(tmp_path / "logs_big" / "runs.jsonl", _lines(10))
    write(tmp_path / "logs" / "deepseek__qwen.jsonl", _lines(4))
    write(tmp_path / "logs_layered" / "l.jsonl", _lines(3))
    write(tmp_path / "logs_big" / "README.md", "not a log")
    return tmp_path


def test_loading_a_directory_twice_lands_zero_the_second_time(logs):
    db = logs / "w.duckdb"
    s1 = load(logs, db)
    assert (s1.records_landed, s1.files_loaded, s1.files_ignored) == (17, 3, 1)
    assert [q(db, f"SELECT count(*) FROM raw.{t}")[0][0] for t in ("big_lines", "matrix_lines", "layered_lines")] \
        == [10, 4, 3]
    s2 = load(logs, db)
    assert (s2.records_landed, s2.files_loaded, s2.files_unchanged) == (0, 0, 3)
    assert total_raw_rows(db) == 17
    assert q(db, "SELECT records_landed, files_unchanged FROM raw.loads ORDER BY started_at") == [(17, 0), (0, 3)]


def test_unchanged_file_is_skipped_without_reading_it(logs, monkeypatch):
    db = logs / "w.duckdb"
    old = time.time() - 3600
    for p in logs.rglob("*.jsonl"):
        os.utime(p, (old, old))          # not "racy": written long before the load registered it
    load(logs, db)

    def boom(path):
        raise AssertionError(f"read {path}")
    monkeypatch.setattr(P, "read_file", boom)
    assert load(logs, db).files_unchanged == 3


def test_appending_three_lines_lands_exactly_three(logs):
    db = logs / "w.duckdb"
    load(logs, db)
    path = logs / "logs_big" / "runs.jsonl"
    with open(path, "a") as fh:
        fh.write(_lines(3, start=10))
    s = load(logs, db)
    assert (s.records_landed, s.files_loaded, s.files_unchanged, s.files_replaced) == (3, 1, 2, 0)
    got = rows(db, "big", path)
    assert [r[0] for r in got] == list(range(1, 14))
    assert [json.loads(r[1])["i"] for r in got] == list(range(13))
    # the new rows belong to the second load, the old ones were not touched
    assert q(db, "SELECT count(DISTINCT load_id) FROM raw.big_lines") == [(2,)]
    assert q(db, "SELECT count(*) FROM raw.big_lines WHERE source_line > 10 AND load_id = "
                 "(SELECT load_id FROM raw.loads ORDER BY started_at DESC LIMIT 1)") == [(3,)]


def test_a_backup_copy_lands_nothing_new(logs):
    db = logs / "w.duckdb"
    load(logs, db)
    src = logs / "logs_big" / "runs.jsonl"
    shutil.copy(src, logs / "logs_big" / "runs-copy.jsonl")
    (logs / "backup" / "logs_big").mkdir(parents=True)
    shutil.copy(src, logs / "backup" / "logs_big" / "runs.jsonl")
    s = load(logs, db)
    assert (s.records_landed, s.files_duplicate, s.duplicates_skipped) == (0, 2, 20)
    assert total_raw_rows(db) == 17
    assert "duplicate:" in run_cli(["load", str(logs), "--db", str(logs / "w2.duckdb"), "--create"]).stdout
    # a copy of an older state of a growing file is a duplicate too
    with open(src, "a") as fh:
        fh.write(_lines(2, start=10))
    old_copy = logs / "logs_big" / "old-state.jsonl"
    write(old_copy, _lines(10))
    s2 = load(logs, db)
    assert s2.records_landed == 2 and any(f.path == str(old_copy) and f.status == "duplicate" for f in s2.files)


def test_a_rewritten_file_is_replaced_as_a_unit(logs):
    db = logs / "w.duckdb"
    load(logs, db)
    path = logs / "logs_big" / "runs.jsonl"
    path.write_text(_lines(6, tag="rewritten"))          # shorter, different content
    s = load(logs, db)
    assert (s.files_replaced, s.records_landed) == (1, 6)
    got = rows(db, "big", path)
    assert [r[0] for r in got] == list(range(1, 7))
    assert {json.loads(r[1])["tag"] for r in got} == {"rewritten"}
    # same length, first line changed (a rewrite that keeps the size): still detected
    text = path.read_text().replace('"i": 0,', '"i": 9,', 1)
    path.write_text(text)
    s2 = load(logs, db)
    assert s2.files_replaced == 1
    assert json.loads(rows(db, "big", path)[0][1])["i"] == 9 and len(rows(db, "big", path)) == 6
    path.write_text(_lines(2, tag="third"))
    proc = run_cli(["load", str(logs), "--db", str(db)])
    assert proc.returncode == 0 and f"replaced: {path} was rewritten" in proc.stdout


def test_rewrite_plus_append_never_mixes(logs):
    db = logs / "w.duckdb"
    load(logs, db)
    path = logs / "logs_big" / "runs.jsonl"
    path.write_text(_lines(12, tag="v2"))                # longer, but the old prefix changed
    s = load(logs, db)
    assert s.files_replaced == 1 and s.records_landed == 12
    assert q(db, "SELECT count(*), count(DISTINCT source_line), min(record LIKE '%v2%') FROM raw.big_lines "
                 "WHERE source_file = ?", [str(path)]) == [(12, 12, True)]


def test_counts_add_up_in_raw_loads(logs):
    write(logs / "logs_big" / "mixed.jsonl", '{"a":1}\n\nnot json\n[1]\n{"a":2}\n{"partial"')
    db = logs / "w.duckdb"
    s = load(logs, db)
    f = s.by_path()[str(logs / "logs_big" / "mixed.jsonl")]
    assert (f.lines, f.landed, f.quarantined, f.blank, f.pending) == (5, 2, 2, 1, 1)
    for f in s.files:
        assert f.lines == f.landed + f.quarantined + f.blank
    (row,) = q(db, "SELECT files_seen, files_loaded, files_unchanged, files_ignored, files_duplicate, "
                   "files_replaced, records_landed, duplicates_skipped, lines_quarantined, lines_blank, "
                   "lines_pending, files_failed, finished_at >= started_at FROM raw.loads")
    assert row == (5, 4, 0, 1, 0, 0, 19, 0, 2, 1, 1, 0, True)
    assert total_raw_rows(db) == 19
    assert q(db, "SELECT count(*) FROM raw.load_errors")[0][0] == 2
    assert [e[0] for e in errors(db)] == [3, 4]


def test_family_is_forced_with_family_flag(tmp_path):
    p = write(tmp_path / "anywhere" / "x.jsonl", _lines(2))
    db = tmp_path / "w.duckdb"
    s = load(p, db)
    assert s.records_landed == 0 and "pass --family" in s.ignored[0][1]
    s2 = load(p, db, family="layered")
    assert s2.records_landed == 2 and q(db, "SELECT count(*) FROM raw.layered_lines") == [(2,)]


def test_cli_usage_errors_exit_2_and_summary(tmp_path):
    proc = run_cli(["load", str(tmp_path / "does-not-exist"), "--db", str(tmp_path / "w.duckdb")])
    assert proc.returncode == 2 and "no such file or directory" in proc.stderr
    assert not (tmp_path / "w.duckdb").exists()
    assert run_cli(["load"]).returncode == 2
    write(tmp_path / "logs_big" / "a.jsonl", '{"a":1}\nbad\n')
    proc = run_cli(["load", str(tmp_path), "--db", str(tmp_path / "w.duckdb")])
    assert proc.returncode == 0
    assert "files seen 1 / loaded 1 / unchanged 0 / ignored 0 / duplicate 0" in proc.stdout
    assert "records landed 1; lines quarantined 1" in proc.stdout
    assert f"{tmp_path / 'logs_big' / 'a.jsonl'}:2: invalid JSON" in proc.stdout


# ---------------------------------------------------------------------------------------------
# coder-eval: the real corpus layout (shipped under fixtures/coder_eval by the project)
# ---------------------------------------------------------------------------------------------

CODER_EVAL_SRC = FIXTURES_DIR / "coder_eval"
if not (CODER_EVAL_SRC / "cli_dataset_suite" / "run.json").exists():  # pragma: no cover - fixture location fallback
    CODER_EVAL_SRC = Path("/work/shared/corpus/coder_eval")


@pytest.fixture(scope="module")
def coder_eval_db(tmp_path_factory):
    if not (CODER_EVAL_SRC / "cli_dataset_suite" / "run.json").exists():
        pytest.skip("coder-eval corpus fixture not found")
    root = tmp_path_factory.mktemp("coder_eval")
    dst = root / "runs"
    shutil.copytree(CODER_EVAL_SRC, dst, symlinks=True)
    db = root / "w.duckdb"
    s = load(dst, db)
    return dst, db, s


def test_coder_eval_corpus_lands_every_document_once(coder_eval_db):
    dst, db, s = coder_eval_db
    names = [p.name for p in dst.rglob("*") if p.is_file()]
    expected = sum(n in {"run.json", "task.json", "task.execute.json", "variant.json", "experiment.json",
                         "suite.json"} or (n.startswith(("judge-", "post-failure-judge-")) and n.endswith(".yaml"))
                   for n in names)
    assert s.records_landed == expected and s.files_failed == 0
    assert s.files_ignored == len(names) - expected
    assert errors(db) == []
    again = load(dst, db)
    assert again.records_landed == 0 and again.files_unchanged == expected


def test_coder_eval_dataset_suite_nesting(coder_eval_db):
    dst, db, _ = coder_eval_db
    got = q(db, "SELECT variant_id, task_id, suite_id, row_id, replicate_index FROM raw.ce_task_docs "
                "WHERE run_id = 'cli_dataset_suite' AND row_id = 'r3' ORDER BY variant_id, replicate_index")
    assert got == [("control", "sentiment_suite/r3", "sentiment_suite", "r3", 0),
                   ("control", "sentiment_suite/r3", "sentiment_suite", "r3", 1),
                   ("treatment", "sentiment_suite/r3", "sentiment_suite", "r3", 0),
                   ("treatment", "sentiment_suite/r3", "sentiment_suite", "r3", 1)]
    assert q(db, "SELECT variant_id, suite_id, task_id FROM raw.ce_suite_docs WHERE run_id = 'cli_dataset_suite' "
                 "ORDER BY 1") == [("control", "sentiment_suite", None), ("treatment", "sentiment_suite", None)]
    # task_id as coder-eval writes it inside task.json
    assert q(db, "SELECT count(*) FROM raw.ce_task_docs WHERE task_id <> json_extract_string(document, '$.task_id')"
             ) == [(0,)]


def test_coder_eval_identity_columns(coder_eval_db):
    dst, db, _ = coder_eval_db
    assert q(db, "SELECT run_id, run_dir FROM raw.ce_run_docs ORDER BY 1")[0] == (
        "cli_agentless_ab", str(dst / "cli_agentless_ab"))
    assert q(db, "SELECT count(*) FROM raw.ce_task_execute_docs") == [(3,)]
    assert q(db, "SELECT DISTINCT judge_phase FROM raw.ce_judge_docs") == [("success",)]
    assert q(db, "SELECT count(*) FROM raw.ce_judge_docs WHERE judge_index IS NULL OR replicate_index IS NULL "
                 "OR variant_id IS NULL OR task_id IS NULL") == [(0,)]
    assert q(db, "SELECT count(*) FROM raw.ce_variant_docs WHERE variant_id IS NULL") == [(0,)]
    # YAML is stored as JSON that DuckDB reads
    assert q(db, "SELECT count(*) FROM raw.ce_judge_docs WHERE json_type(document) <> 'OBJECT'") == [(0,)]


def test_coder_eval_nested_run_is_a_separate_run(tmp_path):
    outer = tmp_path / "outer"
    write(outer / "run.json", '{"run": "outer"}')
    write(outer / "v" / "t" / "00" / "task.json", '{"task_id": "t"}')
    write(outer / "v" / "inner" / "run.json", '{"run": "inner"}')
    write(outer / "v" / "inner" / "w" / "u" / "01" / "task.json", '{"task_id": "u"}')
    db = tmp_path / "w.duckdb"
    load(outer, db)
    assert q(db, "SELECT run_id, variant_id, task_id, replicate_index FROM raw.ce_task_docs ORDER BY 1") == [
        ("inner", "w", "u", 1), ("outer", "v", "t", 0)]
    assert q(db, "SELECT run_id FROM raw.ce_run_docs ORDER BY 1") == [("inner",), ("outer",)]


def test_coder_eval_regraded_task_json_replaces_its_row(tmp_path):
    run = tmp_path / "r"
    write(run / "run.json", "{}")
    t = write(run / "v" / "t" / "00" / "task.json", '{"final_status": "NOT_GRADED"}')
    db = tmp_path / "w.duckdb"
    load(run, db)
    t.write_text('{"final_status": "SUCCESS", "weighted_score": 1.0}')
    s = load(run, db)
    assert s.files_replaced == 1
    assert q(db, "SELECT json_extract_string(document, '$.final_status') FROM raw.ce_task_docs") == [("SUCCESS",)]


def test_a_warehouse_with_the_old_family_spelling_still_replaces_a_regraded_document(tmp_path):
    """raw.files written before 2026-12 spell a coder-eval document's family 'ce:<kind>'. The next load rewrites
    it to 'coder_eval:<kind>' first, so a regraded task.json still replaces its row, never lands a second one."""
    run = tmp_path / "r"
    write(run / "run.json", "{}")
    t = write(run / "v" / "t" / "00" / "task.json", '{"final_status": "NOT_GRADED"}')
    db = tmp_path / "w.duckdb"
    load(run, db)
    con = duckdb.connect(str(db))
    try:    # the registry as the previous loader wrote it
        con.execute("UPDATE raw.files SET family = replace(family, 'coder_eval:', 'ce:')")
    finally:
        con.close()
    assert q(db, "SELECT DISTINCT family FROM raw.files ORDER BY 1") == [("ce:run",), ("ce:task",)]
    t.write_text('{"final_status": "SUCCESS", "weighted_score": 1.0}')
    s = load(run, db)
    assert s.files_replaced == 1
    assert q(db, "SELECT json_extract_string(document, '$.final_status') FROM raw.ce_task_docs") == [("SUCCESS",)]
    assert q(db, "SELECT DISTINCT family FROM raw.files ORDER BY 1") == [("coder_eval:run",), ("coder_eval:task",)]


def test_coder_eval_copied_run_directory_is_a_duplicate(tmp_path):
    run = tmp_path / "runs" / "r1"
    write(run / "run.json", '{"run_id": "r1"}')
    write(run / "v" / "t" / "00" / "task.json", '{"task_id": "t", "score": 1}')
    write(run / "v" / "t" / "01" / "task.json", '{"task_id": "t", "score": 1}')   # same bytes, other replicate
    db = tmp_path / "w.duckdb"
    s1 = load(tmp_path / "runs", db)
    assert s1.records_landed == 3                   # identical replicates are not duplicates of each other
    shutil.copytree(run, tmp_path / "runs" / "r1-backup")
    s2 = load(tmp_path / "runs", db)
    assert (s2.records_landed, s2.files_duplicate) == (0, 3)


def test_progress_bar_only_on_a_terminal_and_only_after_a_moment(monkeypatch):
    import io

    from evalhouse.load import _Progress

    class FakeTTY(io.StringIO):
        def isatty(self):
            return True

    tty = FakeTTY()
    monkeypatch.setattr("sys.stderr", tty)
    quick = _Progress(100, enabled=True)
    quick.advance(10, "a.jsonl")                 # within the first moment: silent
    assert tty.getvalue() == ""
    slow = _Progress(100, enabled=True)
    slow.start -= 1.0
    slow.advance(50, "/x/runs.jsonl")
    assert "loading [" in tty.getvalue() and "50.0%" in tty.getvalue() and "runs.jsonl" in tty.getvalue()
    assert " s left" in tty.getvalue()             # half done after a second: about a second left
    slow.close()
    pipe = io.StringIO()                         # not a terminal: never drawn
    monkeypatch.setattr("sys.stderr", pipe)
    off = _Progress(100, enabled=True)
    off.start -= 1.0
    off.advance(50, "x")
    assert pipe.getvalue() == ""
