"""`evalhouse build --target spark --lake DIR`: the same dbt project on Apache Spark.

1. export the working file's raw tables to the lake (DIR/raw/<table>/, Parquet; evalhouse/lake.py), under
   the evalhouse lock so no load is half-landed in it;
2. run `dbt build --target spark` in this machine's Spark (dbt-spark's session method, pyspark), which
   registers those Parquet directories as the `raw` sources and writes every table as Parquet under
   DIR/<schema>/<table>/ (the marts: DIR/marts/<mart>/), its Hive metastore in DIR/metastore_db.

The DuckDB working file is only read. dbt's target folder is DIR/target, so a Spark build never disturbs
the DuckDB build's partial parsing. A real cluster needs only another `spark` target (docs/spark.md).
"""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .config import spark_threads
from .dbt_runner import dbt_env, dbt_executable
from .paths import PROFILES_DIR
from .lake import ExportedTable, export_raw_locked


class SparkBuildFailed(RuntimeError):
    pass


@dataclass
class SparkBuildResult:
    lake: Path
    exported: list[ExportedTable]

    def summary(self) -> str:
        rows = sum(t.rows for t in self.exported)
        written = sum(t.rows_written for t in self.exported)
        return (f"evalhouse build (spark): {len(self.exported)} raw tables ({rows} rows, {written} written by this "
                f"export) in {self.lake / 'raw'}; marts written as Parquet under {self.lake / 'marts'}")


def spark_available() -> str | None:
    """None when dbt-spark and pyspark import, else what to install."""
    try:
        import dbt.adapters.spark  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as exc:
        return (f"the Spark target needs dbt-spark and pyspark ({exc.name} is missing): "
                "pip install 'evalhouse[spark]' (make install does it)")
    return None


def spark_env(db: Path, lake: Path, target_path: Path | None = None) -> dict[str, str]:
    env = dbt_env(db, target_path or lake / "target")
    env["EVALHOUSE_LAKE"] = str(lake)
    # Spark's logging: warnings only (evalhouse/profiles/spark_conf/log4j2.properties, on the driver's classpath)
    env.setdefault("SPARK_CONF_DIR", str(PROFILES_DIR / "spark_conf"))
    env.setdefault("SPARK_LOCAL_IP", "127.0.0.1")      # local Spark: no lookup of this host's address
    return env


def run_spark_dbt(args: list[str], db: Path, lake: Path, target_path: Path | None = None,
                  capture: bool = False) -> subprocess.CompletedProcess:
    """Run `dbt <args> --target spark` against the lake (the raw tables must be exported already)."""
    lake.mkdir(parents=True, exist_ok=True)
    env = spark_env(db, lake, target_path)
    return subprocess.run([dbt_executable(), *args, "--target", "spark"], cwd=lake, env=env, text=True,
                          capture_output=capture, check=False)


def build_spark(db: os.PathLike | str, lake: os.PathLike | str, dbt_args: list[str] | None = None,
                wait: float | None = None, target_path: Path | None = None,
                capture: bool = False) -> SparkBuildResult:
    """Export the raw layer of `db` to `lake` and `dbt build` it on Spark. Raises SparkBuildFailed."""
    missing = spark_available()
    if missing:
        raise SparkBuildFailed(missing)
    spark_threads()                      # a bad EVALHOUSE_SPARK_THREADS fails here, not inside the JVM
    db, lake = Path(db).resolve(), Path(lake).resolve()
    if not db.exists():
        raise SparkBuildFailed(f"{db} does not exist: load logs first (evalhouse load --db {db} LOGS)")
    exported = export_raw_locked(db, lake, wait=wait)
    proc = run_spark_dbt(["build", *(dbt_args or [])], db, lake, target_path, capture=capture)
    if proc.returncode != 0:
        tail = (proc.stdout or "")[-3000:] if capture else ""
        raise SparkBuildFailed(f"dbt build --target spark failed (exit {proc.returncode}); "
                               f"see {Path(target_path or lake / 'target') / 'run_results.json'}\n{tail}")
    return SparkBuildResult(lake, exported)
