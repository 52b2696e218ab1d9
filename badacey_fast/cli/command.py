"""The ``badacey`` command.

Each group of subcommands lives in a module of :mod:`badacey_fast.cli` exposing
``register(subparsers)``; every handler returns an exit status.  Bad input prints one clear line on
stderr and exits with status 2, never a traceback; Ctrl-C and SIGTERM end it with one line too
(:mod:`badacey_fast.cli.signals`), and an interrupted run leaves the old output.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from badacey_fast.cli.signals import report, sigterm_raises
from badacey_fast.errors import BadaceyError, MissingExtraError, TableIntegrityError, Terminated

# Order is the order of `badacey --help`.
COMMAND_MODULES = (
    "badacey_fast.cli.hands",  # eval, showdown, demo
    "badacey_fast.cli.draw",  # draw, best-discard, equity
    "badacey_fast.cli.game",  # simulate, play
    "badacey_fast.cli.score",  # score (deal files), score --generate
    "badacey_fast.cli.tables",  # build-tables
    "badacey_fast.cli.histories",  # import (real hand histories)
    "badacey_fast.cli.solve",  # solve (CFR+, MCCFR, local best response)
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    from badacey_fast import __version__

    parser = argparse.ArgumentParser(
        prog="badacey",
        description="Evaluate, compare and settle Badacey and Badeucy hands (lower rank is better).",
    )
    parser.add_argument("--version", action="version", version=f"badacey_fast {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMAND_MODULES:
        importlib.import_module(module).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``badacey`` command line; returns the exit status (0 ok, 1 broken install, 2 bad input,
    130 interrupted by Ctrl-C, 143 by SIGTERM)."""
    name = "badacey"
    try:
        with sigterm_raises():
            parser = build_parser()
            args = parser.parse_args(argv)
            name = f"badacey {args.command}"
            return _run(args)
    except KeyboardInterrupt:
        return report(name, "interrupted")
    except Terminated:
        return report(name, "terminated")


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.handler(args) or 0)
    except (BadaceyError, ValueError, TypeError, MissingExtraError) as exc:
        # Bad input, a bad BADACEY_FAST_* setting, or an optional extra not installed: one line, status 2.
        print(f"badacey {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except TableIntegrityError as exc:  # the message names the file and the command that rebuilds it
        print(f"badacey {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `badacey ... | head` is fine
        return 0
