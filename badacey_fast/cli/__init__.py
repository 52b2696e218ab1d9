"""The ``badacey`` command: one module per group of subcommands (command.py lists them)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``badacey`` command line (:func:`badacey_fast.cli.command.main`); returns the exit status.

    The console script's entry point.  The command's modules are imported here, inside the call, so that a
    Ctrl-C while they load ends the command as one anywhere else does: one line on stderr, status 130.
    """
    from badacey_fast.cli.signals import report

    try:
        from badacey_fast.cli.command import main as run
    except KeyboardInterrupt:
        return report("badacey", "interrupted")
    return run(argv)
