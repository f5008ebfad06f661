"""Chat x coder matrix, three-layer pipeline, rate card and repricing: rules R08-R14.

One clean build of the fixtures (fixtures/brownfield_matrix/clean + the brownfield suite's clean
logs_big), one dirty build with planted log records, and tampered copies of the clean database
for the rules about what evalhouse computes (violations that cannot arise from log data). A
Python re-implementation checks the marts against the fixture logs (strata, Wilson, clustered SE,
router accuracy, repriced sums).
"""
from __future__ import annotations

import csv
import json
import math
import shutil
from collections import defaultdict
from datetime import datetime, time, timezone
from pathlib import Path

import duckdb
import pytest
from helpers import dbt, fresh_db, query, run_results
from matrix_landing import land

from evalhouse.paths import PROJECT_DIR

FIX = PROJECT_DIR / "fixtures" / "brownfield_matrix"
BIG_CLEAN = PROJECT_DIR / "fixtures" / "brownfield" / "clean" / "logs_big"
SEEDS = PROJECT_DIR / "seeds"

DQ_MODELS = ["int_dq__matrix_uncastable_values", "int_dq__matrix_r12_naive_stamps", "int_dq__matrix_r08_unmapped_check_kind",
             "int_dq__layered_uncastable_values", "int_dq__layered_r12_naive_stamps",
             "int_dq__matrix_foreign_records", "int_dq__layered_foreign_records"]
DQ_TESTS = ["matrix_values_cast_cleanly", "r12_matrix_stamps_are_known_instants",
            "layered_values_cast_cleanly", "r12_layered_stamps_are_known_instants",
            "matrix_records_have_the_family_shape", "layered_records_have_the_family_shape"]
SELECT = ["--select", "+path:models/marts/matrix", "+path:models/marts/layered", "+path:models/marts/costs",
          *DQ_MODELS, "--indirect-selection", "cautious"]


def _jsonl(dirpath: Path) -> list[Path]:
    return sorted(dirpath.glob("*.jsonl"))


def _clean_paths() -> list[Path]:
    paths = _jsonl(FIX / "clean" / "logs") + _jsonl(FIX / "clean" / "logs_layered")
    if BIG_CLEAN.is_dir():
        paths += _jsonl(BIG_CLEAN)
    return paths


@pytest.fixture(scope="session")
def builds(tmp_path_factory):
    """Clean build, then the dirty build, in ONE database path and target dir (dbt re-uses its partial
    parse: the profile, hence the parse, is the same). Snapshots keep the file name (catalog name)."""
    work = tmp_path_factory.mktemp("matrix_builds")
    (work / "main").mkdir()
    (work / "clean").mkdir()
    (work / "dirty").mkdir()
    db = fresh_db(work / "main" / "wh.duckdb")
    target = work / "target"
    land(db, _clean_paths())
    proc = dbt(["build", *SELECT], db, target, check=False)
    clean_results = run_results(target)
    shutil.copyfile(target / "run_results.json", work / "clean" / "run_results.json")
    shutil.copyfile(db, work / "clean" / db.name)
    # dirty: the planted records on top of the clean ones
    land(db, _jsonl(FIX / "dirty" / "logs") + _jsonl(FIX / "dirty" / "logs_layered"))
    # '+': the staging line models are incremental tables, so they must be selected to take in the new lines
    dbt(["build", "--select", "+path:models/marts/matrix", *[f"+{m}" for m in DQ_MODELS],
         "--indirect-selection", "cautious"], db,
        target, check=False)
    dirty_results = run_results(target)
    shutil.copyfile(db, work / "dirty" / db.name)
    return {"work": work, "db": db, "target": target,
            "clean": (work / "clean" / db.name, work / "clean", clean_results, proc),
            "dirty": (work / "dirty" / db.name, work / "dirty", dirty_results)}


@pytest.fixture(scope="session")
def clean_build(builds):
    return builds["clean"]


@pytest.fixture(scope="session")
def dirty_build(builds):
    return builds["dirty"]


# ---------------------------------------------------------------- tampering (evalhouse's own computation)
# Each group plants violations whose tests are disjoint (a plant never trips another test of the group).
TAMPER_GROUPS = {
    "a": {
        "sql": [
            # R08: pool the compiled row of one (cell, type, difficulty) into its executed row
            """create temp table pick as
               select c.cell, c.type, c.difficulty, c.n_turns, c.n_passed
               from marts.matrix_pass_rates c join marts.matrix_pass_rates e
                 on c.cell = e.cell and c.type = e.type and c.difficulty = e.difficulty
               where c.evidence_class = 'compiled' and e.evidence_class = 'executed'
               order by c.cell, c.type, c.difficulty limit 1""",
            """update marts.matrix_pass_rates m set n_turns = m.n_turns + p.n_turns, n_passed = m.n_passed + p.n_passed
               from pick p where m.cell = p.cell and m.type = p.type and m.difficulty = p.difficulty
                 and m.evidence_class = 'executed'""",
            """delete from marts.matrix_pass_rates m using pick p
               where m.cell = p.cell and m.type = p.type and m.difficulty = p.difficulty
                 and m.evidence_class = 'compiled'""",
            # R10: a total-row leak: router accuracy recomputed over l1 AND total rows with both route fields
            """update marts.layered_router_accuracy a set n_routed = x.n, n_correct = x.k,
                   accuracy = cast(x.k as double) / x.n
               from (select l1, count(*) as n, count(*) filter (where route_actual = route_expected) as k
                     from marts.fct_layered_measurements
                     where measurement in ('l1', 'total') and route_expected is not null
                       and route_actual is not null group by l1) x
               where a.l1 = x.l1""",
            # R11: one more coder failure than there are failed totals
            """update marts.layered_failure_attribution set n_failures = n_failures + 1
               where blame = 'coder' and l1 = (select min(l1) from marts.layered_failure_attribution)""",
            # R12: a cost row without the date of its price table
            """update marts.fct_costs_repriced set price_table_date = null
               where record_key = (select min(record_key) from marts.fct_costs_repriced where source_family = 'matrix')""",
            # R13: a total that includes unpriced rows claims to be complete
            "update marts.costs_repriced_totals set cost_complete = true where n_unpriced > 0",
            # R14: two non-superseded rate rows in force for one model at the same instant
            """insert into staging.rate_card select * replace ('overlap_plant' as rate_id)
               from staging.rate_card where rate_id = 'axium_2026-08-06_gpt-4.1'""",
        ],
        "expect": ["r08_matrix_evidence_classes_never_pooled", "r10_router_accuracy_from_standalone_l1",
                   "r11_blame_counts_add_up", "r12_cost_rows_have_price_table_date",
                   "r13_totals_with_unpriced_flagged_incomplete", "r14_rate_card_no_overlap"],
    },
    "b": {
        "sql": [
            # R09: a pass-rate row that does not name its evidence class
            """update marts.matrix_pass_rates set evidence_class = null
               where (cell, type, difficulty, evidence_class) = (select (cell, type, difficulty, evidence_class)
                      from marts.matrix_pass_rates order by all limit 1)""",
            # R11: a failed total row without a blame
            """update marts.fct_layered_measurements set blame = null
               where measurement_key = (select min(measurement_key) from marts.fct_layered_measurements
                                        where is_failed_total)""",
            # R12: a rate row without its stamp range
            """update marts.layered_router_accuracy set first_stamp = null
               where l1 = (select min(l1) from marts.layered_router_accuracy)""",
            # R13: an unpriced row reported as free
            """update marts.fct_costs_repriced set cost_usd_repriced = 0
               where record_key = (select min(record_key) from marts.fct_costs_repriced
                                   where unpriced_reason = 'model_not_on_rate_card')""",
            # R14: repricing with the superseded deepseek-v4-pro row
            """update marts.fct_costs_repriced set rate_id = superseded_rate_id
               where record_key = (select min(record_key) from marts.fct_costs_repriced
                                   where repricing_method = 'superseded_rate_correction')""",
        ],
        "expect": ["r09_pass_rate_rows_name_evidence_class", "r11_failed_totals_blamed_once",
                   "r12_rate_rows_have_stamp_range", "r13_unpriced_is_null_never_zero",
                   "r14_no_superseded_rate_used"],
    },
    "c": {
        "sql": [
            # R09: a pooled evidence class
            """update marts.matrix_pass_rates set evidence_class = 'pooled'
               where (cell, type, difficulty, evidence_class) = (select (cell, type, difficulty, evidence_class)
                      from marts.matrix_pass_rates order by all limit 1)""",
            # R14: an off-peak DeepSeek turn priced with a peak row (not in force at its time of day)
            """update marts.fct_costs_repriced set rate_id = replace(replace(rate_id, 'off_peak_1024', 'peak_0104'),
                   'off_peak_0406', 'peak_0104')
               where record_key = (select min(record_key) from marts.fct_costs_repriced
                                   where rate_id like '%off_peak_1024' or rate_id like '%off_peak_0406')""",
            # R14: the same record priced twice
            """insert into marts.fct_costs_repriced select * from marts.fct_costs_repriced
               where record_key = (select min(record_key) from marts.fct_costs_repriced where is_priced)""",
        ],
        "expect": ["r09_pass_rate_evidence_class_is_a_class", "r14_rate_in_force_at_stamp",
                   "r14_one_rate_row_per_record"],
    },
    "d": {
        "sql": [
            # R14: a repriced cost that is not tokens x the row's prices (e.g. the superseded 4x price)
            """update marts.fct_costs_repriced set cost_usd_repriced = cost_usd_repriced * 4
               where record_key = (select min(record_key) from marts.fct_costs_repriced
                                   where repricing_method = 'tokens' and cost_usd_repriced > 0)""",
        ],
        "expect": ["r14_repriced_from_tokens"],
    },
}
ALL_TAMPER_TESTS = sorted({t for g in TAMPER_GROUPS.values() for t in g["expect"]})


def _compiled_tests(target: Path) -> dict[str, str]:
    """test name -> the SQL dbt compiled for it in the clean build (what `dbt test` executes)."""
    data = json.loads((Path(target) / "run_results.json").read_text())
    return {r["unique_id"].split(".")[2]: r["compiled_code"] for r in data["results"]
            if r["unique_id"].startswith("test.") and r.get("compiled_code")}


@pytest.fixture(scope="session")
def tampered(builds, tmp_path_factory):
    """group -> {test name: {status, failures}} on a tampered copy of the clean db.

    Group "a" runs the real `dbt test --select <rule tests>` on its copy (placed at the build's db path,
    so dbt re-uses its parse). The other groups execute the very SQL dbt compiled for those tests in the
    clean build (dbt test = count the rows of that query), which keeps the suite fast; every copy keeps
    the clean file's name so its catalog name matches the compiled SQL.
    """
    clean_db, clean_dir, _, _ = builds["clean"]
    compiled = _compiled_tests(clean_dir)
    out = {}
    for name, group in TAMPER_GROUPS.items():
        if name == "a":
            copy = builds["db"]
        else:
            copy = tmp_path_factory.mktemp(f"matrix_tamper_{name}") / clean_db.name
        shutil.copyfile(clean_db, copy)
        con = duckdb.connect(str(copy))
        try:
            for stmt in group["sql"]:
                con.execute(stmt)
            if name != "a":
                res = {}
                for test in ALL_TAMPER_TESTS:
                    n = con.execute(f"select count(*) from ({compiled[test]}) as dbt_internal_test").fetchall()[0][0]
                    res[test] = {"status": "fail" if n else "pass", "failures": n}
                out[name] = res
        finally:
            con.close()
        if name == "a":
            dbt(["test", "--select", *ALL_TAMPER_TESTS], copy, builds["target"], check=False)
            out[name] = run_results(builds["target"])
    return out


# ---------------------------------------------------------------- clean build


def test_clean_build_passes(clean_build):
    _, _, results, proc = clean_build
    bad = {k: v for k, v in results.items() if v["status"] in ("error", "fail", "skipped")}
    assert not bad, f"{bad}\n{proc.stdout[-4000:]}"
    for name in ALL_TAMPER_TESTS + ["r08_check_kind_mapped"]:
        assert results[name]["status"] == "pass", name


def test_marts_have_rows(clean_build):
    db = clean_build[0]
    for t in ["fct_matrix_turns", "matrix_pass_rates", "fct_layered_measurements", "layered_router_accuracy",
              "layered_layer_costs", "layered_failure_attribution", "fct_costs_repriced", "costs_repriced_totals"]:
        assert query(db, f"select count(*) from marts.{t}")[0][0] > 0, t


@pytest.mark.parametrize("group", sorted(TAMPER_GROUPS))
def test_tampered_copies_fire_their_rule_tests(tampered, group):
    results = tampered[group]
    for name in TAMPER_GROUPS[group]["expect"]:
        assert results[name]["status"] == "fail", (group, name, results[name])
        assert results[name]["failures"] >= 1


# Named negative controls (R08-R14): each asserts its test passes clean and fires on its plant.

def _clean_pass(clean_build, name):
    assert clean_build[2][name]["status"] == "pass", name


def _fires(tampered, name):
    group = next(g for g, v in TAMPER_GROUPS.items() if name in v["expect"])
    assert tampered[group][name]["status"] == "fail", (name, tampered[group][name])


def test_r08_unmapped_check_kind_is_a_finding_and_the_build_goes_on(clean_build, dirty_build):
    _clean_pass(clean_build, "r08_check_kind_mapped")
    db, _, results = dirty_build
    assert results["r08_check_kind_mapped"]["status"] == "warn"
    assert results["r08_check_kind_mapped"]["failures"] == 1          # only the planted 'lint' turn
    (file, line, detail), = query(db, "select source_file, source_line, detail "
                                      "from intermediate.int_dq__matrix_r08_unmapped_check_kind")
    planted = query(db, "select source_file, source_line from intermediate.int_matrix__turns "
                        "where scenario_id = 'S9' and check_kind = 'lint'")
    assert [(file, line)] == planted and "'lint'" in detail and "check_kind_classes.csv" in detail
    # the turn is in no pass rate, and every mart built
    assert results["matrix_pass_rates"]["status"] == "success"
    # the capitalised 'Executed' of the other planted record is mapped after lower-casing
    rows = query(db, "select check_kind, evidence_class from intermediate.int_matrix__turns "
                     "where scenario_id = 'S9' order by turn_index")
    assert rows == [("lint", None), ("executed", "executed")]


def test_r08_staging_flags_not_drops(dirty_build):
    db = dirty_build[0]
    rows = query(db, "select rep, rep_invalid, check_passed, check_passed_invalid, prompt_tokens_invalid, "
                     "turn_type, stamp, stamp_invalid from staging.stg_matrix__turns "
                     "where scenario_id = 'S9' and turn_index = 1")
    assert rows == [(None, True, None, True, True, "coder", None, True)]


def test_dq_warn_tests_fire_on_planted_records(clean_build, dirty_build):
    """Claims of the logs (typing, R12 stamp guards) warn, and their rows are the planted records."""
    for name in DQ_TESTS:
        assert clean_build[2][name]["status"] == "pass", name
        assert dirty_build[2][name]["status"] == "warn", (name, dirty_build[2][name])
        assert dirty_build[2][name]["failures"] >= 1
    db = dirty_build[0]
    r12 = query(db, "select source_family, detail from intermediate.int_dq__matrix_r12_naive_stamps "
                    "union all select source_family, detail from intermediate.int_dq__layered_r12_naive_stamps "
                    "order by 1")
    assert r12 == [("layered", "stamp '2026-08-15 07:00:00' has no UTC offset (read as UTC)"),
                   ("matrix", "stamp 'yesterday' does not parse as a timestamp")]
    typing = query(db, "select detail from intermediate.int_dq__layered_uncastable_values order by 1")
    assert [d for (d,) in typing] == [
        "l1_cost did not cast to a number; typed as NULL",
        "measurement is missing or not one of l1, l2plan, l2conv, l3, total; typed as NULL",
        "passed did not cast to a boolean; typed as NULL"]


def test_foreign_json_in_the_matrix_and_layered_families_is_a_finding_not_a_record(clean_build, dirty_build):
    """Issue 14: `{"a": 1}` under logs/ or logs_layered/ landed as a turn or a measurement. Each is flagged
    in staging, left out past it, and listed with file and line (warn); the build goes on."""
    db, _, results = dirty_build
    for fam, name in (("matrix", "matrix_records_have_the_family_shape"),
                      ("layered", "layered_records_have_the_family_shape")):
        _clean_pass(clean_build, name)
        assert results[name]["status"] == "warn" and results[name]["failures"] == 1, (name, results[name])
        (file, line, detail), = query(db, f"select source_file, source_line, detail "
                                          f"from intermediate.int_dq__{fam}_foreign_records")
        assert line == 3 and "none of the fields" in detail and "--family" in detail
    assert query(db, "select count(*) from intermediate.int_matrix__turns where source_line = 3 and "
                     "source_file like '%dirty/logs/%'") == [(0,)]
    assert query(db, "select count(*) from intermediate.int_layered__measurements where source_file like "
                     "'%pipeline_plants%' and source_line = 3") == [(0,)]
    assert query(db, "select is_foreign_record from staging.stg_layered__measurements where source_file like "
                     "'%pipeline_plants%' and source_line = 3") == [(True,)]      # staging keeps it, flagged
    assert results["matrix_pass_rates"]["status"] == "success"


@pytest.mark.parametrize("name", [
    "r08_matrix_evidence_classes_never_pooled",
    "r09_pass_rate_rows_name_evidence_class", "r09_pass_rate_evidence_class_is_a_class",
    "r10_router_accuracy_from_standalone_l1",       # the plant: a total row leaks into router accuracy
    "r11_failed_totals_blamed_once", "r11_blame_counts_add_up",
])
def test_rule_passes_clean_and_fails_on_its_plant(clean_build, tampered, name):
    _clean_pass(clean_build, name)
    _fires(tampered, name)


def test_r11_every_blame_kind_occurs(clean_build):
    db = clean_build[0]
    rows = dict(query(db, "select blame, sum(n_failures) from marts.layered_failure_attribution group by blame"))
    assert set(rows) == {"router", "planner", "coder", "unattributed"}
    assert all(v > 0 for v in rows.values()), rows


def test_r12_dates_and_stamp_ranges(clean_build, tampered):
    for name in ["r12_cost_rows_have_price_table_date", "r12_rate_rows_have_stamp_range"]:
        _clean_pass(clean_build, name)
        _fires(tampered, name)


def test_r13_unpriced_null_and_incomplete_totals(clean_build, tampered):
    for name in ["r13_unpriced_is_null_never_zero", "r13_totals_with_unpriced_flagged_incomplete"]:
        _clean_pass(clean_build, name)
        _fires(tampered, name)
    db = clean_build[0]
    # the model no card prices: the harness logged 0.0, which means "unknown" (issue 13): the logged cost
    # is NULL (its raw 0.0 kept in cost_usd_logged_raw), repriced and best-known NULL (not 0), total incomplete
    rows = query(db, "select cost_usd_logged_total, cost_usd_repriced_total, cost_complete, n_unpriced, "
                     "cost_usd_best_total, cost_best_complete "
                     "from marts.costs_repriced_totals where source_family = 'matrix' and model = 'acme-chat-1'")
    assert rows and rows[0][0] is None and rows[0][1] is None and rows[0][2] is False and rows[0][3] > 0
    assert rows[0][4] is None and rows[0][5] is False
    raw = query(db, "select min(cost_usd_logged_raw), max(cost_usd_logged_raw), count(cost_usd_logged) "
                    "from marts.fct_costs_repriced where source_family = 'matrix' and model = 'acme-chat-1'")
    assert raw == [(0.0, 0.0, 0)]


def test_r14_repricing_rules(clean_build, tampered):
    for name in ["r14_no_superseded_rate_used", "r14_rate_in_force_at_stamp", "r14_repriced_from_tokens",
                 "r14_one_rate_row_per_record", "r14_rate_card_no_overlap"]:
        _clean_pass(clean_build, name)
        _fires(tampered, name)


def test_r14_superseded_correction_is_exact(clean_build):
    db = clean_build[0]
    rows = query(db, "select cost_usd_logged, cost_usd_repriced, correction_factor, superseded_rate_id, rate_id, "
                     "price_table_date from marts.fct_costs_repriced "
                     "where repricing_method = 'superseded_rate_correction'")
    if not BIG_CLEAN.is_dir():
        pytest.skip("brownfield logs_big fixture not present")
    assert rows, "expected deepseek-v4-pro big runs logged with the superseded row"
    for logged, repriced, factor, sup, rid, ptd in rows:
        assert factor == pytest.approx(0.25, abs=1e-15)
        assert repriced == pytest.approx(logged * 0.25, rel=1e-12)
        assert sup == "orange_2026-07-05_deepseek-v4-pro" and rid == "orange_2026-07-19_deepseek-v4-pro"
        assert str(ptd) == "2026-07-19"


def test_model_aliases_normalise_routes(clean_build):
    db = clean_build[0]
    rows = dict(query(db, "select distinct model_raw, model from marts.fct_costs_repriced"))
    assert rows["bedrock/us.anthropic.claude-sonnet-4-6"] == "claude-sonnet-4-6"
    assert rows["openrouter/openai/gpt-4.1-mini"] == "gpt-4.1-mini"
    assert rows["claude-haiku-4-5-20251001"] == "claude-haiku-4-5"
    assert rows["openrouter/deepseek/deepseek-v4-flash"] == "deepseek-v4-flash"


# ---------------------------------------------------------------- independent Python recomputation


def _parse_ts(s):
    if s is None:
        return None
    try:
        ts = datetime.fromisoformat(str(s).strip())
    except ValueError:
        return None
    return ts.replace(tzinfo=timezone.utc) if ts.tzinfo is None else ts.astimezone(timezone.utc)



def _wilson_at(p, n, crit):
    den = 1 + crit * crit / n
    centre = (p + crit * crit / (2 * n)) / den
    half = crit * math.sqrt(max(0.0, p * (1 - p) / n + crit * crit / (4 * n * n))) / den
    return (0.0 if p <= 0 else max(0.0, centre - half)), (1.0 if p >= 1 else min(1.0, centre + half))


def _clustered_rate_ci(k, n, se, n_clusters):
    """Wilson at the design-effect n (at most n; n at p in {0, 1} or SE = 0) with t(C-1): written out here,
    independently of the SQL macros."""
    from scipy import stats  # noqa: PLC0415

    if n_clusters < 2:
        return None, None
    p = k / n
    n_eff = n if k in (0, n) or se is None or se <= 1e-12 else min(n, p * (1 - p) / se ** 2)
    return _wilson_at(p, n_eff, float(stats.t.ppf(0.975, n_clusters - 1)))


def _cluster_se(clusters):
    """clusters: list of (sum, n). Cluster-robust SE of sum/n with C/(C-1); None when C < 2."""
    c = len(clusters)
    if c < 2:
        return None
    total_n = sum(n for _, n in clusters)
    m = sum(s for s, _ in clusters) / total_n
    return math.sqrt(c / (c - 1) * sum((s - n * m) ** 2 for s, n in clusters)) / total_n


def _read(paths):
    for p in paths:
        for i, line in enumerate(p.read_text().splitlines(), start=1):
            if line.strip():
                yield p, i, json.loads(line)


def _classes():
    with open(SEEDS / "check_kind_classes.csv") as f:
        return {r["check_kind"]: r["evidence_class"] for r in csv.DictReader(f)}


class RateCard:
    def __init__(self):
        with open(SEEDS / "model_aliases.csv") as f:
            rows = list(csv.DictReader(f))
        self.prefixes = sorted((r["pattern"] for r in rows if r["rule_kind"] == "prefix"), key=len, reverse=True)
        self.exact = {r["pattern"]: r["canonical_model"] for r in rows if r["rule_kind"] == "exact"}
        with open(SEEDS / "rate_card.csv") as f:
            self.rows = list(csv.DictReader(f))
        for r in self.rows:
            r["from"] = _parse_ts(r["effective_from"].replace(" ", "T").replace("+00", "+00:00"))
            r["to"] = _parse_ts(r["effective_to"].replace(" ", "T").replace("+00", "+00:00")) if r["effective_to"] else None
            r["t0"] = time.fromisoformat(r["tod_start_utc"]) if r["tod_start_utc"] else None
            r["t1"] = r["tod_end_utc"] or None

    def normalise(self, raw):
        name = raw.strip().lower()
        changed = True
        while changed:
            changed = False
            for p in self.prefixes:
                if name.startswith(p) and len(name) > len(p):
                    name, changed = name[len(p):], True
                    break
        return self.exact.get(name, name)

    def in_force(self, model, ts, superseded=False):
        out = []
        for r in self.rows:
            if r["model"] != model or bool(r["superseded_by"]) != superseded:
                continue
            if not (r["from"] <= ts and (r["to"] is None or ts < r["to"])):
                continue
            if r["t0"] is not None:
                t = ts.time()
                end_ok = True if r["t1"] == "24:00:00" else t < time.fromisoformat(r["t1"])
                if not (t >= r["t0"] and end_ok):
                    continue
            out.append(r)
        assert len(out) <= 1
        return out[0] if out else None

    def price(self, raw, ts, uncached, cache_read, cache_write, output):
        row = self.in_force(self.normalise(raw), ts)
        if row is None:
            return None
        return (uncached * float(row["input_usd_per_mtok"]) + cache_read * float(row["cache_read_usd_per_mtok"])
                + cache_write * float(row["cache_write_usd_per_mtok"]) + output * float(row["output_usd_per_mtok"])) / 1e6


def test_matrix_strata_match_python(clean_build):
    db = clean_build[0]
    classes = _classes()
    strata = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for p, _, r in _read(_jsonl(FIX / "clean" / "logs")):
        key = (p.stem, r["type"], classes[r["check_kind"].strip().lower()], r["difficulty"])
        c = strata[key][r["scenario_id"]]  # the conversation script is the cluster
        c[0] += bool(r["check_passed"])
        c[1] += 1
    mart = {tuple(row[:4]): row[4:] for row in query(
        db, "select cell, type, evidence_class, difficulty, n_turns, n_passed, pass_rate, ci_low, ci_high, "
            "n_clusters, se_clustered from marts.matrix_pass_rates")}
    assert set(mart) == set(strata)
    for key, clusters in strata.items():
        k = sum(s for s, _ in clusters.values())
        n = sum(m for _, m in clusters.values())
        se = _cluster_se(list(clusters.values()))
        lo, hi = _clustered_rate_ci(k, n, se, len(clusters))
        n_m, k_m, rate, lo_m, hi_m, c_m, se_m = mart[key]
        assert (n_m, k_m, c_m) == (n, k, len(clusters)), key
        assert rate == pytest.approx(k / n, abs=1e-9)
        if lo is None:
            assert lo_m is None and hi_m is None, key
        else:
            assert lo_m == pytest.approx(lo, abs=1e-9) and hi_m == pytest.approx(hi, abs=1e-9), key
        if se is None:
            assert se_m is None
        else:
            assert se_m == pytest.approx(se, abs=1e-9), key


def test_router_accuracy_and_attribution_match_python(clean_build):
    db = clean_build[0]
    acc = defaultdict(lambda: [0, 0])
    by_task = defaultdict(lambda: defaultdict(lambda: [0, 0]))  # router -> task -> [correct, routed]
    fails = defaultdict(lambda: defaultdict(int))
    for _, _, r in _read(_jsonl(FIX / "clean" / "logs_layered")):
        if r["measurement"] == "l1" and r.get("route_expected") and r.get("route_actual"):
            acc[r["l1"]][0] += r["route_actual"] == r["route_expected"]
            acc[r["l1"]][1] += 1
            by_task[r["l1"]][r["task_id"]][0] += r["route_actual"] == r["route_expected"]
            by_task[r["l1"]][r["task_id"]][1] += 1
        if r["measurement"] == "total" and r["passed"] is False:
            note = (r.get("note") or "").lower()
            graded = r.get("route_expected") and r.get("route_actual")
            if graded and r["route_actual"] != r["route_expected"]:
                blame = "router"
            elif "planner" in note and ("coder" not in note or note.index("planner") < note.index("coder")):
                blame = "planner"
            elif "coder" in note:
                blame = "coder"
            else:
                blame = "unattributed"
            fails[r["l1"]][blame] += 1
    mart = {row[0]: row[1:] for row in query(
        db, "select l1, n_routed, n_correct, accuracy, ci_low, ci_high from marts.layered_router_accuracy")}
    assert set(mart) == set(acc)
    for l1, (k, n) in acc.items():
        clusters = list(by_task[l1].values())  # a router is asked about one task several times: the task is the cluster
        lo, hi = _clustered_rate_ci(k, n, _cluster_se(clusters), len(clusters))
        assert mart[l1][:2] == (n, k)
        assert mart[l1][2] == pytest.approx(k / n, abs=1e-9)
        assert mart[l1][3] == pytest.approx(lo, abs=1e-9) and mart[l1][4] == pytest.approx(hi, abs=1e-9)
    got = {(a, b): c for a, b, c in query(db, "select l1, blame, n_failures from marts.layered_failure_attribution")}
    for l1, blames in fails.items():
        for blame in ("router", "planner", "coder", "unattributed"):
            assert got[(l1, blame)] == blames.get(blame, 0), (l1, blame)


def test_repriced_sums_match_python(clean_build):
    db = clean_build[0]
    card = RateCard()
    expected = defaultdict(lambda: [0.0, 0, 0])   # (family, model) -> [repriced sum, n priced, n unpriced]

    def add(family, raw, stamp, uncached, cached, cache_write, output):
        model = card.normalise(raw)
        cost = card.price(raw, _parse_ts(stamp), uncached, cached, cache_write, output)
        e = expected[(family, model)]
        if cost is None:
            e[2] += 1
        else:
            e[0] += cost
            e[1] += 1

    for p, _, r in _read(_jsonl(FIX / "clean" / "logs")):
        chat, coder = p.stem.split("__")
        chat, coder = r.get("chat_model", chat), r.get("coder_model", coder)
        raw = r.get("model") or (chat if r["type"] == "chat" else coder)
        add("matrix", raw, r["stamp"], max(0, r["prompt_tokens"] - r["cached_tokens"]), r["cached_tokens"], 0,
            r["completion_tokens"])
    layer_model = {"l1": "l1", "l2plan": "l2", "l2conv": "l2", "l3": "l3"}
    for _, _, r in _read(_jsonl(FIX / "clean" / "logs_layered")):
        if r["measurement"] in layer_model and "prompt_tokens" in r:
            add("layered", r[layer_model[r["measurement"]]], r["stamp"],
                max(0, r["prompt_tokens"] - r["cached_tokens"]), r["cached_tokens"], 0, r["completion_tokens"])
    mart = {(f, m): (s, p, u) for f, m, s, p, u in query(
        db, "select source_family, model, cost_usd_repriced_total, n_priced, n_unpriced "
            "from marts.costs_repriced_totals where source_family in ('matrix', 'layered')")}
    assert set(mart) == set(expected)
    for key, (s, p, u) in expected.items():
        ms, mp, mu = mart[key]
        assert (mp, mu) == (p, u), key
        if p == 0:
            assert ms is None, key                   # unpriced: NULL, never 0
        else:
            assert ms == pytest.approx(s, abs=1e-9), key


def test_big_correction_sum_matches_python(clean_build):
    if not BIG_CLEAN.is_dir():
        pytest.skip("brownfield logs_big fixture not present")
    db = clean_build[0]
    card = RateCard()
    total, n = 0.0, 0
    for _, _, r in _read(_jsonl(BIG_CLEAN)):
        if "model" not in r or "cost" not in r or r.get("cost") is None:
            continue
        ts = _parse_ts(r.get("stamp"))
        model = card.normalise(r["model"])
        sup = card.in_force(model, ts, superseded=True) if ts else None
        if sup is None:
            continue
        fixed = next(x for x in card.rows if x["rate_id"] == sup["superseded_by"])
        total += r["cost"] * float(fixed["input_usd_per_mtok"]) / float(sup["input_usd_per_mtok"])
        n += 1
    got = query(db, "select count(*), sum(cost_usd_repriced) from marts.fct_costs_repriced "
                    "where source_family = 'big' and repricing_method = 'superseded_rate_correction'")[0]
    assert n > 0
    assert got[0] == n
    assert got[1] == pytest.approx(total, abs=1e-9)
