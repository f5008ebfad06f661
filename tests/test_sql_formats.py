"""`evalhouse sql` for papers and pipes (issue 18, its sql part): --format table|csv|json|markdown|latex, nothing
cut when the output is not a terminal, and a closed pipe (`| head`) ends quietly instead of a traceback."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from evalhouse.cli import main

LONG = "x" * 150 + "|&_%"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "w.duckdb"
    con = duckdb.connect(str(path))
    con.execute("create schema marts")
    con.execute("create table marts.t as select i as n, i / 3.0 as rate, case when i = 1 then $long else 'a' end as "
                "label, null::varchar as missing from range(1, 301) r(i)", {"long": LONG})
    con.close()
    return path


def _sql(db, capsys, *args) -> str:
    assert main(["sql", "--working", "--db", str(db), *args, "select * from marts.t order by n"]) == 0
    return capsys.readouterr().out


def test_table_in_a_pipe_cuts_nothing_and_shows_every_row(db, capsys):
    out = _sql(db, capsys)
    assert LONG in out and "…" not in out
    assert "(300 rows)" in out


def test_csv_and_json_carry_full_values_and_every_row(db, capsys):
    rows = list(csv.DictReader(io.StringIO(_sql(db, capsys, "--format", "csv"))))
    assert len(rows) == 300 and rows[0]["label"] == LONG and rows[0]["missing"] == ""
    assert abs(float(rows[0]["rate"]) - 1 / 3) < 1e-15                     # full precision, not 0.3333
    data = json.loads(_sql(db, capsys, "--format", "json"))
    assert len(data) == 300 and data[0] == {"n": 1, "rate": data[0]["rate"], "label": LONG, "missing": None}


def test_markdown_and_latex_escape_what_they_must(db, capsys):
    md = _sql(db, capsys, "--format", "markdown", "--max-rows", "2").splitlines()
    assert md[0] == "| n | rate | label | missing |" and md[1] == "|---:|---:|---|---:|"
    assert "\\|&_%" in md[2] and len(md) == 4
    tex = _sql(db, capsys, "--format", "latex", "--max-rows", "2")
    assert tex.startswith("\\begin{tabular}{rrlr}\n\\toprule") and tex.rstrip().endswith("\\end{tabular}")
    assert "|\\&\\_\\%" in tex


def test_a_closed_pipe_ends_quietly(db):
    cmd = f"'{sys.executable}' -m evalhouse.cli sql --working --db '{db}' 'select * from range(200000)' | head -n 2"
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert proc.stdout.splitlines()[0].strip() == "range"
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr
