"""How long the ``badacey`` command takes to start, next to ``python -c "import badacey_fast"``, side by side.

Issue 24's target: ``badacey --version``, ``badacey --help`` and ``badacey eval HAND`` within 1.5x of the
package's own import on the same machine.  Each round runs every case once, in alternation, for every
interpreter given (``--python``, repeatable: e.g. this tree's venv and another tree's, whose ``badacey``
script is the one beside it), so a busy machine's load falls on all of them alike.  Reports per case the
wall time (min, median, max over the rounds) and its ratio to the import's (min to min, median to
median).  ``--callgrind`` also counts each case's instructions once under valgrind (repeatable under any
load; about ten seconds a case).

    python bench/cli_startup.py --rounds 20
    python bench/cli_startup.py --python .venv/bin/python --python ../other/.venv/bin/python --callgrind
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HAND = "As 2h 3d 4c 5s"


def _cases(python: str) -> dict[str, list[str]]:
    script = os.path.join(os.path.dirname(python), "badacey")
    command = [script] if os.path.exists(script) else [python, "-m", "badacey_fast"]
    return {
        "import badacey_fast": [python, "-c", "import badacey_fast"],
        # eval's floor: the import and one evaluation (the first loads and checks the hand's table)
        "import + evaluate(HAND)": [python, "-c", f"import badacey_fast; badacey_fast.evaluate({HAND!r})"],
        "badacey --version": command + ["--version"],
        "badacey --help": command + ["--help"],
        f"badacey eval '{HAND}'": command + ["eval", HAND],
        "python -m badacey_fast --version": [python, "-m", "badacey_fast", "--version"],
    }


# Bytecode written and used, as in an installed package (PYTHONDONTWRITEBYTECODE would have every run
# compile every module again: tens of ms that no user pays).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall(argv: list[str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, cwd=cwd, stdout=subprocess.DEVNULL, env=_ENV)
    return time.perf_counter() - start


def _instructions(argv: list[str], cwd: str) -> int | None:
    """Instructions the process executes (valgrind's callgrind, every child process traced), or None."""
    if shutil.which("valgrind") is None:
        return None
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                         cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_ENV)
    found = re.search(r"Collected : (\d+)", run.stderr)
    return int(found.group(1)) if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", action="append", help="an interpreter (default: this one); repeatable")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--callgrind", action="store_true", help="count instructions too (valgrind)")
    args = parser.parse_args()
    pythons = [os.path.abspath(p) for p in args.python] if args.python else [sys.executable]
    # An empty directory: a source tree as the working directory would shadow the installed package.
    cwd = tempfile.mkdtemp(prefix="cli_startup_")
    cases = {p: _cases(p) for p in pythons}
    times: dict[tuple[str, str], list[float]] = {(p, c): [] for p in pythons for c in cases[p]}
    failing = []
    for p in pythons:  # one warm-up run each (page cache, .pyc files); a case that fails is left out
        for case, argv in list(cases[p].items()):
            if subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=_ENV).returncode:
                failing.append(f"{p}: {case}")
                del cases[p][case], times[p, case]
    for _ in range(args.rounds):
        for p in pythons:
            for case, argv in cases[p].items():
                times[p, case].append(_wall(argv, cwd))
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {args.rounds} rounds, alternating")
    for case in failing:
        print(f"left out (fails): {case}")
    for p in pythons:
        print(f"\n{p}")
        base = times[p, "import badacey_fast"]
        base_ins = _instructions(cases[p]["import badacey_fast"], cwd) if args.callgrind else None
        for case, argv in cases[p].items():
            t = times[p, case]
            line = (f"  {case:<36} {min(t) * 1e3:6.1f} / {statistics.median(t) * 1e3:6.1f} / {max(t) * 1e3:6.1f} ms"
                    f"  x{min(t) / min(base):.2f} (min) x{statistics.median(t) / statistics.median(base):.2f} (median)")
            if args.callgrind:
                ins = _instructions(argv, cwd)
                if ins is not None and base_ins:
                    line += f"  {ins / 1e6:7.1f} M instructions x{ins / base_ins:.2f}"
            print(line)


if __name__ == "__main__":
    main()
