"""inspect_ai logs land (issue 17, first step): every member of every fixture log, once, with its file, member,
sample and epoch; Zstandard and DEFLATE archives and .json logs; the three non-success statuses; rewrites
replace; a bad member is quarantined with its reason and the rest of the log lands."""
from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from evalhouse.cli import main
from evalhouse.loader.inspect_logs import member_kind
from helpers import FIXTURES, dbt, query

LOGS = FIXTURES / "inspect"
ALL = sorted(p for p in LOGS.rglob("*") if p.suffix in (".eval", ".json"))


def _expected(path: Path) -> set[tuple[str, str | None, int | None]]:
    """(member, sample id, epoch) the file holds, read with zipfile's listing and json, not with the loader."""
    if path.suffix == ".json":
        obj = json.loads(path.read_text())
        out = {("header.json", None, None)} | {(f"samples/{s['id']}_epoch_{s['epoch']}.json", str(s["id"]), s["epoch"])
                                               for s in obj["samples"]}
        return out | ({("reductions.json", None, None)} if obj.get("reductions") is not None else set())
    out = set()
    for name in zipfile.ZipFile(path).namelist():
        kind = member_kind(name)
        if kind == "sample":
            sid, _, epoch = name[len("samples/"):-len(".json")].rpartition("_epoch_")
            out.add((name, sid, int(epoch)))
        elif kind is not None:
            out.add((name, None, None))
    return out


def _load(root: Path, db: Path, *extra: str) -> int:
    return main(["load", str(root), "--db", str(db), "--quiet", *extra])


@pytest.fixture
def copy(tmp_path) -> Path:
    dst = tmp_path / "logs"
    shutil.copytree(LOGS, dst)
    return dst


def test_every_member_of_every_fixture_lands_once(copy, tmp_path):
    db = tmp_path / "w.duckdb"
    assert _load(copy, db, "--create") == 0
    for path in sorted(p for p in copy.rglob("*") if p.suffix in (".eval", ".json")):
        got = set(query(db, "select member, sample_id, epoch from raw.inspect_members where source_file = ?", [str(path)]))
        assert got == _expected(path), path.name
    kinds = dict(query(db, "select log_format, count(distinct source_file) from raw.inspect_members group by 1"))
    assert kinds == {"eval": len(ALL) - 1, "json": 1}
    # the fixtures' int and str sample ids are told apart
    assert set(query(db, "select sample_id, sample_id_is_int from raw.inspect_members where member_kind = 'sample'")) \
        >= {("1", True), ("cap-fr", False)}
    assert _load(copy, db) == 0                                                    # a re-run lands nothing
    assert query(db, "select count(*), count(distinct load_id) from raw.inspect_members") == \
        [(sum(len(_expected(p)) for p in ALL), 1)]


def test_statuses_are_labelled_by_the_log_and_a_killed_run_has_no_header(tmp_path):
    db = tmp_path / "w.duckdb"
    assert _load(LOGS, db, "--create") == 0
    headers = query(db, "select json_extract_string(document, '$.status'), count(*) from raw.inspect_members "
                        "where member_kind = 'header' group by 1 order by 1")
    assert headers == [("cancelled", 1), ("error", 1), ("success", 5)]
    # the killed writer ("started"): a journal start and its samples, no header
    (started,) = query(db, "select source_file from raw.inspect_members group by 1 "
                           "having count(*) filter (where member_kind = 'header') = 0")
    assert query(db, "select count(*) from raw.inspect_members where source_file = ? and member_kind = 'sample'",
                 [started[0]])[0][0] >= 1


def test_zstandard_and_deflate_archives_both_load():
    methods = {p.parent.name: {i.compress_type for i in zipfile.ZipFile(p).infolist()} for p in ALL if p.suffix == ".eval"}
    assert methods["both_models"] == {93} and methods["deflate"] == {zipfile.ZIP_DEFLATED}


def test_a_log_rewritten_in_place_replaces_its_rows(copy, tmp_path):
    db = tmp_path / "w.duckdb"
    assert _load(copy, db, "--create") == 0
    started = next(p for p in copy.rglob("*.eval") if "header.json" not in zipfile.ZipFile(p).namelist())
    done = next(p for p in (copy / "both_models").glob("*.eval"))
    shutil.copyfile(done, started)                       # the run went on: the same file, now complete
    assert _load(copy, db) == 0
    got = set(query(db, "select member, sample_id, epoch from raw.inspect_members where source_file = ?", [str(started)]))
    assert got == _expected(done)
    assert query(db, "select count(distinct load_id) from raw.inspect_members where source_file = ?", [str(started)]) == [(1,)]


def test_a_bad_member_is_quarantined_and_the_rest_lands(tmp_path):
    src = next((LOGS / "both_models").glob("*.eval"))
    bad = tmp_path / "logs" / "bad.eval"
    bad.parent.mkdir()
    data = bytearray(src.read_bytes())
    info = next(i for i in zipfile.ZipFile(src).infolist() if i.filename == "samples/2_epoch_1.json")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start + 8:start + 24] = b"\x00" * 16            # corrupt that member's compressed bytes
    bad.write_bytes(bytes(data))
    (tmp_path / "logs" / "notes.json").write_text('{"hello": "not a log"}')
    (tmp_path / "logs" / "broken.eval").write_bytes(b"PK\x03\x04 truncated")
    db = tmp_path / "w.duckdb"
    assert _load(tmp_path / "logs", db, "--create") == 0
    members = {m for (m,) in query(db, "select member from raw.inspect_members where source_file = ?", [str(bad)])}
    assert members == {m for m, _, _ in _expected(src)} - {"samples/2_epoch_1.json"}
    errors = query(db, "select source_file, error from raw.load_errors order by 1")
    assert len(errors) == 2
    assert errors[0][0].endswith("bad.eval") and "samples/2_epoch_1.json" in errors[0][1]
    assert errors[1][0].endswith("broken.eval") and "not a readable .eval archive" in errors[1][1]
    assert query(db, "select count(*) from raw.files where source_file like '%notes.json'") == [(0,)]  # not a log: ignored


def test_a_json_log_with_nan_scores_lands(tmp_path):
    src = next((LOGS / "both_models").glob("*.json"))
    obj = json.loads(src.read_text())
    obj["samples"][0]["scores"]["length_ratio"]["value"] = float("nan")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "nan.json").write_text(json.dumps(obj, indent=2))       # the bare literal NaN, as inspect writes
    db = tmp_path / "w.duckdb"
    assert _load(tmp_path / "logs", db, "--create") == 0
    assert query(db, "select count(*) from raw.inspect_members where member_kind = 'sample'") == [(len(obj["samples"]),)]
    assert query(db, "select count(*) from raw.inspect_members where document like '%NaN%'") == [(1,)]


def test_a_json_log_lists_each_sample_once_and_a_non_object_is_quarantined(tmp_path):
    """A .json log that lists a sample twice (its id and epoch) lands the later record, as inspect_ai's .json writer
    keeps it and its .eval readers read a name written twice; a sample that is not a JSON object, or a `samples` that
    is not a list, is quarantined with its place and the rest of the log lands (it stopped the whole load before)."""
    src = next((LOGS / "both_models").glob("*.json"))
    obj = json.loads(src.read_text())
    again = json.loads(json.dumps(obj["samples"][0]))
    again["uuid"] = "the-later-record"
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "twice.json").write_text(json.dumps({**obj, "samples": [*obj["samples"], 42, again]}))
    (logs / "object.json").write_text(json.dumps({**obj, "samples": {"a": obj["samples"][0]}}))
    db = tmp_path / "w.duckdb"
    assert _load(logs, db, "--create") == 0
    twice, bad = str(logs / "twice.json"), str(logs / "object.json")
    got = query(db, "select member, json_extract_string(document, '$.uuid') from raw.inspect_members "
                    "where source_file = ? and member_kind = 'sample'", [twice])
    first = f"samples/{again['id']}_epoch_{again['epoch']}.json"
    assert len(got) == len(obj["samples"]) and dict(got)[first] == "the-later-record"
    kinds = {k for (k,) in query(db, "select member_kind from raw.inspect_members where source_file = ?", [bad])}
    assert "header" in kinds and "sample" not in kinds
    errors = sorted(query(db, "select regexp_extract(source_file, '[^/]+$'), error from raw.load_errors"))
    assert errors == [("object.json", "`samples` is a JSON dict, not a list"),
                      ("twice.json", f"samples[{len(obj['samples'])}] is a JSON int, not a sample object")]


def test_an_eval_set_listing_is_ignored_and_the_logs_beside_it_land(tmp_path):
    """inspect_ai's eval_set writes logs.json beside its logs: an object keyed by log file name whose values are
    copies of those logs' headers (its first bytes hold `version`, `status` and `eval` too). It is not a log: it is
    ignored, with that reason, and quarantines nothing; the logs beside it land."""
    from evalhouse.load import load_paths

    src = next((LOGS / "both_models").glob("*.json"))
    log = json.loads(src.read_text())
    header = {k: v for k, v in log.items() if k not in ("samples", "reductions")}
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copyfile(src, logs / src.name)
    (logs / "logs.json").write_text(json.dumps({src.name: header}, indent=2))
    (logs / "eval-set.json").write_text(json.dumps({"eval_set_id": "x", "tasks": [{"name": "qa"}]}, indent=2))
    db = tmp_path / "w.duckdb"
    summary = load_paths([str(logs)], str(db))
    why = dict(summary.ignored)
    assert "eval-set listing" in why[str(logs / "logs.json")]
    assert why[str(logs / "eval-set.json")] == "not a file evalhouse loads"
    assert summary.files_failed == 0 and query(db, "select count(*) from raw.load_errors") == [(0,)]
    assert query(db, "select distinct source_file from raw.inspect_members") == [(str(logs / src.name),)]


def test_a_quarantined_file_is_reported_under_its_family(tmp_path):
    """A file the loader could not read is a LOAD finding of its own family, told by its name the way discovery
    tells it (an inspect log under inspect_ai's default logs/ folder is not a matrix log), or by --family."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "broken.eval").write_bytes(b"PK\x03\x04 truncated")
    (tmp_path / "logs" / "trunc.json").write_text('{"version": 2, "status": "success", "eval": {')
    (tmp_path / "logs" / "runs.jsonl").write_text('{"scenario_id": "s", "turn_index": 0}\n{not json\n')
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "big.jsonl").write_text('{"id": 1}\n{not json\n')
    db = tmp_path / "w.duckdb"
    assert _load(tmp_path / "logs", db, "--create") == 0
    assert main(["load", str(tmp_path / "elsewhere"), "--db", str(db), "--quiet", "--family", "big"]) == 0
    dbt(["run", "--select", "+int_dq__raw_load_quarantine"], db, tmp_path / "target")
    got = dict(query(db, "select regexp_extract(source_file, '[^/]+$'), source_family "
                         "from intermediate.int_dq__raw_load_quarantine"))
    assert got == {"broken.eval": "inspect", "trunc.json": "inspect", "runs.jsonl": "matrix", "big.jsonl": "big"}
