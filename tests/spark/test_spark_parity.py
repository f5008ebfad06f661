"""Issue 16: the same dbt project on Spark reproduces the DuckDB marts, row for row.

One warehouse holds the fixtures of every family (brownfield clean + dirty, matrix and layered clean +
dirty, every coder-eval run directory, every inspect_ai log). It is built on DuckDB (`evalhouse build`),
its raw layer exported to a Parquet lake and built on Spark (`evalhouse build --target spark`), and every
mart table is compared (evalhouse.parity: keys and counts exactly, floats to 1e-9 relative).

The Spark build runs every dbt test too (rules, contracts, unit tests): it must finish with the same
test outcomes as the DuckDB build. The negative controls on both engines are
tests/spark/test_spark_controls.py.
"""
from __future__ import annotations

import re
from pathlib import Path

import duckdb

from evalhouse.parity import compare_marts, mart_tables

XDIST_GROUP = "spark"


def test_every_family_is_in_the_parity_warehouse(both):
    db = both[0]
    con = duckdb.connect(str(db), read_only=True)
    try:
        counts = {t: con.execute(f"select count(*) from raw.{t}").fetchall()[0][0]
                  for t in ("big_lines", "matrix_lines", "layered_lines", "ce_run_docs", "inspect_members")}
        marts = mart_tables(con)
    finally:
        con.close()
    assert all(n > 0 for n in counts.values()), counts
    assert len(marts) >= 30, marts


def test_spark_marts_equal_duckdb_marts_row_for_row(both):
    db, lake = both[0], both[1]
    diffs = compare_marts(db, lake)
    assert not diffs, "\n".join(f"{d.mart}: {p}" for d in diffs for p in d.problems)


def test_spark_runs_every_dbt_test_with_the_duckdb_outcome(both):
    duck_outcomes, spark_outcomes = both[4], both[5]
    assert set(spark_outcomes) == set(duck_outcomes), sorted(set(spark_outcomes) ^ set(duck_outcomes))[:20]
    differ = {k: (duck_outcomes[k], spark_outcomes[k]) for k in duck_outcomes if duck_outcomes[k] != spark_outcomes[k]}
    assert not differ, differ           # (status, failures): the dirty fixtures' findings fire alike on both
    assert any(s == "warn" for s, _ in spark_outcomes.values())
    kinds = {k.split(".")[0] for k in spark_outcomes}
    assert {"model", "test", "unit_test", "seed"} <= kinds


def test_spark_marts_are_parquet_under_the_lake(both):
    lake = both[1]
    marts = sorted(p.name for p in (lake / "marts").iterdir() if p.is_dir())
    assert "fct_costs_repriced" in marts and "inspect_metrics" in marts
    con = duckdb.connect()
    n = con.execute(f"select count(*) from read_parquet('{lake}/marts/big_rates/*.parquet')").fetchall()[0][0]
    assert n > 0


def test_no_engine_specific_function_in_a_model_file():
    """Engine differences live in dispatch macros: a model's own SQL names no DuckDB- or Spark-only function."""
    engine_only = re.compile(
        r"\b(json_extract(_string)?|json_each|json_type|json_exists|json_keys|list_[a-z_]+|struct_extract|"
        r"regexp_matches|strptime|strftime|epoch_ms|string_agg|array_agg|get_json_object|from_json|"
        r"variant_[a-z_]+|parse_json|try_parse_json|collect_list|posexplode|explode|listagg|lgamma|"
        r"date_format|unix_micros|timezone)\s*\(", re.I)
    bad = []
    for path in sorted((Path(__file__).resolve().parents[2] / "models").rglob("*.sql")):
        text = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.S)
        text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", text, flags=re.S)      # macro calls are the dispatch layer
        text = re.sub(r"--[^\n]*", "", text)
        for m in engine_only.finditer(text):
            bad.append(f"{path.name}: {m.group(0)}")
    assert not bad, bad


DUCKDB_ONLY = re.compile(r"\b(json_extract(_string)?|json_each|json_exists|list_[a-z_]+|struct_extract|regexp_matches|"
                         r"string_agg|timezone|lgamma|strpos)\s*\(|\*\s*exclude\s*\(", re.I)
SPARK_ONLY = re.compile(r"\b(get_json_object|variant_[a-z_]+|parse_json|try_parse_json|schema_of_variant|"
                        r"collect_list|posexplode|listagg|regexp_like|aggregate|sequence)\s*\(|\*\s*except\s*\(", re.I)


def _compiled(target: Path) -> dict[str, str]:
    root = target / "compiled" / "evalhouse" / "models"
    return {str(p.relative_to(root)): re.sub(r"--[^\n]*", "", p.read_text()) for p in root.rglob("*.sql")}


def test_compiled_sql_of_each_target_names_only_its_engines_functions(both, tmp_path):
    db, lake = both[0], both[1]
    duck_sql = _compiled(db.parent / "target")
    spark_sql = _compiled(lake / "target")
    assert len(duck_sql) > 100 and len(spark_sql) > 100
    leaks = [f"spark {k}: {m.group(0)}" for k, s in spark_sql.items() for m in DUCKDB_ONLY.finditer(s)]
    leaks += [f"duckdb {k}: {m.group(0)}" for k, s in duck_sql.items() for m in SPARK_ONLY.finditer(s)]
    assert not leaks, leaks[:20]


def test_parity_allows_a_last_digit_tie_only_in_printed_decimals():
    from evalhouse.parity import _same
    assert _same("logged 0.00096526 USD", "logged 0.00096527 USD")       # a rounding tie in a finding's text
    assert not _same("logged 0.00096526 USD", "logged 0.00096528 USD")
    assert not _same("3 runs", "4 runs")                                  # counts are exact
    assert not _same("model a", "model b")
    assert _same(1.0, 1.0 + 1e-12) and not _same(1.0, 1.0 + 1e-6)
    assert _same(float("nan"), float("nan")) and not _same(None, 0.0)
