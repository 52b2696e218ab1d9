"""What ``import badacey_fast`` costs over a bare interpreter, side by side (docs/import.md).

Each round runs, in alternation, ``python -c pass`` and ``python -c "import badacey_fast"`` with every
interpreter given (``--python``, repeatable: e.g. this tree's venv and another tree's), timing each
process's wall time; alternating keeps a busy machine's load on both sides alike.  Reports, per
interpreter, the bare run, the import run, and the import's cost over the bare run (min and median over
the rounds).  ``--modules`` also lists what the import loads beyond the bare interpreter, with each
module's own time from ``-X importtime`` (one extra run per interpreter).

    python bench/import_time.py --rounds 30
    python bench/import_time.py --python .venv/bin/python --python ../other/.venv/bin/python --modules
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

BARE = "pass"
IMPORT = "import badacey_fast"


# Every run starts in an empty directory: ``python -c`` puts the working directory first on sys.path, so a
# run from a source tree would import that tree's package, whatever the interpreter's installation.
_CWD = tempfile.mkdtemp(prefix="import_time_")


def _wall(python: str, code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-c", code], check=True, env=env, stdout=subprocess.DEVNULL, cwd=_CWD)
    return time.perf_counter() - start


def _loaded(python: str, env: dict[str, str]) -> list[tuple[str, int]]:
    """(module, self microseconds) of every module ``import badacey_fast`` loads, in load order."""
    proc = subprocess.run([python, "-X", "importtime", "-c", IMPORT], check=True, env=env, capture_output=True,
                          text=True, cwd=_CWD)
    bare = subprocess.run([python, "-X", "importtime", "-c", BARE], check=True, env=env, capture_output=True,
                          text=True, cwd=_CWD)
    before = {line.split("|")[-1].strip() for line in bare.stderr.splitlines() if line.startswith("import time:")}
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _cumulative, name = (part.strip() for part in line[len("import time:"):].split("|"))
        if name.strip() not in before:
            rows.append((name.strip(), int(own)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", help="an interpreter to measure (default: this one)")
    parser.add_argument("--rounds", type=int, default=30, help="alternated rounds (default 30)")
    parser.add_argument("--modules", action="store_true", help="list the modules the import loads")
    args = parser.parse_args(argv)
    pythons = args.python or [sys.executable]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    times: dict[tuple[str, str], list[float]] = {(p, c): [] for p in pythons for c in (BARE, IMPORT)}
    for p in pythons:
        where = subprocess.run([p, "-c", "import badacey_fast; print(badacey_fast.__file__)"], check=True, env=env,
                               capture_output=True, text=True, cwd=_CWD).stdout.strip()
        print(f"{p}: imports {where}")
    for p in pythons:  # warm the file cache and the bytecode caches first
        _wall(p, IMPORT, env)
    for _ in range(args.rounds):
        for p in pythons:
            for code in (BARE, IMPORT):
                times[(p, code)].append(_wall(p, code, env))
    print(f"{args.rounds} alternated rounds; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (ms)")
    for p in pythons:
        bare, imp = times[(p, BARE)], times[(p, IMPORT)]
        over = [b - a for a, b in zip(bare, imp)]
        print(f"{p}: bare min {1e3 * min(bare):.1f} median {1e3 * statistics.median(bare):.1f}; "
              f"import min {1e3 * min(imp):.1f} median {1e3 * statistics.median(imp):.1f}; "
              f"over bare: min-min {1e3 * (min(imp) - min(bare)):.1f}, median of the rounds' differences "
              f"{1e3 * statistics.median(over):.1f}")
    if args.modules:
        for p in pythons:
            rows = _loaded(p, env)
            print(f"\n{p}: {len(rows)} modules beyond the bare interpreter, "
                  f"{sum(t for _, t in rows) / 1e3:.1f} ms of their own time")
            for name, own in rows:
                print(f"  {own / 1e3:6.2f} ms  {name}")
    os.rmdir(_CWD)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
