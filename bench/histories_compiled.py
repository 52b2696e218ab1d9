"""Real hand histories read by the reader's own modules compiled with mypyc, against the same modules as
Python (issue 25's read target, 20,000 hands/s on one core): instructions a hand, and whether every hand,
field, note and error comes out the same.

Nothing in the library changes: the modules reading runs (:data:`MODULES`: the reader, the builder, the
amounts and cards, every room) are compiled as they are, in a temporary copy of the package, by mypyc
(part of mypy, a test dependency); the installed package is left alone.  Each side reads FOLDER (default:
the test fixtures; FPDB's draw-game corpus is the real mix, see docs/histories.md) in a process of its own:

- the same: a digest of every hand's every field (``repr``) and every error the reader reports, per side;
- instructions a hand: valgrind's callgrind (repeatable under any load), reading the hands once and three
  times, the difference over the hands (as ``bench/histories_speed.py --instructions``);
- ``--time``: hands per CPU-second too (best of ``--rounds``), with the load average.

Run::

    python bench/histories_compiled.py [FOLDER] [--time] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import histories_speed  # noqa: E402  (bench/ is not a package)

#: The modules a read runs, relative to the package (record.py, model.py and the engine are left as
#: Python: reading builds their objects, the replay is not timed here).
MODULES = ("histories/build.py", "histories/text.py", "histories/reader.py", "histories/sources.py",
           "histories/games.py", "histories/sites/*.py")

_DIGEST = """
import hashlib, sys
from badacey_fast.histories import parse, reader
from badacey_fast.histories.record import HandRecord
digest, hands, errors = hashlib.sha256(), 0, []
for hand in parse(sys.argv[1], dedupe=False, on_bad_hand=errors.append):
    digest.update(repr(tuple(getattr(hand, s) for s in HandRecord.__slots__)).encode())
    hands += 1
for err in errors:
    digest.update(repr((str(err), type(err).__name__, sorted(vars(err).items()))).encode())
print(hands, len(errors), digest.hexdigest(), reader.__file__)
"""

_TIME = """
import sys, time
sys.path.insert(0, {here!r})
import histories_speed as b
path, rounds = sys.argv[1], int(sys.argv[2])
b._read(path)  # warm up: imports, caches
best = None
for _ in range(rounds):
    t = time.process_time()
    b._read(path)
    t = time.process_time() - t
    best = t if best is None else min(best, t)
print(best)
"""


def compile_copy(dest: str) -> str:
    """A copy of the package in ``dest`` with :data:`MODULES` compiled; returns the folder to import from."""
    import badacey_fast

    package = os.path.dirname(os.path.abspath(badacey_fast.__file__))
    os.makedirs(dest)
    shutil.copytree(package, os.path.join(dest, "badacey_fast"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    import glob

    sources = sorted(p for m in MODULES for p in glob.glob(os.path.join("badacey_fast", m), root_dir=dest))
    done = subprocess.run([sys.executable, "-m", "mypyc", *sources], cwd=dest, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"mypyc failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return dest


def _side(root: str) -> tuple[dict[str, str], str]:
    """The environment and working folder of a child reading with the compiled copy (``root``, which holds
    the package) or the plain package (a ``root`` holding none: the installed package is imported)."""
    env = dict(os.environ)
    if os.path.isdir(os.path.join(root, "badacey_fast")):
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env, root


def digest(folder: str, root: str) -> list[str]:
    env, cwd = _side(root)
    done = subprocess.run([sys.executable, "-c", _DIGEST, folder], env=env, cwd=cwd, capture_output=True,
                          text=True, check=True)
    return done.stdout.split()


def instructions(path: str, n: int, root: str) -> float:
    env, cwd = _side(root)
    counts = []
    for reps in (1, 3):
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
             histories_speed._CHILD.format(here=HERE), path, str(reps), "read"],
            env=env, cwd=cwd, capture_output=True, text=True, check=True)
        line = next(x for x in done.stderr.splitlines() if "Collected" in x)
        counts.append(int(line.split()[-1]))
    return (counts[1] - counts[0]) / (2 * n)


def cpu_seconds(path: str, rounds: int, root: str) -> float:
    env, cwd = _side(root)
    done = subprocess.run([sys.executable, "-c", _TIME.format(here=HERE), path, str(rounds)], env=env, cwd=cwd,
                          capture_output=True, text=True, check=True)
    return float(done.stdout)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder", nargs="?", default=histories_speed.FIXTURES, help="hand histories (default: the fixtures)")
    p.add_argument("--time", action="store_true", help="hands per CPU-second too")
    p.add_argument("--hands", type=int, default=20_000, help="hands in the timed file (default 20000)")
    p.add_argument("--rounds", type=int, default=3, help="timed rounds, the best kept (default 3)")
    p.add_argument("--keep", metavar="DIR", help="compile into DIR and keep it (default: a temporary folder)")
    args = p.parse_args()
    folder = os.path.abspath(args.folder)
    work = args.keep or tempfile.mkdtemp(prefix="histories-compiled-")
    try:
        root = compile_copy(os.path.join(work, "compiled"))
        python = os.path.join(work, "plain")  # a folder with no package in it: the installed one is read
        os.makedirs(python)
        plain, compiled = digest(folder, python), digest(folder, root)
        if not compiled[3].startswith(root):
            raise SystemExit(f"the compiled side imported {compiled[3]}, not the copy in {root}")
        same = plain[:3] == compiled[:3]
        print(f"{plain[0]} hands, {plain[1]} errors; every field and error the same: {'yes' if same else 'NO'} "
              f"(Python: {plain[3]}; compiled: {compiled[3]})")
        if shutil.which("valgrind"):
            path, n = histories_speed._file(folder, 1)
            try:
                a, b = instructions(path, n, python), instructions(path, n, root)
            finally:
                os.unlink(path)
            print(f"instructions a hand: {a:,.0f} as Python, {b:,.0f} compiled ({b / a - 1:+.0%}; {n} hands)")
        if args.time:
            path, n = histories_speed._file(folder, args.hands)
            try:
                load = os.getloadavg()[0]
                a, b = cpu_seconds(path, args.rounds, python), cpu_seconds(path, args.rounds, root)
            finally:
                os.unlink(path)
            print(f"hands per CPU-second: {n / a:,.0f} as Python, {n / b:,.0f} compiled ({n} hands, best of "
                  f"{args.rounds}; load average {load:.2f} before, {os.getloadavg()[0]:.2f} after)")
        if not same:
            raise SystemExit(1)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
