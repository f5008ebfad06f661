"""What a load reports: per-file results, the load summary, and the errors it raises."""
from __future__ import annotations

from dataclasses import dataclass, field


from ..config import UsageError  # noqa: F401 - raised by the loader, defined with the settings


RAW_TEXT_MAX = 4096          # chars of offending text kept in raw.load_errors


class LoadError(RuntimeError):
    """A fatal error: nothing was written (exit code 1)."""


class _DirectPathFailed(RuntimeError):
    """DuckDB's scanner raised on a file the pre-pass passed: the load is retried without the direct path."""


@dataclass
class FileResult:
    path: str
    status: str              # loaded | appended | replaced | unchanged | duplicate | failed
    family: str | None = None
    lines: int = 0           # complete lines read by this load (JSONL)
    landed: int = 0
    quarantined: int = 0
    blank: int = 0
    pending: int = 0         # 1 if a partial last line (no newline yet) was left for later
    duplicate_of: str | None = None
    continues: str | None = None      # a copy that grew: the landed file its first lines repeat
    landed_by: str | None = None      # how its lines landed: "direct" (DuckDB's own scanner), "chunked" (split
    #                                   in Python), "batch" (one statement with other small files); None: no lines


@dataclass
class LoadSummary:
    load_id: str
    db: str
    files_seen: int = 0
    files_loaded: int = 0
    files_unchanged: int = 0
    files_ignored: int = 0
    files_duplicate: int = 0
    files_replaced: int = 0
    files_failed: int = 0
    records_landed: int = 0
    duplicates_skipped: int = 0
    lines_quarantined: int = 0
    lines_blank: int = 0
    lines_pending: int = 0
    seconds: float = 0.0
    errors: list[tuple[str, int | None, str]] = field(default_factory=list)   # (file, line, reason)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    files: list[FileResult] = field(default_factory=list)

    def by_path(self) -> dict[str, FileResult]:
        return {f.path: f for f in self.files}


def _cut(text: str) -> str:
    if len(text) <= RAW_TEXT_MAX:
        return text
    return text[:RAW_TEXT_MAX] + f"... [cut: {len(text)} chars in all]"
