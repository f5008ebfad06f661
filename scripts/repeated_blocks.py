"""Classify the pairs of repeated blocks a clone detector reports, and write the ledger docs/repeated_blocks.md.

    duplicates --most 200 --seconds 120 | python scripts/repeated_blocks.py > docs/repeated_blocks.md

The input is the output of `duplicates` (the tool library's clone detector; it pairs places that share six
or more lines of the same text or the same shape). Each pair gets the kind of repetition it is, by the
rules below, and the ledger says why each kind is kept. A pair no rule explains is listed as
`unexplained`: a place to look, not a kind to keep.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# kind -> why it stays (the ledger's table)
KINDS = {
    "import-ctes": "Import CTEs, `x as (select * from {{ ref(...) }}),` one line per input at the top of a "
                   "model (jaffle-shop's style): five or more inputs, or four and the next CTE's first lines, make "
                   "six lines of the same shape in any two models.",
    "select-list": "Column lists of the same shape in different models: keys, aggregates and casts of "
                   "*different* columns, one per line (sqlfluff LT09). Each model owns its SELECT; where a "
                   "group of columns carries a rule (an interval, a paired test, a stamp range, a grain) it is "
                   "already a macro or a named list.",
    "staging-frame": "The frame of staging models over the same kind of document: a field table (one line per "
                     "JSON field, typed by the same helper), the import of the source or base model, the identity "
                     "and provenance macros and the unnest of one list. The lines differ in the fields, which are "
                     "the model.",
    "dq-pattern": "The one pattern of a data-quality model (`int_dq__<family>_*`): import the checked model, "
                  "select `dq_finding(...)` and a detail, filter to the violations. Issue 15 asked for one "
                  "pattern; one model per (family, rule) is the naming rule.",
    "incremental-header": "The source CTE of an incremental model over (load, file) pairs: the scan of its raw "
                          "table or upstream model with `only_new_pairs`, after its one-line "
                          "`pairs_incremental_config(...)` (`macros/incremental/incremental_loads.sql` documents "
                          "the pattern). The scan names the relation in the model file, so the DAG edge and the "
                          "incremental filter stay where the reader of the SELECT sees them.",
    "paired-pipeline": "The CTE skeleton of a paired comparison (compared, tested, ranked): every column "
                       "group in it is a macro (`paired_t_p`, `p_rank_columns`, `paired_test_columns`, "
                       "`arm_stamp_*`); what repeats is the order of the steps.",
    "union-arms": "Arms of a UNION ALL that must list the same columns in the same order.",
    "rule-test": "Admissibility rule tests (`tests/dbt/r<NN>_*.sql`): each restates its rule against the "
                 "marts, independently of the model it checks.",
    "engine-macro": "The same macro for two engines (`default__` / `spark__`) or two sides of one "
                    "computation: the engines' SQL differs in the lines that matter.",
    "python": "Python: test functions of the same shape (one per rule or case), dataclass fields, and the CLI's "
              "error handling per command (each says its own command and what to do).",
    "fixture-project": "A separate dbt project used as a test fixture (`tests/reliability/mini_project`, "
                       "`integration_tests/`) that must stand alone.",
    "unexplained": "No rule above explains it: a place to look.",
}

ROW = re.compile(r"(D\d+) (\S+?):(\d+)-(\d+) ~ (\S+?):(\d+)-(\d+)(.*)")
IMPORT = re.compile(r"^\s*(with\s+)?[a-z_]+ as \($|select \* from \{\{ (ref|source)\(|^\s*where ")
PAIRED = ("_pairs.sql", "variant_comparisons.sql")


def lines(path: str, a: str, b: str) -> list[str]:
    text = (ROOT / path).read_text(encoding="utf-8").split("\n")
    return [x for x in text[int(a) - 1:int(b)] if x.strip() and x.strip() not in ("(", ")", "),")]


def classify(fa: str, ta: list[str], fb: str, tb: list[str]) -> str:
    both, paths = "\n".join(ta + tb), fa + " " + fb
    if "mini_project" in paths or "integration_tests/" in paths:
        return "fixture-project"
    if fa.endswith(".py") or fb.endswith(".py"):
        return "python"
    if fa.startswith("tests/dbt") or fb.startswith("tests/dbt"):
        return "rule-test"
    if fa.startswith("macros/engine") and fb.startswith("macros/engine"):
        return "engine-macro"
    if "materialized=" in both or "only_new_pairs" in both or "pairs_incremental_config" in both:
        return "incremental-header"
    if fa.endswith(PAIRED) and fb.endswith(PAIRED) and re.search(r"ranked|tested|paired_t_p|compared", both):
        return "paired-pipeline"
    if "/int_dq__" in fa and "/int_dq__" in fb:
        return "dq-pattern"
    staging = ("models/staging/", "macros/coder_eval/", "macros/staging/")
    if fa.startswith(staging) and fb.startswith(staging):
        return "staging-frame"
    share = min(sum(bool(IMPORT.search(x)) for x in t) / max(len(t), 1) for t in (ta, tb))
    if share >= 0.3:
        return "import-ctes"
    if "union all" in both:
        return "union-arms"
    if "models/" in paths or "macros/" in paths:
        return "select-list"
    return "unexplained"


def tree() -> str:
    """The commit the ledger describes (`-dirty` when the working tree has uncommitted changes)."""
    proc = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True, text=True)
    return proc.stdout.strip() or "not a git checkout"


def main() -> int:
    text = sys.stdin.read()
    head = text.split("\n", 1)[0]
    pairs = []
    for m in ROW.finditer(text):
        d, fa, a1, a2, fb, b1, b2, rest = m.groups()
        kind = classify(fa, lines(fa, a1, a2), fb, lines(fb, b1, b2))
        pairs.append((d, f"{fa}:{a1}-{a2}", f"{fb}:{b1}-{b2}", rest.strip(), kind))
    if "(+" in text.rsplit("\n", 3)[-2] and "more pairs" in text:
        print("warning: the input is cut (more pairs than --most listed)", file=sys.stderr)
    counts = Counter(p[4] for p in pairs)
    out = ["# Repeated blocks: the ledger", "",
           "Every pair of places that a clone detector reports as sharing six or more lines of the same text or "
           "the same *shape*, with the kind of repetition it is and why that kind stays. Written by "
           "`scripts/repeated_blocks.py` from the detector's output (see its docstring); "
           "`docs/architecture.md` (\"Repeated blocks\") says what was shared in one place instead.", "",
           f"Tree: `{tree()}`. Detector summary: {head}", "",
           "| kind | pairs | why it stays |", "|---|---|---|"]
    for kind, why in KINDS.items():
        if counts.get(kind):
            out.append(f"| {kind} | {counts[kind]} | {why} |")
    out += ["", "| pair | one place | the other | detector's note | kind |", "|---|---|---|---|---|"]
    out += [f"| {d} | `{a}` | `{b}` | {note} | {kind} |" for d, a, b, note, kind in pairs]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
