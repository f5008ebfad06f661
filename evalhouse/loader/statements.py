"""The SQL the loader runs. The text is in `loader/sql/*.sql`, one file per statement or fragment, each
saying what it does; this module reads them once and fills their `@name@` slots with other fragments
(never with data: every value is a `$parameter`). See evalhouse.load for the design of a load.
"""
from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

_SLOT = re.compile(r"@([a-z_]+)@")

# numbers Python's json reads differently (NaN, Infinity, huge exponents) and trailing commas: a superset
# filter (a match only costs Python's second look)
SUSPICIOUS_RE = r"[\[:,]\s*[-+]?(?i:nan|inf)|,\s*[\]}]|[eE][-+]?[0-9]{3,}|[0-9]{300,}"


@cache
def _text(name: str) -> str:
    return files(__package__).joinpath("sql", f"{name}.sql").read_text(encoding="utf-8").strip()


def sql(name: str, **slots: str) -> str:
    """The statement `loader/sql/<name>.sql` with its @slots@ filled; a slot left empty is an error."""
    text = _text(name)
    for key, value in slots.items():
        text = text.replace(f"@{key}@", value)
    left = _SLOT.findall(text)
    if left:
        raise KeyError(f"loader/sql/{name}.sql: slots not filled: {sorted(set(left))}")
    return text


_SECOND_LOOK_WHEN = sql("second_look_when", suspicious_re=SUSPICIOUS_RE)


def _classify(source: str, carry: str = "") -> str:
    return sql("classify", source="\n" + sql(source), carry=carry, second_look_when=_SECOND_LOOK_WHEN)


# the chunked path: one chunk string / lists of lines / many small files' lines in, _eh_cls out
SPLIT_SQL = _classify("split_source")
LIST_SQL = _classify("list_source")
BATCH_SQL = _classify("batch_source", carry="fid, ")

# the direct path (a file's first landing, or its replacement): DuckDB's CSV scanner lands the lines, then a
# parallel scan picks the few that need Python's second look
DIRECT_INSERT = sql("direct_insert", csv_lines_file=sql("csv_lines", path="$file"),
                    csv_lines_shas=sql("csv_lines", path="$shas"))
DIRECT_SHA_PROBE = sql("direct_sha_probe")
DIRECT_SHA_REDO = sql("direct_sha_redo")
_DIRECT_CHECK = {}


def direct_check(table: str) -> str:
    """direct_check.sql over raw.<table>; `table` is one of the loader's own JSONL tables (never data)."""
    if table not in _DIRECT_CHECK:
        if not re.fullmatch(r"[a-z_]+", table):
            raise ValueError(f"not a raw table name: {table!r}")
        _DIRECT_CHECK[table] = sql("direct_check", table=table, second_look_when=_SECOND_LOOK_WHEN)
    return _DIRECT_CHECK[table]


# the file registry (registry.py FileRecord): its fields in order
SELECT_FILES = sql("select_files")
INSERT_FILES = sql("insert_files")
FORGET_LOAD_ERRORS = sql("forget_load_errors")

# inspect_ai log members (inspect.py)
DELETE_INSPECT_FILE = sql("delete_inspect_file")
INSERT_INSPECT_MEMBERS = sql("insert_inspect_members")
