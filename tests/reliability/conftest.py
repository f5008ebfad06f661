"""Fixtures for the build/publish reliability tests (see relutil.py)."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from relutil import evalhouse, insert_lines, make_working


@pytest.fixture(scope="session")
def mini_baseline(tmp_path_factory):
    """Built and published once per session on the mini project: one batch of 5 raw lines."""
    base = tmp_path_factory.mktemp("mini_baseline")
    db = make_working(base / "evalhouse.duckdb")
    insert_lines(db, 0, 5)
    t0 = time.monotonic()
    proc = evalhouse(["build", "--db", str(db)], base)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return base, time.monotonic() - t0


@pytest.fixture
def built(mini_baseline, tmp_path: Path):
    """A private copy of the baseline (working file, analyst file, dbt target for partial parsing);
    returns (working db path, seconds the baseline build took)."""
    base, build_s = mini_baseline
    for p in base.iterdir():
        if p.is_dir():
            shutil.copytree(p, tmp_path / p.name)
        else:
            shutil.copy2(p, tmp_path / p.name)
    return tmp_path / "evalhouse.duckdb", build_s
