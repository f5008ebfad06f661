"""Helpers for the build/publish reliability tests: real `evalhouse` processes on a tiny dbt project.

The mechanics under test (lock, copy, dbt, atomic swap, publish) do not depend on which models
are built, so these tests point `evalhouse build` at tests/reliability/mini_project (via
EVALHOUSE_DBT_PROJECT_DIR): a staging view and three mart tables over raw.big_lines, plus one
singular test that fails when a raw record contains "poison". Builds then take seconds.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from evalhouse.schema import init_warehouse

MINI_PROJECT = Path(__file__).resolve().parent / "mini_project"
EVALHOUSE = [sys.executable, "-m", "evalhouse.cli"]


def env_for(tmp: Path, name: str = "dbt") -> dict[str, str]:
    env = dict(os.environ)
    env["EVALHOUSE_DBT_PROJECT_DIR"] = str(MINI_PROJECT)
    env["DBT_TARGET_PATH"] = str(tmp / f"target_{name}")
    env["DBT_LOG_PATH"] = str(tmp / f"logs_{name}")
    env["DBT_SEND_ANONYMOUS_USAGE_STATS"] = "false"
    env.pop("EVALHOUSE_DB", None)
    env.pop("EVALHOUSE_LOCK_WAIT", None)
    return env


def evalhouse(args: list[str], tmp: Path, name: str = "dbt", **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*EVALHOUSE, *args], env=env_for(tmp, name), capture_output=True, text=True, **kw)


def start(args: list[str], tmp: Path, name: str = "dbt") -> subprocess.Popen:
    return subprocess.Popen([*EVALHOUSE, *args], env=env_for(tmp, name), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def make_working(db: Path) -> Path:
    return init_warehouse(db)


def insert_lines(db: Path, batch: int, n: int, poison: bool = False) -> None:
    """Append n raw lines of batch `batch` directly (a stand-in for a load, under the evalhouse lock)."""
    from evalhouse.locking import connect_rw, db_lock

    with db_lock(db, wait=120, what="test-insert"):
        con = connect_rw(db)
        try:
            rows = []
            for i in range(n):
                rec = {"value": batch * 1000 + i, "batch": batch}
                if poison and i == 0:
                    rec["flag"] = "poison"
                text = json.dumps(rec)
                rows.append((f"batch_{batch}.jsonl", i + 1, text, hashlib.sha256(text.encode()).hexdigest()))
            con.executemany(
                "insert into raw.big_lines (load_id, loaded_at, source_file, source_line, record, record_sha256, "
                "file_sha256) values ('test', now(), ?, ?, ?, ?, 'f')", rows)
        finally:
            con.close()


def expected_counts(batches: dict[int, int]) -> tuple[int, int]:
    n = sum(batches.values())
    s = sum(b * 1000 * k + k * (k - 1) // 2 for b, k in batches.items())
    return n, s


def snapshot(path: Path) -> dict:
    """What an analyst would read: the marts, the staging view, and the raw rows behind them."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        mart = con.execute("select n_lines, value_sum, digest from marts.mini_counts").fetchall()[0]
        by_file = con.execute("select source_file, n_lines, value_sum from marts.mini_by_file order by 1").fetchall()
        view_n = con.execute("select count(*) from staging.mini_lines").fetchall()[0][0]
        raw_n = con.execute("select count(*) from raw.big_lines").fetchall()[0][0]
        raw_digest = con.execute(
            "select coalesce(md5(string_agg(record_sha256, ',' order by record_sha256)), '') from raw.big_lines"
        ).fetchall()[0][0]
    finally:
        con.close()
    return {"mart": mart, "by_file": by_file, "view_n": view_n, "raw_n": raw_n, "raw_digest": raw_digest}


def assert_consistent(snap: dict) -> None:
    """The marts of one file were built from exactly the raw rows of that same file."""
    assert snap["mart"][0] == snap["raw_n"] == snap["view_n"], snap
    assert snap["mart"][2] == snap["raw_digest"], snap
    assert sum(r[1] for r in snap["by_file"]) == snap["raw_n"], snap


def file_sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def children_of(pid: int) -> list[int]:
    out = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            text = (task / "children").read_text().split()
            out += [int(t) for t in text]
    except OSError:
        pass
    return out


def wait_gone(pids: list[int], timeout: float = 10.0) -> list[int]:
    """pids still alive (not zombies) after waiting up to timeout seconds."""
    deadline = time.monotonic() + timeout
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if _alive(p)]
        if alive:
            time.sleep(0.05)
    return alive


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state != "Z"


def wait_for_lock_holder(db: Path, what: str, pid: int, timeout: float = 60.0) -> None:
    lock = db.with_name(db.name + ".lock")
    deadline = time.monotonic() + timeout
    needle = f"evalhouse {what} (pid {pid},"
    while time.monotonic() < deadline:
        try:
            if needle in lock.read_text():
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{needle!r} never held {lock}")
