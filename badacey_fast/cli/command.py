"""The ``badacey`` command.

Each group of subcommands lives in a module of :mod:`badacey_fast.cli` exposing
``register(subparsers)``; every handler returns an exit status.  :data:`COMMANDS` names each subcommand's
module and one-line summary, so that a run imports only the module of the subcommand it runs (numpy,
the engine or Dask only when that subcommand needs them) and ``badacey --help`` lists them all without
importing any.

Exit statuses: 0 done, 1 a damaged install (a table file), 2 bad input, a bad ``BADACEY_FAST_*`` setting
or a missing optional extra (one line on stderr, never a traceback), 130 Ctrl-C, 143 SIGTERM
(:mod:`badacey_fast.cli.signals`); an interrupted run leaves the old output.

>>> main(["eval", "As 2h 3d 4c 5s", "--json"])
{"game": "badacey", "cards": "As 2h 3d 4c 5s", "low": {"rank": 1, "of": 6175, "words": "5-4-3-2-A low"}, "badugi": {"rank": 1, "of": 1092, "words": "4-3-2-A badugi"}}
0
>>> [name for name, _, _ in COMMANDS][:3]
['eval', 'showdown', 'demo']
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from badacey_fast.cli.signals import report, sigterm_raises
from badacey_fast.errors import BadaceyError, MissingExtraError, TableIntegrityError, Terminated

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy reads it alike
if TYPE_CHECKING:
    from typing import Any

#: Every subcommand, in the order of ``badacey --help``: (name, module under badacey_fast.cli, summary).
#: The summary is the one home of the line ``badacey --help`` prints for a command (printed without importing
#: its module; a ``help=`` a module's ``register`` gives is replaced by it); each module's ``register`` adds
#: everything else about its commands.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("eval", "hands", "one hand's halves (both, or the one its game plays): rank (lower is better), words"),
    ("showdown", "hands", "split a pot between hands: who wins which half, payouts per seat"),
    ("demo", "hands", "seed 000's worked examples: scoop, one-way hand, quartered pot"),
    ("draw", "draw", "exact outcomes of one draw (lower rank is better)"),
    ("best-discard", "draw", "rank every discard of a hand (32 of five cards, 16 of four)"),
    ("equity", "draw", "each seat's expected pot share, at showdown now or after 1-3 draws"),
    ("simulate", "game", "bots play many hands; winnings per 100 hands"),
    ("play", "game", "play against bots in the terminal"),
    ("score", "score", "settle a file of deals (text, CSV, Parquet or Arrow) and write payouts and winners "
                       "as CSV, Parquet or Arrow; or --generate random deals"),
    ("build-tables", "tables", "regenerate the lookup tables (fixes a missing or damaged table)"),
    ("import", "histories", "read real hand histories (PokerStars, Full Tilt, Winamax, KingsClub, Merge, "
                            "OnGame, Boss)"),
    ("solve", "solve", "solve a small draw game (CFR+), train MCCFR, or measure a bot (LBR)"),
    ("completion", "completion", "print a shell completion script (bash or zsh)"),
)

#: The modules of :data:`COMMANDS`, in order, each once (what ``build_parser(full=True)`` registers).
COMMAND_MODULES = tuple(dict.fromkeys(f"badacey_fast.cli.{module}" for _, module, _ in COMMANDS))

#: The optional libraries and the pip extra that installs each (pyproject.toml's extras): a command whose
#: code imports one that is missing without saying so (a MissingExtraError) still ends with one line naming
#: the extra, not a traceback.
EXTRA_OF = {"pyarrow": "parquet", "pandas": "pandas", "dask": "dask", "distributed": "dask",
            "matplotlib": "plot", "gymnasium": "rl", "pettingzoo": "rl", "pyspiel": "openspiel"}

DESCRIPTION = "Evaluate, compare and settle Badacey and Badeucy hands (lower rank is better)."
EPILOG = ("'badacey COMMAND --help' describes each command.  Exit status: 0 done, 1 a damaged install, "
          "2 bad input, a bad BADACEY_FAST_* variable or a missing optional extra, 130 Ctrl-C, 143 SIGTERM.")


def summary(name: str) -> str:
    """The one-line summary of subcommand ``name`` that ``badacey --help`` prints.

    >>> summary("eval")
    "one hand's halves (both, or the one its game plays): rank (lower is better), words"
    >>> summary("nonsense")
    Traceback (most recent call last):
    ...
    KeyError: 'nonsense'
    """
    for command, _, text in COMMANDS:
        if command == name:
            return text
    raise KeyError(name)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` reads it for argparse's help (``$COLUMNS``, else
    standard output's terminal, else 80), without importing shutil: with bz2 and lzma it was ~6 M
    instructions of ``badacey eval``'s start (argparse asks at every ``add_argument``)."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # no stdout, or not a terminal
            columns = 0
    return columns or 80


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, its width read by :func:`_columns` (the same width, found sooner)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


class _ArgumentParser(argparse.ArgumentParser):
    """argparse's parser with :class:`_HelpFormatter` by default (its subcommands' parsers are this class too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


class _Version(argparse.Action):
    """``--version``: the version is looked up only when asked for (reading the installed metadata costs
    import time every other run would pay)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from badacey_fast.version import installed_version

        print(f"badacey_fast {installed_version()}")
        parser.exit()


def build_parser(full: bool = True, command: str | None = None, listing: bool = True) -> argparse.ArgumentParser:
    """The argument parser of ``badacey``.

    ``full=True``: every subcommand registered by its module, each with all its options (what shell
    completion and the docs need; imports every command module, numpy among them).  ``full=False``: only
    the module of subcommand ``command`` (if it names one) is imported and registers its subcommands;
    every other subcommand is a placeholder with its summary, enough for ``badacey --help`` and for
    argparse's "invalid choice" message -- unless ``listing=False``, for a run that cannot print the list
    (its first word is its command): no placeholders then (each is a parser to build, ~1 M instructions).

    >>> parser = build_parser(full=False)
    >>> parser.parse_args(["eval", "As 2h 3d 4c 5s"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    >>> build_parser(full=False, command="eval").parse_args(["eval", "As2h3d4c5s"]).cards
    ['As2h3d4c5s']
    """
    import importlib

    parser = _ArgumentParser(prog="badacey", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    wanted = next((module for name, module, _ in COMMANDS if name == command), None)
    registered: set[str] = set()
    for name, module, text in COMMANDS:
        if name in registered:
            continue
        if full or module == wanted:
            before = set(sub.choices)
            importlib.import_module(f"badacey_fast.cli.{module}").register(sub)
            registered |= set(sub.choices) - before
        elif listing or wanted is None:
            # A placeholder: listed by --help; never parsed (the run that names it builds its real parser).
            sub.add_parser(name, help=text, add_help=False)
    # The listing prints COMMANDS' summaries, whichever module registered a command and with what help=
    # (a subparser's help= is shown nowhere else): one home, the same lines whether a module was imported.
    # (A command missing from COMMANDS keeps its own help= here, and tests/test_cli_frame.py fails: without a
    # line in the table a run cannot find its module.)
    summaries = {name: text for name, _, text in COMMANDS}
    for listed in sub._choices_actions:
        listed.help = summaries.get(listed.dest, listed.help)
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The subcommand argv names: its first word that is not an option (``badacey`` itself takes only
    ``-h``/``--help`` and ``--version``, which take no value)."""
    for i, word in enumerate(argv):
        if word == "--":
            return argv[i + 1] if i + 1 < len(argv) else None
        if not word.startswith("-"):
            return word
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``badacey`` command line; returns the exit status (0 ok, 1 broken install, 2 bad input, a
    bad setting or a missing extra, 130 interrupted by Ctrl-C, 143 by SIGTERM)."""
    name = "badacey"
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        with sigterm_raises():
            named = _command_named(words)
            # Only `badacey --help` and an unknown command list the commands: a run whose first word is a
            # command it knows leaves the other commands out (eval, run per hand, starts sooner).
            listing = not (words and words[0] == named and any(name == named for name, _, _ in COMMANDS))
            try:
                parser = build_parser(full=False, command=named, listing=listing)
            except MissingExtraError as exc:  # a module of the command needs an extra at import
                print(f"badacey: error: {exc}", file=sys.stderr)
                return 2
            args = parser.parse_args(words)
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
    except ModuleNotFoundError as exc:
        top = (exc.name or "").split(".")[0]
        if top not in EXTRA_OF:  # not an optional library: a broken install, with its traceback
            raise
        print(f'badacey {args.command}: error: this needs {top}: pip install "badacey_fast[{EXTRA_OF[top]}]"',
              file=sys.stderr)
        return 2
    except TableIntegrityError as exc:  # the message names the file and the command that rebuilds it
        print(f"badacey {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `badacey ... | head` is fine
        return 0
