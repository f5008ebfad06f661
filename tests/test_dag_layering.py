"""The dbt DAG follows its folders (issue 15; docs/architecture.md): only staging reads sources, marts read
intermediate models (not staging), intermediate models never read marts, staging reads only sources and
staging. Read from dbt's own manifest.json. Today's exceptions are listed below, each with its reason: the
test fails on any new violation, and on an exception that is no longer needed (remove it), so the list only
shrinks."""
from __future__ import annotations

import json
from pathlib import Path

from helpers import dbt, fresh_db

_REPORT = "the report's stored values, shown beside evalhouse's recomputation; a pass-through intermediate model would only rename"
_HOOK = "incremental model: its pre-hook deletes the rows of (load, file) pairs no longer landed (delete_unloaded_pairs)"
_REPLICATES = ("fct_ce_replicates is the contract-checked replicate table the recomputations consume; moving it to "
               "intermediate (with the fact as a view) is open work in issue 15")
_UNITS = "joins each score fact to its cost on unit_key: the facts are the contract-checked inputs"

EXCEPTIONS = {
    ("ce_criterion_stats", "stg_coder_eval__criterion_results"): _REPORT,
    ("ce_run_summaries", "stg_coder_eval__runs"): _REPORT,
    ("ce_suite_results", "stg_coder_eval__suite_criterion_aggregates"): _REPORT,
    ("ce_suite_results", "stg_coder_eval__suite_criterion_metrics"): _REPORT,
    ("ce_suite_results", "stg_coder_eval__suite_threshold_checks"): _REPORT,
    ("ce_suite_results", "stg_coder_eval__suites"): _REPORT,
    ("ce_variant_comparisons", "stg_coder_eval__experiments"): _REPORT,
    ("ce_variant_rates", "stg_coder_eval__variants"): _REPORT,
    ("fct_big_runs", "big_lines"): _HOOK,
    ("int_big__runs", "big_lines"): _HOOK,
    ("int_ce__judge_usage", "fct_ce_replicates"): _REPLICATES,
    ("int_ce__run_recomputed", "fct_ce_replicates"): _REPLICATES,
    ("int_ce_v__per_replicate_score_checks", "fct_ce_replicates"): _REPLICATES,
    ("int_ce_v__regime_task_folds", "fct_ce_replicates"): _REPLICATES,
    ("int_ce_v__variant_recomputed", "fct_ce_replicates"): _REPLICATES,
    ("int_ce_v__variant_task_folds", "fct_ce_replicates"): _REPLICATES,
    ("int_costs__coder_eval", "fct_ce_replicates"): _REPLICATES,
    ("int_cost_quality__units", "fct_big_runs"): _UNITS,
    ("int_cost_quality__units", "fct_ce_replicates"): _UNITS,
    ("int_cost_quality__units", "fct_costs_repriced"): _UNITS,
    ("int_cost_quality__units", "fct_matrix_turns"): _UNITS,
}


def _layer(node: dict) -> str | None:
    path = node.get("original_file_path", "")
    return next((lay for lay in ("staging", "intermediate", "marts") if path.startswith(f"models/{lay}/")), None)


def violations(manifest: dict) -> dict[tuple[str, str], str]:
    out = {}
    nodes = manifest["nodes"]
    for node in nodes.values():
        if node["resource_type"] != "model":
            continue
        layer = _layer(node)
        for dep in node["depends_on"]["nodes"]:
            if dep.startswith("source."):
                if layer != "staging":
                    out[(node["name"], dep.split(".")[-1])] = "reads a source outside staging"
                continue
            if not dep.startswith("model."):
                continue
            up = _layer(nodes[dep])
            rule = {("marts", "staging"): "a mart reads staging", ("intermediate", "marts"): "intermediate reads a mart",
                    ("staging", "intermediate"): "staging reads a later layer",
                    ("staging", "marts"): "staging reads a later layer"}.get((layer, up))
            if rule:
                out[(node["name"], nodes[dep]["name"])] = rule
    return out


def _manifest(tmp_path: Path) -> dict:
    db = fresh_db(tmp_path / "w.duckdb")
    dbt(["parse"], db, tmp_path / "target")
    return json.loads((tmp_path / "target" / "manifest.json").read_text())


def test_the_dag_follows_the_folders(tmp_path):
    manifest = _manifest(tmp_path)
    found = violations(manifest)
    new = {k: v for k, v in found.items() if k not in EXCEPTIONS}
    stale = sorted(k for k in EXCEPTIONS if k not in found)
    assert new == {}, f"layering broken (model, what it reads): {new}"
    assert stale == [], f"no longer needed, remove from EXCEPTIONS: {stale}"
    assert all(EXCEPTIONS.values())


def test_the_layering_check_catches_a_planted_violation(tmp_path):
    """Negative control: a mart that reads a source and an intermediate model that reads a mart are found."""
    manifest = {"nodes": {
        "model.p.m": {"resource_type": "model", "name": "m", "original_file_path": "models/marts/m.sql",
                      "depends_on": {"nodes": ["source.p.raw.big_lines", "model.p.s"]}},
        "model.p.s": {"resource_type": "model", "name": "s", "original_file_path": "models/staging/s.sql",
                      "depends_on": {"nodes": []}},
        "model.p.i": {"resource_type": "model", "name": "i", "original_file_path": "models/intermediate/i.sql",
                      "depends_on": {"nodes": ["model.p.m"]}}}}
    assert violations(manifest) == {("m", "big_lines"): "reads a source outside staging", ("m", "s"): "a mart reads staging",
                                    ("i", "m"): "intermediate reads a mart"}
