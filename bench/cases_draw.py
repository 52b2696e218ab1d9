"""Draws and equity, side by side (``python bench/side_by_side.py``): groups ``draw-outcomes``,
``draw-outcomes-small``, ``best-discards``, ``equity-exact``, ``equity-monte-carlo``.
"""

from __future__ import annotations

from math import comb

from badacey_fast import kernel
from badacey_fast.cards import parse_cards
from badacey_fast.draw.equities import equity
from badacey_fast.draw.outcomes import DrawOutcomes, best_discards, draw_outcomes
from side_by_side import Case, Setup, Timed

__all__ = ["bench_cases"]


def bench_cases(quick: bool) -> list[Case]:
    """Side-by-side cases (``Case`` of ``side_by_side``): group, name, a setup returning the zero-argument callable to time, and items (outcomes or samples) per call.

    Groups: ``draw-outcomes`` (a five-card draw, 1,533,939 outcomes; ``quick``: a three-card draw),
    ``draw-outcomes-small`` (a two-card draw on the C and the Python twin, side by side),
    ``best-discards`` (all 32 choices, 2,598,960 outcomes), ``equity-exact`` (heads-up, both draw one),
    ``equity-monte-carlo`` (against an unknown hand).  Inputs are parsed in the setup, outside the timing.
    """
    hand = parse_cards("2h 4h 6h 7h Ac")  # seed 000's one-way hand
    thrown = hand if not quick else hand[:3]
    samples = 2_000 if quick else 20_000

    def draw_case() -> Timed:
        return lambda: draw_outcomes(hand, thrown)

    def best_case() -> Timed:
        return lambda: best_discards(hand)

    def exact_case() -> Timed:
        hands = [parse_cards("As 2h 3d 4c Kd"), parse_cards("Ac 2d 3h 4s Kh")]
        discards = [parse_cards("Kd"), parse_cards("Kh")]
        return lambda: equity(hands, discards)

    def small_case(twin: str) -> Setup:
        def setup() -> Timed:
            def run() -> DrawOutcomes:
                with kernel.using(twin):  # side by side: the same draw on each twin
                    return draw_outcomes(hand, hand[:2])

            return run

        return setup

    def mc_case() -> Timed:
        return lambda: equity([hand, None], [hand[:3], None], samples=samples, seed=1)

    return [
        Case("draw-outcomes", f"draw_outcomes {len(thrown)}-card draw", draw_case, comb(47, len(thrown))),
        Case("draw-outcomes-small", "draw_outcomes 2-card draw, C twin", small_case("c"), comb(47, 2)),
        Case("draw-outcomes-small", "draw_outcomes 2-card draw, Python twin", small_case("python"), comb(47, 2)),
        Case("best-discards", "best_discards all 32 discards", best_case, comb(52, 5)),
        Case("equity-exact", "equity heads-up, both draw one (exact)", exact_case, 42 * 41),
        Case("equity-monte-carlo", "equity vs an unknown hand (Monte Carlo)", mc_case, samples),
    ]
