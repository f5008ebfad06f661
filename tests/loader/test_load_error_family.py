"""A quarantined file that the loader did not register in raw.files is reported under the family that
stg_raw__load_errors guesses from its path. That guess must be discovery's: for every file that discovery lands,
of every family and under every name it knows, the model gives the family that discovery gives."""
from __future__ import annotations

from pathlib import Path

import duckdb

from evalhouse.discover import CODER_EVAL_NAMES, discover
from tests.helpers import dbt, fresh_db, query

INSPECT_JSON_HEAD = b'{\n  "version": 2,\n  "status": "success",\n  "eval": {"task": "t"}\n}\n'
ZIP_HEAD = b"PK\x03\x04" + b"\0" * 26

# relative path -> contents: each family under each name and place discovery knows
TREE = {
    "logs_big/runs.jsonl": b"{}\n",
    "logs_big/2026/runs.jsonl.1": b"{}\n",
    "logs_big/runs.jsonl-20261201": b"{}\n",
    "logs_big/runs.jsonl.2.gz": b"",
    "logs/turns.jsonl": b"{}\n",
    "team/logs/a/turns.jsonl.3": b"{}\n",
    "logs_layered/m.jsonl": b"{}\n",
    # the nearest ancestor named for a family wins
    "logs_big/logs/turns.jsonl": b"{}\n",
    "logs/x/logs_layered/m.jsonl": b"{}\n",
    "logs_layered/y/logs_big/runs.jsonl": b"{}\n",
    # a coder-eval run directory, every document name (and every name discovery knows, below)
    "runs/r1/run.json": b"{}",
    "runs/r1/experiment.json": b"{}",
    "runs/r1/v1/variant.json": b"{}",
    "runs/r1/v1/s1/suite.json": b"{}",
    "runs/r1/v1/t1/01/task.json": b"{}",
    "runs/r1/v1/t1/01/task.execute.json": b"{}",
    "runs/r1/v1/t1/01/judge-1.yaml": b"{}",
    "runs/r1/v1/t1/01/post-failure-judge-2.yml": b"{}",
    "runs/r1/v1/t1/01/judge-3.json": b"{}",
    # inspect_ai logs, told by content, wherever they sit (inspect's default folder is logs/)
    "logs/2026-12-03T10-00-00_task_abc.eval": ZIP_HEAD,
    "logs/2026-12-03T10-00-00_task_abc.json": INSPECT_JSON_HEAD,
    "logs_big/stray.eval": ZIP_HEAD,
    "elsewhere/run.eval": ZIP_HEAD,
    **{f"runs/r2/v1/t1/01/{name}": b"{}" for name in ["run.json", *CODER_EVAL_NAMES]},
}


def test_the_path_guess_of_a_load_errors_family_is_discoverys(tmp_path):
    root = tmp_path / "tree"
    for rel, data in TREE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    found = discover([str(root)])
    families = {it.path: ("coder_eval" if it.kind == "coder_eval" else it.family) for it in found.items}
    assert len(families) == len(TREE), found.ignored          # discovery lands every file of the tree

    db = fresh_db(tmp_path / "w.duckdb")
    con = duckdb.connect(str(db))
    con.execute("insert into raw.load_errors select 1, unnest($p::varchar[]), null, 'unreadable', null",
                {"p": list(families)})
    con.close()
    dbt(["run", "--select", "stg_raw__load_errors"], db, tmp_path / "target")
    guessed = dict(query(db, "select source_file, source_family from staging.stg_raw__load_errors"))

    wrong = {Path(p).relative_to(root).as_posix(): (guessed.get(p), fam) for p, fam in families.items()
             if guessed.get(p) != fam}
    assert not wrong, f"path -> (the model's guess, discovery's family): {wrong}"
