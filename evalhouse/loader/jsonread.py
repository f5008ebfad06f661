"""JSON and YAML read the way Python's json reads them: repairs (non-finite numbers, duplicate keys,
lone surrogates) and reasons a person can act on."""
from __future__ import annotations

import json
import math
import re
from datetime import date, datetime




def _kind_of(obj) -> str:
    if isinstance(obj, list):
        return "an array"
    if obj is None:
        return "null"
    if isinstance(obj, bool):
        return "a boolean"
    if isinstance(obj, (int, float)):
        return "a number"
    if isinstance(obj, str):
        return "a string"
    return type(obj).__name__


_SURROGATE = re.compile("[\ud800-\udfff]")


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _has_surrogate(s: str) -> bool:
    return _SURROGATE.search(s) is not None


def _fix_surrogates(s: str) -> str:
    return _SURROGATE.sub("\ufffd", s)


def _repair(obj, notes: dict[str, list[str]], path: str = "$"):
    """Non-finite floats -> None, lone surrogates -> U+FFFD; records the JSON paths touched."""
    if isinstance(obj, float):
        if not math.isfinite(obj):
            notes["nonfinite"].append(path)
            return None
        return obj
    if isinstance(obj, str):
        if _has_surrogate(obj):
            notes["surrogate"].append(path)
            return _fix_surrogates(obj)
        return obj
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            key = k
            if _has_surrogate(k):
                notes["surrogate"].append(f"{path} (key)")
                key = _fix_surrogates(k)
            out[key] = _repair(v, notes, f"{path}.{k}" if _plain_key(k) else f"{path}[{json.dumps(k)}]")
        return out
    if isinstance(obj, list):
        return [_repair(v, notes, f"{path}[{i}]") for i, v in enumerate(obj)]
    return obj


def _plain_key(k: str) -> bool:
    return k.isidentifier() and not _has_surrogate(k)


def python_read(text: str, what: str = "line", duckdb_ok: bool = True):
    """Read one JSON text as Python's json module does.

    Returns (record_text | None, repaired_note | None, error | None). record_text is None when
    the text must be quarantined (error says why); it is `text` itself unless a rewrite was needed.
    """
    dup_keys: list[str] = []

    def hook(pairs):
        d = dict(pairs)
        if len(d) < len(pairs):
            seen = set()
            for k, _ in pairs:
                if k in seen and k not in dup_keys:
                    dup_keys.append(k)
                seen.add(k)
        return d

    special = []  # NaN / Infinity tokens or float overflow seen: the tree needs a repair walk

    def parse_constant(tok):
        special.append(tok)
        return float(tok)

    def parse_float(tok):
        v = float(tok)
        if not math.isfinite(v):
            special.append(tok)
        return v

    try:
        obj = json.loads(text, object_pairs_hook=hook, parse_constant=parse_constant, parse_float=parse_float)
    except json.JSONDecodeError as exc:
        return None, None, f"invalid JSON: {exc.msg} (column {exc.colno})" if "\n" not in text.strip() else \
            f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    except RecursionError:
        return None, None, "invalid JSON for Python: nested too deeply"
    except ValueError as exc:  # e.g. an integer with more than 4300 digits
        return None, None, f"invalid JSON for Python: {exc}"
    if not isinstance(obj, dict):
        return None, None, (f"not a JSON object: the {what} is {_kind_of(obj)}; "
                            f"evalhouse expects one JSON object per {what}")
    notes: dict[str, list[str]] = {"nonfinite": [], "surrogate": []}
    fixed = obj
    if special or _SURROGATE_ESCAPE.search(text):
        try:
            fixed = _repair(obj, notes)
        except RecursionError:
            return None, None, "invalid JSON for Python: nested too deeply"
    parts = []
    if notes["nonfinite"]:
        parts.append("nonfinite: " + ", ".join(notes["nonfinite"][:20]))
    if dup_keys:
        parts.append("duplicate keys (last wins): " + ", ".join(dup_keys[:20]))
    if notes["surrogate"]:
        parts.append("lone surrogate replaced by U+FFFD: " + ", ".join(notes["surrogate"][:20]))
    if not parts and duckdb_ok:
        return text, None, None
    try:
        record = json.dumps(fixed, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (RecursionError, ValueError) as exc:
        return None, None, f"cannot store this JSON: {exc}"
    return record, ("; ".join(parts) or "rewritten: DuckDB could not read the original text"), None


def _jsonable(obj, notes: list[str], path: str = "$"):
    if isinstance(obj, dict):
        return {str(k): _jsonable(v, notes, f"{path}.{k}") for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set)):
        return [_jsonable(v, notes, f"{path}[{i}]") for i, v in enumerate(obj)]
    if isinstance(obj, (datetime, date)):
        return obj.isoformat()
    if isinstance(obj, bytes):
        import base64
        return base64.b64encode(obj).decode("ascii")
    if isinstance(obj, float) and not math.isfinite(obj):
        notes.append(path)
        return None
    return obj


YAML_MAX_NODES = 1_000_000   # values a judge YAML may expand to once its aliases are resolved


def _expanded_size(obj, memo: dict) -> int:
    """How many values `obj` has once every alias (a shared reference) is written out, without writing it
    out: each shared node is counted once per reference, computed once (linear in the composed graph)."""
    if not isinstance(obj, (dict, list)):
        return 1
    key = id(obj)
    if key not in memo:
        items = obj.values() if isinstance(obj, dict) else obj
        memo[key] = 1 + sum(_expanded_size(v, memo) for v in items) + (len(obj) if isinstance(obj, dict) else 0)
    return memo[key]


def _read_yaml(text: str, name: str):
    import yaml

    try:
        obj = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # safe: never constructs objects
    except yaml.constructor.ConstructorError as exc:
        tag = getattr(exc, "problem", "") or str(exc)
        return None, None, (f"{name}: refused unsafe YAML ({tag.strip()}); only plain YAML is loaded and nothing "
                            "was constructed")
    except yaml.YAMLError as exc:
        return None, None, f"{name}: invalid YAML: {' '.join(str(exc).split())[:300]}"
    except RecursionError:
        return None, None, f"{name}: YAML nested too deeply"
    if not isinstance(obj, dict):
        return None, None, f"{name} is {_kind_of(obj)}, expected a YAML mapping"
    try:
        size = _expanded_size(obj, {})
    except RecursionError:
        return None, None, f"{name}: YAML nested too deeply"
    if size > YAML_MAX_NODES:
        return None, None, (f"{name}: refused: its aliases expand to {size:,} values (more than {YAML_MAX_NODES:,}; "
                            "a YAML alias bomb?); nothing was expanded")
    notes: list[str] = []
    doc = json.dumps(_jsonable(obj, notes), ensure_ascii=False, allow_nan=False)
    return doc, ("nonfinite: " + ", ".join(notes[:20]) if notes else None), None
