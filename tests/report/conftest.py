"""One demo warehouse and its report for every report test: `evalhouse demo` run as a user runs it (the
console script, in a temp folder), which loads the sample logs, builds, publishes and writes the report."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import evalhouse_cli


@dataclass
class Demo:
    root: Path
    db: Path
    analyst: Path
    data: Path
    out: Path           # the report folder
    stdout: str


@pytest.fixture(scope="session")
def demo(tmp_path_factory) -> Demo:
    root = tmp_path_factory.mktemp("report_demo")
    proc = evalhouse_cli(["demo", "--db", "evalhouse.duckdb", "--data-dir", "data"], root)
    return Demo(root, root / "evalhouse.duckdb", root / "evalhouse.analyst.duckdb", root / "data", root / "report",
                proc.stdout)
