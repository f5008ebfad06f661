"""R26 negative controls for the fact tables of the matrix, layered and cost families (the big and
coder-eval families have theirs in their own suites): one fact row that lost part of its
provenance makes the has_provenance test fail. Builds: tests/rules/conftest.py."""
from __future__ import annotations

import pytest

from rules_builds import R26_TESTS


@pytest.mark.parametrize("name", R26_TESTS)
def test_r26_fact_provenance_fires_on_planted_row(rules_runs, name):
    clean = rules_runs["clean"][1]
    assert clean[name]["status"] == "pass", clean.get(name)
    r = rules_runs["tampered"][1][name]
    assert r["status"] == "fail" and r["failures"] == 1, r
