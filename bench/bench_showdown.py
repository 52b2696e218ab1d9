"""Single-showdown timing: ``showdown``, ``settle`` and ``showdown_detail``, C and Python twins side by side.

The rules engine calls :func:`showdown` / :func:`settle` once per hand and must play ~20,000 hands/s, so
the per-call overhead matters.  Inputs (deals, contributions) are prepared outside the timed region.

Run::

    PYTHONPATH=. python -m pytest bench/bench_showdown.py --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

import random

import pytest

from badacey_fast.kernel import backend as _backend
from badacey_fast.cards import format_cards
from badacey_fast.pots.settlement import settle, showdown, showdown_detail


@pytest.fixture(params=["c", "python"])
def twin(request: pytest.FixtureRequest):
    """Serve every evaluation from one twin while the benchmark runs."""
    with _backend.using(request.param):
        yield request.param


def _deal(seats: int, seed: int = 2026) -> list[tuple[int, ...]]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return [tuple(deck[5 * i : 5 * i + 5]) for i in range(seats)]


@pytest.mark.benchmark(group="showdown: 2 seats, card-id tuples")
def test_showdown_heads_up(benchmark, twin):
    hands = _deal(2)
    expected = showdown(hands, 101, 1)
    assert benchmark(showdown, hands, 101, 1) == expected


@pytest.mark.benchmark(group="showdown: 6 seats, card-id tuples, 2 folded")
def test_showdown_six_seats(benchmark, twin):
    hands = _deal(6)
    hands[1] = hands[4] = None
    expected = showdown(hands, 301, 3)
    assert benchmark(showdown, hands, 301, 3) == expected


@pytest.mark.benchmark(group="showdown: 6 seats, text hands")
def test_showdown_six_seats_text(benchmark, twin):
    hands = [format_cards(h) for h in _deal(6)]
    expected = showdown(hands, 300, 0)
    assert benchmark(showdown, hands, 300, 0) == expected


@pytest.mark.benchmark(group="settle: 4 seats, one pot")
def test_settle_one_pot(benchmark, twin):
    hands = _deal(4)
    hands[2] = None
    contributions = [24, 24, 8, 24]
    expected = settle(contributions, hands, 0).payouts
    assert benchmark(lambda: settle(contributions, hands, 0).payouts) == expected


@pytest.mark.benchmark(group="settle: 5 seats, 3 pots, folded contributor")
def test_settle_side_pots(benchmark, twin):
    hands = _deal(5)
    hands[4] = None
    contributions = [10, 30, 50, 50, 60]
    expected = settle(contributions, hands, 2).payouts
    assert benchmark(lambda: settle(contributions, hands, 2).payouts) == expected


@pytest.mark.benchmark(group="showdown_detail + explain: 2 seats")
def test_showdown_detail_explain(benchmark, twin):
    hands = _deal(2)
    expected = showdown_detail(hands, 100).explain()
    assert benchmark(lambda: showdown_detail(hands, 100).explain()) == expected
