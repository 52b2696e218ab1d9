"""The progress bar of the long CLI runs (``badacey draw``, ``best-discard``, ``equity``): one line on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """A one-line stderr progress bar that appears only once a run has lasted a second."""

    def __init__(self, label: str, stream: TextIO | None = None, delay: float = 1.0) -> None:
        self.label, self.stream, self.delay = label, stream or sys.stderr, delay
        self.start = time.monotonic()
        self.shown = False
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.start < self.delay or (now - self.last < 0.1 and done < total):
            return
        self.last, self.shown = now, True
        frac = done / total if total else 1.0
        bar = "#" * int(30 * frac)
        self.stream.write(f"\r{self.label} [{bar:<30}] {100 * frac:5.1f}% {done:,}/{total:,} ({now - self.start:.0f}s)")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line (only if it was drawn)."""
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
