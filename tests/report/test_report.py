"""`evalhouse report` on the demo warehouse: what `make demo` ends with, the files a paper needs, every number
traced to its mart row, captions that state what a reader must know, and partial or empty warehouses."""
from __future__ import annotations

import csv
import json
import re
import shutil
import xml.etree.ElementTree as ET

import duckdb
import pytest
from helpers import evalhouse_cli as run

from evalhouse.report import write_report
from evalhouse.report.trace import verify

FIGURES = {
    "brownfield": ["big_rates", "big_awareness_rates", "big_ablation_pairs", "big_model_pairs", "done_but_broke"],
    "matrix": ["matrix_pass_rates", "matrix_model_pairs"],
    "layered": ["layered_router_accuracy", "layered_pipeline_pass_rates", "layered_router_pairs"],
    "coder_eval": ["coder_eval_variant_rates", "coder_eval_variant_comparisons"],
    "cost": ["cost_quality"],
    "data_quality": ["findings_by_rule"],
}
ALL_FIGURES = [f for fs in FIGURES.values() for f in fs]
INTERVAL = re.compile(r"^[+-]?\d+\.\d+ \[[+-]?\d+\.\d+, [+-]?\d+\.\d+\]$")


def _page(demo) -> str:
    return (demo.out / "report.html").read_text(encoding="utf-8")


def test_demo_ends_by_writing_the_report_and_printing_its_path(demo):
    last = demo.stdout.strip().splitlines()[-1]
    assert last == f"evalhouse report: {demo.out.resolve() / 'report.html'}", last
    assert (demo.out / "report.html").stat().st_size > 100_000
    # not a terminal: no progress line redrawn, no colour codes (issue 19)
    assert "\r" not in demo.stdout and "\x1b[" not in demo.stdout


def test_every_figure_is_on_the_page_and_written_as_svg_and_pdf(demo):
    page = _page(demo)
    for fig in ALL_FIGURES:
        assert f'data-figure="{fig}"' in page, fig
        svg = (demo.out / "figures" / f"{fig}.svg").read_bytes()
        assert ET.fromstring(svg).tag.endswith("svg"), fig
        assert (demo.out / "figures" / f"{fig}.pdf").read_bytes().startswith(b"%PDF"), fig
    # a section per family, in that order
    at = [page.index(f'data-section="{s}"') for s in FIGURES]
    assert at == sorted(at)


def test_page_is_self_contained(demo):
    page = _page(demo)
    assert "<script" not in page.lower()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), "the page references a network resource"
    assert "default-src 'none'" in page          # the CSP forbids anything the page does not carry


def test_every_number_on_the_page_traces_to_its_mart_row(demo):
    assert verify(demo.analyst, demo.out) == []
    numbers = json.loads((demo.out / "numbers.json").read_text())["numbers"]
    marts = {n["mart"] for n in numbers}
    assert {"marts.big_rates", "marts.matrix_pass_rates", "marts.coder_eval_variant_rates", "marts.cost_quality_frontier",
            "marts.data_quality_findings", "raw.build_tests"} <= marts
    assert len(numbers) > 2000


def test_a_number_that_does_not_match_its_mart_row_is_caught(demo, tmp_path):
    """The traceability check can fail: change one number in a copy of the report and it names it."""
    out = tmp_path / "tampered"
    shutil.copytree(demo.out, out)
    doc = json.loads((out / "numbers.json").read_text())
    victim = next(n for n in doc["numbers"] if n["mart"] == "marts.big_rates" and n["expr"] == "change_mean")
    victim["value"] += 0.01
    (out / "numbers.json").write_text(json.dumps(doc))
    problems = verify(demo.analyst, out)
    assert len(problems) == 1 and problems[0].startswith(f"{victim['id']}: marts.big_rates.change_mean")
    page = (out / "report.html").read_text(encoding="utf-8")
    (out / "report.html").write_text(page.replace(f'data-n="{victim["id"]}">{victim["text"]}<',
                                                  f'data-n="{victim["id"]}">0.99<', 1), encoding="utf-8")
    assert any("the page shows '0.99'" in p for p in verify(demo.analyst, out))


def test_captions_state_population_clustering_n_stamps_and_price_dates(demo):
    captions = json.loads((demo.out / "numbers.json").read_text())["captions"]
    assert set(ALL_FIGURES) <= set(captions)
    for fig, text in captions.items():
        assert "Mart " in text or "mart " in text, fig
        assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d to \d{4}-\d\d-\d\d \d\d:\d\d", text), f"{fig}: no stamp range"
        if fig not in ("done_but_broke", "findings_by_rule"):
            assert "Unit of clustering: " in text, fig
            assert re.search(r"(n|pairs|units) = ?[\d,]+|\d+ units", text) or "units" in text, fig
    assert "rate card rows dated 20" in captions["cost_quality"]
    assert "Holm" in captions["big_ablation_pairs"] and "never combined" in captions["big_rates"]
    with duckdb.connect(str(demo.analyst), read_only=True) as con:
        n = con.execute("SELECT sum(n_change_measured) FROM marts.big_rates").fetchall()[0][0]
        dbb = con.execute("SELECT count(*) FROM marts.fct_big_runs WHERE done_but_broke").fetchall()[0][0]
    assert f"n = {n:,} (n_change_measured" in captions["big_rates"]
    assert f"of which {dbb} are done but broke" in captions["done_but_broke"]


def test_tables_in_latex_markdown_and_csv_with_intervals_beside_denominators(demo):
    tables = demo.out / "tables"
    tex = (tables / "big_rates.tex").read_text()
    assert tex.startswith("\\begin{tabular}") and "\\toprule" in tex and "\\bottomrule" in tex
    md = (tables / "big_rates.md").read_text().splitlines()
    header = [c.strip() for c in md[0].strip("|").split("|")]
    i = header.index("change (mean share of assertions passed)")
    assert header[i + 1] == "n (n_change_measured)" and header[i + 2] == "C"
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in md[2:]]
    assert all(INTERVAL.match(r[i]) for r in cells), [r[i] for r in cells if not INTERVAL.match(r[i])][:3]
    with open(tables / "big_rates.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    with duckdb.connect(str(demo.analyst), read_only=True) as con:
        want = con.execute("SELECT change_mean, change_ci_low, change_ci_high, n_change_measured FROM marts.big_rates "
                           "ORDER BY kind, model, with_brain, with_plan").fetchall()
    assert len(rows) == len(want)
    col = "change (mean share of assertions passed)"
    for got, (m, lo, hi, n) in zip(rows, want):
        assert float(got[col]) == pytest.approx(m, rel=1e-12)   # full precision, not the printed 2 decimals
        assert float(got[f"{col} ci_low"]) == pytest.approx(lo, rel=1e-12)
        assert float(got[f"{col} ci_high"]) == pytest.approx(hi, rel=1e-12)
        assert int(got["n (n_change_measured)"]) == n


def test_admissibility_checks_list_every_rule_with_its_test_status_and_controls(demo):
    md = (demo.out / "tables" / "admissibility_checks.md").read_text()
    rows = {line.split("|")[1].strip(): line for line in md.splitlines()[2:]}
    assert sorted(rows) == [f"R{i:02d}" for i in range(1, 40)]
    for rule, line in rows.items():
        assert ": not run" not in line, f"{rule}: a test the full build should have run is not recorded"
        assert "| none |" not in line, f"{rule}: no negative control listed"
    with duckdb.connect(str(demo.analyst), read_only=True) as con:
        warned = con.execute("SELECT name, failures FROM raw.build_tests WHERE status = 'warn'").fetchall()
    assert warned, "the demo's logs have findings: some warn test must have fired"
    name, failures = warned[0]
    assert f"{name} (warn): warn ({failures:,} rows)" in md


def test_a_warehouse_with_one_family_says_what_is_absent(demo, tmp_path):
    """Only the matrix logs loaded and built: its figures are there, the other families are named as absent,
    and the numbers still trace."""
    db = tmp_path / "matrix_only.duckdb"
    run(["load", str(demo.data / "logs"), "--db", str(db), "--quiet"], tmp_path)
    run(["build", "--db", str(db)], tmp_path)
    proc = run(["report", "--db", str(db), "--out", "out"], tmp_path)
    assert "absent: brownfield suite: no brownfield suite data" in proc.stdout
    assert "absent: coder-eval: no coder-eval data" in proc.stdout
    assert "absent: inspect_ai: no inspect_ai data" in proc.stdout
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert 'data-figure="matrix_pass_rates"' in page and 'data-figure="big_rates"' not in page
    assert "Absent: no three-layer pipeline data in this warehouse" in page
    assert not (tmp_path / "out" / "figures" / "big_rates.svg").exists()
    assert verify(tmp_path / "matrix_only.analyst.duckdb", tmp_path / "out") == []


def test_an_unbuilt_warehouse_gives_a_report_that_says_nothing_is_there(tmp_path):
    db = tmp_path / "empty.duckdb"
    run(["load", str(tmp_path / "nothing"), "--db", str(db), "--create"], tmp_path, check=False)
    duckdb.connect(str(db)).close()
    result = write_report(db, tmp_path / "out")
    assert result.figures == []
    text = " ".join(result.absent)
    for family in ("brownfield", "matrix", "layered", "coder-eval", "inspect_ai"):
        assert family in text
    page = result.html.read_text(encoding="utf-8")
    assert "Absent: " in page and "data-figure" not in page


def test_report_refuses_a_missing_warehouse(tmp_path):
    proc = run(["report", "--db", str(tmp_path / "none.duckdb")], tmp_path, check=False)
    assert proc.returncode == 1 and "does not exist yet" in proc.stderr and "Traceback" not in proc.stderr


def test_a_second_report_into_the_same_folder_drops_figures_it_no_longer_has(demo, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(demo.out, out)
    (out / "figures" / "stale_figure.svg").write_text("<svg/>")
    write_report(demo.analyst, out)
    assert not (out / "figures" / "stale_figure.svg").exists()
    assert (out / "figures" / "big_rates.svg").exists()


def test_large_warehouses_split_tall_forests_and_cap_listed_runs(demo, tmp_path, monkeypatch):
    """A stratum count or a run count far above the demo's must not make a page-long PDF or a table of every run:
    forests are drawn in parts (the table stays whole), the corner's run list is cut with its true count
    stated, and every number still traces."""
    from evalhouse.report import sections, strata

    monkeypatch.setattr(strata, "MAX_FOREST_ROWS", 10)
    monkeypatch.setattr(sections, "MAX_LISTED_RUNS", 5)
    result = write_report(demo.analyst, tmp_path / "out")
    with duckdb.connect(str(demo.analyst), read_only=True) as con:
        n_rates = con.execute("SELECT count(*) FROM marts.big_rates").fetchall()[0][0]
        n_dbb = con.execute("SELECT count(*) FROM marts.fct_big_runs WHERE done_but_broke").fetchall()[0][0]
    parts = [f for f in result.figures if f == "big_rates" or f.startswith("big_rates_part")]
    assert len(parts) == -(-n_rates // 10) and (tmp_path / "out" / "figures" / f"{parts[-1]}.pdf").exists()
    md = (tmp_path / "out" / "tables" / "big_rates.md").read_text().splitlines()
    assert len(md) == 2 + n_rates                                       # the table is whole
    dbb = (tmp_path / "out" / "tables" / "done_but_broke.md").read_text().splitlines()
    assert len(dbb) == 2 + 5 and n_dbb > 5
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert re.search(rf'The first 5 of <span data-n="n\d+">{n_dbb}</span> runs', page)
    assert verify(demo.analyst, tmp_path / "out") == []


def test_the_inspect_ai_section_shows_inspects_numbers_beside_evalhouses(demo):
    """The demo's inspect_ai logs: the metrics table (stored, recomputed, errors counted as wrong) and the model
    pairs, every cell traced to its mart row; model-a's match accuracy reads 0.75 stored, 0.60 with its errored
    sample counted as wrong."""
    md = (demo.out / "tables" / "inspect_metrics.md").read_text()
    assert "| stored | recomputed | errors as incorrect |" in md
    assert any("mockllm/model-a" in line and "| match | mean | 0.75 | 0.75 | 0.60 | 4 | 5 |" in line for line in md.splitlines())
    pairs = (demo.out / "tables" / "inspect_model_pairs.md").read_text()
    assert "mockllm/model-b" in pairs and "difference [95% CI]" in pairs
    numbers = json.loads((demo.out / "numbers.json").read_text())
    marts = {n["mart"] for n in (numbers if isinstance(numbers, list) else numbers.get("numbers", []))}
    assert {"marts.inspect_metrics", "marts.inspect_model_pairs"} <= marts
