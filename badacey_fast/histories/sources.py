"""Where hand histories come from: a path, a directory, a glob, text, bytes or a file object -- read as
a stream of lines, whatever the encoding the room wrote.

Encodings: UTF-16 (little- or big-endian) with its byte-order mark, UTF-8 with or without one, and, for
files from older clients, single bytes that are not UTF-8 read as Windows-1252 (``€`` in a Winamax
amount, ``é`` in a name) rather than refused.  Line ends: ``\\n``, ``\\r\\n`` or ``\\r``.  A file is read
line by line, never whole: memory does not grow with its size.

>>> names = [name for name, _ in sources(["Seat 1: Hero ($1 in chips)\\n"])]
>>> names
['<text>']
>>> list(sources("no/such/file.txt"))
Traceback (most recent call last):
...
FileNotFoundError: no hand histories at 'no/such/file.txt': no such file, directory or glob match
"""

from __future__ import annotations

import codecs
import glob
import io
import os
from collections.abc import Iterable, Iterator
from typing import IO, Any, Union, cast

__all__ = ["Source", "sources", "open_lines", "decode", "paths_of"]

#: What :func:`sources` reads: a path (str or os.PathLike: a file, a directory read recursively, or a glob
#: pattern), history text (a str holding a line break), bytes, a file object (text or binary), or an
#: iterable of those.
Source = Union[str, "os.PathLike[str]", bytes, IO[str], IO[bytes], Iterable[object]]

_GLOB_CHARS = frozenset("*?[")


def _cp1252_fallback(err: UnicodeError) -> tuple[str, int]:
    """A codec error handler: bytes that are not UTF-8 are read as Windows-1252, one byte a character."""
    if not isinstance(err, UnicodeDecodeError):
        raise err
    bad = err.object[err.start:err.end]
    return bytes(bad).decode("cp1252", errors="replace"), err.end


codecs.register_error("badacey-cp1252", _cp1252_fallback)


def decode(data: bytes) -> str:
    """Bytes of a history file as text, by its byte-order mark (UTF-16 LE/BE, UTF-8), else UTF-8 with a
    Windows-1252 fallback for stray bytes.  A UTF-16 file cut in the middle of a character keeps every
    whole character (the broken tail becomes U+FFFD).

    >>> decode("\\ufeffHé".encode("utf-16-le") + b"\\x00"), decode(b"\\xef\\xbb\\xbfa"), decode(b"5\\x80")
    ('Hé\\ufffd', 'a', '5€')
    """
    if data.startswith(codecs.BOM_UTF16_LE):
        return data[2:].decode("utf-16-le", errors="replace")
    if data.startswith(codecs.BOM_UTF16_BE):
        return data[2:].decode("utf-16-be", errors="replace")
    if data.startswith(codecs.BOM_UTF8):
        data = data[3:]
    return data.decode("utf-8", errors="badacey-cp1252")


def _text_stream(raw: IO[bytes]) -> IO[str]:
    """A binary stream as text, its encoding chosen by its first bytes (see :func:`decode`)."""
    buffered = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(cast(Any, raw))
    head = buffered.peek(4)[:4]
    if head.startswith(codecs.BOM_UTF16_LE) or head.startswith(codecs.BOM_UTF16_BE):
        # The "utf-16" codec reads the mark and the byte order, and drops the mark.
        return io.TextIOWrapper(buffered, encoding="utf-16", errors="replace", newline=None)
    encoding = "utf-8-sig" if head.startswith(codecs.BOM_UTF8) else "utf-8"
    return io.TextIOWrapper(buffered, encoding=encoding, errors="badacey-cp1252", newline=None)


def open_lines(path: str | os.PathLike[str]) -> IO[str]:
    """Open a history file for reading lines (universal line ends, the encoding sniffed); close it after.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "h.txt")
    ...     with open(p, "wb") as out:
    ...         _ = out.write("\\ufeffline 1\\r\\nline 2\\r\\n".encode("utf-16-le"))
    ...     with open_lines(p) as f:
    ...         print(f.read().splitlines())
    ['line 1', 'line 2']
    """
    return _text_stream(open(path, "rb"))  # noqa: SIM115 - the caller closes it


def _files_of(path: str) -> list[str]:
    """The files under a directory, recursively, sorted; hidden files and folders left out."""
    out: list[str] = []
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out.extend(os.path.join(root, f) for f in files if not f.startswith("."))
    return sorted(out)


def paths_of(source: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[str]:
    """The files a path, directory (recursively), glob or list of them names, in order (hidden ones left
    out); ``FileNotFoundError`` naming a path that matches nothing.

    >>> paths_of([])
    []
    """
    if isinstance(source, (str, os.PathLike)):
        return _paths(os.fspath(source))
    return [p for item in source for p in _paths(os.fspath(item))]


def _paths(source: str) -> list[str]:
    if os.path.isdir(source):
        return _files_of(source)
    if os.path.exists(source):
        return [source]
    if _GLOB_CHARS & set(source):
        found = sorted(glob.glob(source, recursive=True))
        out: list[str] = []
        for p in found:
            out.extend(_files_of(p) if os.path.isdir(p) else [p])
        if out:
            return out
    raise FileNotFoundError(f"no hand histories at {source!r}: no such file, directory or glob match")


def sources(source: object) -> Iterator[tuple[str, IO[str]]]:
    """``(name, text stream)`` for each file or text of ``source`` (see :data:`Source`): ``name`` is the
    path, ``"<text>"`` or the file object's ``name``; the stream reads the text with universal line ends.
    Files are opened one at a time, when reached, and closed when the next is asked for.  Raises
    ``FileNotFoundError`` naming a path that matches nothing, ``TypeError`` for anything else.
    """
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if isinstance(source, str):
        if "\n" in source or "\r" in source:
            yield "<text>", io.StringIO(source, newline=None)
            return
        for path in _paths(source):
            with open_lines(path) as f:
                yield path, f
        return
    if isinstance(source, (bytes, bytearray)):
        yield "<bytes>", io.StringIO(decode(bytes(source)), newline=None)
        return
    if hasattr(source, "read"):
        name = str(getattr(source, "name", "<stream>"))
        if isinstance(source, io.TextIOBase):
            yield name, cast("IO[str]", source)
        else:
            probe = cast("IO[Any]", source).read(0)
            if isinstance(probe, str):
                yield name, cast("IO[str]", source)
            else:
                yield name, _text_stream(cast("IO[bytes]", source))
        return
    if isinstance(source, Iterable):
        for item in source:
            yield from sources(item)
        return
    raise TypeError(f"hand histories must be a path, text, bytes, a file object or a list of them, "
                    f"not {type(source).__name__}")

