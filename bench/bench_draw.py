"""Draw analysis and equity timing: ``draw_outcomes``, ``best_discards``, ``equity``; a group per operation.

Targets (issue 4, one core): ``draw_outcomes`` of a five-card draw (1,533,939 outcomes) <= 15 ms;
``best_discards`` over all 32 choices (2,598,960 outcomes) <= 30 ms.  The big enumerations run on the C
twin only (the Python twin takes about 15 microseconds per outcome: tens of seconds); the small ones run
on both, side by side.  Inputs are prepared outside the timed region.

Run::

    PYTHONPATH=. python -m pytest bench/bench_draw.py --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

from math import comb

import pytest

from badacey_fast.kernel import backend as _backend
from badacey_fast.cards import parse_cards
from badacey_fast.draw.outcomes import best_discards, draw_outcomes
from badacey_fast.draw.equities import equity

ONE_WAY = parse_cards("2h 4h 6h 7h Ac")  # seed 000's one-way hand


@pytest.fixture(params=["c", "python"])
def twin(request: pytest.FixtureRequest):
    """Serve every evaluation from one twin while the benchmark runs."""
    with _backend.using(request.param):
        yield request.param


@pytest.fixture
def c_twin():
    with _backend.using("c"):
        yield "c"


@pytest.mark.benchmark(group="draw_outcomes: five-card draw, 1,533,939 outcomes")
def test_draw_five(benchmark, c_twin):
    out = benchmark(draw_outcomes, ONE_WAY, ONE_WAY)
    assert out.total == comb(47, 5) == sum(out.low_counts)


@pytest.mark.benchmark(group="draw kernel only: bd_draw_histograms, five-card draw")
def test_draw_five_kernel_only(benchmark, c_twin):
    kern = _backend.kernel()
    ffi, lib = kern.ffi, kern.lib
    table = kern.table(False)
    unseen = ffi.new("uint8_t[]", [c for c in range(52) if c not in ONE_WAY])
    low, bd = ffi.new("uint64_t[]", 6176), ffi.new("uint64_t[]", 1093)

    def run():  # the histograms accumulate: the count is what matters here, not their contents
        return lib.bd_draw_histograms(table, ffi.NULL, 0, unseen, 47, low, 6176, bd, 1093)

    assert benchmark(run) == comb(47, 5)


@pytest.mark.benchmark(group="best_discards: all 32 discards, 2,598,960 outcomes")
def test_best_discards_all(benchmark, c_twin):
    choices = benchmark(best_discards, ONE_WAY)
    assert len(choices) == 32


@pytest.mark.benchmark(group="draw_outcomes: two-card draw, 1,081 outcomes")
def test_draw_two(benchmark, twin):
    out = benchmark(draw_outcomes, ONE_WAY, ONE_WAY[:2])
    assert out.total == comb(47, 2)


@pytest.mark.benchmark(group="equity: heads-up exact, both draw one (1,722 outcomes)")
def test_equity_exact(benchmark, twin):
    hands, discards = ["As 2h 3d 4c Kd", "Ac 2d 3h 4s Kh"], ["Kd", "Kh"]
    eq = benchmark(equity, hands, discards)
    assert eq.exact and eq.outcomes == 42 * 41


@pytest.mark.benchmark(group="equity: Monte Carlo vs an unknown hand, 20,000 samples")
def test_equity_monte_carlo(benchmark, twin):
    eq = benchmark.pedantic(equity, (["2h 4h 6h 7h Ac", None], ["2h 4h 6h", None]),
                            {"samples": 20_000, "seed": 1}, rounds=3, iterations=1)
    assert not eq.exact and eq.outcomes == 20_000
