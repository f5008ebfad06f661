"""The sections that span families: the warehouse at a glance, cost against quality, what the logs got
wrong (data-quality findings by rule) and the admissibility checks the last build ran."""
from __future__ import annotations

import json
from pathlib import Path

from .figures import CostPanel, bars, cost_quality
from .content import Figure, Section, Table, Warehouse
from .numbers import Interval, Num

RULE_INDEX = Path(__file__).with_name("admissibility_rules.json")
FACTS = [("brownfield", "marts.fct_big_runs", "runs"), ("matrix", "marts.fct_matrix_turns", "turns"),
         ("layered", "marts.fct_layered_measurements", "measurements"),
         ("coder_eval", "marts.fct_coder_eval_replicates", "replicates")]


def overview(wh: Warehouse) -> Section:
    sec = Section("overview", "The warehouse at a glance",
                  "What this report was made from. Every number below names the mart row it comes from "
                  "(numbers.json beside this page).")
    rows = []
    for family, mart, unit in FACTS:
        if wh.has(mart):
            rows.append([family, mart, wh.aggregate(mart, "count(*)", "", "int"), unit,
                         wh.aggregate(mart, "count(DISTINCT source_file)", "", "int")])
        else:
            sec.absent.append(f"{family}: {mart} not built")
    if rows:
        sec.tables.append(Table("families", "Families and their fact marts",
                                ["family", "fact mart", "rows", "unit", "source files"], rows))
    if wh.has("raw.loads") and wh.count("raw.loads"):
        sec.tables.append(Table("loads", "Loads behind the warehouse", ["loads", "records landed", "lines quarantined",
                                                                        "first load", "last load"],
                                [[wh.aggregate("raw.loads", "count(*)", "", "int"),
                                  wh.aggregate("raw.loads", "sum(records_landed)", "", "int"),
                                  wh.aggregate("raw.loads", "sum(lines_quarantined)", "", "int"),
                                  wh.aggregate("raw.loads", "min(started_at)", "", "stamp"),
                                  wh.aggregate("raw.loads", "max(finished_at)", "", "stamp")]]))
    return sec


def _cost_quality(wh: Warehouse) -> Figure | None:
    mart = "marts.cost_quality_frontier"
    if not wh.has(mart) or not wh.count(mart):
        return None
    cols = ["source_family", "stratum", "arm", "model", "n_units", "n_clusters", "success_rate", "success_rate_ci_low",
            "success_rate_ci_high", "cost_usd_mean", "cost_usd_mean_ci_low", "cost_usd_mean_ci_high",
            "cost_per_success", "cost_per_success_ci_low", "cost_per_success_ci_high", "cost_complete",
            "n_cost_estimates", "is_dominated", "dominated_by", "rate_row_first_date", "rate_row_last_date"]
    rows = wh.rows(mart, cols, order=["source_family", "stratum", "arm"])
    key = ("source_family", "stratum", "arm")

    def n(r, c, k):
        return Num(mart, c, tuple((x, r[x]) for x in key), r[c], k)

    def status(r) -> str:
        if r["is_dominated"] is None:
            return "not judged"
        return "dominated" if r["is_dominated"] else "frontier"

    table = Table("cost_quality_frontier", "Cost against quality per arm of each comparable stratum",
                  ["source_family", "stratum", "arm", "success rate [95% CI]", "n units", "C",
                   "mean cost per unit, USD [95% CI]", "cost per success, USD [95% CI]", "cost complete",
                   "frontier", "dominated by"],
                  [[n(r, "source_family", "text"), n(r, "stratum", "text"), n(r, "arm", "text"),
                    Interval(n(r, "success_rate", "rate"), n(r, "success_rate_ci_low", "rate"),
                             n(r, "success_rate_ci_high", "rate")),
                    n(r, "n_units", "int"), n(r, "n_clusters", "int"),
                    Interval(n(r, "cost_usd_mean", "usd"), n(r, "cost_usd_mean_ci_low", "usd"),
                             n(r, "cost_usd_mean_ci_high", "usd")),
                    Interval(n(r, "cost_per_success", "usd"), n(r, "cost_per_success_ci_low", "usd"),
                             n(r, "cost_per_success_ci_high", "usd")),
                    n(r, "cost_complete", "text"), status(r), n(r, "dominated_by", "text")] for r in rows])
    caption = ["Each arm's success rate (95% Wilson at the design-effect n, t(C-1)) against its mean best-known "
               "cost per unit (95% CR1 t(C-1) interval), mart ", mart, ": ",
               wh.aggregate(mart, "count(*)", "", "int"), " arms, ",
               wh.aggregate(mart, "sum(n_units)", "", "int"), " units; stamps ",
               wh.aggregate(mart, "min(first_stamp)", "", "stamp"), " to ",
               wh.aggregate(mart, "max(last_stamp)", "", "stamp"), ". Costs are repriced against the rate card "
               "rows dated ", wh.aggregate(mart, "min(rate_row_first_date)", "", "stamp"), " to ",
               wh.aggregate(mart, "max(rate_row_last_date)", "", "stamp"),
               ". Unit of clustering: the family's (scenario, task, script). Filled: on the frontier (no rival "
               "is cheaper and better beyond both intervals); hollow: dominated; grey: not judged (cost "
               "incomplete or an estimate). Strata are compared only within themselves."]
    families = sorted({r["source_family"] for r in rows})

    def draw():
        panels = []
        for fam in families:
            sub = [r for r in rows if r["source_family"] == fam]
            panels.append(CostPanel(fam, [r["cost_usd_mean"] for r in sub], [r["cost_usd_mean_ci_low"] for r in sub],
                                      [r["cost_usd_mean_ci_high"] for r in sub], [r["success_rate"] for r in sub],
                                      [r["success_rate_ci_low"] for r in sub], [r["success_rate_ci_high"] for r in sub],
                                      [status(r) for r in sub]))
        return cost_quality(panels)

    return Figure("cost_quality", "Cost against quality, with the frontier", caption, draw, table)


def cost(wh: Warehouse) -> Section:
    sec = Section("cost", "Cost", "Costs are repriced from token counts against the dated rate card "
                  "(seeds/rate_card.csv); the cost to quote is the best-known one (cost_usd_best).")
    fig = _cost_quality(wh)
    if fig is not None:
        sec.figures.append(fig)
    else:
        sec.absent.append("marts.cost_quality_frontier: no rows")
    mart = "marts.costs_repriced_totals"
    if wh.has(mart) and wh.count(mart):
        rows = wh.rows(mart, ["source_family", "model", "n_records", "n_unpriced", "cost_usd_best_total",
                              "cost_best_complete", "cost_usd_logged_total", "price_table_first_date",
                              "price_table_last_date", "first_stamp", "last_stamp"], order=["source_family", "model"])

        def n(r, c, k):
            return Num(mart, c, (("source_family", r["source_family"]), ("model", r["model"])), r[c], k)

        sec.tables.append(Table(
            "costs_repriced_totals", "Best-known cost per family and model, with the price table's dates",
            ["source_family", "model", "records", "unpriced", "best-known cost, USD", "complete", "logged cost, USD",
             "price table from", "price table to", "first stamp", "last stamp"],
            [[n(r, "source_family", "text"), n(r, "model", "text"), n(r, "n_records", "int"),
              n(r, "n_unpriced", "int"), n(r, "cost_usd_best_total", "usd"), n(r, "cost_best_complete", "text"),
              n(r, "cost_usd_logged_total", "usd"), n(r, "price_table_first_date", "stamp"),
              n(r, "price_table_last_date", "stamp"), n(r, "first_stamp", "stamp"), n(r, "last_stamp", "stamp")]
             for r in rows],
            caption=["A total with an unpriced record is incomplete (R13) and says so; the logged cost stays "
                     "beside the repriced one (R14)."]))
    return sec


def data_quality(wh: Warehouse) -> Section:
    sec = Section("data_quality", "What the logs got wrong",
                  "Claims of the logs that evalhouse checked and found wanting (stored counts, stamps, spellings, "
                  "logged prices). The record is flagged or left out and the build goes on; each finding names "
                  "its file and line in marts.data_quality_findings.")
    mart = "marts.data_quality_findings"
    if not wh.has(mart):
        sec.absent.append(f"{mart}: not built")
        return sec
    groups = wh.con.execute(f"SELECT rule_id, source_family, count(*), min(source_file) FROM {mart} "
                            "GROUP BY ALL ORDER BY rule_id, source_family").fetchall()
    if not groups:
        sec.intro += " This warehouse has no finding."
        return sec
    nums, firsts, labels = [], [], []
    for rule, fam, count, first in groups:
        where = (("rule_id", rule), ("source_family", fam))
        nums.append(Num(mart, "count(*)", where, count, "int"))
        firsts.append(Num(mart, "min(source_file)", where, first, "text"))
        labels.append(f"{rule} · {fam}" if fam else rule)
    table = Table("data_quality_findings", "Findings by rule and family",
                  ["rule", "family", "findings", "first file (alphabetically)"],
                  [[n.where[0][1], n.where[1][1] or "", n, f] for n, f in zip(nums, firsts)])
    caption = ["Findings per admissibility rule and family, mart ", mart, ": ",
               wh.aggregate(mart, "count(*)", "", "int"), " findings in ",
               wh.aggregate(mart, "count(DISTINCT source_file)", "", "int"),
               " files"]
    if wh.has("raw.loads") and wh.count("raw.loads"):
        caption += [", from logs loaded ", wh.aggregate("raw.loads", "min(started_at)", "", "stamp"), " to ",
                    wh.aggregate("raw.loads", "max(finished_at)", "", "stamp")]
    caption += [". A finding is a claim of the logs that does not hold (findings carry no stamp of their own); "
                "query the mart for each file, line and detail."]
    counts = [int(n.value) for n in nums]
    sec.figures.append(Figure("findings_by_rule", "Data-quality findings by rule", caption,
                              lambda: bars(labels, counts, "findings"), table))
    return sec


def _latest_tests(wh: Warehouse) -> dict[str, tuple]:
    if not wh.has("raw.build_tests"):
        return {}
    rows = wh.con.execute(
        "SELECT name, status, failures, finished_at FROM raw.build_tests "
        "QUALIFY row_number() OVER (PARTITION BY name ORDER BY finished_at DESC) = 1").fetchall()
    return {r[0]: r[1:] for r in rows}


def checks(wh: Warehouse) -> Section:
    sec = Section("checks", "Admissibility checks",
                  "The warehouse's own sanity(): each admissibility rule, the dbt tests that enforce it with their "
                  "status at the last build that ran them, and the negative controls (tests in evalhouse's suite "
                  "that plant a violation and prove the dbt test fires). Error-severity tests are on what "
                  "evalhouse computes (a failure fails the build, so a published warehouse passed them); warn "
                  "tests are on what the logs claim (their rows are the findings above).")
    rules = json.loads(RULE_INDEX.read_text())
    latest = _latest_tests(wh)
    if not latest:
        sec.absent.append("no test results recorded: this warehouse was built by plain dbt or an evalhouse older "
                          "than the report; `evalhouse build` records them")
    rows = []
    for r in rules:
        tests: list = []
        for t in r["tests"]:
            if tests:
                tests.append("; ")
            got = latest.get(t["name"])
            if got is None:
                tests.append(f"{t['name']} ({t['severity']}): not run")
                continue
            status, failures, at = got
            tests.append(f"{t['name']} ({t['severity']}): {status}")
            if failures:
                tests += [" (", Num("raw.build_tests", "failures", (("name", t["name"]), ("finished_at", at)),
                                    failures, "int"), " rows)"]
        controls = r["negative_controls"]
        rows.append([r["rule"], r["statement"], tests,
                     f"{len(controls)}: " + "; ".join(c.split("::")[-1] for c in controls) if controls else "none"])
    summary = []
    if latest:
        summary = ["Tests recorded for the last build that ran them (raw.build_tests): ",
                   wh.aggregate("raw.build_tests", "count(DISTINCT name)", "", "int"), " tests and unit tests; at ",
                   wh.aggregate("raw.build_tests", "max(finished_at)", "", "stamp"), "."]
    sec.tables.append(Table("admissibility_checks", "Admissibility rules, their tests and negative controls",
                            ["rule", "what it means", "dbt tests: status (rows)", "negative controls"], rows,
                            caption=summary))
    return sec
