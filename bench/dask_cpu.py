"""Where the CPU of Dask's 2 workers goes: 4 M deals scored (totals only) on a 2-worker LocalCluster, with
Dask's statistical profiler in the workers on (Dask's default) and off, against one process.

Usage: ``python bench/dask_cpu.py [ROUNDS]`` (default 3).  Each round starts a cluster with the workers'
profiler on and one with it off, scores the dataset 8 times on each, then 4 times in this process on
the synchronous scheduler as one partition; it prints the wall time a deal, the workers' CPU a deal
(``Client.run`` of ``getrusage``) and this process's (the client and the LocalCluster's scheduler).
A standalone script, not collected by pytest; ~1 min a round.
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time

import dask
import distributed  # noqa: F401 - its config defaults loaded before dask.config.set names one of them

from badacey_fast import dask as bdask
from badacey_fast.files import arrow

DEALS = 4_000_000
CALLS = 8


def _cpu() -> float:
    """CPU seconds of the calling process (run on each worker by Client.run)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    src = os.path.join(tempfile.mkdtemp(prefix="badacey-dask-cpu-"), "deals.parquet")
    arrow.generate_parquet(DEALS, src, seed=2026)
    per = 1e9 / DEALS
    for _ in range(rounds):
        for profile in (True, False):
            # The nannies hand their worker processes the config in force when the cluster starts.
            with dask.config.set({"distributed.worker.profile.enabled": profile}), \
                    bdask.local_client(2) as client:
                bdask.score_dataset(src, None, client=client, threads=False)  # warm-up: tables mapped
                before, here = client.run(_cpu), _cpu()
                start = time.perf_counter()
                for _ in range(CALLS):
                    bdask.score_dataset(src, None, client=client, threads=False)
                wall = (time.perf_counter() - start) / CALLS
                after, here = client.run(_cpu), _cpu() - here
            workers = sum(after[w] - before[w] for w in before) / CALLS
            print(f"2 workers, profiler {'on ' if profile else 'off'}: wall {wall * per:.1f} ns a deal, workers' CPU "
                  f"{workers * per:.1f}, this process's {here / CALLS * per:.1f} ns a deal")
        start, here = time.perf_counter(), _cpu()
        for _ in range(CALLS // 2):
            bdask.score_dataset(src, None, scheduler="sync", partition_rows=DEALS, threads=False)
        print(f"one process:                wall {(time.perf_counter() - start) / (CALLS // 2) * per:.1f} ns a deal, "
              f"CPU {(_cpu() - here) / (CALLS // 2) * per:.1f}")


if __name__ == "__main__":  # LocalCluster's worker processes import this module
    main()
