"""Side-by-side benchmark tables: every case of a group timed in one run, printed with items/s and the
ratio of each case's rate to the group's first.

This is the script behind the ratios the docs quote (the pytest-benchmark suites ``bench_*.py`` beside
it give per-case statistics; this gives ratios, timed as alike as a shared machine allows).  From a
source checkout (``bench/`` is not installed with the package)::

    pip install -e ".[bench]"            # add [rl], [dask] or [openspiel] for their groups
    python bench/side_by_side.py --list  # every group and case
    python bench/side_by_side.py --group evaluate-many --group showdown-many
    python bench/side_by_side.py --quick # every case, CI-sized inputs and short loops

Cases come from the modules named in :data:`PROVIDERS` (``cases_*.py`` beside this file); each exposes
``bench_cases(quick: bool) -> list[Case]``.  A :class:`Case` is a group (one operation, e.g.
``evaluate-many``), a name, a *setup* that prepares inputs (untimed) and returns the zero-argument
callable to time, and the number of items (hands, showdowns, ...) one call processes.  A callable may
return a float: it then measured itself (e.g. an import timed inside a fresh interpreter) and that many
seconds is used instead of the wall time.

Adjacent cases of one group that are :class:`InterleavedCase` with the same ``interleave`` key are
timed *together*: short blocks of calls of each case alternate, and each case's rate is the median of
its own blocks.  On a shared, noisy machine this keeps a burst of noise from landing on one case and not
on the other, so the ratio of two such cases (e.g. one thread against two) compares like with like.
Every printed rate is still the median of real timed calls of that case alone.

>>> case = Case("demo", "sum of 1000 ints", lambda: (lambda: sum(range(1000))), 1000)
>>> result = measure(case, min_time=0.001, repeats=1)
>>> result.case.group, result.rate > 0
('demo', True)
>>> measure(Case("demo", "bad", lambda: None, 1), min_time=0.001, repeats=1)
Traceback (most recent call last):
...
TypeError: setup of benchmark case 'bad' returned NoneType, not a callable
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

__all__ = ["PROVIDERS", "Timed", "Setup", "Case", "InterleavedCase", "Result", "measure", "measure_interleaved", "collect", "run",
           "format_table", "fresh_python", "path_name", "main"]

#: Modules (beside this file) exposing ``bench_cases(quick)``; add yours here.  Order is the order of the
#: printed table.
PROVIDERS = (
    "cases_evaluate",  # single-evaluate, evaluate-many, evaluate-vs-take, enumerate-all, table-build, import
    "cases_showdown",  # showdown-vs-hands(-new), showdown-many, showdown-many-chips, score-file
    "cases_draw",  # draw-outcomes, draw-outcomes-small, best-discards, equity-exact, equity-monte-carlo
    "cases_ranges",  # range-equity, range-parse
    "cases_game",  # game-random-hands (pokerkit alongside when installed)
    "cases_rl",  # rl: bare engine vs PettingZoo AEC hands, vector env steps (with the [rl] extra)
    "cases_columnar",  # parquet-score, dask-score, dask-score-totals, dask-overhead (with the [dask] extra)
)


#: What a case times: a zero-argument callable (a float it returns is the seconds it measured itself).
Timed = Callable[[], object]
#: A case's setup: prepares the inputs (untimed) and returns the callable to time.
Setup = Callable[[], Timed]


class Case(NamedTuple):
    """One benchmark: ``group`` (operation), ``name``, ``setup() -> callable`` (untimed), ``items`` per call."""

    group: str
    name: str
    setup: Setup
    items: int


class InterleavedCase(Case):
    """A :class:`Case` that :func:`run` times interleaved with the adjacent cases of its group carrying the
    same ``interleave`` key (see the module docstring).  Still the 4-tuple of a Case (the key is an
    attribute, not a field), so code that unpacks cases keeps working.

    >>> case = InterleavedCase("g", "two threads", lambda: (lambda: None), 10, interleave="threads")
    >>> group, name, setup, items = case
    >>> name, items, case.interleave
    ('two threads', 10, 'threads')
    >>> InterleavedCase("g", "x", lambda: (lambda: None), 10, interleave="")
    Traceback (most recent call last):
    ...
    ValueError: interleave key of benchmark case 'x' must be a non-empty str, got ''
    """

    interleave: str

    def __new__(cls, group: str, name: str, setup: Callable[[], Callable[[], object]], items: int, *,
                interleave: str) -> InterleavedCase:
        if not isinstance(interleave, str) or not interleave:
            raise ValueError(f"interleave key of benchmark case {name!r} must be a non-empty str, got {interleave!r}")
        self = super().__new__(cls, group, name, setup, items)
        self.interleave = interleave
        return self


def _key(case: Case) -> str:
    return getattr(case, "interleave", "")


class Result(NamedTuple):
    """Timing of one case: seconds per call (median and best of the repeats) and items per second."""

    case: Case
    median: float
    best: float
    rate: float


def _prepare(case: Case) -> Callable[[], object]:
    fn = case.setup()
    if not callable(fn):
        raise TypeError(f"setup of benchmark case {case.name!r} returned {type(fn).__name__}, not a callable")
    return fn


def measure(case: Case, *, min_time: float = 0.2, repeats: int = 5) -> Result:
    """Time one case: repeats of enough calls to last ``min_time`` seconds; median seconds per call.

    Slow calls (over a second) are repeated fewer times, so the full run stays a few minutes.
    """
    fn = _prepare(case)
    start = time.perf_counter()
    first = fn()  # warm-up (lazy tables, caches), also sizes the loop
    elapsed = first if isinstance(first, float) else time.perf_counter() - start
    self_timed = isinstance(first, float)
    number = 1 if self_timed else max(1, math.ceil(min_time / max(elapsed, 1e-9)))
    repeats = max(1, min(repeats, math.ceil(3.0 / max(elapsed, 1e-9))))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            got = fn()
        wall = (time.perf_counter() - start) / number
        samples.append(got if self_timed and isinstance(got, float) else wall)
    median = statistics.median(samples)
    return Result(case, median, min(samples), case.items / median if median > 0 else math.inf)


def measure_interleaved(cases: Sequence[Case], *, min_time: float = 0.2, repeats: int = 5,
                        slices: int = 20) -> list[Result]:
    """Time several cases together: rounds of one block of calls per case, alternating; one Result each.

    The time :func:`measure` spends on a case (``repeats`` x ``min_time``) is cut into ``repeats x
    slices`` blocks of about ``min_time / slices`` seconds per case; a round times one block of every
    case, in forward order on even rounds and backward on odd ones (so no case always follows the same
    neighbour).  Each Result is the median (and best) seconds per call over that case's own blocks.
    Calls that time themselves (return a float) are not supported here: they have no wall time to pair.

    >>> a = Case("demo", "a", lambda: (lambda: sum(range(100))), 100)
    >>> b = Case("demo", "b", lambda: (lambda: sum(range(200))), 200)
    >>> [r.case.name for r in measure_interleaved([a, b], min_time=0.002, repeats=2)]
    ['a', 'b']
    >>> measure_interleaved([a, Case("demo", "c", lambda: (lambda: 0.5), 1)], min_time=0.001)
    Traceback (most recent call last):
    ...
    TypeError: benchmark case 'c' times itself (returned a float): it cannot be interleaved
    """
    fns = [_prepare(case) for case in cases]
    numbers = []
    for case, fn in zip(cases, fns):
        start = time.perf_counter()
        if isinstance(fn(), float):  # warm-up (lazy tables, caches), also sizes the blocks
            raise TypeError(f"benchmark case {case.name!r} times itself (returned a float): "
                            "it cannot be interleaved")
        elapsed = time.perf_counter() - start
        numbers.append((elapsed, max(1, math.ceil(min_time / slices / max(elapsed, 1e-9)))))
    slowest = max(elapsed for elapsed, _ in numbers)
    rounds = max(1, min(repeats * slices, math.ceil(3.0 / max(slowest, 1e-9))))
    samples: list[list[float]] = [[] for _ in cases]
    order = list(range(len(cases)))
    for r in range(rounds):
        for i in order if r % 2 == 0 else order[::-1]:
            fn, number = fns[i], numbers[i][1]
            start = time.perf_counter()
            for _ in range(number):
                fn()
            samples[i].append((time.perf_counter() - start) / number)
    results = []
    for case, own in zip(cases, samples):
        median = statistics.median(own)
        results.append(Result(case, median, min(own), case.items / median if median > 0 else math.inf))
    return results


def collect(quick: bool, groups: Iterable[str] | None = None, providers: Sequence[str] = PROVIDERS) -> list[Case]:
    """Every provider's cases (optionally only the named groups), in provider order.

    >>> sorted({c.group for c in collect(quick=True, groups=["import", "table-build"])})
    ['import', 'table-build']
    >>> collect(quick=True, providers=["no_such_module"])
    Traceback (most recent call last):
    ...
    ModuleNotFoundError: No module named 'no_such_module'
    """
    wanted = set(groups) if groups else None
    cases = []
    for module in providers:
        for case in importlib.import_module(module).bench_cases(quick):
            if wanted is None or case.group in wanted:
                cases.append(case)
    return cases


def run(cases: Iterable[Case], *, quick: bool = False, progress: Callable[[str], None] | None = None) -> list[Result]:
    """Measure every case in order (``quick``: shorter loops and fewer repeats, for CI).

    >>> [r.case.name for r in run([Case("demo", "noop", lambda: (lambda: None), 1)], quick=True)]
    ['noop']
    >>> run([Case("demo", "broken", lambda: 42, 1)])
    Traceback (most recent call last):
    ...
    TypeError: setup of benchmark case 'broken' returned int, not a callable
    """
    min_time, repeats = (0.05, 3) if quick else (0.3, 7)
    results: list[Result] = []
    batch: list[Case] = []  # adjacent cases sharing a group and a non-empty interleave key

    def flush() -> None:
        if len(batch) == 1:
            results.append(measure(batch[0], min_time=min_time, repeats=repeats))
        elif batch:
            results.extend(measure_interleaved(batch, min_time=min_time, repeats=repeats))
        batch.clear()

    for case in cases:
        if progress:
            progress(f"{case.group}: {case.name}" + (f" (interleaved: {_key(case)})" if _key(case) else ""))
        if batch and (not _key(case) or (case.group, _key(case)) != (batch[0].group, _key(batch[0]))):
            flush()
        batch.append(case)
        if not _key(case):
            flush()
    flush()
    return results


def _rate(x: float) -> str:
    for scale, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= scale:
            return f"{x / scale:7.2f} {unit}/s"
    return f"{x:7.2f}  /s"


def _seconds(x: float) -> str:
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if x >= scale:
            return f"{x / scale:7.2f} {unit}"
    return f"{x / 1e-9:7.2f} ns"


def format_table(results: Sequence[Result]) -> str:
    """The results as a text table: group, case, items/s, time per item, ratio to the group's first case.

    >>> slow, fast = Case("g", "slow", None, 10), Case("g", "fast", None, 10)
    >>> print(format_table([Result(slow, 1.0, 1.0, 10.0), Result(fast, 0.5, 0.5, 20.0)]))
    group  case      items/s    per item  ratio
    g      slow    10.00  /s   100.00 ms     1×
    g      fast    20.00  /s    50.00 ms     2×
    >>> one = InterleavedCase("g", "one", None, 10, interleave="t")
    >>> two = InterleavedCase("g", "two", None, 10, interleave="t")
    >>> print(format_table([Result(one, 1.0, 1.0, 10.0), Result(two, 0.5, 0.5, 20.0)]))
    group  case       items/s    per item  ratio
    g      one ~    10.00  /s   100.00 ms     1×
    g      two ~    20.00  /s    50.00 ms     2×
    ~ timed interleaved (alternating blocks of calls) with its group's other ~ cases; rate = median of its own blocks
    >>> format_table([1])
    Traceback (most recent call last):
    ...
    AttributeError: 'int' object has no attribute 'case'
    """
    first_rate: dict[str, float] = {}
    rows = [("group", "case", "items/s", "per item", "ratio")]
    for r in results:
        base = first_rate.setdefault(r.case.group, r.rate)
        per_item = r.median / r.case.items if r.case.items else r.median
        name = f"{r.case.name} ~" if _key(r.case) else r.case.name
        rows.append((r.case.group, name, _rate(r.rate), _seconds(per_item), f"{r.rate / base:.3g}×"))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = []
    for n, row in enumerate(rows):
        if n > 1 and row[0] != rows[n - 1][0]:  # a blank line between groups
            lines.append("")
        lines.append("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))))
    if any(_key(r.case) for r in results):
        lines.append("~ timed interleaved (alternating blocks of calls) with its group's other ~ cases; "
                     "rate = median of its own blocks")
    return "\n".join(lines)


def fresh_python(code: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``python -c code`` in a fresh interpreter importing the ``badacey_fast`` this process imports
    (for import timing).

    The child runs in a temporary directory, with the directory holding that package first on
    ``PYTHONPATH`` unless it is a site directory: a source checkout in the current directory (which has
    the tables but not the compiled kernel after ``pip install .``) cannot shadow the installed package.
    ``env`` adds environment variables.  Returns the completed process (text output captured).

    >>> fresh_python("import badacey_fast; print('ok')").stdout
    'ok\\n'
    >>> fresh_python("raise SystemExit(3)").returncode
    3
    """
    import site

    import badacey_fast

    root = os.path.dirname(os.path.dirname(os.path.abspath(badacey_fast.__file__)))
    child = dict(os.environ, **(env or {}))
    site_dirs = {os.path.abspath(p) for p in site.getsitepackages() + [site.getusersitepackages()]}
    if root not in site_dirs:
        child["PYTHONPATH"] = os.pathsep.join(p for p in (root, child.get("PYTHONPATH", "")) if p)
    with tempfile.TemporaryDirectory() as cwd:
        return subprocess.run([sys.executable, "-c", code], env=child, cwd=cwd, capture_output=True,
                              text=True, timeout=timeout)


def path_name() -> str:
    """The kernel's code path in use: ``avx512``, ``avx2`` or ``scalar`` (``BADACEY_FAST_ISA`` caps the
    CPU's best), or ``python`` on the reference twin.

    >>> path_name() in ("avx512", "avx2", "scalar", "python")
    True
    """
    from badacey_fast import kernel

    level = kernel.simd_level()
    return "python" if level < 0 else ("scalar", "avx2", "avx512")[level]


def main(argv: Sequence[str] | None = None) -> int:
    """``python bench/side_by_side.py [--quick] [--group NAME ...] [--list]``; returns the exit status
    (2: no group of that name).

    >>> main(["--group", "no-such-group"])
    2
    """
    parser = argparse.ArgumentParser(
        prog="python bench/side_by_side.py",
        description="Time every benchmark case side by side; ratio = rate / rate of the group's first case.",
    )
    parser.add_argument("--quick", action="store_true", help="small inputs and short loops (CI-size run)")
    parser.add_argument("--group", action="append", metavar="NAME", help="only this group (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the cases without running them")
    args = parser.parse_args(argv)
    from badacey_fast import kernel

    cases = collect(args.quick, args.group)
    if args.group and not cases:
        print(f"{parser.prog}: error: no benchmark group named {', '.join(map(repr, args.group))}",
              file=sys.stderr)
        return 2
    if args.list:
        for case in cases:
            print(f"{case.group:22}  {case.name}")
        return 0
    print(f"bench/side_by_side.py{' --quick' if args.quick else ''}: backend {kernel.name}, "
          f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}", flush=True)
    results = run(cases, quick=args.quick,
                  progress=lambda what: print(f"  running {what}", file=sys.stderr, flush=True))
    print(format_table(results))
    return 0


if __name__ == "__main__":
    import side_by_side  # the cases import this module by that name: one copy of its classes

    sys.exit(side_by_side.main())
