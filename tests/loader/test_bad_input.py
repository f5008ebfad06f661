"""The bad-input catalogue (issue 7): every case is a fixture plus its exact expected outcome.

For each JSONL case: the good lines land exactly once with their 1-based line numbers, the bad
ones are in raw.load_errors at the right line with an actionable reason, the load finishes, and
per file lines = landed + quarantined + blank (+ a pending partial line).
"""
from __future__ import annotations

import gzip
import json
import os

import pytest

from evalhouse.load import load_paths
from evalhouse.loader import prepass as P
from lutil import errors, load, q, rows, write

BIG_LINE = json.dumps({"run_key": "big", "blob": "x" * (20 * 1024 * 1024)})
DEEP = '{"a":[' * 200 + '{"b":1}' + ']}' * 200                      # 401 levels of nesting


def _j(**kw) -> str:
    return json.dumps(kw)


# name -> (file bytes, {line: expected record as Python value or None=skip compare}, {line: reason substring},
#          blank lines, expected repaired notes {line: substring})
CASES = {
    "invalid_json_middle": (
        f'{_j(a=1)}\n{{"a": 2,\n{_j(a=3)}\n', {1: {"a": 1}, 3: {"a": 3}}, {2: "invalid JSON"}, 0, {}),
    "non_object_lines": (
        f'{_j(a=1)}\n[1, 2]\n42\nnull\n"text"\ntrue\n{_j(a=7)}\n', {1: {"a": 1}, 7: {"a": 7}},
        {2: "not a JSON object: the line is an array", 3: "is a number", 4: "is null", 5: "is a string",
         6: "is a boolean"}, 0, {}),
    "blank_and_whitespace_lines": (
        f'\n{_j(a=1)}\n   \n\t\n \r\n{_j(a=2)}\n\n', {2: {"a": 1}, 6: {"a": 2}}, {}, 5, {}),
    "utf8_bom": (
        b"\xef\xbb\xbf" + f'{_j(a=1)}\n{_j(a=2)}\n'.encode(), {1: {"a": 1}, 2: {"a": 2}}, {}, 0, {}),
    "crlf_line_endings": (
        f'{_j(a=1)}\r\n{_j(a="x")}\r\n', {1: {"a": 1}, 2: {"a": "x"}}, {}, 0, {}),
    "invalid_utf8_in_string": (
        f'{_j(a=1)}\n'.encode() + b'{"a": "caf\xe9"}\n' + f'{_j(a=3)}\n'.encode(), {1: {"a": 1}, 3: {"a": 3}},
        {2: "invalid UTF-8"}, 0, {}),
    "nan_and_infinity": (
        '{"a": NaN, "b": 1}\n{"a": Infinity}\n{"a": [-Infinity, 2]}\n{"a": 1e400}\n',
        {1: {"a": None, "b": 1}, 2: {"a": None}, 3: {"a": [None, 2]}, 4: {"a": None}}, {}, 0,
        {1: "nonfinite: $.a", 2: "nonfinite: $.a", 3: "nonfinite: $.a[0]", 4: "nonfinite: $.a"}),
    "nan_lookalikes_duckdb_accepts": (
        '{"a": nan}\n{"a": inf}\n{"a": 1,}\n{"info": "nan and Infinity in a string"}\n',
        {4: {"info": "nan and Infinity in a string"}},
        {1: "invalid JSON", 2: "invalid JSON", 3: "invalid JSON"}, 0, {}),
    "duplicate_keys": (
        '{"a": 1, "a": 2}\n{"o": {"k": "first", "k": "last"}, "z": 0}\n{"l": [{"k": 1}, {"k": 2}]}\n'
        '{"a\\u0062": 1, "ab": 2}\n{"d": [[{"k": 1, "k": 2}]], "e": [{"q": 1}]}\n',
        {1: {"a": 2}, 2: {"o": {"k": "last"}, "z": 0}, 3: {"l": [{"k": 1}, {"k": 2}]}, 4: {"ab": 2},
         5: {"d": [[{"k": 2}]], "e": [{"q": 1}]}}, {}, 0,
        {1: "duplicate keys (last wins): a", 2: "duplicate keys (last wins): k", 4: "duplicate keys",
         5: "duplicate keys (last wins): k"}),
    "line_of_20_mb": (f'{_j(a=1)}\n{BIG_LINE}\n{_j(a=3)}\n', {1: {"a": 1}, 2: json.loads(BIG_LINE), 3: {"a": 3}},
                      {}, 0, {}),
    "nesting_400_deep": (f'{DEEP}\n', {1: json.loads(DEEP)}, {}, 0, {}),
    "wrong_types": (
        f'{_j(change="0.5", with_brain="yes", calls="many")}\n', {1: {"change": "0.5", "with_brain": "yes",
                                                                       "calls": "many"}}, {}, 0, {}),
    "missing_fields": ('{}\n{"scenario_id": "s1"}\n', {1: {}, 2: {"scenario_id": "s1"}}, {}, 0, {}),
    "unknown_extra_fields": (
        f'{_j(scenario_id="s1", new_field={"from": "a newer writer"})}\n',
        {1: {"scenario_id": "s1", "new_field": {"from": "a newer writer"}}}, {}, 0, {}),
    "empty_file": (b"", {}, {}, 0, {}),
    "lone_surrogate": ('{"a": "\\ud800x"}\n', {1: {"a": "\ufffdx"}}, {}, 0, {1: "lone surrogate"}),
    "nul_byte": (f'{_j(a=1)}\n'.encode() + b'{"a": "\x00"}\n', {1: {"a": 1}}, {2: "NUL byte"}, 0, {}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_jsonl_bad_input_catalogue(tmp_path, name):
    data, good, bad, blank, repaired = CASES[name]
    path = write(tmp_path / "logs_big" / f"{name}.jsonl", data)
    db = tmp_path / "w.duckdb"
    s = load(tmp_path / "logs_big", db)
    landed = rows(db, "big", path)
    assert [r[0] for r in landed] == sorted(good), "exactly the good lines land, at their line numbers"
    for line, record, note in landed:
        if good[line] is not None:
            assert json.loads(record) == good[line]
        if line in repaired:
            assert note is not None and repaired[line] in note
        else:
            assert note is None
    errs = errors(db, path)
    assert [e[0] for e in errs] == sorted(bad)
    for line, reason, raw_text in errs:
        assert bad[line] in reason, reason
        assert raw_text is not None and len(raw_text) <= 4200
    n_lines = (data if isinstance(data, bytes) else data.encode()).count(b"\n")
    f = s.by_path()[str(path)]
    assert (f.lines, f.landed, f.quarantined, f.blank, f.pending) == (n_lines, len(good), len(bad), blank, 0)
    assert f.lines == f.landed + f.quarantined + f.blank
    load_row = q(db, "SELECT records_landed, lines_quarantined, lines_blank, files_loaded, files_failed "
                     "FROM raw.loads")
    assert load_row == [(len(good), len(bad), blank, 1, 0)]
    # the record text is what DuckDB reads, always
    assert q(db, "SELECT count(*) FROM raw.big_lines WHERE NOT json_valid(record) OR json_type(record) <> 'OBJECT'"
             ) == [(0,)]
    assert q(db, "SELECT count(*) FROM raw.big_lines WHERE record_sha256 <> sha256(record)") == [(0,)]


def test_gzip_with_jsonl_name_is_a_whole_file_error(tmp_path):
    path = write(tmp_path / "logs_big" / "runs.jsonl", gzip.compress(f'{_j(a=1)}\n'.encode()))
    # another record than the archive's first line (else the decompressed file would be good.jsonl's grown copy)
    good = write(tmp_path / "logs_big" / "good.jsonl", f'{_j(a=0)}\n')
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert errors(db, path) == [(None, "not text (gzip compressed): decompress it (gunzip) and load the .jsonl "
                                       "inside", None)]
    assert [r[0] for r in rows(db, "big", good)] == [1]
    assert s.files_failed == 1 and s.records_landed == 1
    # reloading does not report it again; decompressing it in place lands it
    assert load(tmp_path, db).files_failed == 0
    path.write_bytes(f'{_j(a=1)}\n{_j(a=2)}\n'.encode())
    s3 = load(tmp_path, db)
    assert s3.files_replaced == 1 and [r[0] for r in rows(db, "big", path)] == [1, 2]


def test_unreadable_file_is_a_whole_file_error(tmp_path, monkeypatch):
    bad = write(tmp_path / "logs_big" / "locked.jsonl", f'{_j(a=1)}\n')
    good = write(tmp_path / "logs_big" / "ok.jsonl", f'{_j(a=1)}\n{_j(a=2)}\n')
    if os.geteuid() != 0:
        bad.chmod(0)
    else:  # root reads everything: make the read fail as a permission error would
        real = P.read_file

        def fake(path):
            if path == str(bad):
                raise PermissionError(13, "Permission denied", path)
            return real(path)
        monkeypatch.setattr(P, "read_file", fake)
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert errors(db, bad) == [(None, "cannot read file: Permission denied (check its permissions)", None)]
    assert [r[0] for r in rows(db, "big", good)] == [1, 2]
    assert s.files_failed == 1 and s.records_landed == 2
    bad.chmod(0o644)


def test_symlink_loop_is_survived(tmp_path):
    root = tmp_path / "logs_big"
    write(root / "a.jsonl", f'{_j(a=1)}\n')
    write(root / "sub" / "b.jsonl", f'{_j(b=1)}\n')
    os.symlink("..", root / "sub" / "loop")           # sub/loop -> logs_big (a cycle)
    os.symlink(".", root / "self")                    # a directory that contains itself
    db = tmp_path / "w.duckdb"
    s = load(root, db)
    assert s.records_landed == 2
    assert q(db, "SELECT count(*), count(DISTINCT record) FROM raw.big_lines") == [(2, 2)]


def test_symlink_outside_roots_not_followed_unless_asked(tmp_path):
    outside = write(tmp_path / "elsewhere" / "logs_big" / "secret.jsonl", f'{_j(a=1)}\n')
    root = tmp_path / "data" / "logs_big"
    write(root / "mine.jsonl", f'{_j(b=1)}\n')
    os.symlink(outside, root / "link.jsonl")
    os.symlink(outside.parent, root / "linkdir")
    db = tmp_path / "w.duckdb"
    s = load(root, db)
    assert s.records_landed == 1
    reasons = [why for _, why in s.ignored]
    assert sum("symlink to outside" in why for why in reasons) == 2
    db2 = tmp_path / "w2.duckdb"
    s2 = load(root, db2, follow_symlinks=True)
    assert s2.records_landed == 2   # link.jsonl and linkdir/secret.jsonl are the same file: landed once


def test_partial_last_line_lands_once_completed(tmp_path):
    path = write(tmp_path / "logs_big" / "live.jsonl", f'{_j(a=1)}\n{{"a": 2, "b"')
    db = tmp_path / "w.duckdb"
    s1 = load(path, db)
    f = s1.by_path()[str(path)]
    assert (f.lines, f.landed, f.pending) == (1, 1, 1)
    assert errors(db) == []
    with open(path, "ab") as fh:
        fh.write(b': 3}\n')
    s2 = load(path, db)
    assert s2.records_landed == 1 and s2.files_replaced == 0
    assert [(r[0], json.loads(r[1])) for r in rows(db, "big", path)] == [(1, {"a": 1}), (2, {"a": 2, "b": 3})]


def test_same_content_under_two_names(tmp_path):
    a = write(tmp_path / "logs_big" / "runs.jsonl", f'{_j(a=1)}\n{_j(a=2)}\n')
    b = write(tmp_path / "logs_big" / "runs_backup.jsonl", a.read_bytes())
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.records_landed == 2 and s.files_duplicate == 1 and s.duplicates_skipped == 2
    dup = [f for f in s.files if f.status == "duplicate"][0]
    assert dup.path == str(b) and dup.duplicate_of == str(a)
    assert q(db, "SELECT count(*) FROM raw.big_lines WHERE source_file = ?", [str(b)]) == [(0,)]
    assert q(db, "SELECT duplicate_of FROM raw.files WHERE source_file = ?", [str(b)]) == [(str(a),)]
    again = load(tmp_path, db)                    # reload (re-checks racy files): still one copy, still a duplicate
    assert again.records_landed == 0 and q(db, "SELECT count(*) FROM raw.big_lines") == [(2,)]
    assert q(db, "SELECT duplicate_of FROM raw.files WHERE source_file = ?", [str(b)]) == [(str(a),)]


def test_file_rewritten_in_place_is_replaced_as_a_unit(tmp_path):
    path = write(tmp_path / "logs_big" / "runs.jsonl", "".join(f'{_j(v="old", i=i)}\n' for i in range(5)))
    db = tmp_path / "w.duckdb"
    load(path, db)
    path.write_text("".join(f'{_j(v="new", i=i)}\n' for i in range(3)))
    s = load(path, db)
    assert s.files_replaced == 1 and s.records_landed == 3
    got = rows(db, "big", path)
    assert [r[0] for r in got] == [1, 2, 3]
    assert {json.loads(r[1])["v"] for r in got} == {"new"}       # never a mix of old and new


# ---------------------------------------------------------------------------------------------
# coder-eval documents
# ---------------------------------------------------------------------------------------------

TASK = {"task_id": "fix_import", "final_status": "SUCCESS", "weighted_score": 1.0}


def _run_dir(root):
    write(root / "run.json", json.dumps({"run_id": root.name, "results": []}))
    write(root / "experiment.json", json.dumps({"experiment_id": "e"}))
    write(root / "v1" / "variant.json", json.dumps({"variant_id": "v1"}))
    write(root / "v1" / "fix_import" / "00" / "task.json", json.dumps(TASK))
    return root


def test_coder_eval_truncated_task_json(tmp_path):
    run = _run_dir(tmp_path / "run1")
    bad = write(run / "v1" / "fix_import" / "01" / "task.json", json.dumps(TASK)[:25])
    db = tmp_path / "w.duckdb"
    s = load(run, db)
    (err,) = errors(db, bad)
    assert err[0] is None and "task.json: invalid JSON" in err[1] and "truncated" in err[1]
    assert q(db, "SELECT replicate_index FROM raw.ce_task_docs") == [(0,)]
    assert s.files_failed == 1 and s.records_landed == 4


def test_coder_eval_run_json_that_is_an_array(tmp_path):
    run = _run_dir(tmp_path / "run1")
    write(run / "run.json", "[1, 2]")
    db = tmp_path / "w.duckdb"
    s = load(run, db)
    assert errors(db, run / "run.json") == [(None, "run.json is an array, expected a JSON object", "[1, 2]")]
    assert q(db, "SELECT count(*) FROM raw.ce_run_docs") == [(0,)]
    assert q(db, "SELECT count(*) FROM raw.ce_task_docs") == [(1,)]
    assert s.files_failed == 1


def test_coder_eval_artifacts_report_json_is_ignored(tmp_path):
    run = _run_dir(tmp_path / "run1")
    rep = write(run / "v1" / "fix_import" / "00" / "artifacts" / "fix_import" / "report.json", '{"x": 1}')
    art_task = write(run / "v1" / "fix_import" / "00" / "artifacts" / "task.json", json.dumps(TASK))
    db = tmp_path / "w.duckdb"
    s = load(run, db)
    ignored = dict(s.ignored)
    assert str(rep) in ignored and "under artifacts/" in ignored[str(art_task)]
    assert s.files_seen == 6 and s.files_ignored == 2 and s.records_landed == 4
    assert q(db, "SELECT count(*) FROM raw.ce_task_docs") == [(1,)]


def test_coder_eval_task_json_of_a_run_that_has_not_ended_says_so(tmp_path):
    """coder-eval writes resume_fingerprint.json when a run starts and run.json when it ends: the task.json of a
    run still going (or stopped) is ignored with what to do, and lands once the run ends; a task.json with neither
    is outside any run."""
    started = tmp_path / "runs" / "r1"
    write(started / "resume_fingerprint.json", "{}")
    task = write(started / "default" / "fix_import" / "00" / "task.json", json.dumps(TASK))
    stray = write(tmp_path / "copied" / "task.json", json.dumps(TASK))
    db = tmp_path / "w.duckdb"
    s = load([started, stray], db)
    ignored = dict(s.ignored)
    assert "has not ended" in ignored[str(task)] and f"--resume --run-dir {started}" in ignored[str(task)]
    assert "outside a coder-eval run directory" in ignored[str(stray)]
    assert s.records_landed == 0
    _run_dir(started)          # the run ends: run.json appears
    s = load(started, db)
    assert str(task) not in dict(s.ignored)
    assert q(db, "SELECT count(*) FROM raw.ce_task_docs") == [(2,)]


def test_coder_eval_judge_yaml_with_python_tag_is_not_constructed(tmp_path):
    import yaml

    marker = tmp_path / "constructed.marker"
    evil = f'!!python/object/apply:builtins.open ["{marker}", "w"]\n'
    # positive control: an unsafe loader WOULD construct it (and leave the marker)
    yaml.unsafe_load(evil).close()
    assert marker.exists()
    marker.unlink()

    run = _run_dir(tmp_path / "run1")
    judge = write(run / "v1" / "fix_import" / "00" / "judge-1.yaml", "duration_seconds: 1.5\nverdict: " + evil)
    ok = write(run / "v1" / "fix_import" / "00" / "post-failure-judge-2.yaml",
               "duration_seconds: 2\nwhen: 2026-01-02 03:04:05\n")
    db = tmp_path / "w.duckdb"
    load(run, db)
    assert not marker.exists(), "the YAML tag was constructed"
    (err,) = errors(db, judge)
    assert err[0] is None and "refused unsafe YAML" in err[1] and "python/object/apply:builtins.open" in err[1]
    assert "nothing was constructed" in err[1]
    doc = q(db, "SELECT document, judge_index, judge_phase FROM raw.ce_judge_docs WHERE source_file = ?", [str(ok)])
    assert [(json.loads(doc[0][0]), doc[0][1], doc[0][2])] == [
        ({"duration_seconds": 2, "when": "2026-01-02T03:04:05"}, 2, "post_failure")]


EVIL_NAMES = [
    "with space.jsonl",
    "it's \"quoted\".jsonl",
    "semi;colon'); drop table raw.loads; --.jsonl",
    "new\nline.jsonl",
    "nön-äscii-日本.jsonl",
    "$1 ? %s {x}.jsonl",
]


def test_file_names_with_spaces_quotes_semicolons_newlines_non_ascii(tmp_path):
    root = tmp_path / "logs_big"
    paths = [write(root / n, f'{_j(name=n)}\n{_j(i=2)}\n') for n in EVIL_NAMES]
    # a coder-eval run directory with a hostile name too
    run = _run_dir(tmp_path / "run'); drop table raw.files; --")
    db = tmp_path / "w.duckdb"
    s = load([root, run], db)
    assert s.records_landed == 2 * len(EVIL_NAMES) + 4
    for p, n in zip(paths, EVIL_NAMES):
        got = rows(db, "big", p)
        assert [r[0] for r in got] == [1, 2] and json.loads(got[0][1]) == {"name": n}
    assert q(db, "SELECT count(*) FROM raw.loads") == [(1,)]
    assert q(db, "SELECT count(*) FROM raw.files") == [(len(EVIL_NAMES) + 4,)]
    assert q(db, "SELECT DISTINCT run_id FROM raw.ce_task_docs") == [("run'); drop table raw.files; --",)]
    # and a reload finds every one of them unchanged
    s2 = load([root, run], db)
    assert s2.records_landed == 0 and s2.files_unchanged == len(EVIL_NAMES) + 4


def test_every_case_exits_zero_from_the_cli(tmp_path):
    """The whole catalogue in one directory through the real CLI: exit 0, counts add up in raw.loads."""
    from lutil import run_cli
    expected_landed = expected_bad = expected_blank = 0
    for name, (data, good, bad, blank, _) in CASES.items():
        if name == "line_of_20_mb":
            continue
        write(tmp_path / "logs_big" / f"{name}.jsonl", data)
        expected_landed += len(good)
        expected_bad += len(bad)
        expected_blank += blank
    db = tmp_path / "w.duckdb"
    proc = run_cli(["load", str(tmp_path / "logs_big"), "--db", str(db)])
    assert proc.returncode == 0, proc.stderr
    assert "lines quarantined" in proc.stdout and ".jsonl:2: invalid JSON" in proc.stdout
    assert q(db, "SELECT records_landed, lines_quarantined, lines_blank FROM raw.loads") == [
        (expected_landed, expected_bad, expected_blank)]
    assert q(db, "SELECT count(*) FROM raw.big_lines")[0][0] == expected_landed
    assert q(db, "SELECT count(*) FROM raw.load_errors WHERE source_line IS NOT NULL")[0][0] == expected_bad


def test_python_api_never_builds_sql_from_values(tmp_path):
    """Values that look like SQL or parameters land verbatim."""
    rec = {"x": "'); DROP TABLE raw.big_lines; --", "y": "$1", "z": "?"}
    path = write(tmp_path / "logs_big" / "a.jsonl", json.dumps(rec) + "\n")
    db = tmp_path / "w.duckdb"
    load_paths([str(path)], str(db))
    assert [json.loads(r[1]) for r in rows(db, "big", path)] == [rec]


CODER_EVAL_DOC_CASES = {
    # name: (file name under <run>/v1/fix_import/00/, bytes, expected document value or None, error substring)
    "json_with_bom": ("task.json", b"\xef\xbb\xbf" + json.dumps(TASK).encode(), TASK, None),
    "json_with_nan": ("task.json", b'{"weighted_score": NaN, "final_status": "ERROR"}',
                      {"weighted_score": None, "final_status": "ERROR"}, None),
    "json_duplicate_keys": ("task.json", b'{"final_status": "FAILURE", "final_status": "SUCCESS"}',
                            {"final_status": "SUCCESS"}, None),
    "json_invalid_utf8": ("task.json", b'{"final_status": "caf\xe9"}', None, "invalid UTF-8"),
    "json_empty": ("task.json", b"", None, "task.json is empty"),
    "json_scalar": ("task.json", b"42", None, "task.json is a number, expected a JSON object"),
    "yaml_invalid": ("judge-1.yaml", b"a: [unclosed\n", None, "judge-1.yaml: invalid YAML"),
    "yaml_not_a_mapping": ("judge-1.yaml", b"- 1\n- 2\n", None, "judge-1.yaml is an array, expected a YAML mapping"),
    "yaml_nan_and_dates": ("judge-1.yaml", b"score: .nan\nday: 2026-01-02\n", {"score": None, "day": "2026-01-02"},
                           None),
}


@pytest.mark.parametrize("name", sorted(CODER_EVAL_DOC_CASES))
def test_coder_eval_document_bad_input_catalogue(tmp_path, name):
    fname, data, value, err = CODER_EVAL_DOC_CASES[name]
    run = _run_dir(tmp_path / "run1")
    (run / "v1" / "fix_import" / "00" / "task.json").unlink()
    path = write(run / "v1" / "fix_import" / "00" / fname, data)
    db = tmp_path / "w.duckdb"
    s = load(run, db)
    table = "ce_task_docs" if fname == "task.json" else "ce_judge_docs"
    got = q(db, f"SELECT document, repaired FROM raw.{table} WHERE source_file = ?", [str(path)])
    if err is None:
        assert [json.loads(got[0][0])] == [value] and errors(db) == []
        assert s.records_landed == 4 and s.files_failed == 0
    else:
        assert got == []
        (e,) = errors(db, path)
        assert e[0] is None and err in e[1], e[1]
        assert s.records_landed == 3 and s.files_failed == 1
