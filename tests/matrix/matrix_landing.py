"""Land brownfield matrix / layered fixture files with the real loader (their parent folder names the family)."""
from __future__ import annotations

from pathlib import Path

from evalhouse.load import load_paths


def land(db: Path, paths: list[Path]) -> None:
    """Land JSONL files (their parent directory names the family) into the raw tables of `db`."""
    load_paths([Path(p) for p in paths], db=db)
