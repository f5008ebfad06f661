"""The `evalhouse` command line: load, build, publish, sql, report, demo.

This module owns what a person sees: it parses the arguments, calls the library (`load_paths`, `build`,
`publish`, `run_query`, `write_report`, the demo's parts), prints, and turns outcomes into exit codes. The
library modules print nothing (a load's progress bar and a quiet build's progress line are drawn on a
terminal only, by `loader/progress.py` and `dbt_progress.py`; dbt's own output is dbt's).

Exit codes (contract): 0 finished (even with quarantined lines), 1 fatal error (nothing
half-written), 2 usage error, 130 interrupted.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from .locking import DatabaseBusy
from .paths import analyst_path, check_db_name, failed_build_path, missing_db_problem, os_failure_message, resolve_db


def _out(*lines: str) -> None:
    print(*lines, sep="\n", flush=True)


def _err(*lines: str) -> None:
    print(*lines, sep="\n", file=sys.stderr, flush=True)


def _failed(command: str, exc: Exception, db: Path, unchanged: str = "the working file") -> int:
    """Say why `evalhouse <command>` failed and return its exit code: 2 for a usage error, else 1. An error
    from the operating system (it has an errno: a full disk, a permission) says what stayed unchanged; any
    other failure (a busy warehouse, a failed build, a missing file) says its own message, which says what
    to do."""
    from .config import UsageError

    if isinstance(exc, UsageError):
        _err(f"evalhouse {command}: error: {exc}")
        return 2
    if isinstance(exc, OSError) and exc.errno is not None:
        _err(os_failure_message(command, exc, db, unchanged))
        return 1
    _err(f"evalhouse {command}: {exc}")
    return 1


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="evalhouse", description="Admissible numbers from AI-agent evaluation logs.")
    sub = p.add_subparsers(dest="command", required=True)

    load = sub.add_parser("load", help="land JSONL logs and coder-eval run directories in the raw schema")
    load.add_argument("paths", nargs="+", metavar="PATH", help="file or directory (searched recursively)")
    load.add_argument("--db", help="DuckDB file (default: $EVALHOUSE_DB, else ./evalhouse.duckdb)")
    load.add_argument("--family", choices=["big", "matrix", "layered"],
                      help="treat every *.jsonl found as this brownfield family")
    load.add_argument("--follow-symlinks", action="store_true",
                      help="follow symlinks that point outside the given roots")
    load.add_argument("--quiet", action="store_true", help="print only the summary line")
    load.add_argument("--create", action="store_true",
                      help="start a new warehouse at --db even though its folder already holds another one")
    load.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                      help="wait this long for a running load/build to finish (default $EVALHOUSE_LOCK_WAIT or 60)")

    build = sub.add_parser(
        "build", help="run `dbt build` on a copy of the database (bundled profile), then publish the analyst file",
        description="Runs `dbt build` against a copy of the working file and swaps it in only when dbt succeeds, "
                    "then publishes the read-only analyst file <stem>.analyst.duckdb. A killed or failed build "
                    "changes nothing. Extra dbt arguments go after --, e.g. evalhouse build -- --select marts.")
    build.add_argument("--db", help="DuckDB file (default: $EVALHOUSE_DB, else ./evalhouse.duckdb)")
    build.add_argument("--no-publish", action="store_true", help="do not refresh the analyst file")
    build.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                       help="wait this long for a running load/build to finish (default $EVALHOUSE_LOCK_WAIT, else 60)")
    build.add_argument("--in-place", action="store_true",
                       help="let dbt write the working file directly (no copy; a killed build may leave it half-built)")
    build.add_argument("--target", choices=("duckdb", "spark"), default="duckdb",
                       help="the engine: duckdb (default; the working file) or spark (this machine's Spark, "
                            "reading the raw layer exported as Parquet to --lake; docs/spark.md)")
    build.add_argument("--lake", metavar="DIR",
                       help="with --target spark: the lake folder (raw tables in DIR/raw, marts as Parquet in "
                            "DIR/marts/<mart>/); default: $EVALHOUSE_LAKE, else <stem>.lake next to --db")
    build.add_argument("dbt_args", nargs=argparse.REMAINDER, help="extra dbt arguments after --")

    publish = sub.add_parser("publish", help="refresh the read-only analyst file <stem>.analyst.duckdb")
    publish.add_argument("--db", help="DuckDB file (default: $EVALHOUSE_DB, else ./evalhouse.duckdb)")
    publish.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                         help="wait this long for a running load/build to finish (default $EVALHOUSE_LOCK_WAIT, else 60)")

    sql = sub.add_parser("sql", help="query the analyst file read-only (without QUERY: how to open it)")
    sql.add_argument("--db", help="DuckDB file (default: $EVALHOUSE_DB, else ./evalhouse.duckdb)")
    sql.add_argument("--working", action="store_true",
                     help="query the working file (read-only) instead of the analyst file")
    sql.add_argument("--max-rows", type=int, default=None,
                     help="print at most this many rows (default: 200 for a table on a terminal, else all)")
    sql.add_argument("--format", choices=["table", "csv", "json", "markdown", "latex"], default="table",
                     help="table (default; long values cut only on a terminal), csv, json, markdown or latex (booktabs)")
    sql.add_argument("query", nargs="?", help="one SQL statement")

    report = sub.add_parser(
        "report", help="write the figures and tables a paper needs (HTML, SVG/PDF, LaTeX/Markdown/CSV) from the marts",
        description="Reads the analyst file (read-only) and writes report.html (self-contained), figures/*.svg|pdf, "
                    "tables/*.tex|md|csv and numbers.json (each number with the mart row it comes from) into --out.")
    report.add_argument("--db", help="DuckDB file (default: $EVALHOUSE_DB, else ./evalhouse.duckdb)")
    report.add_argument("--out", default="report", metavar="DIR", help="output folder (default: ./report)")
    report.add_argument("--working", action="store_true",
                        help="read the working file (read-only) instead of the analyst file")

    demo = sub.add_parser("demo", help="generate sample logs, load them, build, print headline tables")
    demo.add_argument("--db", help="DuckDB file (default: $EVALHOUSE_DB, else ./evalhouse.duckdb)")
    demo.add_argument("--data-dir", default="demo_data", help="where the sample logs are written")
    demo.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                      help="wait this long for a running load/build to finish (default $EVALHOUSE_LOCK_WAIT, else 60)")
    demo.add_argument("--target", choices=("duckdb", "spark"), default="duckdb",
                      help="build on duckdb (default) or on this machine's Spark (the marts as Parquet in --lake)")
    demo.add_argument("--lake", metavar="DIR", help="with --target spark: the lake folder (default <stem>.lake)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors
        return int(exc.code or 0)
    db = resolve_db(getattr(args, "db", None))
    problem = check_db_name(db) or missing_db_problem(db, args.command, getattr(args, "create", False))
    if problem:
        print(f"evalhouse: {problem}", file=sys.stderr)
        return 2

    try:
        return _dispatch(parser, args, db)
    except KeyboardInterrupt:
        print(f"evalhouse {args.command}: interrupted; nothing was written (a load or build is all or nothing)",
              file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`evalhouse sql ... | head`): stop quietly, as a shell tool does
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0


def _dispatch(parser, args, db) -> int:
    if args.command == "load":
        return cmd_load(args.paths, db=db, family=args.family, follow_symlinks=args.follow_symlinks,
                        quiet=args.quiet, wait=args.wait)
    if args.command == "build":
        extra = list(args.dbt_args or [])
        if extra and extra[0] == "--":
            extra = extra[1:]
        if args.target == "spark":
            return cmd_build_spark(db=db, lake=args.lake, dbt_args=extra, wait=args.wait)
        if args.lake:
            print("evalhouse build: --lake is for --target spark (a DuckDB build writes the working file)",
                  file=sys.stderr)
            return 2
        return cmd_build(db=db, dbt_args=extra, publish=not args.no_publish, wait=args.wait, in_place=args.in_place)
    if args.command == "publish":
        return cmd_publish(db=db, wait=args.wait)
    if args.command == "sql":
        return cmd_sql(db=db, query=args.query, working=args.working, max_rows=args.max_rows, fmt=args.format)
    if args.command == "report":
        return cmd_report(db=db, out=args.out, working=args.working)
    if args.command == "demo":
        if args.target == "spark":
            return cmd_demo_spark(db=db, data_dir=args.data_dir, lake=args.lake, wait=args.wait)
        return cmd_demo(db=db, data_dir=args.data_dir, wait=args.wait)
    parser.error(f"unknown command {args.command}")
    return 2


# ---- the commands: each calls the library, prints, and returns the exit code ------------------------------

def cmd_load(paths, db, family=None, follow_symlinks=False, quiet=False, wait: float | None = None) -> int:
    """0 finished (even with quarantined lines), 1 fatal (nothing written), 2 usage error."""
    import duckdb

    from .config import load_memory_limit
    from .load import format_summary, load_paths
    from .loader.results import LoadError, UsageError
    from .paths import disk_full_message, is_disk_full

    try:
        summary = load_paths(paths, db, family=family, follow_symlinks=follow_symlinks, progress=not quiet, wait=wait)
    except (UsageError, DatabaseBusy) as exc:
        return _failed("load", exc, db)
    except duckdb.OutOfMemoryException as exc:
        _err(f"evalhouse load: failed, nothing was written: DuckDB ran out of memory at memory_limit "
             f"{load_memory_limit()} ({' '.join(str(exc).split())[:200]}). A very large line or document needs more: "
             "set EVALHOUSE_LOAD_MEMORY_LIMIT (e.g. EVALHOUSE_LOAD_MEMORY_LIMIT=4GB) and load again.")
        return 1
    except Exception as exc:  # noqa: BLE001 - any failure: nothing was committed
        if is_disk_full(exc):
            _err(f"evalhouse load: failed, {disk_full_message(exc, db)}")
        elif isinstance(exc, LoadError):
            _err(f"evalhouse load: failed, nothing was written: {exc}")
        else:
            _err(f"evalhouse load: failed, nothing was written: {type(exc).__name__}: {exc}")
        return 1
    _out(format_summary(summary, verbose=not quiet))
    return 0


def cmd_build(db: Path, dbt_args: list[str] | None = None, publish: bool = True, wait: float | None = None,
              in_place: bool = False) -> int:
    from .build import BuildFailed, build

    # SIGTERM (e.g. a CI timeout) unwinds like Ctrl-C: dbt is stopped and the build copy removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        result = build(db, dbt_args=dbt_args, publish=publish, wait=wait, in_place=in_place, say=_out)
    except (BuildFailed, DatabaseBusy, OSError) as exc:
        return _failed("build", exc, db)
    except KeyboardInterrupt:
        _err("evalhouse build: interrupted; the working file and the analyst file are unchanged.")
        return 130
    _out(result.summary())
    return 0


def cmd_build_spark(db: Path, lake: str | None = None, dbt_args: list[str] | None = None,
                    wait: float | None = None) -> int:
    from .config import UsageError, lake_dir
    from .spark_build import SparkBuildFailed, build_spark

    lake_path = Path(lake) if lake else lake_dir(db)
    _out(f"evalhouse build: Spark, lake {lake_path}")
    try:
        result = build_spark(db, lake_path, dbt_args=dbt_args, wait=wait)
    except (UsageError, SparkBuildFailed, DatabaseBusy, OSError) as exc:
        return _failed("build", exc, db)
    _out(result.summary())
    return 0


def cmd_publish(db: Path, wait: float | None = None) -> int:
    from .publish import publish

    try:
        target = publish(db, wait=wait)
    except (DatabaseBusy, OSError) as exc:
        return _failed("publish", exc, db, "the analyst file")
    _out(f"published {target} (read-only). Open it with: duckdb -readonly {target}")
    return 0


def cmd_sql(db: Path, query: str | None = None, working: bool = False, max_rows: int | None = None,
            fmt: str = "table") -> int:
    """Print the result. `table` on a terminal cuts long values and shows 200 rows unless told; in a pipe or
    a file, and in every other format, nothing is cut and every row is printed (unless --max-rows)."""
    from .sql import MAX_CELL, how_to_open, render, run_query

    path = Path(db) if working else analyst_path(db)
    if not query:
        _out(how_to_open(Path(db)))
        return 0 if path.exists() else 1
    if not path.exists():
        _err(f"evalhouse sql: {path} does not exist yet: run `evalhouse build` (it publishes) or `evalhouse publish`.")
        return 1
    try:
        cols, rows = run_query(path, query)
    except DatabaseBusy as exc:
        return _failed("sql", exc, db)
    except Exception as exc:  # noqa: BLE001 - duckdb errors: print them like a SQL shell would
        _err(f"evalhouse sql: {type(exc).__name__}: {exc}")
        return 1
    if not cols:
        return 0
    tty = sys.stdout.isatty()
    if max_rows is None:
        max_rows = 200 if (fmt == "table" and tty) else len(rows)
    _out(render(cols, rows[:max_rows], fmt, MAX_CELL if tty else None))
    if fmt == "table":
        more = f" (showing {max_rows})" if len(rows) > max_rows else ""
        _out(f"({len(rows)} row{'s' if len(rows) != 1 else ''}{more})")
    elif len(rows) > max_rows:
        _err(f"evalhouse sql: showing {max_rows} of {len(rows)} rows (--max-rows)")
    return 0


def cmd_report(db: Path, out: str | os.PathLike = "report", working: bool = False) -> int:
    """Exit 0 with the report's path printed, 1 when the warehouse cannot be read."""
    from .report import write_report

    path = Path(db) if working else analyst_path(Path(db))
    if not path.exists():
        _err(f"evalhouse report: {path} does not exist yet: run `evalhouse build` (it publishes the analyst "
             "file), or `evalhouse demo`.")
        return 1
    try:
        result = write_report(path, out)
    except DatabaseBusy as exc:
        return _failed("report", exc, db)
    except OSError as exc:
        _err(f"evalhouse report: cannot write {out}: {exc.strerror or exc}")
        return 1
    _out(f"evalhouse report: {len(result.figures)} figures, {len(result.tables)} tables, "
         f"{result.n_numbers} numbers traced to their mart rows")
    for a in result.absent:
        _out(f"  absent: {a}")
    _out(f"evalhouse report: {result.html.resolve()}")
    return 0


def _demo_logs_loaded(db: Path, data: Path, wait: float | None = None) -> int:
    """Either demo's first step: write the sample logs into `data` and load them; the load's exit code."""
    from .demo import write_demo_data

    stats = write_demo_data(data)
    for why in stats["skipped"]:
        _err(f"evalhouse demo: {why}")
    _out(f"evalhouse demo: sample logs, coder-eval runs and inspect_ai logs in {data} "
         f"({stats['sample_files_written']} sample files, {stats['coder_eval_files_written']} coder-eval "
         f"files and {stats['inspect_files_written']} inspect_ai files (re)written)")
    rc = cmd_load([str(data)], db=db, wait=wait)
    if rc != 0:
        _err(f"evalhouse demo: load failed (exit {rc})")
    return rc


def cmd_demo(db: Path, data_dir: str | os.PathLike = "demo_data", wait: float | None = None) -> int:
    """Sample logs -> load -> build -> headline tables -> report (evalhouse.demo has the parts)."""
    from .build import BuildFailed, build, run_results_summary
    from .demo import headline_tables
    from .locking import db_lock
    from .sql import format_table

    db = Path(db).resolve()
    data = Path(data_dir).resolve()
    build_failed = False
    try:
        with db_lock(db, wait=wait, what="demo"):
            if _demo_logs_loaded(db, data) != 0:
                return 1
            _out("evalhouse demo: building the warehouse (dbt build, about a minute; dbt prints errors only)...")
            try:
                _out(build(db, dbt_args=["--quiet"], publish=True, wait=wait, say=_out).summary())
            except BuildFailed as exc:
                _err(f"evalhouse build: {exc}")
                build_failed = True
            summary = run_results_summary()
            if summary:
                _out(summary)
    except DatabaseBusy as exc:
        return _failed("demo", exc, db)
    target = analyst_path(db)
    source = target
    if build_failed:
        # nothing was published; still show what the failed build computed, clearly labelled
        source = failed_build_path(db)
        _err(f"evalhouse demo: the build failed (see dbt's output above); nothing was published. "
             f"The tables below come from the failed build {source} and are NOT admissible.")
        if not source.exists():
            return 1
    _out("")
    tables = headline_tables(source)
    if not tables:
        _out("(no marts yet)")
    for title, cols, rows in tables:
        _out(f"== {title}", format_table(cols, rows), "")
    if build_failed:
        return 1
    _out(f"Working file: {db}\nAnalyst file (open read-only): {target}\n"
         f"  duckdb -readonly '{target}'    or    evalhouse sql \"select * from marts.big_rates\"")
    _out("\nevalhouse demo: writing the report (figures and tables from the marts)...")
    return cmd_report(db, db.parent / "report")


def cmd_demo_spark(db: Path, data_dir: str | os.PathLike = "demo_data", lake: str | None = None,
                   wait: float | None = None) -> int:
    """The demo on Spark: the same sample logs, loaded into the working file's raw layer, built by
    `evalhouse build --target spark`, and the same headline tables read from the Parquet marts."""
    from .config import lake_dir
    from .demo import headline_tables
    from .lake import marts_views_db
    from .sql import format_table

    db = Path(db).resolve()
    data = Path(data_dir).resolve()
    lake_path = (Path(lake) if lake else lake_dir(db)).resolve()
    if _demo_logs_loaded(db, data, wait=wait) != 0:
        return 1
    _out("evalhouse demo: building the warehouse on Spark (dbt build --target spark, a few minutes)...")
    rc = cmd_build_spark(db, lake=str(lake_path), dbt_args=["--quiet"], wait=wait)
    if rc != 0:
        return rc
    views = marts_views_db(lake_path)
    _out("")
    for title, cols, rows in headline_tables(views):
        _out(f"== {title}", format_table(cols, rows), "")
    _out(f"Spark's marts (Parquet): {lake_path / 'marts'}\nDuckDB views over them: {views}\n"
         f"  duckdb -readonly '{views}' -c 'select * from marts.big_rates'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
