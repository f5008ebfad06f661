"""Many tiny files: the small-file batch against one statement per file ($EVALHOUSE_LOAD_BATCH=0), same run.

    .venv/bin/python scripts/bench_small_files.py [N_FILES] [ROUNDS]

Writes N one-line JSONL files under a temp logs_big/, loads them into a fresh warehouse with the batch on and
off, alternating, ROUNDS times each; prints each round and the median ratio (off / on). Issue 14 reported
50,000 one-line files at 768 s with the writer lock held throughout.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EVALHOUSE = str(Path(sys.executable).parent / "evalhouse")


def _load(root: Path, db: Path, batch: bool) -> float:
    env = {**os.environ, "EVALHOUSE_LOAD_BATCH": "1" if batch else "0"}
    t0 = time.monotonic()
    subprocess.run([EVALHOUSE, "load", str(root / "logs_big"), "--db", str(db), "--quiet", "--create"],
                   env=env, check=True, capture_output=True)
    return time.monotonic() - t0


def main(n: int = 10_000, rounds: int = 3) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "logs_big").mkdir()
        for i in range(n):
            (root / "logs_big" / f"f{i:06d}.jsonl").write_text(json.dumps({"run_id": f"r{i}", "kind": "fix"}) + "\n")
        ratios = []
        for r in range(rounds):
            on = _load(root, root / f"on{r}.duckdb", True)
            off = _load(root, root / f"off{r}.duckdb", False)
            ratios.append(off / on)
            print(f"round {r + 1}: batch {on:.2f} s, one statement per file {off:.2f} s: {off / on:.1f}x")
        print(f"{n} one-line files: the batch is {statistics.median(ratios):.1f}x faster (median of {rounds})")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
