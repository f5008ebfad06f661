"""dbt's progress on a terminal: one line, redrawn, `dbt build: 123/320 nodes, 14 s (test r03_...)`.

`evalhouse build` (and `make demo`) run dbt with `--quiet`. On a terminal that is a minute with no output, so
there dbt runs with `--log-format json` instead and this module turns its events into the progress line, and
prints what `--quiet` would have printed (errors) in plain text. In a pipe, a file or CI nothing changes: dbt's
own quiet output, no carriage returns, no colour codes.
"""
from __future__ import annotations

import json
import os
import sys
import time
from typing import IO, Iterable


def wanted(args: list[str], stream: IO = sys.stdout) -> bool:
    """Show progress for this dbt invocation: it was asked to be quiet, and a person is watching."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return "--quiet" in args and tty and not os.environ.get("CI")


def json_args(args: list[str]) -> list[str]:
    return [a for a in args if a != "--quiet"] + ["--log-format", "json", "--no-use-colors"]


def follow(lines: Iterable[str], out: IO = sys.stdout, clock=time.monotonic) -> int:
    """Render dbt's JSON events from `lines` until they end. Returns the number of nodes finished (counted, since
    with several threads they finish out of their start order)."""
    start = clock()
    width = 0
    done: set = set()          # the nodes finished so far (threads finish them out of order)

    def clear():
        nonlocal width
        if width:
            out.write("\r" + " " * width + "\r")
            width = 0

    for line in lines:
        try:
            event = json.loads(line)
            info, data = event["info"], event.get("data") or {}
        except (ValueError, KeyError, TypeError):
            clear()
            out.write(line if line.endswith("\n") else line + "\n")   # not an event: pass it on
            continue
        if info.get("level") == "error":
            clear()
            out.write(f"{info.get('msg', '')}\n")
        total, index = data.get("total"), data.get("index")
        if total and index and str(info.get("name", "")).endswith("Result"):
            node = (data.get("node_info") or {}).get("node_name") or ""
            done.add(node or index)
            text = f"dbt build: {len(done)}/{total} nodes, {clock() - start:.0f} s ({node})"[:100]
            clear()
            out.write("\r" + text)
            width = len(text)
        out.flush()
    clear()
    out.flush()
    return len(done)
