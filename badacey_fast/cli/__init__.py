"""The ``badacey`` command: one module per group of subcommands (command.py lists them)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``badacey`` command line (:func:`badacey_fast.cli.command.main`); returns the exit status.

    The console script's entry point.  The command's modules are imported here, inside the call, so that a
    signal while they load ends the command as one anywhere else does (:mod:`badacey_fast.cli.signals`).
    """
    try:
        from badacey_fast.cli.signals import report, sigterm_raises
        from badacey_fast.errors import Terminated
    except KeyboardInterrupt:  # (the line signals.report prints, which could not be imported)
        print("badacey: interrupted", file=sys.stderr)
        return 130
    try:
        with sigterm_raises():
            from badacey_fast.cli.command import main as run

            return run(argv)
    except KeyboardInterrupt:
        return report("badacey", "interrupted")
    except Terminated:
        return report("badacey", "terminated")
