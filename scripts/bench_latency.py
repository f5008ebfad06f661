"""What a person waits for (issue 19), each figure a ratio against a baseline measured in the same run.

    python3 scripts/bench_latency.py [--rounds 2] [--out bench_out/latency]

1. install: a fresh clone's `make install` (the locked install: uv, requirements.lock) against the install it
   replaced (`pip install -e '.[dev]'` into a fresh venv), alternating, no package cache for either;
2. demo: `make demo` on a fresh clone with the install done, and the install + demo together;
3. append: 3 lines appended to a matrix log of the demo, then `evalhouse load` + `evalhouse build` (what reaches
   the analyst file), against the demo's full build of the same warehouse (`EVALHOUSE_BUILD_ALL=1`), and the
   node kinds the repeat build ran.

Run it on an idle machine: every figure is a median over the rounds and a ratio within one run.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sh(cmd: list[str] | str, cwd: Path, env: dict | None = None) -> float:
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, shell=isinstance(cmd, str), capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"failed: {cmd}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return time.monotonic() - t0


def clone(tmp: Path, name: str) -> Path:
    dest = tmp / name
    subprocess.run(["git", "clone", "-q", str(ROOT), str(dest)], check=True)
    return dest


def no_cache_env() -> dict:
    env = dict(os.environ, PIP_NO_CACHE_DIR="1", UV_NO_CACHE="1")
    env.pop("VIRTUAL_ENV", None)
    return env


def bench_install(tmp: Path, rounds: int) -> dict:
    uv, pip = [], []
    for r in range(rounds):
        c = clone(tmp, f"uv{r}")
        uv.append(sh(["make", "install"], c, no_cache_env()))
        c = clone(tmp, f"pip{r}")
        pip.append(sh(f"{sys.executable} -m venv .venv && .venv/bin/python -m pip install --quiet -e '.[dev]'",
                      c, no_cache_env()))
        print(f"install round {r}: locked (uv) {uv[-1]:.1f} s, pip -e .[dev] {pip[-1]:.1f} s", flush=True)
    return {"locked_uv_s": uv, "pip_s": pip,
            "ratio_locked_over_pip": statistics.median(uv) / statistics.median(pip)}


def bench_demo(tmp: Path) -> tuple[dict, Path]:
    c = clone(tmp, "demo")
    install = sh(["make", "install"], c, no_cache_env())
    demo = sh(["make", "demo"], c)
    print(f"fresh clone: install {install:.1f} s, make demo {demo:.1f} s", flush=True)
    return {"install_s": install, "demo_s": demo, "install_plus_demo_s": install + demo,
            "demo_share_of_total": demo / (install + demo)}, c


def bench_append(c: Path, rounds: int) -> dict:
    ev = str(c / ".venv" / "bin" / "evalhouse")
    env = dict(os.environ, DBT_TARGET_PATH=str(c / "target"), DBT_LOG_PATH=str(c / "target" / "logs"))
    log = c / "demo_data" / "logs" / "acme-chat-1__gpt-4.1.jsonl"
    lines = log.read_text().splitlines()[-3:]
    full, append, kinds = [], [], Counter()
    for r in range(rounds):
        full.append(sh([ev, "build", "--", "--quiet"], c, dict(env, EVALHOUSE_BUILD_ALL="1")))
        with log.open("a") as fh:
            for i, line in enumerate(lines):
                rec = json.loads(line)
                rec["rep"] = 1000 + 10 * r + i
                fh.write(json.dumps(rec) + "\n")
        append.append(sh(f"{ev} load demo_data --quiet && {ev} build -- --quiet", c, env))
        results = json.loads((c / "target" / "run_results.json").read_text())["results"]
        kinds = Counter(x["unique_id"].split(".")[0] for x in results)
        print(f"append round {r}: full build {full[-1]:.1f} s, 3 lines load + build {append[-1]:.1f} s", flush=True)
    return {"full_build_s": full, "append_load_build_s": append,
            "ratio_append_over_full": statistics.median(append) / statistics.median(full),
            "repeat_build_nodes": dict(kinds)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "bench_out" / "latency"))
    ap.add_argument("--skip-install", action="store_true", help="only the demo and the append")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="evalhouse-latency-"))
    res: dict = {"rounds": args.rounds, "nproc": os.cpu_count()}
    try:
        if not args.skip_install:
            res["install"] = bench_install(tmp, args.rounds)
        res["demo"], c = bench_demo(tmp)
        res["append"] = bench_append(c, args.rounds)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    (out / "results.json").write_text(json.dumps(res, indent=1))
    print(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
