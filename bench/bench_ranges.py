"""Range timing: heads-up exact equity against ``any`` at showdown, and range parse + combo enumeration.

Targets (issue 14, one core, C twin): heads-up exact equity against ``any`` at showdown (1,533,939
combos for Badacey) <= 50 ms; parsing and enumerating any range <= 20 ms.  The whole-deck hands, card
masks and rank tables are cached per process; they are warmed outside the timed region.

Run::

    PYTHONPATH=. python -m pytest bench/bench_ranges.py --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

import pytest

from badacey_fast.kernel import backend as _backend
from badacey_fast.cards import parse_cards
from badacey_fast.draw.range_equity import range_equity
from badacey_fast.draw.ranges import Range

HERO = parse_cards("As 2h 3d 4c Kd")


@pytest.fixture
def c_twin():
    with _backend.using("c"):
        yield "c"


@pytest.mark.benchmark(group="range_equity: heads-up vs any, showdown, exact")
@pytest.mark.parametrize("game,hero", [("badacey", "As 2h 3d 4c Kd"), ("badeucy", "7s 5h 4d 3c 2s"),
                                       ("badugi", "As 2h 3d 4c")])
def test_range_equity_vs_any(benchmark, c_twin, game, hero):
    range_equity(hero, "any", game=game)
    eq = benchmark(range_equity, hero, "any", game=game)
    assert eq.exact


@pytest.mark.benchmark(group="Range: parse + combos(dead=hero)")
@pytest.mark.parametrize("text", ["any", "8low+, 9badugi+", "0.5*8low+, 9badugi+ & !86low+, 7-3badugi+"])
def test_parse_and_enumerate(benchmark, c_twin, text):
    Range(text).combos(dead=HERO)
    cards, weights = benchmark(lambda: Range(text).combos(dead=HERO))
    assert len(cards) == len(weights) > 0
