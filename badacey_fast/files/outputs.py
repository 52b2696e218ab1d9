"""Where outputs go: never over an input.

:func:`check_not_input` is the one rule that decides whether an output would overwrite an input (the same
path, a hard link, a symlink to it, the same open file; for a folder, one that holds an input).  Every
scorer of the package asks it before anything is opened for writing.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

from badacey_fast.errors import BadaceyError

__all__ = ["check_not_input"]


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
