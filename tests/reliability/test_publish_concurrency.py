"""Issue 7 "Concurrency": analysts never block builds, builds never break analysts; one writer at a time.

Every case runs real concurrent processes: an analyst process holding a read-only DuckDB
connection, `evalhouse load` / `evalhouse build` processes racing for the same working file.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest

from relutil import (assert_consistent, evalhouse, expected_counts, insert_lines, make_working, snapshot, start,
                     wait_for_lock_holder)

from evalhouse.locking import DatabaseBusy, connect_rw, db_lock
from evalhouse.paths import analyst_path

ANALYST = textwrap.dedent("""
    import json, sys, duckdb
    con = duckdb.connect(sys.argv[1], read_only=True)
    def snap():
        return {
            "mart": list(con.execute("select n_lines, value_sum, digest from marts.mini_counts").fetchall()[0]),
            "view_n": con.execute("select count(*) from staging.mini_lines").fetchall()[0][0],
            "raw_n": con.execute("select count(*) from raw.big_lines").fetchall()[0][0],
        }
    for line in sys.stdin:
        if line.strip() == "quit":
            break
        print(json.dumps(snap()), flush=True)
""")


def _jsonl(path: Path, start_value: int, n: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps({"value": start_value + i}) + "\n")


def test_analyst_connection_keeps_its_snapshot_during_load_build_publish(built, tmp_path: Path):
    db, _ = built  # built and published: 5 lines
    target = analyst_path(db)

    analyst = subprocess.Popen([sys.executable, "-c", ANALYST, str(target)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    # a second analyst holds the *working* file open read-only: builds must not be blocked by it either
    working_reader = subprocess.Popen([sys.executable, "-c", ANALYST, str(db)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
    try:
        def ask(p):
            p.stdin.write("q\n")
            p.stdin.flush()
            return json.loads(p.stdout.readline())

        before = ask(analyst)
        assert before["mart"][:2] == list(expected_counts({0: 5}))
        ask(working_reader)

        # a real load while the analyst reads: the load writes the working file, which the
        # working-file reader holds open -> the load fails with an actionable message, nothing written
        logs = tmp_path / "data" / "logs_big" / "runs.jsonl"
        _jsonl(logs, 5000, 7)
        proc = evalhouse(["load", "--db", str(db), "--family", "big", "--wait", "0", str(logs.parent)], tmp_path)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert f"PID {working_reader.pid}" in proc.stderr or f"process {working_reader.pid}" in proc.stderr, proc.stderr
        assert "read-only" in proc.stderr and str(target) in proc.stderr, proc.stderr
        working_reader.stdin.write("quit\n")
        working_reader.stdin.flush()
        working_reader.wait(timeout=30)

        # now the load succeeds while the analyst keeps the analyst file open
        proc = evalhouse(["load", "--db", str(db), "--family", "big", str(logs.parent)], tmp_path)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert ask(analyst) == before
        # a second reader of the working file during the build: the build still succeeds
        working_reader = subprocess.Popen([sys.executable, "-c", ANALYST, str(db)], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, text=True)
        ask(working_reader)
        proc = evalhouse(["build", "--db", str(db)], tmp_path)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        # the open analyst connection still sees its old, consistent snapshot
        assert ask(analyst) == before
        # a new connection sees the new data
        after = snapshot(target)
        assert_consistent(after)
        assert after["raw_n"] == 5 + 7
        assert after["mart"][1] == sum(range(5)) + sum(range(5000, 5007))
    finally:
        for p in (analyst, working_reader):
            if p.poll() is None:
                p.stdin.write("quit\n")
                p.stdin.flush()
                p.wait(timeout=30)


def test_second_build_and_load_wait_or_fail_clearly(tmp_path: Path):
    db = make_working(tmp_path / "evalhouse.duckdb")
    insert_lines(db, 0, 5)
    first = start(["build", "--db", str(db)], tmp_path, name="first")
    try:
        wait_for_lock_holder(db, "build", first.pid)
        # --wait 0: fails at once, naming the holder; nothing is touched
        busy = evalhouse(["build", "--db", str(db), "--wait", "0"], tmp_path, name="busy")
        assert busy.returncode == 1
        assert "busy" in busy.stderr and f"evalhouse build (pid {first.pid}" in busy.stderr, busy.stderr
        assert "--wait" in busy.stderr
        logs = tmp_path / "data" / "logs_big" / "runs.jsonl"
        _jsonl(logs, 7000, 4)
        busy_load = evalhouse(["load", "--db", str(db), "--family", "big", "--wait", "0", str(logs.parent)],
                              tmp_path, name="busy_load")
        assert busy_load.returncode == 1
        assert f"evalhouse build (pid {first.pid}" in busy_load.stderr, busy_load.stderr
        # with a wait, a second load and a second build queue up behind the first build
        load = start(["load", "--db", str(db), "--family", "big", "--wait", "300", str(logs.parent)], tmp_path,
                     name="load")
        second = start(["build", "--db", str(db), "--wait", "300"], tmp_path, name="second")
        out1, err1 = first.communicate(timeout=300)
        assert first.returncode == 0, out1[-3000:] + err1[-3000:]
        out, err = load.communicate(timeout=300)
        assert load.returncode == 0, out + err
        out2, err2 = second.communicate(timeout=300)
        assert second.returncode == 0, out2[-3000:] + err2[-3000:]
    finally:
        for p in (first,):
            if p.poll() is None:
                p.kill()
    # exact counts: the 5 direct lines + the 4 loaded lines, once each; nothing lost by the swaps
    con = duckdb.connect(str(db), read_only=True)
    try:
        raw_n = con.execute("select count(*) from raw.big_lines").fetchall()[0][0]
        loads = con.execute("select count(*), sum(records_landed) from raw.loads").fetchall()[0]
    finally:
        con.close()
    assert raw_n == 9
    assert loads == (1, 4)
    # the second build ran before or after the queued load; either way what it published is consistent
    snap = snapshot(analyst_path(db))
    assert_consistent(snap)
    assert snap["raw_n"] in (5, 9)


def test_lock_is_exclusive_reentrant_and_released_by_sigkill(tmp_path: Path):
    db = tmp_path / "evalhouse.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import time
            from evalhouse.locking import db_lock
            with db_lock({str(db)!r}, wait=0, what="load"):
                print("held", flush=True)
                time.sleep(120)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        t0 = time.monotonic()
        with pytest.raises(DatabaseBusy, match=rf"evalhouse load \(pid {holder.pid},.*waited 0.5s"):
            with db_lock(db, wait=0.5, what="build"):
                pass
        assert time.monotonic() - t0 >= 0.5
        holder.kill()  # SIGKILL: the kernel releases the flock
        holder.wait()
        with db_lock(db, wait=5, what="build"):
            with db_lock(db, wait=0, what="demo"):  # re-entrant in one process
                pass
    finally:
        if holder.poll() is None:
            holder.kill()


def test_duckdb_writer_conflict_becomes_actionable_message(tmp_path: Path):
    db = make_working(tmp_path / "evalhouse.duckdb")
    other = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import duckdb, time
            con = duckdb.connect({str(db)!r})
            print("open", flush=True)
            time.sleep(120)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "open"
        with pytest.raises(DatabaseBusy) as info:
            connect_rw(db)
        msg = str(info.value)
        assert f"process {other.pid}" in msg and "evalhouse sql" in msg and "analyst.duckdb" in msg
        # `evalhouse build` refuses cleanly too: exit 1, message on stderr, no temp files left
        proc = evalhouse(["build", "--db", str(db), "--wait", "0"], tmp_path)
        assert proc.returncode == 1 and f"process {other.pid}" in proc.stderr, proc.stderr
        assert not list(tmp_path.glob("evalhouse.build.*"))
    finally:
        other.kill()
        other.wait()
