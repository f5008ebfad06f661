#!/usr/bin/env python3
"""Benchmark (issue 17): loading N inspect_ai samples with evalhouse (load + the inspect models) against
inspect_ai.analysis.samples_df on the same logs, as a ratio measured in one run.

The logs are written by inspect_ai itself (mockllm, one epoch, two scorers), --logs of --samples each, in the
same run; both sides read the same files.

    make inspect-fixtures     # once: .venv-inspect holds inspect_ai
    .venv/bin/python scripts/bench_inspect.py --samples 2000 --logs 4 --inspect-python .venv-inspect/bin/python

Prints one JSON object: seconds for each side (best of --rounds) and the ratio evalhouse / samples_df.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SAMPLES_DF = """
import sys, time
from inspect_ai.analysis import samples_df
t0 = time.perf_counter()
df = samples_df(sys.argv[1])
print(len(df), time.perf_counter() - t0)
"""


WRITE_LOG = """
import sys
from inspect_ai import Task, eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import includes, match
from inspect_ai.solver import generate

def outs(input, tools, tool_choice, config):
    n = int(input[-1].text.split("#")[1])
    o = ModelOutput.from_content(model="mockllm/model", content="4" if n % 3 else "5")
    o.usage = ModelUsage(input_tokens=30, output_tokens=5, total_tokens=35, input_tokens_cache_read=10)
    return o

n, out = int(sys.argv[1]), sys.argv[2]
data = [Sample(id=i, input=f"What is 2+2? #{i}", target="4") for i in range(n)]
inspect_eval(Task(name="bench", dataset=data, solver=generate(), scorer=[match(), includes()]),
             model=get_model("mockllm/model", custom_outputs=outs), log_dir=out, log_format="eval", display="none",
             max_connections=50)
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=2000, help="samples per log")
    ap.add_argument("--logs", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--inspect-python", default=str(ROOT / ".venv-inspect" / "bin" / "python"))
    args = ap.parse_args()
    evalhouse = str(Path(sys.executable).parent / "evalhouse")
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp) / "logs"
        logs.mkdir()
        for _ in range(args.logs):        # real logs, written by inspect_ai itself
            subprocess.run([args.inspect_python, "-c", WRITE_LOG, str(args.samples), str(logs)], check=True,
                           capture_output=True)
        ours, theirs = [], []
        for _ in range(args.rounds):
            db = Path(tmp) / "w.duckdb"
            for p in Path(tmp).glob("w*.duckdb*"):
                p.unlink()
            t0 = time.perf_counter()
            subprocess.run([evalhouse, "load", str(logs), "--db", str(db), "--create", "--quiet"], check=True,
                           capture_output=True)
            subprocess.run([evalhouse, "build", "--db", str(db), "--no-publish", "--", "--select",
                            "+stg_inspect__samples", "+stg_inspect__sample_scores", "--exclude-resource-type", "test",
                            "--exclude-resource-type", "unit_test"], check=True, capture_output=True)
            ours.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            proc = subprocess.run([args.inspect_python, "-c", SAMPLES_DF, str(logs)], check=True, capture_output=True,
                                  text=True)
            theirs.append(time.perf_counter() - t0)
            rows = int(proc.stdout.split()[0])
        n = args.samples * args.logs
        print(json.dumps({"samples": n, "samples_df_rows": rows, "evalhouse_s": min(ours), "samples_df_s": min(theirs),
                          "ratio_evalhouse_over_samples_df": round(min(ours) / min(theirs), 3),
                          "rounds": args.rounds}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
