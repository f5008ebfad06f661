"""Land brownfield JSONL fixtures with the real loader (evalhouse.load.load_paths) for the tests."""
from __future__ import annotations

from pathlib import Path

from evalhouse.load import load_paths


def land(db: Path, paths: list[Path]) -> str:
    """Land `paths` (files or directories) into `db`; return the load_id."""
    return load_paths([str(p) for p in paths], db).load_id
