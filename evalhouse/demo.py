"""`evalhouse demo` (what `make demo` runs): sample logs -> load -> build -> publish -> headline tables.

1. writes the deterministic sample logs of every brownfield family into DATA_DIR (default
   ./demo_data); a file whose content is unchanged is left untouched;
2. copies the real coder-eval run directories shipped in fixtures/coder_eval into
   DATA_DIR/coder_eval, and the inspect_ai logs of fixtures/inspect into DATA_DIR/inspect;
3. loads DATA_DIR into the working file, runs the crash-safe build and publishes the analyst
   file;
4. prints a few headline rows from whichever marts exist, read from the analyst file;
5. writes the report (`evalhouse report`) into ./report beside the working file and prints its path.

Re-running it is idempotent: the second load lands nothing, the build gives the same marts.
"""
from __future__ import annotations

import filecmp
import os
import shutil
import tempfile
from pathlib import Path

from .locking import connect_ro
from .paths import FIXTURES_DIR

# (schema, table, preferred columns (those that exist are shown, in this order), order by, limit)
HEADLINES: list[tuple[str, str, list[str], list[str], int]] = [
    ("marts", "big_rates",
     ["kind", "model", "with_brain", "with_plan", "n_runs", "n_scenarios", "change_mean", "change_ci_low",
      "change_ci_high", "regress_mean", "n_done_but_broke"],
     ["kind", "model", "with_brain", "with_plan"], 12),
    ("marts", "big_awareness_rates",
     ["kind", "model", "with_brain", "with_plan", "n_runs", "n_regress_measured", "regress_mean"],
     ["model", "with_brain", "with_plan"], 4),
    ("marts", "matrix_pass_rates",
     ["cell", "type", "evidence_class", "difficulty", "n_turns", "n_clusters", "pass_rate", "ci_low", "ci_high"],
     ["cell", "type", "evidence_class", "difficulty"], 12),
    ("marts", "layered_router_accuracy",
     ["l1", "n_routed", "n_correct", "accuracy", "ci_low", "ci_high"], ["l1"], 10),
    ("marts", "coder_eval_variant_rates",
     ["run_id", "variant_id", "system_prompt_regime", "n_tasks", "n_replicates", "n_graded", "pass_rate",
      "pass_rate_ci_low", "pass_rate_ci_high"],
     ["run_id", "variant_id"], 13),
    ("marts", "coder_eval_variant_comparisons",
     ["experiment_id", "variant_a", "variant_b", "n_pairs", "mean_difference", "difference_ci_low",
      "difference_ci_high", "mcnemar_p"],
     ["experiment_id", "variant_a", "variant_b"], 8),
    ("marts", "inspect_metrics",
     ["model", "status", "score_name", "reducer", "metric", "value_stored", "value_recomputed",
      "value_errors_as_incorrect", "n_samples_scored", "n_samples_attempted"],
     ["model", "status", "score_name", "reducer"], 12),
    ("marts", "inspect_model_pairs",
     ["scorer", "reducer", "model_a", "model_b", "n_pairs", "value_diff_mean", "value_diff_ci_low",
      "value_diff_ci_high", "p_value"],
     ["scorer", "reducer", "model_a", "model_b"], 8),
    ("marts", "inspect_spend",
     ["log_model", "status", "spend_kind", "role", "model_raw", "n_sample_epochs", "uncached_input_tokens",
      "cache_read_tokens", "output_tokens", "cost_usd", "unpriced_reason"],
     ["log_model", "status", "spend_kind", "model_raw"], 8),
    ("marts", "fct_costs_repriced", [], [], 0),  # summarised specially below
    ("marts", "data_quality_findings", [], [], 0),  # summarised specially below
]


def _sync_tree(src: Path, dst: Path) -> int:
    """Copy files from src into dst, leaving identical files untouched; returns files written."""
    written = 0
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        target = dst / rel
        if path.is_dir() and not path.is_symlink():
            target.mkdir(parents=True, exist_ok=True)
            continue
        if not path.is_file():
            continue
        if target.is_file() and filecmp.cmp(path, target, shallow=False):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
        shutil.copyfile(path, tmp)
        os.replace(tmp, target)
        written += 1
    return written


def write_demo_data(data_dir: Path) -> dict:
    """Sample logs + shipped coder-eval runs into data_dir. Returns files written per part, and under
    "skipped" what could not be written (and why)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    stats: dict = {"sample_files_written": 0, "coder_eval_files_written": 0, "inspect_files_written": 0, "skipped": []}
    try:
        from .samples import write_sample_logs
    except ImportError as exc:  # the generator is optional for the demo's other half
        stats["skipped"].append(f"sample log generator unavailable ({exc}); skipping brownfield samples")
    else:
        with tempfile.TemporaryDirectory(prefix=".samples-", dir=data_dir) as tmp:
            write_sample_logs(Path(tmp))
            stats["sample_files_written"] = _sync_tree(Path(tmp), data_dir)
    coder_eval_src = FIXTURES_DIR / "coder_eval"
    if coder_eval_src.is_dir():
        stats["coder_eval_files_written"] = _sync_tree(coder_eval_src, data_dir / "coder_eval")
    else:
        stats["skipped"].append(f"{coder_eval_src} not found; skipping coder-eval runs")
    inspect_src = FIXTURES_DIR / "inspect"
    if inspect_src.is_dir():
        stats["inspect_files_written"] = _sync_tree(inspect_src, data_dir / "inspect")
    else:
        stats["skipped"].append(f"{inspect_src} not found; skipping inspect_ai logs")
    return stats


def _columns(con, schema: str, table: str) -> list[str]:
    return [r[0] for r in con.execute(
        "select column_name from information_schema.columns where table_schema = ? and table_name = ? "
        "order by ordinal_position", [schema, table]).fetchall()]


def _quote(ident: str) -> str:
    return '"' + ident.replace('"', '""') + '"'


def headline_tables(path: Path) -> list[tuple[str, list[str], list[tuple]]]:
    """(title, columns, rows) for each headline mart present in the database at `path`."""
    out = []
    con = connect_ro(path)
    try:
        for schema, table, preferred, order, limit in HEADLINES:
            cols = _columns(con, schema, table)
            if not cols:
                continue
            rel = f"{_quote(schema)}.{_quote(table)}"
            n = con.execute(f"select count(*) from {rel}").fetchall()[0][0]
            if table == "data_quality_findings":
                if "rule_id" in cols:
                    fam = "source_family" if "source_family" in cols else "null"
                    rows = con.execute(
                        f"select rule_id, {fam} as source_family, count(*) as findings from {rel} "
                        "group by all order by rule_id, source_family").fetchall()
                    out.append((f"{schema}.{table}: {n} findings by rule", ["rule_id", "source_family", "findings"],
                                rows))
                continue
            if table == "fct_costs_repriced":
                group = [c for c in ("source_family", "model") if c in cols]
                money = [c for c in ("cost_usd_logged", "cost_usd_repriced") if c in cols]
                if group:
                    sel = ", ".join(_quote(c) for c in group)
                    aggs = ", ".join(f"round(sum({_quote(c)}), 4) as {_quote('sum_' + c)}" for c in money)
                    unpriced = ", count(*) filter (where cost_usd_repriced is null) as unpriced" \
                        if "cost_usd_repriced" in cols else ""
                    q = (f"select {sel}, count(*) as n{', ' + aggs if aggs else ''}{unpriced} from {rel} "
                         f"group by all order by all limit 15")
                    cur = con.execute(q)
                    out.append((f"{schema}.{table}: {n} rows, summary", [d[0] for d in cur.description],
                                cur.fetchall()))
                continue
            show = [c for c in preferred if c in cols] or cols[:8]
            keys = [c for c in order if c in cols]
            q = f"select {', '.join(_quote(c) for c in show)} from {rel}"
            if keys:
                q += f" order by {', '.join(_quote(c) for c in keys)}"
            q += f" limit {int(limit)}"
            rows = con.execute(q).fetchall()
            more = f" (first {limit})" if n > limit else ""
            out.append((f"{schema}.{table}: {n} rows{more}", show, rows))
    finally:
        con.close()
    return out
