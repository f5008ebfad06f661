"""Two real `evalhouse load` processes on one database: the second waits (or, told not to wait,
fails with a clear message and exit 1); nothing is corrupted and the counts are exact."""
from __future__ import annotations

import json
import subprocess
import sys
import time

from lutil import EVALHOUSE, q, write

N = 20000        # big enough that the second load starts while the first runs
SMALL = 2000


def _setup(tmp_path, n=N):
    write(tmp_path / "data" / "logs_big" / "a.jsonl",
          "".join(json.dumps({"i": i, "pad": "p" * 60}) + "\n" for i in range(n)))
    return tmp_path / "data", tmp_path / "w.duckdb"


def _wait_for_lock_holder(db, proc, timeout=60):
    lock = str(db) + ".lock"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if f"pid {proc.pid}" in open(lock).read():
                return True
        except OSError:
            pass
        if proc.poll() is not None:
            return False
        time.sleep(0.01)
    return False


def test_second_load_waits_then_lands_nothing_new(tmp_path):
    root, db = _setup(tmp_path)
    cmd = [EVALHOUSE, "load", str(root), "--db", str(db)]
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert _wait_for_lock_holder(db, first), "the first load never took the lock"
    second = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out1, err1 = first.communicate(timeout=120)
    out2, err2 = second.communicate(timeout=120)
    assert first.returncode == 0, err1
    assert second.returncode == 0, err2
    assert f"records landed {N}" in out1
    assert "records landed 0" in out2 and "unchanged 1" in out2
    assert q(db, "SELECT count(*), count(DISTINCT source_line) FROM raw.big_lines") == [(N, N)]
    assert q(db, "SELECT records_landed FROM raw.loads ORDER BY started_at") == [(N,), (0,)]


def test_second_load_told_not_to_wait_fails_clearly(tmp_path):
    root, db = _setup(tmp_path, SMALL)
    cmd = [EVALHOUSE, "load", str(root), "--db", str(db)]
    assert subprocess.run(cmd, capture_output=True, timeout=120).returncode == 0
    with open(root / "logs_big" / "a.jsonl", "a") as fh:
        fh.write(json.dumps({"i": SMALL}) + "\n")
    # a real process holding the evalhouse lock exactly as a running load does
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom evalhouse.locking import db_lock\n"
                               "with db_lock(sys.argv[1], what='load'):\n    print('held', flush=True)\n"
                               "    time.sleep(60)", str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        t0 = time.monotonic()
        second = subprocess.run(cmd + ["--wait", "0"], capture_output=True, text=True, timeout=60)
        third = subprocess.run(cmd + ["--wait", "1"], capture_output=True, text=True, timeout=60)
        waited = time.monotonic() - t0
    finally:
        holder.kill()
        holder.wait()
    for proc in (second, third):
        assert proc.returncode == 1
        assert "busy" in proc.stderr and f"pid {holder.pid}" in proc.stderr and "Retry" in proc.stderr
    assert "waited 1s" in third.stderr and waited >= 1
    assert q(db, "SELECT count(*) FROM raw.big_lines") == [(SMALL,)]
    assert q(db, "SELECT count(*) FROM raw.loads") == [(1,)]
    # once the holder is gone, the next load lands exactly the appended line
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "records landed 1;" in proc.stdout
    assert q(db, "SELECT count(*), max(source_line) FROM raw.big_lines") == [(SMALL + 1, SMALL + 1)]


def test_load_while_another_program_holds_the_file_fails_clearly(tmp_path):
    root, db = _setup(tmp_path, SMALL)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('open', flush=True); "
                               "time.sleep(60)", str(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        proc = subprocess.run([EVALHOUSE, "load", str(root), "--db", str(db)], capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 1
        assert f"process {holder.pid}" in proc.stderr and "Close that connection" in proc.stderr
    finally:
        holder.kill()
        holder.wait()
    proc = subprocess.run([EVALHOUSE, "load", str(root), "--db", str(db)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and q(db, "SELECT count(*) FROM raw.big_lines") == [(SMALL,)]


def test_load_waits_for_the_lock_holder_to_finish(tmp_path):
    root, db = _setup(tmp_path, SMALL)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom evalhouse.locking import db_lock\n"
                               "with db_lock(sys.argv[1], what='load'):\n    print('held', flush=True)\n"
                               "    time.sleep(2)", str(db)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    t0 = time.monotonic()
    proc = subprocess.run([EVALHOUSE, "load", str(root), "--db", str(db), "--wait", "60"], capture_output=True,
                          text=True, timeout=120)
    holder.wait()
    assert proc.returncode == 0, proc.stderr
    assert holder.returncode == 0 and time.monotonic() - t0 >= 1.0
    assert q(db, "SELECT count(*) FROM raw.big_lines") == [(SMALL,)]
