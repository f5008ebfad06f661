"""The coverage study: simulated logs with a known super-population truth, through the real loader and
dbt build, and the share of each mart's "95%" intervals that contain the truth.

Designs (every replicate data set is its own stratum, so one load and one build serve them all):

brownfield runs (`logs_big/`), one replicate = one model `sim-<design>-r<NNN>`:
  C scenarios (2, 4 or 8), each with a scenario effect u ~ N(0, sigma_u) on the logit scale;
  2 runs per scenario per arm (with_brain off / on, with_plan off);
  change = share of 5 assertions passing, each with probability expit(mu_change + u + delta * arm);
  regress = 1 - misses / 10 pages, each page missed with probability expit(mu_regress + v),
  v ~ N(0, sigma_v) per scenario (the same in both arms: the true regress difference is 0). With
  mu_regress = logit(0.03) the true regress mean is about 0.97: a mean near its bound.
  Truths: E[expit(mu + u)] by Gauss-Hermite quadrature; the paired change difference
  E[expit(mu + delta + u) - expit(mu + u)].
  Design c8het has skewed, heterogeneous scenarios (sigma_u = 2.5 around mu_change = 3: most nearly
  always pass, a few rarely do). It measures a known limitation (docs/statistics.md, "Known limitation:
  skewed clusters"): the unit-range mean interval covers about 0.90 there. Design c10hetbin is as
  skewed with 10 scenarios, 3 runs per arm and one assertion per run, so change is pass/fail: its mean
  is marked binary and takes the clustered rate's interval, which holds there; the angular t interval it
  took before, computed from the same rows (the BEFORE row), covers less.

chat x coder matrix (`logs/`), one replicate = one cell `simchat-<design>-r<NNN>__simcoder`:
  S conversation scripts x 4 coder turns x 3 reps, check_kind `exec` (executed); each script has an
  effect w ~ N(0, sigma_w) and each conversation (script, rep) an effect e ~ N(0, sigma_e); every
  turn of a conversation passes with probability expit(mu + w + e). mu is solved so that the true
  pass rate is exactly `rate` (0.7 by default, the issue's design).

`python tests/stats/coverage_study.py [--replicates N]` runs the study outside pytest and prints the
table that docs/statistics.md shows.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
from scipy import optimize, stats
from scipy.special import expit, logit

from helpers import script_module

# the interval formulas, written independently of the SQL (the SQL matches them to 1e-9)
oracle = script_module("stats_oracle")

_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(120)  # probabilists' Hermite: E[f(Z)], Z ~ N(0, 1)


def normal_mean(f) -> float:
    """E[f(Z)] for Z ~ N(0, 1) by Gauss-Hermite quadrature (120 nodes; exact to ~1e-12 for expit)."""
    return float(np.sum(_WEIGHTS * f(_NODES)) / math.sqrt(2 * math.pi))


@dataclass(frozen=True)
class BigDesign:
    name: str
    n_scenarios: int
    mu_change: float = 0.5
    sigma_u: float = 1.0
    delta: float = 0.4
    mu_regress: float = float(logit(0.03))
    sigma_v: float = 0.5
    runs_per_arm: int = 2
    n_assertions: int = 5
    n_pages: int = 10

    def truth(self) -> dict[str, float]:
        off = normal_mean(lambda z: expit(self.mu_change + self.sigma_u * z))
        on = normal_mean(lambda z: expit(self.mu_change + self.delta + self.sigma_u * z))
        regress = 1 - normal_mean(lambda z: expit(self.mu_regress + self.sigma_v * z))
        return {"change_off": off, "change_on": on, "change_diff": on - off, "regress": regress,
                "regress_diff": 0.0}


@dataclass(frozen=True)
class MatrixDesign:
    name: str
    n_scripts: int
    rate: float = 0.7
    sigma_w: float = 0.8
    sigma_e: float = 0.5
    turns: int = 4
    reps: int = 3

    def mu(self) -> float:
        s = math.hypot(self.sigma_w, self.sigma_e)
        return optimize.brentq(lambda m: normal_mean(lambda z: expit(m + s * z)) - self.rate, -10, 10, xtol=1e-14)


BIG_DESIGNS = [BigDesign("c2", 2), BigDesign("c4", 4), BigDesign("c8", 8),
               BigDesign("c8near", 8, mu_change=2.5, sigma_u=0.7, mu_regress=float(logit(0.015))),
               BigDesign("c8het", 8, mu_change=3.0, sigma_u=2.5),
               BigDesign("c10hetbin", 10, mu_change=3.0, sigma_u=2.5, runs_per_arm=3, n_assertions=1)]
MATRIX_DESIGNS = [MatrixDesign("s5", 5), MatrixDesign("s8", 8, rate=0.85)]

T0 = datetime(2026, 9, 1, tzinfo=timezone.utc)

# the marts of the study, their parents and seeds; no data tests (they belong to the marts' suites)
BUILD_ARGS = ["build", "--select", "+big_rates", "+big_ablation_pairs", "+matrix_pass_rates",
              "--exclude-resource-type", "test", "--exclude-resource-type", "unit_test"]


def write_logs(root: Path, replicates: int, seed: int = 20261201) -> None:
    """Write the simulated brownfield and matrix logs of every design under root/."""
    rng = np.random.default_rng(seed)
    big = root / "logs_big"
    big.mkdir(parents=True, exist_ok=True)
    with open(big / "coverage_study.jsonl", "w") as out:
        for d in BIG_DESIGNS:
            for r in range(replicates):
                model = f"sim-{d.name}-r{r:03d}"
                for s in range(d.n_scenarios):
                    u, v = rng.normal(0, d.sigma_u), rng.normal(0, d.sigma_v)
                    for arm in (False, True):
                        p = expit(d.mu_change + u + d.delta * arm)
                        q = expit(d.mu_regress + v)
                        for k in range(d.runs_per_arm):
                            passed = rng.random(d.n_assertions) < p
                            missed = [f"page{j}.php" for j in range(d.n_pages) if rng.random() < q]
                            stamp = T0 + timedelta(minutes=r * 97 + s * 7 + k + 3 * arm)
                            out.write(json.dumps({
                                "id": f"S{s + 1}", "name": f"scenario {s + 1}", "kind": "fix", "difficulty": 1,
                                "model": model, "with_brain": arm, "with_plan": False,
                                "change": round(float(passed.mean()), 6),
                                "change_detail": [[f"assertion {i}", bool(x)] for i, x in enumerate(passed)],
                                "regress": round(1 - len(missed) / d.n_pages, 6), "regress_misses": missed,
                                "changed_files": ["src/x.py"], "wall_s": 10.0, "calls": 3, "cost": 0.01,
                                "stamp": stamp.isoformat()}) + "\n")
    logs = root / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    for d in MATRIX_DESIGNS:
        mu = d.mu()
        for r in range(replicates):
            with open(logs / f"simchat-{d.name}-r{r:03d}__simcoder.jsonl", "w") as out:
                for s in range(d.n_scripts):
                    w = rng.normal(0, d.sigma_w)
                    for rep in range(d.reps):
                        p = expit(mu + w + rng.normal(0, d.sigma_e))
                        for t in range(d.turns):
                            stamp = T0 + timedelta(minutes=s * 60 + rep * 10 + t)
                            out.write(json.dumps({
                                "scenario_id": f"S{s + 1}", "turn_index": t, "rep": rep, "type": "coder",
                                "check_kind": "exec", "check_passed": bool(rng.random() < p), "check_note": "sim",
                                "prompt_tokens": 100, "completion_tokens": 10, "cached_tokens": 0, "cost_usd": 0.001,
                                "latency_s": 1.0, "difficulty": "easy", "stamp": stamp.isoformat()}) + "\n")


def t_reference(mean, se, n_clusters, lower, upper):
    """The t(C-1) CR1 reference interval of the acceptance criterion: mean -/+ t * SE, clipped."""
    if mean is None or se is None or n_clusters is None or n_clusters < 2:
        return None
    t = stats.t.ppf(0.975, n_clusters - 1)
    return max(lower, mean - t * se), min(upper, mean + t * se)


# the interval a pass/fail mean took before 2026-12-04: the oracle's unit-range mean interval unmarked
# (the angular t(C-1) interval; Wilson at the observation count when SE = 0)
BEFORE = "big_rates.change (angular t, the rule before 2026-12-04)"


@dataclass
class Tally:
    n: int = 0
    covered: int = 0
    null: int = 0
    zero_width_interior: int = 0
    width: float = 0.0
    ref_width: float = 0.0

    def add(self, truth, lo, hi, ref, interior_range=(0.0, 1.0)):
        self.n += 1
        if lo is None or hi is None:
            self.null += 1
            return
        self.covered += lo - 1e-12 <= truth <= hi + 1e-12
        if hi - lo <= 1e-12 and interior_range[0] < truth < interior_range[1]:
            self.zero_width_interior += 1
        if ref is not None and ref[1] - ref[0] > 1e-12:  # the reference is degenerate where SE = 0
            self.width += hi - lo
            self.ref_width += ref[1] - ref[0]

    @property
    def coverage(self) -> float:
        return self.covered / self.n if self.n else float("nan")

    @property
    def width_ratio(self) -> float:
        return self.width / self.ref_width if self.ref_width else float("nan")


def study(con) -> dict[tuple[str, str], Tally]:
    """(mart.column, design) -> Tally, read from a built warehouse (a DuckDB connection)."""
    out: dict[tuple[str, str], Tally] = {}
    for d in BIG_DESIGNS:
        truth = d.truth()
        rows = con.execute(
            """select with_brain, change_mean, change_se, n_change_clusters, change_ci_low, change_ci_high,
                      regress_mean, regress_se, n_regress_clusters, regress_ci_low, regress_ci_high,
                      n_change_measured
               from marts.big_rates where model like ? and kind = 'fix' and not with_plan""",
            [f"sim-{d.name}-r%"]).fetchall()
        for brain, cm, cse, cc, clo, chi, rm, rse, rc, rlo, rhi, cn in rows:
            t = out.setdefault(("big_rates.change", d.name), Tally())
            t.add(truth["change_on" if brain else "change_off"], clo, chi, t_reference(cm, cse, cc, 0, 1))
            if d.n_assertions == 1:  # pass/fail change: the marts' interval next to the rule it replaced
                out.setdefault((BEFORE, d.name), Tally()).add(truth["change_on" if brain else "change_off"],
                                                              *oracle.clustered_mean_ci(cm, cse, cc, cn), None)
            t = out.setdefault(("big_rates.regress", d.name), Tally())
            t.add(truth["regress"], rlo, rhi, t_reference(rm, rse, rc, 0, 1))
        rows = con.execute(
            """select change_diff_mean, change_diff_se, n_change_clusters, change_diff_ci_low, change_diff_ci_high,
                      regress_diff_mean, regress_diff_se, n_regress_clusters, regress_diff_ci_low, regress_diff_ci_high
               from marts.big_ablation_pairs where model like ? and ablation = 'with_brain'""",
            [f"sim-{d.name}-r%"]).fetchall()
        for cm, cse, cc, clo, chi, rm, rse, rc, rlo, rhi in rows:
            t = out.setdefault(("big_ablation_pairs.change_diff", d.name), Tally())
            t.add(truth["change_diff"], clo, chi, t_reference(cm, cse, cc, -1, 1), (-1.0, 1.0))
            t = out.setdefault(("big_ablation_pairs.regress_diff", d.name), Tally())
            t.add(truth["regress_diff"], rlo, rhi, t_reference(rm, rse, rc, -1, 1), (-1.0, 1.0))
    for d in MATRIX_DESIGNS:
        rows = con.execute(
            """select pass_rate, se_clustered, n_clusters, ci_low, ci_high, ci_low_unclustered, ci_high_unclustered
               from marts.matrix_pass_rates where cell like ?""", [f"simchat-{d.name}-r%"]).fetchall()
        for p, se, c, lo, hi, ulo, uhi in rows:
            out.setdefault(("matrix_pass_rates", d.name), Tally()).add(d.rate, lo, hi, t_reference(p, se, c, 0, 1))
            out.setdefault(("matrix_pass_rates (unclustered Wilson, for comparison)", d.name), Tally()).add(
                d.rate, ulo, uhi, None)
    return out


def table(results: dict[tuple[str, str], Tally]) -> str:
    lines = ["| interval | design | rows | coverage | NULL | zero-width around an interior truth | width / t(C-1) reference |",
             "|---|---|---|---|---|---|---|"]
    for (name, design), t in results.items():
        ratio = "" if math.isnan(t.width_ratio) else f"{t.width_ratio:.2f}"
        lines.append(f"| `{name}` | {design} | {t.n} | {t.coverage:.3f} | {t.null} | {t.zero_width_interior} | {ratio} |")
    return "\n".join(lines)


def design_table() -> str:
    lines = ["| design | clusters | truths |", "|---|---|---|"]
    for d in BIG_DESIGNS:
        tr = d.truth()
        lines.append(f"| brownfield {d.name} | {d.n_scenarios} scenarios x 2 arms x {d.runs_per_arm} runs | "
                     f"change {tr['change_off']:.3f} / {tr['change_on']:.3f} (diff {tr['change_diff']:.3f}), "
                     f"regress {tr['regress']:.3f} (diff 0) |")
    for d in MATRIX_DESIGNS:
        lines.append(f"| matrix {d.name} | {d.n_scripts} scripts x {d.turns} turns x {d.reps} reps | pass rate {d.rate} |")
    return "\n".join(lines)


def main(argv=None) -> int:  # pragma: no cover - the documented manual run
    import argparse
    import tempfile

    import duckdb

    from evalhouse.load import load_paths
    from helpers import dbt, fresh_db

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--replicates", type=int, default=200)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_logs(tmp / "logs_root", args.replicates)
        db = fresh_db(tmp / "study.duckdb")
        load_paths([tmp / "logs_root"], db=db)
        dbt(BUILD_ARGS, db, tmp / "target")
        con = duckdb.connect(str(db), read_only=True)
        print(design_table() + "\n\n" + table(study(con)))
    return 0


if __name__ == "__main__":  # pragma: no cover
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
