import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent

# make tests/helpers.py importable as `helpers` from every test sub-folder
sys.path.insert(0, str(TESTS_DIR))

from helpers import COLLECTED_IDS  # noqa: E402


@pytest.hookimpl(tryfirst=True)   # before xdist's own hook, which reads the groups (without it, none applied)
def pytest_collection_modifyitems(config, items):
    """Keep each test folder on one xdist worker (`make test` runs `-n 2 --dist loadgroup`).

    The folders build their warehouses in session-scoped fixtures; running a folder on a single
    worker builds each of them once, while the two workers split the folders between the cores.
    """
    config.stash[COLLECTED_IDS] = frozenset(item.nodeid for item in items)
    for item in items:
        item.add_marker(pytest.mark.xdist_group(_group(item)))
    # the longest groups first (with --no-loadscope-reorder xdist hands groups out in collection order), so the
    # two workers finish together instead of one running the lint alone at the end
    rank = {g: i for i, g in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(_group(item), len(rank)))


def _group(item) -> str:
    own = getattr(getattr(item, "module", None), "XDIST_GROUP", None)    # a module that builds its own warehouse
    if own:
        return own
    rel = Path(str(item.fspath)).resolve().relative_to(TESTS_DIR)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


# measured in a fresh-clone `make test` (--durations): the groups that take longest, longest first
LONGEST_FIRST = ["spark", "test_sqlfluff", "bench", "reliability", "report", "docs", "inspect", "inspect_costs", "rules",
                 "incremental", "stats",
                 "coder_eval", "big", "matrix", "costs", "loader"]
