#!/usr/bin/env python
"""Spark vs DuckDB builds of the same warehouse (issue 16). Every figure is a ratio measured in this run.

    .venv/bin/python scripts/bench_spark.py                  # 100k and 1M brownfield lines
    .venv/bin/python scripts/bench_spark.py --scales 10000 100000 --out bench_out/spark_quick

For each scale N: generate N brownfield lines (evalhouse.samples.big, cached), load them into a fresh working
file, then time
- `evalhouse build --no-publish` (DuckDB, the baseline), and
- `evalhouse build --target spark` (raw export to Parquet + dbt build on local Spark, 2 threads);
and at --threads-scale (default: the largest N) the Spark build again with EVALHOUSE_SPARK_THREADS=1.

Figures:
- spark_vs_duckdb@N: Spark build seconds / DuckDB build seconds on the same warehouse;
- spark_scaling: Spark seconds at the largest N / at the smallest N, and the growth exponent
  log(t2 / t1) / log(N2 / N1) (1 = linear; much less than 1 = the fixed cost per model dominates);
- spark_1_vs_2_threads: Spark seconds with 1 worker thread / with 2 (> 1: the second thread helps).
Writes OUT/results.json and OUT/results.md.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


def log(msg: str) -> None:
    print(f"[bench_spark] {msg}", flush=True)


def data_for(data_dir: Path, n: int) -> Path:
    from evalhouse.samples import big
    root = data_dir / f"big_{n}_s7"
    if not (root / ".complete").exists():
        shutil.rmtree(root, ignore_errors=True)
        big.write(root, n=n, seed=7)
        (root / ".complete").write_text(str(n))
    return root


def run(cmd: list[str], cwd: Path, env: dict) -> float:
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    secs = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return secs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--threads-scale", type=int, default=None, help="N for the 1 vs 2 threads figure")
    ap.add_argument("--data", default="/tmp/bench/data")
    ap.add_argument("--out", default="bench_out/spark")
    args = ap.parse_args(argv)
    out = Path(args.out).resolve()
    shutil.rmtree(out / "work", ignore_errors=True)
    (out / "work").mkdir(parents=True, exist_ok=True)
    cli = [sys.executable, "-m", "evalhouse.cli"]
    results: dict = {"scales": {}, "figures": {}}
    for n in sorted(args.scales):
        work = out / "work" / str(n)
        work.mkdir(parents=True)
        env = {**os.environ, "DBT_TARGET_PATH": str(work / "target"), "DBT_LOG_PATH": str(work / "target" / "logs"),
               "DBT_SEND_ANONYMOUS_USAGE_STATS": "false", "EVALHOUSE_SPARK_THREADS": "2"}
        env.pop("EVALHOUSE_DB", None)
        db = work / "evalhouse.duckdb"
        root = data_for(Path(args.data), n)
        run([*cli, "load", "--db", str(db), "--create", "--quiet", str(root)], work, env)
        duck = run([*cli, "build", "--db", str(db), "--no-publish", "--", "--quiet"], work, env)
        spark = run([*cli, "build", "--db", str(db), "--target", "spark", "--lake", str(work / "lake2"),
                     "--", "--quiet"], work, env)
        row = {"duckdb_s": round(duck, 1), "spark_2_threads_s": round(spark, 1),
               "spark_vs_duckdb": round(spark / duck, 2)}
        log(f"N={n}: {row}")
        results["scales"][n] = row
        results["figures"][f"spark_vs_duckdb@{n}"] = row["spark_vs_duckdb"]
    ns = sorted(results["scales"])
    if len(ns) > 1:
        t1, t2 = results["scales"][ns[0]]["spark_2_threads_s"], results["scales"][ns[-1]]["spark_2_threads_s"]
        results["figures"]["spark_scaling_ratio"] = round(t2 / t1, 2)
        results["figures"]["spark_scaling_exponent"] = round(math.log(t2 / t1) / math.log(ns[-1] / ns[0]), 2)
    n = args.threads_scale or ns[-1]
    work = out / "work" / str(n)
    env = {**os.environ, "DBT_TARGET_PATH": str(work / "target"), "DBT_LOG_PATH": str(work / "target" / "logs"),
           "DBT_SEND_ANONYMOUS_USAGE_STATS": "false", "EVALHOUSE_SPARK_THREADS": "1"}
    env.pop("EVALHOUSE_DB", None)
    one = run([*cli, "build", "--db", str(work / "evalhouse.duckdb"), "--target", "spark", "--lake",
               str(work / "lake1"), "--", "--quiet"], work, env)
    results["scales"][n]["spark_1_thread_s"] = round(one, 1)
    results["figures"][f"spark_1_vs_2_threads@{n}"] = round(one / results["scales"][n]["spark_2_threads_s"], 2)
    (out / "results.json").write_text(json.dumps(results, indent=2))
    md = ["| N lines | DuckDB build s | Spark build s (2 threads) | Spark / DuckDB |", "|---|---|---|---|"]
    md += [f"| {k:,} | {v['duckdb_s']} | {v['spark_2_threads_s']} | {v['spark_vs_duckdb']} |"
           for k, v in sorted(results["scales"].items())]
    md += ["", *(f"- {k}: {v}" for k, v in results["figures"].items())]
    (out / "results.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
