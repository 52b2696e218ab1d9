"""Byte streams for scoring files: paths or open streams, standard output, blocks of whole lines.

Kept apart from :mod:`badacey_fast.files.score` so the deal-file writer (:mod:`badacey_fast.files.generate`)
shares the same opening rules without importing the scorer.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, BinaryIO

from badacey_fast.errors import ShowdownError

if TYPE_CHECKING:
    from badacey_fast.files.score import _Scorer

_MAX_LINE = 1 << 20  # a "line" longer than 1 MiB is not a deal: refuse it instead of buffering forever


class _TextSink:
    """Bytes written to a text stream that has no binary buffer (doctest's, an IDE's stdout)."""

    def __init__(self, stream: object) -> None:
        self.stream = stream

    def write(self, data: bytes | memoryview) -> int:
        return self.stream.write(bytes(data).decode())  # type: ignore[attr-defined, no-any-return]

    def flush(self) -> None:
        self.stream.flush()  # type: ignore[attr-defined]


def _stdout() -> BinaryIO:
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        return _TextSink(sys.stdout)  # type: ignore[return-value]
    sys.stdout.flush()  # keep anything already printed ahead of our bytes
    return buffer  # type: ignore[no-any-return]


class _opened:
    """Open a path, or use a given stream (left open), as a context manager."""

    def __init__(self, target: object, mode: str) -> None:
        self.own = isinstance(target, (str, bytes, os.PathLike))
        self.stream = open(target, mode) if self.own else target  # type: ignore[arg-type]

    def __enter__(self):  # type: ignore[no-untyped-def]
        return self.stream

    def __exit__(self, *exc: object) -> None:
        if self.own:
            self.stream.close()
        else:
            self.stream.flush()


def _blocks(fin: BinaryIO, size: int, scorer: "_Scorer"):  # type: ignore[no-untyped-def]
    """Blocks of complete lines (each ends with a newline, except perhaps the file's last)."""
    carry = b""
    while True:
        data = fin.read(size)
        if not isinstance(data, bytes):
            raise TypeError(f"deal files are read as bytes: open {fin!r} in binary mode")
        if not data:
            if carry:
                yield carry
            return
        data = carry + data if carry else data
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            if len(data) > _MAX_LINE:
                raise ShowdownError(f"line {scorer.line + 1}: longer than {_MAX_LINE} bytes")
            carry = data
            continue
        carry = data[cut:]
        yield data[:cut]

