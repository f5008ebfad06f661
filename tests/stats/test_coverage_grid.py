"""The coverage grid (tests/stats/coverage_grid.py): the interval formulas over many clustered designs
with a known truth. The clustered rate interval, which a mean of pass/fail scores takes too, holds on every
pass/fail design; the known limitation of
the unit-range mean interval and of the paired difference's interval on skewed continuous scores
(docs/statistics.md, "Known limitation: skewed clusters") is still there, or the docs must change."""
from __future__ import annotations

import pytest

from coverage_grid import grid

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
