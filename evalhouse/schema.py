"""The raw layer: the only tables the loader writes.

This module is the single definition of the `raw` schema. The loader calls
`ensure_raw_schema` before every load, and `evalhouse build` calls it before dbt so that
every dbt source exists even when a family has no data yet.

Every raw row keeps its provenance: the load that landed it, when, the source file and the
1-based line (JSONL) or the document path (coder-eval), plus content hashes.
"""
from __future__ import annotations

# family -> raw table for JSONL lines (brownfield suite)
JSONL_TABLES = {
    "big": "big_lines",          # logs_big/*.jsonl: one run per line
    "matrix": "matrix_lines",    # logs/*.jsonl: one chat x coder matrix turn per line
    "layered": "layered_lines",  # logs_layered/*.jsonl: one pipeline measurement per line
}

# coder-eval document kind -> raw table
CODER_EVAL_TABLES = {
    "run": "ce_run_docs",                    # run.json
    "task": "ce_task_docs",                  # task.json
    "task_execute": "ce_task_execute_docs",  # task.execute.json (audit only, rule R19)
    "variant": "ce_variant_docs",            # variant.json
    "experiment": "ce_experiment_docs",      # experiment.json
    "suite": "ce_suite_docs",                # suite.json
    "judge": "ce_judge_docs",                # judge-<i>.yaml / post-failure-judge-<i>.yaml, stored as JSON
}


def coder_eval_family(kind: str) -> str:
    """raw.files.family of a coder-eval document of this kind: 'coder_eval:run', 'coder_eval:task', ..."""
    return f"coder_eval:{kind}"


# raw.files.family of a coder-eval document -> its raw table
CODER_EVAL_FAMILY_TABLES = {coder_eval_family(kind): table for kind, table in CODER_EVAL_TABLES.items()}

_JSONL_COLUMNS = """
    load_id        VARCHAR   NOT NULL,
    loaded_at      TIMESTAMPTZ NOT NULL,
    source_file    VARCHAR   NOT NULL,
    source_line    BIGINT    NOT NULL,
    record         VARCHAR   NOT NULL,
    record_sha256  VARCHAR   NOT NULL,
    file_sha256    VARCHAR   NOT NULL,
    repaired       VARCHAR
"""

_CODER_EVAL_COLUMNS = """
    load_id          VARCHAR   NOT NULL,
    loaded_at        TIMESTAMPTZ NOT NULL,
    source_file      VARCHAR   NOT NULL,
    run_dir          VARCHAR   NOT NULL,
    run_id           VARCHAR   NOT NULL,
    doc_kind         VARCHAR   NOT NULL,
    variant_id       VARCHAR,
    task_id          VARCHAR,
    suite_id         VARCHAR,
    row_id           VARCHAR,
    replicate_index  INTEGER,
    judge_index      INTEGER,
    judge_phase      VARCHAR,
    document         VARCHAR   NOT NULL,
    document_sha256  VARCHAR   NOT NULL,
    file_sha256      VARCHAR   NOT NULL,
    repaired         VARCHAR
"""

DDL = [
    "CREATE SCHEMA IF NOT EXISTS raw",
    """CREATE TABLE IF NOT EXISTS raw.loads (
        load_id             VARCHAR PRIMARY KEY,
        started_at          TIMESTAMPTZ NOT NULL,
        finished_at         TIMESTAMPTZ,
        files_seen          BIGINT,
        files_loaded        BIGINT,
        files_unchanged     BIGINT,
        files_ignored       BIGINT,
        files_duplicate     BIGINT,
        files_replaced      BIGINT,
        records_landed      BIGINT,
        duplicates_skipped  BIGINT,
        lines_quarantined   BIGINT,
        roots               VARCHAR,
        evalhouse_version   VARCHAR,
        files_failed        BIGINT,     -- whole-file errors (unreadable, gzip, unparseable document)
        lines_blank         BIGINT,     -- blank / whitespace-only lines skipped
        lines_pending       BIGINT      -- partial last lines (no newline yet) left for a later load
    )""",
    """CREATE TABLE IF NOT EXISTS raw.load_errors (
        load_id      VARCHAR NOT NULL,
        source_file  VARCHAR NOT NULL,
        source_line  BIGINT,
        error        VARCHAR NOT NULL,
        raw_text     VARCHAR
    )""",
    # One row per source file the loader has landed: what lets a reload skip unchanged files,
    # land only appended lines, and detect rewrites and copies.
    """CREATE TABLE IF NOT EXISTS raw.files (
        source_file     VARCHAR PRIMARY KEY,
        family          VARCHAR NOT NULL,
        size_bytes      BIGINT  NOT NULL,
        mtime_ns        BIGINT,
        bytes_landed    BIGINT  NOT NULL,
        prefix_sha256   VARCHAR NOT NULL,
        file_sha256     VARCHAR NOT NULL,
        lines_landed    BIGINT  NOT NULL,
        first_load_id   VARCHAR NOT NULL,
        last_load_id    VARCHAR NOT NULL,
        duplicate_of    VARCHAR,
        lines_read      BIGINT,         -- complete lines consumed so far (numbering base for appends)
        oversize_cap    BIGINT,         -- the record limit a line/document of it was quarantined under (NULL: none)
        first_line_sha256 VARCHAR       -- sha256 of its first line (finds the file a grown copy starts with)
    )""",
    # One row per successful `evalhouse build`: the fingerprint of the dbt project it ran. A build whose
    # project differs from the last complete build's passes --full-refresh, so incremental models never
    # keep rows computed by older model code (evalhouse.build).
    """CREATE TABLE IF NOT EXISTS raw.builds (
        finished_at      TIMESTAMPTZ NOT NULL,
        project_sha256   VARCHAR NOT NULL,
        complete         BOOLEAN NOT NULL,   -- no --select/--exclude: every model was built
        full_refresh     BOOLEAN NOT NULL,
        dbt_args         VARCHAR NOT NULL,
        evalhouse_version VARCHAR,
        raw_signature    VARCHAR             -- JSON: raw table -> [rows, digest of (load_id, source_file)]
    )""",
    # One row per dbt test and unit test a successful `evalhouse build` ran (from dbt's run_results.json):
    # the admissibility checks behind the published marts, which `evalhouse report` lists.
    """CREATE TABLE IF NOT EXISTS raw.build_tests (
        finished_at      TIMESTAMPTZ NOT NULL,   -- raw.builds.finished_at of the build that ran it
        unique_id        VARCHAR NOT NULL,
        name             VARCHAR NOT NULL,
        resource_type    VARCHAR NOT NULL,       -- test | unit_test
        status           VARCHAR NOT NULL,       -- pass | warn | fail | error | skipped
        failures         BIGINT                  -- rows the test returned (warn: findings of the logs)
    )""",
    # columns added after v1 (existing files get them on the next load/build)
    "ALTER TABLE raw.loads ADD COLUMN IF NOT EXISTS files_failed BIGINT",
    "ALTER TABLE raw.loads ADD COLUMN IF NOT EXISTS lines_blank BIGINT",
    "ALTER TABLE raw.loads ADD COLUMN IF NOT EXISTS lines_pending BIGINT",
    "ALTER TABLE raw.files ADD COLUMN IF NOT EXISTS lines_read BIGINT",
    "ALTER TABLE raw.builds ADD COLUMN IF NOT EXISTS raw_signature VARCHAR",
    "ALTER TABLE raw.files ADD COLUMN IF NOT EXISTS oversize_cap BIGINT",
    "ALTER TABLE raw.files ADD COLUMN IF NOT EXISTS first_line_sha256 VARCHAR",
    # values renamed after v1: a coder-eval document's family was 'ce:<kind>' (issue 15: one word per family)
    "UPDATE raw.files SET family = 'coder_eval:' || substr(family, 4) WHERE family LIKE 'ce:%'",
]
# inspect_ai eval logs (.eval archives and .json logs): one row per member document (loader/inspect_logs.py)
INSPECT_TABLE = "inspect_members"
DDL.append(f"""CREATE TABLE IF NOT EXISTS raw.{INSPECT_TABLE} (
        load_id          VARCHAR   NOT NULL,
        loaded_at        TIMESTAMPTZ NOT NULL,
        source_file      VARCHAR   NOT NULL,
        log_format       VARCHAR   NOT NULL,   -- eval | json
        member           VARCHAR   NOT NULL,   -- header.json, samples/<id>_epoch_<n>.json, _journal/start.json, ...
        member_kind      VARCHAR   NOT NULL,   -- header | start | sample | summaries | journal_summary | reductions
        sample_id        VARCHAR,              -- as text; sample_id_is_int says whether the log has it as a number
        sample_id_is_int BOOLEAN,
        epoch            INTEGER,
        document         VARCHAR   NOT NULL,   -- the member's JSON text
        document_sha256  VARCHAR   NOT NULL,
        file_sha256      VARCHAR   NOT NULL
    )""")
DDL += [f"CREATE TABLE IF NOT EXISTS raw.{t} ({_JSONL_COLUMNS})" for t in JSONL_TABLES.values()]
DDL += [f"CREATE TABLE IF NOT EXISTS raw.{t} ({_CODER_EVAL_COLUMNS})" for t in CODER_EVAL_TABLES.values()]


def ensure_raw_schema(con) -> None:
    """Create the raw schema and every raw table if missing (idempotent)."""
    for stmt in DDL:
        con.execute(stmt)


def init_warehouse(path):
    """Open the warehouse file at `path` (created if missing), put the raw schema in place and close it."""
    import duckdb

    con = duckdb.connect(str(path))
    try:
        ensure_raw_schema(con)
    finally:
        con.close()
    return path
