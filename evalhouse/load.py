"""`evalhouse load`: land JSONL logs and coder-eval documents in the raw schema, exactly once.

This module is the public API (load_paths, LoadSummary, format_summary); the parts live in evalhouse/loader/
(one job per module: see evalhouse/loader/__init__.py and docs/architecture.md).

How a JSONL file lands (the hot path does no per-line Python JSON parsing):

1. A file's FIRST landing (or its replacement) -- the direct path:
   a. Python streams the file once (READ_BLOCK pieces, nothing kept): sha256 of the whole file and of
      its complete lines, the newline count, and whether DuckDB's line split will equal Python's (no
      CR, no NUL, valid UTF-8). It also collects the repeat-free top-level key lists of the first lines.
   b. One DuckDB statement per file (loader/sql/direct_insert.sql) reads it with DuckDB's own CSV scanner (whole
      lines, no quoting, BOM dropped), numbers the lines with row_number() over the order-preserving
      scan, and inserts every complete line with its sha256. The numbering is a streaming window, which
      keeps that statement on one thread, so it does nothing else.
   c. A second statement (loader/sql/direct_check.sql), a parallel scan of the rows just landed, returns
      the few lines that need a second look (step 3); Python resolves them (UPDATE / DELETE) before the
      commit.
   d. The insert must land exactly the pre-pass's line count and the file must be unchanged since the
      pre-pass (else its rows are deleted and it lands the chunked way); if DuckDB raises, the whole
      load is rolled back and retried without the direct path.
   The pre-passes of the files to come run in a thread pool (loader/jsonl.py, JsonlMixin.prefetch) while DuckDB lands
   the current file.
2. Appends, and files the direct path cannot take (CR line ends, NUL bytes, invalid UTF-8) -- the
   chunked path: for a registered file the landed prefix (``bytes_landed``) is hashed from a memory
   map (in parallel threads across files, see JsonlMixin.prefetch) and compared with the stored
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
Memory: the load connection runs with ``SET memory_limit`` = config.MEMORY_LIMIT (1GB;
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

import json
import os
import shutil
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

import duckdb

from .config import load_compression, load_direct_enabled, load_memory_limit, lock_wait, max_record_bytes, version
from .discover import discover
from .locking import connect_rw, db_lock
from .loader.core import Loader
from .loader.progress import _Progress  # noqa: F401 - public for callers that draw their own bar
from .loader.results import FileResult, LoadError, LoadSummary, UsageError, _DirectPathFailed  # noqa: F401
from .schema import JSONL_TABLES, ensure_raw_schema

_Loader = Loader                      # the name the tests and older callers use
SHOW_ERRORS = 8

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
        if load_compression() == "zstd":
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
        loader = Loader(con, summary, started, bar, direct=direct, shas_dir=shas_dir, explicit_family=explicit_family)
        loader.forget_ignored(path for path, _ in found.ignored)
        for path, reason in found.errors:
            loader._flush_errors(path, [(None, reason, None)])
            summary.files_failed += 1
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            # files already landed on their own first: a copy, or a file that continues one, is judged after
            # what it repeats has taken in this load's lines (else a mirror that grew with its original lands twice)
            items = sorted(found.items, key=lambda it: 0 if (rec := loader.registry.get(it.path)) is not None
                           and rec.duplicate_of is None else 1)
            try:
                loader.prefetch(items, pool)
                for it in items:
                    loader.load_item(it)
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
             "roots": json.dumps([os.path.abspath(p) for p in paths]), "ver": version(),
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
        wait = lock_wait()
    memory_limit = load_memory_limit()
    load_compression()
    max_record_bytes()
    t0 = time.monotonic()
    found = discover(paths, family=family, follow_symlinks=follow_symlinks)
    db = os.fspath(db)
    direct = load_direct_enabled()
    with db_lock(db, wait=wait, what="load"):
        try:
            summary = _load_once(paths, db, found, memory_limit, progress, direct, family)
        except _DirectPathFailed:
            # DuckDB's scanner refused a file the pre-pass accepted (rolled back): land everything the chunked way
            summary = _load_once(paths, db, found, memory_limit, progress, direct=False, explicit_family=family)
    summary.files_unchanged = sum(1 for f in summary.files if f.status == "unchanged")
    summary.seconds = time.monotonic() - t0
    return summary


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
                     "logs_layered/ (or pass --family), coder-eval run directories holding run.json, and inspect_ai "
                     "logs (*.eval, or *.json log objects):")
        for path, why in s.ignored[:SHOW_ERRORS]:
            lines.append(f"  ignored: {path}: {why}")
        if len(s.ignored) > SHOW_ERRORS:
            lines.append(f"  ... and {len(s.ignored) - SHOW_ERRORS} more ignored")
    return "\n".join(lines)
