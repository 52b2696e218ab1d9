"""The evaluator's side-by-side cases (``python bench/side_by_side.py``): groups ``single-evaluate``,
``evaluate-many``, ``evaluate-vs-take``, ``enumerate-all``, ``table-build``, ``import``.

Issue 13's yardstick ``evaluate-vs-take`` times ``evaluate_many`` on the code path ``BADACEY_FAST_ISA``
selects against one ``np.take`` gather per hand; ``.ci/isa-bench`` runs it on every path the CPU has.
"""

from __future__ import annotations

import tempfile
from typing import Any

import numpy as np

from badacey_fast import evaluator, kernel
from badacey_fast.bulk import evaluate as bulk
from badacey_fast.rules import reference
from badacey_fast.tables import format as tables
from badacey_fast.tables import generate as _tablegen
from side_by_side import Case, InterleavedCase, Setup, Timed, fresh_python, path_name

__all__ = ["bench_cases"]


def _random_hands(n: int, seed: int = 2026) -> np.ndarray[Any, Any]:
    """``n`` random five-card hands, ``uint8[n, 5]``."""
    rng = np.random.default_rng(seed)
    return np.ascontiguousarray(np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.uint8))


def _import_time(statement: str) -> float:
    """Seconds a fresh interpreter spends on ``statement`` (timed inside it, so startup is excluded)."""
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    out = fresh_python(code)
    if out.returncode:
        raise RuntimeError(f"timing {statement!r} failed: {out.stderr.strip().splitlines()[-1:]}")
    return float(out.stdout.split()[-1])


def bench_cases(quick: bool) -> list[Case]:
    """The evaluator's cases: groups ``single-evaluate`` (C, reference, pokerkit when installed),
    ``evaluate-many`` (1 M random hands; 1 and 2 threads), ``evaluate-vs-take`` (``evaluate_many`` on the
    active code path against one ``np.take`` gather per hand, interleaved), ``enumerate-all``,
    ``table-build``, ``import``.

    ``quick`` shrinks the inputs for CI.  Inputs are prepared in the setups, outside the timed calls.

    >>> [c.group for c in bench_cases(quick=True)][:2]
    ['single-evaluate', 'single-evaluate']
    """
    singles = 200 if quick else 2000
    many = 100_000 if quick else 1_000_000

    def tuples(n: int) -> list[tuple[int, ...]]:
        return [tuple(int(c) for c in row) for row in _random_hands(n, seed=7)]

    def single_c() -> Timed:
        hands, evaluate = tuples(singles), evaluator.evaluate

        def call() -> None:
            with kernel.using("c"):
                for h in hands:
                    evaluate(h)

        return call

    def single_reference() -> Timed:
        hands = tuples(max(20, singles // 10))
        low_rank, badugi_rank = reference.low_rank, reference.badugi_rank
        return lambda: [(low_rank(h), badugi_rank(h)) for h in hands]

    def single_pokerkit() -> Timed:
        from pokerkit import BadugiHand, RegularLowHand

        from badacey_fast.cards import format_cards

        texts = [format_cards(h).replace(" ", "") for h in tuples(max(10, singles // 100))]
        return lambda: [(RegularLowHand(t), BadugiHand.from_game(t)) for t in texts]

    # The interleaved thread cases read the same hands into the same buffers: [(hands, (low, badugi))].
    shared: list[tuple[np.ndarray[Any, Any], tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]] = []

    def many_c(threads: int, check: bool = True) -> Setup:
        def setup() -> Timed:
            if not shared:
                shared.append((_random_hands(many), (np.empty(many, np.uint16), np.empty(many, np.uint16))))
            hands, out = shared[0]

            def call() -> None:
                with kernel.using("c"):
                    bulk.evaluate_many(hands, out=out, threads=threads, check=check)

            return call

        return setup

    def take_yardstick() -> Timed:
        rng = np.random.default_rng(2026)
        table = rng.integers(0, 2**32, tables.HANDS5, dtype=np.uint32)
        index = rng.integers(0, tables.HANDS5, many)
        out = np.empty(many, np.uint32)
        return lambda: np.take(table, index, out=out)

    def many_level(level: int) -> Setup:
        """The raw kernel call limited to one code path (0 scalar, 1 AVX2, 2 AVX-512 VBMI)."""

        def setup() -> Timed:
            hands = _random_hands(many)
            low, badugi = np.empty(many, np.uint16), np.empty(many, np.uint16)
            return lambda: kernel.eval_many_level(hands, False, True, low, badugi, level)

        return setup

    def many_numpy() -> Timed:
        hands = _random_hands(many // 10)

        def call() -> None:
            with kernel.using("python"):
                bulk.evaluate_many(hands)

        return call

    def all_c_table() -> Timed:
        def call() -> None:
            with kernel.using("c"):
                bulk.evaluate_all("badacey")

        return call

    def all_c_hash() -> Timed:
        hands = bulk.all_hands()

        def call() -> None:
            with kernel.using("c"):
                bulk.evaluate_many(hands, check=False)

        return call

    def build() -> Timed:
        def call() -> None:
            with tempfile.TemporaryDirectory() as tmp:
                _tablegen.build_tables(tmp)

        return call

    cases = [
        Case("single-evaluate", "evaluate(5-int tuple), C kernel", single_c, singles),
        Case("single-evaluate", "reference low_rank + badugi_rank (pure Python)", single_reference,
             max(20, singles // 10)),
    ]
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        pass
    else:
        cases.append(Case("single-evaluate", "pokerkit RegularLowHand + BadugiHand.from_game", single_pokerkit,
                          max(10, singles // 100)))
    # The thread cases are timed interleaved (benchmark.measure_interleaved): on this shared, noisy
    # machine, timing them seconds apart let a noise burst hit one and not the other, which moved the
    # 2-thread ratio by more than the effect being measured.
    cases += [
        InterleavedCase("evaluate-many", f"evaluate_many {many:,} random hands, C, 1 thread", many_c(1), many,
                        interleave="threads"),
        InterleavedCase("evaluate-many", f"evaluate_many {many:,} random hands, C, 2 threads", many_c(2), many,
                        interleave="threads"),
        InterleavedCase("evaluate-many", f"evaluate_many {many:,} hands, C, 1 thread, check=False",
                        many_c(1, False), many, interleave="threads"),
    ]
    # Issue 13's yardstick: one random gather per hand from a table as long as the 5-card table, timed
    # interleaved with evaluate_many on the path BADACEY_FAST_ISA selects (ratio >= 0.5x: within 2x of it).
    if kernel.simd_level() >= 0:
        cases += [
            InterleavedCase("evaluate-vs-take", f"np.take: one uint32 gather per hand from {tables.HANDS5:,} (yardstick)",
                            take_yardstick, many, interleave="take"),
            InterleavedCase("evaluate-vs-take", f"evaluate_many {many:,} random hands, C, 1 thread, {path_name()} path",
                            many_c(1), many, interleave="take"),
        ]
    # Vector levels 0..simd_level() (the Python twin has none: -1).
    paths = ("scalar loop", "AVX2 path", "AVX-512 VBMI path")
    cases += [Case("evaluate-many", f"kernel batch call, {paths[level]} only", many_level(level), many)
              for level in range(kernel.simd_level() + 1)]
    cases += [
        Case("evaluate-many", f"evaluate_many {many // 10:,} hands, numpy twin (reference maps)", many_numpy,
             many // 10),
        Case("enumerate-all", "evaluate_all: every hand in colex order, C table", all_c_table, tables.HANDS5),
        Case("enumerate-all", "evaluate_many(all_hands()), C, hashing every hand", all_c_hash, tables.HANDS5),
        Case("enumerate-all", "all_hands(): generate every hand in colex order", lambda: bulk.all_hands,
             tables.HANDS5),
        Case("table-build", "build both tables from the reference rules (numpy)", build, 2 * tables.HANDS5),
        Case("import", "import badacey_fast (fresh interpreter)",
             lambda: lambda: _import_time("import badacey_fast"), 1),
        Case("import", "import badacey_fast + first evaluate (table load)",
             lambda: lambda: _import_time("import badacey_fast; badacey_fast.evaluate((3, 6, 9, 12, 19))"), 1),
    ]
    return cases
