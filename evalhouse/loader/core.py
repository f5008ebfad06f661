"""The Loader: the state of one load, assembled from the modules that each do one job."""
from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime


from ..config import load_batch_enabled, max_record_bytes
from ..schema import CODER_EVAL_TABLES
from .batch import BatchMixin
from .documents import DocumentsMixin
from .inspect import InspectMixin
from .jsonl import JsonlMixin
from .progress import _Progress
from . import statements as S
from .registry import FileRecord, RegistryMixin
from .results import LoadSummary
from .prepass import _Scan


class Loader(RegistryMixin, JsonlMixin, BatchMixin, DocumentsMixin, InspectMixin):
    """One load's work in one DuckDB transaction: the registry, JSONL files, small-file batches,
    coder-eval documents and inspect_ai logs (each in its own module); evalhouse.load drives it."""

    def __init__(self, con, summary: LoadSummary, loaded_at: datetime, progress: _Progress, direct: bool = True,
                 shas_dir: str | None = None, explicit_family: str | None = None):
        self.con = con
        # --family given: a registered file landed under another family moves to this one (its old rows go);
        # without it, a registered file keeps the family it was landed under
        self.explicit_family = explicit_family
        self.direct = direct      # land first loads with DuckDB's own scanner (see loader/sql/direct_insert.sql)
        self._prefixes: dict[str, Future] = {}
        self._scans: dict[str, tuple[tuple, Future]] = {}     # path -> (stat key, pre-pass) in flight
        self._scan_queue: dict[str, None] = {}                 # paths whose pre-pass is yet to start, in order
        self._pool: ThreadPoolExecutor | None = None
        self._scan_in_use: _Scan | None = None
        self.shas_dir = shas_dir if direct else None   # where the pre-passes write their line hashes
        self.s = summary
        self.loaded_at = loaded_at
        self.progress = progress
        self.registry: dict[str, FileRecord] = {}     # raw.files, by source_file
        self._sha_index = None
        self._dirty: set[str] = set()
        self._docs: dict[str, list[dict]] = {k: [] for k in CODER_EVAL_TABLES}
        self._coder_eval_index = None
        self._landed_kinds: set[str] = set()
        self._orphans: list[str] = []     # files registered as repeating a file whose rows were just replaced
        self._run_ids: dict[str, str] | None = None   # run_dir -> run_id, as landed (see _run_id_for)
        self._oversized: set[str] = set()   # files with a record quarantined as too large in this load
        self._fresh: set[str] = set()       # files whose old rows this load deleted
        # files whose quarantine this load states afresh (read from their start, or now ignored with nothing
        # landed): the earlier loads' raw.load_errors rows of these files go at flush()
        self._quarantine_restated: set[str] = set()
        self._failed_again: set[str] = set()   # files with a whole-file error in this load
        # first-line sha256 -> registered files (and by (sha256, file name)), in registration order
        self._first_index: dict[str, dict[str, None]] | None = None
        self._first_by_name: dict[tuple[str, str], dict[str, None]] = {}
        self.record_cap = max_record_bytes()
        # small first landings wait in _batches for one statement per family ($EVALHOUSE_LOAD_BATCH=0: off)
        self.batch = load_batch_enabled()
        self._batches: dict[str, list] = {}    # family -> [(path, file sha, lines, FileResult)]
        self._batch_bytes = 0
        for row in con.execute(S.SELECT_FILES).fetchall():
            self.registry[row[0]] = FileRecord(*row)

    def forget_ignored(self, paths) -> None:
        """Files discovery now ignores: those with nothing landed are quarantined no more (an earlier rule may
        have tried them, as older releases did eval_set's logs.json listing); a file with rows keeps its errors."""
        for p in paths:
            reg = self.registry.get(p)
            if reg is None or not reg.lines_landed:
                self._quarantine_restated.add(p)

    def load_item(self, item) -> None:
        """Land one discovered file with the path of its kind: JSONL lines, an inspect_ai log or a coder-eval document."""
        if item.kind == "jsonl":
            self.load_jsonl(item)
        elif item.kind == "inspect":
            self.load_inspect(item)
        else:
            self.load_coder_eval(item)
