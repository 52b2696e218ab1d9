"""CPU-second measurements behind the docs' Parquet and Dask figures (issue 11), for a shared machine.

On a box whose two cores are also busy with other people's work, wall-clock ratios time the other
tenants; CPU seconds (``time.process_time`` / ``time.thread_time``) are what a run costs, and bound what
two idle cores could do.  Three measurements, each A/B-alternated in one run:

``kernel-vs-e2e``
    CPU seconds per call on the same 2 M deals: ``showdown_many`` as a user calls it (decoded deals, a new
    output array each call) against ``score_parquet`` zstd Parquet -> Parquet with and without its helper
    threads.  Two cores cannot run the end-to-end path faster than (its CPU seconds) / 2, so
    ``2 x kernel / e2e`` is the best ratio two idle cores could reach.
``table-pairs``
    Two processes (pinned to cores 0 and 1) each calling ``showdown_many`` on 2 M deals at once, and one
    alone: median CPU seconds per call with the kernel's memory-mapped table (shared by the processes)
    against a private heap copy per process (how tables were loaded before ``tables.map_table``).
``dask-partitions``
    CPU seconds of each worker's thread per 1 M-row partition on a 2-worker LocalCluster: the four
    partitions at once on both workers, then one after another on one worker.  ``2 x alone / at once``
    bounds the 2-worker speedup on two idle cores (before scheduling costs).

Run (from a checkout, after ``pip install ".[dask]"``)::

    python bench/cpu_columnar.py kernel-vs-e2e
    python bench/cpu_columnar.py table-pairs
    python bench/cpu_columnar.py dask-partitions
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import numpy as np

ROOT = os.path.join(tempfile.gettempdir(), "badacey-cpu-columnar")


def _deals(n: int, row_group: int) -> str:
    from badacey_fast.files import arrow

    os.makedirs(ROOT, exist_ok=True)
    path = os.path.join(ROOT, f"deals-{n}-{row_group}.parquet")
    if not os.path.exists(path):
        arrow.generate_parquet(n, path, seed=2026, row_group=row_group)
    return path


def _span(xs: list[float]) -> str:
    return f"{min(xs):.3f}-{max(xs):.3f} s (median {statistics.median(xs):.3f})"


def kernel_vs_e2e(rounds: int = 8) -> None:
    import pyarrow.parquet as pq

    from badacey_fast.bulk.showdown import showdown_many
    from badacey_fast.files import arrow

    src = _deals(2_000_000, 1 << 20)
    dst = os.path.join(ROOT, "e2e-payouts.parquet")
    t = pq.read_table(src)
    n = t.num_rows
    data = t["cards"].combine_chunks().buffers()[1]
    assert data is not None
    cards = np.frombuffer(memoryview(data), np.uint8, count=n * 30).reshape(n, 6, 5)
    pot, button = t["pot"].to_numpy(), t["button"].to_numpy().astype(np.int64)
    cases: dict[str, Any] = {
        "showdown_many (kernel only)": lambda: showdown_many(cards, pot=pot, button=button),
        "score_parquet, helper threads": lambda: arrow.score_parquet(src, dst),
        "score_parquet, no helper threads": lambda: arrow.score_parquet(src, dst, threads=False),
    }
    cpu: dict[str, list[float]] = {k: [] for k in cases}
    wall: dict[str, list[float]] = {k: [] for k in cases}
    for fn in cases.values():
        fn()
    for r in range(rounds):
        for k in list(cases) if r % 2 == 0 else list(cases)[::-1]:
            c, w = time.process_time(), time.perf_counter()
            cases[k]()
            cpu[k].append(time.process_time() - c)
            wall[k].append(time.perf_counter() - w)
    for k in cases:
        print(f"{k:34s} CPU {_span(cpu[k])}, wall {_span(wall[k])}")
    kernel = statistics.median(cpu["showdown_many (kernel only)"])
    for k in list(cases)[1:]:
        print(f"{k}: at best {2 * kernel / statistics.median(cpu[k]):.2f}x the kernel's rate on two idle cores")


_PAIR_CHILD = """
import os, sys, time, statistics
import numpy as np
from badacey_fast.bulk.showdown import showdown_many
from badacey_fast.kernel import _c
from badacey_fast.tables import format as tables
if sys.argv[1] == "private":  # a heap copy per process, as tables were loaded before map_table
    buf = _c.ffi.new("uint32_t[]", tables.ENTRIES)
    tables.read_table(0, memoryview(_c.ffi.buffer(buf)))
    _c.KERNEL.tables[0] = buf
n = 2_000_000
rng = np.random.default_rng(1)
cards = np.ascontiguousarray(rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52)), axis=1)[:, :30])
cards, pot, button = cards.reshape(n, 6, 5), rng.integers(100, 1000, n), rng.integers(0, 6, n)
showdown_many(cards, pot=pot, button=button)
while len(sys.argv) > 2 and not os.path.exists(sys.argv[2]):
    time.sleep(0.001)
times = []
for _ in range(10):
    c = time.process_time()
    showdown_many(cards, pot=pot, button=button)
    times.append(time.process_time() - c)
print(statistics.median(times))
"""


def table_pairs(rounds: int = 4) -> None:
    def run(mode: str, cores: list[int]) -> list[float]:
        go = os.path.join(ROOT, "go")
        if os.path.exists(go):
            os.remove(go)
        procs = [subprocess.Popen(["taskset", "-c", str(core), sys.executable, "-c", _PAIR_CHILD, mode, go],
                                  stdout=subprocess.PIPE, text=True) for core in cores]
        time.sleep(3.0)  # both set up (deals drawn, table loaded) before either is timed
        open(go, "w").close()
        return [float(p.communicate()[0]) for p in procs]

    os.makedirs(ROOT, exist_ok=True)
    got: dict[str, list[float]] = {}
    for _ in range(rounds):
        for mode in ("private", "shared"):
            got.setdefault(f"two at once, {mode} table", []).extend(run(mode, [0, 1]))
            got.setdefault(f"alone, {mode} table", []).extend(run(mode, [0]))
    for k, v in got.items():
        print(f"{k:28s} CPU per 2 M deals {_span(v)}")


def _timed_partition(path: str, group: int, out: str) -> float:
    from badacey_fast.dask import _score_partition

    start = time.thread_time()
    _score_partition(path, [group], 1 + group * 1_000_000, out, "badacey", "position", 120, 0, False, False)
    return time.thread_time() - start


def dask_partitions(rounds: int = 4) -> None:
    from badacey_fast import dask as bdask

    src = _deals(4_000_000, 1_000_000)
    out = os.path.join(ROOT, "dask-out")
    os.makedirs(out, exist_ok=True)
    at_once: list[float] = []
    alone: list[float] = []
    with bdask.local_client(2) as client:
        def submit(group: int, name: str, **kw: Any) -> Any:
            return client.submit(_timed_partition, src, group, os.path.join(out, f"{name}{group}.parquet"),
                                 pure=False, **kw)

        client.gather([submit(g, "w") for g in range(4)])  # warm: tables mapped, imports done
        workers = list(client.scheduler_info()["workers"])
        for r in range(rounds):
            at_once += client.gather([submit(g, "p") for g in range(4)])
            alone += client.gather([submit(g, "s", workers=[workers[r % 2]]) for g in range(4)])
    print(f"per 1 M-row partition, both workers at once: CPU {_span(at_once)}")
    print(f"per 1 M-row partition, one worker alone:     CPU {_span(alone)}")
    print(f"2-worker speedup bound on two idle cores: {2 * statistics.median(alone) / statistics.median(at_once):.2f}x")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    runs = {"kernel-vs-e2e": kernel_vs_e2e, "table-pairs": table_pairs, "dask-partitions": dask_partitions}
    if what not in runs:
        raise SystemExit(f"usage: python bench/cpu_columnar.py {'|'.join(runs)}")
    runs[what]()
