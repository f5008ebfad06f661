"""The direct path (one DuckDB read_csv statement per file on its first landing) lands exactly what the
chunked path lands, is used only when its preconditions hold, and falls back -- never half-lands --
when DuckDB's reading cannot be trusted or the file changes under the load."""
from __future__ import annotations

import json
import os

import pytest

import evalhouse.load as L
from evalhouse.loader import prepass as P, statements as S

from lutil import errors, load, q, write
from test_bad_input import CASES

BOM_ = b"\xef\xbb\xbf"


def _raw(db, path):
    return q(db, "SELECT source_line, record, record_sha256, repaired, file_sha256 FROM raw.big_lines "
                 "WHERE source_file = ? ORDER BY source_line", [str(path)])


def _outcome(tmp_path, name, data, direct, monkeypatch, batch=False):
    monkeypatch.setenv("EVALHOUSE_LOAD_DIRECT", "1" if direct else "0")
    monkeypatch.setenv("EVALHOUSE_LOAD_BATCH", "1" if batch else "0")
    root = tmp_path / ("batch" if batch else "direct" if direct else "chunked")
    path = write(root / "logs_big" / f"{name}.jsonl", data)
    db = root / "w.duckdb"
    s = load(root, db)
    f = s.by_path()[str(path)]
    return {
        "rows": _raw(db, path),
        "errors": errors(db, path),
        "counts": (f.lines, f.landed, f.quarantined, f.blank, f.pending, f.status),
        "loads": q(db, "SELECT records_landed, lines_quarantined, lines_blank FROM raw.loads"),
    }, f.landed_by


def _mixed_file() -> bytes:
    """Every catalogue case the direct path may take, one after the other in one file, plus clean lines."""
    parts = [json.dumps({"i": i, "tag": "clean"}).encode() + b"\n" for i in range(300)]
    for name in sorted(CASES):
        data = CASES[name][0]
        data = data if isinstance(data, bytes) else data.encode()
        if b"\r" in data or b"\x00" in data or name in ("invalid_utf8_in_string", "utf8_bom", "line_of_20_mb"):
            continue
        parts.append(data)
    parts.append(b'\n   \n\t\n')                    # blank lines
    parts.append(b'{"i": 1, "i": 2}\n')            # a repeated key after 300 repeat-free lines
    parts.append(b'{"tag": "clean", "i": 3}\n')    # same keys, another order
    parts.append(b'{"partial"')                    # not landed: no newline yet
    return b"".join(parts)


@pytest.mark.parametrize("name", sorted(CASES) + ["mixed"])
def test_direct_and_chunked_paths_land_the_same(tmp_path, monkeypatch, name):
    data = _mixed_file() if name == "mixed" else CASES[name][0]
    direct, direct_by = _outcome(tmp_path, name, data, True, monkeypatch)
    chunked, chunked_by = _outcome(tmp_path, name, data, False, monkeypatch)
    assert direct == chunked
    assert chunked_by != "direct"
    # the small-file batch (many first landings in one statement) lands the same too
    batched, _ = _outcome(tmp_path, name, data, True, monkeypatch, batch=True)
    assert batched == chunked
    raw = data if isinstance(data, bytes) else data.encode()
    if raw and b"\r" not in raw and b"\x00" not in raw and name != "invalid_utf8_in_string":
        assert direct_by == "direct", "the direct path lands every file whose preconditions hold"
    else:
        assert direct_by != "direct"


def test_mixed_file_really_exercises_the_second_look(tmp_path, monkeypatch):
    out, landed_by = _outcome(tmp_path, "mixed", _mixed_file(), True, monkeypatch)
    assert landed_by == "direct"
    lines, landed, quarantined, blank, pending, _ = out["counts"]
    assert quarantined >= 8 and blank >= 3 and pending == 1 and landed > 300
    notes = [r[3] for r in out["rows"] if r[3]]
    assert any("duplicate keys (last wins): i" in n for n in notes)
    assert any(n.startswith("nonfinite") for n in notes)


def test_crlf_nul_and_invalid_utf8_files_take_the_chunked_path(tmp_path):
    for name, data in [("crlf", b'{"a": 1}\r\n{"a": 2}\r\n'), ("nul", b'{"a": 1}\n{"a": "\x00"}\n'),
                       ("latin1", b'{"a": 1}\n{"a": "caf\xe9"}\n'), ("cut_char", b'{"a": "\xc3"}\n')]:
        path = write(tmp_path / f"{name}.jsonl", data)
        assert P.scan_file(str(path)).direct_ok is False, name
    clean = write(tmp_path / "clean.jsonl", '{"a": "caf\u00e9"}\n{"b": 2}\n')
    sc = P.scan_file(str(clean))
    assert sc.direct_ok and sc.lines == 2 and sc.key_lists == [["a"], ["b"]]


def test_scan_hashes_and_counts_across_block_boundaries(tmp_path, monkeypatch):
    import hashlib
    monkeypatch.setattr(P, "READ_BLOCK", 5)
    data = '{"a": "\u00e9\u00e9\u00e9"}\n{"b": 2}\n{"c"'.encode()
    path = write(tmp_path / "a.jsonl", data)
    sc = P.scan_file(str(path))
    end = data.rfind(b"\n") + 1
    assert (sc.size, sc.end, sc.lines) == (len(data), end, 2)
    assert sc.end_sha == hashlib.sha256(data[:end]).hexdigest()
    assert sc.file_sha == hashlib.sha256(data).hexdigest()
    assert sc.direct_ok, "a character cut by a block boundary is not an encoding error"


def test_a_line_count_mismatch_falls_back_to_the_chunked_path(tmp_path, monkeypatch):
    """If DuckDB's split disagrees with the pre-pass, the direct rows are removed and the file lands chunked."""
    monkeypatch.setattr(S, "DIRECT_INSERT", S.DIRECT_INSERT.replace("WHERE n <= $n_lines", "WHERE n <= $n_lines "
                                                                       "AND n <> 2"))
    path = write(tmp_path / "logs_big" / "a.jsonl", "".join(json.dumps({"i": i}) + "\n" for i in range(5)))
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.records_landed == 5
    assert [(r[0], json.loads(r[1])) for r in _raw(db, path)] == [(i + 1, {"i": i}) for i in range(5)]


def test_a_duckdb_error_on_the_direct_path_retries_the_whole_load_chunked(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "DIRECT_INSERT", "SELECT * FROM read_csv('/nonexistent/evalhouse/no.csv')")
    a = write(tmp_path / "logs_big" / "a.jsonl", '{"i": 1}\n{"i": 2}\n')
    b = write(tmp_path / "logs_big" / "b.jsonl", '{"i": 3}\n')
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.records_landed == 3 and s.files_loaded == 2
    assert [r[0] for r in _raw(db, a)] == [1, 2] and [r[0] for r in _raw(db, b)] == [1]
    assert q(db, "SELECT count(*), sum(records_landed) FROM raw.loads") == [(1, 3)], "the failed attempt left nothing"
    assert q(db, "SELECT count(*) FROM raw.files") == [(2,)]


def _rewrite_2_to_7(path):
    data = bytearray(path.read_bytes())
    data[data.index(b"2")] = ord("7")
    path.write_bytes(bytes(data))
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


def test_a_file_rewritten_during_the_load_is_never_half_landed(tmp_path, monkeypatch):
    """The file changes between the pre-pass and DuckDB's read (same size, new bytes): nothing is written."""
    path = write(tmp_path / "logs_big" / "a.jsonl", "".join(json.dumps({"i": i}) + "\n" for i in range(4)))
    real = L._Loader._prefetched_scan

    def scan_then_rewrite(self, p, st):
        sc = real(self, p, st)
        _rewrite_2_to_7(path)
        return sc
    monkeypatch.setattr(L._Loader, "_prefetched_scan", scan_then_rewrite)
    db = tmp_path / "w.duckdb"
    with pytest.raises(L.LoadError, match="changed while it was being loaded"):
        load(tmp_path, db)
    assert q(db, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'raw'") == [(0,)], \
        "the load's transaction was rolled back: not even the raw schema was committed"


def test_a_prefetched_pre_pass_of_a_file_that_changed_since_is_not_used(tmp_path, monkeypatch):
    """The pre-pass runs ahead in a thread; if the file changes after it, the load scans it again."""
    path = write(tmp_path / "logs_big" / "a.jsonl", "".join(json.dumps({"i": i}) + "\n" for i in range(4)))
    real = P.safe_scan_file
    calls = []

    def scan_then_rewrite(p, shas_dir=None):
        sc = real(p, shas_dir)
        if not calls:
            _rewrite_2_to_7(path)
        calls.append(p)
        return sc
    monkeypatch.setattr(P, "safe_scan_file", scan_then_rewrite)
    real_load_jsonl = L._Loader.load_jsonl

    def load_jsonl_after_the_prefetch(self, item):
        self._scans[item.path][1].result()              # the rewrite has happened before the file's turn
        return real_load_jsonl(self, item)
    monkeypatch.setattr(L._Loader, "load_jsonl", load_jsonl_after_the_prefetch)
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert calls == [str(path)], "the pre-pass was prefetched"
    assert s.records_landed == 4
    assert [json.loads(r[1])["i"] for r in _raw(db, path)] == [0, 1, 7, 3], "the file as it is now"
    assert q(db, "SELECT file_sha256 FROM raw.files") == [(P.scan_file(str(path)).file_sha,)]


def test_the_pre_pass_hashes_each_line_as_duckdb_stores_it(tmp_path, monkeypatch):
    """Line hashes from the pre-pass: no newline, no leading BOM, blank lines too, none for a partial line,
    the same across block boundaries."""
    import hashlib
    lines = [b'{"a": "\xc3\xa9"}', b"", b"   ", b'{"b": 2}', b'{"c": [1, 2, 3]}']
    data = BOM_ + b"\n".join(lines) + b'\n{"partial"'
    path = write(tmp_path / "a.jsonl", data)
    expected = [hashlib.sha256(ln).hexdigest() for ln in lines]
    for block in (P.READ_BLOCK, 1, 2, 3, 4, 7):                 # a BOM cut by a block boundary too
        monkeypatch.setattr(P, "READ_BLOCK", block)
        shas = tmp_path / f"shas{block}"
        shas.mkdir()
        sc = P.scan_file(str(path), str(shas))
        assert sc.lines == len(lines)
        assert open(sc.line_shas).read().split() == expected, block


def test_no_line_hashes_for_files_that_take_the_chunked_path(tmp_path):
    shas = tmp_path / "shas"
    shas.mkdir()
    path = write(tmp_path / "crlf.jsonl", b'{"a": 1}\r\n{"a": 2}\r\n')
    assert P.scan_file(str(path), str(shas)).line_shas is None
    assert list(shas.iterdir()) == []


def test_a_line_hash_out_of_step_with_the_lines_is_caught_and_rehashed(tmp_path, monkeypatch):
    """The guard behind the positional pairing of lines and pre-pass hashes."""
    real = P.line_digests
    monkeypatch.setattr(P, "line_digests", lambda lines: real(list(lines)[1:] + [b"x"]))   # shifted by one
    path = write(tmp_path / "logs_big" / "a.jsonl", "".join(json.dumps({"i": i}) + "\n" for i in range(50)))
    db = tmp_path / "w.duckdb"
    s = load(tmp_path, db)
    assert s.records_landed == 50
    assert q(db, "SELECT count(*) FROM raw.big_lines WHERE record_sha256 <> sha256(record)") == [(0,)]
    assert [json.loads(r[1])["i"] for r in _raw(db, path)] == list(range(50))
    assert not os.path.exists(f"{db}.lines.tmp")


def test_no_line_hashes_outlive_their_file(tmp_path, monkeypatch):
    """A pre-pass's line hashes are deleted once its file is done (landed, or a duplicate that lands
    nothing), so at most SCAN_AHEAD + 1 files' hashes are on disk; the folder goes with the load."""
    monkeypatch.setenv("EVALHOUSE_LOAD_BATCH", "0")      # tiny files: else they land in one batch
    first = write(tmp_path / "logs_big" / "a.jsonl", "".join(json.dumps({"i": i}) + "\n" for i in range(6)))
    db = tmp_path / "w.duckdb"
    load(tmp_path, db)
    files = [write(tmp_path / "logs_big" / f"n{k}.jsonl", json.dumps({"k": k}) + "\n") for k in range(3)]
    files += [write(tmp_path / "logs_big" / f"copy{k}.jsonl", first.read_bytes()) for k in range(3)]
    files += [write(tmp_path / "logs_big" / f"p{k}.jsonl", json.dumps({"p": k}) + "\n") for k in range(3)]
    real = P.scan_file
    hashed = []

    def spy(p, shas_dir=None):
        sc = real(p, shas_dir)
        hashed.append(sc.line_shas is not None)
        return sc
    monkeypatch.setattr(P, "scan_file", spy)
    real_land = L._Loader._land_direct
    on_disk = []

    def land_and_look(self, *a, **kw):
        on_disk.append(len(os.listdir(f"{db}.lines.tmp")))
        return real_land(self, *a, **kw)
    monkeypatch.setattr(L._Loader, "_land_direct", land_and_look)
    s = load(tmp_path, db)
    assert s.files_duplicate == 3 and s.records_landed == 6
    assert len(hashed) == len(files) and all(hashed)
    assert len(on_disk) == 6 and max(on_disk) <= P.SCAN_AHEAD + 1, on_disk
    assert q(db, "SELECT count(*) FROM raw.big_lines WHERE record_sha256 <> sha256(record)") == [(0,)]
    assert not os.path.exists(f"{db}.lines.tmp")


@pytest.mark.parametrize("direct, batch, want", [("1", "0", "direct"), ("0", "0", "chunked"), ("1", "1", "batch"),
                                                 ("0", "1", "batch")])
def test_each_file_says_how_its_lines_landed(tmp_path, monkeypatch, direct, batch, want):
    """FileResult.landed_by: the direct path, the chunked path or the small-file batch; None when nothing landed."""
    monkeypatch.setenv("EVALHOUSE_LOAD_DIRECT", direct)
    monkeypatch.setenv("EVALHOUSE_LOAD_BATCH", batch)
    path = write(tmp_path / "logs_big" / "a.jsonl", "".join(json.dumps({"i": i}) + "\n" for i in range(3)))
    db = tmp_path / "w.duckdb"
    assert load(tmp_path, db).by_path()[str(path)].landed_by == want
    again = load(tmp_path, db).by_path()[str(path)]
    assert (again.status, again.landed_by) == ("unchanged", None)
