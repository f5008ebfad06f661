"""The public interface of docs/CONTRACT.md (a copy of the project's v1 contract) still holds.

Checks, without running dbt, that every public mart and raw table named by the contract exists with
every column the contract names (extra columns are free).
"""

import yaml

from evalhouse.paths import PROJECT_DIR
from evalhouse.schema import DDL

TOKEN_BUCKETS = ["uncached_input_tokens", "cache_read_tokens", "cache_write_tokens", "output_tokens"]

CONTRACT_MARTS = {
    "fct_big_runs": ["run_key", "scenario_id", "kind", "model", "with_brain", "with_plan", "change",
                     "change_assertions_total", "change_assertions_passed", "regress", "regress_miss_count",
                     "done_but_broke", "wall_s", "calls", "cost_usd_logged", "stamp", "source_file", "source_line"],
    "big_rates": ["kind", "model", "with_brain", "with_plan", "n_runs", "n_scenarios", "change_assertions_total",
                  "change_mean", "change_ci_low", "change_ci_high", "regress_mean", "regress_ci_low",
                  "regress_ci_high", "n_done_but_broke", "first_stamp", "last_stamp"],
    "awareness_rates": ["kind", "model", "with_brain", "with_plan", "n_runs", "n_scenarios", "first_stamp",
                        "last_stamp"],
    "big_ablation_pairs": ["n_pairs"],
    "fct_matrix_turns": ["cell", "evidence_class", "difficulty"],
    "matrix_pass_rates": ["cell", "type", "evidence_class", "difficulty", "n_turns", "n_passed", "pass_rate",
                          "ci_low", "ci_high", "n_clusters", "se_clustered"],
    "layered_router_accuracy": ["l1", "n_routed", "n_correct", "accuracy", "ci_low", "ci_high"],
    "layered_layer_costs": [],
    "layered_failure_attribution": ["l1", "blame", "n_failures"],
    "fct_costs_repriced": ["source_family", "record_key", "model", "cost_usd_logged", "cost_usd_repriced",
                           "price_table_date", "is_priced"],
    "fct_ce_replicates": ["final_status", "status_category", "weighted_score", "system_prompt_regime",
                          "agent_cost_usd", "judge_cost_usd", "simulator_cost_usd", "total_cost_usd",
                          "cost_complete", "stopped_early", "source_file"],
    "ce_run_summaries": ["run_id", "pass_rate_stored", "pass_rate_recomputed", "error_share_stored",
                         "error_share_recomputed", "cost_complete", "counts_consistent", "pass_rate_consistent"],
    "ce_variant_rates": ["pass_rate", "pass_rate_ci_low", "pass_rate_ci_high", "average_score"],
    "ce_variant_comparisons": [],
    "ce_suite_results": [],
    "data_quality_findings": ["rule_id", "source_file", "source_line", "detail"],
    "field_lineage": ["mart_model", "mart_column", "upstream_model", "upstream_column", "depth", "raw_json_path"],
}

CONTRACT_RAW = {
    "loads": ["load_id", "started_at", "finished_at", "files_seen", "files_loaded", "files_unchanged",
              "files_ignored", "records_landed", "duplicates_skipped", "lines_quarantined"],
    "load_errors": ["load_id", "source_file", "source_line", "error", "raw_text"],
}


def _documented_marts() -> dict[str, set[str]]:
    marts = {}
    for path in (PROJECT_DIR / "models" / "marts").rglob("*.yml"):
        for model in (yaml.safe_load(path.read_text()) or {}).get("models", []):
            marts[model["name"]] = {c["name"] for c in model.get("columns", [])}
    return marts


def test_every_contract_mart_exists_with_its_columns():
    marts = _documented_marts()
    problems = []
    for name, columns in CONTRACT_MARTS.items():
        if name not in marts:
            problems.append(f"marts.{name} is missing")
            continue
        sql = next((PROJECT_DIR / "models" / "marts").rglob(f"{name}.sql"), None)
        assert sql is not None, f"no SQL for {name}"
        missing = [c for c in columns if c not in marts[name]]
        if missing:
            problems.append(f"marts.{name} lacks {missing}")
    assert not problems, "\n".join(problems)


def test_cost_marts_carry_token_buckets():
    marts = _documented_marts()
    for name in ("fct_costs_repriced",):
        assert any(b in marts[name] for b in TOKEN_BUCKETS), f"{name} has no token bucket column"


def test_raw_tables_keep_contract_columns():
    ddl = "\n".join(DDL)
    for table, columns in CONTRACT_RAW.items():
        start = ddl.index(f"raw.{table} (")
        body = ddl[start: ddl.index(")\n", start) if ")\n" in ddl[start:] else None]
        for col in columns:
            assert f"{col} " in body, f"raw.{table} lacks {col}"
