"""What a game scores at a showdown (RULES.md §3): its halves, evaluators, hand size, and seat order.

A Badacey or Badeucy pot is split in two halves, the low and the badugi, judged independently from the
same five cards; the single-pot games (Badugi, A-5 and 2-7 lowball) play one of them for the whole pot.
Ranks are dense and **lower is better**.  This module holds only the description of each game's scoring
(:class:`Scoring`), the odd-chip policy names and the seat order from the button: the arithmetic lives in
:mod:`badacey_fast.pots`, the words in :mod:`badacey_fast.explain`.

>>> scoring("badeucy").halves, scoring("badeucy").ace_high
(('low', 'badugi'), True)
>>> clockwise([0, 2, 3], button=2)
[3, 0, 2]
>>> scoring(27)
Traceback (most recent call last):
...
TypeError: game must be a str, not int
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import UnknownGameError

__all__ = ["LOW", "BADUGI", "ODD_CHIP_POLICIES", "UNSHOWN", "Scoring", "SCORINGS", "scoring", "clockwise"]

LOW = "low"
BADUGI = "badugi"
#: ``"position"`` (default): the odd chip of an odd pot goes to the winner first clockwise from the
#: button (the worst position); ``"low"``: it goes to the low half.
ODD_CHIP_POLICIES = ("position", "low")


class _Unshown:
    """The hand of a live seat that never has to show: it won because everyone else folded."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSHOWN"

    def __reduce__(self) -> str:
        return "UNSHOWN"


#: Stands for the cards of the one live seat of a fold-win (a fold-win needs no cards).  ``None`` means
#: folded (or an empty seat); UNSHOWN means live with cards not shown, allowed only when one seat is live.
UNSHOWN = _Unshown()


@dataclass(frozen=True)
class Scoring:
    """How a game scores a showdown: the halves the pot splits into, the evaluators, the hand size."""

    game: str  #: canonical name: "badacey", "badeucy", "badugi", "a5" or "27"
    title: str  #: the game and its scoring in words
    halves: tuple[str, ...]  #: (LOW, BADUGI) for the split games, one of them for single-pot games
    ace_high: bool  #: aces high in both evaluators (2-7 low, Badeucy's badugi)
    hand_size: int  #: cards per hand: 5, or 4 for Badugi


SCORINGS: dict[str, Scoring] = {
    s.game: s
    for s in (
        Scoring("badacey", "Badacey: A-5 low and ace-low badugi split the pot", (LOW, BADUGI), False, 5),
        Scoring("badeucy", "Badeucy: 2-7 low and ace-high badugi split the pot", (LOW, BADUGI), True, 5),
        Scoring("badugi", "Badugi: the best ace-low badugi takes the whole pot", (BADUGI,), False, 4),
        Scoring("a5", "A-5 lowball: the best A-5 low takes the whole pot", (LOW,), False, 5),
        Scoring("27", "2-7 lowball: the best 2-7 low takes the whole pot", (LOW,), True, 5),
    )
}
_ALIASES = {
    "badacy": "badacey", "badaci": "badacey", "badeucey": "badeucy", "baduci": "badeucy",
    "a-5": "a5", "a5td": "a5", "a5 triple draw": "a5", "a-5 triple draw": "a5", "ace-to-five": "a5",
    "ace to five": "a5", "a-5 lowball": "a5",
    "2-7": "27", "27td": "27", "27 triple draw": "27", "2-7 triple draw": "27", "deuce-to-seven": "27",
    "deuce to seven": "27", "2-7 lowball": "27",
}
_SCORING_CACHE: dict[str, Scoring] = {}


def scoring(game: str) -> Scoring:
    """The :class:`Scoring` of a game name in any spelling (Badacey/Badeucy spellings, badugi, a5, 27).

    >>> scoring("Baduci").halves, scoring("2-7").hand_size, scoring("badugi").hand_size
    (('low', 'badugi'), 5, 4)
    >>> scoring("razz")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.UnknownGameError: unknown game 'razz': expected one of badacey, badeucy, badugi, a5, 27
    """
    found = _SCORING_CACHE.get(game) if isinstance(game, str) else None
    if found is not None:
        return found
    if not isinstance(game, str):
        raise TypeError(f"game must be a str, not {type(game).__name__}")
    key = game.strip().lower()
    found = SCORINGS.get(_ALIASES.get(key, key))
    if found is None:
        raise UnknownGameError(f"unknown game {game!r}: expected one of {', '.join(SCORINGS)}")
    _SCORING_CACHE[game] = found  # the engine passes the same few strings millions of times
    return found


def clockwise(seats: Sequence[int], button: int) -> list[int]:
    """Seats (ints, given in seat order) clockwise from the button: button+1 first, the button itself last.

    The order in which odd chips are handed out (RULES.md §3): the first seat is the worst position.

    >>> clockwise([0, 1, 4, 5], button=4)
    [5, 0, 1, 4]
    >>> clockwise([0, 1], button=None)
    Traceback (most recent call last):
    ...
    TypeError: '>' not supported between instances of 'int' and 'NoneType'
    """
    return [s for s in seats if s > button] + [s for s in seats if s <= button]
