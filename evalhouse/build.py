"""`evalhouse build`: `dbt build` with the bundled profile, crash-safe, then publish.

dbt-duckdb materialises model by model, each in its own transaction, so a dbt run killed
half-way through would leave the file with some marts new and some old. `evalhouse build`
therefore never lets dbt touch the working file:

1. take the evalhouse lock on the working file (a second load/build waits, then fails clearly);
2. fold any leftover WAL into the working file, then copy it to ``<stem>.build.duckdb``
   in the same directory (a read-only DuckDB connection held during the copy keeps any other
   writer out);
3. create missing raw tables in the copy and run ``dbt build`` against the copy;
4. only if dbt succeeded: checkpoint the copy, publish it as the read-only analyst file and
   ``os.replace()`` it onto the working file (atomic). If dbt failed, the copy is kept as
   ``<stem>.failed.duckdb`` for inspection and nothing else changes.

A SIGKILL at any moment leaves the working file and the analyst file exactly as they were (or,
after the renames, both new). The dbt child dies with its parent (PR_SET_PDEATHSIG) and holds
the lock fd too, so an orphaned dbt can never write while the next build runs.

`--in-place` skips the copy (for files so large that copying them matters): dbt then writes
the working file directly, so a killed build can leave it half-built, but the analyst file is
still only replaced after a successful build.
"""
from __future__ import annotations

import ctypes
import hashlib
import json
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import dbt_progress
from .config import build_all, dbt_project_dir, version
from .dbt_runner import dbt_env, dbt_executable
from .locking import connect_ro, connect_rw, db_lock, held_lock_fd
from .paths import PROJECT_DIR, build_temp_path, dbt_work_dir, failed_build_path
from .publish import (checkpoint, checkpoint_if_wal, copy_db, fsync_dir, fsync_path, publish_from, remove_stale_temps,
                      wal_path)
from .schema import ensure_raw_schema

_PR_SET_PDEATHSIG = 1
# what decides the models' output; a change to any of these files makes the next build a full refresh
FINGERPRINT_PATHS = ("dbt_project.yml", "models", "macros", "seeds")
SELECTION_FLAGS = ("--select", "-s", "--models", "--model", "-m", "--exclude", "--selector", "--resource-type",
                   "--resource-types", "--exclude-resource-type", "--exclude-resource-types")


def _die_with_parent(parent_pid: int):
    """preexec_fn: the dbt child gets SIGKILL when the evalhouse process dies (Linux)."""
    def _fn():
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except Exception:  # not Linux: best effort
            pass
        if os.getppid() != parent_pid:  # parent already gone between fork and prctl
            os._exit(1)
    return _fn


def _ensure_working_file(db: Path) -> None:
    if not db.exists():
        db.parent.mkdir(parents=True, exist_ok=True)
        con = connect_rw(db)
        try:
            ensure_raw_schema(con)
        finally:
            con.close()


def _project_dir() -> Path:
    # EVALHOUSE_DBT_PROJECT_DIR: build another dbt project (one that extends evalhouse, or the tiny
    # project tests/reliability uses to exercise these mechanics quickly) with the same profile.
    return dbt_project_dir(PROJECT_DIR)


def project_fingerprint(project: Path) -> str:
    """sha256 over the paths and bytes of every file that decides what the models compute, and the
    versions of evalhouse, dbt-core, dbt-duckdb and duckdb."""
    from importlib.metadata import PackageNotFoundError, version
    h = hashlib.sha256()
    for pkg in ("evalhouse", "dbt-core", "dbt-duckdb", "duckdb"):
        try:
            h.update(f"{pkg}=={version(pkg)}\0".encode())
        except PackageNotFoundError:
            h.update(f"{pkg}==?\0".encode())
    for name in FINGERPRINT_PATHS:
        root = project / name
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []
        for p in files:
            h.update(str(p.relative_to(project)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _is_complete(args: list[str]) -> bool:
    return not any(a in SELECTION_FLAGS or a.split("=", 1)[0] in SELECTION_FLAGS for a in args)


@dataclass
class _Plan:
    args: list[str]          # what dbt runs
    fingerprint: str
    complete: bool           # the user selected nothing: every model is (or is kept) up to date
    full_refresh: bool
    repeat: bool             # same project as the last complete build: unit tests and seeds skipped
    signature: dict          # raw table -> [rows, sum over (load_id, source_file) of hash(pair, rows)]
    run_dbt: bool = True     # False: same project, same raw data -- nothing to do


def _raw_signature(con) -> dict:
    """Per raw table (the build's own records aside): row count and an order-independent digest of its (load_id,
    source_file) pairs and their row counts (a sum of 64-bit hashes, one per pair, as HUGEINT). Every load that lands or replaces rows brings a new load_id, so any change of a
    table's content changes its signature."""
    tables = [r[0] for r in con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'raw' "
        "AND table_name NOT IN ('builds', 'build_tests') "
        "ORDER BY 1").fetchall()]
    sig = {}
    for t in tables:
        cols = {r[0] for r in con.execute("SELECT column_name FROM information_schema.columns "
                                          "WHERE table_schema = 'raw' AND table_name = $t", {"t": t}).fetchall()}
        if {"load_id", "source_file"} <= cols:
            # one term per (load, file) with its row count: a pair never meets itself, so nothing cancels
            # (a per-row XOR cancelled in pairs: a rewrite with an even line count went unnoticed)
            sql = (f'SELECT coalesce(sum(g.n), 0), coalesce(sum(hash(g.load_id, g.source_file, g.n)::HUGEINT), 0) '
                   f'FROM (SELECT t.load_id, t.source_file, count(*) AS n FROM raw."{t}" AS t '
                   f'GROUP BY t.load_id, t.source_file) AS g')
        else:
            sql = f'SELECT count(*), coalesce(sum(hash(t)::HUGEINT), 0) FROM raw."{t}" AS t'   # t: the row
        n, x = con.execute(sql).fetchall()[0]
        sig[t] = [int(n), str(x)]
    return sig


def _plan(path: Path, user_args: list[str], say: Callable[[str], None]) -> _Plan:
    """Create missing raw tables; decide what this build runs.

    - Incremental models keep the rows earlier builds computed. If the dbt project (models, macros,
      seeds, dbt_project.yml, tool versions) changed since the last complete build recorded in
      raw.builds -- or the warehouse has models but no such record (built by plain dbt or an older
      evalhouse) -- the build gets --full-refresh.
    - If it did not change (a repeat build), only what new data can change is built: the models and
      tests downstream of the raw tables whose signature changed (`--select source:*.<table>+`;
      every model reads raw through source()), without unit tests (fixed inputs: they passed on
      this very project) and seeds (same files, already loaded). Nothing changed: dbt is not run.
      $EVALHOUSE_BUILD_ALL=1, or a selection / resource-type flag of your own, builds everything.
    """
    fp = project_fingerprint(_project_dir())
    con = connect_rw(path)
    try:
        ensure_raw_schema(con)
        last = con.execute("SELECT project_sha256, raw_signature FROM raw.builds WHERE complete "
                           "ORDER BY finished_at DESC LIMIT 1").fetchall()
        built = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema IN "
                            "('staging', 'intermediate', 'marts') AND table_type = 'BASE TABLE'").fetchall()[0][0]
        sig = _raw_signature(con)
    finally:
        con.close()
    args = list(user_args)
    complete = _is_complete(user_args)
    stale = (last[0][0] != fp) if last else built > 0
    full = "--full-refresh" in args
    if stale and not full:
        say("evalhouse build: the dbt project changed since the last build of this warehouse: "
            "full refresh (incremental models are rebuilt from raw)")
        args.append("--full-refresh")
        full = True
    repeat = bool(last) and not stale and not full and complete and args[:1] == ["build"] \
        and not build_all()
    plan = _Plan(args, fp, complete, full, repeat, sig)
    if not repeat:
        return plan
    before = json.loads(last[0][1]) if last[0][1] else None
    if before is None:   # recorded before signatures existed: build everything once
        changed = None
    else:
        changed = sorted(t for t in set(sig) | set(before) if sig.get(t) != before.get(t))
    if changed == []:
        say("evalhouse build: same dbt project and same raw data as the last build: nothing to do")
        plan.run_dbt = False
        return plan
    args += ["--exclude-resource-type", "unit_test", "--exclude-resource-type", "seed"]
    if changed is not None:
        args += ["--select", *[f"source:*.{t}+" for t in changed]]
    say("evalhouse build: same dbt project as the last build: building what changed raw tables feed"
        + (f" ({', '.join(changed)})" if changed else "") + "; unit tests and seeds skipped "
        "(EVALHOUSE_BUILD_ALL=1 builds everything)")
    return plan


def last_run_results(target_path: Path | None = None) -> list[dict] | None:
    """The `results` of dbt's last run_results.json for a build with these settings (None: there is none)."""
    try:
        return json.loads((dbt_target_dir(target_path) / "run_results.json").read_text())["results"]
    except (OSError, ValueError, KeyError):
        return None


def _tests_run(target_path: Path | None) -> list[tuple[str, str, str, str, int | None]]:
    """(unique_id, name, resource_type, status, failures) of every test and unit test in the last run_results.json."""
    out = []
    for r in last_run_results(target_path) or []:
        uid = str(r.get("unique_id", ""))
        parts = uid.split(".")
        if parts[0] not in ("test", "unit_test") or len(parts) < 3:
            continue
        name = parts[2] if parts[0] == "test" else parts[-1]
        failures = r.get("failures")
        out.append((uid, name, parts[0], str(r.get("status")), int(failures) if failures is not None else None))
    return out


def _record_build(path: Path, plan: _Plan, target_path: Path | None = None) -> None:
    from datetime import datetime, timezone

    at = datetime.now(timezone.utc)
    tests = _tests_run(target_path) if plan.run_dbt else []
    con = connect_rw(path)
    try:
        con.execute("INSERT INTO raw.builds (finished_at, project_sha256, complete, full_refresh, dbt_args, "
                    "evalhouse_version, raw_signature) VALUES ($at, $fp, $complete, $fr, $args, $ver, $sig)",
                    {"at": at, "fp": plan.fingerprint, "complete": plan.complete,
                     "fr": plan.full_refresh, "args": json.dumps(plan.args), "ver": version(),
                     "sig": json.dumps(plan.signature, sort_keys=True)})
        if tests:
            con.executemany("INSERT INTO raw.build_tests (finished_at, unique_id, name, resource_type, status, "
                            "failures) VALUES (?, ?, ?, ?, ?, ?)", [(at, *t) for t in tests])
    finally:
        con.close()


class BuildFailed(RuntimeError):
    """dbt failed. Nothing was swapped in: the working file and the analyst file are unchanged (with
    --in-place the working file may hold a partial build). `failed_path`: the failed build, kept for
    inspection (None in place)."""

    def __init__(self, message: str, failed_path: Path | None = None):
        super().__init__(message)
        self.failed_path = failed_path


@dataclass
class BuildResult:
    """What a successful build did: the working file, the analyst file it published (or None), and how long
    the copy and the publish + swap took (None in place)."""
    db: Path
    published: Path | None
    copy_s: float | None = None
    swap_s: float | None = None

    def summary(self) -> str:
        if self.copy_s is None:
            return f"evalhouse build: published {self.published}" if self.published else "evalhouse build: done"
        msg = f"evalhouse build: done ({self.db.name}; copy {self.copy_s:.1f}s, publish+swap {self.swap_s:.1f}s)"
        if self.published:
            msg += f"; analysts: duckdb -readonly {self.published}"
        return msg


def _silent(_line: str) -> None:
    pass


def build(db: os.PathLike | str, dbt_args: list[str] | None = None, publish: bool = True,
          wait: float | None = None, in_place: bool = False, target_path: Path | None = None,
          say: Callable[[str], None] = _silent) -> BuildResult:
    """Build (and by default publish). `say` receives the plan's one-line notes as the build goes (the CLI
    prints them; dbt's own output goes to the terminal).

    Raises BuildFailed when dbt failed, DatabaseBusy when the lock cannot be taken within `wait` seconds or
    another program has the working file open for writing.
    """
    db = Path(db).resolve()
    args = ["build", *(dbt_args or [])]
    with db_lock(db, wait=wait, what="build"):
        remove_stale_temps(db)
        _ensure_working_file(db)
        lock_fd = held_lock_fd(db)
        if in_place:
            plan = _plan(db, args, say)
            rc = _run(plan.args, db, target_path, lock_fd) if plan.run_dbt else 0
            if rc != 0:
                raise BuildFailed(f"dbt failed (exit {rc}); {db} may hold a partial build "
                                  "(--in-place); the analyst file was not replaced.")
            failed_build_path(db).unlink(missing_ok=True)
            _record_build(db, plan, target_path)
            target = None
            if publish:
                checkpoint(db)
                guard = connect_ro(db)
                try:
                    target = publish_from(db, db)
                finally:
                    guard.close()
            return BuildResult(db, target)

        checkpoint_if_wal(db)
        work = build_temp_path(db)
        t0 = time.monotonic()
        guard = connect_ro(db)
        try:
            copy_db(db, work)
        finally:
            guard.close()
        copy_s = time.monotonic() - t0
        target = None
        try:
            plan = _plan(work, args, say)
            rc = _run(plan.args, work, target_path, lock_fd) if plan.run_dbt else 0
            if rc != 0:
                failed = failed_build_path(db)
                checkpoint_if_wal(work)
                os.replace(work, failed)
                raise BuildFailed(f"dbt failed (exit {rc}). {db.name} and the analyst file are unchanged; the "
                                  f"failed build is kept in {failed} for inspection.", failed)
            t1 = time.monotonic()
            _record_build(work, plan, target_path)
            checkpoint(work)
            fsync_path(work)
            os.replace(work, db)
            fsync_dir(db.parent)
            failed_build_path(db).unlink(missing_ok=True)
            # publish after the swap: a kill in between leaves the analyst file behind the working file (the
            # next build or `evalhouse publish` catches up), never ahead of it
            if publish:
                target = publish_from(db, db)
            swap_s = time.monotonic() - t1
        finally:
            work.unlink(missing_ok=True)
            wal_path(work).unlink(missing_ok=True)
        return BuildResult(db, target, copy_s, swap_s)


def _run(args: list[str], db: Path, target_path: Path | None, lock_fd: int | None) -> int:
    progress = dbt_progress.wanted(args)        # a quiet build on a terminal shows one progress line
    cmd = [dbt_executable(), *(dbt_progress.json_args(args) if progress else args)]
    env = dbt_env(db, target_path)
    project = _project_dir()
    env["DBT_PROJECT_DIR"] = str(project)
    proc = subprocess.Popen(
        cmd,
        cwd=project,
        env=env,
        preexec_fn=_die_with_parent(os.getpid()),
        pass_fds=(lock_fd,) if lock_fd is not None else (),
        stdout=subprocess.PIPE if progress else None,
        text=True,
    )
    try:
        if progress:
            dbt_progress.follow(proc.stdout)
        return proc.wait()
    except BaseException:
        proc.kill()
        proc.wait()
        raise


def dbt_target_dir(target_path: Path | None = None) -> Path:
    """Where dbt writes run_results.json for a build started with these settings."""
    if target_path is not None:
        return Path(target_path)
    if os.environ.get("DBT_TARGET_PATH"):
        return Path(os.environ["DBT_TARGET_PATH"])
    if dbt_work_dir() is not None and not os.environ.get("EVALHOUSE_DBT_PROJECT_DIR"):
        return dbt_work_dir()
    return dbt_project_dir(PROJECT_DIR) / "target"


def run_results_summary(target_path: Path | None = None) -> str | None:
    """One paragraph from the last run_results.json: node counts by status, then the non-passing ones."""
    from collections import Counter

    path = dbt_target_dir(target_path) / "run_results.json"
    results = last_run_results(target_path)
    if results is None:
        return None
    counts = Counter(str(r.get("status")) for r in results)
    line = f"dbt build: {len(results)} nodes: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    notable = [(r["status"], r["unique_id"].split(".")[2] if r["unique_id"].count(".") >= 2 else r["unique_id"],
                r.get("failures"))
               for r in results if r.get("status") not in ("success", "pass")]
    for status, name, failures in notable[:20]:
        line += f"\n  {status:<5} {name}" + (f" ({failures} rows)" if failures else "")
    if len(notable) > 20:
        line += f"\n  ... and {len(notable) - 20} more (see {path})"
    return line
