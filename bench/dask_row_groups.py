"""Dask 2 workers against one process, totals only (``dst=None``), by the row-group size of the dataset.

Usage: ``python bench/dask_row_groups.py ROW_GROUP_ROWS`` (4 M 6-seat deals, 1 M-row partitions, seven
alternating rounds; prints the medians and each round's ratio).  A standalone script, not collected by
pytest: it starts a LocalCluster and takes ~30 s.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

from badacey_fast import dask as bdask
from badacey_fast.files import arrow


def main() -> None:
    rows = int(sys.argv[1])
    src = os.path.join(tempfile.mkdtemp(), "deals.parquet")
    arrow.generate_parquet(4_000_000, src, seed=2026, row_group=rows)
    print(f"row groups of {rows:,} rows, {os.path.getsize(src) // 2**20} MB")
    with bdask.local_client(2, threads_per_worker=1) as client:
        bdask.score_dataset(src, None, client=client, partition_rows=1_000_000, threads=False)  # warm-up
        one, two = [], []
        for _ in range(7):
            start = time.perf_counter()
            bdask.score_dataset(src, None, scheduler="sync", partition_rows=4_000_000, threads=False)
            one.append(time.perf_counter() - start)
            start = time.perf_counter()
            bdask.score_dataset(src, None, client=client, partition_rows=1_000_000, threads=False)
            two.append(time.perf_counter() - start)
    rounds = " ".join(f"{a / b:.2f}" for a, b in zip(one, two))
    print(f"one process {statistics.median(one):.3f} s, 2 workers {statistics.median(two):.3f} s: "
          f"{statistics.median(one) / statistics.median(two):.2f}x (rounds: {rounds})")


if __name__ == "__main__":  # LocalCluster's worker processes import this module
    main()
