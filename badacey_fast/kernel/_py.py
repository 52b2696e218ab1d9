"""The pure-Python twin of the C kernel: the same private functions as ``_c.py``, served by the reference.

Inputs are already validated by the public API (tuples of distinct ints in 0..51 of the right length).
Ranks are dense, lower is better.
"""

from __future__ import annotations

from badacey_fast.rules import reference as reference

NAME = "python"

_LOW_GAME = ("badacey", "badeucy")


def evaluate5(cards: tuple[int, ...], ace_high: bool) -> tuple[int, int]:
    """(low rank, badugi rank) of five validated cards; ``ace_high`` selects Badeucy."""
    return (
        reference.low_rank(cards, _LOW_GAME[ace_high]),
        reference.badugi_rank(cards, ace_high),
    )


def low_rank5(cards: tuple[int, ...], ace_high: bool) -> int:
    """Low rank of five validated cards (A-5, or 2-7 when ``ace_high``)."""
    return reference.low_rank(cards, _LOW_GAME[ace_high])


def badugi_rank(cards: tuple[int, ...], ace_high: bool) -> int:
    """Badugi rank of 1 to 5 validated cards."""
    return reference.badugi_rank(cards, ace_high)
