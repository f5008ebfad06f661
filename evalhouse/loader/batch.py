"""Small files in batches: a folder of many tiny logs costs one classification and one INSERT per batch,
not a few statements per file."""
from __future__ import annotations

import hashlib
import os


from ..schema import JSONL_TABLES
from . import prepass
from . import statements as S
from .prepass import KEY_LIST_LINES, KEY_LISTS_MAX, _first_line_sha, _key_lists, _Scan
from .results import FileResult, LoadError


SMALL_FILE_BYTES = 64 << 10   # a first landing this small goes in a batch with others (one statement per batch)
BATCH_BYTES = 16 << 20        # ... of at most this many bytes
BATCH_FILES = 4096            # ... and files


class BatchMixin:
    """Many small first landings in one statement per family. Mixed into Loader (evalhouse.loader.core)."""

    # ---- small files: many first landings in one statement --------------------------------------
    def _batch_small(self, path: str, family: str, reg, res: FileResult, st: os.stat_result, sc: _Scan,
                     pending: int) -> bool:
        """Queue a small file's first landing (or replacement) for _flush_small: per-file statements cost
        milliseconds each, which dominates a folder of many tiny files. False: land it the usual way."""
        try:
            with prepass.read_file(path) as fh:
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
        res.landed_by = "batch"
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
            con.execute(S.BATCH_SQL, {"fids": fids, "nos": nos, "texts": texts, "key_lists": key_lists})
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
                errs: list = []
                repaired = self._land_checked(path, table, file_sha, checks.get(fid, ()), errs)
                self._flush_errors(path, errs)
                res.landed = counts.get((fid, "ok"), 0) + repaired
                res.quarantined = len(errs)
                res.blank = counts.get((fid, "blank"), 0)
                if res.landed + res.quarantined + res.blank != res.lines:  # pragma: no cover - invariant
                    raise LoadError(f"internal error: line accounting does not add up for {path}")
                self.registry[path].lines_landed = res.landed
                self._count(res)
