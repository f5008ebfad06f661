"""The dbt DAG follows its folders (issue 15; docs/architecture.md): only staging reads sources, marts read
intermediate models (not staging), intermediate models never read marts, staging reads only sources and
staging. Read from dbt's own manifest.json. Today's exceptions are listed below, each with its reason: the
test fails on any new violation, and on an exception that is no longer needed (remove it), so the list only
shrinks."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import dbt, fresh_db

_REPORT = ("a coder-eval report mart shows the value the harness STORED (run.json, variant.json, experiment.json, "
           "suite.json) beside evalhouse's recomputation; the stored value is read as typed in staging, and a "
           "pass-through intermediate model would only rename it")

EXCEPTIONS = {
    ("coder_eval_criterion_stats", "stg_coder_eval__criterion_results"): _REPORT,
    ("coder_eval_run_summaries", "stg_coder_eval__runs"): _REPORT,
    ("coder_eval_suite_results", "stg_coder_eval__suite_criterion_aggregates"): _REPORT,
    ("coder_eval_suite_results", "stg_coder_eval__suite_criterion_metrics"): _REPORT,
    ("coder_eval_suite_results", "stg_coder_eval__suite_threshold_checks"): _REPORT,
    ("coder_eval_suite_results", "stg_coder_eval__suites"): _REPORT,
    ("coder_eval_variant_comparisons", "stg_coder_eval__experiments"): _REPORT,
    ("coder_eval_variant_rates", "stg_coder_eval__variants"): _REPORT,
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


@pytest.fixture(scope="module")
def manifest(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("parse")
    dbt(["parse"], fresh_db(tmp / "w.duckdb"), tmp / "target")
    return json.loads((tmp / "target" / "manifest.json").read_text())


def test_the_dag_follows_the_folders(manifest):
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


# the family words: one per log family, plus the cross-family areas (costs, the raw load tables, reference data)
FAMILIES = ("big", "matrix", "layered", "coder_eval", "inspect", "costs", "raw", "reference")
# names that state what they measure across families (docs/architecture.md, "Names")
NAMED_FOR_WHAT_THEY_MEASURE = {"data_quality_findings", "field_lineage", "cost_quality_frontier"}


def naming_problems(manifest: dict) -> list[str]:
    """Every model's yml entry is in its SQL's folder (a `base/` model's in the folder above), so its docs and tests
    are found beside it, and its name carries its folder's family word in its layer's pattern:
    staging/<f>/stg_<f>__* (base/base_<f>__*), intermediate/<f>/int_<f>__* or int_dq__<f>_* (data-quality findings),
    marts/<f>/fct_<f>_* (facts) or <f>_* (aggregates), marts/aliases/ (old names, generated)."""
    out = []
    for node in manifest["nodes"].values():
        if node["resource_type"] != "model":
            continue
        folder = Path(node["original_file_path"]).parent
        folder = folder.parent if folder.name == "base" else folder
        if node.get("patch_path") and Path(node["patch_path"].split("://", 1)[-1]).parent != folder:
            out.append(f"{node['original_file_path']}: described in {node['patch_path']}, not in its own folder")
        parts = Path(node["original_file_path"]).parts  # models/<layer>/<family>/[base/]<name>.sql
        name, layer = node["name"], parts[1]
        family = parts[2] if len(parts) > 3 else None
        if layer == "marts" and family == "aliases" or name in NAMED_FOR_WHAT_THEY_MEASURE:
            continue
        if family not in FAMILIES:
            out.append(f"{node['original_file_path']}: not in a family folder ({', '.join(FAMILIES)})")
            continue
        ok = {"staging": (f"stg_{family}__", f"base_{family}__"),
              "intermediate": (f"int_{family}__", f"int_dq__{family}_"),
              "marts": (f"fct_{family}_", f"{family}_")}[layer]
        if not name.startswith(ok):
            out.append(f"{node['original_file_path']}: {name} does not start with {' or '.join(ok)}")
    return sorted(out)


def test_every_model_is_named_for_its_family_and_layer(manifest):
    assert naming_problems(manifest) == []


def test_the_naming_check_catches_a_planted_name():
    """Negative control: a mart outside its family's words, a staging model in the wrong folder and a model described
    in another folder's yml are named."""
    manifest = {"nodes": {
        "model.p.a": {"resource_type": "model", "name": "ce_rates", "original_file_path": "models/marts/coder_eval/ce_rates.sql"},
        "model.p.b": {"resource_type": "model", "name": "stg_big__runs", "original_file_path": "models/staging/matrix/stg_big__runs.sql"},
        "model.p.c": {"resource_type": "model", "name": "fct_big_runs", "original_file_path": "models/marts/big/fct_big_runs.sql"},
        "model.p.d": {"resource_type": "model", "name": "int_costs__x", "original_file_path": "models/intermediate/costs/int_costs__x.sql",
                      "patch_path": "p://models/intermediate/coder_eval/_int_coder_eval__models.yml"},
        "model.p.e": {"resource_type": "model", "name": "base_big__y", "original_file_path": "models/staging/big/base/base_big__y.sql",
                      "patch_path": "p://models/staging/big/_big__models.yml"}}}
    problems = naming_problems(manifest)
    assert len(problems) == 3 and "int_costs__x.sql: described in" in problems[0] and "ce_rates" in problems[1]
    assert "stg_big__runs" in problems[2]


def macro_refs(project: Path) -> list[str]:
    """Macros never ref() a model or read a source: a model's inputs are in the model file."""
    found = []
    for path in (project / "macros").rglob("*.sql"):
        code = re.sub(r"\{#.*?#\}", lambda m: "\n" * m.group(0).count("\n"), path.read_text(), flags=re.S)  # comments
        found += [f"{path.relative_to(project)}:{i}" for i, line in enumerate(code.splitlines(), 1)
                  if re.search(r"\b(ref|source)\(\s*['\"]", line)]
    return sorted(found)


def test_no_macro_reads_a_model_or_source():
    from evalhouse.paths import PROJECT_DIR
    assert macro_refs(PROJECT_DIR) == []


def test_the_macro_check_catches_a_planted_ref(tmp_path):
    (tmp_path / "macros").mkdir()
    (tmp_path / "macros" / "m.sql").write_text("{% macro m() %}select * from {{ ref('fct_big_runs') }}{% endmacro %}\n")
    assert macro_refs(tmp_path) == ["macros/m.sql:1"]


def models_without_grain(manifest: dict) -> list[str]:
    """Every model declares its grain with the `grain` test (macros/tests/grain.sql); the old-name views of
    models/marts/aliases are views of a mart that has one."""
    tested = {n["attached_node"] for n in manifest["nodes"].values()
              if n["resource_type"] == "test" and (n.get("test_metadata") or {}).get("name") == "grain"}
    return sorted(n["name"] for k, n in manifest["nodes"].items()
                  if n["resource_type"] == "model" and k not in tested and "/aliases/" not in n["original_file_path"])


def test_every_model_declares_its_grain(manifest):
    assert models_without_grain(manifest) == []


def test_the_grain_check_catches_a_model_without_one():
    manifest = {"nodes": {
        "model.p.a": {"resource_type": "model", "name": "a", "original_file_path": "models/marts/big/a.sql"},
        "model.p.b": {"resource_type": "model", "name": "b", "original_file_path": "models/marts/big/b.sql"},
        "test.p.g": {"resource_type": "test", "attached_node": "model.p.a", "test_metadata": {"name": "grain"}},
        "test.p.u": {"resource_type": "test", "attached_node": "model.p.b", "test_metadata": {"name": "unique"}}}}
    assert models_without_grain(manifest) == ["b"]


def doubled_quotes(manifest: dict) -> list[str]:
    """No rendered description shows a doubled quote (`row''s`: a YAML plain scalar written as if it were quoted, or
    a quoted one escaped twice)."""
    out = []
    for node in [*manifest["nodes"].values(), *manifest["sources"].values()]:
        texts = {"": node.get("description") or "", **{c: v.get("description") or "" for c, v in node.get("columns", {}).items()}}
        out += [f"{node['name']}.{c}".rstrip(".") for c, t in texts.items() if "''" in t]
    return sorted(out)


def test_no_description_shows_a_doubled_quote(manifest):
    assert doubled_quotes(manifest) == []


def test_the_quote_check_catches_a_planted_one():
    manifest = {"nodes": {"model.p.a": {"name": "a", "description": "ok", "columns": {"c": {"description": "the row''s"}}}},
                "sources": {"source.p.s.t": {"name": "t", "description": "a table''s rows", "columns": {}}}}
    assert doubled_quotes(manifest) == ["a.c", "t"]


def repeated_descriptions(models_dir: Path) -> list[str]:
    """A field's description is written once per family (docs/architecture.md): a text written out for the same
    column in two models of one family is a `{% docs <family>__<column> %}` block that both refer to."""
    import yaml  # noqa: PLC0415

    seen: dict[tuple[str, str, str], list[str]] = {}
    for path in sorted(models_dir.rglob("*.yml")):
        layer_family = path.relative_to(models_dir).parts[:2]
        if len(layer_family) < 2 or layer_family[1] == "aliases":  # aliases: generated copies of the marts' entries
            continue
        for model in (yaml.safe_load(path.read_text()) or {}).get("models") or []:
            for col in model.get("columns") or []:
                text = (col.get("description") or "").strip()
                if text and "doc(" not in text:
                    seen.setdefault((layer_family[1], col["name"], text), []).append(model["name"])
    return sorted(f"{family}.{col}: {', '.join(models)}" for (family, col, _), models in seen.items() if len(models) > 1)


def test_a_field_is_described_once_per_family():
    from evalhouse.paths import PROJECT_DIR
    assert repeated_descriptions(PROJECT_DIR / "models") == []


def test_the_description_check_catches_a_planted_copy(tmp_path):
    entry = "- name: {m}\n  columns:\n  - name: task_id\n    description: The task.\n"
    for folder, model in (("intermediate/big", "int_big__a"), ("marts/big", "big_b"), ("marts/matrix", "matrix_c")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "_x.yml").write_text("models:\n" + entry.format(m=model))
    assert repeated_descriptions(tmp_path) == ["big.task_id: int_big__a, big_b"]


def duplicate_yaml_keys(root: Path) -> list[str]:
    """A key written twice in one mapping of a project yml: YAML keeps the last one and drops the first without a
    word (dbt only warns), so a model's second `columns:` would silently replace its first."""
    import yaml  # noqa: PLC0415

    found: list[str] = []

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader, node, deep=False):
        keys = [loader.construct_object(k, deep=deep) for k, _ in node.value]
        found.extend(f"{node.start_mark.name}:{node.start_mark.line + 1}: {k}" for k in sorted(
            {k for k in keys if keys.count(k) > 1}, key=str))
        return yaml.SafeLoader.construct_mapping(loader, node, deep)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    for folder in ("models", "seeds", "macros", "tests", "integration_tests"):
        for path in sorted((root / folder).rglob("*.yml")):
            with path.open(encoding="utf-8") as fh:
                yaml.load(fh, Loader=Loader)  # noqa: S506 (a SafeLoader subclass)
    return found


def test_no_yaml_key_is_written_twice():
    from evalhouse.paths import PROJECT_DIR
    assert duplicate_yaml_keys(PROJECT_DIR) == []


def test_the_duplicate_key_check_catches_a_planted_one(tmp_path):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "_x.yml").write_text(
        "models:\n- name: a\n  columns:\n  - name: b\n  columns:\n  - name: c\n- name: d\n")
    assert duplicate_yaml_keys(tmp_path) == [f"{tmp_path / 'models' / '_x.yml'}:2: columns"]
