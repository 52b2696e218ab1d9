"""The solver's timings (pytest-benchmark): an exact exploitability, a CFR+ iteration, local best
response hands, MCCFR iterations, suit-canonical hands.

    python -m pytest bench/bench_solve.py --benchmark-only --benchmark-group-by=group

On a shared machine, time the processor (``--benchmark-timer time.process_time``): the figures of
docs/solving.md were taken so.
"""

from __future__ import annotations

import numpy as np
import pytest

from badacey_fast import kernel, solve
from badacey_fast.solve.exploit import exact_of

SMALL = solve.GameSpec.of("badugi", ranks=4, suits=4, hand_size=2, draws=1, cap=2)
TINY = solve.GameSpec.of("badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=1)
MEDIUM = solve.GameSpec.of("badugi", ranks=5, suits=4, hand_size=2, draws=1, cap=2)


@pytest.mark.benchmark(group="solve-exact")
@pytest.mark.parametrize("spec", [TINY, SMALL, MEDIUM], ids=lambda s: s.label())
def test_exact_exploitability(benchmark, spec):
    with kernel.using("c"):
        exact = exact_of(spec)
        uniform = exact.uniform()
        benchmark(lambda: (exact.best_response(uniform, 0), exact.best_response(uniform, 1)))


@pytest.mark.benchmark(group="solve-cfr")
@pytest.mark.parametrize("spec", [TINY, SMALL, MEDIUM], ids=lambda s: s.label())
def test_cfr_plus_iteration(benchmark, spec):
    with kernel.using("c"):
        exact = exact_of(spec)
        regret, average = np.zeros(exact.tree.strategy_size), np.zeros(exact.tree.strategy_size)
        it = [0]

        def step() -> None:
            it[0] += 1
            exact.cfr(regret, average, it[0], 1)

        benchmark(step)


@pytest.mark.benchmark(group="solve-lbr")
@pytest.mark.parametrize("game", ["badugi", "27", "badacey"])
def test_lbr_hands(benchmark, game):
    with kernel.using("c"):
        benchmark(lambda: solve.lbr(game, "rule", hands=200, particles=128, seed=1))


@pytest.mark.benchmark(group="solve-mccfr")
def test_mccfr_iterations(benchmark):
    from badacey_fast.solve.mccfr import mccfr

    with kernel.using("c"):
        benchmark(lambda: mccfr("badugi", iterations=20, seed=1, progress=False))


@pytest.mark.benchmark(group="solve-iso")
def test_canonical_hands(benchmark):
    rng = np.random.default_rng(1)
    hands = [tuple(int(c) for c in rng.choice(52, 5, replace=False)) for _ in range(1000)]
    solve.canonical(hands[0])  # the class table is built once, outside the timing
    benchmark(lambda: [solve.canonical(h) for h in hands])
