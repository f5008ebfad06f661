"""The `evalhouse` command line: load, build, publish, sql, report, demo.

Exit codes (contract): 0 finished (even with quarantined lines), 1 fatal error (nothing
half-written), 2 usage error.
"""
from __future__ import annotations

import argparse
import os
import sys

from .paths import check_db_name, missing_db_problem, resolve_db


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
        from .load import main_load
        return main_load(args.paths, db=db, family=args.family,
                         follow_symlinks=args.follow_symlinks, quiet=args.quiet, wait=args.wait)
    if args.command == "build":
        from .build import main_build
        extra = list(args.dbt_args or [])
        if extra and extra[0] == "--":
            extra = extra[1:]
        return main_build(db=db, dbt_args=extra, publish=not args.no_publish, wait=args.wait,
                          in_place=args.in_place)
    if args.command == "publish":
        from .publish import main_publish
        return main_publish(db=db, wait=args.wait)
    if args.command == "sql":
        from .sql import main_sql
        return main_sql(db=db, query=args.query, working=args.working, max_rows=args.max_rows, fmt=args.format)
    if args.command == "report":
        from .report import main_report
        return main_report(db=db, out=args.out, working=args.working)
    if args.command == "demo":
        from .demo import main_demo
        return main_demo(db=db, data_dir=args.data_dir, wait=args.wait)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
