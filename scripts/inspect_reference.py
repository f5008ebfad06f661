#!/usr/bin/env python3
"""Write inspect_ai's own numbers for a folder of inspect logs, by inspect_ai's analysis functions, as JSON.

Run with a Python that has inspect_ai (`make inspect-check` uses .venv-inspect); tests/inspect/test_inspect_reference.py
compares evalhouse's marts with what this writes. For every log that evals_df / samples_df read:

  metrics  {"score_<score>_<metric>": value}   evals_df's score columns (the stored results)
  samples  [{id, epoch, total_tokens, error, limit, scores}]   samples_df, one per (sample, epoch)

    python scripts/inspect_reference.py LOGS_DIR OUT.json
"""
from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path


def _plain(v):
    import pandas as pd

    if v is None or v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    if hasattr(v, "item"):
        return _plain(v.item())
    return v


def main(argv: list[str]) -> int:
    from inspect_ai.analysis import evals_df, samples_df

    warnings.filterwarnings("ignore")
    root, out = Path(argv[0]).resolve(), Path(argv[1])
    logs = sorted(str(p) for p in root.rglob("*") if p.suffix in (".eval", ".json") and p.name != out.name)
    ref: dict = {}
    for log in logs:
        rel = str(Path(log).relative_to(root))
        try:
            e = evals_df([log], quiet=True)
            s = samples_df([log], quiet=True)
        except Exception as exc:          # a log inspect's own reader refuses (e.g. a killed run) is not compared
            print(f"skip {rel}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        if e.empty:                       # not a log (the logs.json / eval-set.json that eval_set writes beside them)
            print(f"skip {rel}: not an inspect_ai log", file=sys.stderr)
            continue
        row = e.iloc[0]
        metrics = {c: _plain(row[c]) for c in e.columns
                   if c.startswith("score_") and not c.startswith("score_headline") and _plain(row[c]) is not None}
        samples = []
        for _, r in s.iterrows():
            scores = {c[len("score_"):]: _plain(r[c]) for c in s.columns if c.startswith("score_")}
            samples.append({"id": str(r["id"]), "epoch": int(r["epoch"]), "total_tokens": _plain(r.get("total_tokens")),
                            "error": bool(_plain(r.get("error"))), "limit": _plain(r.get("limit")) or None,
                            "scores": {k: v for k, v in scores.items() if v is not None}})
        ref[rel] = {"status": _plain(row.get("status")), "metrics": metrics, "samples": samples}
    out.write_text(json.dumps(ref, indent=1, sort_keys=True) + "\n")
    print(f"{out}: {len(ref)} logs, {sum(len(v['samples']) for v in ref.values())} sample epochs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
