"""Documentation coverage: 100% of models and columns in staging / intermediate / marts are described,
and every admissibility-rule test (r<NN>_*) names its rule id in its description.

Checked from the manifest (descriptions as dbt rendered them, doc() blocks resolved) and the catalog
(the columns that really exist in the built warehouse), so a column added in SQL but not in the yml
is a gap too.
"""
from __future__ import annotations

import re

LAYERS = ("models/staging/", "models/intermediate/", "models/marts/")
RULE_TEST = re.compile(r"^r(\d\d)_")


def coverage_gaps(manifest: dict, catalog: dict) -> dict[str, list[str]]:
    """Undocumented models / columns, grouped by the model's directory (= its owner)."""
    gaps: dict[str, list[str]] = {}
    cat = catalog.get("nodes", {})
    for uid, node in manifest.get("nodes", {}).items():
        if node.get("resource_type") != "model":
            continue
        path = node.get("original_file_path", "")
        if not path.startswith(LAYERS):
            continue
        where = path.rsplit("/", 1)[0]
        if not (node.get("description") or "").strip():
            gaps.setdefault(where, []).append(f"{node['name']} (model description)")
        described = {k.lower(): (v.get("description") or "").strip() for k, v in node.get("columns", {}).items()}
        columns = [c["name"] for c in sorted(cat.get(uid, {}).get("columns", {}).values(),
                                               key=lambda c: c.get("index", 0))]
        if uid not in cat:
            gaps.setdefault(where, []).append(f"{node['name']} (not in the catalog: model not built)")
        for col in columns or list(node.get("columns", {})):
            if not described.get(col.lower()):
                gaps.setdefault(where, []).append(f"{node['name']}.{col}")
    return gaps


def rule_test_gaps(manifest: dict) -> list[str]:
    """Rule tests whose description does not name their rule id (e.g. 'R07') and explain it in a sentence."""
    bad = []
    for node in manifest.get("nodes", {}).values():
        if node.get("resource_type") != "test":
            continue
        m = RULE_TEST.match(node["name"])
        if not m:
            continue
        rid = f"R{m.group(1)}"
        desc = node.get("description") or ""
        explained = len(re.sub(rf"\b{rid}\b", "", desc, flags=re.IGNORECASE).strip(" :.-")) >= 20
        if not re.search(rf"\b{rid}\b", desc, flags=re.IGNORECASE) or not explained:
            bad.append(f"{node['name']} ({node.get('original_file_path')}): description {desc[:60]!r}")
    return sorted(bad)


def _report(gaps: dict[str, list[str]]) -> str:
    n = sum(len(v) for v in gaps.values())
    lines = [f"{n} undocumented models/columns:"]
    for where in sorted(gaps):
        lines.append(f"  {where}: {len(gaps[where])}")
        lines.extend(f"    - {g}" for g in gaps[where][:40])
        if len(gaps[where]) > 40:
            lines.append(f"    ... and {len(gaps[where]) - 40} more")
    return "\n".join(lines)


def test_every_model_and_column_is_documented(docs_build):
    gaps = coverage_gaps(docs_build.manifest, docs_build.catalog)
    assert not gaps, _report(gaps)


def test_every_rule_test_names_its_rule(docs_build):
    names = [n["name"] for n in docs_build.manifest["nodes"].values()
             if n.get("resource_type") == "test" and RULE_TEST.match(n["name"])]
    assert names, "no r<NN>_* rule tests found in the project"
    bad = rule_test_gaps(docs_build.manifest)
    assert not bad, "rule tests whose description does not name the rule id:\n" + "\n".join(bad)


def test_every_rule_r01_to_r26_has_a_test(docs_build):
    ids = {int(RULE_TEST.match(n["name"]).group(1)) for n in docs_build.manifest["nodes"].values()
           if n.get("resource_type") == "test" and RULE_TEST.match(n["name"])}
    missing = [f"R{i:02d}" for i in range(1, 27) if i not in ids]
    assert not missing, f"rules without a dbt test named r<NN>_*: {missing}"


def test_overview_page_explains_rules_and_negative_controls(docs_build):
    overview = next(d for d in docs_build.manifest["docs"].values() if d["name"] == "__overview__"
                    and d["package_name"] == "evalhouse")
    text = overview["block_contents"]
    missing = [f"R{i:02d}" for i in range(1, 27) if f"**R{i:02d}**" not in text]
    assert not missing, f"overview misses rules {missing}"
    assert "Negative controls" in text and "analysts.md" in text and "field_lineage" in text


# ---- negative controls of the checkers themselves: a gap must be reported -------------------------
def _fake(desc_model="A model.", col_desc="A column.", test_desc="R04: change matches its detail."):
    manifest = {"nodes": {
        "model.evalhouse.m": {"resource_type": "model", "name": "m", "original_file_path": "models/marts/x/m.sql",
                              "description": desc_model, "columns": {"a": {"description": col_desc}}},
        "test.evalhouse.r04_x": {"resource_type": "test", "name": "r04_x", "original_file_path": "tests/dbt/r04_x.sql",
                                 "description": test_desc},
    }}
    catalog = {"nodes": {"model.evalhouse.m": {"columns": {"a": {"name": "a", "index": 1},
                                                            "b": {"name": "b", "index": 2}}}}}
    return manifest, catalog


def test_coverage_checker_reports_missing_descriptions():
    manifest, catalog = _fake(desc_model="", col_desc="")
    gaps = coverage_gaps(manifest, catalog)
    assert gaps == {"models/marts/x": ["m (model description)", "m.a", "m.b"]}
    manifest, catalog = _fake()
    catalog["nodes"]["model.evalhouse.m"]["columns"].pop("b")
    assert coverage_gaps(manifest, catalog) == {}


def test_rule_test_checker_reports_a_description_without_its_rule_id():
    assert rule_test_gaps(_fake()[0]) == []
    assert len(rule_test_gaps(_fake(test_desc="change matches its detail (R4)")[0])) == 1
    assert len(rule_test_gaps(_fake(test_desc="")[0])) == 1
    assert len(rule_test_gaps(_fake(test_desc="R04")[0])) == 1          # names the rule, explains nothing


def test_every_rule_has_a_negative_control_in_pytest():
    """The overview promises a negative control per rule: a pytest case named test_r<NN>_..., or a parametrized
    case named for the rule's dbt test (test_...[r<NN>_...]), found as docs/rules_enforcement.md finds them."""
    import sys

    from evalhouse.paths import PROJECT_DIR

    sys.path.insert(0, str(PROJECT_DIR / "tests" / "rules"))
    from rules_builds import load_rules_table

    controls = load_rules_table().discover_controls()
    missing = [rule for rule, ids in controls.items() if not ids]
    assert len(controls) >= 33 and not missing, f"rules without a pytest negative control: {missing}"
