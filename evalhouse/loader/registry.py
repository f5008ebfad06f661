"""The file registry (raw.files) and the identity rules: unchanged, appended, replaced, duplicate, a copy
that grew, orphans re-landed."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, fields

from ..discover import Item
from ..schema import CODER_EVAL_FAMILY_TABLES, JSONL_TABLES, coder_eval_family
from . import statements as S
from .prepass import _prefix_hexdigest
from .results import FileResult, _cut


PREFIX_CANDIDATES = 16     # files checked as the one a new file copies or continues (see _first_candidates)
RACY_NS = 2_000_000_000      # mtime this close to the registering load: verify by hash


@dataclass
class FileRecord:
    """What is landed of one file: a row of raw.files (schema.py), plus when it was registered. The one list of
    the registry's columns: the load reads them with statements.SELECT_FILES and writes them with INSERT_FILES."""
    source_file: str
    family: str
    size_bytes: int
    mtime_ns: int | None
    bytes_landed: int
    prefix_sha256: str
    file_sha256: str
    lines_read: int | None
    lines_landed: int
    first_load_id: str
    duplicate_of: str | None
    registered_ns: int | None      # the registering load's start (raw.loads.started_at), not a raw.files column
    oversize_cap: int | None
    first_line_sha256: str | None


# raw.files columns the registry writes (FileRecord's fields but registered_ns; last_load_id is the writing load).
# The SQL that reads and writes them is loader/sql/select_files.sql and insert_files.sql (statements.SELECT_FILES, INSERT_FILES; tests/loader/test_registry.py
# checks it names exactly these fields, in this order).
STORED_COLUMNS = tuple(f.name for f in fields(FileRecord) if f.name != "registered_ns")


def _append_candidate(reg: FileRecord | None, family: str) -> bool:
    """A registered file whose growth may be an append. A pure duplicate (it landed nothing) that changed is
    judged afresh instead: it may now be a copy of more of its original, or hold lines of its own."""
    return reg is not None and (reg.bytes_landed or 0) > 0 and reg.family == family and \
        not (reg.duplicate_of is not None and not reg.lines_landed)


class RegistryMixin:
    """raw.files: what is landed of each file, and the identity rules (duplicates, copies that grew,
    orphans) built on it. Mixed into Loader (evalhouse.loader.core)."""

    def _retry_oversize(self, reg: FileRecord | None) -> bool:
        """A file with a record quarantined as too large under a smaller limit than today's lands again, whole."""
        return reg is not None and reg.oversize_cap is not None and self.record_cap > reg.oversize_cap

    # ---- bookkeeping ---------------------------------------------------------------------
    def _flush_errors(self, path: str, errs: list[tuple[int | None, str, str | None]]) -> None:
        if not errs:
            return
        if all(e[0] is None for e in errs):
            self._failed_again.add(path)     # this load's whole-file errors stand for the earlier loads' ones
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
        if old is None or not old.bytes_landed:   # read from its start (a replaced file is added where its rows go)
            self._quarantine_restated.add(path)
        first = old.first_load_id if old else self.s.load_id
        if duplicate_of is ...:
            duplicate_of = old.duplicate_of if old else None
        if first_line_sha is ...:        # kept while the file keeps its first line (unchanged, appended)
            first_line_sha = old.first_line_sha256 if old and path not in self._fresh else None
        if path in self._oversized:
            oversize_cap = self.record_cap
        else:
            oversize_cap = None if old is None or path in self._fresh else old.oversize_cap
        self.registry[path] = FileRecord(source_file=path, family=family, size_bytes=size, mtime_ns=mtime_ns,
                                         bytes_landed=bytes_landed, prefix_sha256=prefix_sha, file_sha256=file_sha,
                                         lines_read=lines_read, lines_landed=lines_landed, first_load_id=first,
                                         registered_ns=time.time_ns(), duplicate_of=duplicate_of,
                                         oversize_cap=oversize_cap, first_line_sha256=first_line_sha)
        if self._first_index is not None:
            self._first_unindex(path, old.first_line_sha256 if old else None)
            self._first_add(path, first_line_sha)
        self._dirty.add(path)
        self._index(path, self.registry[path])

    def flush(self) -> None:
        """Write the registry changes (raw.files, one batch) and the batched coder-eval documents, and drop the
        quarantine rows that no longer describe a file: every earlier-load row of a file this load read from its
        start (rewritten, replaced, or landed after it failed), and the earlier whole-file errors of a file that
        failed again. raw.load_errors then holds what is quarantined of each file as it is now (raw.loads keeps
        each load's counts)."""
        for paths, whole_file_only in ((self._quarantine_restated, False), (self._failed_again, True)):
            if paths:
                self.con.execute(S.FORGET_LOAD_ERRORS, {"load_id": self.s.load_id, "p": sorted(paths),
                                                        "whole_file_only": whole_file_only})
        if self._dirty:
            rows = [self.registry[p] for p in sorted(self._dirty)]
            params = {c: [getattr(r, c) for r in rows] for c in STORED_COLUMNS}
            self.con.execute("DELETE FROM raw.files WHERE source_file IN (SELECT unnest($p::VARCHAR[]))",
                             {"p": params["source_file"]})
            self.con.execute(S.INSERT_FILES, {**params, "load_id": self.s.load_id})
            self._dirty.clear()
        self._flush_docs()

    def _unchanged_by_stat(self, reg: FileRecord | None, st: os.stat_result) -> bool:
        if reg is None or reg.size_bytes != st.st_size or reg.mtime_ns != st.st_mtime_ns:
            return False
        registered = reg.registered_ns
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
            if other == path or reg is None or not reg.lines_landed:
                continue
            holds = reg.file_sha256 == file_sha or (reg.bytes_landed and reg.prefix_sha256 == file_sha)
            if not holds:
                continue
            if "matrix" in (family, reg.family) and os.path.basename(other) != os.path.basename(path):
                continue
            return other
        return self._find_prefix_holder(path, family, first_sha, end, end_sha)

    def _find_prefix_holder(self, path: str, family: str, first_sha: str | None, end: int | None,
                            end_sha: str | None) -> str | None:
        """A landed file, unchanged on disk since, whose first `end` bytes are `path`'s complete lines: `path` is a
        copy of an older state of it (a snapshot of a growing log) and holds nothing it has not landed."""
        if first_sha is None or not end:
            return None
        for other in self._first_candidates(first_sha, path):
            reg = self.registry.get(other)
            if other == path or reg is None or not reg.lines_landed or reg.family != family \
                    or reg.bytes_landed < end:
                continue
            if family == "matrix" and os.path.basename(other) != os.path.basename(path):
                continue
            try:
                st = os.stat(other)
            except OSError:
                continue
            if (st.st_size, st.st_mtime_ns) != (reg.size_bytes, reg.mtime_ns):
                continue            # changed since it was landed: its bytes on disk are not what it landed
            if _prefix_hexdigest(other, end) == end_sha:
                return other
        return None

    def _first_add(self, path: str, sha: str | None) -> None:
        if sha is not None:
            self._first_index.setdefault(sha, {})[path] = None
            self._first_by_name.setdefault((sha, os.path.basename(path)), {})[path] = None

    def _first_unindex(self, path: str, sha: str | None) -> None:
        if sha is not None:
            self._first_index.get(sha, {}).pop(path, None)
            self._first_by_name.get((sha, os.path.basename(path)), {}).pop(path, None)

    def _first_candidates(self, first_sha: str, path: str) -> list[str]:
        """Landed files whose first line is `path`'s: at most PREFIX_CANDIDATES, those of the same name first, then
        the most recently registered (many logs that share a header line cost a bounded number of hashes each)."""
        if self._first_index is None:
            self._first_index, self._first_by_name = {}, {}
            for other, reg in self.registry.items():
                self._first_add(other, reg.first_line_sha256)
        out: list[str] = []
        for group in (self._first_by_name.get((first_sha, os.path.basename(path)), {}),
                      self._first_index.get(first_sha, {})):
            for other in reversed(group):
                if other != path and other not in out:
                    out.append(other)
                if len(out) >= PREFIX_CANDIDATES:
                    return out
        return out

    def _find_prefix_source(self, path: str, family: str, first_sha: str | None, end: int) -> tuple[str, dict] | None:
        """A landed file whose whole landed content is a proper prefix of `path`'s first `end` bytes (the
        longest): `path` is its copy that grew on its own, and only the lines after that prefix are its own."""
        if first_sha is None:
            return None
        best = None
        for other in self._first_candidates(first_sha, path):
            reg = self.registry.get(other)
            if other == path or reg is None or not reg.lines_landed \
                    or reg.family not in JSONL_TABLES or not 0 < reg.bytes_landed < end:
                continue
            if "matrix" in (family, reg.family) and os.path.basename(other) != os.path.basename(path):
                continue
            if reg.family != family or (best is not None and reg.bytes_landed <= best[1].bytes_landed):
                continue
            if _prefix_hexdigest(path, reg.bytes_landed) == reg.prefix_sha256:
                best = (other, reg)
        return best

    def _index(self, path: str, reg: FileRecord) -> None:
        if self._sha_index is None or reg.family not in JSONL_TABLES or reg.size_bytes == 0:
            return
        for sha in (reg.file_sha256, reg.prefix_sha256 if reg.bytes_landed else None):
            if sha is not None and path not in self._sha_index.setdefault(sha, []):
                self._sha_index[sha].append(path)

    def _replace_rows_if_registered(self, reg: FileRecord | None, res: FileResult) -> None:
        """The already-landed part changed: delete the file's old rows (same transaction)."""
        if reg is None:
            return
        if self._batches:
            self.flush_small()            # queued rows are written before any are deleted
        self._fresh.add(res.path)
        self._quarantine_restated.add(res.path)
        fam = reg.family
        if fam in JSONL_TABLES:
            self.con.execute(f"DELETE FROM raw.{JSONL_TABLES[fam]} WHERE source_file = $p", {"p": res.path})
        elif fam == "inspect":
            self.con.execute(S.DELETE_INSPECT_FILE, {"p": res.path})
        elif fam in CODER_EVAL_FAMILY_TABLES:
            self.con.execute(f"DELETE FROM raw.{CODER_EVAL_FAMILY_TABLES[fam]} WHERE source_file = $p", {"p": res.path})
            if self._coder_eval_index is not None:
                for key in [k for k, v in self._coder_eval_index.items() if v == res.path]:
                    del self._coder_eval_index[key]
        res.status = "replaced"
        # the old bytes may live on in files registered as their duplicates (a rotated or renamed copy):
        # those now hold the only copy, so they land (reland_orphans) -- never lost with the rewrite
        self._orphans.extend(p for p, r in self.registry.items() if r.duplicate_of == res.path)
        if fam == coder_eval_family("run"):
            # a new run.json makes its directory another run: documents elsewhere that repeated this run's are
            # no longer the same run's records (a renamed run whose old name is reused), so they land
            run_dir = os.path.dirname(res.path) + os.sep
            self._orphans.extend(p for p, r in self.registry.items()
                                 if (r.duplicate_of or "").startswith(run_dir) and p not in self._orphans)

    def reland_orphans(self, items: dict[str, Item]) -> None:
        """Land the files whose content repeated a file that has since been replaced (after the main pass,
        so the replacement is registered first). A coder-eval document is re-landed only when it is among this
        load's files (its identity comes from discovery); otherwise the load says which folder to load."""
        while self._orphans:
            path = self._orphans.pop(0)
            reg = self.registry.get(path)
            if reg is None or reg.duplicate_of is None or not os.path.exists(path):
                continue
            item = items.get(path)
            if item is None and reg.family in JSONL_TABLES:
                item = Item(path=path, kind="jsonl", family=reg.family)
            if item is None:
                self._flush_errors(path, [(None, f"repeated {reg.duplicate_of}, which was rewritten: load "
                                                 f"{os.path.dirname(path)} again to land it", None)])
                continue
            earlier = [f for f in self.s.files if f.path == path]        # reported once, as what it is now
            self.s.files_duplicate -= sum(1 for f in earlier if f.status == "duplicate")
            self.s.files = [f for f in self.s.files if f.path != path]
            if reg.lines_landed:
                # it continued a file that changed: its own rows go, and it is judged afresh below
                self._replace_rows_if_registered(reg, FileResult(path=path, status="loaded", family=reg.family))
                self.s.records_landed -= sum(f.landed for f in earlier)
                self.s.files_loaded -= sum(1 for f in earlier if f.status in ("loaded", "appended", "replaced"))
            del self.registry[path]
            self.load_item(item)
