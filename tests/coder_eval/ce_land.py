"""Land coder-eval run directories into raw.ce_*_docs for tests.

A tiny stand-in for the loader (evalhouse/load.py): parameters only, exact file names, and
path parsing as the loader does it: run_dir = nearest ancestor holding run.json, then
<variant>/<task>/<NN>/ or <variant>/<suite>/<row>/<NN>/ below it.
When evalhouse.load.load_paths exists the tests may use it instead (see land()).
"""
from __future__ import annotations

import hashlib
import json
import re
import uuid
from datetime import datetime, timezone
from pathlib import Path

import duckdb
import yaml

from evalhouse.schema import CE_TABLES, ensure_raw_schema

_JUDGE = re.compile(r"^(post-failure-)?judge-(\d+)\.(yaml|yml|json)$")
_KINDS = {"run.json": "run", "task.json": "task", "task.execute.json": "task_execute",
          "variant.json": "variant", "experiment.json": "experiment", "suite.json": "suite"}


def _kind(name: str) -> str | None:
    if name in _KINDS:
        return _KINDS[name]
    if _JUDGE.match(name):
        return "judge"
    return None


def _run_dir(path: Path) -> Path | None:
    for parent in path.parents:
        if (parent / "run.json").is_file():
            return parent
    return None


def describe(path: Path) -> dict | None:
    """Identity columns of one coder-eval document, from its location (None = not ours)."""
    kind = _kind(path.name)
    if kind is None:
        return None
    run_dir = path.parent if kind == "run" else _run_dir(path)
    if run_dir is None:
        return None
    parts = path.relative_to(run_dir).parts
    if "artifacts" in parts:
        return None
    row = dict(run_dir=str(run_dir), run_id=run_dir.name, doc_kind=kind, variant_id=None, task_id=None,
               suite_id=None, row_id=None, replicate_index=None, judge_index=None, judge_phase=None)
    if kind in ("variant",) and len(parts) == 2:
        row["variant_id"] = parts[0]
    elif kind == "suite" and len(parts) == 3:
        row["variant_id"], row["suite_id"] = parts[0], parts[1]
    elif kind in ("task", "task_execute", "judge") and len(parts) in (4, 5):
        row["variant_id"] = parts[0]
        mid = parts[1:-2]
        if len(mid) == 2:
            row["suite_id"], row["row_id"] = mid
        row["task_id"] = "/".join(mid)
        if parts[-2].isdigit():
            row["replicate_index"] = int(parts[-2])
        if kind == "judge":
            m = _JUDGE.match(path.name)
            row["judge_phase"] = "post_failure" if m.group(1) else "success"
            row["judge_index"] = int(m.group(2))
    return row


def _document(path: Path, kind: str) -> str:
    text = path.read_text()
    if kind == "judge" and not path.name.endswith(".json"):
        return json.dumps(yaml.safe_load(text), default=str)
    return text


def land(db: Path, roots: list[Path]) -> int:
    """Land every coder-eval document under `roots` into `db` with the project's loader
    (evalhouse.load.load_paths); falls back to land_minimal() when the loader is not importable."""
    try:
        from evalhouse.load import load_paths
    except ImportError:  # pragma: no cover - only before the loader existed
        return land_minimal(db, roots)
    summary = load_paths([Path(r) for r in roots], Path(db))
    assert not summary.errors, summary.errors
    return summary.records_landed


def land_minimal(db: Path, roots: list[Path]) -> int:
    """Parameters-only INSERT of every coder-eval document under `roots`; returns the number of documents."""
    con = duckdb.connect(str(db))
    n = 0
    try:
        ensure_raw_schema(con)
        load_id = str(uuid.uuid4())
        now = datetime.now(timezone.utc)
        files = []
        for root in roots:
            root = Path(root)
            files += [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            ident = describe(path)
            if ident is None:
                continue
            raw = path.read_bytes()
            doc = _document(path, ident["doc_kind"])
            cols = dict(load_id=load_id, loaded_at=now, source_file=str(path), **ident, document=doc,
                        document_sha256=hashlib.sha256(doc.encode()).hexdigest(),
                        file_sha256=hashlib.sha256(raw).hexdigest(), repaired=None)
            table = CE_TABLES[ident["doc_kind"]]
            names = ", ".join(cols)
            marks = ", ".join("?" for _ in cols)
            con.execute(f"insert into raw.{table} ({names}) values ({marks})", list(cols.values()))
            n += 1
    finally:
        con.close()
    return n
