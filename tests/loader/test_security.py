"""Security: no SQL is assembled from file names, paths or record values (issue 7 "Security").

Two complementary proofs: a static check of every SQL string the loader executes (only fixed
identifiers from evalhouse's own table maps may be interpolated; everything else is a parameter),
and behavioural tests that land files and values crafted as SQL injections
(test_bad_input.py::test_file_names_with_spaces_quotes_semicolons_newlines_non_ascii,
test_bad_input.py::test_python_api_never_builds_sql_from_values).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import evalhouse

PKG = Path(evalhouse.__file__).parent
# every module of the loader that runs SQL (its statements are loader/sql/*.sql, read by loader/statements.py and
# used as S.<NAME>)
LOADER_FILES = ["load.py", "schema.py", "loader/core.py", "loader/registry.py", "loader/jsonl.py", "loader/batch.py",
                "loader/documents.py"]

# what may appear inside {...} of an SQL f-string: evalhouse's own fixed identifiers and regexes
ALLOWED_NAMES = {"table", "sel", "t", "c"}
ALLOWED_SUBSCRIPTS = {"JSONL_TABLES", "CODER_EVAL_TABLES", "CODER_EVAL_FAMILY_TABLES"}


def _sql_constants(tree: ast.Module) -> set[str]:
    """Module-level names bound to SQL text built only from literals (and allowed interpolations)."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if isinstance(node.value, (ast.Constant, ast.JoinedStr)):
                names.add(node.targets[0].id)
    return names


def _interpolation_ok(expr: ast.AST) -> bool:
    if isinstance(expr, ast.Name):
        return expr.id in ALLOWED_NAMES
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
        return expr.value.id in ALLOWED_SUBSCRIPTS
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.IfExp):  # e.g. a type name chosen between two literals
        return _interpolation_ok(expr.body) and _interpolation_ok(expr.orelse)
    return False


def _statement_names() -> set[str]:
    """The names statements.py binds to SQL: module-level assignments of sql(...) / _classify(...) calls whose
    arguments are literals, other statements or such calls (never data); and its functions (direct_check)."""
    tree = ast.parse((PKG / "loader" / "statements.py").read_text())
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if _static_sql(node.value, names):
                names.add(node.targets[0].id)
    return names


def _static_sql(expr: ast.AST, names: set[str]) -> bool:
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.Name):
        return expr.id in names or expr.id in {"SUSPICIOUS_RE", "_SECOND_LOOK_WHEN"}
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _static_sql(expr.left, names) and _static_sql(expr.right, names)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("sql", "_classify"):
        return all(_static_sql(a, names) for a in [*expr.args, *(k.value for k in expr.keywords)])
    return False


def test_every_statement_is_static_text():
    """statements.py fills the @slots@ of loader/sql/*.sql only with literals and other statements; each of
    its SQL constants is such a statement, and every .sql file is used."""
    names = _statement_names()
    assert {"SPLIT_SQL", "LIST_SQL", "BATCH_SQL", "DIRECT_INSERT", "SELECT_FILES", "INSERT_FILES",
            "INSERT_INSPECT_MEMBERS", "direct_check"} <= names
    src = (PKG / "loader" / "statements.py").read_text()
    used = set(re.findall(r'(?:sql|_classify)\("([a-z_]+)"', src)) | set(re.findall(r'source="([a-z_]+)"', src))
    files = {p.stem for p in (PKG / "loader" / "sql").glob("*.sql")}
    assert files and files <= used, f"unused .sql files: {sorted(files - used)}"


def _check_sql_expr(expr: ast.AST, constants: set[str], where: str) -> list[str]:
    if isinstance(expr, ast.Constant):
        return []
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "S":
        return [] if expr.attr in _statement_names() else [f"{where}: S.{expr.attr} is not a statement constant"]
    if (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and isinstance(expr.func.value, ast.Name)
            and expr.func.value.id == "S" and expr.func.attr in _statement_names()):
        return [p for a in expr.args if not _interpolation_ok(a)
                for p in [f"{where}: S.{expr.func.attr}({ast.unparse(a)}) takes a value"]]
    if isinstance(expr, ast.Name):
        return [] if expr.id in constants or expr.id in {"stmt"} else [f"{where}: SQL from variable {expr.id}"]
    if isinstance(expr, ast.JoinedStr):
        bad = [v for v in expr.values if isinstance(v, ast.FormattedValue) and not _interpolation_ok(v.value)]
        return [f"{where}: f-string interpolates {ast.unparse(v.value)}" for v in bad]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _check_sql_expr(expr.left, constants, where) + _check_sql_expr(expr.right, constants, where)
    return [f"{where}: SQL built by {ast.unparse(expr)[:80]}"]


@pytest.mark.parametrize("name", LOADER_FILES)
def test_no_sql_is_assembled_from_values(name):
    src = (PKG / name).read_text()
    tree = ast.parse(src)
    constants = _sql_constants(tree)
    problems, n_calls = [], 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "execute", "executemany", "sql", "query"):
            n_calls += 1
            if not node.args:
                continue
            problems += _check_sql_expr(node.args[0], constants, f"{name}:{node.lineno}")
    assert n_calls > 0
    assert problems == []


def test_the_static_check_catches_an_injected_path():
    """Negative control: the checker flags SQL built from a path (and a name that is not a statement)."""
    bad = ast.parse('con.execute(f"SELECT * FROM read_text(\'{path}\')")\ncon.execute("x" + path)\n'
                    'con.execute("SELECT %s" % path)\ncon.execute(S.path)\ncon.execute(S.direct_check(path))')
    problems = []
    for node in ast.walk(bad):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "execute":
            problems += _check_sql_expr(node.args[0], set(), "x")
    assert len(problems) == 5


def test_discovery_runs_no_sql():
    assert "duckdb" not in (PKG / "discover.py").read_text()


def test_yaml_is_read_with_a_safe_loader():
    src = (PKG / "loader" / "jsonread.py").read_text()
    assert "unsafe_load" not in src and "yaml.Loader" not in src and "FullLoader" not in src
    assert "CSafeLoader" in src and "yaml.SafeLoader" in src


def test_a_private_warehouse_stays_private_through_a_build(tmp_path):
    """Issue 14 (11): a 0600 working file keeps its mode through the two steps of `evalhouse build` (the
    working copy dbt writes, which replaces the working file or is kept as the failed build, and the publish);
    the analyst file is its read-only twin (0400), never world-readable."""
    import os
    import stat
    import subprocess
    import sys

    from evalhouse.paths import analyst_path
    from evalhouse.publish import copy_db

    src = tmp_path / "w.duckdb"
    import duckdb
    duckdb.connect(str(src)).close()
    os.chmod(src, 0o600)
    dst = tmp_path / "copy.duckdb"
    copy_db(src, dst)
    assert stat.S_IMODE(dst.stat().st_mode) == 0o600
    proc = subprocess.run([sys.executable, "-m", "evalhouse.cli", "publish", "--db", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert stat.S_IMODE(src.stat().st_mode) == 0o600
    assert stat.S_IMODE(analyst_path(src).stat().st_mode) == 0o400
