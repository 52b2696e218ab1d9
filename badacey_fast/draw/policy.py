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

from functools import lru_cache
from itertools import combinations

from badacey_fast.cards import parse_cards
from badacey_fast.rules.games import BADUGI, LOW, Scoring, scoring

__all__ = ["keep_cards"]

# The subsets of a hand of n cards that could be a badugi, by size (largest first) and, within a size, in
# itertools.combinations order -- the order rules/reference.py's best_badugi tries them, so that of equal
# badugis (a rank held in two suits) the same one is found: (bit mask, positions) pairs.
_SUBSETS = {n: tuple(tuple((sum(1 << i for i in idx), idx) for idx in combinations(range(n), size))
                     for size in range(min(4, n), 0, -1))
            for n in range(1, 6)}
_PAIRS = {n: tuple(combinations(range(n), 2)) for n in range(1, 6)}


def keep_cards(hand: tuple[int, ...], game: Scoring | str, top: int = 8) -> tuple[int, ...]:
    """The cards a rule-of-thumb drawer keeps from ``hand`` (card ids, in hand order); ``game`` in any
    spelling (or its :class:`~badacey_fast.rules.games.Scoring`); ``top``: the highest low card value kept
    (2..13).  The rest is discarded.

    Memoised by hand: a bot asks at every decision of a hand, mostly about the same cards (the rule-of-thumb
    bot's simulations spent 86 % of their time here before).
    """
    rules = scoring(game)
    if type(hand) is not tuple or not 1 <= len(hand) <= 5 or not all(type(c) is int and 0 <= c < 52 for c in hand) \
            or len(set(hand)) != len(hand):
        hand = parse_cards(hand, count=(1, 2, 3, 4, 5))  # the one check of card input: its errors name the card
    if type(top) is not int:
        raise TypeError(f"top must be an int, not {type(top).__name__}")
    return _keep(hand, rules.ace_high, BADUGI in rules.halves, LOW in rules.halves, top)


@lru_cache(maxsize=1 << 14)
def _keep(hand: tuple[int, ...], ace_high: bool, badugi: bool, low: bool, top: int) -> tuple[int, ...]:
    # Card values: ace 1 (or 14 when aces are high), deuce 2 ... king 13.
    values = [14 if ace_high and c < 4 else (c >> 2) + 1 for c in hand]
    kept = 0  # bit i: hand[i] kept
    ranks = 0  # bit r: a card of rank r kept
    if badugi:
        # A subset is a badugi when no two of its cards share a suit or a rank: the clashing pairs as masks.
        clashes = [(1 << i) | (1 << j) for i, j in _PAIRS[len(hand)]
                   if not (hand[i] ^ hand[j]) & 3 or hand[i] >> 2 == hand[j] >> 2]
        chosen: tuple[int, ...] = ()
        for block in _SUBSETS[len(hand)]:  # any larger badugi beats every smaller one
            best: list[int] | None = None
            for mask, idx in block:
                for clash in clashes:
                    if mask & clash == clash:
                        break
                else:
                    key = sorted([values[i] for i in idx], reverse=True)
                    if best is None or key < best:
                        best, chosen = key, idx
            if best is not None:
                break
        for i in chosen:
            if values[i] <= top + 1:
                kept |= 1 << i
                ranks |= 1 << (hand[i] >> 2)
    if low:
        for i in sorted(range(len(hand)), key=values.__getitem__):  # stable: of one rank, the first held
            r = 1 << (hand[i] >> 2)
            if not ranks & r and values[i] <= top:
                kept |= 1 << i
                ranks |= r
    return tuple(c for i, c in enumerate(hand) if kept >> i & 1)
