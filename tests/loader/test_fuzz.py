"""Property test of the loader over arbitrary bytes split into lines (issue 7 "Fuzzing").

For every file: records landed + lines quarantined + blank lines = complete lines in the file; the
loader never raises; a line that Python's json reads as an object lands with exactly the value
Python's json gives (NaN/Infinity -> null, lone surrogates -> U+FFFD: the documented repairs).

Bounded and derandomized in CI (60 examples, the same ones every run, so CI is reproducible);
HYPOTHESIS_PROFILE=long runs 2000 random ones (`make fuzz`).
"""
from __future__ import annotations

import itertools
import json
import math
import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lutil import load, q

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.register_profile("evalhouse-loader-ci", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("evalhouse-loader-long", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FUZZ = settings.get_profile("evalhouse-loader-long" if PROFILE == "long" else "evalhouse-loader-ci")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=12)


def _dup_key_line(d):
    """An object text with a repeated key (Python keeps the last value)."""
    items = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in d.items()] + ['"k": 1', '"k": [2]']
    return "{" + ", ".join(items) + "}"


def _nested_dup_line(d):
    return '{"outer": {"x": 1, "x": 2}, "l": [{"y": 1}, {"y": 2}], "extra": ' + json.dumps(d) + "}"


line_bytes = st.one_of(
    st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")),                      # arbitrary bytes
    st.text(max_size=30).map(lambda s: s.replace("\n", "").encode("utf-8", "surrogatepass")),
    st.dictionaries(st.text(max_size=6), json_values, max_size=5).map(lambda d: json.dumps(d).encode()),
    st.dictionaries(st.text(max_size=6), json_values, max_size=3).map(lambda d: _dup_key_line(d).encode()),
    st.dictionaries(st.text(max_size=6), json_values, max_size=2).map(lambda d: _nested_dup_line(d).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),                                 # non-objects
    st.sampled_from([b"", b"   ", b"\t", b"\r", b'{"a": 1}\r', b'{"a": nan}', b'{"a": 1,}', b'{"a": "\\ud800"}',
                     b'{"a": 1e999}', b'{"a": -Infinity}', b'{"a"  : 1, "a": 2}', b'{"a\\u0062": 1, "ab": 2}',
                     b'[1,]', b'{"a": "\xff"}', b'\x00', b'{"x": inf}', b'{"a": "\\u0000"}']),
)


def _normalise(v):
    """Python's value with the loader's documented repairs applied."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, str):
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in v)
    if isinstance(v, dict):
        return {_normalise(k): _normalise(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_normalise(x) for x in v]
    return v


def _python_expectation(raw: bytes, first: bool):
    """('blank'|'quarantined'|'landed', value) the way Python's json reads this line."""
    if first and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "quarantined", None
    if text.strip(" \t\r") == "":
        return "blank", None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return "quarantined", None
    if not isinstance(value, dict):
        return "quarantined", None
    return "landed", _normalise(value)


_counter = itertools.count()


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(lines=st.lists(line_bytes, max_size=12), tail=st.binary(max_size=10), bom=st.booleans())
@example(lines=[], tail=b"\xef\xbb\xbf", bom=False)          # a file that is only a BOM: nothing pending
@example(lines=[], tail=b"\xef\xbb\xbf", bom=True)           # a BOM, then a partial line that is a BOM
@example(lines=[], tail=b"\xef\xbb", bom=False)               # half a BOM is a partial line
def test_lines_add_up_and_objects_land_as_python_reads_them(fuzz_dir, lines, tail, bom):
    tail = tail.replace(b"\n", b"")
    data = (b"\xef\xbb\xbf" if bom else b"") + b"".join(line + b"\n" for line in lines) + tail
    n = next(_counter)
    path = fuzz_dir / "logs_big" / f"f{n}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    db = fuzz_dir / f"w{n}.duckdb"                       # one database per example: no cross-file duplicates
    s = load(path, db)                                   # never raises
    f = s.by_path()[str(path)]
    if data.startswith(b"\x1f\x8b\x08"):                 # gzip magic: a whole-file error by design
        assert f.status == "failed"
        db.unlink()
        return
    assert f.lines == len(lines)
    assert f.landed + f.quarantined + f.blank == f.lines
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data   # a leading BOM is not content
    assert f.pending == (1 if body[body.rfind(b"\n") + 1:] else 0)
    raw_lines = data[:data.rfind(b"\n") + 1].split(b"\n")[:-1] if lines else []
    expected = [_python_expectation(raw, i == 0) for i, raw in enumerate(raw_lines)]
    got = q(db, "SELECT 'landed', source_line, record FROM raw.big_lines UNION ALL "
                "SELECT 'quarantined', source_line, NULL FROM raw.load_errors")
    landed = {r[1]: r[2] for r in got if r[0] == "landed"}
    quarantined = {r[1] for r in got if r[0] == "quarantined"}
    for n, (kind, value) in enumerate(expected, start=1):
        if kind == "landed":
            assert n in landed, f"line {n} {raw_lines[n - 1]!r} should land"
            assert json.loads(landed[n]) == value, f"line {n} {raw_lines[n - 1]!r}"
        elif kind == "quarantined":
            assert n in quarantined and n not in landed, f"line {n} {raw_lines[n - 1]!r} should be quarantined"
        else:
            assert n not in landed and n not in quarantined
    assert f.blank == sum(k == "blank" for k, _ in expected)
    assert q(db, "SELECT count(*) FROM raw.big_lines WHERE record_sha256 <> sha256(record)") == [(0,)]
    db.unlink()
