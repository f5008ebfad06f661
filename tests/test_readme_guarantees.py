"""README's "Guarantees" tables stay true: every test they cite exists (file, and function when named)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTION = re.compile(r"^## Guarantees\n(.*?)^## ", re.S | re.M)
HEADING = re.compile(r"^\*\*.*?\*\* \(`(tests/[^`/]+/)", re.M)
REF = re.compile(r"`((?:tests/)?[\w/]*\.py)?(?:::(\w+))?(?:\[[^\]]*\])?`")


def _functions(path: Path) -> set[str]:
    return {n.name for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.FunctionDef)}


def _citations() -> list[tuple[Path, str | None]]:
    text = SECTION.search((ROOT / "README.md").read_text()).group(1)
    out, folder, current = [], ROOT / "tests", None
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            folder = ROOT / m.group(1)
            continue
        if not line.startswith("| ") or line.startswith("| promise") or "|---" in line:
            continue
        cell = line.rsplit("|", 2)[-2]
        current = None
        for file, func in REF.findall(cell):
            if file:
                current = ROOT / file if file.startswith("tests/") else folder / file
                if not current.exists():
                    current = next(iter(sorted((ROOT / "tests").rglob(file))), current)
            if current is not None and (file or func):
                out.append((current, func or None))
    return out


def test_readme_guarantees_cite_tests_that_exist():
    cited = _citations()
    assert len(cited) >= 25, "the Guarantees tables were found and parsed"
    missing = [f"{p.relative_to(ROOT)}::{f}" if f else str(p.relative_to(ROOT)) for p, f in cited
               if not p.exists() or (f is not None and f not in _functions(p))]
    assert missing == []
