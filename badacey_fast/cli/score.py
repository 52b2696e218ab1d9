"""``badacey score``: settle a file of deals (payouts and winners as CSV, Parquet or Arrow), or generate one.

Formats are described in :mod:`badacey_fast.files.score` (one deal per line: plain ``[POT [BUTTON]]
HAND HAND ...`` or CSV with a ``seat0,seat1,...`` header) and :mod:`badacey_fast.files.arrow` (Parquet
and Arrow deal files).  Every payout file has the same columns, whatever the formats in and out:
``row,payout_0,...,payout_{P-1},low_winners,badugi_winners`` (``-o``'s extension picks CSV, Parquet or
Arrow; any other extension is refused before anything is read).  A progress bar appears on stderr when a run
lasts longer than a second.  A malformed line stops the run (exit status 2) naming its line number and
the reason, unless ``--skip-bad`` is given: then bad lines are counted and listed on stderr.  (The bar
shows at once for inputs of 16 MiB or more; ``--no-progress`` turns it off.)

>>> import io, contextlib, os, tempfile
>>> from badacey_fast.cli.command import main
>>> path = os.path.join(tempfile.mkdtemp(), "deals.txt")
>>> with open(path, "w") as f:
...     _ = f.write("As2h3d4c5s 2c3h4d5c6s\\n101 1 As2h3d4cKc Ac2d3h4s5s\\n")
>>> main(["score", path, "--no-progress", "--quiet"])
row,payout_0,payout_1,low_winners,badugi_winners
1,120,0,0,0
2,26,75,1,0 1
0
>>> main(["score", path, "--chunk", "0"])          # the error line goes to stderr
2
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO, NoReturn

from badacey_fast.cli.columnar import add_dask_arguments, check_request, print_report, run_columnar, wants_columnar
from badacey_fast.errors import BadaceyError
from badacey_fast.files.score import DEFAULT_POT, ScoreReport, generate_deals, score_file
from badacey_fast.cli.progress import add_progress_option, progress_bar

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``score`` to the ``badacey`` command's subparsers.

    >>> parser = argparse.ArgumentParser(prog="badacey")
    >>> register(parser.add_subparsers(dest="command"))
    >>> parser.parse_args(["score", "deals.txt", "--odd-chip", "low"]).odd_chip
    'low'
    >>> parser.parse_args(["score", "deals.txt", "--odd-chip", "high"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    p = subparsers.add_parser(
        "score",
        help="settle a file of deals and write payouts and winners as CSV, Parquet or Arrow",
        description="Settle every deal of FILE (plain 'POT BUTTON As2h3d4c5s 2c3h4d5c6s ...' lines, CSV "
        "with a seat0,seat1,... header, or a Parquet / Arrow deal file; '-' reads stdin) and write the "
        "columns 'row,payout_0,...,payout_{P-1},low_winners,badugi_winners' as CSV (standard output, or -o "
        "FILE.csv), Parquet (-o FILE.parquet) or Arrow (-o FILE.arrow). A directory or glob of Parquet files "
        "is scored with --dask. Ranks: lower is better.",
    )
    p.add_argument("file", nargs="?", help="deal file ('-' = standard input); omit with --generate")
    p.add_argument("-o", "--output", help="output file, its format from its extension: .csv (or .txt, or none), "
                   ".parquet/.pq, .arrow/.feather/.ipc/.arrows (default: CSV on standard output); with --dask a "
                   "directory")
    p.add_argument("--game", default="badacey", help="badacey (default), badeucy, a5 or 27, any spelling (deal "
                   "files hold five-card hands)")
    p.add_argument("--odd-chip", default="position", choices=("position", "low"), help="odd-chip policy")
    p.add_argument("--pot", type=int, default=DEFAULT_POT,
                   help=f"pot (chips) of lines without one (default {DEFAULT_POT}: every split is exact)")
    p.add_argument("--button", type=int, default=0, help="button seat of lines without one (default 0)")
    p.add_argument("--skip-bad", action="store_true", help="skip and count malformed lines instead of stopping")
    p.add_argument("--chunk", type=int, default=16384,
                   help="deals per kernel call (default 16384; at most 65536 are used)")
    p.add_argument("--format", default="auto", choices=("auto", "text", "csv", "parquet", "arrow"),
                   help="input format (auto: from the extension, .parquet/.arrow, else CSV when the first line has "
                   "a comma); with --generate: the output's. Payouts: Parquet/Arrow/CSV from -o's extension")
    add_progress_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line on stderr")
    p.add_argument("--generate", type=int, metavar="N", help="instead: write N random deals to -o (or stdout)")
    p.add_argument("--seats", type=int, default=6, help="seats per generated deal (2..6, default 6)")
    p.add_argument("--seed", type=int, default=None, help="random seed for --generate")
    p.add_argument("--overwrite", action="store_true",
                   help="with --dask: replace an output folder that is not empty, and everything in it (refused "
                   "otherwise); the old folder stays until the new one is whole")
    add_dask_arguments(p, "score a Parquet dataset (a directory or glob) partition by partition")
    p.set_defaults(handler=_score)


def _score(args: argparse.Namespace) -> int:
    check_request(args)  # formats, extras: before anything is read or written
    if wants_columnar(args):  # Parquet / Arrow files, Dask (cli/columnar.py)
        with _io_errors():
            return run_columnar(args)
    if args.generate is not None:
        fmt = "text" if args.format == "auto" else args.format
        with _io_errors():
            written = generate_deals(args.generate, args.output or None, seats=args.seats, seed=args.seed,
                                     fmt=fmt)
        if not args.quiet:
            print(f"badacey score: wrote {args.generate:,} deals ({written:,} bytes)", file=sys.stderr)
        return 0
    if args.file is None:
        raise BadaceyError("give a deal FILE (or '-' for standard input), or --generate N")
    source: str | BinaryIO = sys.stdin.buffer if args.file == "-" else args.file
    try:
        total = None if args.file == "-" else os.path.getsize(args.file)
    except OSError as exc:
        raise BadaceyError(f"cannot read {args.file!r}: {exc.strerror}") from None
    # A long input (16 MiB, ~200,000 deals) shows its bar at once; otherwise the bar appears only when the
    # run lasts more than a second.
    long_input = total is not None and total >= 16 << 20
    bar = progress_bar(args, total=total, desc="scoring", unit="B", unit_scale=True,
                       delay=0.0 if long_input else 1.0, leave=long_input)
    start = time.perf_counter()
    try:
        report = _run(args, source, bar)
    finally:
        bar.close()
    print_report(report, time.perf_counter() - start, "line", args.quiet)
    return 0


def _run(args: argparse.Namespace, source: str | BinaryIO, bar: tqdm[NoReturn] | None) -> ScoreReport:
    with _io_errors():
        return score_file(
            source, args.output, game=args.game, odd_chip=args.odd_chip, pot=args.pot, button=args.button,
            skip_bad=args.skip_bad, chunk=args.chunk, fmt=args.format,
            progress=None if bar is None else bar.update,
        )


@contextlib.contextmanager
def _io_errors() -> Iterator[None]:
    """An unreadable input or unwritable output (a directory, a missing folder, a full disk) becomes one
    error line naming the file, no traceback.  A closed pipe is not an error: it goes on to the command's
    handler, which ends quietly as `badacey ... | head` expects."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise BadaceyError(f"{exc.filename or 'I/O'}: {exc.strerror or exc}") from None
