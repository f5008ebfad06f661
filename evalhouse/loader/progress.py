"""The progress bar a terminal sees during a long load (silent otherwise)."""
from __future__ import annotations

import os
import sys
import time



class _Progress:
    """A minimal progress bar on stderr (bytes done, elapsed, an estimate of what is left, the file), only on a TTY
    and only once a load takes a moment."""

    def __init__(self, total_bytes: int, enabled: bool):
        self.total = max(total_bytes, 1)
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.done = 0
        self.shown = False
        self.last = 0.0

    def advance(self, n: int, label: str = "") -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < 0.5 or now - self.last < 0.1:
            return
        self.last = now
        frac = min(self.done / self.total, 1.0)
        bar = "#" * int(frac * 30)
        name = os.path.basename(label)[-30:]
        elapsed = now - self.start
        left = f", ~{elapsed * (1 - frac) / frac:.0f} s left" if frac > 0.02 else ""
        sys.stderr.write(f"\rloading [{bar:<30}] {frac:6.1%} {elapsed:.0f} s{left} {name:<30}")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 100 + "\r")
            sys.stderr.flush()
