"""A quiet build shows one progress line on a terminal and nothing extra elsewhere (evalhouse.dbt_progress)."""
from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

from helpers import FIXTURES, evalhouse_cli

from evalhouse import dbt_progress


class _Tty(io.StringIO):
    def isatty(self):
        return True


def _event(name, level="info", msg="", **data):
    return json.dumps({"info": {"name": name, "level": level, "msg": msg}, "data": data}) + "\n"


def test_progress_only_for_a_quiet_build_on_a_terminal(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    assert dbt_progress.wanted(["build", "--quiet"], _Tty())
    assert not dbt_progress.wanted(["build"], _Tty())                  # dbt's own per-node lines already show
    assert not dbt_progress.wanted(["build", "--quiet"], io.StringIO())  # a pipe or a file: unchanged
    monkeypatch.setenv("CI", "true")
    assert not dbt_progress.wanted(["build", "--quiet"], _Tty())
    assert dbt_progress.json_args(["build", "--quiet", "--select", "x"]) == [
        "build", "--select", "x", "--log-format", "json", "--no-use-colors"]


def test_follow_draws_one_line_and_prints_errors_in_plain_text():
    ticks = iter(range(100))
    lines = [_event("MainReportVersion", msg="Running with dbt=1.11"),
             _event("LogStartLine", index=1, total=3, node_info={"node_name": "stg_a"}),
             _event("LogTestResult", index=2, total=3, node_info={"node_name": "r03_kinds"}),   # out of order
             _event("LogModelResult", index=1, total=3, node_info={"node_name": "stg_a"}),
             _event("RunResultError", level="error", msg="Failure in test r06_x"),
             "not json at all\n",
             _event("LogModelResult", index=3, total=3, node_info={"node_name": "big_rates"})]
    out = io.StringIO()
    assert dbt_progress.follow(lines, out, clock=lambda: next(ticks)) == 3
    text = out.getvalue()
    assert "\rdbt build: 1/3 nodes, 1 s (r03_kinds)" in text and "\rdbt build: 2/3 nodes" in text
    assert "\rdbt build: 3/3 nodes" in text and "(big_rates)" in text
    assert "Failure in test r06_x\n" in text and "not json at all\n" in text
    assert "Running with dbt" not in text            # what --quiet hides stays hidden
    assert text.endswith("\r")                        # the progress line is cleared at the end


def test_a_quiet_build_on_a_terminal_shows_progress(tmp_path):
    """The real thing under a pseudo-terminal: `evalhouse build -- --quiet` redraws a progress line."""
    db = tmp_path / "w.duckdb"
    evalhouse_cli(["load", str(FIXTURES / "brownfield" / "clean" / "logs_big"), "--db", str(db), "--quiet"], tmp_path)
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(DBT_TARGET_PATH=str(tmp_path / "target"), DBT_LOG_PATH=str(tmp_path / "target" / "logs"))
    proc = subprocess.Popen([str(Path(sys.executable).with_name("evalhouse")), "build", "--db", str(db), "--",
                             "--quiet", "--select", "staging.big"],
                            cwd=tmp_path, env=env, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 300)
        if not ready:
            proc.kill()
            raise AssertionError("the build printed nothing for 300 s")
        try:
            data = os.read(master, 65536)
        except OSError:      # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    assert proc.wait(timeout=60) == 0, b"".join(chunks).decode(errors="replace")[-3000:]
    text = b"".join(chunks).decode(errors="replace")
    assert re.search(r"\rdbt build: 1/\d+ nodes, \d+ s \(", text), text[-2000:]
    assert '{"info"' not in text                      # the JSON events are rendered, never shown raw
