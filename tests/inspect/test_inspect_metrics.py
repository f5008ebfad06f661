"""inspect_ai's own numbers reproduced (issue 17): every accuracy / mean / stderr a fixture log stores equals
evalhouse's recomputation, and both equal an independent Python oracle that reduces the per-epoch sample scores
itself; the rate with errored samples counted as incorrect is stated beside inspect's (R29); a tampered stored
metric is a finding (R28, negative control); a mart that loses the errored samples fails the build's test (R29,
negative control)."""
from __future__ import annotations

import io
import json
import math
import statistics
import zipfile
from pathlib import Path

import pytest
import zstandard

from evalhouse.cli import main
from helpers import (FIXTURES, built_once, dbt, fresh_db, load_and_build, query, run_results, script_module,
                     status_after_planting)

LOGS = FIXTURES / "inspect"
stats_oracle = script_module("stats_oracle")
SELECT = ["+inspect_metrics", "+inspect_model_pairs", "+int_dq__inspect_r28_stored_metric_disagrees"]

# an epoch reducer as inspect_ai applies it to a sample's scored epochs (value_to_float values)
REDUCERS = {
    "mean": statistics.fmean,
    None: statistics.fmean,
    "max": max,
    "at_least_2": lambda values: float(sum(v >= 1.0 for v in values) >= 2),     # at_least(2, value=1.0)
}


def _entries(path: Path) -> list[tuple[str, dict]]:
    """Every entry of an .eval archive as (name, JSON), in the archive's order, read here without the loader (zstd by
    hand, DEFLATE by zipfile). A name written twice is two entries."""
    data, out = path.read_bytes(), []
    for info in zipfile.ZipFile(path).infolist():
        if info.compress_type == 93:
            s = info.header_offset
            body = s + 30 + int.from_bytes(data[s + 26:s + 28], "little") + int.from_bytes(data[s + 28:s + 30], "little")
            raw = zstandard.ZstdDecompressor().decompress(data[body:body + info.compress_size], max_output_size=info.file_size)
        else:
            raw = zipfile.ZipFile(io.BytesIO(data)).read(info)
        out.append((info.filename, json.loads(raw)))
    return out


def _members(path: Path) -> dict[str, dict]:
    """The log's JSON members, read here without the loader; of a name written twice, the last entry (as inspect_ai
    reads it)."""
    if path.suffix == ".json":
        obj = json.loads(path.read_text())
        return {"header.json": obj, **{f"samples/{s['id']}_epoch_{s['epoch']}.json": s for s in obj["samples"]}}
    return dict(_entries(path))


def _to_float(v) -> float | None:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        return {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}.get(v)
    return None


def _score_value(sc: dict, name: str, scorer: str):
    """The value a score `name` takes from a sample's score of `scorer`: the value itself, or, for a dict-valued
    scorer with a metric per key, the value of that key."""
    v = sc["value"]
    return v.get(name) if isinstance(v, dict) and name != scorer else v


def _epochs(samples: list[dict], name: str, scorer: str) -> dict:
    """sample id -> the float value of score `name` in each of its epochs that has one."""
    out: dict = {}
    for s in samples:
        sc = (s.get("scores") or {}).get(scorer)
        if sc is not None and _to_float(_score_value(sc, name, scorer)) is not None:
            out.setdefault(s["id"], []).append(_to_float(_score_value(sc, name, scorer)))
    return out


def _clustered_se(values: list[float], clusters: list) -> float:
    """inspect_ai's clustered stderr, written out here: sqrt(C / (C - 1) * sum_c (sum_i (v_i - mean))^2) / n."""
    mean = statistics.fmean(values)
    sums: dict = {}
    for v, c in zip(values, clusters):
        sums[c] = sums.get(c, 0.0) + (v - mean)
    k = len(sums)
    return math.sqrt(sum(d * d for d in sums.values()) * k / (k - 1)) / len(values)


def cluster_of(value):
    """A sample's cluster as inspect_ai's clustered stderr forms it: the metadata value itself as a dict key, so values
    Python calls equal (1, 1.0, True) are one cluster; a list or dict (which inspect_ai cannot key) by its JSON."""
    return json.dumps(value) if isinstance(value, (list, dict)) else value


def oracle(path: Path) -> dict[tuple[str, str, str | None], dict]:
    """(score name, scorer, reducer) -> accuracy (mean), stderr (clustered where the log's stderr declares a
    cluster key), n scored, n attempted, mean with errors as 0: from the samples."""
    members = _members(path)
    header = members["header.json"]
    samples = [m for k, m in members.items() if k.startswith("samples/")]
    attempted = {s["id"] for s in samples}
    meta = {s["id"]: s.get("metadata") or {} for s in samples}
    out = {}
    for res in header.get("results", {}).get("scores", []):
        name, scorer, reducer = res["name"], res["scorer"], res.get("reducer")
        cluster = (res["metrics"].get("stderr", {}).get("params") or {}).get("cluster")
        per_sample = _epochs(samples, name, scorer)
        reduce = REDUCERS[reducer]
        ids = list(per_sample)
        vals = [reduce(per_sample[i]) for i in ids]
        n = len(vals)
        # a `mean` over epochs that each scored 0 or 1 is their pass rate: as many pass/fail observations as
        # epochs; any other reduced value is one observation, pass/fail when it is 0 or 1
        pass_fail_epochs = {i: reducer == "mean" and all(x in (0.0, 1.0) for x in per_sample[i]) for i in ids}
        obs = {i: len(per_sample[i]) if pass_fail_epochs[i] else 1 for i in ids}
        se = (_clustered_se(vals, [cluster_of(meta[i][cluster]) for i in ids]) if cluster
              else statistics.stdev(vals) / math.sqrt(n))
        out[(name, scorer, reducer)] = {"mean": statistics.fmean(vals), "stderr": se, "n": n, "values": vals,
                                        "observations": sum(obs.values()),
                                        "binary": all(pass_fail_epochs[i] or v in (0.0, 1.0) for i, v in zip(ids, vals)),
                                        "attempted": len(attempted), "errors_as_incorrect": sum(vals) / len(attempted),
                                        "clusters": len({cluster_of(meta[i][cluster]) for i in ids}) if cluster else n}
    return out


built = built_once(LOGS, SELECT, "inspect")


def test_every_stored_metric_is_recomputed_exactly(built):
    db, _ = built
    rows = query(db, "select metric, value_stored, value_recomputed from marts.inspect_metrics "
                     "where metric in ('accuracy', 'mean', 'stderr')")
    assert len(rows) >= 60
    assert all(abs(s - r) <= 1e-9 * max(abs(s), 1e-12) for _, s, r in rows), rows
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r28_stored_metric_disagrees") == [(0,)]


def test_the_mart_equals_an_independent_oracle(built):
    db, _ = built
    checked, kinds, epoch_rates = 0, set(), set()
    for path in sorted(p for p in LOGS.rglob("*") if p.suffix in (".eval", ".json")):
        if "header.json" not in _members(path):
            continue                                          # a killed run stores no metrics
        for (name, scorer, reducer), want in oracle(path).items():
            got = dict((m, (v, e, ns, na, nc, lo, hi)) for m, v, e, ns, na, nc, lo, hi in query(
                db, "select metric, value_recomputed, value_errors_as_incorrect, n_samples_scored, n_samples_attempted, "
                    "n_clusters_scored, value_ci_low, value_ci_high from marts.inspect_metrics where source_file = ? "
                    "and score_name = ? and scorer = ? and reducer is not distinct from ?", [str(path), name, scorer, reducer]))
            mean_metric = "accuracy" if "accuracy" in got else "mean"
            v, e, ns, na, nc, lo, hi = got[mean_metric]
            assert (ns, na, nc) == (want["n"], want["attempted"], want["clusters"]), (path.name, name, reducer)
            assert math.isclose(v, want["mean"], rel_tol=1e-12) and math.isclose(e, want["errors_as_incorrect"], rel_tol=1e-12)
            assert math.isclose(got["stderr"][0], want["stderr"], rel_tol=1e-12)
            # the interval by the statistics conventions: a pass/fail score's mean takes the clustered rate's,
            # over its observations (the epochs of a `mean` over pass/fail epochs)
            is_binary = want["binary"]
            want_lo, want_hi = stats_oracle.clustered_mean_ci(want["mean"], want["stderr"], want["clusters"],
                                                              want["observations"], binary=is_binary)
            assert (lo, hi) == (None, None) if want_lo is None else (
                math.isclose(lo, want_lo, abs_tol=1e-9) and math.isclose(hi, want_hi, abs_tol=1e-9)), \
                (path.name, name, reducer, is_binary, lo, hi, want_lo, want_hi)
            kinds.add(is_binary and 0 < want["mean"] < 1 and want["clusters"] >= 2)
            epoch_rates |= {is_binary and any(0 < x < 1 for x in want["values"])}
            checked += 1
    assert checked >= 20 and kinds == {True, False}  # interior pass/fail means and other means both checked
    assert True in epoch_rates  # a `mean` over pass/fail epochs that disagree (a value strictly inside 0..1) is checked


def test_r29_errors_counted_as_incorrect_differ_from_inspects_rate(built):
    """The #3707 case: model-a answers 3 of the 4 samples it finished and errors on the fifth: inspect reports
    0.75, and 0.60 is the rate over every sample the log attempted."""
    db, _ = built
    (row,) = query(db, "select value_stored, value_errors_as_incorrect, n_samples_scored, n_samples_attempted, "
                       "n_samples_errored from marts.inspect_metrics where model_raw = 'mockllm/model-a' and scorer = 'match' "
                       "and reducer = 'mean' and metric = 'accuracy' and source_file like '%both_models%'")
    assert row == (0.75, 0.6, 4, 5, 1)
    res = run_results(built[1] / "target")
    assert res["r29_inspect_errored_samples_counted"]["status"] == "pass"
    assert res["r28_inspect_stored_metrics_agree"]["status"] == "pass"


def test_r28_negative_control_a_tampered_stored_metric_is_a_finding(tmp_path):
    src = next((LOGS / "both_models").glob("*.json"))
    obj = json.loads(src.read_text())
    obj["results"]["scores"][0]["metrics"]["accuracy"]["value"] = 0.99       # the log claims more than its samples
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "tampered.json").write_text(json.dumps(obj))
    db = load_and_build(logs, tmp_path, SELECT, check=False)
    res = run_results(tmp_path / "target")
    assert res["r28_inspect_stored_metrics_agree"]["status"] == "warn"
    (detail,) = query(db, "select detail from intermediate.int_dq__inspect_r28_stored_metric_disagrees")[0]
    assert "0.99" in detail and "0.75" in detail


def test_r28_negative_control_a_nan_stored_metric_is_a_finding(tmp_path):
    """No comparison with NaN is true: a log that stores NaN for a metric its samples give a number for is a finding
    all the same."""
    src = next((LOGS / "both_models").glob("*.json"))
    obj = json.loads(src.read_text())
    obj["results"]["scores"][0]["metrics"]["accuracy"]["value"] = float("nan")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "nan.json").write_text(json.dumps(obj))            # NaN, as inspect_ai writes it
    db = load_and_build(logs, tmp_path, SELECT, check=False)
    assert run_results(tmp_path / "target")["r28_inspect_stored_metrics_agree"]["status"] == "warn"
    (detail,) = query(db, "select detail from intermediate.int_dq__inspect_r28_stored_metric_disagrees")[0]
    assert "nan" in detail.lower() and "0.75" in detail


def test_r29_negative_control_a_mart_that_drops_errored_samples_fails(built, tmp_path):
    assert status_after_planting(
        built[0], tmp_path, "update marts.inspect_metrics set n_samples_attempted = n_samples_scored - 1 "
                         "where metric = 'accuracy'", "r29_inspect_errored_samples_counted") == "fail"


def _reduced(path: Path, scorer: str, reducer: str) -> dict:
    """sample id -> reduced value (mean / max over epochs of value_to_float), 0 for a sample with no score."""
    members = _members(path)
    out: dict = {}
    for k, s in members.items():
        if k.startswith("samples/"):
            sc = (s.get("scores") or {}).get(scorer)
            v = _to_float(sc["value"]) if sc is not None else None
            out.setdefault(s["id"], [])
            if v is not None:
                out[s["id"]].append(v)
    reduce = REDUCERS[reducer]
    return {sid: (reduce(v) if v else 0.0) for sid, v in out.items()}


def test_r30_model_pairs_on_the_same_samples_match_an_oracle(built):
    """model-a vs model-b on the 5 samples both attempted: the paired mean difference and its t(4) interval,
    recomputed here from the two log files."""
    from scipy import stats
    db, tmp = built
    a, b = sorted((LOGS / "both_models").iterdir(), key=lambda p: p.suffix)        # .eval = model-a, .json = model-b
    for scorer, reducer in (("match", "mean"), ("model_graded_qa", "max"), ("length_ratio", "mean")):
        va, vb = _reduced(a, scorer, reducer), _reduced(b, scorer, reducer)
        assert set(va) == set(vb)
        d = [vb[k] - va[k] for k in va]
        n, mean = len(d), statistics.fmean(d)
        se = statistics.stdev(d) / math.sqrt(n)
        (row,) = query(db, "select n_pairs, value_diff_mean, value_diff_se, value_diff_ci_low, value_diff_ci_high "
                           "from marts.inspect_model_pairs where source_file_a = ? and source_file_b = ? and scorer = ? "
                           "and reducer = ?", [str(a), str(b), scorer, reducer])
        assert row[0] == n == 5 and math.isclose(row[1], mean, abs_tol=1e-12) and math.isclose(row[2], se, abs_tol=1e-12)
        if se > 0:
            t = stats.t.ppf(0.975, n - 1)
            assert math.isclose(row[3], max(-1, mean - t * se), abs_tol=1e-9)
            assert math.isclose(row[4], min(1, mean + t * se), abs_tol=1e-9)
    # never a non-success log in a pair
    statuses = query(db, "select distinct l.status from marts.inspect_model_pairs as p inner join "
                         "intermediate.int_inspect__logs as l on l.source_file in (p.source_file_a, p.source_file_b)")
    assert statuses == [("success",)]
    assert run_results(tmp / "target")["r30_inspect_pairs_on_identical_samples"]["status"] == "pass"


def test_a_clustered_stderr_and_dict_scores_are_recomputed(built):
    """The features log declares stderr(cluster="group") on one scorer and a metric per key of a dict-valued
    scorer: the clustered stderr is reproduced on its 3 metadata clusters (not the 8 samples), each dict key is
    its own score, and the interval's t has C - 1 degrees of freedom."""
    db, _ = built
    rows = query(db, "select score_name, scorer, cluster_key, n_clusters_scored, n_samples_scored, value_stored, "
                     "value_recomputed from marts.inspect_metrics where source_file like '%features%' and metric = 'stderr' "
                     "order by score_name")
    by_name = {r[0]: r for r in rows}
    assert by_name["clustered_match"][2:5] == ("group", 3, 8)
    assert by_name["exact"][1] == by_name["short"][1] == "parts" and by_name["exact"][2] is None
    for r in rows:
        assert math.isclose(r[5], r[6], rel_tol=1e-9), r
    # the clustered SE differs from the per-sample one on the same values: clustering changed the number
    path = next((LOGS / "features").glob("*.eval"))
    want = oracle(path)[("clustered_match", "clustered_match", "mean")]
    assert math.isclose(want["stderr"], by_name["clustered_match"][6], rel_tol=1e-12)


def test_r30_negative_control_a_pair_on_different_sample_sets_fails(built, tmp_path):
    assert status_after_planting(
        built[0], tmp_path, "update marts.inspect_model_pairs set n_samples_b = n_pairs + 1 where scorer = 'match'",
        "r30_inspect_pairs_on_identical_samples") == "fail"


def test_a_nan_score_builds_and_is_flagged(tmp_path):
    """inspect_ai writes a non-finite score as the bare literal NaN, which is not JSON: the member lands as
    written, staging flags it (has_nonfinite_literals) and keeps the NaN a number (as inspect's value_to_float
    does), and the build goes on."""
    src = next((LOGS / "both_models").glob("*.json"))
    obj = json.loads(src.read_text())
    first = obj["samples"][0]
    first["scores"]["length_ratio"]["value"] = float("nan")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "nan.json").write_text(json.dumps(obj))
    db = fresh_db(tmp_path / "w.duckdb")
    assert main(["load", str(logs), "--db", str(db), "--quiet"]) == 0
    dbt(["build", "--select", "+stg_inspect__sample_scores", "+stg_inspect__samples", "--exclude-resource-type", "unit_test"],
        db, tmp_path / "t")
    rows = query(db, "select s.has_nonfinite_literals, c.value_kind, c.value_float from staging.stg_inspect__samples as s "
                     "inner join staging.stg_inspect__sample_scores as c using (source_file, sample_id, epoch) "
                     "where c.scorer = 'length_ratio' and s.sample_id = ? and s.epoch = ?", [str(first["id"]), first["epoch"]])
    assert len(rows) == 1 and rows[0][:2] == (True, "number") and math.isnan(rows[0][2])


def test_intervals_cluster_by_sample_and_their_se_is_inspects_stderr(built):
    """Each sample is one cluster (its epochs are replicates): the SE behind the interval of the scored mean is
    inspect's own stderr, and both intervals hold their point inside [0, 1]."""
    db, _ = built
    rows = query(db, "select i.mean_se, m.value_stored from intermediate.int_inspect__metrics_recomputed as i "
                     "inner join marts.inspect_metrics as m using (source_file, score_name, scorer) "
                     "where m.metric = 'stderr' and m.reducer is not distinct from i.reducer and i.group_key is null")
    assert len(rows) >= 30 and all(math.isclose(se, st, rel_tol=1e-9, abs_tol=1e-12) for se, st in rows)
    for v, lo, hi, e, elo, ehi in query(db, "select value_recomputed, value_ci_low, value_ci_high, value_errors_as_incorrect, "
                                            "value_errors_as_incorrect_ci_low, value_errors_as_incorrect_ci_high "
                                            "from marts.inspect_metrics where metric in ('accuracy', 'mean')"):
        assert 0 <= lo <= v <= hi <= 1 and 0 <= elo <= e <= ehi <= 1


GROUPED = FIXTURES / "inspect_grouped"


def grouped_oracle(path: Path) -> dict[tuple[str, str], dict | None]:
    """(score name, metric) -> what each entry of a grouped metric (inspect_ai's grouped(metric, group_key)) is
    over, worked out here from the samples and their metadata: the samples whose str(metadata[group_key]), put in
    the name template, is the entry's name (every sample for the whole), the epoch-mean reduced values' mean, count,
    SE (each sample a cluster), observations and whether they are pass/fail, and the same over every sample the
    group attempted ("attempted": an errored sample, unscored, counts one observation of 0); for a whole that is the
    mean of the group values (all="groups"), {"mean_of_groups": that mean, "interval": the oracle's interval of a
    mean of groups over those groups, and the same two with errors counted as incorrect}."""
    members = _members(path)
    samples = [m for k, m in members.items() if k.startswith("samples/")]
    meta = {s["id"]: s.get("metadata") or {} for s in samples}
    attempted = list(meta)
    out: dict = {}
    for res in members["header.json"]["results"]["scores"]:
        name, scorer = res["name"], res["scorer"]
        assert res["reducer"] == "mean"
        epochs = _epochs(samples, name, scorer)

        def stats(ids, values):     # each sample a cluster: its epoch values (one 0 for an errored sample)
            vals = [statistics.fmean(values[i]) for i in ids]
            pass_fail = {i: all(x in (0.0, 1.0) for x in values[i]) for i in ids}
            return {"mean": statistics.fmean(vals), "n": len(vals),
                    "se": statistics.stdev(vals) / math.sqrt(len(vals)) if len(vals) > 1 else None,
                    "observations": sum(len(values[i]) if pass_fail[i] else 1 for i in ids),
                    "binary": all(pass_fail[i] or v in (0.0, 1.0) for i, v in zip(ids, vals))}

        def over(scored, group):    # the group's scored samples, and every sample it attempted
            return {**stats(scored, epochs), "attempted": stats(group, {i: epochs.get(i, [0.0]) for i in group})}

        def interval(groups):
            return stats_oracle.mean_of_groups(*([g[f] for g in groups] for f in
                                                 ("mean", "se", "n", "observations", "binary")))[-2:]

        for metric, entry in res["metrics"].items():
            if entry.get("group") != "grouped":
                continue
            params = entry["params"]
            key = params["group_key"]
            named = entry.get("name", metric)       # a key inspect_ai made unique (`all2`) keeps the entry's name
            whole = params.get("all", "samples") is not False and named == params.get("all_label", "all")
            if whole and params.get("all") == "groups":
                groups = [over([i for i in epochs if str(meta[i][key]) == g], [i for i in attempted if str(meta[i][key]) == g])
                          for g in {str(meta[i][key]) for i in epochs}]
                out[(name, metric)] = {
                    "mean_of_groups": statistics.fmean(g["mean"] for g in groups),
                    "mean_over_samples": statistics.fmean(statistics.fmean(v) for v in epochs.values()),
                    "interval": interval(groups),
                    "errors_as_incorrect": statistics.fmean(g["attempted"]["mean"] for g in groups),
                    "errors_as_incorrect_interval": interval([g["attempted"] for g in groups])}
                continue
            template = params.get("name_template", "{group_name}")
            ids = [i for i in attempted if whole or template.format(group_name=str(meta[i][key])) == named]
            scored = [i for i in ids if i in epochs]
            out[(name, metric)] = {"base": params["metric"]["name"], "group": None if whole else str(meta[ids[0]][key]),
                                   **over(scored, ids)}
    return out


@pytest.fixture(scope="module")
def grouped(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("inspect_grouped")
    return load_and_build(GROUPED, tmp, SELECT), tmp


def test_grouped_metrics_are_recomputed_per_group(grouped):
    """inspect_ai's grouped(accuracy(), key) stores an accuracy per group of samples (their metadata value under the
    key) and one for the whole. Each is recomputed over its own samples, with that group's counts and interval, and
    equals both inspect_ai's stored value and an oracle that groups the samples itself: a name template over an
    integer key, an `all` label of its own, a grouped mean with no whole. A whole that is the mean of the group
    values (all="groups") is recomputed as that mean, with no metric_base (never mistaken for the mean over the
    samples) and the interval of a mean of groups, each group a stratum weighted 1/G, where every group has two
    samples or more. One geo sample errored: grouped() leaves it out of the stored values, and the values with errors
    counted as incorrect count it 0 in its groups, in the whole and in the means of groups, with their intervals."""
    db, tmp = grouped
    want = grouped_oracle(next(GROUPED.glob("*.eval")))
    got = {(r[0], r[1]): r[2:] for r in query(
        db, "select score_name, metric, metric_base, grouped_by, group_name, value_stored, value_recomputed, is_recomputed, "
            "n_samples_scored, n_samples_attempted, n_clusters_scored, value_ci_low, value_ci_high, "
            "value_errors_as_incorrect, value_errors_as_incorrect_ci_low, value_errors_as_incorrect_ci_high "
            "from marts.inspect_metrics where grouped_by is not null")}
    assert set(got) == set(want)
    groups, means_of_groups = set(), {}
    for k, w in want.items():
        base, _, group, stored, recomputed, is_recomputed, ns, na, nc, lo, hi, e, elo, ehi = got[k]
        if "mean_of_groups" in w:
            assert (base, is_recomputed) == (None, True), k
            assert math.isclose(recomputed, w["mean_of_groups"], rel_tol=1e-12), k
            assert math.isclose(stored, w["mean_of_groups"], rel_tol=1e-9), k
            # the interval of a mean of groups, and the same mean and interval with the errored sample counted 0
            assert math.isclose(e, w["errors_as_incorrect"], rel_tol=1e-12), k
            means_of_groups[k] = (lo, hi, e, elo, ehi)
            for got_interval, want_interval in (((lo, hi), w["interval"]), ((elo, ehi), w["errors_as_incorrect_interval"])):
                if want_interval[0] is None:
                    assert got_interval == (None, None), k
                else:
                    assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(got_interval, want_interval)), (k, got_interval, w)
            continue
        assert (base, group, is_recomputed) == (w["base"], w["group"], True), k
        assert math.isclose(recomputed, w["mean"], rel_tol=1e-12) and math.isclose(stored, w["mean"], rel_tol=1e-9), k
        assert ns == nc == w["n"] and na == w["attempted"]["n"], k
        assert math.isclose(e, w["attempted"]["mean"], rel_tol=1e-12), k
        for got_interval, of in (((lo, hi), w), ((elo, ehi), w["attempted"])):
            want_interval = stats_oracle.clustered_mean_ci(of["mean"], of["se"], of["n"], of["observations"], binary=of["binary"])
            if want_interval[0] is None:     # a group of one sample: no interval
                assert got_interval == (None, None), k
            else:
                assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(got_interval, want_interval)), (k, got_interval, want_interval)
        groups.add(k)
    assert {("by_topic", "all"), ("by_topic", "arith"), ("by_level", "level_1"), ("by_level", "level_3"),
            ("brevity", "geo")} <= groups
    assert want[("by_level", "level_3")]["n"] == 1
    # the groups differ in size and rate, so the mean of the groups is not the mean over the samples: a mix-up shows
    overall = want[("by_level", "overall")]
    assert not math.isclose(overall["mean_of_groups"], overall["mean_over_samples"], rel_tol=1e-6)
    assert len(groups) >= 9
    # by_level's mean of groups has a group of one sample (no interval); the mean of the topics, groups of 4, 4 and
    # 2 samples, has one, about the mean of the groups
    assert means_of_groups[("by_level", "overall")][:2] == (None, None)
    # every NULL interval says why, and no interval that exists has a reason
    reasons = dict(((r[0], r[1]), r[2:]) for r in query(
        db, "select score_name, metric, value_ci_low is null, value_ci_reason from marts.inspect_metrics "
            "where grouped_by is not null"))
    assert reasons[("by_level", "overall")] == (True, "a group has fewer than 2 clusters")
    assert reasons[("by_level", "level_3")] == (True, "fewer than 2 clusters")
    assert all((is_null, why is not None) in ((True, True), (False, False)) for is_null, why in reasons.values())
    lo, hi, e, elo, ehi = means_of_groups[("topics_equal", "all")]
    assert 0 < lo < want[("topics_equal", "all")]["mean_of_groups"] < hi < 1
    # the errored geo sample: in its groups' attempted counts, and it lowers the mean of the topics and its interval
    assert want[("by_topic", "geo")]["attempted"]["n"] == want[("by_topic", "geo")]["n"] + 1
    assert want[("by_level", "level_2")]["attempted"]["n"] == want[("by_level", "level_2")]["n"] + 1
    assert 0 < elo < e < ehi < 1 and e < want[("topics_equal", "all")]["mean_of_groups"] and elo < lo, (e, elo, lo)
    assert query(db, "select count(*) from intermediate.int_dq__inspect_r28_stored_metric_disagrees") == [(0,)]
    assert run_results(tmp / "target")["r29_inspect_errored_samples_counted"]["status"] == "pass"


def test_r28_negative_control_a_tampered_group_is_a_finding(tmp_path):
    """The grouped log rewritten as a .json log with one group's stored accuracy raised and the stored mean of the
    groups (all="groups") lowered: those two, and only they, are findings, each named."""
    members = _members(next(GROUPED.glob("*.eval")))
    log = dict(members["header.json"])
    log["samples"] = [m for k, m in members.items() if k.startswith("samples/")]
    log["reductions"] = members["reductions.json"]
    by_topic = next(s for s in log["results"]["scores"] if s["name"] == "by_topic")
    by_topic["metrics"]["arith"]["value"] = 0.99
    by_level = next(s for s in log["results"]["scores"] if s["name"] == "by_level")
    by_level["metrics"]["overall"]["value"] = 0.01
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "tampered.json").write_text(json.dumps(log))
    db = load_and_build(logs, tmp_path, SELECT, check=False)
    details = [d for (d,) in query(db, "select detail from intermediate.int_dq__inspect_r28_stored_metric_disagrees "
                                       "order by detail")]
    assert len(details) == 2, details
    group, mean_of_groups = sorted(details, key=lambda d: "by_level" in d)
    assert "arith" in group and "0.99" in group and "0.75" in group
    assert "stored overall (the mean of the accuracy of each group of samples by level)" in mean_of_groups
    assert "0.01" in mean_of_groups


def test_r28_a_mean_of_groups_with_no_reduced_values_is_a_finding(tmp_path):
    """The grouped log with by_level's reduced values removed: every entry of by_level, each group and the mean of
    the groups (all="groups") alike, is recomputed from nothing, and each is a finding; is_recomputed says what an
    entry is, not whether the log holds its values."""
    members = _members(next(GROUPED.glob("*.eval")))
    log = dict(members["header.json"])
    log["samples"] = [m for k, m in members.items() if k.startswith("samples/")]
    log["reductions"] = [r for r in members["reductions.json"] if r["scorer"] != "by_level"]
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "no_level_values.json").write_text(json.dumps(log))
    db = load_and_build(logs, tmp_path, SELECT, check=False)
    rows = query(db, "select metric, is_recomputed, value_recomputed from marts.inspect_metrics "
                     "where score_name = 'by_level' order by metric")
    assert rows == [(m, True, None) for m in ("level_1", "level_2", "level_3", "overall")]
    details = [d for (d,) in query(db, "select detail from intermediate.int_dq__inspect_r28_stored_metric_disagrees")]
    assert len(details) == 4 and all("its samples give nothing (no reduced values)" in d for d in details), details
    assert any(d.startswith("stored overall (the mean of the accuracy of each group") for d in details), details
