"""Scores off the unit range and metric keys inspect_ai made unique (fixtures/inspect_scales/, written by inspect_ai:
two models, 8 samples, 2 epochs reduced by mean). inspect_ai's mean() takes any number and a log does not state a
score's range: `rating` scores 3 to 9, `steady` 5 for every sample. Their intervals, and the interval of their
model-vs-model difference, are mean -/+ t(C - 1) x SE, never clipped to [0, 1] or [-1, 1], and NULL where SE = 0
(no bound to build one from). `two_groupings` has two grouped metrics whose entries share names: inspect_ai stores
the second `all` under the key `all2` and the second `arith` under `arith2`, each still named `all` / `arith`.
`by_source` declares a plain stderr beside clustered ones: each is recomputed on the clusters it declares."""
from __future__ import annotations

import math
import statistics
from pathlib import Path

import pytest

from helpers import FIXTURES, built_once, query
from test_inspect_metrics import SELECT, _clustered_se, _members, grouped_oracle, stats_oracle

LOGS = FIXTURES / "inspect_scales"


built = built_once(LOGS, SELECT, "inspect_scales")


def _reduced(path: Path, scorer: str) -> dict[str, float]:
    """sample id -> the score's value, the mean of its epochs (reductions.json)."""
    (red,) = [r for r in _members(path)["reductions.json"] if r["scorer"] == scorer]
    return {s["sample_id"]: float(s["value"]) for s in red["samples"]}


def _t_interval(values: list[float]) -> tuple[float | None, float | None]:
    """Each sample a cluster: mean -/+ t(n - 1) x SE, unclipped; none when SE = 0."""
    n, mean = len(values), math.fsum(values) / len(values)
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    if se <= 1e-12:
        return None, None
    return mean - stats_oracle.t_crit(n - 1) * se, mean + stats_oracle.t_crit(n - 1) * se


def test_a_mean_off_the_unit_range_takes_an_unclipped_t_interval(built):
    db, _ = built
    logs = sorted(LOGS.glob("*.eval"))
    assert len(logs) == 2
    for path in logs:
        rating = _reduced(path, "rating")
        assert min(rating.values()) >= 3 and max(rating.values()) > 1
        (row,) = query(db, "select value_recomputed, value_ci_low, value_ci_high, value_errors_as_incorrect_ci_low, "
                           "value_errors_as_incorrect_ci_high from marts.inspect_metrics "
                           f"where source_file like '%{path.name}' and score_name = 'rating' and metric = 'mean'")
        lo, hi = _t_interval(list(rating.values()))
        assert row[0] == pytest.approx(math.fsum(rating.values()) / len(rating), rel=1e-12)
        assert row[1:3] == (pytest.approx(lo, abs=1e-9), pytest.approx(hi, abs=1e-9))
        assert row[1] < row[0] < row[2] and row[2] > 1         # around its value, not clipped to [0, 1]
        assert row[3:5] == row[1:3]                             # no sample errored
        # every sample scores 5: no spread and no stated range, so no interval (never [5, 5], never [0, 1])
        assert query(db, "select value_recomputed, value_ci_low, value_ci_high, value_ci_reason from marts.inspect_metrics "
                         f"where source_file like '%{path.name}' and score_name = 'steady' and metric = 'mean'") == [
            (5.0, None, None, "no spread, and the range is not stated")]
        # a stderr is not a mean: no interval, and it says so
        assert query(db, "select value_ci_low, value_ci_reason from marts.inspect_metrics "
                         f"where source_file like '%{path.name}' and score_name = 'rating' and metric = 'stderr'") == [
            (None, "not a mean: evalhouse gives an interval for accuracy and mean")]


def test_groups_and_the_mean_of_groups_off_the_unit_range(built):
    """The topics' means of `rating` and their unweighted mean (all="groups") take the same unclipped intervals:
    each group t(C_g - 1), the mean of groups t at its Welch-Satterthwaite df (stats_oracle.mean_of_groups with no
    range)."""
    db, _ = built
    for path in sorted(LOGS.glob("*.eval")):
        rating = _reduced(path, "rating")
        topic = {s["id"]: s["metadata"]["topic"] for k, s in _members(path).items() if k.startswith("samples/")}
        groups = {g: [v for i, v in rating.items() if topic[i] == g] for g in set(topic.values())}
        got = {m: (v, lo, hi) for m, v, lo, hi in query(
            db, "select metric, value_recomputed, value_ci_low, value_ci_high from marts.inspect_metrics "
                f"where source_file like '%{path.name}' and score_name = 'rating' and grouped_by = 'topic'")}
        assert set(got) == set(groups) | {"all"}
        parts = {}
        for g, vals in groups.items():
            n, mean = len(vals), math.fsum(vals) / len(vals)
            se = math.sqrt(sum((v - mean) ** 2 for v in vals) / (n - 1) / n)
            parts[g] = (mean, se, n, n, False)
            assert got[g][0] == pytest.approx(mean, rel=1e-12)
            assert got[g][1:] == tuple(pytest.approx(x, abs=1e-9) for x in _t_interval(vals)), g
        mean, _, _, _, lo, hi = stats_oracle.mean_of_groups(*zip(*parts.values()), lower=None, upper=None)
        assert got["all"] == (pytest.approx(mean, rel=1e-12), pytest.approx(lo, abs=1e-9), pytest.approx(hi, abs=1e-9))
        assert got["all"][2] > 1


def test_a_model_difference_off_the_unit_range_is_not_clipped(built):
    db, _ = built
    a, b = (_reduced(p, "rating") for p in sorted(LOGS.glob("*.eval"), key=lambda p: _members(p)["header.json"]["eval"]["model"]))
    diffs = [b[i] - a[i] for i in a]
    assert max(abs(d) for d in diffs) > 1
    (row,) = query(db, "select value_diff_mean, value_diff_ci_low, value_diff_ci_high from marts.inspect_model_pairs "
                       "where score_name = 'rating'")
    lo, hi = _t_interval(diffs)
    assert row == (pytest.approx(math.fsum(diffs) / len(diffs), rel=1e-12), pytest.approx(lo, abs=1e-9),
                   pytest.approx(hi, abs=1e-9))
    assert row[2] - row[1] > 2                                 # wider than [-1, 1] could hold
    # the same constant on both sides: a difference of 0 with no spread, and no interval (not [0, 0])
    assert query(db, "select value_diff_mean, value_diff_ci_low, value_diff_ci_high, value_diff_ci_reason "
                     "from marts.inspect_model_pairs where score_name = 'steady'") == [
        (0.0, None, None, "no spread, and the range is not stated")]


def test_entries_stored_under_keys_made_unique_are_recomputed_by_their_names(built):
    """two_groupings: grouped(accuracy(), "topic"), grouped(accuracy(), "level", all="groups") and grouped(mean(),
    "topic", all=False). The level's mean of groups is stored under `all2` and the mean's groups under `arith2`,
    `geo2`, `chem2`: each is recomputed as the entry its name says, agrees with inspect_ai, and R28 finds nothing."""
    db, _ = built
    for path in sorted(LOGS.glob("*.eval")):
        header = _members(path)["header.json"]
        (res,) = [s for s in header["results"]["scores"] if s["name"] == "two_groupings"]
        renamed = {k: e["name"] for k, e in res["metrics"].items() if k != e["name"]}
        assert renamed == {"all2": "all", "arith2": "arith", "geo2": "geo", "chem2": "chem"}
        want = grouped_oracle(path)
        rows = {m: r for m, *r in query(
            db, "select metric, metric_base, group_name, value_stored, value_recomputed, is_recomputed "
                f"from marts.inspect_metrics where source_file like '%{path.name}' and score_name = 'two_groupings'")}
        assert set(rows) == set(res["metrics"])
        for key, (base, group, stored, recomputed, is_recomputed) in rows.items():
            assert is_recomputed and recomputed == pytest.approx(stored, rel=1e-9), key
            w = want[("two_groupings", key)]
            assert recomputed == pytest.approx(w.get("mean_of_groups", w.get("mean")), rel=1e-12), key
            if key in renamed and key != "all2":
                assert group == renamed[key] and base == "mean", key
        assert rows["all2"][0] is None                      # a mean of groups, not the accuracy over the samples
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r28_stored_metric_disagrees") == [(0,)]


def test_a_plain_stderr_beside_clustered_ones_is_recomputed_on_its_own_clusters(built):
    """by_source declares stderr(), stderr(cluster="source") (stored under `stderr2`) and grouped(stderr(cluster=
    "source"), "topic"). The plain one is inspect's stderr() over the samples (sd / sqrt(n), each sample its own
    cluster), the others the clustered SE over the sources (of the topic's samples, for a group; 0 for a topic with
    one source, as inspect_ai stores it); the accuracy's interval takes the sources as its clusters."""
    db, _ = built
    for path in sorted(LOGS.glob("*.eval")):
        values = _reduced(path, "by_source")
        meta = {s["id"]: s["metadata"] for k, s in _members(path).items() if k.startswith("samples/")}
        ids = sorted(values)
        rows = {m: tuple(r) for m, *r in query(
            db, "select metric, value_stored, value_recomputed, is_recomputed, cluster_key, n_clusters_scored "
                f"from marts.inspect_metrics where source_file like '%{path.name}' and score_name = 'by_source'")}
        assert set(rows) == {"accuracy", "stderr", "stderr2", "arith", "geo", "chem", "all"}
        plain = statistics.stdev(values[i] for i in ids) / math.sqrt(len(ids))
        clustered = _clustered_se([values[i] for i in ids], [meta[i]["source"] for i in ids])
        assert abs(plain - clustered) > 1e-3                   # the two stderrs differ: a mix-up would show
        assert rows["stderr"] == (pytest.approx(plain, rel=1e-9), pytest.approx(plain, rel=1e-12), True, None, 8)
        for key in ("stderr2", "all"):
            assert rows[key] == (pytest.approx(clustered, rel=1e-9), pytest.approx(clustered, rel=1e-12), True,
                                 "source", 4), key
        for topic in ("arith", "geo", "chem"):
            members = [i for i in ids if meta[i]["topic"] == topic]
            sources = [meta[i]["source"] for i in members]
            want = 0.0 if len(set(sources)) < 2 else _clustered_se([values[i] for i in members], sources)
            assert rows[topic][:4] == (pytest.approx(want, abs=1e-12), pytest.approx(want, abs=1e-12), True,
                                       "source"), topic
            assert rows[topic][4] == len(set(sources)), topic
        assert rows["accuracy"][3:] == ("source", 4)
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r28_stored_metric_disagrees") == [(0,)]
