"""Rule-coverage audit (fast: plain file parsing, no dbt run). For every admissibility rule R01-R39:
at least one dbt test named r<NN>_* whose description names the rule, and at least one pytest
negative control under tests/ (a test named test_r<NN>_*, or a parametrized test whose parameter names an
r<NN>_ dbt test). Discovery: scripts/rules_table.py, which also generates docs/rules_enforcement.md (checked
here to be current). On failure the table of what is missing is
printed."""
from __future__ import annotations

import re
import sys

from evalhouse.paths import PROJECT_DIR

sys.path.insert(0, str(PROJECT_DIR / "tests" / "rules"))
from rules_builds import load_rules_table  # noqa: E402

R = load_rules_table()
R25_SQL = sorted((PROJECT_DIR / "tests" / "dbt").glob("r25_*.sql"))


def test_every_rule_has_a_described_dbt_test_and_a_negative_control():
    cov = R.coverage()
    assert [c.rule for c in cov] == [f"R{i:02d}" for i in range(1, 40)]
    table = R.missing_table(cov)
    print(table)
    missing = {c.rule: c.missing for c in cov if c.missing}
    assert not missing, "rules not enforced end to end:\n" + table


def test_every_rule_test_names_its_rule_in_its_description():
    tests = R.discover_dbt_tests()
    assert len(tests) >= 27
    bad = [f"{t.name} ({t.path}): {t.description!r}" for t in tests
           if not re.search(rf"\b{t.rule}\b", t.description)]
    assert not bad, "dbt rule tests whose description does not name their rule:\n" + "\n".join(bad)


def test_every_rule_test_is_exercised_by_a_pytest_file():
    """Each r<NN>_* dbt test is named in some pytest file (where its negative control checks its status)."""
    texts = [p.read_text() for p in (PROJECT_DIR / "tests").rglob("*.py")
             if p.name != "test_rule_coverage.py" and not (R.SKIP_DIRS & set(p.parts))]
    orphans = [f"{t.name} ({t.path})" for t in R.discover_dbt_tests() if not any(t.name in s for s in texts)]
    assert not orphans, "dbt rule tests no pytest file checks:\n" + "\n".join(orphans)


def test_every_listed_negative_control_is_a_collected_test(request):
    """Each pytest id the rules table lists (docs/rules_enforcement.md) is a test this session collected, or a
    function whose parametrized cases it collected (ids in files this session did not collect are not judged;
    tests/conftest.py keeps the ids as collected, before -k or -m deselect any)."""
    from helpers import COLLECTED_IDS

    collected = request.config.stash[COLLECTED_IDS]
    assert request.node.nodeid.split("@")[0] in collected
    files = {nodeid.split("::")[0] for nodeid in collected}
    listed = [c for cov in R.coverage() for c in cov.controls if c.split("::")[0] in files]
    stale = [c for c in listed if c not in collected and not any(n.startswith(c + "[") for n in collected)]
    assert not stale, "the rules table names tests pytest does not collect:\n" + "\n".join(stale)


def test_r25_tests_depend_on_every_aggregate_mart():
    """The R25 tests read the catalog, so they must run after every aggregate mart: their depends_on
    lists have to name each one (fct_ / dim_ tables, data_quality_findings and field_lineage are out of
    scope by design, see macros/tests/r25_rate_columns.sql)."""
    marts = {p.stem for p in (PROJECT_DIR / "models" / "marts").rglob("*.sql")
             if not p.stem.startswith(("fct_", "dim_")) and p.stem not in ("data_quality_findings", "field_lineage")
             and p.parent.name != "aliases"}  # an old name is a view of a mart listed under its own name
    assert len(R25_SQL) == 2 and marts
    for sql in R25_SQL:
        refs = set(re.findall(r"depends_on:\s*\{\{\s*ref\('(\w+)'\)", sql.read_text()))
        assert marts <= refs, f"{sql.name}: add -- depends_on: {{{{ ref('...') }}}} for {sorted(marts - refs)}"


def test_rules_doc_is_current():
    doc = PROJECT_DIR / "docs" / "rules_enforcement.md"
    assert doc.exists(), "docs/rules_enforcement.md missing: run python scripts/rules_table.py --write"
    assert doc.read_text() == R.render(), "docs/rules_enforcement.md is out of date: run python scripts/rules_table.py --write"


def test_warn_rule_tests_feed_data_quality_findings():
    """A warn test (what the logs claim) is an is_empty test on an int_dq__ model whose rows land in
    marts.data_quality_findings, so every failing row is visible there, not only in the dbt log."""
    findings = (PROJECT_DIR / "models" / "marts" / "data_quality_findings.sql").read_text()
    warn = [t for t in R.discover_dbt_tests() if t.severity == "warn"]
    assert warn
    bad = [f"{t.name} ({t.kind}, on {t.model or '?'})" for t in warn
           if not (t.model.startswith("int_dq__") and re.search(rf"\b{t.model}\b", findings))]
    assert not bad, "warn rule tests whose rows do not reach data_quality_findings:\n" + "\n".join(bad)
