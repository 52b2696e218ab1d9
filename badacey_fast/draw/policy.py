"""The rule-of-thumb draw: which cards a drawer keeps.  The rules engine's ``RuleBot`` draws by it, and
so do the villains of :func:`~badacey_fast.draw.range_equity.range_equity` by default.

It keeps the cards of its best badugi (up to one above ``top``) and its distinct low cards up to ``top``
(8 by default): values ace 1 in the ace-low games (Badacey, Badugi, A-5) or 14 in the ace-high ones
(Badeucy, 2-7), deuce 2 ... king 13.  A single-pot game keeps for its one half only.

>>> from badacey_fast import parse_cards, format_cards
>>> format_cards(keep_cards(parse_cards("As 2h 3h Kd Ks"), "badacey"))
'As 2h 3h'
>>> format_cards(keep_cards(parse_cards("As 2h 3h Kd Ks"), "27"))      # the ace is high in 2-7
'2h 3h'
>>> keep_cards(parse_cards("As 2h 3h Kd Ks"), "poker")
Traceback (most recent call last):
...
badacey_fast.errors.UnknownGameError: unknown game 'poker': expected one of badacey, badeucy, badugi, a5, 27
"""

from __future__ import annotations

from badacey_fast.cards import card_rank
from badacey_fast.rules.games import BADUGI, LOW, Scoring, scoring
from badacey_fast.rules.reference import best_badugi

__all__ = ["keep_cards"]


def _value(card: int, ace_high: bool) -> int:
    r = card_rank(card) + 1  # A=1 .. K=13
    return 14 if ace_high and r == 1 else r


def keep_cards(hand: tuple[int, ...], game: Scoring | str, top: int = 8) -> tuple[int, ...]:
    """The cards a rule-of-thumb drawer keeps from ``hand`` (card ids, in hand order); ``game`` in any
    spelling (or its :class:`~badacey_fast.rules.games.Scoring`); ``top``: the highest low card value kept (2..13).  The rest is discarded.
    """
    rules = scoring(game)
    ace_high = rules.ace_high
    keep: list[int] = []
    ranks: set[int] = set()
    if BADUGI in rules.halves:
        for c in best_badugi(tuple(hand), ace_high):
            if _value(c, ace_high) <= top + 1:
                keep.append(c)
                ranks.add(card_rank(c))
    if LOW in rules.halves:
        for c in sorted(hand, key=lambda c: _value(c, ace_high)):
            if card_rank(c) not in ranks and _value(c, ace_high) <= top:
                keep.append(c)
                ranks.add(card_rank(c))
    return tuple(c for c in hand if c in keep)
