"""raw.files has one description in Python, loader.registry.FileRecord: the SQL that reads the registry and the
SQL that writes it (loader/sql/select_files.sql, insert_files.sql) name exactly its fields, in its order, and raw.files (schema.py) has
every column it writes."""
from __future__ import annotations

import re
from dataclasses import fields

import duckdb

from evalhouse.loader import statements as S
from evalhouse.loader.registry import STORED_COLUMNS, FileRecord
from evalhouse.schema import ensure_raw_schema


def _flat(sql: str) -> str:
    """The statement without its comment lines, on one line."""
    return " ".join(" ".join(x for x in sql.splitlines() if not x.lstrip().startswith("--")).split())


def select_columns(sql: str) -> list[str]:
    sql = _flat(sql)
    listed = sql[len("SELECT "):sql.index(" FROM raw.files")].split(", ")
    return ["registered_ns" if c == "epoch_ns(l.started_at)" else c.removeprefix("f.") for c in listed]


def insert_columns(sql: str) -> tuple[list[str], list[str]]:
    sql = _flat(sql)
    named = sql[sql.index("(") + 1:sql.index(")")].split(", ")
    params = re.findall(r"\$(\w+)", sql)
    return named, params


def test_the_registry_sql_names_the_file_record_fields_in_order():
    assert select_columns(S.SELECT_FILES) == [f.name for f in fields(FileRecord)]
    named, params = insert_columns(S.INSERT_FILES)
    assert named == [*STORED_COLUMNS, "last_load_id"]
    assert params == [*STORED_COLUMNS, "load_id"]


def test_raw_files_has_every_column_the_registry_writes():
    con = duckdb.connect()
    ensure_raw_schema(con)
    cols = [r[0] for r in con.execute("SELECT column_name FROM information_schema.columns WHERE table_schema = 'raw' "
                                      "AND table_name = 'files'").fetchall()]
    assert set(STORED_COLUMNS) | {"last_load_id"} <= set(cols)
    # a registry row written and read back is the record it was
    rec = FileRecord("a.jsonl", "big", 10, 5, 10, "p", "f", 2, 2, "L1", None, None, None, "h")
    con.execute("INSERT INTO raw.loads (load_id, started_at) VALUES ('L1', now())")
    con.execute(S.INSERT_FILES, {**{c: [getattr(rec, c)] for c in STORED_COLUMNS}, "load_id": "L1"})
    (row,) = con.execute(S.SELECT_FILES).fetchall()
    assert FileRecord(*row).source_file == "a.jsonl" and row[:11] == tuple(getattr(rec, c) for c in STORED_COLUMNS[:11])


def test_the_column_check_sees_a_field_the_sql_lacks():
    """Negative control: a SELECT that drops or reorders a field is caught."""
    assert select_columns("SELECT f.family, f.source_file FROM raw.files AS f") != [f.name for f in fields(FileRecord)]
