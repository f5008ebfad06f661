import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent

# make tests/helpers.py importable as `helpers` from every test sub-folder
sys.path.insert(0, str(TESTS_DIR))


@pytest.hookimpl(tryfirst=True)   # before xdist's own hook, which reads the groups (without it, none applied)
def pytest_collection_modifyitems(config, items):
    """Keep each test folder on one xdist worker (`make test` runs `-n 2 --dist loadgroup`).

    The folders build their warehouses in session-scoped fixtures; running a folder on a single
    worker builds each of them once, while the two workers split the folders between the cores.
    """
    for item in items:
        rel = Path(str(item.fspath)).resolve().relative_to(TESTS_DIR)
        group = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        item.add_marker(pytest.mark.xdist_group(group))
    # the longest group first (xdist hands groups out in collection order): the lint then runs beside the
    # other groups instead of alone at the end
    items.sort(key=lambda item: Path(str(item.fspath)).stem not in FIRST)


FIRST = {"test_sqlfluff"}
