"""Incremental models (macros/incremental/incremental_loads.sql): exactly a full rebuild, and work
proportional to what is new.

One warehouse file goes through four loads and four builds (the same db path and target dir, so dbt
parses the project once and re-uses its partial-parse cache):

1. load brownfield big (generated + the clean/dirty fixtures), matrix and layered logs; build;
2. APPEND new lines to two big files, one matrix file and one layered file; load; incremental build;
   an old row of every incremental model was marked before this build: it must survive untouched
   (old lines are never re-read), and each model gains exactly the rows of the appended lines;
3. REPLACE a big file (first line rewritten) and SHRINK a big file and a matrix file; load;
   incremental build: no row of the replaced/shrunk files' old loads may remain;
4. copy the warehouse aside and rebuild it with `evalhouse build --in-place -- --full-refresh` (every
   model downstream of the raw line tables; builds 2-4 select only those, nothing else can change):
   every table of staging / intermediate / marts (each incremental model, every mart) must hold
   the same row multiset as the incremental build (`except all` both ways; doubles compared at
   1e-9 because aggregates over rows in another order can differ in the last bits).
"""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from helpers import FIXTURES, dbt, query, run_results

from evalhouse.paths import PROJECT_DIR
from evalhouse.samples import big

# first build: every model and seed (the rule tests have their own suites: tests/brownfield*, tests/rules);
# later builds: everything downstream of the raw line tables (the rest cannot change with these loads)
NO_TESTS = ["--exclude-resource-type", "test", "--exclude-resource-type", "unit_test"]
BUILD = ["build", *NO_TESTS]
BUILD_LINES = ["build", "--select", "source:big+", "source:matrix+", "source:layered+", *NO_TESTS]
FAMILY = {"big": "big_lines", "matrix": "matrix_lines", "layered": "layered_lines"}
MARKER = "incremental-test-marker"


def _cli(*args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env_extra or {}))
    proc = subprocess.run([sys.executable, "-m", "evalhouse.cli", *args], cwd=PROJECT_DIR, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"evalhouse {' '.join(args)} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc


def _load(db: Path, data: Path) -> None:
    _cli("load", "--quiet", "--db", str(db), str(data))


def _incremental_models(target: Path) -> dict[str, tuple[str, str]]:
    """name -> (schema, raw family table) for every incremental model over a raw JSONL table."""
    m = json.loads((target / "manifest.json").read_text())
    out = {}
    for node in m["nodes"].values():
        if node["resource_type"] == "model" and node["config"].get("materialized") == "incremental":
            srcs = [s.split(".")[-1] for s in node["depends_on"]["nodes"] if s.startswith("source.")]
            fam = next((f for f, t in FAMILY.items() if t in srcs), None)
            if fam is None:   # downstream incremental model: family from its upstream chain
                fam = "big" if "big" in node["name"] else None
            out[node["name"]] = (node["schema"], fam)
    return out


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _tables(db: Path) -> dict[str, list[tuple[str, str]]]:
    rows = query(db, "select table_schema || '.' || table_name, column_name, data_type "
                     "from information_schema.columns c join information_schema.tables t using "
                     "(table_catalog, table_schema, table_name) where t.table_type = 'BASE TABLE' "
                     "and table_schema in ('staging', 'intermediate', 'marts') order by ordinal_position")
    out: dict[str, list[tuple[str, str]]] = {}
    for rel, col, typ in rows:
        out.setdefault(rel, []).append((col, typ))
    return out


@pytest.fixture(scope="session")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("incr")
    data, wh, target = tmp / "data", tmp / "wh.duckdb", tmp / "target"
    big.write(data / "gen", n=1200, seed=7)
    shutil.copytree(FIXTURES / "brownfield" / "clean" / "logs_big", data / "big_clean" / "logs_big")
    shutil.copytree(FIXTURES / "brownfield" / "dirty" / "logs_big", data / "big_dirty" / "logs_big")
    shutil.copytree(FIXTURES / "brownfield_matrix" / "clean", data / "mx_clean")
    shutil.copytree(FIXTURES / "brownfield_matrix" / "dirty", data / "mx_dirty")
    out = {"tmp": tmp, "db": wh, "target": target}

    # 1. first load + build
    _load(wh, data)
    dbt(BUILD, wh, target)
    models = _incremental_models(target)
    out["models"] = models
    out["count1"] = {n: query(wh, f"select count(*) from {s}.{n}")[0][0] for n, (s, _f) in models.items()}

    # mark one old row of each incremental model: the append must never re-read (rewrite) it
    con = duckdb.connect(str(wh))
    try:
        for name, (schema, _fam) in models.items():
            col = next(c for c, t in con.execute(
                f"select column_name, data_type from information_schema.columns where table_schema = '{schema}' "
                f"and table_name = '{name}' order by ordinal_position").fetchall()
                if t == "VARCHAR" and c not in ("load_id", "source_file", "run_key"))
            con.execute(f"update {schema}.{name} set {col} = '{MARKER}' "
                        f"where rowid = (select min(rowid) from {schema}.{name})")
            out.setdefault("marked", {})[name] = col
    finally:
        con.close()

    # 2. append: new big lines (another seed) to two files, new matrix / layered lines
    extra = tmp / "extra"
    big.write(extra, n=300, seed=8)
    appended = {"big": 0, "matrix": 0, "layered": 0}
    for name in ("big_claude-sonnet-4-6.jsonl", "big_deepseek-v4-pro.jsonl"):
        new = _lines(extra / "logs_big" / name)
        with open(data / "gen" / "logs_big" / name, "a", encoding="utf-8") as fh:
            fh.writelines(new)
        appended["big"] += len(new)
    for fam, rel in (("matrix", "mx_clean/logs/deepseek-v4-flash__deepseek-v4-pro.jsonl"),
                     ("layered", "mx_clean/logs_layered/pipeline_nano_pro_flash.jsonl")):
        new = []
        for line in _lines(data / rel)[:3]:
            rec = json.loads(line)
            rec["rep"] = 1000 + (rec.get("rep") or 0) if isinstance(rec.get("rep"), int) else 1000
            new.append(json.dumps(rec) + "\n")
        with open(data / rel, "a", encoding="utf-8") as fh:
            fh.writelines(new)
        appended[fam] += len(new)
    out["appended"] = appended
    _load(wh, data)
    out["append_load"] = query(wh, "select load_id from raw.loads order by started_at desc limit 1")[0][0]
    out["before2"] = {n: query(wh, f"select count(*) from {s}.{n}")[0][0] for n, (s, _f) in models.items()}
    dbt(BUILD_LINES, wh, target)
    out["results2"] = run_results(target)
    out["after2"] = {}
    for name, (schema, _fam) in models.items():
        col = out["marked"][name]
        out["after2"][name] = {
            "rows": query(wh, f"select count(*) from {schema}.{name}")[0][0],
            "marked": query(wh, f"select count(*) from {schema}.{name} where {col} = '{MARKER}'")[0][0],
            "new": query(wh, f"select count(*) from {schema}.{name} where load_id = ?", [out["append_load"]])[0][0],
            "new_lines": query(wh, f"select count(distinct source_file || ':' || source_line) from {schema}.{name} "
                                   f"where load_id = ?", [out["append_load"]])[0][0],
        }
    # the marker proved its point; drop the marked rows' whole (load_id, source_file) pairs: the next
    # incremental build must re-read exactly those pairs (a pair missing from a model is new work)
    con = duckdb.connect(str(wh))
    try:
        for name, (schema, _fam) in models.items():
            col = out["marked"][name]
            con.execute(f"delete from {schema}.{name} where (load_id, source_file) in (select load_id, source_file "
                        f"from {schema}.{name} where {col} = '{MARKER}')")
    finally:
        con.close()

    # 3. replace one big file (first line rewritten), shrink another big file and a matrix file
    rewrite = data / "gen" / "logs_big" / "big_deepseek-v4-flash.jsonl"
    lines = _lines(rewrite)
    rec = json.loads(lines[0])
    rec["wall_s"] = 12345.5
    lines[0] = json.dumps(rec) + "\n"
    rewrite.write_text("".join(lines), encoding="utf-8")
    shrink = data / "gen" / "logs_big" / "big_acme_coder-ft-7b.jsonl"
    shrink.write_text("".join(_lines(shrink)[:-7]), encoding="utf-8")
    mshrink = data / "mx_clean" / "logs" / "gpt-4.1-mini__claude-sonnet-4-6.jsonl"
    mshrink.write_text("".join(_lines(mshrink)[:-2]), encoding="utf-8")
    out["replaced_files"] = [str(rewrite.resolve()), str(shrink.resolve()), str(mshrink.resolve())]
    out["old_pairs"] = query(wh, "select load_id, source_file from raw.big_lines where source_file in (?, ?) "
                                 "union select load_id, source_file from raw.matrix_lines where source_file = ?",
                             out["replaced_files"])
    _load(wh, data)
    dbt(BUILD_LINES, wh, target)
    out["results3"] = run_results(target)

    # 4. the same warehouse rebuilt from scratch (through the CLI's dbt pass-through)
    inc = tmp / "incremental.duckdb"
    shutil.copy(wh, inc)
    _cli("build", "--db", str(wh), "--in-place", "--no-publish", "--", *BUILD_LINES[1:], "--full-refresh",
         env_extra={"DBT_TARGET_PATH": str(target), "DBT_LOG_PATH": str(target / "logs")})
    out["results_full"] = run_results(target)
    out["incremental"], out["full"] = inc, wh
    return out


def test_incremental_models_are_the_raw_line_models(runs):
    names = set(runs["models"])
    assert {"stg_big__runs", "stg_big__change_assertions", "stg_big__regress_misses", "stg_matrix__turns",
            "stg_layered__measurements"} <= names, names
    for res_key in ("results2", "results3", "results_full"):
        bad = {k: v["status"] for k, v in runs[res_key].items() if v["status"] not in ("success", "pass")}
        assert not bad, (res_key, bad)


def test_append_processes_only_the_appended_lines(runs):
    """Old rows are not re-read (the marked row survives as it was) and every model gains exactly
    the rows of the appended lines (one row per line, or one per list element of those lines)."""
    for name, (schema, fam) in runs["models"].items():
        a = runs["after2"][name]
        assert a["marked"] == 1, (name, "an old row was rewritten by the incremental build", a)
        assert a["rows"] == runs["before2"][name] + a["new"], (name, a, runs["before2"][name])
        # the appended rows are the appended lines' rows: per-line models gain one row per appended line
        if name in ("stg_big__runs", "stg_matrix__turns", "stg_layered__measurements", "int_big__runs",
                    "fct_big_runs"):
            assert a["new"] == runs["appended"][fam], (name, a, runs["appended"])
        assert a["new_lines"] <= runs["appended"][fam], (name, a)
        assert a["new"] > 0, (name, a)
    # and each model's table equals what its SQL gives on the new lines only: no line counted twice
    for name, (schema, _fam) in runs["models"].items():
        if name in ("stg_big__runs", "stg_matrix__turns", "stg_layered__measurements"):
            dup = query(runs["incremental"], f"select count(*) - count(distinct source_file || ':' || source_line) "
                                             f"from {schema}.{name}")[0][0]
            assert dup == 0, name


def test_replaced_and_shrunk_files_leave_no_stale_rows(runs):
    db = runs["incremental"]
    assert runs["old_pairs"], "the replaced files had landed rows"
    for name, (schema, _fam) in runs["models"].items():
        for load_id, source_file in runs["old_pairs"]:
            n = query(db, f"select count(*) from {schema}.{name} where load_id = ? and source_file = ?",
                      [load_id, source_file])[0][0]
            assert n == 0, (name, load_id, source_file)
    # the rewritten first line and the shrunk file are what raw now holds
    assert query(db, "select wall_s from staging.stg_big__runs where source_file = ? and source_line = 1",
                 [runs["replaced_files"][0]]) == [(12345.5,)]
    for f, fam in ((runs["replaced_files"][1], "big"), (runs["replaced_files"][2], "matrix")):
        stg = "staging.stg_big__runs" if fam == "big" else "staging.stg_matrix__turns"
        assert query(db, f"select count(*) from {stg} where source_file = ?", [f]) == \
            query(db, f"select count(*) from raw.{FAMILY[fam]} where source_file = ?", [f])


def test_incremental_build_equals_full_refresh(runs):
    inc, full = runs["incremental"], runs["full"]
    t_inc, t_full = _tables(inc), _tables(full)
    assert set(t_inc) == set(t_full)
    for name, (schema, _fam) in runs["models"].items():
        assert f"{schema}.{name}" in t_inc, name
    marts = [r for r in t_inc if r.startswith("marts.")]
    assert len(marts) >= 10, marts
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"attach '{inc}' as inc (read_only)")
        con.execute(f"attach '{full}' as full_db (read_only)")
        diffs = {}
        for rel, cols in sorted(t_inc.items()):
            assert cols == t_full[rel], (rel, "column names/types differ")
            floats = [k for k, (_, t) in enumerate(cols) if t in ("DOUBLE", "FLOAT")]
            names = ", ".join(f'"{c}"' for c, _ in cols)
            rows_a = con.execute(f"select {names} from inc.{rel}").fetchall()
            rows_b = con.execute(f"select {names} from full_db.{rel}").fetchall()
            assert len(rows_a) == len(rows_b), rel

            def key(row):   # the exact columns first; floats (coarsely) only to order rows that tie on them
                exact = tuple(repr(v) for k, v in enumerate(row) if k not in floats)
                return exact, tuple(repr(None if row[k] is None else float(f"{row[k]:.6g}")) for k in floats)

            # floats agree to 1e-9 relative: the two builds sum in different orders
            bad = sum(1 for ra, rb in zip(sorted(rows_a, key=key), sorted(rows_b, key=key))
                      if any((x is None) != (y is None) if k in floats and (x is None or y is None)
                             else (not math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) if k in floats else x != y)
                             for k, (x, y) in enumerate(zip(ra, rb))))
            if bad:
                diffs[rel] = (len(rows_a), bad)
        assert not diffs, diffs
    finally:
        con.close()
