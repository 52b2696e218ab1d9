"""The four evaluators of RULES.md §2, written from the rules: the judge of correctness.

Every evaluator maps a hand to a **dense rank, lower is better**: rank 1 is the best possible value and
rank *k* means exactly *k - 1* distinct values are strictly better.  Equal values share a rank; suits
never break ties.

========================  ===========  =====================================  =========================
scale                     classes      rank 1 (the nuts)                      worst rank
========================  ===========  =====================================  =========================
A-5 low (Badacey)         6175         A-2-3-4-5, any suits                   K-K-K-K-Q
2-7 low (Badeucy)         7462         7-5-4-3-2, not all one suit            A-K-Q-J-T suited
ace-low badugi            1092         A-2-3-4 in four suits                  1-card K
ace-high badugi           1092         2-3-4-5 in four suits                  1-card A
========================  ===========  =====================================  =========================

How it works: each hand gets a *key*, a tuple that orders hands exactly as the rules say (smaller key =
better hand).  The ranks are positions in the sorted list of the keys of every value class, and the value
classes are enumerated from rank multisets, so nothing here is a hand-typed table.

>>> low_rank((3, 6, 9, 12, 19))                       # As 2h 3d 4c 5s: the wheel
1
>>> badugi_rank((3, 6, 9, 12))                        # As 2h 3d 4c: the nuts
1
>>> describe_low_rank(6175), describe_badugi_rank(1092)
('four kings', '1-card K')
>>> low_rank((3, 6, 9, 12))
Traceback (most recent call last):
...
badacey_fast.errors.HandSizeError: expected 5 cards, got 4: 'As 2h 3d 4c'
"""

from __future__ import annotations

from collections import Counter, namedtuple
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from badacey_fast.cards import RANK_CHARS, parse_cards
from badacey_fast.errors import RankError
from badacey_fast.rules.games import BADACEY, BADEUCY, GAMES, Scoring, scoring

__all__ = [
    "describe_low",
    "describe_badugi",
    "LOW_CLASS_COUNTS",
    "BADUGI_CLASS_COUNT",
    "LowValue",
    "BadugiValue",
    "low_key",
    "badugi_key",
    "low_rank",
    "badugi_rank",
    "best_badugi",
    "low_value",
    "badugi_value",
    "describe_low_rank",
    "describe_badugi_rank",
    "low_class_hands",
    "badugi_class_hands",
]

#: Number of distinct low values per game.
LOW_CLASS_COUNTS = {BADACEY: 6175, BADEUCY: 7462}
#: Number of distinct badugi values (both ace treatments).
BADUGI_CLASS_COUNT = 1092

# Category order for A-5 low, best first: pairs are bad, straights and flushes do not count.
_A5_CATEGORIES = ("no pair", "one pair", "two pair", "three of a kind", "full house", "four of a kind")
# Category order for 2-7 low, best first: ordinary poker order reversed.
_27_CATEGORIES = (
    "no pair", "one pair", "two pair", "three of a kind", "straight", "flush",
    "full house", "four of a kind", "straight flush",
)
# Count pattern (largest group first) -> category index, shared by both lows.
_PATTERN = {
    (1, 1, 1, 1, 1): "no pair",
    (2, 1, 1, 1): "one pair",
    (2, 2, 1): "two pair",
    (3, 1, 1): "three of a kind",
    (3, 2): "full house",
    (4, 1): "four of a kind",
}
_PLURAL = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "jacks", "queens", "kings")


TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy reads it alike
if TYPE_CHECKING:
    # The two named tuples as type checkers see them.  At run time the same classes come from
    # collections.namedtuple: typing (which typing.NamedTuple needs) is a tenth of `badacey eval`'s start,
    # and the words of a hand are read from here.  tests/test_reference.py checks the fields at run time.
    from typing import NamedTuple

    class _LowValue(NamedTuple):
        category: str
        ranks: tuple[int, ...]

    class _BadugiValue(NamedTuple):
        ranks: tuple[int, ...]
else:
    _LowValue = namedtuple("_LowValue", ["category", "ranks"])  # (repr and pickle go by the subclass)
    _BadugiValue = namedtuple("_BadugiValue", ["ranks"])


class LowValue(_LowValue):
    """A low value: its category and the card ranks (0=A..12=K) in order of significance.

    >>> LowValue("one pair", (4, 4, 12, 3, 0))
    LowValue(category='one pair', ranks=(4, 4, 12, 3, 0))
    """

    __slots__ = ()


class BadugiValue(_BadugiValue):
    """A badugi value: the ranks (0=A..12=K) of the cards that play, most significant first.

    >>> BadugiValue((3, 2, 1, 0)).size
    4
    """

    __slots__ = ()

    @property
    def size(self) -> int:
        """Number of cards that play, 1..4 (4 is a badugi)."""
        return len(self.ranks)


def _value(rank: int, ace_high: bool) -> int:
    """Numeric strength of a card rank for comparison: higher number = higher card."""
    if ace_high and rank == 0:
        return 14
    return rank + 1


def _groups(ranks: tuple[int, ...], ace_high: bool) -> tuple[tuple[int, ...], list[int]]:
    """Count pattern and the card values ordered by significance (bigger group, then higher card)."""
    counts = Counter(_value(r, ace_high) for r in ranks)
    order = sorted(counts, key=lambda v: (-counts[v], -v))
    pattern = tuple(sorted(counts.values(), reverse=True))
    values = [v for v in order for _ in range(counts[v])]
    return pattern, values


def low_key(cards: tuple[int, ...], game: Scoring | str = BADACEY) -> tuple[int, ...]:
    """The comparison key of a five-card low hand: a smaller key is a better hand (lower is better).

    ``game``: any game (a :class:`~badacey_fast.rules.games.Scoring` or any spelling); it ranks on its
    scale family's low (A-5, or 2-7 for Badeucy and 2-7).

    >>> low_key(parse_cards("6c 4d 3h 2s Ac")) < low_key(parse_cards("6d 5c 2c Ad 3s"))
    True
    """
    return _low_key(parse_cards(cards, count=5), scoring(game).ace_high)


def _low_key(cards: tuple[int, ...], ace_high: bool) -> tuple[int, ...]:
    ranks = tuple(c >> 2 for c in cards)
    if not ace_high:
        pattern, values = _groups(ranks, ace_high=False)
        return (_A5_CATEGORIES.index(_PATTERN[pattern]), *values)
    pattern, values = _groups(ranks, ace_high=True)
    category = _PATTERN[pattern]
    if category == "no pair":
        straight = values[0] - values[4] == 4
        flush = len({c & 3 for c in cards}) == 1
        if straight and flush:
            category = "straight flush"
        elif flush:
            category = "flush"
        elif straight:
            category = "straight"
    return (_27_CATEGORIES.index(category), *values)


def best_badugi(cards: tuple[int, ...], ace_high: bool = False) -> tuple[int, ...]:
    """The cards that play in the best badugi of 1 to 5 cards (all suits and ranks different).

    More cards beat fewer; between equal sizes the highest card is compared first, lower wins.
    Returned highest card first.

    >>> from badacey_fast.cards import format_cards
    >>> format_cards(best_badugi(parse_cards("2h 4h 6h 7h Ac")))
    '2h Ac'
    """
    cards = parse_cards(cards, count=(1, 2, 3, 4, 5))
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    for size in range(min(4, len(cards)), 0, -1):
        for subset in combinations(cards, size):
            if len({c & 3 for c in subset}) != size or len({c >> 2 for c in subset}) != size:
                continue
            values = tuple(sorted((_value(c >> 2, ace_high) for c in subset), reverse=True))
            if best is None or values < best[0]:
                ordered = tuple(sorted(subset, key=lambda c: -_value(c >> 2, ace_high)))
                best = (values, ordered)
        if best is not None:  # any larger badugi beats every smaller one
            return best[1]
    raise AssertionError("unreachable: one card is always a badugi")


def badugi_key(cards: tuple[int, ...], ace_high: bool = False) -> tuple[int, ...]:
    """The comparison key of the best badugi in 1 to 5 cards: smaller is better (lower is better).

    >>> badugi_key(parse_cards("2s 4c 5d 6h")) < badugi_key(parse_cards("As 2c 3d 7h"))
    True
    """
    played = best_badugi(cards, ace_high)
    return (4 - len(played), *(_value(c >> 2, ace_high) for c in played))


def low_class_hands(game: Scoring | str = BADACEY) -> tuple[tuple[int, ...], ...]:
    """One representative five-card hand per low value class, best first: entry ``i`` has rank ``i + 1``.

    Enumerated from every multiset of five ranks (no rank more than four times); for 2-7 each
    five-distinct-rank set appears twice, as a flush and not.

    >>> len(low_class_hands("badacey")), len(low_class_hands("badeucy"))
    (6175, 7462)
    """
    return _low_class_hands(scoring(game).ace_high)


@lru_cache(maxsize=None)
def _low_class_hands(ace_high: bool) -> tuple[tuple[int, ...], ...]:
    hands = []
    for multiset in combinations_with_replacement(range(13), 5):
        counts = Counter(multiset)
        if max(counts.values()) > 4:
            continue
        seen: Counter[int] = Counter()
        hand = []
        for r in multiset:  # suits by occurrence, so a paired rank gets distinct suits
            hand.append(4 * r + seen[r])
            seen[r] += 1
        hands.append(tuple(hand))  # five distinct ranks: all clubs, a flush
        if ace_high and len(counts) == 5:
            hands.append(tuple(hand[:4]) + (hand[4] + 1,))  # the same ranks, not a flush
    keyed = sorted(hands, key=lambda h: _low_key(h, ace_high))
    _check_distinct([_low_key(h, ace_high) for h in keyed], GAMES[ace_high])
    return tuple(keyed)


@lru_cache(maxsize=None)
def badugi_class_hands(ace_high: bool = False) -> tuple[tuple[int, ...], ...]:
    """One representative hand per badugi value class, best first: entry ``i`` has rank ``i + 1``.

    Every set of 1 to 4 distinct ranks in four different suits (715 + 286 + 78 + 13 = 1092), including
    values five cards cannot make.

    >>> len(badugi_class_hands())
    1092
    """
    hands = [
        tuple(4 * r + s for s, r in enumerate(ranks))
        for size in (1, 2, 3, 4)
        for ranks in combinations(range(13), size)
    ]
    keyed = sorted(hands, key=lambda h: badugi_key(h, ace_high))
    _check_distinct([badugi_key(h, ace_high) for h in keyed], f"badugi(ace_high={ace_high})")
    return tuple(keyed)


def _check_distinct(keys: list[tuple[int, ...]], what: str) -> None:
    if len(set(keys)) != len(keys):
        raise AssertionError(f"{what}: two value classes share a key")


@lru_cache(maxsize=None)
def _low_index(ace_high: bool) -> dict[tuple[int, ...], int]:
    return {_low_key(h, ace_high): i + 1 for i, h in enumerate(_low_class_hands(ace_high))}


@lru_cache(maxsize=None)
def _badugi_index(ace_high: bool) -> dict[tuple[int, ...], int]:
    return {badugi_key(h, ace_high): i + 1 for i, h in enumerate(badugi_class_hands(ace_high))}


def low_rank(cards: tuple[int, ...], game: Scoring | str = BADACEY) -> int:
    """Dense low rank of five cards, 1 (best) to 6175 (A-5) or 7462 (2-7); lower is better.

    >>> low_rank(parse_cards("Ac 2d 3h 4s 6c")), low_rank(parse_cards("7c 5d 4h 3s 2c"), "badeucy")
    (2, 1)
    """
    ace_high = scoring(game).ace_high
    return _low_index(ace_high)[_low_key(parse_cards(cards, count=5), ace_high)]


def badugi_rank(cards: tuple[int, ...], ace_high: bool = False) -> int:
    """Dense badugi rank of 1 to 5 cards, 1 (best) to 1092 (a lone king, or lone ace when ace-high).

    Lower is better.

    >>> badugi_rank(parse_cards("2c 3d 4h 5s"), ace_high=True)
    1
    """
    return _badugi_index(bool(ace_high))[badugi_key(cards, bool(ace_high))]


def low_value(rank: int, game: Scoring | str = BADACEY) -> LowValue:
    """The low value behind a dense low rank (1 = best): category and ranks by significance.

    >>> low_value(1, "badacey")
    LowValue(category='no pair', ranks=(4, 3, 2, 1, 0))
    """
    ace_high = scoring(game).ace_high
    hands = _low_class_hands(ace_high)
    _check_rank(rank, len(hands), "low")
    return _low_value_of(_low_key(hands[rank - 1], ace_high), ace_high)


def _low_value_of(key: tuple[int, ...], ace_high: bool) -> LowValue:
    categories = _27_CATEGORIES if ace_high else _A5_CATEGORIES
    ranks = tuple(0 if v == 14 else v - 1 for v in key[1:])
    return LowValue(categories[key[0]], ranks)


def badugi_value(rank: int, ace_high: bool = False) -> BadugiValue:
    """The badugi value behind a dense badugi rank (1 = best): the ranks that play, highest first.

    >>> badugi_value(1)
    BadugiValue(ranks=(3, 2, 1, 0))
    """
    hands = badugi_class_hands(bool(ace_high))
    _check_rank(rank, len(hands), "badugi")
    played = best_badugi(hands[rank - 1], bool(ace_high))
    return BadugiValue(tuple(c >> 2 for c in played))


def describe_low_rank(rank: int, game: Scoring | str = BADACEY) -> str:
    """Words for a low rank (lower is better), as the seeds say them: ``'7-6-4-2-A low'``, ``'pair of fives'``.

    >>> describe_low_rank(1, "badeucy"), describe_low_rank(7462, "badeucy")
    ('7-5-4-3-2 low', 'A-K-Q-J-T straight flush')
    """
    return _low_words(low_value(rank, game))


def describe_low(cards: tuple[int, ...] | str, game: Scoring | str = BADACEY) -> str:
    """Words for the low of five cards, the same as :func:`describe_low_rank` of their rank, computed from
    the cards alone (no table of every value class: microseconds, where the first rank's words take
    ~0.5 s to tabulate).

    >>> describe_low("As 2h 3d 4c 5s"), describe_low("As 2h 3d 4c 5s", "badeucy")
    ('5-4-3-2-A low', 'A-5-4-3-2 low')
    >>> describe_low("As 2h 3d 4c")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.HandSizeError: expected 5 cards, got 4: 'As 2h 3d 4c'
    """
    ace_high = scoring(game).ace_high
    return _low_words(_low_value_of(_low_key(parse_cards(cards, count=5), ace_high), ace_high))


def _low_words(value: LowValue) -> str:
    cat, ranks = value.category, value.ranks
    run = "-".join(RANK_CHARS[r] for r in ranks)
    if cat == "no pair":
        return f"{run} low"
    if cat in ("straight", "flush", "straight flush"):
        return f"{run} {cat}"
    names = [_PLURAL[r] for r in ranks]
    if cat == "one pair":
        return f"pair of {names[0]}"
    if cat == "two pair":
        return f"two pair, {names[0]} and {names[2]}"
    if cat == "three of a kind":
        return f"three {names[0]}"
    if cat == "full house":
        return f"{names[0]} full of {names[3]}"
    return f"four {names[0]}"


def describe_badugi_rank(rank: int, ace_high: bool = False) -> str:
    """Words for a badugi rank (lower is better): ``'4-3-2-A badugi'``, ``'2-card 2-A'``, ``'1-card K'``.

    >>> describe_badugi_rank(1), describe_badugi_rank(1, ace_high=True)
    ('4-3-2-A badugi', '5-4-3-2 badugi')
    """
    return _badugi_words(badugi_value(rank, ace_high).ranks)


def describe_badugi(cards: tuple[int, ...] | str, ace_high: bool = False) -> str:
    """Words for the best badugi of 1 to 5 cards, the same as :func:`describe_badugi_rank` of its rank,
    computed from the cards alone (no table of every value class).

    >>> describe_badugi("2h 4h 6h 7h Ac"), describe_badugi("As 2h 3d 4c 5s", ace_high=True)
    ('2-card 2-A', '5-4-3-2 badugi')
    """
    return _badugi_words(tuple(c >> 2 for c in best_badugi(parse_cards(cards), bool(ace_high))))


def _badugi_words(ranks: tuple[int, ...]) -> str:
    run = "-".join(RANK_CHARS[r] for r in ranks)
    return f"{run} badugi" if len(ranks) == 4 else f"{len(ranks)}-card {run}"


def _check_rank(rank: int, count: int, what: str) -> None:
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise TypeError(f"{what} rank must be an int, not {type(rank).__name__}")
    if not 1 <= rank <= count:
        raise RankError(f"{what} rank {rank} is outside 1..{count}")
