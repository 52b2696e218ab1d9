"""Columnar deals and Dask, side by side (``python bench/side_by_side.py``, with the ``[dask]`` extra):
groups ``parquet-score``, ``dask-score``, ``dask-score-totals``, ``dask-overhead``."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from typing import TYPE_CHECKING

import numpy as np

from badacey_fast.bulk.showdown import showdown_many
from side_by_side import Case, InterleavedCase, Setup, Timed

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["bench_cases"]


def bench_cases(quick: bool) -> list[Case]:
    """Side-by-side cases (none without pyarrow and dask installed).

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
    import pyarrow.parquet as pq

    from badacey_fast import dask as bdask
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
            raise RuntimeError("the generated dataset's cards column has no data buffer")
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
                                               threads=False, overwrite=True)

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
