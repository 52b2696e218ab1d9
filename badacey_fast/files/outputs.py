"""Where outputs go: never over an input, and whole or not at all.

Every writer of the package (payouts as text, CSV, Arrow or Parquet; generated deal files; a Dask payout
folder) goes through this module:

- :func:`output_format` is the one rule that reads an output's format from its extension, and refuses an
  extension its writer does not know (before any work).
- :func:`check_not_input` is the one rule that decides whether an output would overwrite an input (the
  same path, a hard link, a symlink to it, the same open file; for a folder, one that holds an input).
  Callers ask it before anything is opened for writing; :func:`check_distinct`, that two outputs of one
  run are two files.
- :class:`AtomicFile` writes a temporary file beside the target and renames it over the target once it
  is whole.  On an error or an interrupt the old file is left untouched and the temporary is removed.
- :class:`AtomicFolder` does the same for a folder of files, and refuses to replace a folder that is not
  empty unless ``overwrite=True``.

A path under ``/dev`` or ``/proc`` (``/dev/null``, ``/dev/stdout``), or one that names a device, a FIFO
or a socket, is opened as it is: nothing can be renamed over it.  A symlink is followed: the file it
points to is replaced and the link stays.  Other hard links to a replaced file keep the old bytes.  A
new file gets the usual mode from the umask.  Nothing is synced to disk: a run that is interrupted or
fails leaves the old output, but a power cut just after a rename may leave either version (or, on some
file systems, an empty file), as with any program that does not call ``fsync``.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import secrets
import shutil
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import FrameType
from typing import Any, cast

from badacey_fast.errors import BadaceyError, FileFormatError

__all__ = ["output_format", "check_not_input", "check_distinct", "AtomicFile", "AtomicFolder"]


# ------------------------------------------------------------------------------------------------------
# Which format an output is written in


def output_format(path: str | os.PathLike[str], formats: Mapping[str, str], what: str) -> str:
    """The format ``formats`` maps ``path``'s extension to (compared in lower case; the key ``""`` is a
    path with no extension), or an :class:`~badacey_fast.errors.FileFormatError` naming the path and the
    extensions ``formats`` accepts.  ``what`` names the kind of file in the message (``"hand records"``).

    >>> formats = {".parquet": "parquet", ".csv": "csv"}
    >>> output_format("run/hands.CSV", formats, "hand records")
    'csv'
    >>> output_format("hands.xlsx", formats, "hand records")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.FileFormatError: 'hands.xlsx': unknown extension '.xlsx' for hand records, expected .parquet or .csv
    """
    name = os.fspath(path)
    ext = os.path.splitext(name)[1].lower()
    found = formats.get(ext)
    if found is None:
        accepted = tuple(formats)
        named = [e for e in accepted if e] + (["no extension"] if "" in formats else [])
        listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"
        raise FileFormatError(f"{name!r}: unknown extension {ext or '(none)'!r} for {what}, expected {listed}",
                                name, accepted)
    return found


# ------------------------------------------------------------------------------------------------------
# Is this output an input?


def _identity(obj: object) -> tuple[int, int, bool] | None:
    """(device, inode, is a folder) of the regular file or folder that a path names or that an open stream
    reads or writes.  Returns None for anything else: a path that does not exist, a device, a pipe, a
    terminal, or an in-memory stream.  A terminal may be stdin and stdout at once, and that is no
    conflict."""
    try:
        if isinstance(obj, (str, bytes, os.PathLike)):
            info = os.stat(obj)  # follows symlinks: a link to the input is the input
        else:
            fileno = getattr(obj, "fileno", None)
            if not callable(fileno):
                return None
            info = os.fstat(fileno())
    except (OSError, ValueError, TypeError):  # absent, unreadable, closed, no descriptor (io.UnsupportedOperation)
        return None
    if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode):
        return info.st_dev, info.st_ino, stat.S_ISDIR(info.st_mode)
    return None


def _name(obj: object) -> str:
    if isinstance(obj, (str, bytes, os.PathLike)):
        return repr(os.fsdecode(obj))
    name = getattr(obj, "name", None)
    return repr(name) if isinstance(name, (str, int)) else repr(obj)


def check_not_input(output: object, inputs: Iterable[object]) -> None:
    """Raise a :class:`~badacey_fast.errors.BadaceyError` if writing ``output`` (a path or an open stream)
    would overwrite one of ``inputs`` (paths or open streams).

    An output is an input when both name the same regular file: the same path, a hard link, a symlink to
    it, or a stream open on it (``badacey score - -o deals.txt < deals.txt``).  An output folder conflicts
    with an input that lies inside it, because replacing the folder would delete the input.  Nothing that
    does not exist yet, and nothing that is not a regular file or folder (a terminal, a pipe,
    ``/dev/null``), conflicts.

    >>> import os, tempfile
    >>> deals = os.path.join(tempfile.mkdtemp(), "deals.txt")
    >>> with open(deals, "w") as f:
    ...     _ = f.write("As2h3d4c5s 2c3h4d5c6s\\n")
    >>> check_not_input(deals + ".csv", [deals])  # another file: fine
    >>> os.link(deals, deals + ".link")
    >>> check_not_input(deals + ".link", [deals])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: output '...deals.txt.link' is the input '...deals.txt' (the same file): write the output elsewhere
    >>> check_not_input(os.path.dirname(deals), [deals])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: output folder '...' holds the input '...deals.txt': replacing it would delete the input; write the output elsewhere
    """
    target = _identity(output)
    if target is None:
        return
    for source in inputs:
        here = _identity(source)
        if here is None:
            continue
        if here[:2] == target[:2]:
            raise BadaceyError(f"output {_name(output)} is the input {_name(source)} (the same file): "
                               "write the output elsewhere")
        if target[2] and isinstance(source, (str, bytes, os.PathLike)):
            # Each folder above the input, with links resolved, compared by inode: a bind mount or a
            # symlinked folder holding the input is caught as well as a plain parent.
            folder = os.path.realpath(os.fsdecode(source))
            while True:
                parent = os.path.dirname(folder)
                if parent == folder:
                    break
                folder = parent
                above = _identity(folder)
                if above is not None and above[:2] == target[:2]:
                    raise BadaceyError(f"output folder {_name(output)} holds the input {_name(source)}: "
                                       "replacing it would delete the input; write the output elsewhere")


def check_distinct(outputs: Mapping[str, str | os.PathLike[str] | None]) -> None:
    """Raise a :class:`~badacey_fast.errors.BadaceyError` if two of ``outputs`` (what each is, as a user
    calls it -- a command's flag -- to its path; None: not asked for) name the same file: the later would
    replace the earlier.  Paths are compared with links resolved (the files need not exist yet).

    >>> check_distinct({"--save": "s.npz", "--checkpoint": "c.npz", "--plot": None})
    >>> check_distinct({"--save": "s.npz", "--checkpoint": "./s.npz"})
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: --save and --checkpoint name the same file './s.npz': give each its own
    """
    seen: dict[str, str] = {}
    for what, path in outputs.items():
        if path is None:
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise BadaceyError(f"{seen[key]} and {what} name the same file {os.fsdecode(path)!r}: give each its own")
        seen[key] = what


# ------------------------------------------------------------------------------------------------------
# Whole or not at all


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the duration: a rename and its clean-up run to the end, then the
    signal takes effect as usual.  Python runs signal handlers in the main thread only, so the handlers
    are swapped only there; no other thread sees a KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous: dict[int, Any] = {}
    try:
        for held in (signal.SIGINT, signal.SIGTERM):
            previous[held] = signal.signal(held, hold)
        yield
    finally:
        for restored, handler in previous.items():
            signal.signal(restored, handler)
        for signum in dict.fromkeys(caught):  # each signal once, in the order it came
            handler = previous.get(signum)
            if callable(handler):
                handler(signum, None)  # Python's SIGINT handler raises KeyboardInterrupt here
            elif handler == signal.SIG_DFL:
                signal.raise_signal(signum)


@functools.lru_cache(maxsize=1)
def _renameat2() -> Callable[..., int] | None:
    """glibc's ``renameat2``, or None where there is none (another system, an older C library)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn: Any = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return cast("Callable[..., int]", fn)


_AT_FDCWD, _RENAME_EXCHANGE = -100, 2


def _exchange(new: str, target: str) -> bool:
    """Swap ``new`` and an existing ``target`` in one step (Linux ``renameat2(RENAME_EXCHANGE)``).  Returns
    False where that cannot be done (no such call, a file system without it, ``target`` absent); the caller
    then renames.

    Why swap rather than rename over the target: a rename cannot replace a folder that is not empty, and
    ext4 (with ``auto_da_alloc``, its default) starts writing a file's data back when it is renamed over
    an existing file, and the rename waits for it.  Writing a 256 MB file and renaming it over an older
    one took 0.34-0.49 s, against 0.19-0.25 s when the two were swapped instead (five rounds, measured on
    ext4).  The old file, now under the temporary's name, is then unlinked."""
    fn = _renameat2()
    if fn is None:
        return False
    return fn(_AT_FDCWD, os.fsencode(new), _AT_FDCWD, os.fsencode(target), _RENAME_EXCHANGE) == 0


def _spare(folder: str, name: str, suffix: str) -> str:
    """A name for a temporary beside ``name`` in ``folder``: hidden, random, and not in use yet."""
    while True:
        path = os.path.join(folder, f".{name}.{secrets.token_hex(6)}{suffix}")
        if not os.path.lexists(path):
            return path


def _writable_folder(folder: str, target: str) -> None:
    """Raise the OSError, naming ``target``, that writing a new file into ``folder`` would raise."""
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, f"no folder {folder!r} to write into", target)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"folder {folder!r} is not writable", target)


def _direct(path: str) -> bool:
    """Whether ``path`` is written in place: a path under /dev or /proc (``/dev/stdout`` follows the
    process's own descriptor, which may be a file the shell appends to), or an existing device, FIFO or
    socket."""
    if path.startswith(("/dev/", "/proc/")):
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


class _WholeOrNothing:
    """What a ``with`` block of an atomic output does at its end: commit when it ends normally (discarding
    if the commit itself fails), discard on any exception."""

    __slots__ = ()

    def commit(self) -> None:
        raise NotImplementedError

    def discard(self) -> None:
        raise NotImplementedError

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            try:
                self.commit()
            except BaseException:
                self.discard()
                raise
        else:
            self.discard()


class AtomicFile(_WholeOrNothing):
    """A file written whole or not at all: writers write to :attr:`path`, a temporary beside the target.
    :meth:`commit` puts it in the target's place, and :meth:`discard` removes it so that the old file
    stays as it was.  Used as a context manager, it commits when the block ends normally and discards on
    any exception (an error, ``KeyboardInterrupt``).

    The temporary is a hidden file ``.NAME.XXXXXXXXXXXX.tmp`` in the target's folder (after following
    symlinks), so the rename never crosses file systems.  Writers create it themselves, by path or with
    :meth:`open`.  A target that is a folder, or a folder that is missing or not writable, raises the
    OSError (naming the target) here, before any work is done.  A device or FIFO target (``/dev/null``)
    is written in place: :attr:`path` is the target itself, and commit and discard do nothing.

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "payouts.csv")
    >>> with AtomicFile(target) as out, out.open() as f:
    ...     _ = f.write(b"row,payout_0\\n")
    >>> with open(target, "rb") as f:
    ...     f.read()
    b'row,payout_0\\n'
    >>> with AtomicFile(target) as out, out.open() as f:
    ...     _ = f.write(b"half a fi")
    ...     raise ValueError("line 2: bad card")  # or a KeyboardInterrupt, a full disk...
    Traceback (most recent call last):
    ...
    ValueError: line 2: bad card
    >>> with open(target, "rb") as f:
    ...     f.read(), sorted(os.listdir(os.path.dirname(target)))
    (b'row,payout_0\\n', ['payouts.csv'])
    """

    def __init__(self, target: str | os.PathLike[str]) -> None:
        self.target = os.fspath(target)
        self._final: str | None = None  # the file replaced on commit (None: written in place)
        if _direct(self.target):
            self.path = self.target
            return
        final = os.path.realpath(self.target)
        if os.path.isdir(final):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), self.target)
        folder, name = os.path.split(final)
        _writable_folder(folder, self.target)
        self._final = final
        self.path = _spare(folder, name, ".tmp")

    def open(self) -> Any:
        """:attr:`path` opened for writing bytes, as a new file (created here, never truncated)."""
        return open(self.path, "ab" if self._final is None else "xb")

    def commit(self) -> None:
        """Put the temporary in the target's place (the target's other hard links keep the old bytes)."""
        if self._final is None:
            return
        with _signals_deferred():
            if _exchange(self.path, self._final):
                os.unlink(self.path)  # the old file, now under the temporary's name
            else:
                os.replace(self.path, self._final)

    def discard(self) -> None:
        """Remove the temporary, if it was made: the target stays as it was."""
        if self._final is None:
            return
        with _signals_deferred(), contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    def __enter__(self) -> AtomicFile:
        return self



def _remove_tree(path: str) -> None:
    """Remove a folder and everything in it.  Try again while it reappears: a task still running on
    another thread or worker may create a file in it while it is being removed (its next file then
    fails, the folder being gone)."""
    for _ in range(50):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.lexists(path):
            return
        time.sleep(0.02)
    shutil.rmtree(path)  # still there: raise what stops it


class AtomicFolder(_WholeOrNothing):
    """A folder of files written whole or not at all (a Dask run's payout parts), as a context manager:
    entering the block makes :attr:`path`, a new hidden folder beside the target, where writers put their
    files.  When the block ends normally that folder takes the target's place (:meth:`commit`); on any
    exception it is removed and the old folder stays as it was (:meth:`discard`).

    A target that exists and is not empty is refused unless ``overwrite=True``, because a folder may hold
    anything.  With ``overwrite``, the whole old folder is replaced, including files this run did not
    write, and it is removed only after the new one stands in its place: on Linux the two are swapped in
    one step, and elsewhere the old folder is renamed aside first, then removed.  A target that is a file
    is an error.  Missing parent folders are created.

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "payouts")
    >>> with AtomicFolder(target) as out:
    ...     open(os.path.join(out.path, "part-00000.parquet"), "wb").close()
    >>> os.listdir(target)
    ['part-00000.parquet']
    >>> AtomicFolder(target)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: output folder '...payouts' is not empty: give --overwrite (overwrite=True) to replace it and everything in it
    """

    def __init__(self, target: str | os.PathLike[str], *, overwrite: bool = False) -> None:
        self.target, self.overwrite = os.fspath(target), overwrite
        self._final = os.path.realpath(self.target)
        if os.path.lexists(self._final) and not os.path.isdir(self._final):
            raise NotADirectoryError(errno.ENOTDIR, "not a folder: the Dask payouts are a folder of files", self.target)
        if not overwrite and self._occupied():
            raise BadaceyError(f"output folder {self.target!r} is not empty: give --overwrite (overwrite=True) "
                               "to replace it and everything in it")
        parent, name = os.path.split(self._final)
        os.makedirs(parent, exist_ok=True)
        _writable_folder(parent, self.target)
        self.path = _spare(parent, name, ".tmp")  # made on entering the block

    def __enter__(self) -> AtomicFolder:
        # Made here rather than in __init__: a KeyboardInterrupt between the two would leave it behind, as
        # the block's __exit__ runs only once __enter__ has returned.
        try:
            os.mkdir(self.path)  # the usual mode from the umask, which the renamed folder keeps
        except FileExistsError:  # taken since the name was drawn: draw another
            self.path = _spare(*os.path.split(self._final), ".tmp")
            return self.__enter__()
        except BaseException:
            self.discard()
            raise
        return self

    def _occupied(self) -> bool:
        if not os.path.isdir(self._final):
            return False
        with os.scandir(self._final) as entries:
            return any(True for _ in entries)

    def commit(self) -> None:
        """Put the new folder in the target's place; the old one, if any, is then removed."""
        with _signals_deferred():
            if not self._occupied():
                try:
                    os.replace(self.path, self._final)  # over nothing, or over an empty folder
                    return
                except OSError as exc:
                    if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                        raise
            if not self.overwrite:  # something was written into the target meanwhile
                raise BadaceyError(f"output folder {self.target!r} is no longer empty: nothing was replaced")
            if _exchange(self.path, self._final):
                _remove_tree(self.path)  # the old folder, now under the temporary's name
                return
            aside = _spare(os.path.dirname(self._final), os.path.basename(self._final), ".old")
            os.rename(self._final, aside)
            try:
                os.rename(self.path, self._final)
            except BaseException:
                os.rename(aside, self._final)
                raise
            _remove_tree(aside)

    def discard(self) -> None:
        """Remove the new folder and everything in it: the target stays as it was."""
        with _signals_deferred():
            _remove_tree(self.path)

