"""Cluster ids that Python calls equal (fixtures/inspect_cluster_ids, written by inspect_ai): a clustered stderr
(stderr(cluster="src")) over samples whose `src` metadata is 1, 1.0, True, 0, -0.0, False, 2, 2.0, "2", 3, 3.0, 0.5,
2**60 and float(2**60). inspect_ai keys its clusters by the Python value, so the 14 samples are 7 clusters; keyed by
their JSON text they would be 14, and evalhouse would take the stderr again on the wrong clusters, report a false R28
disagreement and give intervals on 14 clusters. The oracle is Python itself: a dict keyed by the metadata values."""
from __future__ import annotations

import math
from pathlib import Path

from helpers import FIXTURES, built_once, query
from test_inspect_metrics import SELECT, _clustered_se, _members, cluster_of

LOGS = FIXTURES / "inspect_cluster_ids"


built = built_once(LOGS, SELECT, "inspect_cluster_ids")


def _logs() -> list[Path]:
    return sorted(LOGS.glob("*.eval"))


def _samples(path: Path) -> list[dict]:
    return [m for k, m in _members(path).items() if k.startswith("samples/")]


def _clusters(path: Path) -> int:
    return len({cluster_of(s["metadata"]["src"]) for s in _samples(path)})


def _clustered_stderr(path: Path) -> float:
    """inspect_ai's clustered stderr of the C / I scores (one epoch), on the clusters Python forms."""
    samples = _samples(path)
    values = [1.0 if s["scores"]["clustered"]["value"] == "C" else 0.0 for s in samples]
    return _clustered_se(values, [cluster_of(s["metadata"]["src"]) for s in samples])


def test_the_fixture_states_what_it_is_there_for():
    for path in _logs():
        samples = _samples(path)
        texts = {repr(s["metadata"]["src"]) for s in samples}
        # the JSON holds 14 spellings; Python makes 7 clusters of them
        assert len(samples) == len(texts) == 14
        assert _clusters(path) == 7
        header = _members(path)["header.json"]
        (score,) = header["results"]["scores"]
        assert score["metrics"]["stderr2"]["params"] == {"cluster": "src"}


def test_the_clustered_stderr_is_taken_again_on_inspect_ai_s_clusters(built):
    db, _ = built
    for path in _logs():
        stored = _members(path)["header.json"]["results"]["scores"][0]["metrics"]["stderr2"]["value"]
        assert math.isclose(_clustered_stderr(path), stored, rel_tol=1e-9)  # the oracle gives inspect_ai's number
        rows = query(db, "select value_stored, value_recomputed, n_clusters_scored, cluster_key from marts.inspect_metrics "
                         "where source_file = ? and metric = 'stderr2'", [str(path)])
        assert len(rows) == 1, rows
        value_stored, value_recomputed, n_clusters, key = rows[0]
        assert key == "src" and n_clusters == 7 == _clusters(path)
        assert math.isclose(value_recomputed, value_stored, rel_tol=1e-9)
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r28_stored_metric_disagrees") == [(0,)]


def test_the_accuracy_interval_and_the_paired_comparison_use_the_same_clusters(built):
    db, _ = built
    rows = query(db, "select distinct n_clusters_scored from marts.inspect_metrics where metric = 'accuracy'")
    assert rows == [(7,)]
    (pair,) = query(db, "select n_pairs, n_clusters from marts.inspect_model_pairs")
    assert pair == (14, 7)
