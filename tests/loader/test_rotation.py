"""Nothing lost (issue 14, 1-5): log rotation by rename and by copytruncate, copies that diverge from their
original, renamed coder-eval run directories, cells and runs whose bytes happen to be equal, symlinks and
run artifacts. Each case states what must be in raw after the loads: every line on disk exactly once."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from evalhouse.loader import prepass as P
from lutil import load, q, write


def _lines(n, tag):
    return "".join(json.dumps({"i": i, "tag": tag}) + "\n" for i in range(n))


def _by_file(db, table="big_lines"):
    """source file name -> number of rows in raw.<table>."""
    return dict(q(db, f"SELECT regexp_extract(source_file, '[^/]+$'), count(*) FROM raw.{table} GROUP BY 1"))


def _tags(db, table="big_lines"):
    return sorted(r[0] for r in q(db, f"SELECT json_extract_string(record, '$.tag') FROM raw.{table}"))


@pytest.mark.parametrize("archive", ["runs-20261201.jsonl", "runs.jsonl.1.jsonl", "zz-runs-old.jsonl"])
def test_rotation_by_rename_keeps_every_line(tmp_path, archive):
    """The archive sorts before or after the live file: either order keeps all 8 lines."""
    d = tmp_path / "logs_big"
    write(d / "runs.jsonl", _lines(5, "old"))
    db = tmp_path / "w.duckdb"
    load(tmp_path, db)
    os.rename(d / "runs.jsonl", d / archive)
    write(d / "runs.jsonl", _lines(3, "new"))
    load(tmp_path, db)
    assert _by_file(db) == {archive: 5, "runs.jsonl": 3}
    again = load(tmp_path, db)
    assert again.records_landed == 0 and _by_file(db) == {archive: 5, "runs.jsonl": 3}


def test_copytruncate_keeps_every_line_even_when_a_load_runs_between_copy_and_truncate(tmp_path):
    d = tmp_path / "logs_big"
    write(d / "runs.jsonl", _lines(5, "old"))
    db = tmp_path / "w.duckdb"
    load(tmp_path, db)
    shutil.copyfile(d / "runs.jsonl", d / "runs-1.jsonl")       # logrotate copytruncate: copy ...
    s = load(tmp_path, db)                                       # ... a load in between: the copy repeats it
    assert s.records_landed == 0 and s.files_duplicate == 1
    with open(d / "runs.jsonl", "w") as fh:                      # ... then truncate, and the writer goes on
        fh.write(_lines(2, "new"))
    load(tmp_path, db)
    assert _by_file(db) == {"runs-1.jsonl": 5, "runs.jsonl": 2}
    assert _tags(db) == ["new"] * 2 + ["old"] * 5


def test_a_copy_that_diverges_from_its_original_keeps_the_original_lines(tmp_path):
    d = tmp_path / "logs_big"
    write(d / "a.jsonl", _lines(5, "v1"))
    db = tmp_path / "w.duckdb"
    load(tmp_path, db)
    shutil.copyfile(d / "a.jsonl", d / "b.jsonl")
    assert load(tmp_path, db).files_duplicate == 1
    write(d / "a.jsonl", _lines(4, "v2"))                        # the original is rewritten; the copy is not
    load(tmp_path, db)
    assert _by_file(db) == {"a.jsonl": 4, "b.jsonl": 5}
    write(d / "b.jsonl", _lines(4, "v2"))                        # now the copy equals the original again
    load(tmp_path, db)
    assert _by_file(db) == {"a.jsonl": 4}                        # b's old lines are gone from disk: replaced


def test_byte_identical_matrix_cells_are_two_cells(tmp_path):
    same = _lines(3, "turn")
    write(tmp_path / "logs" / "gpt-4.1__qwen.jsonl", same)
    write(tmp_path / "logs" / "claude__qwen.jsonl", same)
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.files_duplicate == 0 and _by_file(db, "matrix_lines") == {"gpt-4.1__qwen.jsonl": 3, "claude__qwen.jsonl": 3}
    # a copy of a cell elsewhere (same name) is still a duplicate
    write(tmp_path / "backup" / "logs" / "claude__qwen.jsonl", same)
    s2 = load(tmp_path, db)
    assert s2.records_landed == 0 and s2.files_duplicate == 1


@pytest.mark.parametrize("link,target", [("a.jsonl", "b.jsonl"), ("b.jsonl", "a.jsonl")])
def test_a_file_replaced_by_a_symlink_to_another_lands_nothing_twice(tmp_path, link, target):
    d = tmp_path / "logs_big"
    write(d / "a.jsonl", _lines(4, "a"))
    write(d / "b.jsonl", _lines(6, "b"))
    db = tmp_path / "w.duckdb"
    load(tmp_path, db)
    os.remove(d / link)
    os.symlink(d / target, d / link)
    s = load(tmp_path, db)
    assert s.records_landed == 0
    # the target lands once under its own name; the link is a name for it, and the file it replaced keeps its
    # lines as a deleted file does (nothing doubled, nothing lost)
    assert _tags(db) == ["a"] * 4 + ["b"] * 6
    assert any(p == str(d / link) and "symlink" in why for p, why in s.ignored)


def test_run_artifacts_never_land_as_logs(tmp_path):
    run = tmp_path / "runs" / "r1"
    write(run / "run.json", json.dumps({"run_id": "r1"}))
    write(run / "v" / "t" / "00" / "task.json", json.dumps({"task_id": "t"}))
    art = write(run / "v" / "t" / "00" / "artifacts" / "logs" / "gpt__qwen.jsonl", _lines(3, "user"))
    big = write(run / "v" / "t" / "00" / "artifacts" / "logs_big" / "runs.jsonl", _lines(2, "user"))
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    ignored = dict(s.ignored)
    assert "under artifacts/" in ignored[str(art)] and "under artifacts/" in ignored[str(big)]
    assert q(db, "SELECT count(*) FROM raw.matrix_lines")[0][0] == 0
    assert q(db, "SELECT count(*) FROM raw.big_lines")[0][0] == 0


def _run(root, name, run_json, score):
    write(root / name / "run.json", json.dumps(run_json))
    write(root / name / "v" / "t" / "00" / "task.json", json.dumps({"task_id": "t", "score": score}))
    write(root / name / "v" / "t" / "01" / "task.json", json.dumps({"task_id": "t", "score": 1}))   # untouched


def _ce(db):
    return sorted(q(db, "SELECT run_id, replicate_index, json_extract(document, '$.score')::INT FROM raw.ce_task_docs"))


def test_renamed_run_directory_then_a_new_run_under_the_old_name_keeps_both(tmp_path):
    runs = tmp_path / "runs"
    _run(runs, "r1", {"run_id": "r1", "started": "monday"}, 0)
    db = tmp_path / "w.duckdb"
    load(runs, db)
    os.rename(runs / "r1", runs / "r1-monday")
    assert load(runs, db).records_landed == 0                    # a move lands nothing new
    _run(runs, "r1", {"run_id": "r1", "started": "tuesday"}, 1)  # the next run writes under the old name
    load(runs, db)
    got = _ce(db)
    assert got == sorted([("r1", 0, 1), ("r1", 1, 1), ("r1-monday", 0, 0), ("r1-monday", 1, 1)])


def test_two_runs_with_byte_identical_replicates_are_two_runs(tmp_path):
    runs = tmp_path / "runs"
    _run(runs, "a", {"run_id": "a"}, 0)
    _run(runs, "b", {"run_id": "b"}, 0)                          # every task.json equals run a's
    db = tmp_path / "w.duckdb"
    s = load(runs, db)
    assert s.files_duplicate == 0
    assert [r[0] for r in _ce(db)] == ["a", "a", "b", "b"]


def test_two_run_directories_with_the_same_name_are_two_runs(tmp_path):
    """Issue 14 (9): two different runs whose directories share a name (`a/run_1`, `b/run_1`) were pooled under
    one run id and failed an error-level test. The second gets `run_1@<8 hex>`, stable across loads."""
    _run(tmp_path / "a", "run_1", {"run_id": "run_1", "who": "a"}, 0)
    _run(tmp_path / "b", "run_1", {"run_id": "run_1", "who": "b"}, 1)
    db = tmp_path / "w.duckdb"
    load(tmp_path, db)
    ids = dict(q(db, "SELECT run_dir, run_id FROM raw.ce_run_docs"))
    a, b = ids[str(tmp_path / "a" / "run_1")], ids[str(tmp_path / "b" / "run_1")]
    assert a == "run_1" and b.startswith("run_1@") and len(b) == len("run_1@") + 8
    assert q(db, "SELECT count(DISTINCT run_id) FROM raw.ce_task_docs") == [(2,)]
    write(tmp_path / "b" / "run_1" / "v" / "t" / "02" / "task.json", json.dumps({"task_id": "t", "score": 0}))
    load(tmp_path, db)                                            # a later document of run b keeps b's id
    assert q(db, "SELECT DISTINCT run_id FROM raw.ce_task_docs WHERE run_dir = ?", [str(tmp_path / "b" / "run_1")]) \
        == [(b,)]


def test_a_file_landed_under_the_wrong_family_moves_with_family(tmp_path):
    """Issue 14 (clear errors): `--family` on a file landed under another family was skipped as unchanged.
    With --family it moves (its rows leave the old family's table); without it, it keeps its family, appends
    included."""
    f = write(tmp_path / "logs" / "runs.jsonl", _lines(3, "r"))
    db = tmp_path / "w.duckdb"
    load(tmp_path, db)
    assert _by_file(db, "matrix_lines") == {"runs.jsonl": 3}
    s = load(f, db, family="big")
    assert s.files_replaced == 1
    assert _by_file(db, "matrix_lines") == {} and _by_file(db, "big_lines") == {"runs.jsonl": 3}
    assert load(tmp_path, db).records_landed == 0                  # a plain load leaves it where it is
    with open(f, "a") as fh:
        fh.write(_lines(1, "more"))
    assert load(tmp_path, db).records_landed == 1
    assert _by_file(db, "matrix_lines") == {} and _by_file(db, "big_lines") == {"runs.jsonl": 4}


def test_a_file_replaced_after_its_prefix_was_hashed_never_commits_a_mix(tmp_path, monkeypatch):
    """Issue 14 (6): the landed prefix of a growing file is hashed ahead, in a thread; if the file is then
    replaced by another whose first bytes differ, its new tail must not be landed after the old lines."""

    d = tmp_path / "logs_big"
    f = write(d / "runs.jsonl", _lines(3, "old"))
    db = tmp_path / "w.duckdb"
    load(tmp_path, db)
    with open(f, "a") as fh:                                      # it grows: an append candidate
        fh.write(_lines(2, "more"))
    real = P.safe_hash_prefix

    def hash_then_replace(path, n):
        got = real(path, n)                                      # the prefix of the grown file, as it was ...
        new = str(f) + ".new"
        with open(new, "w") as fh:                               # ... then a writer replaces the file
            fh.write(_lines(6, "new"))
        os.replace(new, path)
        return got

    monkeypatch.setattr(P, "safe_hash_prefix", hash_then_replace)
    load(tmp_path, db)
    assert _tags(db) == ["new"] * 6                              # the new file, whole; never old + new tail
