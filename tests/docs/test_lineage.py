"""Column-level lineage (evalhouse/lineage.py): computed from compiled SQL, back to raw JSON paths or seeds.

1. A small dbt project (tests/docs/lineage_toy, compiled with the REAL macros/engine macros) with hand-known lineage: JSON paths, CTEs,
   a json_each unnest, a fragment read again in a later model, a seed join, counts and a constant
   (the negative control: a mart column whose lineage ends in a constant is reported).
2. The real project: the committed seeds/lineage/field_lineage_computed.csv equals what the current
   manifest gives (else `make lineage`), every mart column reaches raw data or a seed, and
   marts.field_lineage holds exactly the committed rows.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import duckdb
import pytest

from evalhouse import lineage as L
from evalhouse.dbt_runner import dbt_env, dbt_executable
from evalhouse.schema import ensure_raw_schema

TOY = Path(__file__).resolve().parent / "lineage_toy"
RECORD = ('{"kind":"fix","change":0.5,"config":{"primary":"m"},'
          '"change_detail":[["a",true],["b",false]]}')


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    work = tmp_path_factory.mktemp("lineage_toy")
    db = work / "toy.duckdb"
    con = duckdb.connect(str(db))
    try:
        ensure_raw_schema(con)
        con.execute("insert into raw.big_lines values ('l1', now(), 'a.jsonl', 1, ?, 'x', 'y', null)", [RECORD])
    finally:
        con.close()
    env = dbt_env(db, work / "target")
    env["DBT_PROJECT_DIR"] = str(TOY)
    for args in (["build"], ["docs", "generate"]):
        proc = subprocess.run([dbt_executable(), *args, "--project-dir", str(TOY)], cwd=TOY, env=env,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout[-4000:]
    manifest, catalog = L.load_target(work / "target")
    return L.compute(manifest, catalog)


def _rows(res, model, column):
    return [r for r in res.rows if r["mart_model"] == model and r["mart_column"] == column]


def _ends(res, model, column):
    return {(r["upstream_model"], r["upstream_column"], r["raw_json_path"], r["lineage_end"])
            for r in _rows(res, model, column) if r["lineage_end"]}


def test_lineage_follows_json_paths_through_models(toy):
    assert toy.unparsed == {}
    assert _ends(toy, "fct_toy_runs", "change") == {("raw.big_lines", "record", "$.change", "raw_json")}
    chain = sorted((int(r["depth"]), r["upstream_model"], r["upstream_column"])
                   for r in _rows(toy, "fct_toy_runs", "change"))
    assert chain == [(1, "stg_toy__runs", "change"), (2, "raw.big_lines", "record")]
    # a fragment ($.config) read again downstream ($.primary) composes into one path
    assert _ends(toy, "fct_toy_runs", "primary_model") == {
        ("raw.big_lines", "record", "$.config.primary", "raw_json")}


def test_lineage_of_a_count_over_an_unnest_reaches_the_array(toy):
    ends = _ends(toy, "fct_toy_runs", "change_assertions_total")
    assert ("raw.big_lines", "record", "$.change_detail[*]", "raw_json") in ends
    depths = {(r["upstream_model"], int(r["depth"])) for r in _rows(toy, "fct_toy_runs", "change_assertions_total")}
    assert ("int_toy__run_counts", 1) in depths and ("stg_toy__assertions", 2) in depths


def test_lineage_ends_in_seeds_and_raw_columns(toy):
    assert _ends(toy, "fct_toy_runs", "kind_category") == {("kind_map", "kind_category", "seed", "seed")}
    assert _ends(toy, "fct_toy_runs", "run_number") == {
        ("raw.big_lines", "source_file", "", "raw_column"), ("raw.big_lines", "source_line", "", "raw_column")}
    # the pass flag of each assertion: unnest path + element path
    res_paths = {r["raw_json_path"] for r in toy.rows if r["lineage_end"] == "raw_json"}
    assert "$.change_detail[*]" in res_paths


def test_constant_column_is_reported_as_missing_lineage(toy):
    """Negative control: toy_rates has a UNION branch without FROM, so its columns end in constants."""
    cols = [(r["mart_model"], r["mart_column"]) for r in toy.rows]
    bad = L.columns_without_lineage(toy.rows, sorted(set(cols)))
    assert bad and all(b.startswith("toy_rates.") for b in bad), bad
    assert not [b for b in bad if b.startswith("fct_toy_runs.")]


def test_lineage_description_renders_the_chain(toy):
    text = L.describe(toy.rows, "fct_toy_runs", "primary_model")
    assert "`stg_toy__runs.config_json`" in text and "$.config.primary" in text


_DOCS = {"raw": {"docs": {"source_file": "varchar", "document": "varchar"}}}
_LIST = "case when json_type(d.document, '$.items') = 'ARRAY' then json_extract(d.document, '$.items[*]') end"
_KEYS = "case when json_type(d.document, '$.items') = 'OBJECT' then json_keys(d.document, '$.items') end"
_MEMBERS = "case when json_type(d.document, '$.items') = 'OBJECT' then json_extract(d.document, '$.items.*') end"


@pytest.mark.parametrize("lateral", [
    # the table function (Spark's macros and older DuckDB macros compile to this shape)
    "select je.value::varchar as value, je.key::integer as position from json_each(d.document, '$.items') as je",
    # DuckDB's macros: the list unnested in the SELECT list of a lateral with no FROM
    f"select unnest({_LIST})::varchar as value, (generate_subscripts({_LIST}, 1) - 1)::integer as position",
    f"select unnest({_KEYS})::varchar as key, unnest({_MEMBERS})::varchar as value, "
    f"(generate_subscripts({_KEYS}, 1) - 1)::integer as position",
])
def test_both_unnest_forms_reach_the_list(lateral):
    sql = f"select d.source_file, je.value, je.position from raw.docs as d cross join lateral ({lateral}) as je"
    edges = L.model_edges(sql, _DOCS)
    listed = L.Edge("raw.docs", "document", ".items[*]")
    assert edges["value"] == {listed} and edges["position"] == {listed}
    assert edges["*"] == {L.Edge("raw.docs", "*", ""), listed}     # the rows: the table and the list it unnests
    assert edges["source_file"] == {L.Edge("raw.docs", "source_file", "")}


# ------------------------------------------------------------------ the real project
def _mart_columns(build) -> list[tuple[str, str]]:
    rels, cols = L.load_relations(build.manifest, build.catalog)
    return sorted((r.name, c) for r in rels.values() if r.kind == "model" and r.path.startswith(L.MART_PREFIX)
                  for c in cols.get(r.key, {}))


def test_every_mart_column_has_lineage_to_raw_or_a_seed(docs_build):
    res = docs_build.lineage
    unparsed = {k: v for k, v in res.unparsed.items()}
    assert not unparsed, f"sqlglot could not parse: {unparsed}"
    bad = L.columns_without_lineage(res.rows, _mart_columns(docs_build))
    assert not bad, f"{len(bad)} mart columns without lineage back to raw or a seed:\n" + "\n".join(bad[:60])


def test_committed_lineage_csv_is_current(docs_build):
    committed = Path(L.__file__).resolve().parent.parent / "seeds" / "lineage" / "field_lineage_computed.csv"
    current = L.to_csv(docs_build.lineage.rows)
    if committed.read_text() != current:
        old, new = set(committed.read_text().splitlines()), set(current.splitlines())
        changed = sorted({line.split(",", 2)[0] + "." + line.split(",", 2)[1] for line in old ^ new})
        pytest.fail("seeds/lineage/field_lineage_computed.csv is stale: run `make lineage` and commit it "
                    f"({len(old - new)} rows gone, {len(new - old)} new; mart columns: {', '.join(changed[:15])}"
                    f"{' ...' if len(changed) > 15 else ''})")


def test_marts_field_lineage_holds_the_committed_rows(docs_build):
    committed = L.read_csv(Path(L.__file__).resolve().parent.parent / "seeds" / "lineage" / "field_lineage_computed.csv")
    con = duckdb.connect(str(docs_build.db), read_only=True)
    try:
        n, n_raw = con.execute("select count(*), count(*) filter (where lineage_end = 'raw_json') "
                               "from marts.field_lineage").fetchall()[0]
    finally:
        con.close()
    assert n == len(committed) > 0
    assert n_raw == sum(1 for r in committed if r["lineage_end"] == "raw_json") > 0


def test_change_assertions_total_traces_to_change_detail(docs_build):
    """The issue's example: fct_big_runs.change_assertions_total <- ... <- raw record $.change_detail."""
    ends = _ends(docs_build.lineage, "fct_big_runs", "change_assertions_total")
    assert any(m == "raw.big_lines" and p.startswith("$.change_detail") for m, _, p, _ in ends), ends


def test_site_descriptions_carry_the_lineage(docs_build):
    import json
    manifest = json.loads((docs_build.site.parent / "manifest.json").read_text())
    node = manifest["nodes"]["model.evalhouse.fct_big_runs"]
    desc = node["columns"]["change_assertions_total"]["description"]
    head, _, tail = desc.partition("**Lineage**")
    assert head.strip(), "the column's own description is missing"
    assert "raw.big_lines" in tail and "$.change_detail" in tail
    assert os.path.getsize(docs_build.site) > 1_000_000   # manifest and catalog inlined
