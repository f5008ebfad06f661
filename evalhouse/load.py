"""`evalhouse load`: land JSONL logs and coder-eval documents in the raw schema, exactly once.

How a JSONL file lands (the hot path does no per-line Python JSON parsing):

1. A file's FIRST landing (or its replacement) -- the direct path:
   a. Python streams the file once (READ_BLOCK pieces, nothing kept): sha256 of the whole file and of
      its complete lines, the newline count, and whether DuckDB's line split will equal Python's (no
      CR, no NUL, valid UTF-8). It also collects the repeat-free top-level key lists of the first lines.
   b. One DuckDB statement per file (_DIRECT_INSERT) reads it with DuckDB's own CSV scanner (whole
      lines, no quoting, BOM dropped), numbers the lines with row_number() over the order-preserving
      scan, and inserts every complete line with its sha256. The numbering is a streaming window, which
      keeps that statement on one thread, so it does nothing else.
   c. A second statement (_DIRECT_CHECK_HEAD/_TAIL), a parallel scan of the rows just landed, returns
      the few lines that need a second look (step 3); Python resolves them (UPDATE / DELETE) before the
      commit.
   d. The insert must land exactly the pre-pass's line count and the file must be unchanged since the
      pre-pass (else its rows are deleted and it lands the chunked way); if DuckDB raises, the whole
      load is rolled back and retried without the direct path.
   The pre-passes of the files to come run in a thread pool (_Loader.prefetch) while DuckDB lands
   the current file.
2. Appends, and files the direct path cannot take (CR line ends, NUL bytes, invalid UTF-8) -- the
   chunked path: for a registered file the landed prefix (``bytes_landed``) is hashed from a memory
   map (in parallel threads across files, see _Loader.prefetch) and compared with the stored
   prefix sha256; only the bytes after it are read into memory. DuckDB splits each CHUNK_BYTES chunk
   into lines (``string_split`` + ``unnest ... WITH ORDINALITY`` for the 1-based line numbers), strips
   CR and a leading UTF-8 BOM, skips blank lines, validates with ``json_valid``/``json_type`` -- one
   ``CREATE TEMP TABLE ... AS`` per chunk does split and classification together -- then one
   ``INSERT ... SELECT`` lands the ``ok`` lines with their ``sha256``; all in SQL.
   A partial last line (no newline yet) is never landed; it lands once completed.
3. Only *candidate* lines get a second look in Python's ``json``: lines DuckDB rejects, lines
   that are not objects, and lines a cheap SQL superset test flags because DuckDB and Python
   could disagree on them:
   - non-finite numbers: a value position followed by nan/inf in any case
     (``[\\[:,]\\s*[-+]?(?i:nan|inf)``; DuckDB accepts ``nan``/``inf``/``NaN``/``Infinity``),
     numbers with 3+ exponent digits or 300+ digits (Python reads 1e400 as inf);
   - trailing commas (DuckDB accepts ``{"a":1,}``, Python does not): ``,\\s*[\\]}]``;
   - duplicate keys (DuckDB keeps the first, Python the last): found exactly in SQL with
     ``json_keys(text)`` (top level, computed once per line; a key list equal to one of the sampled
     repeat-free lists skips the ``list_distinct`` test) and ``json_keys(text, '$..*')`` (every nested
     object; run only on lines with a second ``{``, which any nested object needs): some object lists
     a key twice.
   Python then lands the line as its ``json`` module reads it: NaN/Infinity rewritten to null
   (``repaired`` = ``nonfinite: $.path``), duplicate keys resolved last-wins (record rewritten,
   ``repaired`` = ``duplicate keys: ...``), lone UTF-16 surrogates (Python accepts, DuckDB does
   not) replaced by U+FFFD (flagged); or quarantines it with the reason.
4. Invalid UTF-8: the chunk falls back to a Python line split; only the undecodable lines are
   quarantined ("invalid UTF-8 ... re-encode the file as UTF-8"), the others land.
   NUL bytes: the line is quarantined (never valid JSON text).
   A gzip file with a .jsonl name is a whole-file error ("not text (gzip compressed)").

Exactly once (``raw.files``): unchanged size+mtime skips the file without reading it (if the
mtime is "racy" -- within 2 s of the load that registered it -- the whole-file hash decides);
appended lines land alone; a rewritten prefix replaces the file's rows as a unit; a new file
whose content equals a file already landed is a duplicate (lands nothing).
The append guarantee is exact, not sampled: a grown file counts as appended only if the sha256
of its first ``bytes_landed`` bytes equals the stored ``prefix_sha256`` (every landed byte is
re-hashed once, from a memory map, several files in parallel -- an append costs one sha256 of the landed prefix,
plus the work on the new lines); any other change (a byte rewritten anywhere in the landed part,
a truncation, another family) replaces the file. Size and mtime alone never prove an append.
One load is one DuckDB transaction; the evalhouse lock (evalhouse.locking) serialises writers.
Memory: the load connection runs with ``SET memory_limit`` = MEMORY_LIMIT (1GB;
$EVALHOUSE_LOAD_MEMORY_LIMIT overrides) so DuckDB spills to ``<db>.tmp`` rather than growing
with the input; Python holds at most one READ_BLOCK per pre-pass thread on the direct path, and on
the chunked path one file's unlanded bytes (an append: only the new tail) plus one decoded chunk.
Disk: the pre-passes write line hashes (65 bytes a line) to ``<db>.lines.tmp/``, at most SCAN_AHEAD
files ahead of the one being landed; each file's hashes are deleted once it is landed, and the folder
when the load ends (the next load clears a killed load's folder first: the lock makes it stale).
$EVALHOUSE_LOAD_DIRECT=0 turns the direct path off (A/B benchmarks, tests).
Many small files: a first landing of at most SMALL_FILE_BYTES waits in a batch (_batch_small); one
classification statement and one INSERT per family land up to BATCH_FILES files or BATCH_BYTES at a time
(flush_small; flushed before any row is deleted and at the end of the pass). $EVALHOUSE_LOAD_BATCH=0: off.
Record limit: a line or document past $EVALHOUSE_MAX_RECORD_BYTES (default 32 MiB) is quarantined and the rest
lands; raw.files.oversize_cap remembers the limit, and a load under a larger one lands the file again, whole.
Storage: the load writes its rows zstd-compressed (SET force_compression; $EVALHOUSE_LOAD_COMPRESSION=auto
leaves the choice to DuckDB): JSON text takes about half the space and lands faster.
"""
from __future__ import annotations

import codecs
import errno
import hashlib
import json
import math
import mmap
import os
import re
import shutil
import sys
import tempfile
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime, timezone

import duckdb

from .discover import Item, discover
from .locking import DatabaseBusy, connect_rw, db_lock
from .paths import disk_full_message, is_disk_full
from .schema import CE_TABLES, JSONL_TABLES, ensure_raw_schema

RAW_TEXT_MAX = 4096          # chars of offending text kept in raw.load_errors
CHUNK_BYTES = 64 << 20       # bytes per DuckDB split/validate batch
RACY_NS = 2_000_000_000      # mtime this close to the registering load: verify by hash
SHOW_ERRORS = 8
MAX_RECORD_BYTES = 32 << 20  # a line or document past this is quarantined ($EVALHOUSE_MAX_RECORD_BYTES overrides)
GZIP_MAGIC = b"\x1f\x8b\x08"
BOM = b"\xef\xbb\xbf"

# SQL superset filters (see module docstring); constants, never built from data.
_SUSPICIOUS_RE = r"[\[:,]\s*[-+]?(?i:nan|inf)|,\s*[\]}]|[eE][-+]?[0-9]{3,}|[0-9]{300,}"

_SPLIT_SRC = """
SELECT CAST($base AS BIGINT) + t.ord AS line_no, t.part AS text
FROM unnest(string_split($chunk, chr(10))) WITH ORDINALITY AS t(part, ord)
"""
_LIST_SRC = """
SELECT unnest($nos::BIGINT[]) AS line_no, unnest($texts::VARCHAR[]) AS text
"""
# Duplicate keys, exactly, in SQL: DuckDB's json_keys keeps repeated keys (decoded, so "a\\u0062" and
# "ab" compare equal); json_keys(text) covers the top-level object and json_keys(text, '$..*') (recursive
# descent) every nested object, inside arrays too. A line with a repeated key in any object goes to Python.
# CASE evaluates each WHEN only for the rows that reach it, so the costlier tests run on fewer rows
# (nested CASEs, not AND: json_type/json_keys must never see a line json_valid rejected). The top-level
# keys are computed once (column `keys`, NULL for blank, invalid and non-object lines). The nested test
# runs only when a second '{' follows the first character: a nested object needs one (a sound superset
# filter; a '{' inside a string only costs the exact test).
# The WHENs that pick a JSON text (column `text`, its top-level keys in `keys`) for Python's second look
# ('check') or pass it ('ok'); shared by the chunked path (_CLASSIFY_TAIL) and the direct path (_DIRECT_CHECK_*).
_SECOND_LOOK_WHEN = f"""WHEN keys IS NULL THEN 'check'
        WHEN regexp_matches(text, '{_SUSPICIOUS_RE}') THEN 'check'
        WHEN NOT list_contains($key_lists::VARCHAR[][], keys) AND len(keys) <> len(list_distinct(keys)) THEN 'check'
        WHEN strpos(substr(text, 2), '{{') = 0 THEN 'ok'
        WHEN coalesce(list_bool_or(list_transform(json_keys(text, '$..*'),
                                                  lambda k: len(k) <> len(list_distinct(k)))), false) THEN 'check'
        ELSE 'ok'"""
def _classify_tail(carry: str = "") -> str:
    """The classification after the line source `l`; `carry` = columns passed through (e.g. "fid, ")."""
    return f"""
), s AS (
    SELECT {carry}line_no, CASE WHEN ends_with(text, chr(13)) THEN rtrim(text, chr(13)) ELSE text END AS text
    FROM l
), v AS (
    SELECT {carry}line_no, text, regexp_matches(text, '[^ \\t\\r]') AS nonblank, json_valid(text) AS valid
    FROM s
), k AS (
    SELECT {carry}line_no, text, nonblank,
        CASE WHEN NOT nonblank OR NOT valid THEN NULL
             WHEN json_type(text) <> 'OBJECT' THEN NULL
             ELSE json_keys(text) END AS keys
    FROM v
)
SELECT {carry}line_no, text,
    CASE
        WHEN NOT nonblank THEN 'blank'
        {_SECOND_LOOK_WHEN}
    END AS kind
FROM k
"""


_CLASSIFY_TAIL = _classify_tail()
# split + classify in one statement, materialised once (the text path: one chunk string in, numbered lines out)
_SPLIT_SQL = f"CREATE OR REPLACE TEMP TABLE _eh_cls AS WITH l AS ({_SPLIT_SRC}{_CLASSIFY_TAIL}"
_LIST_SQL = f"CREATE OR REPLACE TEMP TABLE _eh_cls AS WITH l AS ({_LIST_SRC}{_CLASSIFY_TAIL}"
# many small files at once (_SmallBatch): the same classification, each line tagged with its file's index
_BATCH_SRC = """
SELECT unnest($fids::INTEGER[]) AS fid, unnest($nos::BIGINT[]) AS line_no, unnest($texts::VARCHAR[]) AS text
"""
_BATCH_SQL = f"CREATE OR REPLACE TEMP TABLE _eh_cls AS WITH l AS ({_BATCH_SRC}{_classify_tail('fid, ')}"
SMALL_FILE_BYTES = 64 << 10   # a first landing this small goes in a batch with others (one statement per batch)
BATCH_BYTES = 16 << 20        # ... of at most this many bytes
BATCH_FILES = 4096            # ... and files

# The direct path (a file's first landing, or its replacement), in two statements:
# 1. _DIRECT_INSERT: DuckDB's CSV scanner reads the file itself -- whole lines, no quote/escape/delimiter,
#    a UTF-8 BOM dropped -- numbers the lines with row_number() over the order-preserving scan and lands
#    every complete line with the sha256 the pre-pass computed. The numbering is a streaming window, so
#    this statement runs on one thread: it does nothing else.
# 2. _DIRECT_CHECK_HEAD + raw.<table> + _DIRECT_CHECK_TAIL: a parallel scan of the rows just landed (this
#    load, this file) returns the few lines that need a second look (blank, invalid, not an object, or
#    flagged by the superset tests above); Python resolves them (UPDATE / DELETE) before the commit.
# Used only when the pre-pass showed the file has no CR, no NUL and is valid UTF-8 (so DuckDB's line split
# is exactly Python's split on b"\n"), and statement 1 must land exactly the pre-pass's line count, or the
# file goes the chunked way instead.
# $key_lists: top-level key lists the pre-pass saw without a repeat in the file's first lines; a line
# whose key list equals one of them has no repeated top-level key, so the costlier list_distinct test
# runs only on the other lines (for schema-stable logs: none).
_CSV_LINES = ("read_csv($file, columns = {'line': 'VARCHAR'}, delim = chr(0), quote = '', escape = '', "
              "header = false, auto_detect = false, new_line = '\\n', max_line_size = 2147483647)")
# The pre-pass computed every line's sha256 (_Scan.line_shas, one hex digest per line); the same scanner
# reads them and POSITIONAL JOIN pairs them with the lines. _DIRECT_SHA_PROBE then compares them with
# DuckDB's own sha256 on a sample that any misalignment would hit (line 1, every 997th line, the last
# lines); a mismatch rehashes the file's rows in SQL (_DIRECT_SHA_REDO). Never expected: it is a guard.
_DIRECT_INSERT = f"""
SELECT $load_id, $at, $file, n, coalesce(line, ''), sha, $fsha, NULL
FROM (SELECT row_number() OVER () AS n, a.line, b.line AS sha
      FROM {_CSV_LINES} AS a POSITIONAL JOIN {_CSV_LINES.replace("$file", "$shas")} AS b)
WHERE n <= $n_lines
"""
_DIRECT_SHA_PROBE = """
WHERE load_id = $load_id AND source_file = $file
  AND (source_line % 997 = 1 OR source_line > $n_lines - 3) AND record_sha256 IS DISTINCT FROM sha256(record)
"""
_DIRECT_SHA_REDO = """
SET record_sha256 = sha256(record) WHERE load_id = $load_id AND source_file = $file
"""
_DIRECT_CHECK_HEAD = """
SELECT source_line, text, coalesce(valid, false)
FROM (
    SELECT source_line, text, valid,
        CASE WHEN valid THEN json_keys(text) END AS keys
    FROM (
        SELECT source_line, record AS text, starts_with(record, '{') AND json_valid(record) AS valid
        FROM """
_DIRECT_CHECK_TAIL = f"""
        WHERE load_id = $load_id AND source_file = $file
    )
)
WHERE CASE
        {_SECOND_LOOK_WHEN}
    END = 'check'
ORDER BY source_line
"""


class UsageError(ValueError):
    """Bad arguments (exit code 2)."""


class LoadError(RuntimeError):
    """A fatal error: nothing was written (exit code 1)."""


class _DirectPathFailed(RuntimeError):
    """DuckDB's scanner raised on a file the pre-pass passed: the load is retried without the direct path."""


@dataclass
class FileResult:
    path: str
    status: str              # loaded | appended | replaced | unchanged | duplicate | failed
    family: str | None = None
    lines: int = 0           # complete lines read by this load (JSONL)
    landed: int = 0
    quarantined: int = 0
    blank: int = 0
    pending: int = 0         # 1 if a partial last line (no newline yet) was left for later
    duplicate_of: str | None = None
    continues: str | None = None      # a copy that grew: the landed file its first lines repeat


@dataclass
class LoadSummary:
    load_id: str
    db: str
    files_seen: int = 0
    files_loaded: int = 0
    files_unchanged: int = 0
    files_ignored: int = 0
    files_duplicate: int = 0
    files_replaced: int = 0
    files_failed: int = 0
    records_landed: int = 0
    duplicates_skipped: int = 0
    lines_quarantined: int = 0
    lines_blank: int = 0
    lines_pending: int = 0
    seconds: float = 0.0
    errors: list[tuple[str, int | None, str]] = field(default_factory=list)   # (file, line, reason)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    files: list[FileResult] = field(default_factory=list)

    def by_path(self) -> dict[str, FileResult]:
        return {f.path: f for f in self.files}


# --------------------------------------------------------------------------------------------
# Python's reading of one JSON text (the second look)
# --------------------------------------------------------------------------------------------

def _cut(text: str) -> str:
    if len(text) <= RAW_TEXT_MAX:
        return text
    return text[:RAW_TEXT_MAX] + f"... [cut: {len(text)} chars in all]"


def _kind_of(obj) -> str:
    if isinstance(obj, list):
        return "an array"
    if obj is None:
        return "null"
    if isinstance(obj, bool):
        return "a boolean"
    if isinstance(obj, (int, float)):
        return "a number"
    if isinstance(obj, str):
        return "a string"
    return type(obj).__name__


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _has_surrogate(s: str) -> bool:
    return _SURROGATE.search(s) is not None


def _fix_surrogates(s: str) -> str:
    return _SURROGATE.sub("\ufffd", s)


def _repair(obj, notes: dict[str, list[str]], path: str = "$"):
    """Non-finite floats -> None, lone surrogates -> U+FFFD; records the JSON paths touched."""
    if isinstance(obj, float):
        if not math.isfinite(obj):
            notes["nonfinite"].append(path)
            return None
        return obj
    if isinstance(obj, str):
        if _has_surrogate(obj):
            notes["surrogate"].append(path)
            return _fix_surrogates(obj)
        return obj
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            key = k
            if _has_surrogate(k):
                notes["surrogate"].append(f"{path} (key)")
                key = _fix_surrogates(k)
            out[key] = _repair(v, notes, f"{path}.{k}" if _plain_key(k) else f"{path}[{json.dumps(k)}]")
        return out
    if isinstance(obj, list):
        return [_repair(v, notes, f"{path}[{i}]") for i, v in enumerate(obj)]
    return obj


def _plain_key(k: str) -> bool:
    return k.isidentifier() and not _has_surrogate(k)


def python_read(text: str, what: str = "line", duckdb_ok: bool = True):
    """Read one JSON text as Python's json module does.

    Returns (record_text | None, repaired_note | None, error | None). record_text is None when
    the text must be quarantined (error says why); it is `text` itself unless a rewrite was needed.
    """
    dup_keys: list[str] = []

    def hook(pairs):
        d = dict(pairs)
        if len(d) < len(pairs):
            seen = set()
            for k, _ in pairs:
                if k in seen and k not in dup_keys:
                    dup_keys.append(k)
                seen.add(k)
        return d

    special = []  # NaN / Infinity tokens or float overflow seen: the tree needs a repair walk

    def parse_constant(tok):
        special.append(tok)
        return float(tok)

    def parse_float(tok):
        v = float(tok)
        if not math.isfinite(v):
            special.append(tok)
        return v

    try:
        obj = json.loads(text, object_pairs_hook=hook, parse_constant=parse_constant, parse_float=parse_float)
    except json.JSONDecodeError as exc:
        return None, None, f"invalid JSON: {exc.msg} (column {exc.colno})" if "\n" not in text.strip() else \
            f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    except RecursionError:
        return None, None, "invalid JSON for Python: nested too deeply"
    except ValueError as exc:  # e.g. an integer with more than 4300 digits
        return None, None, f"invalid JSON for Python: {exc}"
    if not isinstance(obj, dict):
        return None, None, (f"not a JSON object: the {what} is {_kind_of(obj)}; "
                            f"evalhouse expects one JSON object per {what}")
    notes: dict[str, list[str]] = {"nonfinite": [], "surrogate": []}
    fixed = obj
    if special or _SURROGATE_ESCAPE.search(text):
        try:
            fixed = _repair(obj, notes)
        except RecursionError:
            return None, None, "invalid JSON for Python: nested too deeply"
    parts = []
    if notes["nonfinite"]:
        parts.append("nonfinite: " + ", ".join(notes["nonfinite"][:20]))
    if dup_keys:
        parts.append("duplicate keys (last wins): " + ", ".join(dup_keys[:20]))
    if notes["surrogate"]:
        parts.append("lone surrogate replaced by U+FFFD: " + ", ".join(notes["surrogate"][:20]))
    if not parts and duckdb_ok:
        return text, None, None
    try:
        record = json.dumps(fixed, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (RecursionError, ValueError) as exc:
        return None, None, f"cannot store this JSON: {exc}"
    return record, ("; ".join(parts) or "rewritten: DuckDB could not read the original text"), None


# --------------------------------------------------------------------------------------------
# the loader
# --------------------------------------------------------------------------------------------

class _Progress:
    """A minimal progress bar on stderr, only on a TTY and only once a load takes a moment."""

    def __init__(self, total_bytes: int, enabled: bool):
        self.total = max(total_bytes, 1)
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.done = 0
        self.shown = False
        self.last = 0.0

    def advance(self, n: int, label: str = "") -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < 0.5 or now - self.last < 0.1:
            return
        self.last = now
        frac = min(self.done / self.total, 1.0)
        bar = "#" * int(frac * 30)
        name = os.path.basename(label)[-30:]
        sys.stderr.write(f"\rloading [{bar:<30}] {frac:6.1%} {name:<30}")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 80 + "\r")
            sys.stderr.flush()


def _pending(data: bytes, end: int, off: int = 0) -> int:
    """1 if bytes follow the last newline (a partial last line), not counting a lone leading BOM.

    `data` holds the file's bytes from offset `off`; `end` is an offset in the file."""
    tail = data[end - off:]
    if end == 0 and tail.startswith(BOM):
        tail = tail[len(BOM):]
    return 1 if tail else 0


def _read_file(path: str):
    """Open `path` for reading (binary); every file the loader reads goes through here."""
    return open(path, "rb")


READ_BLOCK = 8 << 20         # bytes per read of a file's first landing
SCAN_AHEAD = 2               # pre-passes running or done ahead of the file being landed
PREFIX_BLOCK = 64 << 20      # bytes per hashlib update while verifying a landed prefix


def _hash_prefix(path: str, n: int):
    """(first 3 bytes, a sha256 state that has consumed the first n bytes of path), or None if it is shorter.

    Hashes straight from a read-only memory map (no copy); hashlib releases the GIL, so the
    prefixes of several files can be hashed in parallel threads (see _Loader.prefetch)."""
    with _read_file(path) as fh:
        return _hash_prefix_fd(fh, n)


def _file_identity(fh) -> tuple:
    st = os.fstat(fh.fileno())
    return st.st_dev, st.st_ino, st.st_mtime_ns


def _hash_prefix_fd(fh, n: int):
    """_hash_prefix of an open file: (first 3 bytes, sha256 state of the first n bytes, the file's identity
    (device, inode, mtime) when it was hashed), or None if it is shorter."""
    size = os.fstat(fh.fileno()).st_size
    if n <= 0 or size < n:
        return None
    ident = _file_identity(fh)
    with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        h = hashlib.sha256()
        view = memoryview(mm)
        try:
            for i in range(0, n, PREFIX_BLOCK):
                h.update(view[i:min(n, i + PREFIX_BLOCK)])
            return bytes(view[:3]), h, ident
        finally:
            view.release()


@dataclass
class _Scan:
    """What one streaming read of a whole file tells (nothing of the file is kept in memory)."""
    head: bytes = b""        # the first 3 bytes (gzip magic test)
    first_line_sha: str | None = None   # sha256 of the bytes up to and including the first newline
    size: int = 0            # bytes read
    end: int = 0             # bytes that form complete lines (up to and including the last newline)
    lines: int = 0           # complete lines (newlines)
    end_sha: str = ""        # sha256 of the first `end` bytes
    file_sha: str = ""       # sha256 of the whole file
    direct_ok: bool = True   # no CR, no NUL, valid UTF-8: DuckDB's line split equals Python's
    key_lists: list = field(default_factory=list)   # distinct repeat-free top-level key lists (first lines)
    line_shas: str | None = None   # a file of the complete lines' sha256 hex digests, one per line, in order


def _line_digests(lines) -> bytes:
    """The sha256 hex digests of `lines`, one per output line (the text DuckDB stores for each)."""
    sha = hashlib.sha256
    return "".join([sha(ln).hexdigest() + "\n" for ln in lines]).encode("ascii")


def _scan_file(path: str, shas_dir: str | None = None) -> _Scan:
    """Read `path` once in READ_BLOCK pieces: hashes, newline count and the direct-path preconditions.

    With `shas_dir`, it also writes the sha256 of every complete line (as DuckDB will store it: without
    the newline, and line 1 without a leading BOM) to a file there (`line_shas`), so the direct path
    need not hash the lines inside its single-threaded insert. Python's hashlib is several times faster
    than DuckDB's sha256, and this runs in a prefetch thread while DuckDB lands the previous file.
    """
    sc = _Scan()
    cap = max_record_bytes()
    h = hashlib.sha256()
    h_end = h.copy()
    dec = codecs.getincrementaldecoder("utf-8")()
    dec_busy = False          # the decoder holds a partial character
    out = None
    carry = b""               # the partial line at the end of the previous block
    line1_done = False        # line 1's hash is written (a leading BOM stripped)
    if shas_dir is not None:
        fd, sc.line_shas = tempfile.mkstemp(prefix="lines-", suffix=".sha", dir=shas_dir)
        out = os.fdopen(fd, "wb")
    try:
        with _read_file(path) as fh:
            while True:
                buf = fh.read(READ_BLOCK)
                if not buf:
                    break
                if not sc.head:
                    sc.head = buf[:3]
                    sc.key_lists = _key_lists(buf)
                    sc.first_line_sha = _first_line_sha(buf)
                nl = buf.rfind(b"\n")
                if nl >= 0:
                    h.update(memoryview(buf)[:nl + 1])
                    h_end = h.copy()
                    h.update(memoryview(buf)[nl + 1:])
                    sc.end = sc.size + nl + 1
                    sc.lines += buf.count(b"\n")
                else:
                    h.update(buf)
                sc.size += len(buf)
                if sc.direct_ok:
                    if b"\r" in buf or b"\x00" in buf:
                        sc.direct_ok = False
                    elif dec_busy or not buf.isascii():
                        try:
                            dec.decode(buf)
                            dec_busy = bool(dec.getstate()[0])
                        except UnicodeDecodeError:
                            sc.direct_ok = False
                if out is not None and sc.direct_ok:
                    pieces = buf.split(b"\n")
                    pieces[0] = carry + pieces[0]
                    carry = pieces.pop()
                    if len(carry) > cap or (pieces and max(map(len, pieces)) > cap):
                        sc.direct_ok = False     # a record past the limit: the chunked path quarantines it
                        continue
                    if pieces and not line1_done:              # DuckDB drops a BOM that starts the file
                        line1_done = True
                        if pieces[0].startswith(BOM):
                            pieces[0] = pieces[0][len(BOM):]
                    out.write(_line_digests(pieces))
    except BaseException:
        if out is not None:
            out.close()
            os.unlink(sc.line_shas)
        raise
    if out is not None:
        out.close()
        if not sc.direct_ok:              # the chunked path hashes in SQL
            os.unlink(sc.line_shas)
            sc.line_shas = None
    sc.end_sha = h_end.hexdigest() if sc.end else hashlib.sha256().hexdigest()
    sc.file_sha = h.hexdigest()
    return sc


KEY_LIST_LINES = 64         # first lines sampled for repeat-free key lists ...
KEY_LIST_BYTES = 64 << 10   # ... within the first 64 KB
KEY_LISTS_MAX = 32


def _key_lists(buf: bytes) -> list[list[str]]:
    """Distinct top-level key lists, without a repeated key, of the JSON objects among the first lines."""
    out: list[list[str]] = []
    head = buf[:KEY_LIST_BYTES]
    for raw in head.split(b"\n")[:-1][:KEY_LIST_LINES]:     # complete lines only
        try:
            pairs = json.loads(raw, object_pairs_hook=lambda p: p)
        except (ValueError, RecursionError):
            continue
        if not isinstance(pairs, list) or not pairs or not isinstance(pairs[0], tuple):
            continue
        keys = [k for k, _ in pairs]
        if any(_has_surrogate(k) for k in keys):   # not text DuckDB can take (the line itself is repaired)
            continue
        if len(set(keys)) == len(keys) and keys not in out:
            out.append(keys)
            if len(out) == KEY_LISTS_MAX:
                break
    return out


def _prefix_hexdigest(path: str, n: int) -> str | None:
    """sha256 hex digest of the first n bytes of path (of the empty string for n = 0; None if shorter)."""
    if n == 0:
        return hashlib.sha256().hexdigest()
    got = _hash_prefix(path, n)
    return None if got is None else got[1].hexdigest()


def _safe_hash_prefix(path: str, n: int):
    try:
        return _hash_prefix(path, n)
    except (OSError, ValueError):
        return None          # unreadable now: load_jsonl reads it again and reports why


def _safe_scan_file(path: str, shas_dir: str | None = None) -> "_Scan | None":
    try:
        return _scan_file(path, shas_dir)
    except (OSError, ValueError):
        return None          # unreadable now: load_jsonl reads it again and reports why


def _drop_line_shas(sc: "_Scan | None") -> None:
    if sc is not None and sc.line_shas is not None:
        try:
            os.unlink(sc.line_shas)
        except OSError:
            pass
        sc.line_shas = None


def _stat_key(st: os.stat_result) -> tuple:
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def _append_candidate(reg: dict | None, family: str) -> bool:
    """A registered file whose growth may be an append. A pure duplicate (it landed nothing) that changed is
    judged afresh instead: it may now be a copy of more of its original, or hold lines of its own."""
    return reg is not None and (reg["bytes_landed"] or 0) > 0 and reg["family"] == family and \
        not (reg.get("duplicate_of") is not None and not reg["lines_landed"])


def _first_line_sha(buf: bytes) -> str | None:
    """sha256 of buf up to and including its first newline (None: no complete first line in buf)."""
    nl = buf.find(b"\n")
    return hashlib.sha256(memoryview(buf)[:nl + 1]).hexdigest() if nl >= 0 else None


def _is_pure_duplicate(reg: dict) -> bool:
    return reg.get("duplicate_of") is not None and not reg["lines_landed"]


def _read_jsonl(path: str, reg: dict, prefix=None):
    """Read a registered JSONL file whose first `bytes_landed` bytes were landed; keep only what may need landing.

    The landed prefix is hashed -- never kept in memory -- and compared with the stored prefix sha256
    (`prefix`: a precomputed _hash_prefix result). Returns (head, off, tail, h): head = the file's first
    3 bytes, off = where the kept bytes start (bytes_landed when that prefix is verified, else 0), tail =
    the bytes from off to the end, h = a sha256 state that has consumed exactly the first `off` bytes.
    If the prefix does not verify, the whole file is read (off = 0).
    """
    bl = reg["bytes_landed"]
    with _read_file(path) as fh:
        # the prefix and the tail come from ONE file: a precomputed hash of a file since replaced or rewritten
        # (another inode or mtime) is recomputed here, so old lines are never committed with a new file's tail
        ident = _file_identity(fh)
        if prefix is None or prefix[2] != ident:
            prefix = _hash_prefix_fd(fh, bl)
        if prefix is not None and prefix[1].copy().hexdigest() == reg["prefix_sha256"]:
            fh.seek(bl)
            tail = fh.read()
            head, off, data, h = prefix[0], bl, tail, prefix[1]
        else:
            fh.seek(0)
            data = fh.read()
            head, off, h = data[:3], 0, hashlib.sha256()
        return head, off, data, h


class _Loader:
    def __init__(self, con, summary: LoadSummary, loaded_at: datetime, progress: _Progress, direct: bool = True,
                 shas_dir: str | None = None, explicit_family: str | None = None):
        self.con = con
        # --family given: a registered file landed under another family moves to this one (its old rows go);
        # without it, a registered file keeps the family it was landed under
        self.explicit_family = explicit_family
        self.direct = direct      # land first loads with DuckDB's own scanner (see _DIRECT_INSERT)
        self._prefixes: dict[str, Future] = {}
        self._scans: dict[str, tuple[tuple, Future]] = {}     # path -> (stat key, pre-pass) in flight
        self._scan_queue: dict[str, None] = {}                 # paths whose pre-pass is yet to start, in order
        self._pool: ThreadPoolExecutor | None = None
        self._scan_in_use: _Scan | None = None
        self.shas_dir = shas_dir if direct else None   # where the pre-passes write their line hashes
        self.s = summary
        self.loaded_at = loaded_at
        self.progress = progress
        self.registry = {}
        self._sha_index = None
        self._dirty: set[str] = set()
        self._docs: dict[str, list[dict]] = {k: [] for k in CE_TABLES}
        self._ce_index = None
        self._landed_kinds: set[str] = set()
        self._orphans: list[str] = []     # files registered as repeating a file whose rows were just replaced
        self._run_ids: dict[str, str] | None = None   # run_dir -> run_id, as landed (see _run_id_for)
        self._oversized: set[str] = set()   # files with a record quarantined as too large in this load
        self._fresh: set[str] = set()       # files whose old rows this load deleted
        self._first_index: dict[str, list[str]] | None = None   # first-line sha256 -> registered files
        self.record_cap = max_record_bytes()
        # small first landings wait in _batches for one statement per family ($EVALHOUSE_LOAD_BATCH=0: off)
        self.batch = os.environ.get("EVALHOUSE_LOAD_BATCH", "1").strip() not in ("0", "false", "no")
        self._batches: dict[str, list] = {}    # family -> [(path, file sha, lines, FileResult)]
        self._batch_bytes = 0
        for row in con.execute(
            "SELECT f.source_file, f.family, f.size_bytes, f.mtime_ns, f.bytes_landed, f.prefix_sha256, "
            "f.file_sha256, f.lines_read, f.lines_landed, f.first_load_id, f.duplicate_of, "
            "epoch_ns(l.started_at), f.oversize_cap, f.first_line_sha256 FROM raw.files AS f LEFT JOIN raw.loads AS l ON l.load_id = f.last_load_id"
        ).fetchall():
            self.registry[row[0]] = dict(zip(
                ["source_file", "family", "size_bytes", "mtime_ns", "bytes_landed", "prefix_sha256",
                 "file_sha256", "lines_read", "lines_landed", "first_load_id", "duplicate_of", "registered_ns",
                 "oversize_cap", "first_line_sha256"], row))

    def _retry_oversize(self, reg: dict | None) -> bool:
        """A file with a record quarantined as too large under a smaller limit than today's lands again, whole."""
        return reg is not None and reg.get("oversize_cap") is not None and self.record_cap > reg["oversize_cap"]

    def prefetch(self, items, pool: ThreadPoolExecutor) -> None:
        """Run the pure-Python reading of the JSONL files in `pool`, so it overlaps DuckDB's work.

        A grown registered file: hash its landed prefix (an append's only O(landed) work), all at once.
        Any other changed file: its pre-pass (_scan_file), SCAN_AHEAD files ahead of the one DuckDB is
        landing (each pre-pass leaves a file of line hashes on disk until its file is landed). hashlib,
        the block reads and DuckDB release the GIL. load_jsonl uses a prefetched pre-pass only if the
        file's stat is still the one it was computed under."""
        self._pool = pool
        for it in items:
            if it.kind != "jsonl" or it.path.endswith(".gz"):
                continue
            reg = self.registry.get(it.path)
            if self._retry_oversize(reg):
                reg = None                 # lands again from the start (see _load_jsonl)
            try:
                st = os.stat(it.path)
            except OSError:
                continue
            if self._unchanged_by_stat(reg, st):
                continue
            if _append_candidate(reg, it.family):
                self._prefixes[it.path] = pool.submit(_safe_hash_prefix, it.path, reg["bytes_landed"])
            else:
                self._scan_queue[it.path] = None
        self._top_up_scans()

    def _top_up_scans(self) -> None:
        while self._pool is not None and self._scan_queue and len(self._scans) < SCAN_AHEAD:
            path = next(iter(self._scan_queue))
            del self._scan_queue[path]
            try:
                st = os.stat(path)
            except OSError:
                continue
            scan = self._pool.submit(_safe_scan_file, path, self.shas_dir)
            self._scans[path] = (_stat_key(st), scan)

    def _prefetched_scan(self, path: str, st: os.stat_result) -> "_Scan":
        """The pre-pass of `path`: the prefetched one if the file has not changed since, else a fresh one."""
        self._scan_queue.pop(path, None)
        got = self._scans.pop(path, None)
        self._top_up_scans()
        if got is not None:
            sc = got[1].result()
            if sc is not None and got[0] == _stat_key(st):
                return sc
            _drop_line_shas(sc)
        return _scan_file(path, self.shas_dir)

    # ---- bookkeeping ---------------------------------------------------------------------
    def _flush_errors(self, path: str, errs: list[tuple[int | None, str, str | None]]) -> None:
        if not errs:
            return
        self.con.execute(
            "INSERT INTO raw.load_errors SELECT $load_id, $file, unnest($lines::BIGINT[]), "
            "unnest($errors::VARCHAR[]), unnest($texts::VARCHAR[])",
            {"load_id": self.s.load_id, "file": path, "lines": [e[0] for e in errs],
             "errors": [e[1] for e in errs], "texts": [_cut(e[2]) if e[2] is not None else None for e in errs]})
        for line, reason, _ in errs:
            self.s.errors.append((path, line, reason))

    def _register(self, path: str, family: str, size: int, mtime_ns: int, bytes_landed: int, prefix_sha: str,
                  file_sha: str, lines_read: int, lines_landed: int, duplicate_of=..., first_line_sha=...) -> None:
        """Record what is landed of `path` (written to raw.files in one batch by flush()).

        duplicate_of: the file whose content this one repeats; by default kept from the registry.
        """
        old = self.registry.get(path)
        first = old["first_load_id"] if old else self.s.load_id
        if duplicate_of is ...:
            duplicate_of = old.get("duplicate_of") if old else None
        if first_line_sha is ...:        # kept while the file keeps its first line (unchanged, appended)
            first_line_sha = old.get("first_line_sha256") if old and path not in self._fresh else None
        if path in self._oversized:
            oversize_cap = self.record_cap
        else:
            oversize_cap = None if old is None or path in self._fresh else old.get("oversize_cap")
        self.registry[path] = dict(source_file=path, family=family, size_bytes=size, mtime_ns=mtime_ns,
                                   bytes_landed=bytes_landed, prefix_sha256=prefix_sha, file_sha256=file_sha,
                                   lines_read=lines_read, lines_landed=lines_landed, first_load_id=first,
                                   registered_ns=time.time_ns(), duplicate_of=duplicate_of, oversize_cap=oversize_cap,
                                   first_line_sha256=first_line_sha)
        if first_line_sha is not None and self._first_index is not None:
            self._first_index.setdefault(first_line_sha, []).append(path)
        self._dirty.add(path)
        self._index(path, self.registry[path])

    def flush(self) -> None:
        """Write the registry changes and the batched coder-eval documents."""
        if self._dirty:
            rows = [self.registry[p] for p in sorted(self._dirty)]
            cols = ["source_file", "family", "size_bytes", "mtime_ns", "bytes_landed", "prefix_sha256",
                    "file_sha256", "lines_landed", "first_load_id", "duplicate_of", "lines_read", "oversize_cap",
                    "first_line_sha256"]
            params = {c: [r.get(c) for r in rows] for c in cols}
            self.con.execute("DELETE FROM raw.files WHERE source_file IN (SELECT unnest($p::VARCHAR[]))",
                             {"p": params["source_file"]})
            self.con.execute(
                "INSERT INTO raw.files (source_file, family, size_bytes, mtime_ns, bytes_landed, prefix_sha256, "
                "file_sha256, lines_landed, first_load_id, last_load_id, duplicate_of, lines_read, oversize_cap, "
                "first_line_sha256) "
                "SELECT unnest($source_file::VARCHAR[]), unnest($family::VARCHAR[]), unnest($size_bytes::BIGINT[]), "
                "unnest($mtime_ns::BIGINT[]), unnest($bytes_landed::BIGINT[]), unnest($prefix_sha256::VARCHAR[]), "
                "unnest($file_sha256::VARCHAR[]), unnest($lines_landed::BIGINT[]), unnest($first_load_id::VARCHAR[]), "
                "$load_id, unnest($duplicate_of::VARCHAR[]), unnest($lines_read::BIGINT[]), "
                "unnest($oversize_cap::BIGINT[]), unnest($first_line_sha256::VARCHAR[])",
                {**params, "load_id": self.s.load_id})
            self._dirty.clear()
        for kind, docs in self._docs.items():
            if not docs:
                continue
            self._landed_kinds.add(kind)
            cols = ["source_file", "run_dir", "run_id", "doc_kind", "variant_id", "task_id", "suite_id", "row_id",
                    "replicate_index", "judge_index", "judge_phase", "document", "file_sha256", "repaired"]
            params = {c: [d[c] for d in docs] for c in cols}
            sel = ", ".join(f"unnest(${c}::{'INTEGER' if c in ('replicate_index', 'judge_index') else 'VARCHAR'}[]) AS {c}"
                            for c in cols)
            self.con.execute(
                f"INSERT INTO raw.{CE_TABLES[kind]} (load_id, loaded_at, source_file, run_dir, run_id, doc_kind, "
                "variant_id, task_id, suite_id, row_id, replicate_index, judge_index, judge_phase, document, "
                "document_sha256, file_sha256, repaired) "
                "SELECT $load_id, $at, u.source_file, u.run_dir, u.run_id, u.doc_kind, u.variant_id, u.task_id, "
                "u.suite_id, u.row_id, u.replicate_index, u.judge_index, u.judge_phase, u.document, "
                f"sha256(u.document), u.file_sha256, u.repaired FROM (SELECT {sel}) AS u",
                {**params, "load_id": self.s.load_id, "at": self.loaded_at})
            docs.clear()

    def _unchanged_by_stat(self, reg: dict | None, st: os.stat_result) -> bool:
        if reg is None or reg["size_bytes"] != st.st_size or reg["mtime_ns"] != st.st_mtime_ns:
            return False
        registered = reg.get("registered_ns")
        racy = registered is None or st.st_mtime_ns >= registered - RACY_NS
        return not racy

    def _find_duplicate(self, path: str, family: str, file_sha: str, size: int, first_sha: str | None = None,
                        end: int | None = None, end_sha: str | None = None) -> str | None:
        """Another JSONL file that holds rows of exactly these bytes (its whole content, or its landed prefix),
        as registered NOW (a file rewritten since no longer holds them). Where the name means something, equal
        bytes are not enough: a matrix file is its cell (chat__coder), so only a file of the same name repeats
        it."""
        if size == 0:
            return None
        if self._sha_index is None:
            self._sha_index = {}
            for other, reg in self.registry.items():
                self._index(other, reg)
        for other in self._sha_index.get(file_sha, ()):
            reg = self.registry.get(other)
            # a file that landed lines holds its whole content (its own rows, and those of the file it continues)
            if other == path or reg is None or not reg["lines_landed"]:
                continue
            holds = reg["file_sha256"] == file_sha or (reg["bytes_landed"] and reg["prefix_sha256"] == file_sha)
            if not holds:
                continue
            if "matrix" in (family, reg["family"]) and os.path.basename(other) != os.path.basename(path):
                continue
            return other
        return self._find_prefix_holder(path, family, first_sha, end, end_sha)

    def _find_prefix_holder(self, path: str, family: str, first_sha: str | None, end: int | None,
                            end_sha: str | None) -> str | None:
        """A landed file, unchanged on disk since, whose first `end` bytes are `path`'s complete lines: `path` is a
        copy of an older state of it (a snapshot of a growing log) and holds nothing it has not landed."""
        if first_sha is None or not end:
            return None
        for other in self._first_candidates(first_sha):
            reg = self.registry.get(other)
            if other == path or reg is None or not reg["lines_landed"] or reg["family"] != family \
                    or reg["bytes_landed"] < end:
                continue
            if family == "matrix" and os.path.basename(other) != os.path.basename(path):
                continue
            try:
                st = os.stat(other)
            except OSError:
                continue
            if (st.st_size, st.st_mtime_ns) != (reg["size_bytes"], reg["mtime_ns"]):
                continue            # changed since it was landed: its bytes on disk are not what it landed
            if _prefix_hexdigest(other, end) == end_sha:
                return other
        return None

    def _first_candidates(self, first_sha: str) -> list[str]:
        if self._first_index is None:
            self._first_index = {}
            for other, reg in self.registry.items():
                if reg.get("first_line_sha256"):
                    self._first_index.setdefault(reg["first_line_sha256"], []).append(other)
        return [p for p in self._first_index.get(first_sha, ())
                if (self.registry.get(p) or {}).get("first_line_sha256") == first_sha]

    def _find_prefix_source(self, path: str, family: str, first_sha: str | None, end: int) -> tuple[str, dict] | None:
        """A landed file whose whole landed content is a proper prefix of `path`'s first `end` bytes (the
        longest): `path` is its copy that grew on its own, and only the lines after that prefix are its own."""
        if first_sha is None:
            return None
        best = None
        for other in self._first_candidates(first_sha):
            reg = self.registry.get(other)
            if other == path or reg is None or not reg["lines_landed"] \
                    or reg["family"] not in JSONL_TABLES or not 0 < reg["bytes_landed"] < end:
                continue
            if "matrix" in (family, reg["family"]) and os.path.basename(other) != os.path.basename(path):
                continue
            if reg["family"] != family or (best is not None and reg["bytes_landed"] <= best[1]["bytes_landed"]):
                continue
            if _prefix_hexdigest(path, reg["bytes_landed"]) == reg["prefix_sha256"]:
                best = (other, reg)
        return best

    def _index(self, path: str, reg: dict) -> None:
        if self._sha_index is None or reg["family"] not in JSONL_TABLES or reg["size_bytes"] == 0:
            return
        for sha in (reg["file_sha256"], reg["prefix_sha256"] if reg["bytes_landed"] else None):
            if sha is not None and path not in self._sha_index.setdefault(sha, []):
                self._sha_index[sha].append(path)

    # ---- JSONL -------------------------------------------------------------------------------
    def load_jsonl(self, item: Item) -> None:
        if item.path.endswith(".gz"):
            self._load_gz(item)
            return
        try:
            self._load_jsonl(item)
        finally:                  # the pre-pass's line hashes are needed only while their file lands
            _drop_line_shas(self._scan_in_use)
            self._scan_in_use = None

    def _load_jsonl(self, item: Item) -> None:
        path, family = item.path, item.family
        reg = self.registry.get(path)
        refamily = reg is not None and reg["family"] != family and reg["family"] in JSONL_TABLES
        if refamily and self.explicit_family is None:
            family, refamily = reg["family"], False
        res = FileResult(path=path, status="loaded", family=family)
        try:
            st = os.stat(path)
            if refamily or self._retry_oversize(reg):
                # moved to the family --family names, or a too-large record may now fit: land it all again
                self._replace_rows_if_registered(reg, res)
                reg = None
                res.status = "replaced"
            if self._unchanged_by_stat(reg, st):
                res.status = "unchanged"
                self.s.files.append(res)
                self.progress.advance(st.st_size, path)
                return
            if _append_candidate(reg, family):                    # maybe an append: verify the prefix
                fut = self._prefixes.pop(path, None)
                head, off, data, h = _read_jsonl(path, reg, fut.result() if fut is not None else None)
                sc = None
            else:
                sc = self._scan_in_use = self._prefetched_scan(path, st)   # first landing: keeps nothing
                head, off, data, h = sc.head, 0, None, None
        except OSError as exc:
            self._whole_file_error(res, _read_failure(exc))
            return
        mtime_ns = st.st_mtime_ns
        if sc is not None:
            size, end, end_sha, file_sha = sc.size, sc.end, sc.end_sha, sc.file_sha
            pending = 0 if end == size or (end == 0 and sc.head == BOM and size == len(BOM)) else 1
        else:
            # `data` holds the file's bytes from offset `off` (off > 0: the landed prefix verified by hash,
            # read and hashed once, not kept); h has consumed the first `off` bytes. Offsets below are in the file.
            size = off + len(data)
            last_nl = data.rfind(b"\n")
            end = off + last_nl + 1 if last_nl >= 0 else off     # bytes that form complete lines
            h.update(memoryview(data)[:end - off])
            end_sha = h.hexdigest()                               # sha256 of the first `end` bytes
            if end < size:
                h.update(memoryview(data)[end - off:])
            file_sha = h.hexdigest()
            pending = _pending(data, end, off)
        if head.startswith(GZIP_MAGIC):
            if reg is not None and reg["file_sha256"] == file_sha:
                res.status = "unchanged"
                self.s.files.append(res)
                return
            self._replace_rows_if_registered(reg, res)
            self._flush_errors(path, [(None, "not text (gzip compressed): decompress it (gunzip) and load the "
                                             ".jsonl inside", None)])
            res.status = "failed"
            self.s.files_failed += 1
            self._register(path, family, size, mtime_ns, size, file_sha, file_sha, 0, 0)
            self.s.files.append(res)
            return

        start, base = 0, 0
        if reg is not None:
            if reg["file_sha256"] == file_sha:
                # same bytes (only the mtime moved, or a racy stat): nothing to do
                # re-register: the new stat (and a later registration time, so it is no longer racy)
                self._register(path, reg["family"], size, mtime_ns, reg["bytes_landed"], reg["prefix_sha256"],
                               file_sha, reg["lines_read"] or 0, reg["lines_landed"])
                res.status = "unchanged"
                res.pending = pending
                self.s.files.append(res)
                self.progress.advance(size, path)
                return
            if off > 0 or (reg["bytes_landed"] == 0 and reg["family"] == family):
                # the landed prefix is byte-identical (verified by _read_jsonl): land only what follows
                start, base = off, reg["lines_read"] or 0
                res.status = "appended" if off > 0 else "loaded"
            else:
                self._replace_rows_if_registered(reg, res)
        continues = first_sha = None
        if start == 0:
            # new, or replaced by bytes another file already holds (a copy, a symlink to it): land nothing twice
            first_sha = sc.first_line_sha if sc is not None else _first_line_sha(data[:end - off]) if off == 0 else None
            dup = self._find_duplicate(path, family, file_sha, size, first_sha, end, end_sha)
            if dup is not None:
                res.status = "duplicate"
                res.duplicate_of = dup
                self.s.files_duplicate += 1
                n_lines = sc.lines if sc is not None else data.count(b"\n", 0, end - off)
                self.s.duplicates_skipped += n_lines
                self._register(path, family, size, mtime_ns, end, end_sha, file_sha, n_lines, 0, duplicate_of=dup,
                               first_line_sha=first_sha)
                self.s.files.append(res)
                self.progress.advance(size, path)
                return
            src = self._find_prefix_source(path, family, first_sha, end)
            if src is not None:
                # a copy that grew on its own: the copied lines are landed (in src); only the lines after them land
                continues = src[0]
                start, base = src[1]["bytes_landed"], src[1]["lines_read"] or 0
                res.continues = continues
                self.s.duplicates_skipped += base
        if self.batch and sc is not None and start == 0 and 0 < end <= min(SMALL_FILE_BYTES, self.record_cap) and \
                self._batch_small(path, family, reg, res, st, sc, pending):
            return
        # line hashes exist only when the direct path is on and its preconditions hold (see _scan_file)
        direct = sc is not None and sc.line_shas is not None and end > start and start == 0 and \
            self._land_direct(path, family, sc, st, res)
        if end > start:
            if not direct:
                if data is None:                                    # the chunked way needs the bytes
                    with _read_file(path) as fh:
                        data = fh.read(end)
                    if len(data) < end or hashlib.sha256(data).hexdigest() != end_sha:
                        raise LoadError(f"{path} changed while it was being loaded; run the load again")
                self._land_segment(path, family, data, start - off, end - off, base, file_sha, res, file_off=off)
        res.pending = pending
        lines_read = base + res.lines
        landed_total = (reg["lines_landed"] if (reg is not None and res.status == "appended") else 0) + res.landed
        self._register(path, family, size, mtime_ns, end, end_sha, file_sha, lines_read, landed_total,
                       duplicate_of=continues if continues is not None else None if res.status == "replaced" else ...,
                       first_line_sha=first_sha if first_sha is not None else ...)
        if res.status == "appended" and res.lines:
            # files that continue this one may hold the lines it just landed: judge them afresh (reland_orphans)
            self._orphans.extend(p for p, r in self.registry.items()
                                 if r.get("duplicate_of") == path and r["lines_landed"] and p not in self._orphans)
        if res.lines == 0 and res.status == "appended":
            res.status = "unchanged"
        self._count(res)
        self.s.files.append(res)

    # ---- compressed archives (logrotate's compress) ------------------------------------------------
    def _load_gz(self, item: Item) -> None:
        """A gzip-compressed JSONL archive (runs.jsonl.2.gz): its identity is its decompressed content, so it is
        the duplicate of the file it was compressed from and lands when that one is rewritten (rotation), as a
        plain copy would. An archive is complete: never appended, its last line is a line; any change replaces it."""
        path, family = item.path, item.family
        reg = self.registry.get(path)
        res = FileResult(path=path, status="loaded", family=family)
        try:
            st = os.stat(path)
            if self._unchanged_by_stat(reg, st) and not self._retry_oversize(reg):
                res.status = "unchanged"
                self.s.files.append(res)
                return
            with _read_file(path) as fh:
                data = _gunzip(fh, path)
        except OSError as exc:
            self._whole_file_error(res, _read_failure(exc))
            return
        except ValueError as exc:
            self._replace_rows_if_registered(reg, res)
            self._whole_file_error(res, str(exc))
            self._register(path, family, st.st_size, st.st_mtime_ns, 0, hashlib.sha256().hexdigest(),
                           f"unreadable:{st.st_size}:{st.st_mtime_ns}", 0, 0, duplicate_of=None)
            return
        if data and not data.endswith(b"\n"):
            data += b"\n"
        file_sha = hashlib.sha256(data).hexdigest()
        if reg is not None and reg["file_sha256"] == file_sha and not self._retry_oversize(reg):
            self._register(path, reg["family"], st.st_size, st.st_mtime_ns, reg["bytes_landed"], reg["prefix_sha256"],
                           file_sha, reg["lines_read"] or 0, reg["lines_landed"])
            res.status = "unchanged"
            self.s.files.append(res)
            return
        self._replace_rows_if_registered(reg, res)
        n_lines = data.count(b"\n")
        dup = self._find_duplicate(path, family, file_sha, len(data))
        if dup is not None:
            res.status = "duplicate"
            res.duplicate_of = dup
            self.s.files_duplicate += 1
            self.s.duplicates_skipped += n_lines
            self._register(path, family, st.st_size, st.st_mtime_ns, len(data), file_sha, file_sha, n_lines, 0,
                           duplicate_of=dup)
            self.s.files.append(res)
            return
        if data:
            self._land_segment(path, family, data, 0, len(data), 0, file_sha, res)
        self._register(path, family, st.st_size, st.st_mtime_ns, len(data), file_sha, file_sha, res.lines, res.landed,
                       duplicate_of=None)
        self._count(res)
        self.s.files.append(res)

    # ---- small files: many first landings in one statement --------------------------------------
    def _batch_small(self, path: str, family: str, reg, res: FileResult, st: os.stat_result, sc: _Scan,
                     pending: int) -> bool:
        """Queue a small file's first landing (or replacement) for _flush_small: per-file statements cost
        milliseconds each, which dominates a folder of many tiny files. False: land it the usual way."""
        try:
            with _read_file(path) as fh:
                data = fh.read(sc.end)
        except OSError:
            return False
        if len(data) < sc.end or hashlib.sha256(data).hexdigest() != sc.end_sha or b"\x00" in data:
            return False                   # changed since the pre-pass, or NUL bytes: the usual path says why
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return False                   # the usual path quarantines only the undecodable lines
        if text.startswith("\ufeff"):
            text = text[1:]
        lines = text.split("\n")
        lines.pop()                        # data ends with its last newline
        res.lines = len(lines)
        res.pending = pending
        # registered now (so a copy later in this load is a duplicate); its landed count is set by _flush_small
        self._register(path, family, sc.size, st.st_mtime_ns, sc.end, sc.end_sha, sc.file_sha, len(lines), len(lines),
                       duplicate_of=None if res.status == "replaced" else ..., first_line_sha=_first_line_sha(data))
        self.s.files.append(res)
        self._batches.setdefault(family, []).append((path, sc.file_sha, lines, res))
        self._batch_bytes += sc.end
        self.progress.advance(sc.size, path)
        if self._batch_bytes >= BATCH_BYTES or sum(len(b) for b in self._batches.values()) >= BATCH_FILES:
            self.flush_small()
        return True

    def flush_small(self) -> None:
        """Land every queued small file: one classification and one INSERT per family, then per-file accounting."""
        batches, self._batches, self._batch_bytes = self._batches, {}, 0
        con = self.con
        for family, files in batches.items():
            table = JSONL_TABLES[family]
            fids, nos, texts = [], [], []
            key_lists: list[list[str]] = []
            for fid, (path, _sha, lines, _res) in enumerate(files, start=1):
                fids.extend([fid] * len(lines))
                nos.extend(range(1, len(lines) + 1))
                texts.extend(lines)
                if len(key_lists) < KEY_LISTS_MAX:
                    for kl in _key_lists("\n".join(lines[:KEY_LIST_LINES]).encode("utf-8") + b"\n"):
                        if kl not in key_lists and len(key_lists) < KEY_LISTS_MAX:
                            key_lists.append(kl)
            con.execute(_BATCH_SQL, {"fids": fids, "nos": nos, "texts": texts, "key_lists": key_lists})
            counts: dict[tuple[int, str], int] = {
                (fid, kind): n for fid, kind, n in con.execute(
                    "SELECT fid, kind, count(*) FROM _eh_cls GROUP BY fid, kind").fetchall()}
            con.execute(
                f"INSERT INTO raw.{table} SELECT $load_id, $at, ($files::VARCHAR[])[c.fid], c.line_no, c.text, "
                "sha256(c.text), ($fshas::VARCHAR[])[c.fid], NULL FROM _eh_cls AS c WHERE c.kind = 'ok'",
                {"load_id": self.s.load_id, "at": self.loaded_at, "files": [f[0] for f in files],
                 "fshas": [f[1] for f in files]})
            checks: dict[int, list] = {}
            for fid, line_no, txt, ok in con.execute(
                    "SELECT fid, line_no, text, json_valid(text) FROM _eh_cls WHERE kind = 'check' "
                    "ORDER BY fid, line_no").fetchall():
                checks.setdefault(fid, []).append((line_no, txt, ok))
            for fid, (path, file_sha, lines, res) in enumerate(files, start=1):
                errs, nos_, recs, notes = [], [], [], []
                for line_no, txt, ok in checks.get(fid, ()):
                    record, note, err = python_read(txt, "line", duckdb_ok=bool(ok))
                    if record is None:
                        errs.append((line_no, err, txt))
                    else:
                        nos_.append(line_no)
                        recs.append(record)
                        notes.append(note)
                if nos_:
                    con.execute(
                        f"INSERT INTO raw.{table} SELECT $load_id, $at, $file, u.line_no, u.rec, sha256(u.rec), "
                        "$fsha, u.note FROM (SELECT unnest($nos::BIGINT[]) AS line_no, unnest($recs::VARCHAR[]) AS rec, "
                        "unnest($notes::VARCHAR[]) AS note) AS u",
                        {"load_id": self.s.load_id, "at": self.loaded_at, "file": path, "fsha": file_sha,
                         "nos": nos_, "recs": recs, "notes": notes})
                self._flush_errors(path, errs)
                res.landed = counts.get((fid, "ok"), 0) + len(nos_)
                res.quarantined = len(errs)
                res.blank = counts.get((fid, "blank"), 0)
                if res.landed + res.quarantined + res.blank != res.lines:  # pragma: no cover - invariant
                    raise LoadError(f"internal error: line accounting does not add up for {path}")
                self.registry[path]["lines_landed"] = res.landed
                self._count(res)

    def _land_direct(self, path: str, family: str, sc: _Scan, st: os.stat_result, res: FileResult) -> bool:
        """Land all complete lines of `path` with DuckDB's own scanner (see _DIRECT_INSERT, _DIRECT_CHECK_HEAD).

        Returns False (nothing landed, nothing left behind) when DuckDB's reading cannot be trusted to
        match the pre-pass: another line count, or the file changed under the load. Then the caller
        lands the file the chunked way.
        """
        table = JSONL_TABLES[family]
        con = self.con
        key = {"load_id": self.s.load_id, "file": path}
        try:
            inserted = con.execute(f"INSERT INTO raw.{table} " + _DIRECT_INSERT, {
                **key, "at": self.loaded_at, "fsha": sc.file_sha, "n_lines": sc.lines, "shas": sc.line_shas,
            }).fetchall()[0][0]
            if inserted == sc.lines and con.execute(f"SELECT count(*) FROM raw.{table} " + _DIRECT_SHA_PROBE,
                                                    {**key, "n_lines": sc.lines}).fetchall()[0][0]:
                con.execute(f"UPDATE raw.{table} " + _DIRECT_SHA_REDO, key)
            now = os.stat(path)
            changed = (now.st_size, now.st_mtime_ns) != (st.st_size, st.st_mtime_ns)
            if inserted != sc.lines or (changed and _prefix_hexdigest(path, sc.end) != sc.end_sha):
                con.execute(f"DELETE FROM raw.{table} WHERE load_id = $load_id AND source_file = $file", key)
                return False
            second_look = con.execute(_DIRECT_CHECK_HEAD + f"raw.{table}" + _DIRECT_CHECK_TAIL,
                                      {**key, "key_lists": sc.key_lists}).fetchall()
        except duckdb.Error as exc:   # the transaction is aborted: the whole load is retried without this path
            raise _DirectPathFailed(f"{path}: {exc}") from exc
        errs: list[tuple[int | None, str, str | None]] = []
        gone, nos, recs, notes = [], [], [], []
        blank = 0
        for line_no, txt, ok in second_look:
            if not txt.strip(" \t"):
                blank += 1
                gone.append(line_no)
                continue
            record, note, err = python_read(txt, "line", duckdb_ok=bool(ok))
            if record is None:
                errs.append((line_no, err, txt))
                gone.append(line_no)
            elif note is not None or record != txt:      # else a false alarm of the superset tests: as landed
                nos.append(line_no)
                recs.append(record)
                notes.append(note)
        if gone:
            con.execute(f"DELETE FROM raw.{table} WHERE load_id = $load_id AND source_file = $file "
                        "AND source_line IN (SELECT unnest($nos::BIGINT[]))", {**key, "nos": gone})
        if nos:
            con.execute(
                f"UPDATE raw.{table} AS t SET record = u.rec, record_sha256 = sha256(u.rec), repaired = u.note "
                "FROM (SELECT unnest($nos::BIGINT[]) AS line_no, unnest($recs::VARCHAR[]) AS rec, "
                "unnest($notes::VARCHAR[]) AS note) AS u "
                "WHERE t.load_id = $load_id AND t.source_file = $file AND t.source_line = u.line_no",
                {**key, "nos": nos, "recs": recs, "notes": notes})
        self._flush_errors(path, errs)
        res.lines += sc.lines
        res.landed += sc.lines - len(gone)
        res.quarantined += len(errs)
        res.blank += blank
        self.progress.advance(sc.size, path)
        return True

    def _count(self, res: FileResult) -> None:
        if res.status in ("loaded", "appended", "replaced"):
            self.s.files_loaded += 1
        if res.status == "replaced":
            self.s.files_replaced += 1
        self.s.records_landed += res.landed
        self.s.lines_quarantined += res.quarantined
        self.s.lines_blank += res.blank
        self.s.lines_pending += res.pending

    def _replace_rows_if_registered(self, reg: dict | None, res: FileResult) -> None:
        """The already-landed part changed: delete the file's old rows (same transaction)."""
        if reg is None:
            return
        if self._batches:
            self.flush_small()            # queued rows are written before any are deleted
        self._fresh.add(res.path)
        fam = reg["family"]
        if fam in JSONL_TABLES:
            self.con.execute(f"DELETE FROM raw.{JSONL_TABLES[fam]} WHERE source_file = $p", {"p": res.path})
        elif fam.startswith("ce:") and fam[3:] in CE_TABLES:
            self.con.execute(f"DELETE FROM raw.{CE_TABLES[fam[3:]]} WHERE source_file = $p", {"p": res.path})
            if self._ce_index is not None:
                for key in [k for k, v in self._ce_index.items() if v == res.path]:
                    del self._ce_index[key]
        res.status = "replaced"
        # the old bytes may live on in files registered as their duplicates (a rotated or renamed copy):
        # those now hold the only copy, so they land (reland_orphans) -- never lost with the rewrite
        self._orphans.extend(p for p, r in self.registry.items() if r.get("duplicate_of") == res.path)
        if fam == "ce:run":
            # a new run.json makes its directory another run: documents elsewhere that repeated this run's are
            # no longer the same run's records (a renamed run whose old name is reused), so they land
            run_dir = os.path.dirname(res.path) + os.sep
            self._orphans.extend(p for p, r in self.registry.items()
                                 if (r.get("duplicate_of") or "").startswith(run_dir) and p not in self._orphans)

    def reland_orphans(self, items: dict[str, Item]) -> None:
        """Land the files whose content repeated a file that has since been replaced (after the main pass,
        so the replacement is registered first). A coder-eval document is re-landed only when it is among this
        load's files (its identity comes from discovery); otherwise the load says which folder to load."""
        while self._orphans:
            path = self._orphans.pop(0)
            reg = self.registry.get(path)
            if reg is None or reg.get("duplicate_of") is None or not os.path.exists(path):
                continue
            item = items.get(path)
            if item is None and reg["family"] in JSONL_TABLES:
                item = Item(path=path, kind="jsonl", family=reg["family"])
            if item is None:
                self._flush_errors(path, [(None, f"repeated {reg['duplicate_of']}, which was rewritten: load "
                                                 f"{os.path.dirname(path)} again to land it", None)])
                continue
            earlier = [f for f in self.s.files if f.path == path]        # reported once, as what it is now
            self.s.files_duplicate -= sum(1 for f in earlier if f.status == "duplicate")
            self.s.files = [f for f in self.s.files if f.path != path]
            if reg["lines_landed"]:
                # it continued a file that changed: its own rows go, and it is judged afresh below
                self._replace_rows_if_registered(reg, FileResult(path=path, status="loaded", family=reg["family"]))
                self.s.records_landed -= sum(f.landed for f in earlier)
                self.s.files_loaded -= sum(1 for f in earlier if f.status in ("loaded", "appended", "replaced"))
            del self.registry[path]
            if item.kind == "jsonl":
                self.load_jsonl(item)
            else:
                self.load_ce(item)

    def _whole_file_error(self, res: FileResult, reason: str) -> None:
        self._flush_errors(res.path, [(None, reason, None)])
        res.status = "failed"
        self.s.files_failed += 1
        self.s.files.append(res)

    def _land_segment(self, path, family, data: bytes, start: int, end: int, base: int, file_sha: str,
                      res: FileResult, file_off: int = 0) -> None:
        """Land data[start:end] (complete lines); data starts at byte `file_off` of the file."""
        table = JSONL_TABLES[family]
        pos = start
        line_base = base
        while pos < end:
            stop = min(end, pos + CHUNK_BYTES)
            if stop < end:
                nl = data.rfind(b"\n", pos, stop)
                stop = nl + 1 if nl >= pos else data.find(b"\n", stop) + 1
            chunk = data[pos:stop - 1]           # without the final newline
            n_lines = chunk.count(b"\n") + 1
            if pos + file_off == 0 and chunk.startswith(BOM):
                chunk = chunk[len(BOM):]
            self._land_chunk(path, table, chunk, line_base, n_lines, file_sha, res)
            res.lines += n_lines
            line_base += n_lines
            self.progress.advance(stop - pos, path)
            pos = stop

    def _land_chunk(self, path, table, chunk: bytes, base: int, n_lines: int, file_sha: str,
                    res: FileResult) -> None:
        con = self.con
        errs: list[tuple[int | None, str, str | None]] = []
        text = None
        cap = max_record_bytes()
        huge = len(chunk) > cap and any(len(raw) > cap for raw in chunk.split(b"\n"))
        if b"\x00" not in chunk and not huge:
            try:
                text = chunk.decode("utf-8")
            except UnicodeDecodeError:
                text = None
        if text is not None:
            con.execute(_SPLIT_SQL, {"base": base, "chunk": text, "key_lists": _key_lists(chunk)})
        else:
            nos, texts = [], []
            for i, raw in enumerate(chunk.split(b"\n"), start=base + 1):
                if len(raw) > cap:
                    self._oversized.add(path)
                    errs.append((i, _too_large("line", len(raw), cap), raw[:RAW_TEXT_MAX].decode("utf-8", "replace")))
                    continue
                if b"\x00" in raw:
                    errs.append((i, "NUL byte in line: binary data, not JSON text", raw.decode("utf-8", "replace")))
                    continue
                try:
                    nos.append(i)
                    texts.append(raw.decode("utf-8"))
                except UnicodeDecodeError as exc:
                    nos.pop()
                    errs.append((i, f"invalid UTF-8 (byte {exc.start + 1} of the line): re-encode the file as "
                                    "UTF-8", raw.decode("utf-8", "replace")))
            con.execute(_LIST_SQL, {"nos": nos, "texts": texts, "key_lists": _key_lists(chunk)})
        counts = dict(con.execute("SELECT kind, count(*) FROM _eh_cls GROUP BY kind").fetchall())
        con.execute(
            f"INSERT INTO raw.{table} SELECT $load_id, $at, $file, line_no, text, sha256(text), $fsha, NULL "
            "FROM _eh_cls WHERE kind = 'ok'",
            {"load_id": self.s.load_id, "at": self.loaded_at, "file": path, "fsha": file_sha})
        landed = counts.get("ok", 0)
        if counts.get("check", 0):
            rows = con.execute(
                "SELECT line_no, text, json_valid(text) FROM _eh_cls WHERE kind = 'check' ORDER BY line_no"
            ).fetchall()
            nos, recs, notes = [], [], []
            for line_no, txt, ok in rows:
                record, note, err = python_read(txt, "line", duckdb_ok=bool(ok))
                if record is None:
                    errs.append((line_no, err, txt))
                else:
                    nos.append(line_no)
                    recs.append(record)
                    notes.append(note)
            if nos:
                con.execute(
                    f"INSERT INTO raw.{table} SELECT $load_id, $at, $file, u.line_no, u.rec, sha256(u.rec), $fsha, "
                    "u.note FROM (SELECT unnest($nos::BIGINT[]) AS line_no, unnest($recs::VARCHAR[]) AS rec, "
                    "unnest($notes::VARCHAR[]) AS note) AS u",
                    {"load_id": self.s.load_id, "at": self.loaded_at, "file": path, "fsha": file_sha,
                     "nos": nos, "recs": recs, "notes": notes})
                landed += len(nos)
        errs.sort(key=lambda e: e[0])
        self._flush_errors(path, errs)
        res.landed += landed
        res.quarantined += len(errs)
        res.blank += counts.get("blank", 0)
        if res.landed + res.quarantined + res.blank != res.lines + n_lines:  # pragma: no cover - invariant
            raise LoadError(f"internal error: line accounting does not add up for {path}")

    # ---- coder-eval documents ---------------------------------------------------------------
    def _run_id_for(self, run_dir: str) -> str:
        """A run's id is its directory's name, unique in the warehouse: a second, different run directory with a
        name already taken (two folders both named `run_1`) gets `<name>@<8 hex of its path>`, so two runs are
        never pooled under one id (data_quality_findings says so). A run keeps the id it first landed with."""
        if self._run_ids is None:
            self._run_ids = {}
            for table in CE_TABLES.values():
                for rd, rid in self.con.execute(f"SELECT DISTINCT run_dir, run_id FROM raw.{table}").fetchall():
                    self._run_ids.setdefault(rd, rid)
        rid = self._run_ids.get(run_dir)
        if rid is None:
            base = os.path.basename(run_dir)
            taken = {r for d, r in self._run_ids.items() if d != run_dir}
            rid = base if base not in taken else f"{base}@{hashlib.sha256(run_dir.encode()).hexdigest()[:8]}"
            self._run_ids[run_dir] = rid
        return rid

    def load_ce(self, item: Item) -> None:
        path, meta = item.path, item.ce
        meta = {**meta, "run_id": self._run_id_for(meta["run_dir"])}
        kind = meta["doc_kind"]
        family = f"ce:{kind}"
        res = FileResult(path=path, status="loaded", family=family)
        try:
            st = os.stat(path)
            reg = self.registry.get(path)
            if self._retry_oversize(reg):
                self._replace_rows_if_registered(reg, res)     # too large under a smaller limit: read it again
                reg = None
            if self._unchanged_by_stat(reg, st):
                res.status = "unchanged"
                self.s.files.append(res)
                return
            with _read_file(path) as fh:
                data = fh.read()
        except OSError as exc:
            self._whole_file_error(res, _read_failure(exc))
            return
        file_sha = hashlib.sha256(data).hexdigest()
        size = len(data)
        if reg is not None:
            if reg["file_sha256"] == file_sha:
                self._register(path, family, size, st.st_mtime_ns, size, file_sha, file_sha, 0, reg["lines_landed"])
                res.status = "unchanged"
                self.s.files.append(res)
                return
            self._replace_rows_if_registered(reg, res)
        else:
            dup = self._find_ce_duplicate(path, meta, file_sha)
            if dup is not None:
                res.status = "duplicate"
                res.duplicate_of = dup
                self.s.files_duplicate += 1
                self.s.duplicates_skipped += 1
                self._register(path, family, size, st.st_mtime_ns, size, file_sha, file_sha, 0, 0, duplicate_of=dup)
                self.s.files.append(res)
                return
        document, note, err = self._read_document(path, data)
        if err is not None:
            if size > self.record_cap:
                self._oversized.add(path)
            self._flush_errors(path, [(None, err, data[:RAW_TEXT_MAX].decode("utf-8", "replace"))])
            res.quarantined = 1
            self.s.files_failed += 1
            self.s.lines_quarantined += 1
            if res.status != "replaced":
                res.status = "failed"
            else:
                self.s.files_replaced += 1
            self._register(path, family, size, st.st_mtime_ns, size, file_sha, file_sha, 0, 0, duplicate_of=None)
            self.s.files.append(res)
            return
        self._docs[kind].append({**meta, "source_file": path, "document": document, "file_sha256": file_sha,
                                 "repaired": note})
        self._ce_key_index()[self._ce_key(meta, file_sha)] = path
        res.landed = 1
        self._register(path, family, size, st.st_mtime_ns, size, file_sha, file_sha, 0, 1, duplicate_of=None)
        self._count(res)
        self.s.files.append(res)

    @staticmethod
    def _ce_key(meta: dict, file_sha: str) -> tuple:
        return (meta["doc_kind"], file_sha, meta["variant_id"], meta["task_id"], meta["replicate_index"],
                meta["judge_index"], meta["judge_phase"])

    def _ce_key_index(self) -> dict:
        if self._ce_index is None:
            self._ce_index = {}
            for kind, table in CE_TABLES.items():
                for row in self.con.execute(
                        f"SELECT doc_kind, file_sha256, variant_id, task_id, replicate_index, judge_index, judge_phase, "
                        f"source_file FROM raw.{table}").fetchall():
                    self._ce_index.setdefault(tuple(row[:7]), row[7])
        return self._ce_index

    def _find_ce_duplicate(self, path: str, meta: dict, file_sha: str) -> str | None:
        """Same bytes in the same role (kind, variant, task, replicate, judge) of the same run: a run directory
        copied or moved elsewhere (its run.json has the same bytes). A document belongs to its run:
        byte-identical replicates of two different runs are two runs' records and both land."""
        other = self._ce_key_index().get(self._ce_key(meta, file_sha))
        if other is None or other == path:
            return None
        rel = os.path.relpath(path, meta["run_dir"])          # same role: the same place inside its run
        if not other.endswith(os.sep + rel):
            return None
        mine = self._run_json_sha(meta["run_dir"])
        return other if mine is not None and mine == self._run_json_sha(other[:-len(os.sep + rel)]) else None

    def _run_json_sha(self, run_dir: str) -> str | None:
        """sha256 of a run directory's run.json: on disk, else as last landed (a run moved away)."""
        path = os.path.join(run_dir, "run.json")
        try:
            with _read_file(path) as fh:
                return hashlib.sha256(fh.read()).hexdigest()
        except OSError:
            reg = self.registry.get(path)
            return reg["file_sha256"] if reg is not None else None

    def check_documents(self) -> None:
        """Every landed document must be JSON DuckDB reads; rewrite the rare one it does not (Python's reading)."""
        for kind, table in CE_TABLES.items():
            if kind not in self._landed_kinds:
                continue
            bad = self.con.execute(
                f"SELECT source_file, document FROM raw.{table} WHERE load_id = $id "
                "AND NOT (json_valid(document) AND json_type(document) = 'OBJECT')", {"id": self.s.load_id}).fetchall()
            for path, doc in bad:
                record, note, err = python_read(doc, "document", duckdb_ok=False)
                if record is None:  # pragma: no cover - Python accepted it once already
                    raise LoadError(f"internal error: cannot store {path}: {err}")
                self.con.execute(
                    f"UPDATE raw.{table} SET document = $d, document_sha256 = sha256($d), repaired = $n "
                    "WHERE source_file = $p AND load_id = $id",
                    {"d": record, "n": note, "p": path, "id": self.s.load_id})

    def _read_document(self, path: str, data: bytes):
        """(document JSON text, repaired note, error) for one coder-eval document."""
        name = os.path.basename(path)
        if len(data) > max_record_bytes():
            return None, None, _too_large(name, len(data), max_record_bytes())
        if data.startswith(GZIP_MAGIC):
            return None, None, "not text (gzip compressed): decompress it"
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return None, None, f"invalid UTF-8 at byte {exc.start + 1}: re-encode the file as UTF-8"
        if name.endswith((".yaml", ".yml")):
            return _read_yaml(text, name)
        if not text.strip():
            return None, None, f"{name} is empty: expected one JSON object"
        record, note, err = python_read(text, "document", duckdb_ok=True)
        if err is not None:
            if err.startswith("not a JSON object"):
                err = f"{name} is {_kind_of(json.loads(text))}, expected a JSON object"
            elif err.startswith("invalid JSON"):
                err = f"{name}: {err} -- truncated or not JSON? re-run or restore the file"
            return None, None, err
        return record, note, err


def _jsonable(obj, notes: list[str], path: str = "$"):
    if isinstance(obj, dict):
        return {str(k): _jsonable(v, notes, f"{path}.{k}") for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set)):
        return [_jsonable(v, notes, f"{path}[{i}]") for i, v in enumerate(obj)]
    if isinstance(obj, (datetime, date)):
        return obj.isoformat()
    if isinstance(obj, bytes):
        import base64
        return base64.b64encode(obj).decode("ascii")
    if isinstance(obj, float) and not math.isfinite(obj):
        notes.append(path)
        return None
    return obj


YAML_MAX_NODES = 1_000_000   # values a judge YAML may expand to once its aliases are resolved


def _expanded_size(obj, memo: dict) -> int:
    """How many values `obj` has once every alias (a shared reference) is written out, without writing it
    out: each shared node is counted once per reference, computed once (linear in the composed graph)."""
    if not isinstance(obj, (dict, list)):
        return 1
    key = id(obj)
    if key not in memo:
        items = obj.values() if isinstance(obj, dict) else obj
        memo[key] = 1 + sum(_expanded_size(v, memo) for v in items) + (len(obj) if isinstance(obj, dict) else 0)
    return memo[key]


def _read_yaml(text: str, name: str):
    import yaml

    try:
        obj = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # safe: never constructs objects
    except yaml.constructor.ConstructorError as exc:
        tag = getattr(exc, "problem", "") or str(exc)
        return None, None, (f"{name}: refused unsafe YAML ({tag.strip()}); only plain YAML is loaded and nothing "
                            "was constructed")
    except yaml.YAMLError as exc:
        return None, None, f"{name}: invalid YAML: {' '.join(str(exc).split())[:300]}"
    except RecursionError:
        return None, None, f"{name}: YAML nested too deeply"
    if not isinstance(obj, dict):
        return None, None, f"{name} is {_kind_of(obj)}, expected a YAML mapping"
    try:
        size = _expanded_size(obj, {})
    except RecursionError:
        return None, None, f"{name}: YAML nested too deeply"
    if size > YAML_MAX_NODES:
        return None, None, (f"{name}: refused: its aliases expand to {size:,} values (more than {YAML_MAX_NODES:,}; "
                            "a YAML alias bomb?); nothing was expanded")
    notes: list[str] = []
    doc = json.dumps(_jsonable(obj, notes), ensure_ascii=False, allow_nan=False)
    return doc, ("nonfinite: " + ", ".join(notes[:20]) if notes else None), None


# --------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------

def _load_once(paths, db: str, found, memory_limit: str, progress: bool, direct: bool,
               explicit_family: str | None = None) -> LoadSummary:
    """One attempt at the load, in one transaction (the caller holds the evalhouse lock)."""
    summary = LoadSummary(load_id=str(uuid.uuid4()), db=db)
    con = connect_rw(db)
    try:
        started = datetime.now(timezone.utc)
        con.execute("SET enable_progress_bar = false")
        # bounded memory: past memory_limit DuckDB spills to its temp_directory (default for a database
        # file: <db>.tmp) instead of growing with the input
        con.execute("SET memory_limit = $m", {"m": memory_limit})
        if _compression() == "zstd":
            # raw text compresses 2x better with zstd than with DuckDB's default choice (dictionary + FSST),
            # and writing it skips the costly per-segment analysis of that choice (see BENCHMARKS.md)
            try:
                con.execute("SET force_compression = 'zstd'")
            except duckdb.Error:   # a DuckDB without the setting: its default compression
                pass
        con.execute("BEGIN TRANSACTION")
        ensure_raw_schema(con)
        total = 0
        for it in found.items:
            try:
                total += os.path.getsize(it.path)
            except OSError:
                pass
        bar = _Progress(total, progress)
        # the pre-passes' line hashes go to <db>.lines.tmp/; the lock makes any such folder a crashed
        # load's leftover, so it is cleared first (the folder is removed when the load ends)
        shas_dir = f"{db}.lines.tmp"
        shutil.rmtree(shas_dir, ignore_errors=True)
        os.makedirs(shas_dir, exist_ok=True)
        loader = _Loader(con, summary, started, bar, direct=direct, shas_dir=shas_dir, explicit_family=explicit_family)
        for path, reason in found.errors:
            loader._flush_errors(path, [(None, reason, None)])
            summary.files_failed += 1
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            # files already landed on their own first: a copy, or a file that continues one, is judged after
            # what it repeats has taken in this load's lines (else a mirror that grew with its original lands twice)
            items = sorted(found.items, key=lambda it: 0 if (loader.registry.get(it.path) or {}).get(
                "source_file") and loader.registry[it.path].get("duplicate_of") is None else 1)
            try:
                loader.prefetch(items, pool)
                for it in items:
                    if it.kind == "jsonl":
                        loader.load_jsonl(it)
                    else:
                        loader.load_ce(it)
                loader.flush_small()
                loader.reland_orphans({it.path: it for it in found.items})
                loader.flush_small()
            finally:                     # a failed load does not wait for the reads it will not use
                pool.shutdown(wait=True, cancel_futures=True)
        loader.flush()
        loader.check_documents()
        bar.close()
        summary.files_seen = found.files_seen
        summary.files_ignored = len(found.ignored)
        summary.ignored = found.ignored
        summary.lines_quarantined = sum(1 for e in summary.errors if e[1] is not None)
        con.execute(
            "INSERT INTO raw.loads (load_id, started_at, finished_at, files_seen, files_loaded, files_unchanged, "
            "files_ignored, files_duplicate, files_replaced, records_landed, duplicates_skipped, "
            "lines_quarantined, roots, evalhouse_version, files_failed, lines_blank, lines_pending) VALUES "
            "($id, $started, $finished, $seen, $loaded, $unchanged, $ignored, $dup, $replaced, $landed, "
            "$dups, $quar, $roots, $ver, $failed, $blank, $pending)",
            {"id": summary.load_id, "started": started, "finished": datetime.now(timezone.utc),
             "seen": summary.files_seen, "loaded": summary.files_loaded,
             "unchanged": sum(1 for f in summary.files if f.status == "unchanged"),
             "ignored": summary.files_ignored, "dup": summary.files_duplicate,
             "replaced": summary.files_replaced, "landed": summary.records_landed,
             "dups": summary.duplicates_skipped, "quar": summary.lines_quarantined,
             "roots": json.dumps([os.path.abspath(p) for p in paths]), "ver": _version(),
             "failed": summary.files_failed, "blank": summary.lines_blank, "pending": summary.lines_pending})
        con.execute("COMMIT")
    except BaseException:
        try:
            con.execute("ROLLBACK")
        except Exception:
            pass
        raise
    finally:
        con.close()
        shutil.rmtree(f"{db}.lines.tmp", ignore_errors=True)
    return summary


def load_paths(paths, db, family: str | None = None, follow_symlinks: bool = False, progress: bool = False,
               wait: float | None = None) -> LoadSummary:
    """Land the files under `paths` into `db` in one transaction; returns what was done.

    Raises UsageError (bad arguments), DatabaseBusy (another writer holds the file after `wait`
    seconds; default $EVALHOUSE_LOCK_WAIT or 60) or LoadError; in every error case nothing was written.
    """
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise UsageError("no PATH given")
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise UsageError(f"no such file or directory: {missing[0]}")
    if family is not None and family not in JSONL_TABLES:
        raise UsageError(f"unknown family {family!r}: choose one of {', '.join(JSONL_TABLES)}")
    if wait is None:
        wait = float(os.environ.get("EVALHOUSE_LOCK_WAIT", "60"))
    memory_limit = _memory_limit()
    _compression()
    max_record_bytes()
    t0 = time.monotonic()
    found = discover(paths, family=family, follow_symlinks=follow_symlinks)
    db = os.fspath(db)
    direct = os.environ.get("EVALHOUSE_LOAD_DIRECT", "1").strip() not in ("0", "false", "no")
    with db_lock(db, wait=wait, what="load"):
        try:
            summary = _load_once(paths, db, found, memory_limit, progress, direct, family)
        except _DirectPathFailed:
            # DuckDB's scanner refused a file the pre-pass accepted (rolled back): land everything the chunked way
            summary = _load_once(paths, db, found, memory_limit, progress, direct=False, explicit_family=family)
    summary.files_unchanged = sum(1 for f in summary.files if f.status == "unchanged")
    summary.seconds = time.monotonic() - t0
    return summary


MEMORY_LIMIT = "1GB"         # DuckDB memory_limit of the load connection ($EVALHOUSE_LOAD_MEMORY_LIMIT overrides)


def _memory_limit() -> str:
    v = os.environ.get("EVALHOUSE_LOAD_MEMORY_LIMIT", MEMORY_LIMIT).strip()
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?\s*[KMGT]?i?B", v, re.IGNORECASE):
        raise UsageError(f"EVALHOUSE_LOAD_MEMORY_LIMIT={v!r}: expected a size such as 1GB or 512MB")
    return v


GUNZIP_MAX = 2 << 30          # bytes a compressed archive may decompress to (a gzip bomb stops here)


def _gunzip(fh, path: str) -> bytes:
    """The decompressed bytes of a gzip file, at most GUNZIP_MAX; ValueError (a reason) when it is not one."""
    import gzip
    import zlib
    out = bytearray()
    try:
        with gzip.GzipFile(fileobj=fh) as gz:
            while True:
                piece = gz.read(READ_BLOCK)
                if not piece:
                    break
                out += piece
                if len(out) > GUNZIP_MAX:
                    raise ValueError(f"decompresses to more than {GUNZIP_MAX:,} bytes: decompress it yourself "
                                     f"(gunzip) and load the .jsonl inside")
    except (OSError, EOFError, zlib.error) as exc:
        if isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile) and exc.errno is not None:
            raise
        raise ValueError(f"not a complete gzip file ({exc}): re-compress it, or decompress what is left and load "
                         f"the .jsonl") from None
    return bytes(out)


def _read_failure(exc: OSError) -> str:
    """The reason a file could not be read, for raw.load_errors; a full disk is fatal (LoadError), never a
    file's fault."""
    if is_disk_full(exc):
        raise exc              # fatal: main_load reports it (disk_full_message), the load is rolled back
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"cannot read file: {exc.strerror} (check its permissions)"
    return f"cannot read file: {exc.strerror or exc}"


def max_record_bytes() -> int:
    """The largest line or document a load lands ($EVALHOUSE_MAX_RECORD_BYTES, bytes; default 32 MiB)."""
    v = os.environ.get("EVALHOUSE_MAX_RECORD_BYTES", "").strip()
    if not v:
        return MAX_RECORD_BYTES
    if not v.isdigit() or int(v) < 1024:
        raise UsageError(f"EVALHOUSE_MAX_RECORD_BYTES={v!r}: expected a whole number of bytes, at least 1024")
    return int(v)


def _too_large(what: str, size: int, cap: int) -> str:
    return (f"{what} is {size:,} bytes, over the record limit of {cap:,} bytes (quarantined; the rest of the file "
            f"lands): shorten the record, or raise EVALHOUSE_MAX_RECORD_BYTES (and EVALHOUSE_LOAD_MEMORY_LIMIT to "
            f"about 10x it) and load again: the file then lands again, whole")


def _compression() -> str:
    """Compression of the rows a load writes: zstd (default) or DuckDB's own choice ($EVALHOUSE_LOAD_COMPRESSION=auto)."""
    v = os.environ.get("EVALHOUSE_LOAD_COMPRESSION", "zstd").strip().lower()
    if v not in ("zstd", "auto"):
        raise UsageError(f"EVALHOUSE_LOAD_COMPRESSION={v!r}: expected zstd or auto")
    return v


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("evalhouse")
    except Exception:
        return "unknown"


def format_summary(s: LoadSummary, verbose: bool = True) -> str:
    lines = [
        f"files seen {s.files_seen} / loaded {s.files_loaded} / unchanged {s.files_unchanged} / ignored "
        f"{s.files_ignored} / duplicate {s.files_duplicate} / replaced {s.files_replaced}"
        + (f" / failed {s.files_failed}" if s.files_failed else "")
        + f"; records landed {s.records_landed}; lines quarantined {s.lines_quarantined}"
        + (f"; blank lines skipped {s.lines_blank}" if s.lines_blank else "")
        + (f"; partial last lines pending {s.lines_pending}" if s.lines_pending else "")
        + f"  ({s.seconds:.1f}s, load {s.load_id})"
    ]
    if verbose:
        for f in s.files:
            if f.status == "replaced":
                lines.append(f"  replaced: {f.path} was rewritten; its old rows were replaced as a unit")
            elif f.status == "duplicate":
                lines.append(f"  duplicate: {f.path} has the same content as {f.duplicate_of}; nothing landed")
            elif f.continues is not None:
                lines.append(f"  copy that grew: {f.path} starts with the whole of {f.continues}; only its own "
                             f"{f.landed} lines landed")
        for path, line, reason in s.errors[:SHOW_ERRORS]:
            lines.append(f"  {path}{f':{line}' if line is not None else ''}: {reason}")
        if len(s.errors) > SHOW_ERRORS:
            lines.append(f"  ... and {len(s.errors) - SHOW_ERRORS} more in raw.load_errors "
                         f"(WHERE load_id = '{s.load_id}')")
    if not s.files and s.files_seen == 0:
        lines.append("  nothing to load: no files under the given paths")
    elif not s.files and s.ignored:
        # every file was ignored: say which and why, or the user sees a silent success
        lines.append("  nothing to load: every file was ignored. Logs are *.jsonl under logs_big/, logs/ or "
                     "logs_layered/ (or pass --family), and coder-eval run directories holding run.json:")
        for path, why in s.ignored[:SHOW_ERRORS]:
            lines.append(f"  ignored: {path}: {why}")
        if len(s.ignored) > SHOW_ERRORS:
            lines.append(f"  ... and {len(s.ignored) - SHOW_ERRORS} more ignored")
    return "\n".join(lines)


def main_load(paths, db, family=None, follow_symlinks=False, quiet=False, wait: float | None = None) -> int:
    """CLI entry: 0 finished (even with quarantined lines), 1 fatal (nothing written), 2 usage error."""
    try:
        summary = load_paths(paths, db, family=family, follow_symlinks=follow_symlinks, progress=not quiet,
                             wait=wait)
    except UsageError as exc:
        print(f"evalhouse load: error: {exc}", file=sys.stderr)
        return 2
    except DatabaseBusy as exc:
        print(f"evalhouse load: {exc}", file=sys.stderr)
        return 1
    except duckdb.OutOfMemoryException as exc:
        print(f"evalhouse load: failed, nothing was written: DuckDB ran out of memory at memory_limit "
              f"{_memory_limit()} ({' '.join(str(exc).split())[:200]}). A very large line or document needs more: "
              "set EVALHOUSE_LOAD_MEMORY_LIMIT (e.g. EVALHOUSE_LOAD_MEMORY_LIMIT=4GB) and load again.", file=sys.stderr)
        return 1
    except (LoadError, OSError, Exception) as exc:  # noqa: BLE001 - any failure: nothing was committed
        if is_disk_full(exc):
            print(f"evalhouse load: failed, {disk_full_message(exc, db)}", file=sys.stderr)
        elif isinstance(exc, LoadError):
            print(f"evalhouse load: failed, nothing was written: {exc}", file=sys.stderr)
        else:
            print(f"evalhouse load: failed, nothing was written: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(format_summary(summary, verbose=not quiet))
    return 0
