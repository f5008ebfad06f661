"""One writer at a time: an advisory lock shared by `evalhouse load`, `build` and `publish`.

DuckDB allows a single writer process per file and refuses a second one with a terse
"Could not set lock" error. evalhouse serialises its own writers *before* DuckDB does, with
an ``fcntl.flock`` on ``<db>.lock`` next to the working file:

- a second load/build/publish waits up to ``wait`` seconds for the first to finish, then
  fails with a message naming who holds the lock (never a half-written file);
- the kernel releases the lock when its holder dies, even by SIGKILL, so a crashed run never
  leaves a stale lock behind (the lock file itself is never deleted: deleting lock files races);
- the lock is re-entrant within one process (``evalhouse demo`` holds it around load + build).

``connect_rw`` turns DuckDB's own lock conflict (some *other* program has the working file
open, e.g. an analyst who opened it instead of the published analyst file) into the same kind
of actionable message.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from .config import lock_wait
from .paths import analyst_path

__all__ = ["DatabaseBusy", "db_lock", "default_wait", "lock_path", "connect_rw", "held_lock_fd", "friendly_duckdb_error"]

_POLL_S = 0.1


class DatabaseBusy(RuntimeError):
    """Another process is using the database; str() is a message a person can act on."""


def default_wait() -> float:
    """Seconds to wait for the lock when not told: $EVALHOUSE_LOCK_WAIT, else 60 (evalhouse.config)."""
    return lock_wait()


def lock_path(db: os.PathLike | str) -> Path:
    db = Path(db)
    return db.with_name(db.name + ".lock")


# path of the lock file -> [fd, depth]; flock is per open file description, so a nested
# acquisition in the same process must reuse the fd instead of opening the file again.
_HELD: dict[str, list[int]] = {}
_HELD_GUARD = threading.Lock()


def held_lock_fd(db: os.PathLike | str) -> int | None:
    """The fd of the lock this process holds on `db` (to hand to a child process), else None."""
    entry = _HELD.get(str(lock_path(Path(db).resolve())))
    return entry[0] if entry else None


def _holder_info(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return "another process"
    return text or "another process"


@contextlib.contextmanager
def db_lock(db: os.PathLike | str, wait: float | None = None, what: str = "load"):
    """Hold the exclusive evalhouse lock on `db` for the duration of the block.

    Waits up to `wait` seconds (0 = do not wait) and raises DatabaseBusy if it is still held.
    """
    if wait is None:
        wait = default_wait()
    db = Path(db).resolve()
    path = lock_path(db)
    key = str(path)
    with _HELD_GUARD:
        entry = _HELD.get(key)
        if entry is not None:
            entry[1] += 1
    if entry is not None:
        try:
            yield path
        finally:
            with _HELD_GUARD:
                entry[1] -= 1
        return

    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + max(wait, 0.0)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise
            if time.monotonic() >= deadline:
                raise DatabaseBusy(
                    f"{db.name} is busy: {_holder_info(path)} holds {path}"
                    f"{f'; waited {wait:g}s' if wait > 0 else ''}. "
                    "Retry when it has finished, or pass --wait SECONDS to wait longer. "
                    "(Analysts never need this lock: they open the published analyst file read-only.)"
                )
            time.sleep(_POLL_S)
    except BaseException:
        os.close(fd)
        raise
    # we hold it: record who we are, for the message another process will print
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    info = f"evalhouse {what} (pid {os.getpid()}, started {started})\n".encode()
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, info, 0)
    except OSError:
        pass
    with _HELD_GUARD:
        _HELD[key] = [fd, 1]
    try:
        yield path
    finally:
        with _HELD_GUARD:
            _HELD.pop(key, None)
        try:
            os.ftruncate(fd, 0)
        except OSError:
            pass
        os.close(fd)  # closing the last fd of the open file description releases the flock


_PID_RE = re.compile(r"Conflicting lock is held in (?P<prog>.*?) \(PID (?P<pid>\d+)\)")


def _cmdline(pid: int) -> str | None:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    parts = [p.decode(errors="replace") for p in raw.split(b"\0") if p]
    text = " ".join(" ".join(parts).split())  # one line, even for `python -c "<script>"`
    return (text[:77] + "...") if len(text) > 80 else (text or None)


def friendly_duckdb_error(exc: BaseException, db: os.PathLike | str) -> DatabaseBusy | None:
    """DatabaseBusy with an actionable message if `exc` is DuckDB's file-lock conflict, else None."""
    msg = str(exc)
    if "Could not set lock on file" not in msg:
        return None
    db = Path(db)
    m = _PID_RE.search(msg)
    who = "another process"
    if m:
        pid = int(m.group("pid"))
        cmd = _cmdline(pid) or m.group("prog")
        who = f"process {pid} ({cmd})"
    return DatabaseBusy(
        f"{db} is open in {who}, and DuckDB allows no writer while another process has the file open. "
        f"Close that connection and retry. Analysts should open the published read-only copy instead: "
        f"duckdb -readonly {analyst_path(db)}  (or: evalhouse sql)."
    )


def connect_rw(db: os.PathLike | str, **kwargs) -> duckdb.DuckDBPyConnection:
    """duckdb.connect(db) for writing, with DuckDB's lock conflict turned into DatabaseBusy."""
    try:
        return duckdb.connect(str(db), **kwargs)
    except duckdb.Error as exc:
        busy = friendly_duckdb_error(exc, db)
        if busy is not None:
            raise busy from None
        raise


def connect_ro(db: os.PathLike | str) -> duckdb.DuckDBPyConnection:
    """duckdb.connect(db, read_only=True); a writer holding the file becomes DatabaseBusy."""
    try:
        return duckdb.connect(str(db), read_only=True)
    except duckdb.Error as exc:
        busy = friendly_duckdb_error(exc, db)
        if busy is not None:
            raise busy from None
        raise
