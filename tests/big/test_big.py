"""Brownfield `logs_big` family: staging, marts, rules R01-R07 / R12 / R26 with negative controls.

Three dbt runs for the whole module (session-scoped):
- clean:    fixtures/brownfield/clean/logs_big  -> dbt build of the big family + data_quality_findings;
- dirty:    clean + fixtures/brownfield/dirty/logs_big (one planted violation per record) -> dbt build;
- tampered: a copy of the clean database whose marts are tampered (one plant per rule, each in a
            different relation) -> dbt test of the rule tests on evalhouse's own computation.
Every rule test must pass on clean and fire on its plant.
"""
from __future__ import annotations

import json
import math
import shutil
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

import duckdb
import pytest
from big_land import land
from helpers import FIXTURES, dbt, fresh_db, query, run_results

CLEAN = FIXTURES / "brownfield" / "clean" / "logs_big"
DIRTY = FIXTURES / "brownfield" / "dirty" / "logs_big"

# models: the big marts, data_quality_findings and everything upstream of them; tests: only the big
# family's own (dbt tests and unit tests of other families are left to their own suites)
BIG_SELECT = [
    "+data_quality_findings,resource_type:model", "+data_quality_findings,resource_type:seed", "+fct_big_runs", "+big_rates", "+big_awareness_rates",
    "+big_ablation_pairs", "path:models/staging/big", "path:models/staging/raw", "path:models/intermediate/big",
    "path:models/intermediate/raw/_int_raw__models.yml", "path:models/marts/big",
    "path:models/marts/_marts__models.yml",
    *[f"path:tests/dbt/{t}.sql" for t in (
        "r01_big_change_not_a_pass_rate", "r02_big_change_and_regress_never_combined", "r03_big_kinds_never_pooled",
        "r06_big_done_but_broke_surfaced", "r07_big_ablations_paired")],
]
# tests on what evalhouse computes (severity error): planted by tampering with the marts
COMPUTE_TESTS = [
    "r01_big_change_not_a_pass_rate", "r02_big_change_and_regress_never_combined",
    "r03_big_kinds_never_pooled", "r06_big_done_but_broke_surfaced", "r07_big_ablations_paired",
    "r26_fct_big_runs_has_provenance",
]
# tests on what the logs claim (severity warn): planted in fixtures/brownfield/dirty
CLAIM_TESTS = {
    "r03_kind_matches_id_prefix": ("R03", [4]),
    "r04_change_matches_change_detail": ("R04", [1]),
    "r05_regress_matches_regress_misses": ("R05", [2, 3]),
    "r12_big_stamps_are_known_instants": ("R12", [5]),
}


def _tamper(db: Path) -> None:
    con = duckdb.connect(str(db))
    try:
        # R01: a big mart column named as a pass rate
        con.execute("create table marts.big_tamper_r01 as select 0.5 as pass_rate")
        # R02: a combined change+regress score (next to its assertion count, so only R02 is hit)
        con.execute("create table marts.big_tamper_r02 as select 3 as change_assertions_total, "
                    "0.5 as change_regress_score")
        # R03: awareness rows presented as fix rows (pooled into the fix strata)
        con.execute("update marts.big_awareness_rates set kind = 'fix'")
        # R06: done-but-broke runs averaged away (flag cleared)
        con.execute("update marts.fct_big_runs set done_but_broke = false where done_but_broke")
        # R07: ablation differences that are not the paired differences
        con.execute("update marts.big_ablation_pairs set change_diff_mean = change_diff_mean + 0.1")
        # R26: a fact row that lost its source file
        con.execute("update marts.fct_big_runs set source_file = null where source_line = 1")
    finally:
        con.close()


@pytest.fixture(scope="session")
def big_runs(tmp_path_factory):
    """clean build, dirty build, tampered test run: one after the other on the SAME database path
    and target dir (the files are moved aside in between), so dbt parses the project only once."""
    tmp = tmp_path_factory.mktemp("big")
    wh, target = tmp / "wh.duckdb", tmp / "target"
    build = ["build", "--select", *BIG_SELECT, "--indirect-selection", "empty"]
    out = {}
    # clean
    land(fresh_db(wh), [CLEAN])
    dbt(build, wh, target, check=False)
    out["clean"] = (wh.rename(tmp / "clean.duckdb"), run_results(target))
    # dirty: clean + planted records
    land(fresh_db(wh), [CLEAN, DIRTY])
    dbt(build, wh, target, check=False)
    out["dirty"] = (wh.rename(tmp / "dirty.duckdb"), run_results(target))
    # tampered: a copy of the clean build with one plant per computed rule
    shutil.copy(out["clean"][0], wh)
    _tamper(wh)
    dbt(["test", "--select", *COMPUTE_TESTS], wh, target, check=False)
    out["tampered"] = (wh.rename(tmp / "tampered.duckdb"), run_results(target))
    return out


@pytest.fixture(scope="session")
def clean(big_runs):
    return big_runs["clean"]


@pytest.fixture(scope="session")
def dirty(big_runs):
    return big_runs["dirty"]


@pytest.fixture(scope="session")
def tampered(big_runs):
    return big_runs["tampered"]


def _status(results, name):
    assert name in results, f"{name} did not run; ran: {sorted(results)}"
    return results[name]


def _assert_clean_pass(clean, name):
    r = _status(clean[1], name)
    assert r["status"] == "pass", (name, r)


# ----------------------------------------------------------------------------------------------
# the clean fixture builds and passes every big test
# ----------------------------------------------------------------------------------------------

def test_clean_build_passes_every_big_node(clean):
    db, results = clean
    mine = {k: v for k, v in results.items()
            if any(s in k for s in ("big", "awareness", "data_quality_findings", "r01_", "r02_", "r03_",
                                    "r04_", "r05_", "r06_", "r07_", "r12_big", "r26_fct_big", "load_no_quar",
                                    "stg_raw__"))}
    assert len(mine) > 30
    bad = {k: v for k, v in mine.items() if v["status"] not in ("pass", "success")}
    assert not bad, bad
    assert query(db, "select count(*) from marts.data_quality_findings")[0][0] == 0


# ----------------------------------------------------------------------------------------------
# negative controls: tests of what evalhouse computes (error)
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,expected_failures", [
    ("r01_big_change_not_a_pass_rate", 1),
    ("r02_big_change_and_regress_never_combined", 1),
])
def test_r01_r02_catalog_tests_fire_on_planted_columns(clean, tampered, name, expected_failures):
    _assert_clean_pass(clean, name)
    r = _status(tampered[1], name)
    assert r["status"] == "fail" and r["failures"] == expected_failures, r


def test_r01_no_pass_rate_column_in_big_marts(clean):
    cols = query(clean[0], "select table_name, column_name from information_schema.columns "
                           "where table_schema = 'marts' and (table_name like '%big%' or table_name like 'awareness%')")
    assert cols
    assert not [c for c in cols if "pass_rate" in c[1]]
    tables = {t for t, _ in cols}
    for t in tables:
        names = {c for tt, c in cols if tt == t}
        if any(c.startswith("change") for c in names):
            assert "change_assertions_total" in names, t


# rule tests of evalhouse's own computation that _tamper's plants make fail: (test, the rows of the clean build
# its plant breaks, how many failures that makes: "==" exactly those rows, ">=" at least those)
FIRES_ON = [
    ("r03_big_kinds_never_pooled", "select count(*) from marts.big_awareness_rates", "=="),
    ("r06_big_done_but_broke_surfaced", "select count(*) from marts.fct_big_runs where done_but_broke", ">="),
    ("r07_big_ablations_paired",
     "select count(*) from marts.big_ablation_pairs where change_diff_mean is not null", "=="),
    ("r26_fct_big_runs_has_provenance",     # the first line of each of the clean fixture's two files
     "select count(*) from marts.fct_big_runs where source_line = 1 having count(*) = 2", "=="),
]


@pytest.mark.parametrize("name, planted_rows, op", FIRES_ON, ids=[f[0] for f in FIRES_ON])
def test_rule_passes_clean_and_fails_on_its_plants(clean, tampered, name, planted_rows, op):
    _assert_clean_pass(clean, name)
    (n,), = query(clean[0], planted_rows) or [(0,)]
    assert n > 0, f"the clean build has no row (or not the expected rows) for {name}'s plant to break"
    r = _status(tampered[1], name)
    assert r["status"] == "fail" and (r["failures"] == n if op == "==" else r["failures"] >= n), (n, r)


# ----------------------------------------------------------------------------------------------
# negative controls: tests of what the logs claim (warn) + data_quality_findings
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(CLAIM_TESTS))
def test_r03_r04_r05_r12_claim_tests_warn_on_planted_records(clean, dirty, name):
    _assert_clean_pass(clean, name)
    rule, lines = CLAIM_TESTS[name]
    r = _status(dirty[1], name)
    assert r["status"] == "warn" and r["failures"] == len(lines), r
    rows = query(dirty[0], "select source_file, source_line from marts.data_quality_findings where rule_id = ? "
                           "order by source_line", [rule])
    assert [ln for _, ln in rows] == lines
    assert all(f.endswith("dirty/logs_big/planted.jsonl") for f, _ in rows)


def test_r04_finding_names_the_disagreeing_counts(dirty):
    (detail,), = query(dirty[0], "select detail from marts.data_quality_findings where rule_id = 'R04'")
    assert "2/3" in detail and "change = 1.0" in detail


def test_uncastable_values_are_kept_null_and_flagged(clean, dirty):
    _assert_clean_pass(clean, "big_values_cast_cleanly")
    r = _status(dirty[1], "big_values_cast_cleanly")
    assert r["status"] == "warn" and r["failures"] == 3, r       # change, calls (line 6) + NaN repair (line 7)
    rows = query(dirty[0], "select change, calls, scenario_id from marts.fct_big_runs "
                           "where source_file like '%planted.jsonl' and source_line = 6")
    assert rows == [(None, None, "R2")]                           # the run is kept, its bad values NULL
    (regress, rep), = query(dirty[0], "select regress, is_repaired from marts.fct_big_runs "
                                      "where source_file like '%planted.jsonl' and source_line = 7")
    assert regress is None and rep is True
    found = query(dirty[0], "select rule_id, source_line, detail from marts.data_quality_findings "
                            "where rule_id in ('TYPE', 'LOAD') order by source_line, detail")
    assert [(r_, ln) for r_, ln, _ in found] == [("TYPE", 6), ("TYPE", 6), ("LOAD", 7), ("LOAD", 8), ("LOAD", 9)]
    assert "nonfinite: $.regress" in found[2][2]


def test_foreign_json_is_a_finding_not_a_run(clean, dirty):
    """Issue 14: `{"a": 1}` under logs_big/ landed as a brownfield run. It is flagged in staging, left out of
    every model past it, and listed with its file and line; the build goes on."""
    _assert_clean_pass(clean, "big_records_have_the_family_shape")
    r = _status(dirty[1], "big_records_have_the_family_shape")
    assert r["status"] == "warn" and r["failures"] == 1, r
    (line, detail), = query(dirty[0], "select source_line, detail from intermediate.int_dq__big_foreign_records")
    assert line == 9 and "none of the fields" in detail
    assert query(dirty[0], "select count(*) from marts.fct_big_runs where source_file like '%planted.jsonl' "
                           "and source_line = 9") == [(0,)]
    assert query(dirty[0], "select is_foreign_record from staging.stg_big__runs where source_file like "
                           "'%planted.jsonl' and source_line = 9") == [(True,)]      # staging keeps it, flagged


def test_quarantined_line_lands_in_findings(clean, dirty):
    _assert_clean_pass(clean, "load_no_quarantined_lines")
    r = _status(dirty[1], "load_no_quarantined_lines")
    assert r["status"] == "warn" and r["failures"] == 1, r


# ----------------------------------------------------------------------------------------------
# marts vs an independent Python computation from the fixture logs
# ----------------------------------------------------------------------------------------------

def _fixture_runs():
    runs = []
    for f in sorted(CLEAN.glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            kind = r["kind"].strip().lower()
            kind = "awareness" if kind in ("aware", "awareness") else kind
            runs.append({
                "scenario": r["id"], "kind": kind, "model": r["model"],
                "with_brain": r.get("with_brain"), "with_plan": r.get("with_plan"),
                "change": r["change"], "regress": r["regress"], "n_assert": len(r["change_detail"]),
                "n_assert_passed": sum(1 for e in r["change_detail"] if isinstance(e, list) and e[1:] == [True]),
                "stamp": datetime.fromisoformat(r["stamp"]).astimezone(timezone.utc),
                "calls": r.get("calls", r.get("metrics", {}).get("llm_calls")),
            })
    return runs


def _cluster_mean_se(obs):
    """obs: list of (cluster, x). Mean and cluster-robust SE (C/(C-1)), None when C < 2."""
    obs = [(c, x) for c, x in obs if x is not None]
    if not obs:
        return None, None
    n = len(obs)
    mean = sum(x for _, x in obs) / n
    sums = defaultdict(float)
    for c, x in obs:
        sums[c] += x - mean
    C = len(sums)
    if C < 2:
        return mean, None
    return mean, math.sqrt(C / (C - 1) * sum(s * s for s in sums.values())) / n


def _clip(x, lo=0.0, hi=1.0):
    return None if x is None else min(hi, max(lo, x))


def _wilson(p, n, crit):
    d = 1 + crit * crit / n
    c, h = (p + crit * crit / (2 * n)) / d, crit / d * math.sqrt(max(0.0, p * (1 - p) / n + crit * crit / (4 * n * n)))
    return (0.0 if p <= 0 else max(0.0, c - h)), (1.0 if p >= 1 else min(1.0, c + h))


def _interval(mean, se, n_clusters, n_obs, lo=0.0, hi=1.0, binary=False):
    """The contract's clustered interval, written out independently of the SQL and of the stats oracle:
    t(C-1); a unit-range mean of 0/1 values (binary), or of shares of n_obs assertions, is a clustered rate: Wilson at
    the design-effect n (at most n); the angular scale for another unit-range mean with C >= 4; Wilson at n when SE = 0; NULL
    below 2."""
    from scipy import stats  # noqa: PLC0415

    if mean is None or se is None or n_clusters < 2:
        return None, None
    t = float(stats.t.ppf(0.975, n_clusters - 1))
    if binary and (lo, hi) == (0.0, 1.0):
        n_eff = n_obs if mean in (0.0, 1.0) or se <= 1e-12 else min(n_obs, mean * (1 - mean) / se ** 2)
        return _wilson(mean, n_eff, t)
    if se <= 1e-12:
        wl, wh = _wilson((mean - lo) / (hi - lo), n_obs, t)
        return lo + (hi - lo) * wl, lo + (hi - lo) * wh
    if (lo, hi) == (0.0, 1.0) and 0 < mean < 1 and n_clusters >= 4:
        a, sa = math.asin(math.sqrt(mean)), se / (2 * math.sqrt(mean * (1 - mean)))
        return math.sin(max(0.0, a - t * sa)) ** 2, math.sin(min(math.pi / 2, a + t * sa)) ** 2
    return _clip(mean - t * se, lo, hi), _clip(mean + t * se, lo, hi)


def _close(a, b, tol=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol


def test_marts_match_independent_python_computation(clean):
    db = clean[0]
    runs = _fixture_runs()
    strata = defaultdict(list)
    for r in runs:
        strata[(r["kind"], r["model"], r["with_brain"], r["with_plan"])].append(r)
    cols = ("kind, model, with_brain, with_plan, n_runs, n_scenarios, change_assertions_total, change_mean, "
            "change_ci_low, change_ci_high, regress_mean, regress_ci_low, regress_ci_high, n_done_but_broke, "
            "first_stamp, last_stamp")
    got = {}
    for mart in ("big_rates", "big_awareness_rates"):
        for row in query(db, f"select {cols} from marts.{mart}"):
            got[row[:4]] = (mart, row)
    expected_keys = {k for k in strata if k[0] in ("fix", "refactor", "awareness")}
    assert set(got) == expected_keys
    n_binary = n_itemised = 0
    for key, rs in strata.items():
        if key not in expected_keys:
            continue
        mart, row = got[key]
        assert mart == ("big_awareness_rates" if key[0] == "awareness" else "big_rates")
        cm, cse = _cluster_mean_se([(r["scenario"], r["change"]) for r in rs])
        rm, rse = _cluster_mean_se([(r["scenario"], r["regress"]) for r in rs])
        c_clusters = len({r["scenario"] for r in rs if r["change"] is not None})
        r_clusters = len({r["scenario"] for r in rs if r["regress"] is not None})
        changes = [r["change"] for r in rs if r["change"] is not None]
        regresses = [r["regress"] for r in rs if r["regress"] is not None]
        # change that is the pass share of each run's assertions (within R04's 0.005): a rate over the assertions
        shares = [r for r in rs if r["change"] is not None]
        itemised = bool(shares) and all(r["n_assert"] and abs(r["change"] - r["n_assert_passed"] / r["n_assert"]) <= 0.005
                                        for r in shares)
        n_itemised += itemised and cse is not None and any(x not in (0, 1) for x in changes)
        c_iv = _interval(cm, cse, c_clusters, sum(r["n_assert"] for r in shares) if itemised else len(changes),
                         binary=itemised or all(x in (0, 1) for x in changes))
        r_iv = _interval(rm, rse, r_clusters, len(regresses), binary=all(x in (0, 1) for x in regresses))
        n_binary += bool(changes) and all(x in (0, 1) for x in changes) and 0 < cm < 1 and cse is not None
        exp = [
            len(rs), len({r["scenario"] for r in rs}), sum(r["n_assert"] for r in rs),
            cm, c_iv[0], c_iv[1],
            rm, r_iv[0], r_iv[1],
            sum(1 for r in rs if r["change"] == 1.0 and r["regress"] is not None and r["regress"] < 1.0),
        ]
        for i, e in enumerate(exp):
            assert _close(row[4 + i], e) if isinstance(e, float) or e is None else row[4 + i] == e, (key, i, row, exp)
        assert row[14] == min(r["stamp"] for r in rs) and row[15] == max(r["stamp"] for r in rs)
    assert sum(row[13] for _, row in got.values()) > 0     # the fixture does contain done-but-broke runs
    assert n_binary > 0  # and a stratum of pass/fail changes, whose mean takes the clustered rate's interval
    assert n_itemised > 0  # and strata of assertion shares, whose mean takes the rate over their assertions
    # every fixture run is one fct_big_runs row with its done-but-broke flag
    n_dbb = sum(1 for r in runs if r["change"] == 1.0 and r["regress"] is not None and r["regress"] < 1.0)
    assert query(db, "select count(*), count(case when done_but_broke then 1 end) from marts.fct_big_runs") \
        == [(len(runs), n_dbb)]


def test_ablation_pairs_match_independent_python_computation(clean):
    db = clean[0]
    runs = [r for r in _fixture_runs() if r["with_brain"] is not None and r["with_plan"] is not None]
    checked = 0
    for ablation, other in (("with_brain", "with_plan"), ("with_plan", "with_brain")):
        arms = defaultdict(list)
        for r in runs:
            arms[(r["kind"], r["model"], r[other], r["scenario"], r[ablation])].append(r)
        groups = defaultdict(list)
        for (kind, model, oth, scen, arm), rs in arms.items():
            if arm and (kind, model, oth, scen, False) in arms:
                off = arms[(kind, model, oth, scen, False)]
                avg = lambda xs, f: sum(x[f] for x in xs) / len(xs)  # noqa: E731
                groups[(kind, model, oth)].append(
                    (scen, avg(rs, "change") - avg(off, "change"), avg(rs, "change"), avg(off, "change")))
        rows = query(db, f"select kind, model, {other}, n_pairs, change_diff_mean, change_diff_se, "
                         "change_diff_ci_low, change_diff_ci_high, change_mean_on, change_mean_off, change_arm_corr "
                         "from marts.big_ablation_pairs where ablation = ?", [ablation])
        assert {r[:3] for r in rows} == set(groups)
        for row in rows:
            pairs = groups[row[:3]]
            mean, se = _cluster_mean_se([(s, d) for s, d, _, _ in pairs])
            assert row[3] == len(pairs)
            assert _close(row[4], mean) and _close(row[5], se)
            if se is not None:
                lo, hi = _interval(mean, se, len({p[0] for p in pairs}), len(pairs), -1.0, 1.0)
                assert _close(row[6], lo) and _close(row[7], hi)
            assert _close(row[8], sum(p[2] for p in pairs) / len(pairs))
            assert _close(row[9], sum(p[3] for p in pairs) / len(pairs))
            if len(pairs) < 3:
                assert row[10] is None  # a correlation of 2 points is +-1 by construction
            elif row[10] is not None:
                xs, ys = [p[2] for p in pairs], [p[3] for p in pairs]
                mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
                cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
                corr = cov / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))
                assert _close(row[10], corr, 1e-9)
            checked += 1
    assert checked >= 4


def test_staging_types_kinds_stamps_and_axium_records(clean):
    db = clean[0]
    kinds = dict(query(db, "select kind_raw, any_value(kind) from staging.stg_big__runs group by kind_raw"))
    assert kinds["aware"] == "awareness" and kinds["awareness"] == "awareness" and kinds["behaviour"] == "behaviour"
    # a +03:00 stamp is converted to UTC
    (stamp,), = query(db, "select stamp from staging.stg_big__runs where stamp_raw like '%+03:00' limit 1")
    raw, = query(db, "select stamp_raw from staging.stg_big__runs where stamp_raw like '%+03:00' limit 1")[0]
    assert stamp == datetime.fromisoformat(raw).astimezone(timezone.utc)
    # axium bench records: calls <- metrics.llm_calls, cost <- metrics.cost_usd, switches NULL
    ax = query(db, "select calls, cost_usd_logged, with_brain, record_format from staging.stg_big__runs "
                   "where source_file like '%axium_bench_sample.jsonl' and source_line = 1")
    assert ax == [(8, 0.002093, None, "axium")]
    # change_detail unnests to one row per assertion with 1-based positions
    n_assert = sum(r["n_assert"] for r in _fixture_runs())
    assert query(db, "select count(*), min(assertion_position) from staging.stg_big__change_assertions") \
        == [(n_assert, 1)]


# ----------------------------------------------------------------------------------------------
# sample-log generator
# ----------------------------------------------------------------------------------------------

def test_sample_generator_is_deterministic_and_has_the_edge_cases(tmp_path):
    from evalhouse.samples import big, write_sample_logs

    out = write_sample_logs(tmp_path / "a")
    again = big.write(tmp_path / "b")
    assert [p.read_bytes() for p in out["big"]] == [p.read_bytes() for p in again]
    assert set(out) == {"big", "matrix", "layered"}
    rows = [json.loads(line) for p in out["big"] for line in p.read_text().splitlines()]
    assert len(rows) == big.design_size()
    kinds = {r["kind"] for r in rows}
    assert {"aware", "awareness", "Fix", "fix", "refactor"} <= kinds
    assert all(r["regress"] is None for r in rows if r["kind"] in ("aware", "awareness"))
    assert any(r["change"] == 1.0 and r["regress"] is not None and r["regress"] < 1.0 for r in rows)
    models = {r["model"] for r in rows}
    assert {"acme/coder-ft-7b", "openrouter/deepseek-v4-flash", "deepseek-v4-pro"} <= models
    naive = [r for r in rows if not r["stamp"].endswith(("Z", "+00:00", "+03:00"))]
    assert 0 < len(naive) < len(rows) // 20
    assert any(r["stamp"].endswith("+03:00") for r in rows)
    # deepseek-v4-pro runs before the 2026-07-19 correction were priced 4x the corrected row
    pro = [r for r in rows if r["model"] == "deepseek-v4-pro"]
    def utc(s):
        d = datetime.fromisoformat(s.replace("Z", "+00:00"))
        return d if d.tzinfo else d.replace(tzinfo=timezone.utc)
    early = [r for r in pro if utc(r["stamp"]) < datetime(2026, 7, 19, tzinfo=timezone.utc)]
    assert 0 < len(early) < len(pro)
    # ablation cells on the same scenarios, with replicates
    cells = defaultdict(int)
    for r in rows:
        cells[(r["id"], r["model"], r["with_brain"], r["with_plan"])] += 1
    assert min(cells.values()) >= 2 and len({k[2:] for k in cells}) == 4
    # n = number of records
    assert sum(len(p.read_text().splitlines()) for p in big.write(tmp_path / "c", n=123)) == 123
