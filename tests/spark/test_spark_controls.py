"""Negative controls on Spark (`make test-spark`; CI runs the parity test only, for time).

The parity warehouse's Spark build passes every rule test (test_spark_parity). Here a violation is planted
in the Spark lake's marts (with pyspark, in a subprocess, so its JVM has let go of the Derby metastore
before dbt opens it), the rule's dbt test is run on Spark, and it must fire on exactly the plant; then the
plant is removed. The data-quality rules (R03-R05, R12, R15-R16, R21-R24, R27, R28) fire on the dirty
fixtures, with the same counts as on DuckDB: test_spark_runs_every_dbt_test_with_the_duckdb_outcome.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from conftest import outcomes

from evalhouse.spark_build import run_spark_dbt

XDIST_GROUP = "spark"
pytestmark = pytest.mark.spark_slow


def spark_sql(lake, statements: list[str]) -> None:
    """Run `statements` in a pyspark session over the lake's metastore, in its own process."""
    script = textwrap.dedent(f"""
        from pyspark.sql import SparkSession
        s = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .config("spark.sql.warehouse.dir", {str(lake / 'warehouse')!r})
             .config("spark.hadoop.javax.jdo.option.ConnectionURL",
                     "jdbc:derby:;databaseName={lake}/metastore_db;create=true")
             .config("spark.sql.legacy.allowNonEmptyLocationInCTAS", "true")
             .config("spark.sql.session.timeZone", "UTC")
             .enableHiveSupport().getOrCreate())
        for q in {statements!r}:
            s.sql(q).collect()
        s.stop()
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=lake)
    assert proc.returncode == 0, proc.stderr[-3000:]


def run_test(db, lake, tmp_path, test: str) -> tuple[str, int | None]:
    target = tmp_path / "target"
    run_spark_dbt(["test", "--select", test], db, lake, target_path=target, capture=True)
    return outcomes(target)[next(k for k in outcomes(target) if k.split(".")[2] == test or test in k)]


def _plant_table(lake, name: str, select: str) -> list[str]:
    return [f"drop table if exists marts.{name}",
            f"create table marts.{name} using parquet location '{lake}/marts/{name}' as {select}"]


@pytest.mark.parametrize("test,plant,select", [
    ("r01_big_change_not_a_pass_rate", "big_plant_pass_rate", "select cast(0.5 as double) as pass_rate"),
    ("r02_big_change_and_regress_never_combined", "big_plant_combined",
     "select cast(0.5 as double) as combined_score"),
    ("r25_rate_columns_have_denominator_and_interval", "r25_plant_no_interval",
     "select cast(10 as bigint) as n_runs, cast(0.5 as double) as pass_rate"),
])
def test_catalog_rule_fires_on_spark(both, tmp_path, test, plant, select):
    db, lake = both[0], both[1]
    assert both[5][next(k for k in both[5] if k.endswith("." + test))][0] == "pass"
    spark_sql(lake, _plant_table(lake, plant, select))
    try:
        status, failures = run_test(db, lake, tmp_path, test)
    finally:
        spark_sql(lake, [f"drop table if exists marts.{plant}"])
    assert (status, failures) == ("fail", 1), (status, failures)


def test_r26_provenance_rule_fires_on_spark(both, tmp_path):
    """One row of fct_costs_repriced loses its source_file (Parquet has no UPDATE: the table is rewritten)."""
    db, lake = both[0], both[1]
    test = "r26_fct_costs_repriced_has_provenance"
    spark_sql(lake, [
        "drop table if exists marts.plant_keep",
        f"create table marts.plant_keep using parquet location '{lake}/plant_keep' as select * from marts.fct_costs_repriced",
    ])
    cols = [c for c in both_columns(db, "fct_costs_repriced")]
    planted = ", ".join("case when record_key = (select min(record_key) from marts.plant_keep) then null "
                        "else source_file end as source_file" if c == "source_file" else c for c in cols)
    spark_sql(lake, [f"insert overwrite table marts.fct_costs_repriced select {planted} from marts.plant_keep"])
    try:
        status, failures = run_test(db, lake, tmp_path, test)
    finally:
        spark_sql(lake, ["insert overwrite table marts.fct_costs_repriced select * from marts.plant_keep",
                         "drop table marts.plant_keep"])
    assert (status, failures) == ("fail", 1), (status, failures)


def both_columns(db, mart: str) -> list[str]:
    """The mart's columns in order (the DuckDB build's; the parity test holds them equal on Spark)."""
    import duckdb
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [r[0] for r in con.execute(f"describe marts.{mart}").fetchall()]
    finally:
        con.close()
