"""The coverage grid (tests/stats/coverage_grid.py): the interval formulas over many clustered designs
with a known truth. The clustered rate interval, which a mean of pass/fail scores takes too, holds on every
pass/fail design; the known limitation of
the unit-range mean interval and of the paired difference's interval on skewed continuous scores
(docs/statistics.md, "Known limitation: skewed clusters") is still there, or the docs must change."""
from __future__ import annotations

import pytest

from coverage_grid import grid, groups_grid

SIMS = 400
NOMINAL_FLOOR = 0.92


@pytest.fixture(scope="module")
def cells():
    return dict(grid(SIMS, seed=5, kinds=("bin", "beta10")))


def test_clustered_rate_interval_covers_every_pass_fail_design(cells):
    rate = {k: c["rate"] for k, c in cells.items() if k[0] == "bin"}
    assert len(rate) == 90
    low = {k: v for k, v in rate.items() if v < NOMINAL_FLOOR}
    assert not low, low


def test_mean_of_pass_fail_scores_takes_the_rate_interval_and_covers(cells):
    # a mean whose observations are all 0 or 1 is marked binary and takes the clustered rate's interval:
    # before, the angular t interval covered 0.88 on the worst of these designs
    mean = {k: c["mean"] for k, c in cells.items() if k[0] == "bin"}
    assert all(mean[k] == cells[k]["rate"] for k in mean)
    low = {k: v for k, v in mean.items() if v < NOMINAL_FLOOR}
    assert not low, low


def test_known_limitation_mean_interval_undercovers_skewed_continuous_scores(cells):
    mean = {k: c["mean"] for k, c in cells.items() if k[0] == "beta10"}
    worst = min(mean, key=mean.get)
    # docs/statistics.md quotes the worst design (3 clusters, a truth near 0.84) at about 0.77
    assert mean[worst] < 0.85, (worst, mean[worst])
    assert worst[1] <= 4 and worst[3] == 3.0, worst
    # and the paired difference of such scores, less so (docs: about 0.88)
    diff = {k: c["diff"] for k, c in cells.items() if k[0] == "beta10"}
    assert min(diff.values()) < 0.92, min(diff.values())


@pytest.fixture(scope="module")
def share_cells():
    return dict(grid(SIMS, seed=5, kinds=("frac10",)))


def test_a_share_of_assertions_takes_the_rate_over_them_and_covers_more(share_cells):
    # a score that is the pass share of assertions the logs count (brownfield change over its change_detail) takes
    # the clustered rate's interval over the assertions (docs/statistics.md): on the grid's shares of 10 it covers
    # more than the unit-range mean interval at about the same width; it still falls short at few skewed clusters
    mean = {k: c["mean"] for k, c in share_cells.items()}
    items = {k: c["items"] for k, c in share_cells.items()}
    assert len(items) == 90
    assert min(items.values()) > min(mean.values()) + 0.02, (min(items.values()), min(mean.values()))
    below = sum(v < 0.93 for v in items.values()), sum(v < 0.93 for v in mean.values())
    assert 2 * below[0] <= below[1], below
    ratios = sorted(c["items_width"] for c in share_cells.values())
    assert 0.9 <= ratios[len(ratios) // 2] <= 1.05 and ratios[-1] <= 1.6, ratios
    assert min(items.values()) < NOMINAL_FLOOR, min(items.values())  # the limitation, smaller: the docs say so


@pytest.fixture(scope="module")
def group_cells():
    return dict(groups_grid(300, seed=5))


def test_mean_of_groups_interval_covers_every_pass_fail_design(group_cells):
    # inspect_ai's grouped(accuracy(), key, all="groups"): equal and unequal groups (down to 2 samples), 1 or 3 epochs, rates
    # from 0.27 to 0.98; the interval of the equal-weight mean holds its 95% on every one
    rate = {k: v for k, v in group_cells.items() if k[0] == "bin"}
    assert len(rate) == 96
    low = {k: v for k, v in rate.items() if v < NOMINAL_FLOOR}
    assert not low, low


def test_known_limitation_mean_of_groups_of_skewed_continuous_scores(group_cells):
    # continuous scores share the limitation of the unit-range mean interval (docs/statistics.md, "The mean of
    # groups": about 0.89 at worst, where a group of 3 or 4 samples carries most of the variance)
    cont = {k: v for k, v in group_cells.items() if k[0] == "beta10"}
    worst = min(cont, key=cont.get)
    assert 0.85 < cont[worst] < NOMINAL_FLOOR, (worst, cont[worst])
    assert min(worst[1]) <= 4, worst
