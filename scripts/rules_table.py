"""Discover how each admissibility rule R01-R39 is enforced, and render docs/rules_enforcement.md.

Plain file parsing (no dbt run, no manifest): fast and independent of whether the project parses.
- dbt tests: singular tests tests/dbt/**/r<NN>_*.sql, whose description / config live in a yml
  under tests/ (top-level `data_tests:`) or in a `{{ config(severity=...) }}` call; generic tests
  anywhere in models/ seeds/ snapshots/ tests/ ymls with `name: r<NN>_...` under data_tests/tests.
- negative controls: pytest functions under tests/ whose name starts with test_r<NN>_ (a name
  may cover several rules: test_r03_r04_r05_r12_... counts for each), and the Spark plants
  (tests/spark/test_spark_controls.py, PLANTS): one parametrised control per planted rule test.

Usage:
    python scripts/rules_table.py            # print the coverage table (what is missing)
    python scripts/rules_table.py --write    # regenerate docs/rules_enforcement.md and the report's rule index
    python scripts/rules_table.py --check    # exit 1 if either is out of date
Used by tests/test_rule_coverage.py.
"""
from __future__ import annotations

import ast
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules_enforcement.md"
INDEX = ROOT / "evalhouse" / "report" / "admissibility_rules.json"   # what `evalhouse report` lists
R25_MACRO = ROOT / "macros" / "tests" / "r25_rate_columns.sql"

# One sentence per rule (condensed from the admissibility rules of the spec).
RULES: dict[str, str] = {
    "R01": "`change` is never presented as a pass rate: columns holding it are named for what it is and sit next to the assertion count.",
    "R02": "`change` and `regress` are reported separately; no column combines them into one score.",
    "R03": "Awareness tasks are never pooled with fix / refactor tasks: no aggregate row spans more than one `kind`.",
    "R04": "`change` equals the passed share of `change_detail` (within the log's rounding).",
    "R05": "For a non-null `regress`: `regress = 1.0` exactly when `regress_misses` is empty.",
    "R06": "Runs with `change = 1.0` and `regress < 1.0` (task done, application broken) are surfaced per row and per stratum, never averaged away.",
    "R07": "`with_brain` / `with_plan` ablations are compared paired on (scenario, model, the other switch), never pooled into one score.",
    "R08": "Checks of different evidence strength (syntax-only, compiled, executed) are never pooled; the `check_kind` mapping is a seed and an unmapped kind is a finding (the turn is left out of every pass rate).",
    "R09": "Every pass-rate row names its evidence class (`check_kind` is read before any pass rate).",
    "R10": "Router accuracy comes only from rows with both `route_expected` and `route_actual`, per router model; standalone layers are never pooled with end-to-end totals.",
    "R11": "Every failed end-to-end row is attributed to exactly one of router / planner / coder / unattributed, and the counts add up to the failures.",
    "R12": "Every cost figure carries its price-table date and every rate or score row its stamp range.",
    "R13": "A missing price is NULL, never 0; a total including an unpriced row is flagged incomplete (`cost_complete = false`).",
    "R14": "Repricing uses raw tokens and the rate-card row in force at the record's timestamp, never a superseded row; the logged cost stays visible.",
    "R15": "coder-eval status counts partition `tasks_run` (stored and recomputed); budget counters are sub-counts of `tasks_failed`; same for suite rows and variant counts.",
    "R16": "`pass_rate = succeeded / graded` with `graded = run - not_graded` (NULL, not 0, when nothing was graded); the recomputation equals run.json's stored value.",
    "R17": "`average_score` counts an errored row as 0.0, leaves ungraded rows out of both sides, and is NULL when nothing was measured.",
    "R18": "FinalStatus maps to its category through a seed (`BUILD_FAILED` is error, `NOT_GRADED` ungraded); an unknown status fails.",
    "R19": "`task.execute.json` snapshots never enter an aggregate.",
    "R20": "Scores are never pooled across system-prompt regimes (append, replace, unknown, absent).",
    "R21": "Rates at replicate grain, task grain (worst-of-replicates) and dataset-row grain live in separately named columns or models.",
    "R22": "Per turn, the four token buckets summed over messages equal the turn's `token_usage`.",
    "R23": "`total_cost_usd = agent + judge + simulator` wherever all three are known; judge and simulator spend never count as agent spend.",
    "R24": "Stored aggregates that disagree with the replicate rows (stale variant.json / experiment.json, old formulas) are flagged, never silently preferred.",
    "R25": "Every rate or mean carries its denominator, its cluster count and an interval at the right unit: Wilson for independent binary outcomes; for grouped outcomes the CR1 SE with a t(C-1) critical value (means) or Wilson at the design-effect n (binary rates); paired differences with family-adjusted p-values for A/B, ablation and model-vs-model comparisons. No interval is zero-width around an interior value; the simulation study shows >= 92% coverage.",
    "R26": "Every fact row carries where it came from (source file, line or document, load id).",
    "R27": "A logged cost agrees with the rate-card row in force when it was logged (its tokens at that row, within 0.5%); a disagreement is a finding naming the row it matches instead (a superseded row: a stale price table), and the record is quoted at its best-known cost.",
    "R28": "inspect_ai's stored accuracy / mean / stderr / std / var (each group's, for a grouped() metric) equal their recomputation from the log's own reduced samples; a disagreement is a finding, and the recomputed value is the one to quote.",
    "R29": "Errored inspect_ai samples never silently leave a denominator: every accuracy / mean states the samples attempted and the rate with unscored, errored samples counted as incorrect beside inspect's own.",
    "R30": "inspect_ai model comparisons are paired only on identical sample sets, between finished logs of one task with the same arguments, per (score, reducer): never across statuses, scorers or reducers.",
    "R31": "inspect_ai logs of different statuses are never pooled or relabelled: every inspect mart row states the status of its log, and comparisons pair success logs only.",
    "R32": "inspect_ai scores and reducers are never pooled: every metric and comparison row is one (score, scorer, reducer) the log states results for.",
    "R33": "Grader spend is never counted as the evaluated model's: a role's spend is never agent spend, and per (log, model) no token is counted twice or lost.",
    "R34": "A paired comparison is made once: an inspect_ai arm that an `inspect score` copy repeats (the same runs, the same values) is compared once, so Holm / BH families count only the tests really made.",
    "R35": "inspect_ai logs measured with different instruments are never paired: the same task version, the scorer with the same arguments and the same grader (the models it called), and the same epochs unless the reducer is the mean or pass_at_k, on samples whose targets agree; the pairs held back are findings.",
    "R36": "An inspect_ai log that ran samples but holds no sample record (written with log_samples=False) is a finding that says its spend is in no cost figure and its metrics are not taken again, with the usage its header states; its spend never silently vanishes.",
    "R37": "A coder-eval replicate counts as a failure only with a verdict: a task.json that says FAILURE but holds no criterion result (a replicate interrupted before grading) is counted as not graded, out of every pass rate, and is a finding that says how to measure it.",
    "R38": "A coder-eval run is what its run.json lists: a task.json its run.json does not list (left by an earlier run into the same --run-dir) is no replicate of the run, is counted in no rate, and is a finding.",
    "R39": "A coder-eval task is graded by one instrument in a run: a task whose replicates were graded by different success criteria (one regraded by another task file with coder-eval evaluate) is flagged on every replicate and is a finding for each of its records.",
}

RULE_IDS = list(RULES)
TEST_NAME = re.compile(r"^r(\d\d)_")
PYTEST_NAME = re.compile(r"^test_((?:r\d\d_)+)")
SKIP_DIRS = {"mini_project", "lineage_toy", "__pycache__"}  # nested dbt projects / caches of other suites


@dataclass
class DbtTest:
    name: str
    kind: str  # singular | generic
    path: str  # repo-relative file that defines it
    description: str = ""
    severity: str = "error"
    model: str = ""  # generic tests: the model (or seed / source table) the test is attached to

    @property
    def rule(self) -> str:
        return "R" + TEST_NAME.match(self.name).group(1)


@dataclass
class RuleCoverage:
    rule: str
    tests: list[DbtTest] = field(default_factory=list)
    controls: list[str] = field(default_factory=list)  # pytest node ids

    @property
    def described_tests(self) -> list[DbtTest]:
        return [t for t in self.tests if re.search(rf"\b{self.rule}\b", t.description or "")]

    @property
    def missing(self) -> list[str]:
        out = []
        if not self.tests:
            out.append("dbt test r%s_*" % self.rule[1:])
        elif not self.described_tests:
            out.append(f"a dbt test description naming {self.rule}")
        if not self.controls:
            out.append("pytest test_r%s_*" % self.rule[1:])
        return out


def _rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def _files(sub: str, pattern: str):
    base = ROOT / sub
    if not base.exists():
        return []
    return sorted(p for p in base.rglob(pattern) if not (SKIP_DIRS & set(p.relative_to(ROOT).parts)))


def _severity(cfg) -> str | None:
    if isinstance(cfg, dict):
        sev = cfg.get("severity") or (cfg.get("config") or {}).get("severity")
        if sev:
            return str(sev).lower()
    return None


def _walk_generic(node, path: str, out: dict[str, DbtTest], owner: str = ""):
    """Generic tests: items of any `data_tests:` / `tests:` list written as {test_macro: {name: ...}}."""
    if isinstance(node, dict):
        if isinstance(node.get("name"), str) and ("columns" in node or "data_tests" in node or "tests" in node) \
                and not owner:
            owner = node["name"]  # a model / seed / source table entry (columns keep the model as owner)
        for key, value in node.items():
            if key in ("data_tests", "tests") and isinstance(value, list):
                for item in value:
                    if isinstance(item, dict) and len(item) == 1:
                        (_macro, cfg), = item.items()
                        if isinstance(cfg, dict) and isinstance(cfg.get("name"), str) and TEST_NAME.match(cfg["name"]):
                            out.setdefault(cfg["name"], DbtTest(cfg["name"], "generic", path,
                                                                str(cfg.get("description") or ""),
                                                                _severity(cfg) or "error", owner))
            _walk_generic(value, path, out, owner)
    elif isinstance(node, list):
        for item in node:
            _walk_generic(item, path, out, "" if owner == "" else owner)


def discover_dbt_tests() -> list[DbtTest]:
    found: dict[str, DbtTest] = {}
    singular_props: dict[str, dict] = {}
    for sub in ("models", "seeds", "snapshots", "tests", "macros"):
        for yml in _files(sub, "*.yml") + _files(sub, "*.yaml"):
            try:
                doc = yaml.safe_load(yml.read_text())
            except yaml.YAMLError:
                continue
            if not isinstance(doc, dict):
                continue
            _walk_generic(doc, _rel(yml), found)
            if sub == "tests":  # properties of singular tests
                for item in doc.get("data_tests") or []:
                    if isinstance(item, dict) and isinstance(item.get("name"), str):
                        singular_props[item["name"]] = item
    for sql in _files("tests", "*.sql"):
        name = sql.stem
        if not TEST_NAME.match(name):
            continue
        props = singular_props.get(name, {})
        text = sql.read_text()
        m = re.search(r"config\s*\([^)]*severity\s*=\s*['\"](\w+)['\"]", text)
        sev = _severity(props) or (m.group(1).lower() if m else "error")
        found[name] = DbtTest(name, "singular", _rel(sql), str(props.get("description") or ""), sev)
    return sorted(found.values(), key=lambda t: t.name)


def _parametrized_rule_tests(func: ast.FunctionDef, module: ast.Module) -> list[tuple[str, str]]:
    """(rule test, pytest id) of each parameter of `@pytest.mark.parametrize(..., VALUES, ...)` on `func` that
    names a rule test (`r<NN>_...`). VALUES is a list written in place or a module-level name: of strings
    (the id is the string), or of tuples whose first item is the string (the id is that string when the
    decorator says `ids=`, else the function's own name)."""
    lists = {t.id: n.value for n in module.body if isinstance(n, ast.Assign)
             for t in n.targets if isinstance(t, ast.Name)}
    found = []
    for deco in func.decorator_list:
        if isinstance(deco, ast.Call) and getattr(deco.func, "attr", None) == "parametrize" and len(deco.args) > 1:
            values = deco.args[1]
            values = lists.get(values.id, values) if isinstance(values, ast.Name) else values
            has_ids = any(k.arg == "ids" for k in deco.keywords)
            for item in getattr(values, "elts", []):
                tupled = isinstance(item, ast.Tuple) and bool(item.elts)
                first = item.elts[0] if tupled else item
                if isinstance(first, ast.Constant) and isinstance(first.value, str) and TEST_NAME.match(first.value):
                    found.append((first.value, f"{func.name}[{first.value}]" if has_ids or not tupled else func.name))
    return found


def discover_controls() -> dict[str, list[str]]:
    """rule id -> pytest node ids of the negative controls: functions named test_r<NN>_... (several ids per
    name allowed), and each parameter of a parametrized test that names a rule test (`test_x[r<NN>_...]`)."""
    out: dict[str, list[str]] = {r: [] for r in RULE_IDS}
    for py in _files("tests", "test_*.py"):
        try:
            tree = ast.parse(py.read_text())
        except SyntaxError:
            continue

        def visit(body, prefix=""):
            for node in body:
                if isinstance(node, ast.ClassDef):
                    visit(node.body, f"{prefix}{node.name}::")
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    m = PYTEST_NAME.match(node.name)
                    ids = [(TEST_NAME.match(name).group(1), f"{prefix}{pytest_id}")
                           for name, pytest_id in _parametrized_rule_tests(node, tree)]
                    if m and not ids:
                        ids = [(nn, f"{prefix}{node.name}") for nn in re.findall(r"r(\d\d)_", m.group(1))]
                    for nn, node_id in ids:
                        if f"R{nn}" in out:
                            out[f"R{nn}"].append(f"{_rel(py)}::{node_id}")

        visit(tree.body)
    return out


SPARK_CONTROLS = ROOT / "tests" / "spark" / "test_spark_controls.py"
SPARK_PLANT_TEST = "test_rule_fires_on_its_plant_on_both_engines"


def discover_spark_plants() -> dict[str, list[str]]:
    """rule id -> the parametrised Spark control of each rule test planted in PLANTS (tests/spark): the same
    violation planted in the DuckDB and the Spark build must make the test fail on both, with equal counts."""
    out: dict[str, list[str]] = {r: [] for r in RULE_IDS}
    tree = ast.parse(SPARK_CONTROLS.read_text())
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Plant" and node.args
                and isinstance(node.args[0], ast.Tuple)):
            for elt in node.args[0].elts:
                name = elt.value
                m = re.match(r"r(\d\d)_", name)
                if m and f"R{m.group(1)}" in out:
                    out[f"R{m.group(1)}"].append(f"{_rel(SPARK_CONTROLS)}::{SPARK_PLANT_TEST}[{name}]")
    return out


def coverage() -> list[RuleCoverage]:
    tests = discover_dbt_tests()
    controls = discover_controls()
    for r, ids in discover_spark_plants().items():
        controls[r] = controls[r] + ids
    cov = {r: RuleCoverage(r) for r in RULE_IDS}
    for t in tests:
        if t.rule in cov:
            cov[t.rule].tests.append(t)
    for r, ids in controls.items():
        cov[r].controls = sorted(set(ids))
    return list(cov.values())


def r25_open_gaps() -> dict[str, str]:
    """table.column -> reason, as listed in the r25_open_gaps() macro."""
    text = R25_MACRO.read_text() if R25_MACRO.exists() else ""
    body = text.split("macro r25_open_gaps", 1)[1] if "macro r25_open_gaps" in text else ""
    return dict(re.findall(r"'(\w+\.\w+)'\s*:\s*'([^']*)'", body))


def missing_table(cov: list[RuleCoverage]) -> str:
    rows = [(c.rule, str(len(c.tests)), str(len(c.described_tests)), str(len(c.controls)),
             "; ".join(c.missing) or "ok") for c in cov]
    head = ("rule", "dbt tests", "described", "controls", "missing")
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    fmt = "  ".join("{:<%d}" % w for w in widths)
    return "\n".join([fmt.format(*head), fmt.format(*("-" * w for w in widths))] + [fmt.format(*r) for r in rows])


def _cell(items: list[str]) -> str:
    return "<br>".join(items) if items else "**MISSING**"


def render(cov: list[RuleCoverage] | None = None) -> str:
    cov = cov if cov is not None else coverage()
    lines = [
        "# Admissibility rules: how each one is enforced",
        "",
        "Generated by `python scripts/rules_table.py --write` from the dbt tests (`r<NN>_*`: singular tests in",
        "`tests/dbt/`, generic tests with `name: r<NN>_...` in the models ymls) and the pytest negative controls",
        "(`test_r<NN>_*` under `tests/`). Do not edit by hand: `tests/test_rule_coverage.py` fails when this file",
        "is out of date.",
        "",
        "Severity: **error** = a test on what evalhouse computes (the build fails); **warn** = a test on what",
        "the logs claim (the build warns, and the failing rows land in `marts.data_quality_findings`).",
        "",
        "| rule | what it means | dbt test(s) | negative control(s) | severity |",
        "|---|---|---|---|---|",
    ]
    for c in cov:
        tests = [f"`{t.name}` ({t.kind}, {t.severity})" for t in c.tests]
        controls = [f"`{n}`" for n in c.controls]
        sev = ", ".join(sorted({t.severity for t in c.tests})) or "-"
        lines.append(f"| {c.rule} | {RULES[c.rule]} | {_cell(tests)} | {_cell(controls)} | {sev} |")
    missing = [c for c in cov if c.missing]
    lines += ["", "## Coverage gaps", ""]
    if missing:
        lines += [f"- {c.rule}: missing {'; '.join(c.missing)}" for c in missing]
    else:
        lines.append("None: every rule has a dbt test whose description names it and a pytest negative control.")
    gaps = r25_open_gaps()
    lines += ["", "## Open R25 gaps", "",
              "Mart columns reporting a rate or mean without an interval today. The R25 catalog test skips them",
              "(listed in `r25_open_gaps()`, `macros/tests/r25_rate_columns.sql`; the dbt var `r25_open_gaps`",
              "overrides, `{}` enforces everything) and `tests/rules/test_r25_intervals.py` proves each is still",
              "a real gap, so a fixed one must be removed from the list.", ""]
    lines += [f"- `marts.{k}`: {v}" for k, v in sorted(gaps.items())] or ["None."]
    return "\n".join(lines) + "\n"


def render_index(cov: list[RuleCoverage] | None = None) -> str:
    """The rule index `evalhouse report` ships (package data): each rule, its dbt tests, its negative controls."""
    cov = cov if cov is not None else coverage()
    rules = [{"rule": c.rule, "statement": RULES[c.rule],
              "tests": [{"name": t.name, "kind": t.kind, "severity": t.severity} for t in c.tests],
              "negative_controls": c.controls} for c in cov]
    return json.dumps(rules, indent=1) + "\n"


def main(argv: list[str]) -> int:
    cov = coverage()
    outputs = {DOC: render(cov), INDEX: render_index(cov)}
    if "--write" in argv:
        for path, text in outputs.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wrote {_rel(path)}")
    elif "--check" in argv:
        stale = [p for p, text in outputs.items() if not p.exists() or p.read_text() != text]
        if stale:
            print(f"{', '.join(_rel(p) for p in stale)} out of date: run python scripts/rules_table.py --write")
            return 1
    print(missing_table(cov))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
