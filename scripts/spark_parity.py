#!/usr/bin/env python
"""Build any logs on DuckDB and on Spark and compare (issue 16's parity, for logs that are not the fixtures).

    .venv/bin/python scripts/spark_parity.py LOGS_DIR [LOGS_DIR ...] [--out DIR]      # or: make parity-spark LOGS=dir

Loads every LOGS_DIR into a fresh working file (OUT/evalhouse.duckdb), builds it on DuckDB (`evalhouse build
--no-publish`) and on Spark (`evalhouse build --target spark --lake OUT/lake`), then compares:
- every mart, row for row (evalhouse.parity: keys, counts and text exactly, floats to 1e-9 relative);
- every dbt test's outcome (status and failing-row count) on the two engines.
Prints what differs and exits 1 if anything does. A build that fails on one engine only is a difference too; one
that fails on both is compared as far as it got (the failed DuckDB build's copy), its failing tests are listed,
and the exit is 3. 0: both builds passed and the engines agree.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


def outcomes(target: Path) -> dict[str, tuple[str, int | None]]:
    results = json.loads((target / "run_results.json").read_text())["results"]
    return {r["unique_id"]: (r["status"], r.get("failures")) for r in results}


def cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, DBT_TARGET_PATH=str(cwd / "target"), DBT_LOG_PATH=str(cwd / "target" / "logs"),
               DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    env.pop("EVALHOUSE_DB", None)
    return subprocess.run([sys.executable, "-m", "evalhouse.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=Path("bench_out/parity"))
    args = ap.parse_args(argv)
    import duckdb

    from evalhouse.parity import compare_marts, mart_tables

    out = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    db, lake = out / "evalhouse.duckdb", out / "lake"
    for d in args.logs:
        proc = cli(["load", "--db", str(db), "--create", "--quiet", str(d.resolve())], out)
        if proc.returncode != 0:                # quarantined records still exit 0: only a failed load stops here
            print(f"load {d} failed ({proc.returncode}):\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
            return 2
    duck = cli(["build", "--db", str(db), "--no-publish"], out)
    spark = cli(["build", "--db", str(db), "--target", "spark", "--lake", str(lake)], out)
    print(f"DuckDB build exit {duck.returncode}; Spark build exit {spark.returncode}")
    problems = []
    if (duck.returncode == 0) != (spark.returncode == 0):
        problems.append(f"one engine's build failed: DuckDB {duck.returncode}, Spark {spark.returncode}\n"
                        f"{(spark if spark.returncode else duck).stdout[-3000:]}")
    d_out, s_out = outcomes(out / "target"), outcomes(lake / "target")
    for k in sorted(set(d_out) | set(s_out)):
        if d_out.get(k) != s_out.get(k):
            problems.append(f"{k}: DuckDB {d_out.get(k)} vs Spark {s_out.get(k)}")
    # a failed DuckDB build leaves the working file as it was and keeps what it built beside it
    built = out / "evalhouse.failed.duckdb" if duck.returncode and (out / "evalhouse.failed.duckdb").exists() else db
    con = duckdb.connect(str(built), read_only=True)
    n_marts = len(mart_tables(con))
    con.close()
    if not n_marts:
        problems.append(f"{built.name} holds no marts to compare")
    for diff in compare_marts(built, lake):
        problems += [f"{diff.mart}: {p}" for p in diff.problems]
    n_tests = sum(1 for k in d_out if k.startswith("test."))
    failed = sorted(k for k, v in d_out.items() if v[0] in ("fail", "error"))
    if failed:
        print(f"failed on both engines alike ({len(failed)}): " + ", ".join(failed))
    if problems:
        print(f"{len(problems)} differences:")
        print("\n".join(problems))
        return 1
    print(f"the engines agree: {n_marts} marts row for row, {len(d_out)} dbt nodes ({n_tests} tests) with the same "
          "outcome")
    return 0 if not failed else 3


if __name__ == "__main__":
    sys.exit(main())
