"""Reading inspect_ai eval logs into members, by hand and small (tests/inspect check it against inspect_ai's
own reader).

- `.eval`: a ZIP archive. Members are Zstandard-compressed (ZIP method 93) in current inspect_ai, which Python's
  zipfile cannot read, and DEFLATE (8) in older versions; both are read here. A log still being written (status
  "started", or a killed run) has no header.json: its journal and sample members land all the same.
  A name can stand twice in the archive: inspect_ai appends a sample's new record under the same name when it runs
  the sample again (eval_set's retry re-running an errored sample in the log it seeds), and reads the last entry of
  a name, as zipfile does. So does this reader; the earlier entries are dead bytes, which inspect_ai itself drops
  when it compacts the log.
- `.json`: one JSON object with `version`, `status`, `eval`, ... and the `samples` list. It is split into the
  members an .eval file would hold: header.json (everything but samples and reductions), one
  samples/<id>_epoch_<n>.json per sample and reductions.json.

Each member is kept as its JSON text (what the log says, typed later in staging); a member that cannot be read
is reported with its reason and the others land.
"""
from __future__ import annotations

import json
import re
import struct
import zipfile
from dataclasses import dataclass

ZIP_MAGIC = b"PK\x03\x04"
_SAMPLE = re.compile(r"^samples/(?P<id>.+)_epoch_(?P<epoch>\d+)\.json$")
_KINDS = {"header.json": "header", "summaries.json": "summaries", "reductions.json": "reductions",
          "_journal/start.json": "start"}


@dataclass
class Member:
    name: str                 # the member's path in the .eval archive (or the one it would have for a .json log)
    kind: str                 # header | start | sample | summaries | journal_summary | reductions
    text: str                 # its JSON text
    sample_id: str | None = None
    sample_id_is_int: bool | None = None
    epoch: int | None = None


def member_kind(name: str) -> str | None:
    if name in _KINDS:
        return _KINDS[name]
    if _SAMPLE.match(name):
        return "sample"
    if name.startswith("_journal/summaries/") and name.endswith(".json"):
        return "journal_summary"
    return None


def looks_like_json_log(head: bytes) -> bool:
    """The first bytes of a .json file are those of an inspect_ai log object (`version`, `status`, `eval`)."""
    text = head.lstrip()[:4096].decode("utf-8", "replace")
    return (text.startswith("{") and '"eval"' in text and '"status"' in text and '"version"' in text
            and not looks_like_eval_set_listing(head))


def looks_like_eval_set_listing(head: bytes) -> bool:
    """The first bytes of a .json file are those of the `logs.json` that inspect_ai's `eval_set` writes beside its
    logs: an object keyed by log file name, each value a copy of that log's header (the logs load themselves)."""
    key = _first_key(head)
    return key is not None and key.endswith((".eval", ".json"))


def _first_key(head: bytes) -> str | None:
    """The first key of the JSON object these bytes open, or None when they open something else."""
    text = head.lstrip().decode("utf-8", "replace")
    rest = text[1:].lstrip() if text.startswith("{") else ""
    if not rest.startswith('"'):
        return None
    try:
        key, _ = json.decoder.scanstring(rest, 1)
    except ValueError:
        return None
    return key


def _sample_identity(member: Member) -> None:
    """The sample's id (int or str, as the log has it) and epoch, from its JSON (the member name is a fallback)."""
    m = _SAMPLE.match(member.name)
    try:
        obj = json.loads(member.text)
    except ValueError:
        obj = {}
    sid = obj.get("id") if isinstance(obj, dict) else None
    if sid is None and m:
        sid = m.group("id")
    member.sample_id = None if sid is None else str(sid)
    member.sample_id_is_int = isinstance(sid, int) and not isinstance(sid, bool)
    epoch = obj.get("epoch") if isinstance(obj, dict) else None
    member.epoch = epoch if isinstance(epoch, int) else (int(m.group("epoch")) if m else None)


def _decompress(data: bytes, info: zipfile.ZipInfo, max_bytes: int) -> bytes:
    start = info.header_offset
    if data[start:start + 4] != ZIP_MAGIC:
        raise ValueError("no local file header at its offset")
    name_len, extra_len = struct.unpack("<HH", data[start + 26:start + 30])
    body = start + 30 + name_len + extra_len
    raw = data[body:body + info.compress_size]
    if info.file_size > max_bytes:
        raise ValueError(f"{info.file_size} bytes uncompressed, over the record limit of {max_bytes} "
                         "(raise EVALHOUSE_MAX_RECORD_BYTES)")
    if info.compress_type == zipfile.ZIP_STORED:
        return raw
    if info.compress_type == zipfile.ZIP_DEFLATED:
        import zlib
        return zlib.decompressobj(-15).decompress(raw, max_bytes + 1)
    if info.compress_type == 93:
        import zstandard
        return zstandard.ZstdDecompressor().decompress(raw, max_output_size=max(info.file_size, 1))
    raise ValueError(f"ZIP compression method {info.compress_type} is not one inspect_ai writes")


def eval_members(data: bytes, max_bytes: int) -> tuple[list[Member], list[tuple[str, str]]]:
    """The members of an .eval archive and, for each member that cannot be read, (member, reason)."""
    members, errors = [], []
    try:
        infos = zipfile.ZipFile(__import__("io").BytesIO(data)).infolist()
    except zipfile.BadZipFile as exc:
        return [], [("", f"not a readable .eval archive (a ZIP): {exc}")]
    last = {info.filename: info for info in infos}        # a name written again: its last entry is the member
    for info in last.values():
        kind = member_kind(info.filename)
        if kind is None or info.is_dir():
            continue
        try:
            body = _decompress(data, info, max_bytes)
            if len(body) != info.file_size:
                raise ValueError(f"{len(body)} bytes after decompression, the archive says {info.file_size}")
            text = body.decode("utf-8")
            json.loads(text)          # valid JSON (inspect writes NaN / Infinity literals; Python reads them)
        except Exception as exc:  # noqa: BLE001 - any failure is this member's, with its reason
            errors.append((info.filename, f"member {info.filename} unreadable: {type(exc).__name__}: {exc}"))
            continue
        m = Member(info.filename, kind, text)
        if kind == "sample":
            _sample_identity(m)
        members.append(m)
    return members, errors


def json_log_members(data: bytes) -> tuple[list[Member], list[tuple[str, str]]]:
    """A .json log split into the members an .eval archive holds and, for each sample that is not a JSON object,
    (member, reason). Raises ValueError when the document is not an inspect_ai log object."""
    obj = json.loads(data)
    if not isinstance(obj, dict) or "eval" not in obj:
        raise ValueError("not an inspect_ai log object (no `eval`)")
    listed = obj.get("samples") or []
    errors = [] if isinstance(listed, list) else [("samples", f"`samples` is a JSON {type(listed).__name__}, not a list")]
    samples: dict[str, dict] = {}
    for i, s in enumerate(listed if isinstance(listed, list) else []):
        if isinstance(s, dict):
            # a sample listed twice (its id and epoch): the later record, as for a name written twice in an archive
            samples[f"samples/{s.get('id')}_epoch_{s.get('epoch')}.json"] = s
        else:
            errors.append((f"samples[{i}]", f"samples[{i}] is a JSON {type(s).__name__}, not a sample object"))
    header = {k: v for k, v in obj.items() if k not in ("samples", "reductions")}
    out = [Member("header.json", "header", json.dumps(header))]
    for name, s in samples.items():
        m = Member(name, "sample", json.dumps(s))
        _sample_identity(m)
        out.append(m)
    if obj.get("reductions") is not None:
        out.append(Member("reductions.json", "reductions", json.dumps(obj["reductions"])))
    return out, errors
