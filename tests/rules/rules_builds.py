"""Plants and builds for the auditor's negative controls (R25, and R26 on the matrix / layered / cost
fact tables): ONE dbt build of every mart from the clean fixtures (models and seeds only), then three
`dbt test` runs of the rule tests, each on its own copy of the database:
- clean:     the build as is                            -> every rule test passes;
- tampered:  one plant per check (see _tamper)           -> each test fires on exactly its plants;
- strict:    the build as is, dbt var r25_open_gaps = {} -> the R25 catalog test fails on exactly
             the open gaps listed in r25_open_gaps() (each listed gap is still real).
"""
from __future__ import annotations

import duckdb

R25_TESTS = ["r25_rate_columns_have_denominator_and_interval", "r25_intervals_present_when_estimable"]
R26_TESTS = ["r26_fct_matrix_turns_has_provenance", "r26_fct_layered_measurements_has_provenance",
             "r26_fct_costs_repriced_has_provenance"]


# the per-row plants: (mart, the change, which rows may take it); the first such row takes it
ROW_PLANTS = [
    # R25: an interval or standard error lost where it is estimable, or an interval below its estimate
    ("matrix_pass_rates", "ci_low = null", "pass_rate is not null and ci_low is not null"),
    ("coder_eval_variant_rates", "average_score_se = null", "n_clusters >= 2 and average_score is not null"),
    ("big_rates", "change_ci_high = change_mean - 0.1", "change_ci_high is not null and change_mean is not null"),
    ("big_ablation_pairs", "change_diff_ci_low = null", "change_diff_se is not null and change_diff_mean is not null"),
    # ... and in a mart whose intervals R25 finds by their columns (inspect_metrics' value_ci_low beside value_recomputed)
    ("inspect_metrics", "value_ci_high = value_recomputed - 0.1", "value_ci_high is not null and metric = 'accuracy'"),
    ("inspect_metrics", "value_errors_as_incorrect_ci_low = null",
     "value_errors_as_incorrect_ci_low is not null and metric = 'mean'"),
    # R25 (revised): a zero-width interval around an interior estimate
    ("coder_eval_variant_comparisons", "difference_ci_low = mean_difference, difference_ci_high = mean_difference",
     "mean_difference > -1 and mean_difference < 1 and difference_ci_low is not null"),
    ("coder_eval_pass_at_k", "pass_at_k_ci_low = pass_at_k, pass_at_k_ci_high = pass_at_k",
     "pass_at_k > 0 and pass_at_k < 1 and pass_at_k_ci_low is not null"),
    # R26: a fact row that lost part of its provenance
    ("fct_matrix_turns", "source_line = null", "true"),
    ("fct_layered_measurements", "load_id = null", "true"),
    ("fct_costs_repriced", "source_file = null", "true"),
]


def _tamper(db) -> None:
    con = duckdb.connect(str(db))
    try:
        # R25 catalog plants (one violation each) ...
        con.execute("create table marts.r25_plant_no_interval as "
                    "select cast(10 as bigint) as n_runs, cast(0.5 as double) as pass_rate")
        con.execute("create table marts.r25_plant_no_denominator as select cast(0.5 as double) as pass_rate, "
                    "cast(0.4 as double) as ci_low, cast(0.6 as double) as ci_high")
        con.execute("create table marts.r25_plant_mean_without_se as select cast(10 as bigint) as n_runs, "
                    "cast(0.5 as double) as score_mean, cast(0.4 as double) as score_ci_low, "
                    "cast(0.6 as double) as score_ci_high")
        # ... and two that must NOT fire: a stored log value, a per-record fact table
        con.execute("create table marts.r25_plant_stored_only as "
                    "select cast(10 as bigint) as n_runs, cast(0.5 as double) as pass_rate_stored")
        con.execute("create table marts.fct_r25_plant as select cast(0.5 as double) as pass_rate")
        for table, change, candidates in ROW_PLANTS:
            (changed,) = con.execute(f"update marts.{table} set {change} where "
                                     f"rowid = (select min(rowid) from marts.{table} where {candidates})").fetchone()
            assert changed == 1, f"no row of marts.{table} can take the plant `{change}` (where {candidates})"
    finally:
        con.close()


def _failures(db, name: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(f"select * from dbt_test__audit.{name}").fetchall()
    finally:
        con.close()


def load_rules_table():
    """scripts/rules_table.py as a module (registered in sys.modules, as dataclasses need)."""
    import importlib.util
    import sys

    from evalhouse.paths import PROJECT_DIR

    if "rules_table" not in sys.modules:
        spec = importlib.util.spec_from_file_location("rules_table", PROJECT_DIR / "scripts" / "rules_table.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["rules_table"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["rules_table"]
