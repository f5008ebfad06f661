"""scripts/repeated_blocks.py: each kind of repeated block is recognised, and a pair no rule explains is
listed as `unexplained` (the ledger never files an unknown repetition under a kind that is kept)."""
from __future__ import annotations

import pytest

from helpers import script_module

rb = script_module("repeated_blocks")

IMPORTS = ["with runs as (", "select * from {{ ref('stg_a') }}", "recomputed as (",
           "select * from {{ ref('int_b') }}", "checks as (", "select", "r.source_file,"]
SELECT = ["select", "c.run_id,", "count(*) as n_pairs,", "sum(c.n) as n,", "avg(c.x) as x_mean,", "max(c.y) as y"]


@pytest.mark.parametrize("fa, ta, fb, tb, kind", [
    ("models/marts/a/a_x.sql", IMPORTS, "models/intermediate/b/int_b__y.sql", IMPORTS, "import-ctes"),
    ("models/marts/a/a_x.sql", SELECT, "models/marts/b/b_y.sql", SELECT, "select-list"),
    ("models/intermediate/a/int_dq__a_r01_x.sql", SELECT, "models/intermediate/b/int_dq__b_r02_y.sql", SELECT,
     "dq-pattern"),
    ("models/staging/a/stg_a__x.sql", SELECT, "models/staging/a/stg_a__y.sql", SELECT, "staging-frame"),
    ("models/staging/a/stg_a__x.sql", ["{{ config(", "materialized='incremental',"] + SELECT,
     "models/staging/a/stg_a__y.sql", ["{{ config(", "materialized='incremental',"] + SELECT, "incremental-header"),
    ("models/marts/a/a_model_pairs.sql", ["ranked as ("] + SELECT, "models/marts/b/b_model_pairs.sql",
     ["ranked as ("] + SELECT, "paired-pipeline"),
    ("tests/dbt/r01_x.sql", SELECT, "models/marts/a/a_x.sql", SELECT, "rule-test"),
    ("tests/big/test_big.py", SELECT, "tests/big/test_big.py", SELECT, "python"),
    ("tests/reliability/mini_project/macros/m.sql", SELECT, "macros/m.sql", SELECT, "fixture-project"),
    ("docs/a.sh", SELECT, "docs/b.sh", SELECT, "unexplained"),
])
def test_each_kind_is_recognised(fa, ta, fb, tb, kind):
    assert rb.classify(fa, ta, fb, tb) == kind
    assert kind in rb.KINDS


def test_the_ledger_lists_every_pair_with_its_kind(tmp_path, monkeypatch, capsys):
    for name, lines in {"models/marts/a/a_x.sql": SELECT, "models/marts/b/b_y.sql": SELECT}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(rb, "ROOT", tmp_path)
    report = ("1 pair of places (2 files read), ...\n"
              "D1 models/marts/a/a_x.sql:1-6 ~ models/marts/b/b_y.sql:1-6 shape\n")
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(report))
    assert rb.main() == 0
    out = capsys.readouterr().out
    assert "| select-list | 1 |" in out
    assert "| D1 | `models/marts/a/a_x.sql:1-6` | `models/marts/b/b_y.sql:1-6` | shape | select-list |" in out
