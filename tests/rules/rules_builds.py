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


def _one_row(table: str, where: str) -> str:
    return f"rowid = (select min(rowid) from marts.{table} where {where})"


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
        # R25 per-row plants, one row each
        con.execute("update marts.matrix_pass_rates set ci_low = null where "
                    + _one_row("matrix_pass_rates", "pass_rate is not null and ci_low is not null"))
        con.execute("update marts.coder_eval_variant_rates set average_score_se = null where "
                    + _one_row("coder_eval_variant_rates", "n_clusters >= 2 and average_score is not null"))
        con.execute("update marts.big_rates set change_ci_high = change_mean - 0.1 where "
                    + _one_row("big_rates", "change_ci_high is not null and change_mean is not null"))
        con.execute("update marts.big_ablation_pairs set change_diff_ci_low = null where "
                    + _one_row("big_ablation_pairs", "change_diff_se is not null and change_diff_mean is not null"))
        # R25 (revised): a zero-width interval around an interior estimate
        con.execute("update marts.coder_eval_variant_comparisons set difference_ci_low = mean_difference, "
                    "difference_ci_high = mean_difference where "
                    + _one_row("coder_eval_variant_comparisons", "mean_difference > -1 and mean_difference < 1 "
                               "and difference_ci_low is not null"))
        con.execute("update marts.coder_eval_pass_at_k set pass_at_k_ci_low = pass_at_k, pass_at_k_ci_high = pass_at_k where "
                    + _one_row("coder_eval_pass_at_k", "pass_at_k > 0 and pass_at_k < 1 and pass_at_k_ci_low is not null"))
        # R26 plants: one fact row each that lost part of its provenance
        con.execute("update marts.fct_matrix_turns set source_line = null where "
                    + _one_row("fct_matrix_turns", "true"))
        con.execute("update marts.fct_layered_measurements set load_id = null where "
                    + _one_row("fct_layered_measurements", "true"))
        con.execute("update marts.fct_costs_repriced set source_file = null where "
                    + _one_row("fct_costs_repriced", "true"))
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
