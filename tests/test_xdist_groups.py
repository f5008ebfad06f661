"""`make test` keeps each test folder on one xdist worker (tests/conftest.py), so a folder's session fixtures
(its warehouses) are built once. pytest 9.2 silently broke that (pytest-xdist #1386: every group then ran on
both workers and built everything twice); this runs a small selection the way `make test` does and checks
that each module's tests ran on one worker under their group."""
from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict

from evalhouse.paths import PROJECT_DIR


def test_each_group_runs_on_one_worker():
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "--no-loadscope-reorder", "-v", "-p",
                           "no:cacheprovider", "tests/test_lock.py", "tests/test_ruff.py", "tests/test_architecture.py"],
                          cwd=PROJECT_DIR, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:]
    workers = defaultdict(set)
    for worker, nodeid in re.findall(r"\[(gw\d)\]\s+(?:\[\s*\d+%\]\s+)?PASSED (\S+)", proc.stdout):
        assert "@" in nodeid, f"{nodeid}: no xdist group (the grouping hook did not take effect)"
        workers[(nodeid.partition("::")[0], nodeid.rpartition("@")[2])].add(worker)
    assert len(workers) == 3, proc.stdout[-3000:]
    assert all(len(w) == 1 for w in workers.values()), dict(workers)
