"""The Python code passes ruff (pyflakes: no undefined or unused names, no unused imports; syntax), ruff.toml."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).parent / "ruff"


def test_ruff_finds_nothing():
    proc = subprocess.run([str(RUFF), "check", "evalhouse", "tests", "scripts"], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_catches_an_unused_import(tmp_path):
    """Negative control: the same check fails on a planted unused import."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    proc = subprocess.run([str(RUFF), "check", "--config", str(ROOT / "ruff.toml"), str(bad)], capture_output=True,
                          text=True)
    assert proc.returncode == 1 and "F401" in proc.stdout
