"""requirements.lock is the install: it pins every dependency of pyproject.toml within its range, and the
environment the tests run in is exactly the lock (make install installs it, with uv or pip)."""
from __future__ import annotations

import re
import tomllib
from importlib import metadata

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from evalhouse.paths import PROJECT_DIR

LINE = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^\s;#]+)\s*(?:;\s*([^#]+?))?\s*(?:#.*)?$")


def _lock() -> dict[str, tuple[str, str | None]]:
    out = {}
    for raw in (PROJECT_DIR / "requirements.lock").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        assert m, f"requirements.lock: not a pinned requirement: {raw!r}"
        out[canonicalize_name(m.group(1))] = (m.group(2), m.group(3))
    return out


def _declared() -> list[Requirement]:
    project = tomllib.loads((PROJECT_DIR / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["dev"]]


def test_every_declared_dependency_is_pinned_within_its_range():
    lock = _lock()
    for req in _declared():
        name = canonicalize_name(req.name)
        assert name in lock, f"{req.name} is in pyproject.toml but not in requirements.lock: run make lock"
        version, _ = lock[name]
        assert req.specifier.contains(version, prereleases=True), \
            f"requirements.lock pins {req.name}=={version}, outside pyproject's {req.specifier}: run make lock"


def _mismatches(lock: dict[str, tuple[str, str | None]]) -> list[str]:
    wrong = []
    for name, (version, marker) in lock.items():
        if marker and not Marker(marker).evaluate():
            continue
        try:
            have = metadata.version(name)
        except metadata.PackageNotFoundError:
            wrong.append(f"{name}: locked {version}, not installed")
            continue
        if have != version:
            wrong.append(f"{name}: locked {version}, installed {have}")
    return wrong


def test_the_environment_is_the_lock():
    wrong = _mismatches(_lock())
    assert wrong == [], "the environment differs from requirements.lock (rm -rf .venv; make install):\n" + \
        "\n".join(wrong)


def test_a_version_the_environment_does_not_have_is_caught():
    lock = {**_lock(), "duckdb": ("0.0.1", None), "not-a-package-evalhouse": ("1.0", None)}
    assert _mismatches(lock) == [f"duckdb: locked 0.0.1, installed {metadata.version('duckdb')}",
                                 "not-a-package-evalhouse: locked 1.0, not installed"]
