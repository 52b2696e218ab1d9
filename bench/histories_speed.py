"""Real hand histories: hands per second read (text to ``RealHand``), and read, replayed and checked,
measured side by side (issue 25's targets: 20,000 hands/s read, 5,000 hands/s with replay and check, on
one core).

The hands of FOLDER (default: the test fixtures, tests/data/histories; FPDB's draw-game corpus is the
real mix, see docs/histories.md) are written again and again into one temporary file of about --hands
hands, read from disk as ``badacey import`` reads them (``dedupe=False``: the copies share their ids).
Rounds alternate the two cases; each case's CPU seconds (``time.process_time``: what the run costs, on
a machine whose cores other people share) and wall seconds are reported min-max, with the load average.

``--instructions`` counts instructions instead (valgrind's callgrind, repeatable under any load): each
case runs over the hands once and three times, and the difference gives the instructions a hand.

Run::

    python bench/histories_speed.py [FOLDER] [--hands 20000] [--rounds 6]
    python bench/histories_speed.py [FOLDER] --instructions
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, os.pardir, "tests", "data", "histories")
SKIP = (".hp", ".gt", ".hands")  # FPDB's expected outputs beside its regression files


def _texts(folder: str) -> tuple[str, int]:
    """The text of every history file of ``folder`` and its number of hands."""
    from badacey_fast.histories import parse
    from badacey_fast.histories.sources import decode, paths_of

    files = [p for p in paths_of(folder) if not p.endswith(SKIP)]
    text = "\n\n".join(decode(open(p, "rb").read()) for p in files) + "\n\n"
    return text, sum(1 for _ in parse(text, dedupe=False, on_bad_hand="skip"))


def _file(folder: str, hands: int) -> tuple[str, int]:
    text, n = _texts(folder)
    copies = max(1, -(-hands // n))
    fd, path = tempfile.mkstemp(suffix=".txt", prefix="histories-")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        for _ in range(copies):
            f.write(text)
    return path, copies * n


def _read(path: str) -> int:
    from badacey_fast.histories import parse

    return sum(1 for _ in parse(path, dedupe=False, on_bad_hand="skip"))


def _read_and_check(path: str) -> int:
    from badacey_fast.histories import check, parse

    n = 0
    for hand in parse(path, dedupe=False, on_bad_hand="skip"):
        check(hand)
        n += 1
    return n


CASES = {"read": _read, "read + replay + check": _read_and_check}


def side_by_side(folder: str, hands: int, rounds: int) -> None:
    path, n = _file(folder, hands)
    try:
        for fn in CASES.values():  # warm up: imports, the tables
            fn(path)
        cpu: dict[str, list[float]] = {k: [] for k in CASES}
        wall: dict[str, list[float]] = {k: [] for k in CASES}
        load = os.getloadavg()
        for r in range(rounds):
            for k in list(CASES) if r % 2 == 0 else list(CASES)[::-1]:
                c, w = time.process_time(), time.perf_counter()
                assert CASES[k](path) == n
                cpu[k].append(time.process_time() - c)
                wall[k].append(time.perf_counter() - w)
        print(f"{n} hands from {folder}, {rounds} rounds; load average {load[0]:.2f} before, "
              f"{os.getloadavg()[0]:.2f} after ({os.cpu_count()} cores)")
        for k in CASES:
            rates = sorted(n / t for t in cpu[k])
            walls = sorted(n / t for t in wall[k])
            print(f"{k:22s} {rates[0]:,.0f}-{rates[-1]:,.0f} hands per CPU-second (median "
                  f"{statistics.median(rates):,.0f}); wall {walls[0]:,.0f}-{walls[-1]:,.0f} hands/s")
    finally:
        os.unlink(path)


_CHILD = """
import sys
sys.path.insert(0, {here!r})
import histories_speed as b
path, reps, case = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for _ in range(reps):
    b.CASES[case](path)
"""


def instructions(folder: str) -> None:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("--instructions needs valgrind (callgrind)")
    path, n = _file(folder, 1)
    try:
        for case in CASES:
            counts = []
            for reps in (1, 3):
                done = subprocess.run(
                    [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
                     _CHILD.format(here=HERE), path, str(reps), case], capture_output=True, text=True, check=True)
                line = next(x for x in done.stderr.splitlines() if "Collected" in x)
                counts.append(int(line.split()[-1]))
            print(f"{case:22s} {(counts[1] - counts[0]) / (2 * n):,.0f} instructions a hand ({n} hands)")
    finally:
        os.unlink(path)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder", nargs="?", default=FIXTURES, help="hand histories (default: the test fixtures)")
    p.add_argument("--hands", type=int, default=20_000, help="hands in the timed file (default 20000)")
    p.add_argument("--rounds", type=int, default=6, help="rounds, alternating the cases (default 6)")
    p.add_argument("--instructions", action="store_true", help="count instructions a hand with callgrind")
    args = p.parse_args()
    if args.instructions:
        instructions(args.folder)
    else:
        side_by_side(args.folder, args.hands, args.rounds)


if __name__ == "__main__":
    main()
