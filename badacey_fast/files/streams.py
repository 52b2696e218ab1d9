"""Byte streams for scoring files: paths or open streams, standard output, blocks of whole lines.

Kept apart from :mod:`badacey_fast.files.score` so the deal-file writer (:mod:`badacey_fast.files.generate`)
shares the same opening rules without importing the scorer.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import BinaryIO, Protocol, TextIO, cast

from badacey_fast.errors import ShowdownError
from badacey_fast.files.outputs import AtomicFile

MAX_LINE = 1 << 20  # a "line" longer than 1 MiB is not a deal: refuse it instead of buffering forever


def too_long(line: int) -> ShowdownError:
    """The error for a line over the limit (its bytes without the line end), wherever it stands."""
    return ShowdownError(f"line {line}: longer than {MAX_LINE} bytes")


class _TextSink:
    """Bytes written to a text stream that has no binary buffer (doctest's, an IDE's stdout)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, data: bytes | memoryview) -> int:
        return self.stream.write(bytes(data).decode())

    def flush(self) -> None:
        self.stream.flush()


def stdout_bytes() -> BinaryIO:
    """Standard output as bytes.  (The sinks here stand in for a BinaryIO: the writers only write, flush
    and close, which each provides; hence the casts.)"""
    buffer: BinaryIO | None = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        return cast(BinaryIO, _TextSink(sys.stdout))
    sys.stdout.flush()  # keep anything already printed ahead of our bytes
    return buffer


class _NamedSink:
    """An output stream whose write errors name it: a failed write (a full disk, a closed pipe) raises an
    OSError without a file name, and the command's one error line must say which file it was."""

    def __init__(self, stream: BinaryIO, name: object) -> None:
        self.stream, self.name = stream, name

    def _named(self, exc: OSError) -> OSError:
        if exc.filename is None and self.name is not None:
            exc.filename = self.name
        return exc

    def write(self, data: bytes | memoryview) -> int:
        try:
            return self.stream.write(data)
        except OSError as exc:
            raise self._named(exc) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise self._named(exc) from None

    def close(self) -> None:
        try:
            self.stream.close()
        except OSError as exc:
            raise self._named(exc) from None


class opened:
    """Open a path, or use a given stream (left open), as a context manager; an output's errors name it.

    A path opened for writing ("wb") is an :class:`~badacey_fast.files.outputs.AtomicFile`: the bytes go
    to a temporary beside it, which replaces the file when the block ends normally and is removed on any
    exception, leaving the old file untouched.  (The file is opened on entering the block, not before: an
    interrupt between the two would leave a temporary that no ``__exit__`` removes.)"""

    def __init__(self, target: object, mode: str) -> None:
        self.target, self.mode = target, mode
        self.own = isinstance(target, (str, bytes, os.PathLike))
        # An output path is checked here (a folder, a missing or read-only folder: an error naming it).
        self.atomic: AtomicFile | None = None
        if isinstance(target, (str, bytes, os.PathLike)) and "w" in mode:
            self.atomic = AtomicFile(os.fsdecode(target))

    def __enter__(self) -> BinaryIO:
        target, mode = self.target, self.mode
        if isinstance(target, (str, bytes, os.PathLike)):
            name: object = os.fsdecode(target)
            try:
                # mode is always a binary one ("rb", "wb")
                self.stream = cast(BinaryIO, self.atomic.open() if self.atomic is not None else open(target, mode))
            except BaseException:
                if self.atomic is not None:
                    self.atomic.discard()
                raise
        else:
            self.stream = cast(BinaryIO, target)  # a caller's stream: its errors surface where it is used
            name = getattr(target, "name", None)
        if "w" in mode:
            self.stream = cast(BinaryIO, _NamedSink(self.stream, name if isinstance(name, str) else None))
        return self.stream

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if not self.own:
            self.stream.flush()  # what was written stays written: a stream cannot be taken back
            return
        try:
            self.stream.close()  # a full disk may show only now
        except BaseException:
            if self.atomic is not None:
                self.atomic.discard()
            raise
        if self.atomic is not None:
            self.atomic.__exit__(kind, *rest)


class LineCount(Protocol):
    """What :func:`line_blocks` reads of its reader (the scorer): the lines it has taken so far, for the
    number a too-long line's error names."""

    line: int


def line_blocks(fin: BinaryIO, size: int, scorer: LineCount) -> Iterator[bytes]:
    """Blocks of complete lines (each ends with "\\n", "\\r\\n" or a lone "\\r", except perhaps the file's
    last).  Each line is checked against the limit where it is parsed; here only the unfinished line
    carried from read to read is, so that it is refused instead of buffered without end."""
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
        # A CR at the very end may be the first half of a CRLF whose LF comes with the next read: until
        # then it does not end a line.
        limit = len(data) - 1 if data.endswith(b"\r") else len(data)
        cut = max(data.rfind(b"\n", 0, limit), data.rfind(b"\r", 0, limit)) + 1
        if cut == 0:
            if limit > MAX_LINE:
                raise too_long(scorer.line + 1)
            carry = data
            continue
        carry = data[cut:]
        yield data[:cut]

