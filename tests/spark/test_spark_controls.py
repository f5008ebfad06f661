"""Negative controls on Spark: every rule test on what evalhouse computes fires there, as it does on DuckDB.

The parity warehouse passes every rule test on both engines (test_spark_parity). Here one violation per rule
test is planted into BOTH builds of that warehouse, the same plants in the same order:
- on DuckDB, in a copy of the working file, with UPDATE / INSERT / DELETE;
- on Spark, in the lake, with pyspark in a subprocess (its JVM lets go of the Derby metastore before dbt opens
  it). Parquet has no UPDATE or DELETE, so each plant rewrites its table (INSERT OVERWRITE from a snapshot).
Then `dbt test` of the planted rule tests runs on each engine, and each must fail on both engines with the
same number of failing rows. There are two rounds (ROUNDS: plants in marts, then plants in seeds), each on
the unplanted build. After each round the lake is restored (every touched table rewritten from its
original, every planted table dropped), so the parity test sees the build as it was.

What the plants do not reach, and why:
- the data-quality rules (warn: R03-R05, R08, R12, R15-R16, R21-R24, R27, R28) fire on the dirty fixtures,
  with the same counts as on DuckDB (test_spark_runs_every_dbt_test_with_the_duckdb_outcome);
- r19_coder_eval_task_execute_not_downstream walks dbt's graph, which is the same manifest on both engines;
  its negative control plants a model (tests/coder_eval/test_coder_eval_task.py).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pytest
import yaml

from conftest import outcomes
from helpers import dbt

from evalhouse.parity import compare_marts
from evalhouse.paths import PROJECT_DIR
from evalhouse.spark_build import run_spark_dbt

XDIST_GROUP = "spark"

sys.path.insert(0, str(PROJECT_DIR / "tests" / "rules"))
from rules_builds import load_rules_table  # noqa: E402

GRAPH_ONLY = {"r19_coder_eval_task_execute_not_downstream"}


@dataclass(frozen=True)
class Plant:
    """One planted violation. op: create (a new table from `select`), update (`set` where `where`),
    copy (insert copies of the rows `where`, with `set` applied) or delete (the rows `where`)."""
    fires: tuple[str, ...]
    op: str
    table: str
    where: str = "true"
    set: dict = field(default_factory=dict)
    select: str = ""


def grain(table: str) -> list[str]:
    """The columns of a mart's grain test (its yml), or of a seed's key."""
    name = table.split(".")[1]
    for yml in (PROJECT_DIR / "models" / "marts").rglob("*.yml"):
        for m in yaml.safe_load(yml.read_text()).get("models", []):
            if m["name"] == name:
                for t in m.get("data_tests", []):
                    if isinstance(t, dict) and "grain" in t:
                        return t["grain"]["arguments"]["columns"]
    raise KeyError(f"{table}: no grain test")


def one_row(table: str, where: str = "true") -> str:
    """A condition true for one row of `table` (the least grain key among the rows `where`); both dialects."""
    key = "concat_ws('|', " + ", ".join(f"cast({c} as string)" for c in grain(table)) + ")"
    return f"{key} = (select min({key}) from {table} where {where})"


PLANTS = [
    # ---- catalog rules: a planted table whose columns break the rule
    Plant(("r01_big_change_not_a_pass_rate",), "create", "marts.big_plant_pass_rate",
          select="select cast(3 as bigint) as change_assertions_total, cast(0.5 as double) as pass_rate"),
    Plant(("r02_big_change_and_regress_never_combined",), "create", "marts.big_plant_combined",
          select="select cast(3 as bigint) as change_assertions_total, cast(0.5 as double) as change_regress_score"),
    Plant(("r25_rate_columns_have_denominator_and_interval",), "create", "marts.r25_plant_no_interval",
          select="select cast(10 as bigint) as n_runs, cast(0.5 as double) as pass_rate"),
    # ---- brownfield
    Plant(("r03_big_kinds_never_pooled",), "update", "marts.big_awareness_rates", set={"kind": "'fix'"}),
    Plant(("r06_big_done_but_broke_surfaced",), "update", "marts.fct_big_runs", where="done_but_broke",
          set={"done_but_broke": "false"}),
    Plant(("r07_big_ablations_paired",), "update", "marts.big_ablation_pairs",
          set={"change_diff_mean": "change_diff_mean + 0.1"}),
    Plant(("r26_fct_big_runs_has_provenance",), "update", "marts.fct_big_runs", where="source_line = 1",
          set={"source_file": "null"}),
    # ---- matrix and layered
    Plant(("r08_matrix_evidence_classes_never_pooled",), "update", "marts.matrix_pass_rates",
          where=one_row("marts.matrix_pass_rates", "evidence_class = 'executed'"),
          set={"n_turns": "n_turns + 3", "n_passed": "n_passed + 1"}),
    Plant(("r09_pass_rate_rows_name_evidence_class",), "update", "marts.matrix_pass_rates",
          where=one_row("marts.matrix_pass_rates", "evidence_class = 'compiled'"), set={"evidence_class": "null"}),
    Plant(("r09_pass_rate_evidence_class_is_a_class",), "update", "marts.matrix_pass_rates",
          where=one_row("marts.matrix_pass_rates", "evidence_class = 'syntax_only'"), set={"evidence_class": "'pooled'"}),
    Plant(("r10_router_accuracy_from_standalone_l1",), "update", "marts.layered_router_accuracy",
          where=one_row("marts.layered_router_accuracy"), set={"n_routed": "n_routed + 1"}),
    Plant(("r11_blame_counts_add_up",), "update", "marts.layered_failure_attribution",
          where="blame = 'coder' and " + one_row("marts.layered_failure_attribution", "blame = 'coder'"),
          set={"n_failures": "n_failures + 1"}),
    Plant(("r11_failed_totals_blamed_once",), "update", "marts.fct_layered_measurements",
          where=one_row("marts.fct_layered_measurements", "is_failed_total"), set={"blame": "null"}),
    Plant(("r12_rate_rows_have_stamp_range",), "update", "marts.layered_router_accuracy",
          where=one_row("marts.layered_router_accuracy"), set={"first_stamp": "null"}),
    Plant(("r26_fct_matrix_turns_has_provenance",), "update", "marts.fct_matrix_turns",
          where=one_row("marts.fct_matrix_turns"), set={"source_line": "null"}),
    Plant(("r26_fct_layered_measurements_has_provenance",), "update", "marts.fct_layered_measurements",
          where=one_row("marts.fct_layered_measurements", "not is_failed_total"), set={"load_id": "null"}),
    # ---- costs
    Plant(("r12_cost_rows_have_price_table_date",), "update", "marts.fct_costs_repriced",
          where=one_row("marts.fct_costs_repriced", "source_family = 'matrix'"), set={"price_table_date": "null"}),
    Plant(("r13_totals_with_unpriced_flagged_incomplete",), "update", "marts.costs_repriced_totals",
          where="n_unpriced > 0", set={"cost_complete": "true"}),
    Plant(("r13_unpriced_is_null_never_zero",), "update", "marts.fct_costs_repriced",
          where=one_row("marts.fct_costs_repriced", "unpriced_reason = 'model_not_on_rate_card'"),
          set={"cost_usd_repriced": "0"}),
    Plant(("r14_no_superseded_rate_used",), "update", "marts.fct_costs_repriced",
          where=one_row("marts.fct_costs_repriced", "repricing_method = 'superseded_rate_correction'"),
          set={"rate_id": "superseded_rate_id"}),
    Plant(("r14_rate_in_force_at_stamp",), "update", "marts.fct_costs_repriced",
          where=one_row("marts.fct_costs_repriced", "rate_id like '%off_peak_1024' or rate_id like '%off_peak_0406'"),
          set={"rate_id": "replace(replace(rate_id, 'off_peak_1024', 'peak_0104'), 'off_peak_0406', 'peak_0104')"}),
    Plant(("r14_repriced_from_tokens",), "update", "marts.fct_costs_repriced",
          where=one_row("marts.fct_costs_repriced", "repricing_method = 'tokens' and cost_usd_repriced > 0 "
                        "and source_family = 'coder_eval'"),
          set={"cost_usd_repriced": "cost_usd_repriced * 4"}),
    Plant(("r14_one_rate_row_per_record",), "copy", "marts.fct_costs_repriced",
          where=one_row("marts.fct_costs_repriced", "is_priced and source_family = 'inspect'")),
    Plant(("r26_fct_costs_repriced_has_provenance",), "update", "marts.fct_costs_repriced",
          where=one_row("marts.fct_costs_repriced", "source_family = 'big'"), set={"source_file": "null"}),
    Plant(("r14_rate_card_no_overlap",), "copy", "staging.rate_card", where="rate_id = 'axium_2026-08-06_gpt-4.1'",
          set={"rate_id": "'overlap_plant'"}),
    # ---- coder-eval
    Plant(("r15_coder_eval_recomputed_counts_partition",), "update", "marts.coder_eval_run_summaries",
          where="run_id = 'gen_ab_experiment'", set={"tasks_failed_recomputed": "tasks_failed_recomputed + 1"}),
    Plant(("r16_coder_eval_pass_rate_formula",), "update", "marts.coder_eval_run_summaries",
          where="run_id = 'gen_execute_only'", set={"pass_rate_recomputed": "0.0"}),
    Plant(("r26_coder_eval_run_summaries_has_provenance",), "update", "marts.coder_eval_run_summaries",
          where="run_id = 'cli_dataset_suite'", set={"load_id": "null"}),
    Plant(("r17_coder_eval_variant_average_score",), "update", "marts.coder_eval_variant_rates",
          where="run_id = 'cli_agentless_ab' and variant_id = 'control'", set={"average_score": "average_score + 0.05"}),
    Plant(("r18_coder_eval_seed_categories",), "update", "staging.final_status_categories",
          where="final_status = 'BUILD_FAILED'", set={"status_category": "'failed'"}),
    Plant(("r18_coder_eval_status_known",), "delete", "staging.final_status_categories",
          where="final_status = 'SUCCESS'"),
    Plant(("r18_coder_eval_replicate_status_category_known",), "update", "marts.fct_coder_eval_replicates",
          where=one_row("marts.fct_coder_eval_replicates", "run_id = 'gen_legacy_shapes'"),
          set={"status_category": "null"}),
    Plant(("r19_coder_eval_replicates_not_from_snapshot",), "update", "marts.fct_coder_eval_replicates",
          where="replicate_key = 'cli_execute_then_grade|default|greeting|0'",
          set={"source_file": "replace(source_file, 'task.json', 'task.execute.json')"}),
    Plant(("r23_coder_eval_total_cost_is_sum",), "update", "marts.fct_coder_eval_replicates",
          where="replicate_key = 'gen_ab_experiment|sonnet|fix_import|0'", set={"total_cost_usd": "agent_cost_usd"}),
    Plant(("r26_fct_coder_eval_replicates_has_provenance",), "update", "marts.fct_coder_eval_replicates",
          where=one_row("marts.fct_coder_eval_replicates", "run_id = 'cli_dataset_suite'"), set={"document_sha256": "null"}),
    Plant(("r20_coder_eval_variant_rates_single_regime",), "copy", "marts.coder_eval_variant_rates",
          where="run_id = 'gen_ab_experiment' and variant_id = 'sonnet'", set={"system_prompt_regime": "'replace'"}),
    Plant(("r20_coder_eval_variant_comparisons_single_regime",), "update", "marts.coder_eval_variant_comparisons",
          where="run_id = 'gen_ab_experiment'", set={"n_pairs": "n_pairs + 1"}),
    Plant(("r21_coder_eval_variant_rates_grains",), "update", "marts.coder_eval_variant_rates",
          where="run_id = 'gen_unpriced_model' and variant_id = 'inhouse'", set={"pass_rate": "task_pass_rate"}),
    Plant(("r24_coder_eval_variant_rates_flags_stale",), "update", "marts.coder_eval_variant_rates",
          where="run_id = 'cli_execute_then_grade'", set={"variant_json_is_stale": "false"}),
    # ---- R25 per row: an interval missing, inverted or of zero width around an interior estimate
    Plant(("r25_intervals_present_when_estimable",), "update", "marts.big_rates",
          where=one_row("marts.big_rates", "change_ci_high is not null and change_mean is not null"),
          set={"change_ci_high": "change_mean - 0.1"}),
    Plant(("r25_intervals_present_when_estimable",), "update", "marts.coder_eval_pass_at_k",
          where=one_row("marts.coder_eval_pass_at_k", "pass_at_k > 0 and pass_at_k < 1 and pass_at_k_ci_low is not null"),
          set={"pass_at_k_ci_low": "pass_at_k", "pass_at_k_ci_high": "pass_at_k"}),
    # ---- inspect_ai
    Plant(("r29_inspect_errored_samples_counted",), "update", "marts.inspect_metrics",
          where="metric = 'accuracy'", set={"n_samples_attempted": "n_samples_scored - 1"}),
    Plant(("r30_inspect_pairs_on_identical_samples",), "update", "marts.inspect_model_pairs",
          where="scorer = 'match'", set={"n_samples_b": "n_pairs + 1"}),
    Plant(("r31_inspect_statuses_never_pooled",), "update", "marts.inspect_spend",
          where="status = 'started'", set={"status": "'success'"}),
    Plant(("r32_inspect_scores_and_reducers_never_pooled",), "update", "marts.inspect_metrics",
          where="scorer = 'includes'", set={"score_name": "'match+includes'", "scorer": "'match+includes'"}),
    Plant(("r33_inspect_grader_spend_never_the_models",), "update", "marts.inspect_spend",
          where="role = 'grader'", set={"spend_kind": "'agent'"}),
    # a comparison made again with the arm an `inspect score` copy repeats (fixtures/inspect_rescore)
    Plant(("r34_inspect_repeated_arms_compared_once",), "copy", "marts.inspect_model_pairs",
          where="source_file_a like '%/model-a.eval' and source_file_b like '%/model-b.eval'",
          set={"source_file_a": "replace(source_file_a, '/model-a.eval', '/model-a.rescored-append.eval')"}),
    # model-a and model-c were graded by different graders (fixtures/inspect_instruments): their match scores are
    # compared, their model_graded_qa scores must not be
    Plant(("r35_inspect_pairs_share_an_instrument",), "update", "marts.inspect_model_pairs",
          where="task = 'instruments' and model_a = 'mockllm/model-a' and model_b = 'mockllm/model-c' "
                "and scorer = 'match' and reducer = 'mean'",
          set={"score_name": "'model_graded_qa'", "scorer": "'model_graded_qa'"}),
]
PLANTED_TESTS = sorted({t for p in PLANTS for t in p.fires})
# Two rounds, each on the unplanted build: the plants in marts, then the plants in seeds (schema staging). A
# planted seed changes what DuckDB's intermediate *views* compute, while Spark's intermediate models are
# tables; in a round of its own, a seed plant is seen only by the tests it is meant for.
ROUNDS = {
    "marts": [p for p in PLANTS if not p.table.startswith("staging.")],
    "seeds": [p for p in PLANTS if p.table.startswith("staging.")],
}


def error_rule_tests() -> list[str]:
    return sorted(t.name for t in load_rules_table().discover_dbt_tests() if t.severity == "error")


# ------------------------------------------------------------------------------------------------ DuckDB plants

def plant_duckdb(db: Path, plants: list[Plant]) -> None:
    con = duckdb.connect(str(db))
    try:
        for p in plants:
            if p.op == "create":
                con.execute(f"create table {p.table} as {p.select}")
            elif p.op == "update":
                con.execute(f"update {p.table} set " + ", ".join(f"{c} = {e}" for c, e in p.set.items())
                            + f" where {p.where}")
            elif p.op == "copy":
                cols = [r[0] for r in con.execute(f"describe {p.table}").fetchall()]
                sel = ", ".join(f"{p.set[c]} as {c}" if c in p.set else c for c in cols)
                con.execute(f"insert into {p.table} select {sel} from {p.table} where {p.where}")
            elif p.op == "delete":
                con.execute(f"delete from {p.table} where {p.where}")
            else:
                raise ValueError(p.op)
    finally:
        con.close()


# ------------------------------------------------------------------------------------------------- Spark plants

SPARK_SCRIPT = textwrap.dedent("""
    import json, sys
    from pyspark.sql import SparkSession
    lake, mode = sys.argv[1], sys.argv[2]
    plants = json.loads(sys.stdin.read())
    s = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.warehouse.dir", lake + "/warehouse")
         .config("spark.hadoop.javax.jdo.option.ConnectionURL",
                 "jdbc:derby:;databaseName=" + lake + "/metastore_db;create=true")
         .config("spark.sql.session.timeZone", "UTC")
         .enableHiveSupport().getOrCreate())
    q = lambda sql: s.sql(sql).collect()
    keep = lambda t: "evalhouse_plant.orig__" + t.replace(".", "__")
    if mode == "plant":
        q("create schema if not exists evalhouse_plant")
        touched = []
        for p in plants:
            t = p["table"]
            if p["op"] == "create":
                q(f"create table {t} using parquet as {p['select']}")
                continue
            if t not in touched:
                q(f"create table {keep(t)} using parquet as select * from {t}")
                touched.append(t)
            q("drop table if exists evalhouse_plant.cur")
            q(f"create table evalhouse_plant.cur using parquet as select * from {t}")
            cols = s.table(t).columns
            where = p["where"].replace(t, "evalhouse_plant.cur")
            if p["op"] == "update":
                sel = ", ".join(f"case when ({where}) then {p['set'][c]} else {c} end as {c}" if c in p["set"] else c
                                for c in cols)
                q(f"insert overwrite table {t} select {sel} from evalhouse_plant.cur")
            elif p["op"] == "copy":
                sel = ", ".join(f"{p['set'][c]} as {c}" if c in p["set"] else c for c in cols)
                q(f"insert into {t} select {sel} from evalhouse_plant.cur where {where}")
            elif p["op"] == "delete":
                q(f"insert overwrite table {t} select * from evalhouse_plant.cur where not coalesce(({where}), false)")
    else:  # restore
        for p in plants:
            if p["op"] == "create":
                q(f"drop table if exists {p['table']}")
        for t in dict.fromkeys(p["table"] for p in plants if p["op"] != "create"):
            if s.catalog.tableExists(keep(t)):
                q(f"insert overwrite table {t} select * from {keep(t)}")
        q("drop schema if exists evalhouse_plant cascade")
    s.stop()
""")


def spark_plants(lake: Path, plants: list[Plant], mode: str) -> None:
    """Plant the violations in the Spark lake (mode 'plant'), or undo them (mode 'restore')."""
    spec = [{"op": p.op, "table": p.table, "where": p.where, "set": p.set, "select": p.select} for p in plants]
    proc = subprocess.run([sys.executable, "-c", SPARK_SCRIPT, str(lake), mode], input=json.dumps(spec),
                          capture_output=True, text=True, cwd=lake)
    assert proc.returncode == 0, proc.stderr[-4000:]


# --------------------------------------------------------------------------------------------------- the runs

@pytest.fixture(scope="module")
def planted(both, tmp_path_factory):
    """(DuckDB outcomes, Spark outcomes) of every planted rule test, round by round; the lake is restored."""
    db, lake = both[0], both[1]
    tmp = tmp_path_factory.mktemp("spark_controls")
    by_name = lambda res: {k.split(".")[2]: v for k, v in res.items() if k.startswith("test.")}  # noqa: E731
    duck, spark = {}, {}
    for name, plants in ROUNDS.items():
        tests = sorted({t for p in plants for t in p.fires})
        duck_db = tmp / f"planted_{name}.duckdb"    # not marts.duckdb: a catalog named marts shadows the schema
        shutil.copyfile(db, duck_db)
        plant_duckdb(duck_db, plants)
        dbt(["test", "--select", *tests], duck_db, tmp / f"duck_{name}", check=False)
        spark_plants(lake, plants, "plant")
        try:
            run_spark_dbt(["test", "--select", *tests], db, lake, target_path=tmp / f"spark_{name}", capture=True)
        finally:
            spark_plants(lake, plants, "restore")
        duck.update({t: v for t, v in by_name(outcomes(tmp / f"duck_{name}")).items() if t in tests})
        spark.update({t: v for t, v in by_name(outcomes(tmp / f"spark_{name}")).items() if t in tests})
    return duck, spark


def test_every_rule_test_on_computation_has_a_plant():
    """A new error-severity rule test must get a plant here (or be a graph test, listed in GRAPH_ONLY)."""
    assert set(error_rule_tests()) - GRAPH_ONLY == set(PLANTED_TESTS), (
        sorted(set(error_rule_tests()) - GRAPH_ONLY - set(PLANTED_TESTS)), sorted(set(PLANTED_TESTS) - set(error_rule_tests())))


@pytest.mark.parametrize("test", PLANTED_TESTS)
def test_rule_fires_on_its_plant_on_both_engines(both, planted, test):
    clean = {k.split(".")[2]: v for k, v in both[5].items() if k.startswith("test.")}
    assert clean[test][0] == "pass", f"{test} does not pass on the unplanted Spark build: {clean[test]}"
    duck, spark = planted[0][test], planted[1][test]
    assert duck[0] == "fail", f"{test}: its plant did not fire on DuckDB: {duck}"
    assert spark == duck, f"{test}: Spark {spark} vs DuckDB {duck} on the same plants"


def test_the_lake_is_restored_after_the_plants(both, planted):
    """After the restore, the Spark marts equal the DuckDB build's again (the parity test runs on the lake)."""
    diffs = compare_marts(both[0], both[1])
    assert not diffs, "\n".join(f"{d.mart}: {p}" for d in diffs for p in d.problems)
