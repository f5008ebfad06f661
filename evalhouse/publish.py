"""`evalhouse publish`: an analyst-facing, read-only snapshot of the working file.

DuckDB allows one writer process per file, and any reader of that file blocks the writer. So
analysts never open the working file (`--db`, default ./evalhouse.duckdb). They open the
*analyst file* next to it, ``<stem>.analyst.duckdb``, which evalhouse replaces atomically:

    copy the (checkpointed, WAL-free) working file -> <stem>.analyst.tmp-<pid>.duckdb
    chmod to the working file's read bits (0444 for 0644, 0400 for 0600), fsync file -> os.replace() onto
    <stem>.analyst.duckdb -> fsync directory

A reader that has the old analyst file open keeps reading the old inode (POSIX keeps it alive
until the last descriptor closes), so it sees one consistent snapshot and never blocks a build.
A crash at any point leaves either the old or the new analyst file, never a torn one; at worst
a stray temporary file, which the next build/publish removes.

DuckDB names a database after the part of its file name before the first dot, so
``evalhouse.analyst.duckdb`` is still the catalog ``evalhouse`` and the dbt views (which
reference ``"evalhouse"."staging"...``) resolve in the analyst file too.
"""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from .locking import connect_ro, connect_rw, db_lock
from .paths import _stem, analyst_path


def _analyst_temp_path(db: Path) -> Path:
    return db.with_name(f"{_stem(db)}.analyst.tmp-{os.getpid()}.duckdb")


def wal_path(db: Path) -> Path:
    return db.with_name(db.name + ".wal")


def fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(path: Path) -> None:
    try:
        fsync_path(path)
    except OSError:  # some filesystems refuse fsync on directories; the rename is still atomic
        pass


def remove_stale_temps(db: Path) -> list[Path]:
    """Delete leftovers of killed builds/publishes. Call only while holding db_lock(db)."""
    stem = _stem(db)
    removed = []
    for pattern in (f"{stem}.build.duckdb", f"{stem}.build.duckdb.wal", f"{stem}.analyst.tmp-*.duckdb"):
        for p in db.parent.glob(pattern):
            try:
                p.chmod(0o644)
                p.unlink()
                removed.append(p)
            except FileNotFoundError:
                pass
    return removed


def checkpoint(db: Path) -> None:
    """Fold `db`'s WAL (if any) into the file, so the file alone is the whole database.

    A WAL is left behind when a writer dies after committing but before its checkpoint.
    Needs the DuckDB write lock; raises DatabaseBusy if another program has the file open.
    """
    con = connect_rw(db)
    try:
        con.execute("CHECKPOINT")
    finally:
        con.close()
    if wal_path(db).exists() and wal_path(db).stat().st_size > 0:
        raise RuntimeError(f"{db}: the WAL is still there after CHECKPOINT; not copying a partial database")


def checkpoint_if_wal(db: Path) -> None:
    if wal_path(db).exists():
        checkpoint(db)


def _copy_private(src: Path, dst: Path) -> None:
    """Copy src to a new dst created 0600 (never readable by others while it is written)."""
    with open(src, "rb") as fin:
        fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fout:
            try:
                size = os.fstat(fin.fileno()).st_size
                off = 0
                while off < size:
                    sent = os.sendfile(fout.fileno(), fin.fileno(), off, min(size - off, 1 << 30))
                    if sent == 0:
                        break
                    off += sent
            except (AttributeError, OSError):   # no sendfile here: a plain copy
                fin.seek(0)
                fout.seek(0)
                fout.truncate()
                shutil.copyfileobj(fin, fout, 16 << 20)


def copy_db(src: Path, dst: Path, mode: int | None = None) -> None:
    """Copy a checkpointed DuckDB file and make the copy durable, with src's permission bits (or `mode`).
    The copy is private while it is written, so a 0600 warehouse never has a world-readable copy."""
    tmp_ok = False
    try:
        target_mode = stat.S_IMODE(os.stat(src).st_mode) if mode is None else mode
        _copy_private(src, dst)
        os.chmod(dst, target_mode)
        fsync_path(dst)
        tmp_ok = True
    finally:
        if not tmp_ok:
            try:
                dst.unlink()
            except FileNotFoundError:
                pass


def publish_from(source: Path, db: Path) -> Path:
    """Atomically replace the analyst file of `db` with a read-only copy of `source`.

    `source` must be checkpointed (no WAL) and not written to during the copy (caller holds
    db_lock(db)). Returns the analyst path.
    """
    target = analyst_path(db)
    tmp = _analyst_temp_path(db)
    # read-only, for whoever may read the working file (a 0600 warehouse publishes a 0400 analyst file)
    readers = stat.S_IMODE(os.stat(db if Path(db).exists() else source).st_mode) & 0o444
    copy_db(source, tmp, mode=readers or 0o400)
    try:
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(target.parent)
    return target


def publish(db: os.PathLike | str, wait: float | None = None) -> Path:
    """`evalhouse publish`: snapshot the working file into the analyst file."""
    db = Path(db).resolve()
    if not db.exists():
        raise FileNotFoundError(f"{db} does not exist: run `evalhouse load` and `evalhouse build` first")
    with db_lock(db, wait=wait, what="publish"):
        remove_stale_temps(db)
        checkpoint_if_wal(db)
        # a read-only connection held during the copy keeps any non-evalhouse writer out
        guard = connect_ro(db)
        try:
            return publish_from(db, db)
        finally:
            guard.close()
