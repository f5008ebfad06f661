"""Every generated file is what its generator in scripts/ writes (`make generate` regenerates them all):
the statistics unit tests and their seeds (scipy oracle), the t-quantile table, the rules table and the
views that keep renamed marts under their old names. (The
field-lineage seed has its own check: tests/docs/test_lineage.py::test_committed_lineage_csv_is_current.)"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("script", ["stats_oracle.py", "gen_t_quantiles.py", "rules_table.py", "gen_mart_aliases.py"])
def test_generated_file_is_current(script):
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / script), "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"run: python scripts/{script} --write\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"
