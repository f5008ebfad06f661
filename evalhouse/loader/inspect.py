"""inspect_ai eval logs: one raw.inspect_members row per member document, with its file, member, sample and
epoch. A log rewritten in place (inspect_ai rewrites a log as its run progresses) replaces its earlier rows."""
from __future__ import annotations

import hashlib

from ..discover import Item
from ..schema import INSPECT_TABLE
from . import statements as S
from .inspect_logs import ZIP_MAGIC, Member, eval_members, json_log_members
from .jsonl import _too_large
from .results import RAW_TEXT_MAX, FileResult

FAMILY = "inspect"


class InspectMixin:
    """Mixed into Loader (evalhouse.loader.core)."""

    def load_inspect(self, item: Item) -> None:
        path = item.path
        res = FileResult(path=path, status="loaded", family=FAMILY)
        got = self._read_changed_document(path, FAMILY, res)
        if got is None:
            return
        data, st, _, file_sha = got
        size = len(data)
        fmt = "eval" if data.startswith(ZIP_MAGIC) else "json"
        if fmt == "eval":
            members, errors = eval_members(data, self.record_cap)
            if any("over the record limit" in why for _, why in errors):
                self._oversized.add(path)
        elif size > self.record_cap:
            self._oversized.add(path)
            members, errors = [], [("", _too_large("the log", size, self.record_cap))]
        else:
            try:
                members, errors = json_log_members(data)
            except ValueError as exc:
                members, errors = [], [("", f"not a readable inspect_ai .json log: {exc}")]
        if errors:
            self._flush_errors(path, [(None, why, data[:RAW_TEXT_MAX].decode("utf-8", "replace") if not member else None)
                                      for member, why in errors])
            res.quarantined = len(errors)
        if members:
            self._land_members(path, fmt, file_sha, members)
        elif res.status != "replaced":
            res.status = "failed"
            self.s.files_failed += 1
        res.landed = len(members)
        self._register(path, FAMILY, size, st.st_mtime_ns, size, file_sha, file_sha, 0, len(members), duplicate_of=None)
        if members or res.status == "replaced":
            self._count(res)
        else:
            self.s.lines_quarantined += res.quarantined
        self.s.files.append(res)

    def _land_members(self, path: str, fmt: str, file_sha: str, members: list[Member]) -> None:
        self.con.execute(S.INSERT_INSPECT_MEMBERS, {
            "load_id": self.s.load_id, "at": self.loaded_at, "file": path, "fmt": fmt, "file_sha": file_sha,
            "member": [m.name for m in members], "kind": [m.kind for m in members],
            "sample_id": [m.sample_id for m in members], "is_int": [m.sample_id_is_int for m in members],
            "epoch": [m.epoch for m in members], "doc": [m.text for m in members],
            "sha": [hashlib.sha256(m.text.encode()).hexdigest() for m in members]})


assert INSPECT_TABLE == "inspect_members"      # statements.INSERT_INSPECT_MEMBERS names it
