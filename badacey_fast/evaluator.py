"""Evaluate single hands: both halves of a Badacey or Badeucy hand as dense ranks, lower is better.

>>> evaluate("As 2h 3d 4c 5s")
Value(low=1, badugi=1)
>>> describe("2h 4h 6h 7h Ac")
Description(low='7-6-4-2-A low', badugi='2-card 2-A')
>>> evaluate("As 2h 3d 4c")
Traceback (most recent call last):
...
badacey_fast.errors.HandSizeError: expected 5 cards, got 4: 'As 2h 3d 4c'
"""

from __future__ import annotations

from operator import itemgetter

from badacey_fast import kernel
from badacey_fast.cards import Cards, parse_cards
from badacey_fast.rules.games import BADACEY, READY, SCORINGS, Scoring, scoring
from badacey_fast.rules.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (docs/import.md); mypy reads it alike
if TYPE_CHECKING:
    from typing import TypeGuard

__all__ = [
    "Cards",
    "Value",
    "Description",
    "Comparison",
    "evaluate",
    "low_rank",
    "badugi_rank",
    "describe",
    "compare",
]

# The default game's Scoring: the default argument of every call.
_BADACEY = SCORINGS[BADACEY]
# ace_high of each Scoring and canonical name: the single-hand calls read their ``game`` in one lookup (a
# hand is a few hundred nanoseconds); any other spelling goes to the one reader, scoring().
_ACE_HIGH = {key: rules.ace_high for key, rules in READY.items()}


_new = tuple.__new__


class Description(tuple[str, str]):
    """The two halves of a hand in words, as the seeds say them: a named tuple ``(low, badugi)``, written
    out as :class:`~badacey_fast.rules.value.Value` is (no ``typing`` at import).

    >>> d = Description("7-6-4-2-A low", "2-card 2-A")
    >>> d.low, d == ("7-6-4-2-A low", "2-card 2-A"), d._asdict()["badugi"]
    ('7-6-4-2-A low', True, '2-card 2-A')
    """

    __slots__ = ()
    _fields = ("low", "badugi")
    __match_args__ = ("low", "badugi")

    def __new__(cls, low: str, badugi: str) -> Description:
        return _new(cls, (low, badugi))

    if TYPE_CHECKING:
        @property
        def low(self) -> str:
            """The low half in words."""

        @property
        def badugi(self) -> str:
            """The badugi half in words."""
    else:
        low = property(itemgetter(0), doc="The low half in words.")
        badugi = property(itemgetter(1), doc="The badugi half in words.")

    def _asdict(self) -> dict[str, str]:
        return {"low": self[0], "badugi": self[1]}

    def __getnewargs__(self) -> tuple[str, str]:
        return self[0], self[1]

    def __repr__(self) -> str:
        return f"Description(low={self[0]!r}, badugi={self[1]!r})"


class Comparison(tuple[int, int]):
    """Who wins each half between hands ``a`` and ``b``: ``1`` = a wins, ``-1`` = b wins, ``0`` = tie.  A named
    tuple ``(low, badugi)``, written out as :class:`~badacey_fast.rules.value.Value` is.

    >>> c = Comparison(low=-1, badugi=0)
    >>> c.low, c.badugi, c == (-1, 0), c._asdict()
    (-1, 0, True, {'low': -1, 'badugi': 0})
    """

    __slots__ = ()
    _fields = ("low", "badugi")
    __match_args__ = ("low", "badugi")

    def __new__(cls, low: int, badugi: int) -> Comparison:
        return _new(cls, (low, badugi))

    if TYPE_CHECKING:
        @property
        def low(self) -> int:
            """1: a wins the low half, -1: b wins it, 0: a tie."""

        @property
        def badugi(self) -> int:
            """1: a wins the badugi half, -1: b wins it, 0: a tie."""
    else:
        low = property(itemgetter(0), doc="1: a wins the low half, -1: b wins it, 0: a tie.")
        badugi = property(itemgetter(1), doc="1: a wins the badugi half, -1: b wins it, 0: a tie.")

    def _asdict(self) -> dict[str, int]:
        return {"low": self[0], "badugi": self[1]}

    def __getnewargs__(self) -> tuple[int, int]:
        return self[0], self[1]

    def __repr__(self) -> str:
        return f"Comparison(low={self[0]!r}, badugi={self[1]!r})"


def _five_ids(cards: object) -> TypeGuard[tuple[int, ...]]:
    """Whether ``cards`` is already what the kernel takes: a tuple of five distinct exact ints 0..51."""
    return (type(cards) is tuple and len(cards) == 5 and all(type(c) is int and 0 <= c <= 51 for c in cards)
            and len(set(cards)) == 5)


def _five(cards: Cards) -> tuple[int, ...]:
    if _five_ids(cards):
        return cards
    return parse_cards(cards, count=5)


def evaluate(cards: Cards, game: Scoring | str = _BADACEY) -> Value:
    """Both halves of a five-card hand as dense ranks, lower is better.

    ``game`` is ``"badacey"`` (A-5 low 1..6175, ace-low badugi 1..1092) or ``"badeucy"``
    (2-7 low 1..7462, ace-high badugi 1..1092), in any of their spellings; the single-pot games rank on
    their scale family (``"badugi"``, ``"a5"``: Badacey's scales; ``"27"``: Badeucy's).  A
    :class:`~badacey_fast.rules.games.Scoring` is taken as it is (no spelling to read on each call).

    >>> evaluate("As 2h 3d 4c 5s")
    Value(low=1, badugi=1)
    >>> evaluate((3, 6, 9, 12, 19), game="badeucy")     # ace-high: A-5-4-3-2 is no straight; 5-4-3-2 badugi
    Value(low=785, badugi=1)
    >>> evaluate("As 2h 3d 4c 4c")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.DuplicateCardError: card '4c' is given twice
    """
    try:
        ace_high = _ACE_HIGH[game]
    except (KeyError, TypeError):  # another spelling, or no game at all: scoring() reads or refuses it
        ace_high = scoring(game).ace_high
    # Fast path (C twin, table loaded): one C call (csrc/cpython/speedups.c) takes a tuple or list of
    # five exact ints, validates them and returns the cached Value; anything else (text, bools, numpy
    # ints, a bad hand) gives None and takes the general path below, which also words the errors.
    single = kernel.single[ace_high]
    if single is not None:
        value = single(cards)
        if value is not None:
            return value
    return Value._make(kernel.evaluate5(_five(cards), ace_high))


def low_rank(cards: Cards, game: Scoring | str = _BADACEY) -> int:
    """Dense low rank of five cards, lower is better: 1..6175 for Badacey (A-5), 1..7462 for Badeucy (2-7).

    >>> low_rank("Kc Qd Jh Ts 9c") < low_rank("2c 2d Ah 3s 4c")   # any no-pair beats any pair
    True
    >>> low_rank("7c 5d 4h 3s 2c", game="badeucy")
    1
    >>> low_rank("7c 5d 4h 3s 2c", game="razz")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.UnknownGameError: unknown game 'razz': expected one of badacey, badeucy, badugi, a5, 27
    """
    try:
        ace_high = _ACE_HIGH[game]
    except (KeyError, TypeError):
        ace_high = scoring(game).ace_high
    single = kernel.single[ace_high]  # evaluate()'s fast path; None hands over to the general path
    if single is not None:
        value = single(cards)
        if value is not None:
            return value.low
    return kernel.low_rank5(_five(cards), ace_high)


def badugi_rank(cards: Cards, ace_high: bool = False, *, game: Scoring | str | None = None) -> int:
    """Dense badugi rank of the best badugi in 1 to 5 cards, 1..1092, lower is better.

    ``ace_high=False`` is Badacey's (and Badugi's) ace-low badugi; ``ace_high=True`` is Badeucy's.
    ``game``, when given, names the scale instead, like every other call (any game, any spelling:
    ace-high for Badeucy and 2-7).  Works for four-card Badugi hands as well as five-card hands.

    >>> badugi_rank("As 2c 3d 4h")
    1
    >>> badugi_rank("As 2c 3d 4h", game="Baduci") > 1                 # the ace plays high
    True
    >>> badugi_rank("2s 4c 5d 6h") < badugi_rank("As 2c 3d 7h")        # highest card first
    True
    >>> badugi_rank("")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.HandSizeError: expected 1 to 5 cards, got 0: ''
    """
    if game is not None:
        ace_high = scoring(game).ace_high
    elif not isinstance(ace_high, bool):
        raise TypeError(f"ace_high must be a bool, not {type(ace_high).__name__}")
    ids = parse_cards(cards, count=(1, 2, 3, 4, 5))
    return kernel.badugi_rank(ids, ace_high)


def describe(cards: Cards, game: Scoring | str = _BADACEY) -> Description:
    """Both halves of a five-card hand in the seeds' words.

    >>> describe("Ks Qd 9c 5h 5s")
    Description(low='pair of fives', badugi='K-Q-9-5 badugi')
    >>> describe("As 2h 3d 4c 5s", game="badeucy")
    Description(low='A-5-4-3-2 low', badugi='5-4-3-2 badugi')
    >>> describe("As 2h 3d 4c")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.HandSizeError: expected 5 cards, got 4: 'As 2h 3d 4c'
    """
    from badacey_fast.rules import reference  # the words: loaded on first use (not by import badacey_fast)

    rules = scoring(game)
    hand = _five(cards)  # evaluate's checks: five distinct cards
    # The words from the cards, as `badacey eval` says them: from the ranks, the first call would tabulate
    # every value class first (~0.5 s).
    return Description(reference.describe_low(hand, rules), reference.describe_badugi(hand, rules.ace_high))


def compare(a: Cards, b: Cards, game: Scoring | str = _BADACEY) -> Comparison:
    """Compare two five-card hands half by half: ``1`` = ``a`` wins that half, ``-1`` = ``b``, ``0`` = tie.

    >>> compare("As 2h 3d 4c 5s", "2c 3h 4d 5c 6s")      # Alma scoops Bruno
    Comparison(low=1, badugi=1)
    >>> compare("As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c")      # Ann ties the badugi, loses the low
    Comparison(low=-1, badugi=0)
    >>> compare("As 2h 3d 4c 5s", "As 2h 3d 4c 6s", game="razz")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.UnknownGameError: unknown game 'razz': expected one of badacey, badeucy, badugi, a5, 27
    """
    rules = scoring(game)
    va, vb = evaluate(a, rules), evaluate(b, rules)
    return Comparison(_sign(vb.low - va.low), _sign(vb.badugi - va.badugi))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)
