"""The report's sections, one per family present in the warehouse, then cost, data quality and the checks.

Each family's section is a list of `Spec`s (strata.py draws them as forest plots with tables) plus the
figures that are not forests (done-but-broke, cost against quality, findings by rule). A family whose fact
mart is absent or empty is reported as absent, in words, never as zeros.
"""
from __future__ import annotations

from .figures import done_but_broke as draw_done_but_broke
from .content import Figure, Section, Table, Warehouse
from .numbers import Interval, Num
from .strata import Measure, Spec, build

MEAN_CI = ("95% cluster-robust (CR1) t(C-1) intervals, on the angular scale for C >= 4 clusters (a mean of "
           "pass/fail scores: Wilson at the design-effect sample size); no interval below 2 clusters")
RATE_CI = "95% Wilson intervals at the design-effect sample size with a t(C-1) critical value"
DIFF_CI = ("95% t(C-1) intervals on the mean paired difference, CR1 standard error over the pairs' clusters; "
           "p-values adjusted within the row's family (Holm, Benjamini-Hochberg)")
DIFF = "diff"


def _rate(label, est, low, high, n=None, clusters=None) -> Measure:
    return Measure(label, est, low, high, n, clusters)


def _diff(label, stem, n=None, clusters=None, p="") -> Measure:
    """A paired difference `<x>_diff_mean` with `<x>_diff_ci_low/high` and `[<p>_]p_value / p_holm / p_bh`."""
    base = stem.removesuffix("_mean")
    pre = f"{p}_" if p else ""
    return Measure(label, stem, f"{base}_ci_low", f"{base}_ci_high", n, clusters, DIFF,
                   f"{pre}p_value", f"{pre}p_holm", f"{pre}p_bh")


BRAIN_PLAN = "scenario (runs of one scenario share its code base)"

BROWNFIELD = [
    Spec("big_rates", "Brownfield fix and refactor: change and regress per configuration", "marts.big_rates",
         ["kind", "model", "with_brain", "with_plan"],
         [_rate("change (mean share of assertions passed)", "change_mean", "change_ci_low", "change_ci_high",
                "n_change_measured", "n_change_clusters"),
          _rate("regress (mean share of regression checks kept)", "regress_mean", "regress_ci_low",
                "regress_ci_high", "n_regress_measured", "n_regress_clusters")],
         "Brownfield runs of kind fix and refactor, per model and architecture; change and regress side by side, "
         "never combined (awareness tasks are a separate figure)", BRAIN_PLAN, MEAN_CI,
         extra=[("n_runs", "int"), ("n_done_but_broke", "int")]),
    Spec("big_awareness_rates", "Brownfield awareness: answer score per configuration", "marts.big_awareness_rates",
         ["kind", "model", "with_brain", "with_plan"],
         [_rate("answer score (mean F1 against the truth set)", "change_mean", "change_ci_low", "change_ci_high",
                "n_change_measured", "n_change_clusters")],
         "Brownfield awareness runs, never pooled with fix or refactor", BRAIN_PLAN, MEAN_CI,
         extra=[("n_runs", "int")], label_keys=["model", "with_brain", "with_plan"]),
    Spec("big_ablation_pairs", "Brownfield ablations: switching brain or plan on, paired", "marts.big_ablation_pairs",
         ["ablation", "kind", "model", "with_plan", "with_brain"],
         [_diff("change: on - off", "change_diff_mean", "n_change_pairs", "n_change_clusters", "change"),
          _diff("regress: on - off", "regress_diff_mean", "n_regress_pairs", "n_regress_clusters", "regress")],
         "Runs paired on scenario, model and the other switch; the difference is on minus off", BRAIN_PLAN,
         DIFF_CI, paired=True),
    Spec("big_model_pairs", "Brownfield model against model on the same scenarios", "marts.big_model_pairs",
         ["kind", "with_brain", "with_plan", "model_a", "model_b"],
         [_diff("change: A - B", "change_diff_mean", "n_change_pairs", None, "change"),
          _diff("regress: A - B", "regress_diff_mean", "n_regress_pairs", None, "regress")],
         "Model A against model B on the scenarios both ran, per kind and configuration", BRAIN_PLAN, DIFF_CI,
         paired=True),
]

MATRIX = [
    Spec("matrix_pass_rates", "Chat x coder matrix: pass rate per cell and evidence class", "marts.matrix_pass_rates",
         ["evidence_class", "type", "cell", "difficulty"],
         [_rate("pass rate", "pass_rate", "ci_low", "ci_high", "n_turns", "n_clusters")],
         "Matrix turns with a mapped check kind, per evidence class: syntax-only, compiled and executed checks "
         "are never pooled", "the conversation script within a cell", RATE_CI, extra=[("n_passed", "int")]),
    Spec("matrix_model_pairs", "Chat x coder matrix: cell against cell on the same scripts", "marts.matrix_model_pairs",
         ["type", "evidence_class", "cell_a", "cell_b"],
         [_diff("pass rate: A - B", "pass_rate_diff_mean", "n_pairs", None, "")],
         "Cell A against cell B on the scripts and turns both ran, per turn type and evidence class",
         "the conversation script", DIFF_CI, paired=True),
]

LAYERED = [
    Spec("layered_router_accuracy", "Three-layer pipeline: router accuracy (standalone l1)",
         "marts.layered_router_accuracy", ["l1"],
         [_rate("accuracy", "accuracy", "ci_low", "ci_high", "n_routed", "n_clusters")],
         "Standalone l1 measurements with both the expected and the actual route, per router model",
         "the task", RATE_CI, extra=[("n_no_route", "int")]),
    Spec("layered_pipeline_pass_rates", "Three-layer pipeline: pass rate per measurement",
         "marts.layered_pipeline_pass_rates", ["pipeline", "measurement"],
         [_rate("pass rate", "pass_rate", "pass_rate_ci_low", "pass_rate_ci_high", "n_measured", "n_clusters")],
         "Pipeline measurements with an outcome; standalone layers and end-to-end totals are separate rows",
         "the task", RATE_CI, extra=[("is_standalone", "text")]),
    Spec("layered_router_pairs", "Three-layer pipeline: router against router on the same tasks",
         "marts.layered_router_pairs", ["l1_a", "l1_b"],
         [_diff("accuracy: A - B", "accuracy_diff_mean", "n_pairs", None, "")],
         "Router A against router B on the tasks both routed", "the task", DIFF_CI, paired=True),
]

CODER_EVAL = [
    Spec("coder_eval_variant_rates", "coder-eval: pass rate and average score per variant", "marts.coder_eval_variant_rates",
         ["run_id", "variant_id", "system_prompt_regime"],
         [_rate("pass rate (replicates)", "pass_rate", "pass_rate_ci_low", "pass_rate_ci_high", "n_graded",
                "n_clusters"),
          _rate("average score (errors count 0)", "average_score", "average_score_ci_low", "average_score_ci_high",
                "n_measured", "n_clusters")],
         "coder-eval replicates per run, variant and system-prompt regime (regimes never pooled); ungraded "
         "replicates leave the pass rate's denominator, errored ones stay in it", "the task", RATE_CI + "; " + MEAN_CI,
         extra=[("n_error", "int"), ("n_ungraded", "int")]),
    Spec("coder_eval_variant_comparisons", "coder-eval: variant A against variant B on the same tasks",
         "marts.coder_eval_variant_comparisons", ["run_id", "experiment_id", "system_prompt_regime", "variant_a", "variant_b"],
         [Measure("score: A - B", "mean_difference", "difference_ci_low", "difference_ci_high", "n_pairs", None,
                  DIFF, "p_value", "p_holm", "p_bh"),
          _diff("replicate pass fraction: A - B", "pass_fraction_diff_mean", "n_pairs", None, "pass_fraction")],
         "Variants of one experiment paired on task", "the task", DIFF_CI, paired=True,
         label_keys=["experiment_id", "variant_a", "variant_b"]),
]


MAX_LISTED_RUNS = 100


def _done_but_broke(wh: Warehouse) -> Figure | None:
    mart = "marts.fct_big_runs"
    population = "kind <> 'awareness' AND change IS NOT NULL AND regress IS NOT NULL"
    if not wh.has(mart) or not wh.count(mart, population):
        return None
    # one point per distinct (change, regress), sized by its number of runs: every run is drawn, at any size
    pts = wh.con.execute(f"SELECT change, regress, bool_or(done_but_broke), count(*) FROM {mart} "
                         f"WHERE {population} GROUP BY ALL ORDER BY ALL").fetchall()
    corner = wh.rows(mart, ["run_key", "kind", "model", "with_brain", "with_plan", "scenario_id", "change",
                            "regress", "source_file", "source_line"], population + " AND done_but_broke",
                     ["kind", "model", "scenario_id", "run_key"])
    n_corner = wh.aggregate(mart, "count(*)", population + " AND done_but_broke", "int")
    keys = ("run_key",)

    def n(r, c, kind):
        return Num(mart, c, tuple((k, r[k]) for k in keys), r[c], kind)

    table = Table("done_but_broke", "Runs that did the task and broke the application",
                  ["kind", "model", "with_brain", "with_plan", "scenario_id", "change", "regress", "source_file",
                   "source_line"],
                  [[n(r, "kind", "text"), n(r, "model", "text"), n(r, "with_brain", "text"),
                    n(r, "with_plan", "text"), n(r, "scenario_id", "text"), n(r, "change", "rate"),
                    n(r, "regress", "rate"), n(r, "source_file", "text"), n(r, "source_line", "int")]
                   for r in corner[:MAX_LISTED_RUNS]])
    if len(corner) > MAX_LISTED_RUNS:
        table.caption = [f"The first {MAX_LISTED_RUNS} of ", n_corner, " runs (by kind, model, scenario); all of "
                         "them: SELECT * FROM marts.fct_big_runs WHERE done_but_broke."]
    caption = ["Every brownfield fix or refactor run with both scores (mart marts.fct_big_runs): ",
               wh.aggregate(mart, "count(*)", population, "int"), " runs, of which ", n_corner,
               " are done but broke (change = 1 and regress < 1, the shaded corner), stamps ",
               wh.aggregate(mart, "min(stamp)", population, "stamp"), " to ",
               wh.aggregate(mart, "max(stamp)", population, "stamp"),
               ". A point is one (change, regress) value, its area proportional to its number of runs; runs are "
               "not independent within a scenario, so no interval is drawn. The table lists the corner's runs with "
               "the file and line they came from."]

    def draw():
        return draw_done_but_broke([p[0] for p in pts], [p[1] for p in pts], [bool(p[2]) for p in pts],
                                   [int(p[3]) for p in pts])

    return Figure("done_but_broke", "Done but broke: change against regress per run", caption, draw, table)


def _present(wh: Warehouse, fact: str) -> bool:
    """The family has data: its fact mart exists and has rows."""
    return wh.has(fact) and wh.count(fact) > 0


def _family(wh: Warehouse, sid: str, title: str, fact: str, specs: list[Spec], intro: str,
            extra_figures=()) -> Section:
    sec = Section(sid, title, intro)
    if not _present(wh, fact):
        sec.absent.append(f"no {title} data in this warehouse ({fact} is {'empty' if wh.has(fact) else 'absent'})")
        return sec
    for spec in specs:
        figs = build(wh, spec)
        if not figs:
            sec.absent.append(f"{spec.mart}: no rows" if wh.has(spec.mart) else f"{spec.mart}: not built")
        sec.figures += figs
    for make in extra_figures:
        fig = make(wh)
        if fig is not None:
            sec.figures.append(fig)
    return sec


def brownfield(wh):
    return _family(wh, "brownfield", "brownfield suite", "marts.fct_big_runs", BROWNFIELD,
                   "Runs from logs_big/. change and regress are different instruments and stay apart (R02); "
                   "awareness is never pooled with fix or refactor (R03).", [_done_but_broke])


def matrix(wh):
    return _family(wh, "matrix", "chat x coder matrix", "marts.fct_matrix_turns", MATRIX,
                   "Turns from logs/ (one file per cell). Evidence classes are never pooled (R08).")


def layered(wh):
    sec = _family(wh, "layered", "three-layer pipeline", "marts.fct_layered_measurements", LAYERED,
                  "Measurements from logs_layered/. Router accuracy comes from standalone l1 rows only (R10).")
    mart = "marts.layered_failure_attribution"
    if _present(wh, "marts.fct_layered_measurements") and _present(wh, mart):
        rows = wh.rows(mart, ["l1", "blame", "n_failures", "n_failed_total"], order=["l1", "blame"])
        key = lambda r, c, k: Num(mart, c, (("l1", r["l1"]), ("blame", r["blame"])), r[c], k)  # noqa: E731
        sec.tables.append(Table("layered_failure_attribution", "Failed end-to-end runs by the layer blamed (R11)",
                                ["l1", "blame", "n_failures", "n_failed_total"],
                                [[key(r, "l1", "text"), key(r, "blame", "text"), key(r, "n_failures", "int"),
                                  key(r, "n_failed_total", "int")] for r in rows]))
    return sec


def coder_eval(wh):
    sec = _family(wh, "coder_eval", "coder-eval", "marts.fct_coder_eval_replicates", CODER_EVAL,
                  "Run directories of coder-eval. Rates at replicate grain; regimes never pooled (R20).")
    mart = "marts.coder_eval_run_summaries"
    if _present(wh, "marts.fct_coder_eval_replicates") and _present(wh, mart):
        rows = wh.rows(mart, ["run_id", "tasks_graded_recomputed", "pass_rate_stored", "pass_rate_recomputed",
                              "pass_rate_recomputed_ci_low", "pass_rate_recomputed_ci_high", "n_clusters",
                              "counts_consistent", "pass_rate_consistent"], order=["run_id"])

        def n(r, c, k):
            return Num(mart, c, (("run_id", r["run_id"]),), r[c], k)

        sec.tables.append(Table(
            "coder_eval_run_summaries", "coder-eval runs: the stored pass rate beside evalhouse's recomputation (R16)",
            ["run_id", "pass_rate_stored", "pass rate recomputed [95% CI]", "n graded", "C", "counts_consistent",
             "pass_rate_consistent"],
            [[n(r, "run_id", "text"), n(r, "pass_rate_stored", "rate"),
              Interval(n(r, "pass_rate_recomputed", "rate"), n(r, "pass_rate_recomputed_ci_low", "rate"),
                       n(r, "pass_rate_recomputed_ci_high", "rate")),
              n(r, "tasks_graded_recomputed", "int"), n(r, "n_clusters", "int"), n(r, "counts_consistent", "text"),
              n(r, "pass_rate_consistent", "text")] for r in rows]))
    return sec


def inspect_ai(wh):
    sec = Section("inspect_ai", "inspect_ai", "inspect_ai eval logs (.eval, .json). inspect's own metrics beside "
                  "evalhouse's recomputation (R28), the rate with errored samples counted as incorrect (R29), and "
                  "models compared on the same samples (R30), tokens and cost per model and role (R33).")
    mart = "marts.inspect_metrics"
    if not _present(wh, mart):
        sec.absent.append(f"no inspect_ai data in this warehouse ({mart} is {'empty' if wh.has(mart) else 'absent'})")
        return sec
    cols = ["source_file", "status", "model_raw", "score_name", "scorer", "reducer", "metric", "value_stored",
            "value_recomputed", "value_errors_as_incorrect", "n_samples_scored", "n_samples_attempted"]
    rows = wh.rows(mart, cols, where="metric_base in ('accuracy', 'mean') and group_name is null",
                   order=["model_raw", "source_file", "score_name", "reducer"])

    def key(r):
        return (("source_file", r["source_file"]), ("score_name", r["score_name"]), ("reducer", r["reducer"]),
                ("metric", r["metric"]))

    def n(r, c, k):
        return Num(mart, c, key(r), r[c], k)

    sec.tables.append(Table(
        "inspect_metrics", "inspect_ai logs: the stored accuracy / mean, evalhouse's recomputation, and the rate with "
        "errored samples counted as incorrect (R28, R29)",
        ["log", "status", "model", "scorer", "reducer", "stored", "recomputed", "errors as incorrect", "n scored",
         "n attempted"],
        [[Num(mart, "regexp_extract(source_file, '[^/]+$')", key(r), r["source_file"].rsplit("/", 1)[-1], "text"),
          n(r, "status", "text"), n(r, "model_raw", "text"), n(r, "score_name", "text"), n(r, "reducer", "text"),
          n(r, "value_stored", "rate"), n(r, "value_recomputed", "rate"), n(r, "value_errors_as_incorrect", "rate"),
          n(r, "n_samples_scored", "int"), n(r, "n_samples_attempted", "int")] for r in rows]))
    pairs = "marts.inspect_model_pairs"
    if _present(wh, pairs):
        prow = wh.rows(pairs, ["source_file_a", "source_file_b", "score_name", "reducer", "model_a", "model_b", "n_pairs",
                               "value_diff_mean", "value_diff_ci_low", "value_diff_ci_high", "p_value", "p_holm"],
                       order=["score_name", "reducer", "model_a", "model_b", "source_file_a", "source_file_b"])

        def q(r, c, k):
            key = (("source_file_a", r["source_file_a"]), ("source_file_b", r["source_file_b"]),
                   ("score_name", r["score_name"]), ("reducer", r["reducer"]))
            return Num(pairs, c, key, r[c], k)

        def log(r, side):       # the log's file name
            key = (("source_file_a", r["source_file_a"]), ("source_file_b", r["source_file_b"]),
                   ("score_name", r["score_name"]), ("reducer", r["reducer"]))
            return Num(pairs, f"regexp_extract(source_file_{side}, '[^/]+$')", key,
                       r[f"source_file_{side}"].rsplit("/", 1)[-1], "text")

        sec.tables.append(Table(
            "inspect_model_pairs", "inspect_ai models compared on the same samples, measured alike (R30, R35): mean "
            "paired difference (b - a), 95% interval, p and Holm within (task, score, reducer), made once (R34)",
            ["score", "reducer", "model_a", "log a", "model_b", "log b", "n pairs", "difference [95% CI]", "p",
             "p (Holm)"],
            [[q(r, "score_name", "text"), q(r, "reducer", "text"), q(r, "model_a", "text"),
              log(r, "a"), q(r, "model_b", "text"), log(r, "b"),
              q(r, "n_pairs", "int"),
              Interval(q(r, "value_diff_mean", "diff"), q(r, "value_diff_ci_low", "diff"),
                       q(r, "value_diff_ci_high", "diff")),
              q(r, "p_value", "p"), q(r, "p_holm", "p")] for r in prow]))
    spend = "marts.inspect_spend"
    if _present(wh, spend):
        srow = wh.rows(spend, ["source_file", "log_model", "status", "spend_kind", "role", "model_raw", "n_sample_epochs",
                               "uncached_input_tokens", "output_tokens", "cost_usd", "unpriced_reason"],
                       order=["log_model", "source_file", "spend_kind", "model_raw"])

        def c(r, col, k):
            key = (("source_file", r["source_file"]), ("spend_kind", r["spend_kind"]), ("role", r["role"]),
                   ("model_raw", r["model_raw"]))
            return Num(spend, col, key, r[col], k)

        sec.tables.append(Table(
            "inspect_spend", "inspect_ai tokens and cost per model and role, each token counted once: the grader's "
            "spend (judge) is never the evaluated model's (agent) (R33); repriced against the rate card, NULL when "
            "unpriced (R13)",
            ["model", "status", "spend", "role", "tokens of", "sample epochs", "uncached input", "output", "cost USD",
             "unpriced because"],
            [[c(r, "log_model", "text"), c(r, "status", "text"), c(r, "spend_kind", "text"), c(r, "role", "text"),
              c(r, "model_raw", "text"), c(r, "n_sample_epochs", "int"), c(r, "uncached_input_tokens", "int"),
              c(r, "output_tokens", "int"), c(r, "cost_usd", "usd"), c(r, "unpriced_reason", "text")]
             for r in srow]))
    return sec
