"""Land coder-eval run directories with the real loader (evalhouse.load.load_paths) for the tests."""
from __future__ import annotations

from pathlib import Path

from evalhouse.load import load_paths


def land(db: Path, roots: list[Path]) -> int:
    """Land every coder-eval document under `roots` into `db`; returns the number of records landed."""
    summary = load_paths([Path(r) for r in roots], Path(db))
    assert not summary.errors, summary.errors
    return summary.records_landed
