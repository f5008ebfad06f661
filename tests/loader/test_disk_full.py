"""A full disk is a full disk (issue 14, clear errors): it used to read "cannot read file ... check its
permissions" with exit 0. Now the load, build or publish fails with exit 1, says the disk is full and where,
and nothing is written."""
from __future__ import annotations

import errno
import json
import os
import subprocess

import pytest

from evalhouse.cli import main as cli_main

from lutil import EVALHOUSE, fingerprint, load, write

from evalhouse.loader import prepass as P


def _logs(root, n=20):
    return write(root / "logs_big" / "a.jsonl", "".join(json.dumps({"id": f"r{i}"}) + "\n" for i in range(n)))


def test_enospc_while_reading_ahead_fails_the_load_as_a_full_disk(tmp_path, monkeypatch, capsys):
    db = tmp_path / "w.duckdb"
    _logs(tmp_path)
    load(tmp_path, db)
    before = fingerprint(db)
    write(tmp_path / "logs_big" / "b.jsonl", '{"id": "new"}\n')

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "w.duckdb.lines.tmp"))

    monkeypatch.setattr(P, "scan_file", full)
    assert cli_main(["load", str(tmp_path), "--db", str(db), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "disk is full" in err and "w.duckdb.lines.tmp" in err and "permissions" not in err
    assert fingerprint(db) == before


def test_a_permission_error_is_still_a_file_error_and_the_rest_lands(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    _logs(tmp_path)
    bad = write(tmp_path / "logs_big" / "b.jsonl", '{"id": "x"}\n')
    bad.chmod(0)
    s = load(tmp_path, tmp_path / "w.duckdb")
    assert s.records_landed == 20 and any("permissions" in e[2] for e in s.errors)


@pytest.fixture
def tiny_disk(tmp_path):
    """A 3 MB tmpfs (needs root and a kernel that lets this container mount; else the test is skipped)."""
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3M", "tmpfs", str(mnt)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_really_full_disk_fails_the_load_with_exit_1_and_says_so(tmp_path, tiny_disk):
    _logs(tmp_path, n=60_000)                      # ~1.5 MB of lines: more than the tiny disk takes as a database
    proc = subprocess.run([EVALHOUSE, "load", str(tmp_path / "logs_big"), "--db", str(tiny_disk / "w.duckdb")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "disk is full" in proc.stderr and "Traceback" not in proc.stderr
    assert "permissions" not in proc.stderr
