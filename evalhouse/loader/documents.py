"""coder-eval documents (run.json, task.json, variant.json, ..., judge YAML): one row per document."""
from __future__ import annotations

import hashlib
import json
import os


from ..config import max_record_bytes
from ..discover import Item
from ..schema import CODER_EVAL_TABLES, coder_eval_family
from . import prepass
from .jsonread import _kind_of, _read_yaml, python_read
from .jsonl import _read_failure, _too_large
from .prepass import GZIP_MAGIC
from .results import RAW_TEXT_MAX, FileResult, LoadError


class DocumentsMixin:
    """coder-eval run directories: run ids, documents read and checked, copies of a run. Mixed into Loader
    (evalhouse.loader.core)."""

    # ---- coder-eval documents ---------------------------------------------------------------
    def _run_id_for(self, run_dir: str) -> str:
        """A run's id is its directory's name, unique in the warehouse: a second, different run directory with a
        name already taken (two folders both named `run_1`) gets `<name>@<8 hex of its path>`, so two runs are
        never pooled under one id (data_quality_findings says so). A run keeps the id it first landed with."""
        if self._run_ids is None:
            self._run_ids = {}
            for table in CODER_EVAL_TABLES.values():
                for rd, rid in self.con.execute(f"SELECT DISTINCT run_dir, run_id FROM raw.{table}").fetchall():
                    self._run_ids.setdefault(rd, rid)
        rid = self._run_ids.get(run_dir)
        if rid is None:
            base = os.path.basename(run_dir)
            taken = {r for d, r in self._run_ids.items() if d != run_dir}
            rid = base if base not in taken else f"{base}@{hashlib.sha256(run_dir.encode()).hexdigest()[:8]}"
            self._run_ids[run_dir] = rid
        return rid

    def _read_changed_document(self, path: str, family: str, res: FileResult):
        """A whole-file document (a coder-eval document, an inspect_ai log) that must land: (bytes, stat, its
        registry record or None, sha256). None when it is unchanged (by stat, else by hash: recorded as such) or
        unreadable (reported). A changed file's earlier rows are deleted first (res becomes "replaced")."""
        try:
            st = os.stat(path)
            reg = self.registry.get(path)
            if self._retry_oversize(reg):
                self._replace_rows_if_registered(reg, res)     # too large under a smaller limit: read it again
                reg = None
            if self._unchanged_by_stat(reg, st):
                res.status = "unchanged"
                self.s.files.append(res)
                return None
            with prepass.read_file(path) as fh:
                data = fh.read()
        except OSError as exc:
            self._whole_file_error(res, _read_failure(exc))
            return None
        file_sha = hashlib.sha256(data).hexdigest()
        if reg is not None:
            if reg.file_sha256 == file_sha:
                self._register(path, family, len(data), st.st_mtime_ns, len(data), file_sha, file_sha, 0,
                               reg.lines_landed)
                res.status = "unchanged"
                self.s.files.append(res)
                return None
            self._replace_rows_if_registered(reg, res)
        return data, st, reg, file_sha

    def load_coder_eval(self, item: Item) -> None:
        path, meta = item.path, item.coder_eval
        meta = {**meta, "run_id": self._run_id_for(meta["run_dir"])}
        kind = meta["doc_kind"]
        family = coder_eval_family(kind)
        res = FileResult(path=path, status="loaded", family=family)
        got = self._read_changed_document(path, family, res)
        if got is None:
            return
        data, st, reg, file_sha = got
        size = len(data)
        if reg is None:
            dup = self._find_coder_eval_duplicate(path, meta, file_sha)
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
        self._coder_eval_key_index()[self._coder_eval_key(meta, file_sha)] = path
        res.landed = 1
        self._register(path, family, size, st.st_mtime_ns, size, file_sha, file_sha, 0, 1, duplicate_of=None)
        self._count(res)
        self.s.files.append(res)

    @staticmethod
    def _coder_eval_key(meta: dict, file_sha: str) -> tuple:
        return (meta["doc_kind"], file_sha, meta["variant_id"], meta["task_id"], meta["replicate_index"],
                meta["judge_index"], meta["judge_phase"])

    def _coder_eval_key_index(self) -> dict:
        if self._coder_eval_index is None:
            self._coder_eval_index = {}
            for kind, table in CODER_EVAL_TABLES.items():
                for row in self.con.execute(
                        f"SELECT doc_kind, file_sha256, variant_id, task_id, replicate_index, judge_index, judge_phase, "
                        f"source_file FROM raw.{table}").fetchall():
                    self._coder_eval_index.setdefault(tuple(row[:7]), row[7])
        return self._coder_eval_index

    def _find_coder_eval_duplicate(self, path: str, meta: dict, file_sha: str) -> str | None:
        """Same bytes in the same role (kind, variant, task, replicate, judge) of the same run: a run directory
        copied or moved elsewhere (its run.json has the same bytes). A document belongs to its run:
        byte-identical replicates of two different runs are two runs' records and both land."""
        other = self._coder_eval_key_index().get(self._coder_eval_key(meta, file_sha))
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
            with prepass.read_file(path) as fh:
                return hashlib.sha256(fh.read()).hexdigest()
        except OSError:
            reg = self.registry.get(path)
            return reg.file_sha256 if reg is not None else None

    def check_documents(self) -> None:
        """Every landed document must be JSON DuckDB reads; rewrite the rare one it does not (Python's reading)."""
        for kind, table in CODER_EVAL_TABLES.items():
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

    def _flush_docs(self) -> None:
        """Insert the coder-eval documents read so far (one INSERT per kind)."""
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
                f"INSERT INTO raw.{CODER_EVAL_TABLES[kind]} (load_id, loaded_at, source_file, run_dir, run_id, doc_kind, "
                "variant_id, task_id, suite_id, row_id, replicate_index, judge_index, judge_phase, document, "
                "document_sha256, file_sha256, repaired) "
                "SELECT $load_id, $at, u.source_file, u.run_dir, u.run_id, u.doc_kind, u.variant_id, u.task_id, "
                "u.suite_id, u.row_id, u.replicate_index, u.judge_index, u.judge_phase, u.document, "
                f"sha256(u.document), u.file_sha256, u.repaired FROM (SELECT {sel}) AS u",
                {**params, "load_id": self.s.load_id, "at": self.loaded_at})
            docs.clear()
