"""The Python layering of docs/architecture.md holds: the lower layers never import a command module, and the
package has no import cycle."""
from __future__ import annotations

import ast
from pathlib import Path

import evalhouse

PKG = Path(evalhouse.__file__).parent
COMMANDS = {"cli", "load", "build", "publish", "sql", "demo", "docs_site", "report"}
LOWER = {"config", "paths", "discover", "schema", "locking", "dbt_runner", "lineage", "samples"} | {
    f"loader.{p.stem}" for p in (PKG / "loader").glob("*.py") if p.stem != "__init__"}


def _module(path: Path) -> str:
    rel = path.relative_to(PKG).with_suffix("")
    return ".".join(p for p in rel.parts if p != "__init__")


def _imports(path: Path) -> set[str]:
    """evalhouse modules `path` imports (relative and absolute), as dotted names under the package."""
    mod = _module(path).split(".")
    pkg = mod[:-1] if path.name != "__init__.py" else mod
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg[:len(pkg) - (node.level - 1)] if node.level > 1 else pkg
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").startswith("evalhouse"):
                target = node.module[len("evalhouse."):] if node.module != "evalhouse" else ""
            else:
                continue
            names = [target] if target else []
            names += [f"{target}.{a.name}" if target else a.name for a in node.names]
            out |= {n for n in names if (PKG / (n.replace(".", "/") + ".py")).exists()
                    or (PKG / n.replace(".", "/") / "__init__.py").exists()}
    return out - {""}


def _graph() -> dict[str, set[str]]:
    return {_module(p): _imports(p) for p in PKG.rglob("*.py")}


def test_lower_layers_never_import_a_command():
    graph = _graph()
    bad = sorted((m, i) for m, deps in graph.items() if m in LOWER for i in deps if i in COMMANDS)
    assert bad == [], bad


def test_no_import_cycle():
    graph = _graph()
    state: dict[str, int] = {}
    cycles = []

    def visit(m, stack):
        state[m] = 1
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                cycles.append(stack[stack.index(d):] + [d] if d in stack else [m, d])
            elif d not in state:
                visit(d, stack + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert cycles == [], cycles


def test_the_checks_see_imports():
    """Negative control: the graph has the edges it must (else the two tests above pass vacuously)."""
    graph = _graph()
    assert "loader.core" in graph["load"] and "config" in graph["loader.jsonl"] and "paths" in graph["locking"]


# who may write to the terminal: the CLI; the two developer tools with their own `python -m` entry points
# (make docs / make lineage); the load progress bar and a quiet build's progress line (drawn on a terminal only)
PRINTERS = {"cli", "docs_site", "lineage"}
TERMINAL_DRAWERS = {"loader.progress", "dbt_progress"}


def printing_modules(pkg: Path = PKG) -> dict[str, list[int]]:
    """Modules that call print() or write to sys.stdout / sys.stderr, with the line numbers."""
    out: dict[str, list[int]] = {}
    for path in sorted(pkg.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            prints = isinstance(f, ast.Name) and f.id == "print"
            writes = (isinstance(f, ast.Attribute) and f.attr in ("write", "writelines") and isinstance(f.value, ast.Attribute)
                      and f.value.attr in ("stdout", "stderr") and isinstance(f.value.value, ast.Name) and f.value.value.id == "sys")
            if prints or writes:
                out.setdefault(_module(path) if pkg == PKG else path.stem, []).append(node.lineno)
    return out


def test_only_the_cli_prints():
    """The library prints nothing: the CLI owns what a person sees and the exit codes (docs/architecture.md)."""
    bad = {m: lines for m, lines in printing_modules().items() if m not in PRINTERS | TERMINAL_DRAWERS}
    assert bad == {}, f"print from evalhouse.cli instead (module: lines): {bad}"


def test_the_print_check_sees_a_planted_print(tmp_path):
    (tmp_path / "lib.py").write_text("import sys\n\ndef f():\n    print('hi')\n    sys.stderr.write('x')\n")
    assert printing_modules(tmp_path) == {"lib": [4, 5]}
