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


@pytest.mark.parametrize("name,why", [("raw.duckdb", "schemas"), ("marts.duckdb", "schemas"),
                                      ("w.analyst.duckdb", "analyst file")])
def test_database_names_that_would_break_the_warehouse_are_refused(tmp_path: Path, name: str, why: str, capsys):
    """Issue 14 (12 and the clear-errors list): `--db raw.duckdb` gave an ambiguous-reference error, and the
    analyst file as --db wrote into the published file."""
    assert main(["load", str(tmp_path), "--db", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert why in err and "Traceback" not in err
    assert not (tmp_path / name).exists()


def test_a_sqlite_file_or_a_device_as_db_is_refused_clearly(tmp_path: Path, capsys):
    lite = tmp_path / "old.db"
    lite.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    assert main(["load", str(tmp_path), "--db", str(lite)]) == 2
    assert "SQLite database, not a DuckDB file" in capsys.readouterr().err
    assert main(["build", "--db", "/dev/null"]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert not Path("/dev/null.lock").exists()


def test_ctrl_c_is_a_message_not_a_traceback(tmp_path: Path, monkeypatch, capsys):
    import evalhouse.load

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(evalhouse.load, "load_paths", interrupted)
    assert main(["load", str(tmp_path), "--db", str(tmp_path / "w.duckdb")]) == 130
    err = capsys.readouterr().err
    assert "interrupted; nothing was written" in err and "Traceback" not in err


def test_two_warehouses_in_one_folder_never_share_an_analyst_file(tmp_path: Path):
    """Issue 14 (12): `w.duckdb` and `w.db` derived the same `w.analyst.duckdb`."""
    from evalhouse.paths import analyst_path, build_temp_path

    assert analyst_path(tmp_path / "w.duckdb") == tmp_path / "w.analyst.duckdb"
    assert analyst_path(tmp_path / "w.db") == tmp_path / "w.db.analyst.duckdb"
    assert build_temp_path(tmp_path / "w.db") != build_temp_path(tmp_path / "w.duckdb")
    assert analyst_path(tmp_path / "warehouse") == tmp_path / "warehouse.analyst.duckdb"


def test_a_mistyped_db_next_to_a_warehouse_is_refused_unless_create(tmp_path: Path, capsys):
    """Issue 14 (clear errors): a mistyped --db silently started a new, empty warehouse beside the real one."""
    logs = tmp_path / "logs_big"
    logs.mkdir()
    (logs / "a.jsonl").write_text('{"id": "A"}\n')
    assert main(["load", str(logs), "--db", str(tmp_path / "w.duckdb"), "--quiet"]) == 0   # first: no guard
    capsys.readouterr()
    assert main(["load", str(logs), "--db", str(tmp_path / "ww.duckdb")]) == 2
    err = capsys.readouterr().err
    assert "w.duckdb" in err and "--create" in err and not (tmp_path / "ww.duckdb").exists()
    assert main(["load", str(logs), "--db", str(tmp_path / "ww.duckdb"), "--create", "--quiet"]) == 0
    assert (tmp_path / "ww.duckdb").exists()


@pytest.mark.parametrize("command", ["build", "publish", "sql"])
def test_build_publish_and_sql_never_create_a_warehouse(tmp_path: Path, command: str, capsys):
    """build and publish refuse a missing working file (exit 2); sql says it does not exist (exit 1, as before)."""
    db = tmp_path / "nope.duckdb"
    assert main([command, "--db", str(db)] + (["select 1"] if command == "sql" else [])) == (1 if command == "sql" else 2)
    err = capsys.readouterr().err
    assert "does not exist" in err and ("evalhouse load" in err or command == "sql")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_lake_without_the_spark_target_is_a_usage_error(tmp_path: Path, capsys):
    db = tmp_path / "w.duckdb"
    assert main(["load", str(tmp_path), "--db", str(db)]) == 0
    assert main(["build", "--db", str(db), "--lake", str(tmp_path / "lake")]) == 2
    assert "--lake is for --target spark" in capsys.readouterr().err
    assert not (tmp_path / "lake").exists()


def test_a_bad_spark_thread_count_is_a_usage_error_before_anything_is_exported(tmp_path: Path, capsys, monkeypatch):
    db = tmp_path / "w.duckdb"
    assert main(["load", str(tmp_path), "--db", str(db)]) == 0
    monkeypatch.setenv("EVALHOUSE_SPARK_THREADS", "two")
    assert main(["build", "--db", str(db), "--target", "spark", "--lake", str(tmp_path / "lake")]) == 2
    assert "EVALHOUSE_SPARK_THREADS='two'" in capsys.readouterr().err
    assert not (tmp_path / "lake" / "raw").exists()


def test_the_default_lake_sits_beside_the_working_file(tmp_path: Path, monkeypatch):
    from evalhouse.config import lake_dir
    monkeypatch.delenv("EVALHOUSE_LAKE", raising=False)
    assert lake_dir(tmp_path / "evals.duckdb") == tmp_path / "evals.lake"
    monkeypatch.setenv("EVALHOUSE_LAKE", str(tmp_path / "elsewhere"))
    assert lake_dir(tmp_path / "evals.duckdb") == tmp_path / "elsewhere"
