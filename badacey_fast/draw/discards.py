"""What every draw computation takes: a hand (five cards, or four for Badugi), the cards it throws, the
dead cards, checked once.

:func:`check_draw` is the one check of those arguments, shared by :mod:`.outcomes` (exact draw
outcomes, best discards) and :mod:`.equities` (equity, policy equity); ``Progress`` is their progress
callback's type, ``progress(done, total)``.

>>> check_draw("As 2h 3d 4c Kd", "Kd", "5s")
((3, 6, 9, 12, 49), (49,), (19,))
>>> check_draw("As 2h 3d 4c Kd", "5s", ())
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: cannot discard '5s': it is not in the hand 'As 2h 3d 4c Kd'
>>> check_draw("As 2h 3d Kd", "Kd", (), size=4)          # a Badugi hand
((3, 6, 9, 49), (49,), ())
"""

from __future__ import annotations

from collections.abc import Callable

from badacey_fast.cards import Cards, format_cards, parse_cards
from badacey_fast.errors import DuplicateCardError, IllegalActionError

__all__ = ["Progress", "check_draw"]

#: ``progress(done, total)``: called as outcomes are counted (``done`` never goes down, the last call is
#: ``(total, total)``).
Progress = Callable[[int, int], None]


def check_draw(hand: Cards, discard: Cards, dead: Cards, size: int = 5) -> tuple[tuple[int, ...], ...]:
    """Parse and cross-check a hand of ``size`` cards (the game's hand size: 5, or 4 for Badugi), the
    cards it throws (0..size of its own) and the dead cards (none in the hand): ``(hand, discard, dead)``
    as tuples of card ids; every error names the card."""
    hand_t = parse_cards(hand, count=size)
    discard_t = parse_cards(discard, count=range(size + 1))
    dead_t = parse_cards(dead)
    for c in discard_t:
        if c not in hand_t:
            raise IllegalActionError(
                f"cannot discard {format_cards([c])!r}: it is not in the hand {format_cards(hand_t)!r}"
            )
    for c in dead_t:
        if c in hand_t:
            raise DuplicateCardError(f"card {format_cards([c])!r} is both in the hand and dead")
    return hand_t, discard_t, dead_t
