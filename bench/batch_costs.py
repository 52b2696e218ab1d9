"""What one scoring loop's batches cost beyond the kernel: page faults under Dask's allocator settings,
and replacing an existing output file.

Usage::

    python bench/batch_costs.py faults     # score 4 M deals (no output) in fresh child processes,
                                           # plain and with Dask's MALLOC_TRIM_THRESHOLD_=65536
    python bench/batch_costs.py rewrite    # score 4 M deals to a payout file that exists already: written
                                           # to a temporary swapped with it (renameat2, as the writers do),
                                           # to a temporary renamed over it (os.replace, where no swap is
                                           # possible), or into /dev/null

Each case runs in its own child process (the allocator reads its environment at start-up), seven timed
loops after a warm-up; the script prints the median wall time a deal, the median page faults a loop and
the user / system CPU a deal, in alternating rounds so both cases see the same machine.  A standalone
script, not collected by pytest.

Why ``MALLOC_TRIM_THRESHOLD_``: Dask's nanny sets it for every worker process
(``distributed.nanny.pre-spawn-environ``), and setting it pins glibc's mmap threshold at 128 KiB, so an
array above that is mapped (and its pages faulted in) on each allocation instead of coming back from the
heap.  The scoring loop keeps each batch's columns in pyarrow's memory pool, which keeps memory it is
given back whatever glibc is told.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

DEALS = 4_000_000


def _child(case: str, src: str, dst: str | None) -> None:
    """Time the loop in this process and print one line: wall ns, faults, user ns, system ns a deal."""
    import pyarrow.parquet as pq

    from badacey_fast.files import arrow, outputs

    if case == "renamed over":
        outputs._exchange = lambda new, target: False  # type: ignore[assignment]  # as where no swap is possible

    def loop() -> None:
        f = pq.ParquetFile(src)
        run = arrow.ScoreRun("badacey", "position", arrow.DEFAULT_POT, 0, False)
        run.start(f.schema_arrow)
        writer = None if dst is None else arrow.PayoutWriter(dst, "parquet")
        arrow.score_batches(run, f.schema_arrow, arrow.parquet_batches(f, arrow.BATCH_ROWS), writer, threads=False)

    loop()
    walls, faults, users, systems = [], [], [], []
    for _ in range(7):
        before = resource.getrusage(resource.RUSAGE_SELF)
        start = time.perf_counter()
        loop()
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_SELF)
        faults.append(after.ru_minflt - before.ru_minflt)
        users.append(after.ru_utime - before.ru_utime)
        systems.append(after.ru_stime - before.ru_stime)
    per = 1e9 / DEALS
    print(statistics.median(walls) * per, statistics.median(faults), statistics.median(users) * per,
          statistics.median(systems) * per)


def main() -> None:
    if sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3], None if sys.argv[4] == "-" else sys.argv[4])
        return
    what = sys.argv[1]
    if what not in ("faults", "rewrite"):
        raise SystemExit("usage: python bench/batch_costs.py faults|rewrite")
    from badacey_fast.files import arrow

    root = tempfile.mkdtemp(prefix="badacey-batch-costs-")
    src = os.path.join(root, "deals.parquet")
    arrow.generate_parquet(DEALS, src, seed=2026)
    out = os.path.join(root, "payouts.parquet")
    cases = {"faults": [("plain", {}, "-"), ("MALLOC_TRIM_THRESHOLD_=65536", {"MALLOC_TRIM_THRESHOLD_": "65536"}, "-")],
             "rewrite": [("swapped", {}, out), ("renamed over", {}, out + ".2"), ("/dev/null", {}, "/dev/null")]}[what]
    results: dict[str, list[list[float]]] = {name: [] for name, _, _ in cases}
    for _ in range(3):
        for name, env, dst in cases:
            line = subprocess.run([sys.executable, __file__, "--child", name, src, dst], env={**os.environ, **env},
                                  check=True, capture_output=True, text=True).stdout
            results[name].append([float(x) for x in line.split()])
    for name, rounds in results.items():
        cols = list(zip(*rounds))
        print(f"{name:32s} wall {min(cols[0]):.1f}-{max(cols[0]):.1f} ns a deal, "
              f"{int(min(cols[1]))}-{int(max(cols[1]))} page faults a loop, user {min(cols[2]):.1f}-{max(cols[2]):.1f}, "
              f"system {min(cols[3]):.1f}-{max(cols[3]):.1f} ns a deal")


if __name__ == "__main__":
    main()
