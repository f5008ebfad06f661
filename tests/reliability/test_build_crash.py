"""Issue 7 "Crashes" for `evalhouse build`: a killed or failed build changes nothing.

Real `evalhouse build` processes on the tiny mini_project (see relutil), SIGKILLed at random
moments (during the copy, inside dbt, during the swap/publish).
"""
from __future__ import annotations

import os
import random
import signal
import stat
import time

import duckdb
import pytest

from relutil import (assert_consistent, children_of, evalhouse, expected_counts, file_sha, insert_lines, snapshot,
                     start, wait_gone)

from evalhouse.paths import analyst_path


def test_build_publishes_a_read_only_consistent_analyst_file(built):
    db, _ = built
    target = analyst_path(db)
    assert target.name == "evalhouse.analyst.duckdb"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    snap = snapshot(target)
    assert snap["mart"][:2] == expected_counts({0: 5})
    assert_consistent(snap)  # incl. the staging view: the catalog name survives the copy
    con = duckdb.connect(str(target), read_only=True)
    try:
        with pytest.raises(duckdb.Error, match="read-only"):
            con.execute("create table marts.x as select 1 as a")
        with pytest.raises(duckdb.Error, match="read-only"):
            con.execute("delete from marts.mini_counts")
    finally:
        con.close()
    if os.geteuid() != 0:  # root ignores file modes
        with pytest.raises(duckdb.Error):
            duckdb.connect(str(target))
    # the working file holds the same marts, and no temporary file is left behind
    assert snapshot(db) == snap
    leftovers = sorted(p.name for p in db.parent.glob("evalhouse.*duckdb*"))
    assert leftovers == ["evalhouse.analyst.duckdb", "evalhouse.duckdb", "evalhouse.duckdb.lock"]


def test_build_sigkill_at_random_moments_leaves_published_marts_intact(built):
    db, build_s = built
    target = analyst_path(db)
    published = snapshot(target)
    batches = {0: 5}
    seed = int(os.environ.get("EVALHOUSE_KILL_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    kills = 0
    outcomes = []
    prev_work = snapshot(db)["mart"][:2]
    i = 0
    # the ceiling adapts: a build that finished before its kill shows how long builds take now (the
    # baseline's build parsed the project from scratch, so later builds run faster, more so on a loaded machine)
    while kills < 5 and i < 12:
        i += 1
        insert_lines(db, i, 3 + i)
        batches[i] = 3 + i
        proc = start(["build", "--db", str(db)], db.parent)
        delay = rng.uniform(0.05, build_s * 0.8)
        started = time.monotonic()
        deadline = started + delay
        kids: set[int] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            kids.update(children_of(proc.pid))
            time.sleep(0.02)
        kids.update(children_of(proc.pid))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        else:
            build_s = min(build_s, time.monotonic() - started)
        proc.communicate()
        # the dbt child dies with its parent: nothing keeps writing after the kill
        assert wait_gone(sorted(kids)) == [], f"seed {seed}: dbt outlived the killed build"

        # the analyst file is the previous publication or the complete new one, never a mix
        now = snapshot(target)
        assert_consistent(now)
        assert stat.S_IMODE(target.stat().st_mode) == 0o444
        new = expected_counts(batches)
        assert now["mart"][:2] in (published["mart"][:2], new), f"seed {seed}, delay {delay:.2f}s"
        outcomes.append("new" if now["mart"][:2] == new else "old")
        published = now
        # the working file lost nothing and is not half-built: its marts match its raw rows or
        # are the previous ones
        work = snapshot(db)
        assert work["raw_n"] == sum(batches.values()), f"seed {seed}: raw rows lost"
        assert work["mart"][:2] in (prev_work, new), f"seed {seed}: working file half-built"
        prev_work = work["mart"][:2]
    assert kills >= 5, f"seed {seed}: only {kills} builds were still running when killed ({outcomes})"

    # the next build succeeds, publishes everything and sweeps the killed builds' temp files
    proc = evalhouse(["build", "--db", str(db)], db.parent)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    final = snapshot(target)
    assert_consistent(final)
    assert final["mart"][:2] == expected_counts(batches)
    assert snapshot(db) == final
    assert not list(db.parent.glob("evalhouse.build.*")), "stale build copies left behind"
    assert not list(db.parent.glob("evalhouse.analyst.tmp-*")), "stale analyst temp files left behind"


def test_failed_build_changes_neither_file_and_no_publish_waits_for_publish(built):
    db, _ = built
    target = analyst_path(db)
    before_analyst = file_sha(target)
    insert_lines(db, 1, 4, poison=True)  # the mini project's singular test fails on it
    before_work = file_sha(db)
    proc = evalhouse(["build", "--db", str(db)], db.parent)
    assert proc.returncode == 1
    assert "dbt failed" in proc.stderr and "unchanged" in proc.stderr
    assert file_sha(db) == before_work, "a failed build modified the working file"
    assert file_sha(target) == before_analyst, "a failed build replaced the analyst file"
    failed = db.with_name("evalhouse.failed.duckdb")
    assert failed.exists(), "the failed build is kept for inspection"
    # fixing the data makes the next build succeed and clears the failed copy; with --no-publish
    # the analyst file stays as it was until `evalhouse publish`
    con = duckdb.connect(str(db))
    con.execute("delete from raw.big_lines where record like '%poison%'")
    con.close()
    proc = evalhouse(["build", "--db", str(db), "--no-publish"], db.parent)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert not failed.exists()
    assert file_sha(target) == before_analyst
    expected = (8, 10 + 1001 + 1002 + 1003)  # batch 0 (5 lines) + batch 1 without its poison line 1
    assert snapshot(db)["mart"][:2] == expected
    proc = evalhouse(["publish", "--db", str(db)], db.parent)
    assert proc.returncode == 0, proc.stderr
    snap = snapshot(target)
    assert_consistent(snap)
    assert snap["mart"][:2] == expected
    assert stat.S_IMODE(target.stat().st_mode) == 0o444


def test_in_place_build_publishes_without_a_copy(built):
    db, _ = built
    insert_lines(db, 1, 3)
    proc = evalhouse(["build", "--db", str(db), "--in-place"], db.parent)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    snap = snapshot(analyst_path(db))
    assert_consistent(snap)
    assert snap["mart"][:2] == expected_counts({0: 5, 1: 3})
    assert snapshot(db) == snap
    assert stat.S_IMODE(analyst_path(db).stat().st_mode) == 0o444
    assert not list(db.parent.glob("evalhouse.build.*"))


def test_sigterm_stops_the_build_and_cleans_up(built):
    db, build_s = built
    insert_lines(db, 1, 3)
    analyst_before, work_before = file_sha(analyst_path(db)), file_sha(db)
    proc = start(["build", "--db", str(db)], db.parent)
    deadline = time.monotonic() + 120
    kids: list[int] = []
    while not kids and proc.poll() is None and time.monotonic() < deadline:
        kids = children_of(proc.pid)  # dbt has started
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the build finished before SIGTERM arrived")
    assert proc.returncode == 143
    assert wait_gone(kids) == []
    assert file_sha(analyst_path(db)) == analyst_before
    assert file_sha(db) == work_before
    assert not list(db.parent.glob("evalhouse.build.*"))


_KILL_AT_PUBLISH = """
import os, signal, sys
import evalhouse.build as b
def _killed(*_a, **_k):
    os.kill(os.getpid(), signal.SIGKILL)
b.publish_from = _killed
from evalhouse.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_build_killed_between_swap_and_publish_leaves_the_analyst_file_behind_never_ahead(built):
    """Issue 14 (13): a build killed between publishing and swapping left the analyst file NEW and the working
    file OLD. The swap now comes first: a SIGKILL at the exact moment between them leaves the working file
    new and the analyst file one build behind (never numbers the working file does not hold); the next
    `evalhouse publish` (or build) catches the analyst file up."""
    import subprocess
    import sys

    from relutil import env_for

    db, _ = built
    target = analyst_path(db)
    old = snapshot(target)
    insert_lines(db, 1, 4)
    new = expected_counts({0: 5, 1: 4})
    proc = subprocess.run([sys.executable, "-c", _KILL_AT_PUBLISH, "build", "--db", str(db)],
                          env=env_for(db.parent), capture_output=True, text=True, timeout=600)
    assert proc.returncode == -signal.SIGKILL, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert snapshot(db)["mart"][:2] == new                  # the swap happened: the working file is new
    assert snapshot(target) == old                          # the analyst file is the previous publication
    assert_consistent(snapshot(target))
    proc = evalhouse(["publish", "--db", str(db)], db.parent)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert snapshot(target)["mart"][:2] == new and snapshot(target) == snapshot(db)
