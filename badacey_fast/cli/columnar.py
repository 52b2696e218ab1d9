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
from typing import TYPE_CHECKING, Any

import numpy as np

from badacey_fast.errors import BadaceyError

if TYPE_CHECKING:
    from distributed import Client

    from badacey_fast.files.score import ScoreReport

    from badacey_fast.cli.benchmark import Case, Setup, Timed

__all__ = ["add_dask_arguments", "wants_columnar", "run_columnar", "dask_client", "bench_cases"]

_SHOWN_ERRORS = 10


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
    if fmt in ("text", "csv") and _out_format(args) in ("parquet", "arrow"):
        raise BadaceyError(f"{args.output!r}: payouts of a text or CSV deal file are written as CSV; "
                           "score a Parquet or Arrow deal file to write Parquet or Arrow payouts")
    return fmt in ("parquet", "arrow")


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
    else:
        report, extra = _run_file(args)
    print_report(report, time.perf_counter() - start, "row", args.quiet, extra)
    return 0


def print_report(report: ScoreReport, seconds: float, unit: str, quiet: bool, extra: str = "") -> None:
    """``badacey score``'s closing words on stderr: the skipped ``unit``s (lines or rows) with their
    reasons (the first few), then unless ``quiet`` the tally and the rate."""
    for where, reason in report.errors[:_SHOWN_ERRORS]:
        print(f"badacey score: skipped {unit} {where}: {reason}", file=sys.stderr)
    if report.bad > _SHOWN_ERRORS:
        print(f"badacey score: ... and {report.bad - _SHOWN_ERRORS:,} more bad {unit}s", file=sys.stderr)
    if not quiet:
        rate = report.deals / seconds / 1e6 if seconds > 0 else 0.0
        print(f"badacey score: {report.deals:,} deals from {report.lines:,} {unit}s in {seconds:.2f} s "
              f"({rate:.2f} M deals/s){extra}; {report.bad:,} bad {unit}s skipped", file=sys.stderr)


def _run_file(args: argparse.Namespace) -> tuple[ScoreReport, str]:
    from badacey_fast.files import arrow

    fmt = None if args.format == "auto" else args.format
    total = arrow.count_rows(args.file, fmt)
    bar = None
    if not args.no_progress:
        from tqdm import tqdm

        big = total is not None and total >= 200_000
        bar = tqdm(total=total, unit=" deals", unit_scale=True, delay=0.0 if big else 1.0, file=sys.stderr,
                   desc="scoring", leave=big)
    try:
        report = arrow.score_parquet(args.file, args.output or None, game=args.game, odd_chip=args.odd_chip,
                                     pot=args.pot, button=args.button, skip_bad=args.skip_bad, fmt=fmt,
                                     progress=None if bar is None else bar.update)
    finally:
        if bar is not None:
            bar.close()
    return report, ""


def _run_dask(args: argparse.Namespace) -> tuple[ScoreReport, str]:
    from badacey_fast import dask as bdask

    if not args.output:
        raise BadaceyError("--dask writes one payout file per partition: give -o DIRECTORY")
    with dask_client(args) as client:
        result = bdask.score_dataset(args.file, args.output, game=args.game, odd_chip=args.odd_chip, pot=args.pot,
                                     button=args.button, skip_bad=args.skip_bad, client=client,
                                     scheduler=args.local_scheduler, progress=not args.no_progress)
        if client is None:
            where = f"Dask {args.local_scheduler} scheduler"
        else:
            workers = len(client.scheduler_info().get("workers", {}))
            where = f"{workers} worker{'s' if workers != 1 else ''}"
            if args.scheduler is None:
                where += f" of {args.threads_per_worker} thread{'s' if args.threads_per_worker != 1 else ''}"
    return result.report, f", {result.partitions} partitions on {where}"


def bench_cases(quick: bool) -> list[Case]:
    """Benchmark cases for ``badacey bench`` (none without pyarrow and dask installed).

    Groups: ``parquet-score`` (the kernel alone on decoded deals against ``score_parquet`` end to end from
    Parquet, with and without its reader/writer threads, and from memory-mapped Arrow IPC, interleaved),
    ``dask-score`` (one process without helper threads against Dask's synchronous scheduler, a LocalCluster
    of 2 one-thread workers and one of 1 two-thread worker on the same dataset, every task also without
    helper threads), ``dask-score-totals`` (the same four without writing payouts: ``dst=None``, per-seat
    totals only) and ``dask-overhead`` (empty tasks per second: 1 / the per-task cost).
    """
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        return []
    import atexit
    import shutil
    import tempfile

    import pyarrow.parquet as pq

    from badacey_fast import dask as bdask
    from badacey_fast.bulk.showdown import showdown_many
    from badacey_fast.cli.benchmark import Case, InterleavedCase
    from badacey_fast.files import arrow

    n = 50_000 if quick else 4_000_000
    part = 25_000 if quick else 1_000_000
    # The Dask groups score a dataset of their own, as large as the one the 1.7x was measured on
    # (20 M deals, 20 partitions): each call then holds ~10 partitions a worker, so the ~20 ms a call of
    # graph submission and gathering is ~2 % of it, as on a real dataset, rather than 10 % of a 4 M one.
    n_dask = 50_000 if quick else 20_000_000
    root = tempfile.mkdtemp(prefix="badacey-bench-")
    atexit.register(shutil.rmtree, root, True)
    made: dict[str, str] = {}  # the Parquet datasets' paths ("deals", "dask"), once written
    clients: dict[tuple[int, int], Client] = {}  # LocalCluster clients by (workers, threads), once started

    def files() -> str:
        if "deals" not in made:
            arrow.generate_parquet(n, os.path.join(root, "deals.parquet"), seed=2026, row_group=part)
            arrow.generate_parquet(n, os.path.join(root, "deals.arrow"), seed=2026, row_group=part)
            made["deals"] = os.path.join(root, "deals.parquet")
        return made["deals"]

    def dask_files() -> str:
        if "dask" not in made:
            made["dask"] = os.path.join(root, "dask-deals.parquet")
            arrow.generate_parquet(n_dask, made["dask"], seed=2026, row_group=part)
        return made["dask"]

    def kernel() -> Timed:
        t = pq.read_table(files())
        data = t["cards"].combine_chunks().buffers()[1]  # (the validity bitmap is buffer 0)
        if data is None:
            raise BadaceyError("the generated dataset's cards column has no data buffer")
        cards = np.frombuffer(memoryview(data), np.uint8, count=n * 30).reshape(n, 6, 5)
        pot, button = t["pot"].to_numpy(), t["button"].to_numpy().astype(np.int64)
        # Into one array made here: the kernel's own rate, not the OS's faulting in a fresh 192 MB result
        # each call (that cost swings with the page cache the interleaved end-to-end cases fill).
        out = np.empty((n, 6), dtype=np.int64)
        return lambda: showdown_many(cards, pot=pot, button=button, out=out)

    def end_to_end(name: str) -> Setup:
        def setup() -> Timed:
            files()
            src, dst = os.path.join(root, name), os.path.join(root, "payouts-" + name)
            return lambda: arrow.score_parquet(src, dst)

        return setup

    def client(workers: int = 2, threads: int = 1) -> Client:
        key = (workers, threads)
        if key not in clients:
            cm = bdask.local_client(workers, threads_per_worker=threads)
            clients[key] = cm.__enter__()
            atexit.register(cm.__exit__, None, None, None)
        return clients[key]

    def one_process(threads: bool, dask: bool = False) -> Setup:
        def setup() -> Timed:
            src, dst = dask_files() if dask else files(), os.path.join(root, f"one-{threads}-{dask}.parquet")
            return lambda: arrow.score_parquet(src, dst, threads=threads)

        return setup

    def dataset(scheduler: str | None, workers: int = 2, threads: int = 1, write: bool = True,
                rows: int = part) -> Setup:
        def setup() -> Timed:
            src, c = dask_files(), client(workers, threads) if scheduler is None else None
            out = os.path.join(root, f"out-{scheduler}-{workers}x{threads}") if write else None
            # No helper threads in the tasks: each partition is exactly the one-process work, so the
            # ratios show the scheduler and the cores, not the I/O overlap.
            return lambda: bdask.score_dataset(src, out, client=c, scheduler=scheduler, partition_rows=rows,
                                               threads=False)

        return setup

    def empty_tasks(k: int) -> Setup:
        def setup() -> Timed:
            from dask.delayed import delayed

            c = client()
            return lambda: c.gather(c.compute([delayed(int, pure=False)(i) for i in range(k)]))

        return setup

    tasks = 50 if quick else 500
    return [
        InterleavedCase("parquet-score", "showdown_many 6 seats, chips, kernel only (decoded deals)", kernel, n,
                        interleave="parquet"),
        InterleavedCase("parquet-score", "score_parquet end to end, Parquet zstd -> Parquet", end_to_end("deals.parquet"),
                        n, interleave="parquet"),
        InterleavedCase("parquet-score", "score_parquet, Parquet -> Parquet, no helper threads", one_process(False), n,
                        interleave="parquet"),
        InterleavedCase("parquet-score", "score_parquet end to end, Arrow IPC mmap -> Arrow", end_to_end("deals.arrow"),
                        n, interleave="parquet"),
        InterleavedCase("dask-score", "score_parquet, one process, no helper threads", one_process(False, dask=True),
                        n_dask, interleave="dask"),
        InterleavedCase("dask-score", "score_dataset, Dask synchronous scheduler", dataset("sync"), n_dask,
                        interleave="dask"),
        InterleavedCase("dask-score", "score_dataset, LocalCluster 2 workers x 1 thread", dataset(None), n_dask,
                        interleave="dask"),
        InterleavedCase("dask-score", "score_dataset, LocalCluster 1 worker x 2 threads", dataset(None, 1, 2), n_dask,
                        interleave="dask"),
        # The same without writing payouts (dst=None, score_dataset's default: per-seat totals and the
        # report only): the scheduler and the cores alone, without ~64 bytes a deal through the page cache.
        InterleavedCase("dask-score-totals", "score_dataset totals only, one process: the file as one partition",
                        dataset("sync", write=False, rows=n_dask), n_dask, interleave="totals"),
        InterleavedCase("dask-score-totals", "score_dataset totals only, Dask synchronous scheduler",
                        dataset("sync", write=False), n_dask, interleave="totals"),
        InterleavedCase("dask-score-totals", "score_dataset totals only, LocalCluster 2 workers x 1 thread",
                        dataset(None, write=False), n_dask, interleave="totals"),
        InterleavedCase("dask-score-totals", "score_dataset totals only, LocalCluster 1 worker x 2 threads",
                        dataset(None, 1, 2, write=False), n_dask, interleave="totals"),
        Case("dask-overhead", f"empty tasks on the 2-worker LocalCluster ({tasks} a call)", empty_tasks(tasks), tasks),
    ]
