"""Smoke test of the benchmark suite (issue 6): `scripts/bench.py --quick` (100k lines, 1k task.json, dbt
builds at 10k and 100k runs) runs end to end and its results.json carries every figure. No timing is
asserted (CI machines are noisy); the assertions check that each figure was really measured: a positive
ratio against a positive baseline measured in the same run, that the loads behind the figures landed what
they should (the reload lands nothing, the append lands exactly the appended lines), and that every dbt
build behind the dbt figures succeeded. About 3 minutes."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import script_module

PROJECT = Path(__file__).resolve().parents[2]
SCRIPT = PROJECT / "scripts" / "bench.py"
LINES, TASKS = 100_000, 1_000          # the --quick preset


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench_out")
    data = tmp_path_factory.mktemp("bench_data")
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--query-repeats", "3", "--out", str(out), "--data", str(data)],
        capture_output=True, text=True, cwd=PROJECT, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads((out / "results.json").read_text()), (out / "results.md").read_text(), proc.stdout


def test_every_figure_present(smoke):
    results, md, stdout = smoke
    mod = script_module("bench")
    assert set(results["figures"]) == set(mod.FIGURES)
    for key in mod.FIGURES:
        assert f"| {key} |" in md and f"| {key} |" in stdout


def test_measured_figures_are_ratios_against_same_run_baselines(smoke):
    results, _, _ = smoke
    mod = script_module("bench")
    f = results["figures"]
    assert (mod.QUICK["lines"], mod.QUICK["tasks"]) == (LINES, TASKS)
    for key in set(mod.FIGURES) - {"dbt_build_scaling"}:     # its exponent is None when noise hides growth
        assert isinstance(f[key]["value"], (int, float)) and f[key]["value"] > 0, key
        assert f[key]["met"] in (True, False), key
    for key in ("loader_vs_scan", "loader_vs_duckdb_landing", "loader_direct_vs_chunked", "reload_unchanged",
                "users_vs_loader", "append_1pct", "coder_eval_load_vs_read_json_objects"):
        assert f[key]["baseline_s"] > 0 and f[key]["measured_s"] > 0, key
    # interleaved rounds: each figure is the median of its per-round ratios, each ratio from one round's runs
    raw = results["raw"]
    assert len(raw["rounds"]) == mod.ROUNDS
    for key, ratio in (("loader_vs_scan", lambda r: r["load"]["load_s"] / r["load"]["scan_s"]),
                       ("loader_vs_duckdb_landing", lambda r: r["load"]["load_s"] / r["load"]["scan_land_s"]),
                       ("loader_direct_vs_chunked", lambda r: r["chunked"]["load_s"] / r["load"]["load_s"]),
                       ("users_vs_loader", lambda r: r["users"]["users_s"] / r["load"]["load_s"])):
        per = [ratio(r) for r in raw["rounds"]]
        assert f[key]["rounds"] == [round(x, 3) for x in per], key
        assert f[key]["value"] == pytest.approx(sorted(per)[len(per) // 2], abs=1e-4), key
    assert f["rss_doubling"]["baseline_mb"] > 0 and f["rss_doubling"]["measured_mb"] > 0
    scaling = f["dbt_build_scaling"]
    assert scaling["all_builds_succeeded"] and set(scaling["points"]) == {"10000", str(LINES)}
    assert all(t > 0 for t in scaling["points"].values())
    assert f["dbt_build_fixed_cost"]["all_builds_succeeded"]
    second = f["dbt_second_build"]
    assert second["succeeded"] and second["repeat_build"], "the build after the append built only what changed"
    assert "stg_big__runs" in second["incremental_models"]
    assert f["coder_eval_load_build_vs_read_json_objects"]["succeeded"]
    for key in ("query_big_rates", "query_fct_big_runs"):
        assert f[key]["mart"]["rows"] > 0 and f[key]["raw"]["rows"] > 0, key
        assert f[key]["speedup_vs_raw"] > 0, key


def test_loads_behind_the_figures_landed_what_they_should(smoke):
    results, _, _ = smoke
    raw, f = results["raw"], results["figures"]
    assert raw["first_load"]["records_landed"] == LINES
    assert raw["first_load"]["scan_lines"] == LINES and raw["first_load"]["scan_valid"] == LINES
    assert raw["users"]["users_rows"] == LINES
    assert raw["chunked_load"]["records_landed"] == LINES and f["loader_direct_vs_chunked"]["same_records"]
    assert raw["reload"]["records_landed"] == 0
    assert raw["double_load"]["records_landed"] == 2 * LINES
    assert f["append_1pct"]["lines_appended"] == LINES // 100
    assert f["append_1pct"]["records_landed"] == LINES // 100 and f["append_1pct"]["all_landed"]
    assert len(raw["appends"]) == 3 and len(f["append_1pct"]["rounds"]) == 3
    assert raw["coder_eval"]["task_files"] == TASKS and raw["coder_eval"]["read_json_objects_docs"] == TASKS
    assert f["coder_eval_load_vs_read_json_objects"]["documents_landed"] >= TASKS
    assert raw["first_load"]["statements"], "the statement-level profile of the first load is recorded"
    variants = raw["direct_profile"]["variants"]
    labels = [v["variant"] for v in variants]
    assert len(labels) == len(set(labels)) == 15 and all(v["cpu_s"] >= 0 and v["wall_s"] > 0 for v in variants)
    for step in ("Python pre-pass + line hashes", "insert: scan + number + store + pre-pass hashes (the loader)",
                 "hash probe", "second look: the statement (all parts)", "insert: scan + number + store only (zstd)"):
        assert any(label.startswith(step) for label in labels), step
    for k in ("nproc", "cpu", "ram_gb", "duckdb", "dbt-core"):
        assert results["machine"].get(k), k
