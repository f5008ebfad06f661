"""The `evalhouse` command line: load, build, demo.

Exit codes (contract): 0 finished (even with quarantined lines), 1 fatal error (nothing
half-written), 2 usage error.
"""
from __future__ import annotations

import argparse
import sys

from .paths import resolve_db


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

    build = sub.add_parser("build", help="run `dbt build` against the database with the bundled profile")
    build.add_argument("--db", help="DuckDB file (default: $EVALHOUSE_DB, else ./evalhouse.duckdb)")
    build.add_argument("dbt_args", nargs=argparse.REMAINDER, help="extra dbt arguments after --")

    demo = sub.add_parser("demo", help="generate sample logs, load them, build, print headline tables")
    demo.add_argument("--db", help="DuckDB file (default: $EVALHOUSE_DB, else ./evalhouse.duckdb)")
    demo.add_argument("--data-dir", default="demo_data", help="where the sample logs are written")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors
        return int(exc.code or 0)
    db = resolve_db(getattr(args, "db", None))

    if args.command == "load":
        from .load import main_load
        return main_load(args.paths, db=db, family=args.family,
                         follow_symlinks=args.follow_symlinks, quiet=args.quiet)
    if args.command == "build":
        from .build import main_build
        extra = [a for a in args.dbt_args if a != "--"] if args.dbt_args else []
        return main_build(db=db, dbt_args=extra)
    if args.command == "demo":
        from .demo import main_demo
        return main_demo(db=db, data_dir=args.data_dir)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
