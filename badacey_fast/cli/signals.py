"""How the ``badacey`` command ends on a signal: Ctrl-C (SIGINT) prints one line and exits with status 130,
SIGTERM one line and 143, never a traceback, at any point from the package's first import on.

Outputs are written whole or not at all (:mod:`badacey_fast.files.outputs`): the exception a signal raises
unwinds through the writers, which remove their temporaries and leave the old output in place.  This
module imports nothing of the package but :mod:`badacey_fast.errors` (which imports nothing), so that
the package's ``__init__`` can call :func:`interrupted_while_starting` while its own imports are under way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from types import FrameType

from badacey_fast.errors import Terminated

__all__ = ["sigterm_raises", "report", "interrupted_while_starting", "refused_while_starting"]

#: Exit status for each signal: 128 + its number, as a shell reports a process the signal ended.
STATUS = {"interrupted": 128 + signal.SIGINT, "terminated": 128 + signal.SIGTERM}



@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """While the command runs, SIGTERM raises :class:`~badacey_fast.errors.Terminated` in the main thread
    (its default ends the process at once, leaving an output's temporary behind).  Elsewhere, or when
    SIGTERM already has a handler, nothing changes."""
    def terminate(signum: int, frame: FrameType | None) -> None:
        raise Terminated

    installed = False
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        try:
            signal.signal(signal.SIGTERM, terminate)
            installed = True
        except ValueError:  # not the main thread: only it may set a handler (and not `threading`, whose
            pass            # import the command's start-up would pay to ask)
    if not installed:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def report(name: str, what: str) -> int:
    """Print ``NAME: interrupted`` (or ``terminated``) on stderr; return the exit status.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     report("badacey score", "interrupted")
    130
    >>> err.getvalue()
    'badacey score: interrupted\\n'
    """
    print(f"{name}: {what}", file=sys.stderr)
    return STATUS[what]


def _is_the_command() -> bool:
    """True when this process is the ``badacey`` command: its console script, ``python -m badacey_fast``
    or ``python -m badacey_fast.cli``."""
    script = os.path.basename(sys.argv[0]) if sys.argv else ""
    for ending in ("-script.pyw", "-script.py", ".exe"):
        script = script.removesuffix(ending)
    argv = list(getattr(sys, "orig_argv", []))
    run_as_module = "-m" in argv[:-1] and argv[argv.index("-m") + 1] in ("badacey_fast", "badacey_fast.cli")
    return script == "badacey" or run_as_module


def interrupted_while_starting() -> None:
    """Called by the package's ``__init__`` when Ctrl-C stops its first imports: if this process is the
    ``badacey`` command (its console script, ``python -m badacey_fast`` or ``python -m badacey_fast.cli``),
    print the one line the command prints and exit with status 130; otherwise return, and the
    KeyboardInterrupt goes on."""
    if _is_the_command():
        raise SystemExit(report("badacey", "interrupted"))


def refused_while_starting(error: Exception) -> None:
    """Called by the package's ``__init__`` when a ``BADACEY_FAST_*`` variable's value is refused
    (:class:`~badacey_fast.errors.SettingError`) as the package loads: if this process is the ``badacey``
    command, print ``badacey: error: <the message>`` on stderr and exit with status 2 (bad input, before
    any output); otherwise return, and the error goes on to the importer."""
    if _is_the_command():
        print(f"badacey: error: {error}", file=sys.stderr)
        raise SystemExit(2)
