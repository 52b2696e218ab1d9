"""``badacey score`` on Parquet / Arrow deal files and datasets, and the ``--dask`` options.

``badacey score deals.parquet -o payouts.parquet`` (formats from the extensions, or ``--format``),
``badacey score --generate N -o deals.parquet`` (seeded with ``--seed``), and
``badacey score DATASET -o OUTDIR --dask [--workers N | --scheduler ADDRESS]``: a directory or glob of
Parquet files scored partition by partition on Dask (``--workers N`` starts a LocalCluster of N processes
on 127.0.0.1; ``--scheduler`` joins a running ``dask-scheduler``; neither runs Dask's threaded scheduler
in this process).  ``badacey simulate --dask`` shards the hands the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from badacey_fast.errors import BadaceyError, MissingExtraError
from badacey_fast.cli.progress import add_progress_option, progress_bar

if TYPE_CHECKING:
    from distributed import Client

    from badacey_fast.files.score import ScoreReport

__all__ = ["add_dask_arguments", "check_request", "wants_columnar", "run_columnar", "dask_client", "OUTPUT_EXTENSIONS"]

_SHOWN_ERRORS = 10
#: The extensions ``-o`` takes (no extension: CSV), by format.
OUTPUT_EXTENSIONS = {"csv": (".csv", ".txt"), "parquet": (".parquet", ".pq"),
                     "arrow": (".arrow", ".feather", ".ipc", ".arrows")}


def check_request(args: argparse.Namespace) -> None:
    """What ``badacey score`` is asked, checked before anything is read or written: ``-o``'s extension
    (one of :data:`OUTPUT_EXTENSIONS`, or none), a dataset (a directory or glob) only with ``--dask``, and
    the extras the formats need (:class:`~badacey_fast.errors.MissingExtraError`, one line naming it)."""
    out = args.output
    if out and not args.dask and out != "-" and not (os.path.exists(out) and not os.path.isfile(out)):
        from badacey_fast.files.outputs import output_format

        output_format(out, {"": "csv", **{e: fmt for fmt, exts in OUTPUT_EXTENSIONS.items() for e in exts}}, "payouts")
    src = args.file
    if src is not None and src != "-" and not args.dask and args.generate is None:
        if os.path.isdir(src) or (any(ch in src for ch in "*?[") and not os.path.exists(src)):
            what = "a directory" if os.path.isdir(src) else "a glob"
            raise BadaceyError(f"{src!r} is {what}: a dataset of Parquet files is scored with --dask, e.g. "
                               f"badacey score {src} -o payouts/ --dask ('pip install \"badacey_fast[dask]\"')")
    if args.dask:
        for module in ("dask", "distributed", "pyarrow"):
            MissingExtraError.require(module, "dask", "--dask runs")
        return
    from badacey_fast.files.arrow import file_format

    formats = set()
    if args.generate is not None:
        formats.add(args.format if args.format != "auto" else (file_format(out) if out else "text"))
    else:
        if src is not None and src != "-":
            formats.add(file_format(src, None if args.format == "auto" else args.format))
        if out:
            formats.add(file_format(out))
    if formats & {"parquet", "arrow"}:
        MissingExtraError.require("pyarrow", "parquet", "Parquet and Arrow files")


def add_dask_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """``--dask``, ``--workers N``, ``--threads-per-worker T``, ``--scheduler ADDRESS`` and ``--local-scheduler``."""
    p.add_argument("--dask", action="store_true", help=f"{what} on Dask (pip install 'badacey_fast[dask]')")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="with --dask: start a local cluster of N worker processes on 127.0.0.1")
    p.add_argument("--threads-per-worker", type=int, default=1, metavar="T",
                   help="with --workers: threads in each worker process (default 1); the kernel runs without the "
                        "GIL, and every worker maps the one 10 MB table file (one copy in memory)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --dask: a running dask-scheduler, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--local-scheduler", default="threads", choices=("threads", "sync", "processes"),
                   help="with --dask and neither --workers nor --scheduler: Dask's local scheduler (default threads)")


@contextlib.contextmanager
def dask_client(args: argparse.Namespace) -> Iterator[Client | None]:
    """The ``distributed.Client`` the arguments ask for (None: Dask's local scheduler in this process)."""
    if args.workers is not None and args.scheduler is not None:
        raise BadaceyError("give --workers N (a local cluster) or --scheduler ADDRESS, not both")
    if args.workers is not None:
        if args.workers < 1:
            raise BadaceyError(f"--workers must be at least 1, got {args.workers}")
        from badacey_fast.dask import local_client

        if args.threads_per_worker < 1:
            raise BadaceyError(f"--threads-per-worker must be at least 1, got {args.threads_per_worker}")
        with local_client(args.workers, threads_per_worker=args.threads_per_worker) as client:
            yield client
    elif args.scheduler is not None:
        from badacey_fast.dask import require_dask

        require_dask()
        from distributed import Client

        with Client(args.scheduler) as client:
            yield client
    else:
        yield None


def _out_format(args: argparse.Namespace) -> str | None:
    from badacey_fast.files.arrow import file_format

    return file_format(args.output) if args.output else None


def wants_columnar(args: argparse.Namespace) -> bool:
    """Whether this ``badacey score`` run reads or writes Arrow / Parquet (or runs on Dask)."""
    from badacey_fast.files.arrow import file_format

    if args.generate is not None:
        return args.format in ("parquet", "arrow") or (args.format == "auto" and _out_format(args) in ("parquet", "arrow"))
    if args.dask:
        return True
    if args.file is None or args.file == "-":
        return False
    fmt = file_format(args.file, None if args.format == "auto" else args.format)
    return fmt in ("parquet", "arrow") or _out_format(args) in ("parquet", "arrow")


def run_columnar(args: argparse.Namespace) -> int:
    from badacey_fast.files import arrow

    if args.generate is not None:
        if not args.output:
            raise BadaceyError("--generate with Parquet or Arrow needs -o FILE")
        fmt = args.format if args.format in ("parquet", "arrow") else None
        rows = arrow.generate_parquet(args.generate, args.output, seats=args.seats, seed=args.seed, fmt=fmt)
        if not args.quiet:
            size = os.path.getsize(args.output)
            print(f"badacey score: wrote {rows:,} deals ({size:,} bytes)", file=sys.stderr)
        return 0
    if args.file is None:
        raise BadaceyError("give a deal FILE or dataset, or --generate N")
    start = time.perf_counter()
    if args.dask:
        report, extra = _run_dask(args)
    elif arrow.file_format(args.file, None if args.format == "auto" else args.format) in ("text", "csv"):
        report, extra = _run_text(args)
        print_report(report, time.perf_counter() - start, "line", args.quiet, extra)
        return 0
    else:
        report, extra = _run_file(args)
    print_report(report, time.perf_counter() - start, "row", args.quiet, extra)
    return 0


def _run_text(args: argparse.Namespace) -> tuple[ScoreReport, str]:
    """A text or CSV deal file scored to Parquet or Arrow: the text path's payouts, chunk by chunk, as
    record batches of the payout schema (the same columns as its CSV)."""
    from badacey_fast.files import arrow
    from badacey_fast.files.outputs import check_not_input
    from badacey_fast.files.score import score_file

    check_not_input(args.output, [args.file])
    writer = arrow.PayoutWriter(args.output, arrow.file_format(args.output))
    total = None if args.file == "-" else os.path.getsize(args.file)
    bar = progress_bar(args, total=total, desc="scoring", unit="B", unit_scale=True, delay=1.0)
    try:
        report = score_file(args.file, None, game=args.game, odd_chip=args.odd_chip, pot=args.pot,
                            button=args.button, skip_bad=args.skip_bad, chunk=args.chunk,
                            fmt=args.format if args.format in ("text", "csv") else "auto",
                            progress=bar.update,
                            rows=lambda row, chips, low, bd: writer.write(arrow.payout_batch(row, chips, low, bd)))
    except BaseException:
        writer.close(keep=False)
        raise
    finally:
        bar.close()
    writer.close()
    return report, ""


def print_report(report: ScoreReport, seconds: float, unit: str, quiet: bool, extra: str = "") -> None:
    """``badacey score``'s closing words on stderr: the skipped ``unit``s (lines or rows) with their
    reasons (the first few), then unless ``quiet`` the tally and the rate."""
    for where, reason in report.errors[:_SHOWN_ERRORS]:
        print(f"badacey score: skipped {unit} {where}: {reason}", file=sys.stderr)
    if report.bad > _SHOWN_ERRORS:
        print(f"badacey score: ... and {report.bad - _SHOWN_ERRORS:,} more bad {unit}s", file=sys.stderr)
    if not quiet:
        print(f"badacey score: {report.deals:,} deals from {report.lines:,} {unit}s in {seconds:.2f} s"
              f"{_rate(report.deals, seconds)}{extra}; {report.bad:,} bad {unit}s skipped", file=sys.stderr)


def _rate(deals: int, seconds: float) -> str:
    """The run's rate, in the unit that shows it (M or k deals/s); none for fewer than 10,000 deals, whose
    time is mostly the start (imports, opening files), not scoring: a rate would say nothing.

    >>> _rate(5_000_000, 2.0), _rate(30_000, 0.5), _rate(120, 0.2)
    (' (2.50 M deals/s)', ' (60.0 k deals/s)', '')
    """
    if seconds <= 0 or deals < 10_000:
        return ""
    rate = deals / seconds
    if rate >= 1e6:
        return f" ({rate / 1e6:.2f} M deals/s)"
    return f" ({rate / 1e3:.1f} k deals/s)"


def _run_file(args: argparse.Namespace) -> tuple[ScoreReport, str]:
    from badacey_fast.files import arrow

    fmt = None if args.format == "auto" else args.format
    total = arrow.count_rows(args.file, fmt)
    big = total is not None and total >= 200_000
    bar = progress_bar(args, total=total, desc="scoring", unit=" deals", unit_scale=True,
                       delay=0.0 if big else 1.0, leave=big)
    try:
        report = arrow.score_parquet(args.file, args.output or None, game=args.game, odd_chip=args.odd_chip,
                                     pot=args.pot, button=args.button, skip_bad=args.skip_bad, fmt=fmt,
                                     progress=bar.update)
    finally:
        bar.close()
    return report, ""


def _run_dask(args: argparse.Namespace) -> tuple[ScoreReport, str]:
    from badacey_fast import dask as bdask

    if not args.output:
        raise BadaceyError("--dask writes one payout file per partition: give -o DIRECTORY")
    with dask_client(args) as client:
        result = bdask.score_dataset(args.file, args.output, game=args.game, odd_chip=args.odd_chip, pot=args.pot,
                                     button=args.button, skip_bad=args.skip_bad, overwrite=args.overwrite,
                                     client=client, scheduler=args.local_scheduler, progress=not args.no_progress)
        if client is None:
            where = f"Dask {args.local_scheduler} scheduler"
        else:
            workers = len(client.scheduler_info().get("workers", {}))
            where = f"{workers} worker{'s' if workers != 1 else ''}"
            if args.scheduler is None:
                where += f" of {args.threads_per_worker} thread{'s' if args.threads_per_worker != 1 else ''}"
    return result.report, f", {result.partitions} partitions on {where}"
