"""What a new output array costs ``showdown_many`` at 1 M 6-seat rows: page faults, CPU time, the OS's share.

Usage: ``python bench/fresh_pages.py [chips|shares] [ROUNDS]`` (default chips, 20).  One process, the
cases alternated call by call (so the other tenants' noise hits them alike), each timed by
``time.process_time`` and the process's minor page faults and user / system CPU (``getrusage``):

- ``eval new``: ``evaluate_many`` of the rows' six hands into new arrays (issue 13's yardstick);
- ``out=``: into one preallocated array (no fault);
- ``np.empty``: into a new ``np.empty`` array, as the library allocated it before (glibc maps 48 MB at
  4 KiB + 16 bytes past a 2 MiB boundary: ~450 small faults besides the huge ones);
- ``aligned``: a plain call after ``release_buffers()``, so its output is a fresh 2 MiB-aligned buffer
  (24 faults), never a recycled one (the buffer given back is unmapped in this case's time, as a
  dropped result's is in ``np.empty``'s);
- ``new``: a plain call, as a loop that drops each result makes it: a recycled buffer
  (``badacey_fast/bulk/buffers.py``, no fault).

Prints the medians (ns a row), the paired savings of ``new`` and ``aligned`` over ``np.empty`` and each
case's median against ``eval new``.  Run it under ``GLIBC_TUNABLES=...`` to see a tuning's effect (docs,
"Performance").  A standalone script, not collected by pytest; ~20 s.
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

from badacey_fast.bulk.buffers import release_buffers
from badacey_fast.bulk.evaluate import evaluate_many
from badacey_fast.bulk.showdown import showdown_many

ROWS = 1_000_000


def main() -> None:
    chips = (sys.argv[1] if len(sys.argv) > 1 else "chips") == "chips"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rng = np.random.default_rng(2026)
    deck = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (ROWS, 52)), axis=1)
    hands = np.ascontiguousarray(deck[:, :30].reshape(ROWS, 6, 5))
    extra: dict[str, Any] = {"pot": np.full(ROWS, 1001, dtype=np.int64), "button": 3} if chips else {}
    dtype = np.int64 if chips else np.float64
    into = np.empty((ROWS, 6), dtype=dtype)
    flat = hands.reshape(-1, 5)
    cases: dict[str, Callable[[], object]] = {
        "eval new": lambda: evaluate_many(flat),
        "out=": lambda: showdown_many(hands, out=into, **extra),
        "np.empty": lambda: showdown_many(hands, out=np.empty((ROWS, 6), dtype=dtype), **extra),
        "aligned": lambda: (release_buffers(), showdown_many(hands, **extra))[1],
        "new": lambda: showdown_many(hands, **extra),
    }
    cpu: dict[str, list[float]] = {k: [] for k in cases}
    user: dict[str, list[float]] = {k: [] for k in cases}
    system: dict[str, list[float]] = {k: [] for k in cases}
    faults: dict[str, list[int]] = {k: [] for k in cases}
    for call in cases.values():  # warm-up: the tables load, numpy's caches fill
        call()
    for r in range(rounds):
        order = list(cases.items())
        for name, call in order if r % 2 else order[::-1]:
            before, start = resource.getrusage(resource.RUSAGE_SELF), time.process_time()
            result = call()
            stop, after = time.process_time(), resource.getrusage(resource.RUSAGE_SELF)
            del result  # freed before the next case, as a caller that drops it would
            cpu[name].append((stop - start) * 1e9 / ROWS)
            user[name].append((after.ru_utime - before.ru_utime) * 1e9 / ROWS)
            system[name].append((after.ru_stime - before.ru_stime) * 1e9 / ROWS)
            faults[name].append(after.ru_minflt - before.ru_minflt)
    print(f"{'chips' if chips else 'shares'}, {ROWS:,} rows, {rounds} rounds; ns a row (CPU time), medians")
    yardstick = statistics.median(cpu["eval new"])
    for name in cases:
        q1, med, q3 = np.percentile(cpu[name], [25, 50, 75])
        print(f"  {name:9} {med:6.1f} (q25-q75 {q1:.1f}-{q3:.1f})  user {statistics.median(user[name]):5.1f}"
              f"  sys {statistics.median(system[name]):5.1f}  faults {int(statistics.median(faults[name])):5}"
              f"  {med / yardstick:.2f}x eval new")
    for name in ("aligned", "new"):
        saving = [a - b for a, b in zip(cpu["np.empty"], cpu[name])]
        q1, med, q3 = np.percentile(saving, [25, 50, 75])
        print(f"  paired saving of {name} over np.empty: median {med:.1f} ns a row (q25-q75 {q1:.1f}-{q3:.1f})")


if __name__ == "__main__":
    main()
