"""SIGKILL at random points of a large load: the warehouse is exactly as before that load, and the
next load completes it with exact counts (issue 2 "Done when", issue 7 "Crashes")."""
from __future__ import annotations

import json
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import time


from lutil import EVALHOUSE, fingerprint, load, q, write

KILLS = int(os.environ.get("EVALHOUSE_CRASH_KILLS", "20"))


def _lines(n, start=0):
    return "".join(json.dumps({"i": i, "pad": "p" * 60, "change": 0.5}) + "\n" for i in range(start, start + n))


def _child(root, db):
    """The load to kill: a forked process (no interpreter start-up), so kills land inside the load."""
    from evalhouse.cli import main
    os._exit(main(["load", str(root), "--db", str(db), "--quiet"]))


def _start(root, db):
    proc = multiprocessing.get_context("fork").Process(target=_child, args=(str(root), str(db)))
    proc.start()
    return proc


def _copy_db(src, dst):
    for suffix in ("", ".wal"):
        if os.path.exists(str(src) + suffix):
            shutil.copy(str(src) + suffix, str(dst) + suffix)
        elif os.path.exists(str(dst) + suffix):
            os.remove(str(dst) + suffix)


def test_sigkill_during_load_leaves_previous_state_and_rerun_is_exact(tmp_path):
    rng = random.Random(int(os.environ.get("EVALHOUSE_CRASH_SEED", str(time.time_ns()))))
    root = tmp_path / "data"
    base = write(root / "logs_big" / "base.jsonl", _lines(1000))
    db = tmp_path / "w.duckdb"
    load(root, db)                                    # state A: 1000 lines landed
    pristine = tmp_path / "pristine.duckdb"
    _copy_db(db, pristine)
    state_a = fingerprint(db)
    assert state_a["big_lines"][0] == 1000

    # the load to kill: 600 appended lines, one big new file, a coder-eval run
    with open(base, "a") as fh:
        fh.write(_lines(600, start=1000))
    n_new = int(os.environ.get("EVALHOUSE_CRASH_LINES", "6000"))
    # other records than base.jsonl's (a file starting with base's whole content would be its grown copy)
    write(root / "logs_big" / "new.jsonl", _lines(n_new, start=100_000))
    write(root / "run1" / "run.json", "{}")
    write(root / "run1" / "v" / "t" / "00" / "task.json", '{"x": 1}')

    cmd = [EVALHOUSE, "load", str(root), "--db", str(db), "--quiet"]
    t0 = time.monotonic()
    full = _start(root, db)
    full.join(120)
    duration = time.monotonic() - t0
    assert full.exitcode == 0
    complete = {t: v[0] for t, v in fingerprint(db).items()}    # row counts of the completed load
    _copy_db(pristine, db)
    assert fingerprint(db) == state_a

    kills = in_load = 0
    deadline = time.monotonic() + 55
    lock = str(db) + ".lock"
    while kills < KILLS and time.monotonic() < deadline:
        proc = _start(root, db)
        time.sleep(rng.uniform(0.0, duration * 1.05))
        try:
            holder = open(lock).read()
        except OSError:
            holder = ""
        os.kill(proc.pid, signal.SIGKILL)
        proc.join()
        rc = proc.exitcode
        if rc == 0:                                   # it finished before the kill: start again from A
            _copy_db(pristine, db)
            continue
        assert rc == -signal.SIGKILL
        state = fingerprint(db)
        if state != state_a:
            # killed after COMMIT (while closing): then the load must be complete, never partial
            assert {t: v[0] for t, v in state.items()} == complete, "a killed load left a partial state"
            _copy_db(pristine, db)
            continue
        kills += 1
        in_load += f"pid {proc.pid}" in holder
    assert kills >= KILLS, f"only {kills} kills in the time budget (load takes {duration:.2f}s)"
    assert in_load >= KILLS // 3, f"only {in_load} kills hit the load itself"

    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)   # the real CLI completes it
    assert done.returncode == 0, done.stderr
    assert q(db, "SELECT count(*), count(DISTINCT (source_file, source_line)) FROM raw.big_lines") == [
        (1600 + n_new, 1600 + n_new)]
    assert q(db, "SELECT source_file, max(source_line) FROM raw.big_lines GROUP BY 1 ORDER BY 1") == [
        (str(base), 1600), (str(root / "logs_big" / "new.jsonl"), n_new)]
    assert q(db, "SELECT count(*) FROM raw.ce_task_docs") == [(1,)]
    assert q(db, "SELECT records_landed FROM raw.loads ORDER BY started_at") == [(1000,), (600 + n_new + 2,)]
    assert q(db, "SELECT count(*) FROM raw.load_errors") == [(0,)]
    assert not os.path.exists(f"{db}.lines.tmp"), "the killed loads' line-hash files were cleared"
