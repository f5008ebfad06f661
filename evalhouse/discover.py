"""Discovery: which files under the given roots the loader lands, and as what.

- brownfield JSONL: ``*.jsonl`` (and its logrotate names ``*.jsonl.1``, ``*.jsonl-20261201``, ``*.jsonl.2.gz``) under a directory
  named ``logs_big`` (family big), ``logs`` (matrix) or ``logs_layered`` (layered), the nearest such ancestor wins;
  ``--family`` forces one;
- coder-eval documents, by exact file name: run.json, task.json, task.execute.json, variant.json,
  experiment.json, suite.json, judge-<i>.yaml / post-failure-judge-<i>.yaml (legacy .yml/.json too).
  The run directory is the nearest ancestor holding run.json (a nested directory with its own
  run.json is a separate run); anything under ``artifacts/`` of a run is ignored;
- inspect_ai eval logs, by content, wherever they sit: ``*.eval`` ZIP archives, and ``*.json`` files whose
  first bytes are an inspect_ai log object (`version`, `status`, `eval`), not the ``logs.json`` listing that
  inspect_ai's ``eval_set`` writes beside its logs (ignored, with that reason); the only reads discovery makes
  are these few bytes of each candidate;
- everything else is ignored and counted.

Symlinks: a symlink whose target lies outside every root is not followed unless
``follow_symlinks``; directory loops are survived (each real directory is walked once); a file
reached twice (e.g. through an in-root symlink) is taken once, under the first path found.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

FAMILY_DIRS = {"logs_big": "big", "logs": "matrix", "logs_layered": "layered"}
CODER_EVAL_NAMES = {"run.json": "run", "task.json": "task", "task.execute.json": "task_execute",
                    "variant.json": "variant", "experiment.json": "experiment", "suite.json": "suite"}
_JUDGE = re.compile(r"^(post-failure-)?judge-(\d+)\.(yaml|yml|json)$")
# a JSONL log and its logrotate names: runs.jsonl, runs.jsonl.1, runs.jsonl-20261201, and their gzip-compressed
# archives (runs.jsonl.2.gz): logrotate's compress would otherwise take lines out of reach
JSONL_NAME = re.compile(r"\.jsonl([.-][0-9][0-9-]*)?(\.gz)?$")


@dataclass
class Item:
    """One file the loader will land."""
    path: str                 # absolute, logical (symlinks inside the roots are not resolved)
    kind: str                 # 'jsonl' | 'coder_eval' | 'inspect'
    family: str | None = None  # jsonl: big | matrix | layered; inspect: inspect
    coder_eval: dict | None = None    # a coder-eval document's identity columns (run_dir, run_id, doc_kind, variant_id, ...)


@dataclass
class Discovery:
    items: list[Item] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)   # (path, why)
    errors: list[tuple[str, str]] = field(default_factory=list)    # (path, reason): unreadable dirs
    files_seen: int = 0


def coder_eval_kind(name: str) -> tuple[str, int | None, str | None] | None:
    """(doc_kind, judge_index, judge_phase) for a coder-eval file name, else None."""
    if name in CODER_EVAL_NAMES:
        return CODER_EVAL_NAMES[name], None, None
    m = _JUDGE.match(name)
    if m:
        return "judge", int(m.group(2)), ("post_failure" if m.group(1) else "success")
    return None


_NOT_LOADED = "not a file evalhouse loads"
_EVAL_SET_LISTING = "an inspect_ai eval-set listing (its logs.json): copies of the headers of the logs beside it"


def inspect_log_or_why_not(path: str) -> str | None:
    """None for an inspect_ai eval log, told by content (a *.eval ZIP archive, or a *.json file that opens as a log
    object); else why the file is not loaded. The file's first bytes are read once."""
    suffix = os.path.splitext(path)[1]
    if suffix not in (".eval", ".json"):
        return _NOT_LOADED
    from .loader.inspect_logs import ZIP_MAGIC, looks_like_eval_set_listing, looks_like_json_log
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        # an unreadable *.eval is taken: the loader reports why it cannot be read
        return None if suffix == ".eval" else _NOT_LOADED
    if suffix == ".eval":
        return None if head.startswith(ZIP_MAGIC) else _NOT_LOADED
    if looks_like_json_log(head):
        return None
    return _EVAL_SET_LISTING if looks_like_eval_set_listing(head) else _NOT_LOADED


def _ancestors(directory: str):
    """The directory, then each parent up to the root: the one walk up the tree that discovery makes."""
    d = directory
    while True:
        yield d
        up = os.path.dirname(d)
        if up == d:
            return
        d = up


def jsonl_family(path: str) -> str | None:
    """Family from the nearest ancestor directory named logs_big / logs / logs_layered."""
    return next((FAMILY_DIRS[os.path.basename(d)] for d in _ancestors(os.path.dirname(path))
                 if os.path.basename(d) in FAMILY_DIRS), None)


class _RunDirs:
    """Nearest ancestor holding run.json, cached per directory."""

    def __init__(self):
        self.cache: dict[str, str | None] = {}

    def find(self, directory: str) -> str | None:
        chain = []
        result = None
        for d in _ancestors(directory):
            if d in self.cache:
                result = self.cache[d]
                break
            chain.append(d)
            if os.path.isfile(os.path.join(d, "run.json")):
                result = d
                break
        for c in chain:
            self.cache[c] = result if (result is None or c.startswith(result)) else None
        return result

    @staticmethod
    def unfinished(directory: str) -> str | None:
        """Nearest ancestor holding resume_fingerprint.json, which coder-eval writes when a run starts: a run
        that has not ended (or was stopped) has it and no run.json yet."""
        return next((d for d in _ancestors(directory)
                     if os.path.isfile(os.path.join(d, "resume_fingerprint.json"))), None)


def _replicate(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def describe_coder_eval(path: str, run_dirs: _RunDirs) -> tuple[dict | None, str | None]:
    """Identity columns of a coder-eval document from its location, or (None, why ignored)."""
    name = os.path.basename(path)
    k = coder_eval_kind(name)
    if k is None:
        return None, "not a coder-eval document name"
    kind, judge_index, judge_phase = k
    run_dir = os.path.dirname(path) if kind == "run" else run_dirs.find(os.path.dirname(path))
    if run_dir is None:
        started = run_dirs.unfinished(os.path.dirname(path))
        if started is not None:
            return None, (f"{name} of a coder-eval run that has not ended ({started} has resume_fingerprint.json and "
                          f"no run.json yet): let it end, or finish a stopped one with `coder-eval run --resume "
                          f"--run-dir {started}`, then load again")
        return None, f"{name} outside a coder-eval run directory (no run.json in any parent directory)"
    parts = os.path.relpath(path, run_dir).split(os.sep)
    if "artifacts" in parts[:-1]:
        return None, "under artifacts/ (user files, not coder-eval results)"
    row = dict(run_dir=run_dir, run_id=os.path.basename(run_dir), doc_kind=kind, variant_id=None, task_id=None,
               suite_id=None, row_id=None, replicate_index=None, judge_index=judge_index, judge_phase=judge_phase)
    if kind == "variant" and len(parts) == 2:
        row["variant_id"] = parts[0]
    elif kind == "suite" and len(parts) == 3:
        row["variant_id"], row["suite_id"] = parts[0], parts[1]
    elif kind in ("task", "task_execute", "judge") and len(parts) >= 4:
        # <variant>/<task_id>/<NN>/task.json or <variant>/<suite_id>/<row_id>/<NN>/task.json
        row["variant_id"] = parts[0]
        middle = parts[1:-2]
        row["task_id"] = "/".join(middle)
        if len(middle) == 2:
            row["suite_id"], row["row_id"] = middle
        row["replicate_index"] = _replicate(parts[-2])
    return row, None


def _within(real: str, roots: list[str]) -> bool:
    return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def discover(paths: list[str], family: str | None = None, follow_symlinks: bool = False) -> Discovery:
    """Walk the roots (files or directories, recursively) and classify every file found."""
    out = Discovery()
    roots = [os.path.abspath(p) for p in paths]
    real_roots = [os.path.realpath(p) for p in roots]
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: dict[str, str] = {}   # realpath -> first logical path
    run_dirs = _RunDirs()

    def classify(path: str, explicit: bool) -> None:
        out.files_seen += 1
        real = os.path.realpath(path)
        if real in seen_files:
            first = seen_files[real]
            if not (os.path.islink(first) and not os.path.islink(path)):
                out.ignored.append((path, f"same file as {first} (reached twice through a symlink)"))
                return
            # the file itself wins over a symlink to it found first: it lands under its own name, and the
            # link is a name for it (a landed file replaced by such a link keeps its lines, as a deleted one)
            out.items = [it for it in out.items if it.path != first]
            out.ignored.append((first, f"same file as {path} (a symlink to it)"))
        seen_files[real] = path
        name = os.path.basename(path)
        run_dir = run_dirs.find(os.path.dirname(path))
        if run_dir is not None and "artifacts" in os.path.relpath(path, run_dir).split(os.sep)[:-1]:
            # whatever a run keeps under artifacts/ (logs/ folders and *.jsonl included) is the user's
            out.ignored.append((path, "under artifacts/ of a coder-eval run (user files, not results)"))
            return
        if JSONL_NAME.search(name):
            fam = family or jsonl_family(path)
            if fam is None:
                why = ("cannot tell the log family: put the file under logs_big/, logs/ or logs_layered/, "
                       "or pass --family") if explicit else "*.jsonl outside logs_big/, logs/, logs_layered/"
                out.ignored.append((path, why))
                return
            out.items.append(Item(path=path, kind="jsonl", family=fam))
            return
        if coder_eval_kind(name) is not None:
            row, why = describe_coder_eval(path, run_dirs)
            if row is None:
                out.ignored.append((path, why))
                return
            out.items.append(Item(path=path, kind="coder_eval", coder_eval=row))
            return
        why = inspect_log_or_why_not(path)
        if why is None:
            out.items.append(Item(path=path, kind="inspect", family="inspect"))
            return
        out.ignored.append((path, why))

    def walk(directory: str) -> None:
        stack = [directory]
        while stack:
            d = stack.pop()
            try:
                st = os.stat(d)
            except OSError as exc:
                out.errors.append((d, f"cannot read directory: {exc.strerror or exc}"))
                continue
            key = (st.st_dev, st.st_ino)
            if key in seen_dirs:
                continue  # symlink loop, or the same directory reached twice
            seen_dirs.add(key)
            try:
                with os.scandir(d) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                out.errors.append((d, f"cannot read directory: {exc.strerror or exc} (check its permissions)"))
                continue
            subdirs = []
            for e in entries:
                path = e.path
                try:
                    if e.is_symlink():
                        real = os.path.realpath(path)
                        if not os.path.exists(real):
                            out.files_seen += 1
                            out.ignored.append((path, "broken symlink"))
                            continue
                        if not follow_symlinks and not _within(real, real_roots):
                            out.files_seen += 1
                            out.ignored.append((path, "symlink to outside the given paths not followed "
                                                      "(pass --follow-symlinks to follow it)"))
                            continue
                    if e.is_dir(follow_symlinks=True):
                        subdirs.append(path)
                    elif e.is_file(follow_symlinks=True):
                        classify(path, explicit=False)
                    else:
                        out.files_seen += 1
                        out.ignored.append((path, "not a regular file"))
                except OSError as exc:
                    out.errors.append((path, f"cannot read: {exc.strerror or exc}"))
            stack.extend(reversed(subdirs))

    for root in roots:
        if os.path.isdir(root):
            walk(root)
        else:
            classify(root, explicit=True)
    return out
