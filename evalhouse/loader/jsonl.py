"""JSONL files: the direct path (DuckDB reads the file), the chunked path (Python reads, DuckDB splits and
classifies), appends, gzip archives."""
from __future__ import annotations

import errno
import hashlib
import os
from concurrent.futures import ThreadPoolExecutor

import duckdb

from ..config import max_record_bytes
from ..discover import Item
from ..paths import is_disk_full
from ..schema import JSONL_TABLES
from . import batch, prepass
from . import statements as S
from .jsonread import python_read
from .prepass import BOM, GZIP_MAGIC, _drop_line_shas, _first_line_sha, _pending, _read_jsonl, _Scan, _stat_key
from .registry import _append_candidate
from .results import RAW_TEXT_MAX, FileResult, LoadError, _DirectPathFailed


CHUNK_BYTES = 64 << 20       # bytes per DuckDB split/validate batch


def _read_failure(exc: OSError) -> str:
    """The reason a file could not be read, for raw.load_errors; a full disk is fatal (LoadError), never a
    file's fault."""
    if is_disk_full(exc):
        raise exc              # fatal: the CLI reports it (disk_full_message), the load is rolled back
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"cannot read file: {exc.strerror} (check its permissions)"
    return f"cannot read file: {exc.strerror or exc}"


def _too_large(what: str, size: int, cap: int) -> str:
    return (f"{what} is {size:,} bytes, over the record limit of {cap:,} bytes (quarantined; the rest of the file "
            f"lands): shorten the record, or raise EVALHOUSE_MAX_RECORD_BYTES (and EVALHOUSE_LOAD_MEMORY_LIMIT to "
            f"about 10x it) and load again: the file then lands again, whole")


class JsonlMixin:
    """Landing JSONL files: prefetching the pre-passes, the direct path, the chunked path and gzip archives.
    Mixed into Loader (evalhouse.loader.core)."""

    def prefetch(self, items, pool: ThreadPoolExecutor) -> None:
        """Run the pure-Python reading of the JSONL files in `pool`, so it overlaps DuckDB's work.

        A grown registered file: hash its landed prefix (an append's only O(landed) work), all at once.
        Any other changed file: its pre-pass (prepass.scan_file), prepass.SCAN_AHEAD files ahead of the one DuckDB is
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
                self._prefixes[it.path] = pool.submit(prepass.safe_hash_prefix, it.path, reg.bytes_landed)
            else:
                self._scan_queue[it.path] = None
        self._top_up_scans()

    def _top_up_scans(self) -> None:
        while self._pool is not None and self._scan_queue and len(self._scans) < prepass.SCAN_AHEAD:
            path = next(iter(self._scan_queue))
            del self._scan_queue[path]
            try:
                st = os.stat(path)
            except OSError:
                continue
            scan = self._pool.submit(prepass.safe_scan_file, path, self.shas_dir)
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
        return prepass.scan_file(path, self.shas_dir)

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
        refamily = reg is not None and reg.family != family and reg.family in JSONL_TABLES
        if refamily and self.explicit_family is None:
            family, refamily = reg.family, False
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
            if reg is not None and reg.file_sha256 == file_sha:
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
            if reg.file_sha256 == file_sha:
                # same bytes (only the mtime moved, or a racy stat): nothing to do
                # re-register: the new stat (and a later registration time, so it is no longer racy)
                self._register(path, reg.family, size, mtime_ns, reg.bytes_landed, reg.prefix_sha256,
                               file_sha, reg.lines_read or 0, reg.lines_landed)
                res.status = "unchanged"
                res.pending = pending
                self.s.files.append(res)
                self.progress.advance(size, path)
                return
            if off > 0 or (reg.bytes_landed == 0 and reg.family == family):
                # the landed prefix is byte-identical (verified by _read_jsonl): land only what follows
                start, base = off, reg.lines_read or 0
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
                start, base = src[1].bytes_landed, src[1].lines_read or 0
                res.continues = continues
                self.s.duplicates_skipped += base
        if self.batch and sc is not None and start == 0 and 0 < end <= min(batch.SMALL_FILE_BYTES, self.record_cap) and \
                self._batch_small(path, family, reg, res, st, sc, pending):
            return
        # line hashes exist only when the direct path is on and its preconditions hold (see prepass.scan_file)
        direct = sc is not None and sc.line_shas is not None and end > start and start == 0 and \
            self._land_direct(path, family, sc, st, res)
        if end > start:
            if not direct:
                if data is None:                                    # the chunked way needs the bytes
                    with prepass.read_file(path) as fh:
                        data = fh.read(end)
                    if len(data) < end or hashlib.sha256(data).hexdigest() != end_sha:
                        raise LoadError(f"{path} changed while it was being loaded; run the load again")
                self._land_segment(path, family, data, start - off, end - off, base, file_sha, res, file_off=off)
        res.pending = pending
        lines_read = base + res.lines
        landed_total = (reg.lines_landed if (reg is not None and res.status == "appended") else 0) + res.landed
        self._register(path, family, size, mtime_ns, end, end_sha, file_sha, lines_read, landed_total,
                       duplicate_of=continues if continues is not None else None if res.status == "replaced" else ...,
                       first_line_sha=first_sha if first_sha is not None else ...)
        if res.status == "appended" and res.lines:
            # files that continue this one may hold the lines it just landed: judge them afresh (reland_orphans)
            self._orphans.extend(p for p, r in self.registry.items()
                                 if r.duplicate_of == path and r.lines_landed and p not in self._orphans)
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
            with prepass.read_file(path) as fh:
                data = prepass._gunzip(fh, path)
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
        if reg is not None and reg.file_sha256 == file_sha and not self._retry_oversize(reg):
            self._register(path, reg.family, st.st_size, st.st_mtime_ns, reg.bytes_landed, reg.prefix_sha256,
                           file_sha, reg.lines_read or 0, reg.lines_landed)
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

    def _land_direct(self, path: str, family: str, sc: _Scan, st: os.stat_result, res: FileResult) -> bool:
        """Land all complete lines of `path` with DuckDB's own scanner (loader/sql/direct_insert.sql, direct_check.sql).

        Returns False (nothing landed, nothing left behind) when DuckDB's reading cannot be trusted to
        match the pre-pass: another line count, or the file changed under the load. Then the caller
        lands the file the chunked way.
        """
        table = JSONL_TABLES[family]
        con = self.con
        key = {"load_id": self.s.load_id, "file": path}
        try:
            inserted = con.execute(f"INSERT INTO raw.{table} " + S.DIRECT_INSERT, {
                **key, "at": self.loaded_at, "fsha": sc.file_sha, "n_lines": sc.lines, "shas": sc.line_shas,
            }).fetchall()[0][0]
            if inserted == sc.lines and con.execute(f"SELECT count(*) FROM raw.{table} " + S.DIRECT_SHA_PROBE,
                                                    {**key, "n_lines": sc.lines}).fetchall()[0][0]:
                con.execute(f"UPDATE raw.{table} " + S.DIRECT_SHA_REDO, key)
            now = os.stat(path)
            changed = (now.st_size, now.st_mtime_ns) != (st.st_size, st.st_mtime_ns)
            if inserted != sc.lines or (changed and prepass._prefix_hexdigest(path, sc.end) != sc.end_sha):
                con.execute(f"DELETE FROM raw.{table} WHERE load_id = $load_id AND source_file = $file", key)
                return False
            second_look = con.execute(S.direct_check(table),
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
        res.landed_by = "direct"
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

    def _whole_file_error(self, res: FileResult, reason: str) -> None:
        self._flush_errors(res.path, [(None, reason, None)])
        res.status = "failed"
        self.s.files_failed += 1
        self.s.files.append(res)

    def _land_checked(self, path: str, table: str, file_sha: str, rows, errs: list) -> int:
        """Python's second look at the lines DuckDB flagged ((line_no, text, json_valid) rows): land each as
        Python's json reads it (repaired, with its note), or append its reason to `errs`. Returns lines landed."""
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
            self.con.execute(
                f"INSERT INTO raw.{table} SELECT $load_id, $at, $file, u.line_no, u.rec, sha256(u.rec), $fsha, "
                "u.note FROM (SELECT unnest($nos::BIGINT[]) AS line_no, unnest($recs::VARCHAR[]) AS rec, "
                "unnest($notes::VARCHAR[]) AS note) AS u",
                {"load_id": self.s.load_id, "at": self.loaded_at, "file": path, "fsha": file_sha,
                 "nos": nos, "recs": recs, "notes": notes})
        return len(nos)

    def _land_segment(self, path, family, data: bytes, start: int, end: int, base: int, file_sha: str,
                      res: FileResult, file_off: int = 0) -> None:
        """Land data[start:end] (complete lines); data starts at byte `file_off` of the file."""
        res.landed_by = "chunked"
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
            con.execute(S.SPLIT_SQL, {"base": base, "chunk": text, "key_lists": prepass._key_lists(chunk)})
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
            con.execute(S.LIST_SQL, {"nos": nos, "texts": texts, "key_lists": prepass._key_lists(chunk)})
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
            landed += self._land_checked(path, table, file_sha, rows, errs)
        errs.sort(key=lambda e: e[0])
        self._flush_errors(path, errs)
        res.landed += landed
        res.quarantined += len(errs)
        res.blank += counts.get("blank", 0)
        if res.landed + res.quarantined + res.blank != res.lines + n_lines:  # pragma: no cover - invariant
            raise LoadError(f"internal error: line accounting does not add up for {path}")
