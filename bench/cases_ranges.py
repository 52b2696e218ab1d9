"""Ranges, side by side (``python bench/side_by_side.py``): groups ``range-equity``, ``range-parse``."""

from __future__ import annotations

from badacey_fast.cards import parse_cards
from badacey_fast.draw.range_equity import range_equity
from badacey_fast.draw.ranges import Range
from side_by_side import Case, Setup, Timed

__all__ = ["bench_cases"]


def bench_cases(quick: bool) -> list[Case]:
    """``range-equity``: hero heads-up against ``any`` at showdown, exact (1,533,939 combos);
    ``range-parse``: parse a range and enumerate its combos with hero's cards dead (``any``, and a
    mixed range)."""
    hero = parse_cards("As 2h 3d 4c Kd")

    def exact_case() -> Timed:
        range_equity(hero, "any")  # warm the whole-deck tables (cached per process)
        return lambda: range_equity(hero, "any")

    def parse_case(text: str) -> Setup:
        def setup() -> Timed:
            Range(text).combos(dead=hero)
            return lambda: Range(text).combos(dead=hero)

        return setup

    mixed = "0.5*8low+, 9badugi+ & !86low+, 7-3badugi+"
    return [
        Case("range-equity", "range_equity heads-up vs any, showdown (exact)", exact_case, 1_533_939),
        Case("range-parse", "Range('any').combos, hero dead", parse_case("any"), 1_533_939),
        Case("range-parse", f"Range({mixed!r}).combos", parse_case(mixed), 1),
    ]
