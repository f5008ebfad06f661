"""Reading files without DuckDB: the streaming pre-pass (hashes, line count, direct-path preconditions),
prefix hashes of registered files, and gzip archives.

The loader's other modules read files through the public functions here: read_file (every open of a log
file), scan_file / safe_scan_file (the pre-pass), safe_hash_prefix (is a registered file still what was
landed?) and line_digests. The loader's tests inject faults (a permission error, a full disk, a file
rewritten mid-load) by replacing these."""
from __future__ import annotations

import codecs
import hashlib
import json
import mmap
import os
import tempfile
from dataclasses import dataclass, field


from .jsonread import _has_surrogate
from ..config import max_record_bytes


GZIP_MAGIC = b"\x1f\x8b\x08"


BOM = b"\xef\xbb\xbf"


def _pending(data: bytes, end: int, off: int = 0) -> int:
    """1 if bytes follow the last newline (a partial last line), not counting a lone leading BOM.

    `data` holds the file's bytes from offset `off`; `end` is an offset in the file."""
    tail = data[end - off:]
    if end == 0 and tail.startswith(BOM):
        tail = tail[len(BOM):]
    return 1 if tail else 0


def read_file(path: str):
    """Open `path` for reading (binary); every file the loader reads goes through here."""
    return open(path, "rb")


READ_BLOCK = 8 << 20         # bytes per read of a file's first landing


SCAN_AHEAD = 2               # pre-passes running or done ahead of the file being landed


PREFIX_BLOCK = 64 << 20      # bytes per hashlib update while verifying a landed prefix


def _hash_prefix(path: str, n: int):
    """(first 3 bytes, a sha256 state that has consumed the first n bytes of path), or None if it is shorter.

    Hashes straight from a read-only memory map (no copy); hashlib releases the GIL, so the
    prefixes of several files can be hashed in parallel threads (see _Loader.prefetch)."""
    with read_file(path) as fh:
        return _hash_prefix_fd(fh, n)


def _file_identity(fh) -> tuple:
    st = os.fstat(fh.fileno())
    return st.st_dev, st.st_ino, st.st_mtime_ns


def _hash_prefix_fd(fh, n: int):
    """_hash_prefix of an open file: (first 3 bytes, sha256 state of the first n bytes, the file's identity
    (device, inode, mtime) when it was hashed), or None if it is shorter."""
    size = os.fstat(fh.fileno()).st_size
    if n <= 0 or size < n:
        return None
    ident = _file_identity(fh)
    with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        h = hashlib.sha256()
        view = memoryview(mm)
        try:
            for i in range(0, n, PREFIX_BLOCK):
                h.update(view[i:min(n, i + PREFIX_BLOCK)])
            return bytes(view[:3]), h, ident
        finally:
            view.release()


@dataclass
class _Scan:
    """What one streaming read of a whole file tells (nothing of the file is kept in memory)."""
    head: bytes = b""        # the first 3 bytes (gzip magic test)
    first_line_sha: str | None = None   # sha256 of the bytes up to and including the first newline
    size: int = 0            # bytes read
    end: int = 0             # bytes that form complete lines (up to and including the last newline)
    lines: int = 0           # complete lines (newlines)
    end_sha: str = ""        # sha256 of the first `end` bytes
    file_sha: str = ""       # sha256 of the whole file
    direct_ok: bool = True   # no CR, no NUL, valid UTF-8: DuckDB's line split equals Python's
    key_lists: list = field(default_factory=list)   # distinct repeat-free top-level key lists (first lines)
    line_shas: str | None = None   # a file of the complete lines' sha256 hex digests, one per line, in order


def line_digests(lines) -> bytes:
    """The sha256 hex digests of `lines`, one per output line (the text DuckDB stores for each)."""
    sha = hashlib.sha256
    return "".join([sha(ln).hexdigest() + "\n" for ln in lines]).encode("ascii")


def scan_file(path: str, shas_dir: str | None = None) -> _Scan:
    """Read `path` once in READ_BLOCK pieces: hashes, newline count and the direct-path preconditions.

    With `shas_dir`, it also writes the sha256 of every complete line (as DuckDB will store it: without
    the newline, and line 1 without a leading BOM) to a file there (`line_shas`), so the direct path
    need not hash the lines inside its single-threaded insert. Python's hashlib is several times faster
    than DuckDB's sha256, and this runs in a prefetch thread while DuckDB lands the previous file.
    """
    sc = _Scan()
    cap = max_record_bytes()
    h = hashlib.sha256()
    h_end = h.copy()
    dec = codecs.getincrementaldecoder("utf-8")()
    dec_busy = False          # the decoder holds a partial character
    out = None
    carry = b""               # the partial line at the end of the previous block
    line1_done = False        # line 1's hash is written (a leading BOM stripped)
    if shas_dir is not None:
        fd, sc.line_shas = tempfile.mkstemp(prefix="lines-", suffix=".sha", dir=shas_dir)
        out = os.fdopen(fd, "wb")
    try:
        with read_file(path) as fh:
            while True:
                buf = fh.read(READ_BLOCK)
                if not buf:
                    break
                if not sc.head:
                    sc.head = buf[:3]
                    sc.key_lists = _key_lists(buf)
                    sc.first_line_sha = _first_line_sha(buf)
                nl = buf.rfind(b"\n")
                if nl >= 0:
                    h.update(memoryview(buf)[:nl + 1])
                    h_end = h.copy()
                    h.update(memoryview(buf)[nl + 1:])
                    sc.end = sc.size + nl + 1
                    sc.lines += buf.count(b"\n")
                else:
                    h.update(buf)
                sc.size += len(buf)
                if sc.direct_ok:
                    if b"\r" in buf or b"\x00" in buf:
                        sc.direct_ok = False
                    elif dec_busy or not buf.isascii():
                        try:
                            dec.decode(buf)
                            dec_busy = bool(dec.getstate()[0])
                        except UnicodeDecodeError:
                            sc.direct_ok = False
                if out is not None and sc.direct_ok:
                    pieces = buf.split(b"\n")
                    pieces[0] = carry + pieces[0]
                    carry = pieces.pop()
                    if len(carry) > cap or (pieces and max(map(len, pieces)) > cap):
                        sc.direct_ok = False     # a record past the limit: the chunked path quarantines it
                        continue
                    if pieces and not line1_done:              # DuckDB drops a BOM that starts the file
                        line1_done = True
                        if pieces[0].startswith(BOM):
                            pieces[0] = pieces[0][len(BOM):]
                    out.write(line_digests(pieces))
    except BaseException:
        if out is not None:
            out.close()
            os.unlink(sc.line_shas)
        raise
    if out is not None:
        out.close()
        if not sc.direct_ok:              # the chunked path hashes in SQL
            os.unlink(sc.line_shas)
            sc.line_shas = None
    sc.end_sha = h_end.hexdigest() if sc.end else hashlib.sha256().hexdigest()
    sc.file_sha = h.hexdigest()
    return sc


KEY_LIST_LINES = 64         # first lines sampled for repeat-free key lists ...


KEY_LIST_BYTES = 64 << 10   # ... within the first 64 KB


KEY_LISTS_MAX = 32


def _key_lists(buf: bytes) -> list[list[str]]:
    """Distinct top-level key lists, without a repeated key, of the JSON objects among the first lines."""
    out: list[list[str]] = []
    head = buf[:KEY_LIST_BYTES]
    for raw in head.split(b"\n")[:-1][:KEY_LIST_LINES]:     # complete lines only
        try:
            pairs = json.loads(raw, object_pairs_hook=lambda p: p)
        except (ValueError, RecursionError):
            continue
        if not isinstance(pairs, list) or not pairs or not isinstance(pairs[0], tuple):
            continue
        keys = [k for k, _ in pairs]
        if any(_has_surrogate(k) for k in keys):   # not text DuckDB can take (the line itself is repaired)
            continue
        if len(set(keys)) == len(keys) and keys not in out:
            out.append(keys)
            if len(out) == KEY_LISTS_MAX:
                break
    return out


def _prefix_hexdigest(path: str, n: int) -> str | None:
    """sha256 hex digest of the first n bytes of path (of the empty string for n = 0; None if shorter)."""
    if n == 0:
        return hashlib.sha256().hexdigest()
    got = _hash_prefix(path, n)
    return None if got is None else got[1].hexdigest()


def safe_hash_prefix(path: str, n: int):
    try:
        return _hash_prefix(path, n)
    except (OSError, ValueError):
        return None          # unreadable now: load_jsonl reads it again and reports why


def safe_scan_file(path: str, shas_dir: str | None = None) -> "_Scan | None":
    try:
        return scan_file(path, shas_dir)
    except (OSError, ValueError):
        return None          # unreadable now: load_jsonl reads it again and reports why


def _drop_line_shas(sc: "_Scan | None") -> None:
    if sc is not None and sc.line_shas is not None:
        try:
            os.unlink(sc.line_shas)
        except OSError:
            pass
        sc.line_shas = None


def _stat_key(st: os.stat_result) -> tuple:
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def _first_line_sha(buf: bytes) -> str | None:
    """sha256 of buf up to and including its first newline (None: no complete first line in buf)."""
    nl = buf.find(b"\n")
    return hashlib.sha256(memoryview(buf)[:nl + 1]).hexdigest() if nl >= 0 else None


def _read_jsonl(path: str, reg: dict, prefix=None):
    """Read a registered JSONL file whose first `bytes_landed` bytes were landed; keep only what may need landing.

    The landed prefix is hashed -- never kept in memory -- and compared with the stored prefix sha256
    (`prefix`: a precomputed _hash_prefix result). Returns (head, off, tail, h): head = the file's first
    3 bytes, off = where the kept bytes start (bytes_landed when that prefix is verified, else 0), tail =
    the bytes from off to the end, h = a sha256 state that has consumed exactly the first `off` bytes.
    If the prefix does not verify, the whole file is read (off = 0).
    """
    bl = reg.bytes_landed
    with read_file(path) as fh:
        # the prefix and the tail come from ONE file: a precomputed hash of a file since replaced or rewritten
        # (another inode or mtime) is recomputed here, so old lines are never committed with a new file's tail
        ident = _file_identity(fh)
        if prefix is None or prefix[2] != ident:
            prefix = _hash_prefix_fd(fh, bl)
        if prefix is not None and prefix[1].copy().hexdigest() == reg.prefix_sha256:
            fh.seek(bl)
            tail = fh.read()
            head, off, data, h = prefix[0], bl, tail, prefix[1]
        else:
            fh.seek(0)
            data = fh.read()
            head, off, h = data[:3], 0, hashlib.sha256()
        return head, off, data, h


GUNZIP_MAX = 2 << 30          # bytes a compressed archive may decompress to (a gzip bomb stops here)


def _gunzip(fh, path: str) -> bytes:
    """The decompressed bytes of a gzip file, at most GUNZIP_MAX; ValueError (a reason) when it is not one."""
    import gzip
    import zlib
    out = bytearray()
    try:
        with gzip.GzipFile(fileobj=fh) as gz:
            while True:
                piece = gz.read(READ_BLOCK)
                if not piece:
                    break
                out += piece
                if len(out) > GUNZIP_MAX:
                    raise ValueError(f"decompresses to more than {GUNZIP_MAX:,} bytes: decompress it yourself "
                                     f"(gunzip) and load the .jsonl inside")
    except (OSError, EOFError, zlib.error) as exc:
        if isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile) and exc.errno is not None:
            raise
        raise ValueError(f"not a complete gzip file ({exc}): re-compress it, or decompress what is left and load "
                         f"the .jsonl") from None
    return bytes(out)
