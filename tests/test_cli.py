"""CLI usage errors: exit 2 with a message a person can act on, before anything is written."""
from pathlib import Path

import pytest

from evalhouse.cli import main


@pytest.mark.parametrize("name", ["main.duckdb", "temp.duckdb", "system.db", "memory.duckdb"])
def test_reserved_database_names_are_refused(tmp_path: Path, name: str, capsys):
    db = tmp_path / name
    assert main(["load", str(tmp_path), "--db", str(db)]) == 2
    assert "reserved" in capsys.readouterr().err
    assert not db.exists()


def test_unknown_command_is_a_usage_error():
    assert main(["frobnicate"]) == 2
