"""The SQL the loader runs: constants, never built from data (see evalhouse.load for the design)."""
from __future__ import annotations




# SQL superset filters (see module docstring); constants, never built from data.
_SUSPICIOUS_RE = r"[\[:,]\s*[-+]?(?i:nan|inf)|,\s*[\]}]|[eE][-+]?[0-9]{3,}|[0-9]{300,}"

_SPLIT_SRC = """
SELECT CAST($base AS BIGINT) + t.ord AS line_no, t.part AS text
FROM unnest(string_split($chunk, chr(10))) WITH ORDINALITY AS t(part, ord)
"""
_LIST_SRC = """
SELECT unnest($nos::BIGINT[]) AS line_no, unnest($texts::VARCHAR[]) AS text
"""
# Duplicate keys, exactly, in SQL: DuckDB's json_keys keeps repeated keys (decoded, so "a\\u0062" and
# "ab" compare equal); json_keys(text) covers the top-level object and json_keys(text, '$..*') (recursive
# descent) every nested object, inside arrays too. A line with a repeated key in any object goes to Python.
# CASE evaluates each WHEN only for the rows that reach it, so the costlier tests run on fewer rows
# (nested CASEs, not AND: json_type/json_keys must never see a line json_valid rejected). The top-level
# keys are computed once (column `keys`, NULL for blank, invalid and non-object lines). The nested test
# runs only when a second '{' follows the first character: a nested object needs one (a sound superset
# filter; a '{' inside a string only costs the exact test).
# The WHENs that pick a JSON text (column `text`, its top-level keys in `keys`) for Python's second look
# ('check') or pass it ('ok'); shared by the chunked path (_CLASSIFY_TAIL) and the direct path (_DIRECT_CHECK_*).
_SECOND_LOOK_WHEN = f"""WHEN keys IS NULL THEN 'check'
        WHEN regexp_matches(text, '{_SUSPICIOUS_RE}') THEN 'check'
        WHEN NOT list_contains($key_lists::VARCHAR[][], keys) AND len(keys) <> len(list_distinct(keys)) THEN 'check'
        WHEN strpos(substr(text, 2), '{{') = 0 THEN 'ok'
        WHEN coalesce(list_bool_or(list_transform(json_keys(text, '$..*'),
                                                  lambda k: len(k) <> len(list_distinct(k)))), false) THEN 'check'
        ELSE 'ok'"""
def _classify_tail(carry: str = "") -> str:
    """The classification after the line source `l`; `carry` = columns passed through (e.g. "fid, ")."""
    return f"""
), s AS (
    SELECT {carry}line_no, CASE WHEN ends_with(text, chr(13)) THEN rtrim(text, chr(13)) ELSE text END AS text
    FROM l
), v AS (
    SELECT {carry}line_no, text, regexp_matches(text, '[^ \\t\\r]') AS nonblank, json_valid(text) AS valid
    FROM s
), k AS (
    SELECT {carry}line_no, text, nonblank,
        CASE WHEN NOT nonblank OR NOT valid THEN NULL
             WHEN json_type(text) <> 'OBJECT' THEN NULL
             ELSE json_keys(text) END AS keys
    FROM v
)
SELECT {carry}line_no, text,
    CASE
        WHEN NOT nonblank THEN 'blank'
        {_SECOND_LOOK_WHEN}
    END AS kind
FROM k
"""


_CLASSIFY_TAIL = _classify_tail()
# split + classify in one statement, materialised once (the text path: one chunk string in, numbered lines out)
_SPLIT_SQL = f"CREATE OR REPLACE TEMP TABLE _eh_cls AS WITH l AS ({_SPLIT_SRC}{_CLASSIFY_TAIL}"
_LIST_SQL = f"CREATE OR REPLACE TEMP TABLE _eh_cls AS WITH l AS ({_LIST_SRC}{_CLASSIFY_TAIL}"
# many small files at once (_SmallBatch): the same classification, each line tagged with its file's index
_BATCH_SRC = """
SELECT unnest($fids::INTEGER[]) AS fid, unnest($nos::BIGINT[]) AS line_no, unnest($texts::VARCHAR[]) AS text
"""
_BATCH_SQL = f"CREATE OR REPLACE TEMP TABLE _eh_cls AS WITH l AS ({_BATCH_SRC}{_classify_tail('fid, ')}"

# The direct path (a file's first landing, or its replacement), in two statements:
# 1. _DIRECT_INSERT: DuckDB's CSV scanner reads the file itself -- whole lines, no quote/escape/delimiter,
#    a UTF-8 BOM dropped -- numbers the lines with row_number() over the order-preserving scan and lands
#    every complete line with the sha256 the pre-pass computed. The numbering is a streaming window, so
#    this statement runs on one thread: it does nothing else.
# 2. _DIRECT_CHECK_HEAD + raw.<table> + _DIRECT_CHECK_TAIL: a parallel scan of the rows just landed (this
#    load, this file) returns the few lines that need a second look (blank, invalid, not an object, or
#    flagged by the superset tests above); Python resolves them (UPDATE / DELETE) before the commit.
# Used only when the pre-pass showed the file has no CR, no NUL and is valid UTF-8 (so DuckDB's line split
# is exactly Python's split on b"\n"), and statement 1 must land exactly the pre-pass's line count, or the
# file goes the chunked way instead.
# $key_lists: top-level key lists the pre-pass saw without a repeat in the file's first lines; a line
# whose key list equals one of them has no repeated top-level key, so the costlier list_distinct test
# runs only on the other lines (for schema-stable logs: none).
_CSV_LINES = ("read_csv($file, columns = {'line': 'VARCHAR'}, delim = chr(0), quote = '', escape = '', "
              "header = false, auto_detect = false, new_line = '\\n', max_line_size = 2147483647)")
# The pre-pass computed every line's sha256 (_Scan.line_shas, one hex digest per line); the same scanner
# reads them and POSITIONAL JOIN pairs them with the lines. _DIRECT_SHA_PROBE then compares them with
# DuckDB's own sha256 on a sample that any misalignment would hit (line 1, every 997th line, the last
# lines); a mismatch rehashes the file's rows in SQL (_DIRECT_SHA_REDO). Never expected: it is a guard.
_DIRECT_INSERT = f"""
SELECT $load_id, $at, $file, n, coalesce(line, ''), sha, $fsha, NULL
FROM (SELECT row_number() OVER () AS n, a.line, b.line AS sha
      FROM {_CSV_LINES} AS a POSITIONAL JOIN {_CSV_LINES.replace("$file", "$shas")} AS b)
WHERE n <= $n_lines
"""
_DIRECT_SHA_PROBE = """
WHERE load_id = $load_id AND source_file = $file
  AND (source_line % 997 = 1 OR source_line > $n_lines - 3) AND record_sha256 IS DISTINCT FROM sha256(record)
"""
_DIRECT_SHA_REDO = """
SET record_sha256 = sha256(record) WHERE load_id = $load_id AND source_file = $file
"""
_DIRECT_CHECK_HEAD = """
SELECT source_line, text, coalesce(valid, false)
FROM (
    SELECT source_line, text, valid,
        CASE WHEN valid THEN json_keys(text) END AS keys
    FROM (
        SELECT source_line, record AS text, starts_with(record, '{') AND json_valid(record) AS valid
        FROM """
_DIRECT_CHECK_TAIL = f"""
        WHERE load_id = $load_id AND source_file = $file
    )
)
WHERE CASE
        {_SECOND_LOOK_WHEN}
    END = 'check'
ORDER BY source_line
"""


# the file registry (loader/registry.py FileRecord): its fields in order, registered_ns = the registering load's start
SELECT_FILES = (
    'SELECT f.source_file, f.family, f.size_bytes, f.mtime_ns, f.bytes_landed, f.prefix_sha256, '
    'f.file_sha256, f.lines_read, f.lines_landed, f.first_load_id, f.duplicate_of, '
    'epoch_ns(l.started_at), f.oversize_cap, f.first_line_sha256 FROM raw.files AS f LEFT JOIN raw.loads '
    'AS l ON l.load_id = f.last_load_id'
)
INSERT_FILES = (
    'INSERT INTO raw.files (source_file, family, size_bytes, mtime_ns, bytes_landed, prefix_sha256, '
    'file_sha256, lines_read, lines_landed, first_load_id, duplicate_of, oversize_cap, first_line_sha256,'
    ' last_load_id) SELECT unnest($source_file::VARCHAR[]), unnest($family::VARCHAR[]), '
    'unnest($size_bytes::BIGINT[]), unnest($mtime_ns::BIGINT[]), unnest($bytes_landed::BIGINT[]), '
    'unnest($prefix_sha256::VARCHAR[]), unnest($file_sha256::VARCHAR[]), unnest($lines_read::BIGINT[]), '
    'unnest($lines_landed::BIGINT[]), unnest($first_load_id::VARCHAR[]), '
    'unnest($duplicate_of::VARCHAR[]), unnest($oversize_cap::BIGINT[]), '
    'unnest($first_line_sha256::VARCHAR[]), $load_id'
)

# inspect_ai log members (loader/inspect.py): one row per member of one file; a rewritten log's rows go first
DELETE_INSPECT_FILE = "DELETE FROM raw.inspect_members WHERE source_file = $p"
INSERT_INSPECT_MEMBERS = """
INSERT INTO raw.inspect_members (load_id, loaded_at, source_file, log_format, member, member_kind, sample_id,
    sample_id_is_int, epoch, document, document_sha256, file_sha256)
SELECT $load_id, $at, $file, $fmt, unnest($member::VARCHAR[]), unnest($kind::VARCHAR[]),
    unnest($sample_id::VARCHAR[]), unnest($is_int::BOOLEAN[]), unnest($epoch::INTEGER[]), unnest($doc::VARCHAR[]),
    unnest($sha::VARCHAR[]), $file_sha
"""
