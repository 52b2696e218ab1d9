"""Showdown and settlement (RULES.md §3): halves, ties, odd chips, side pots.

A Badacey or Badeucy pot is split in two halves, the low and the badugi, judged independently from the
same five cards; each half is divided equally among its tied winners.  Ranks are dense and **lower is
better**.  Chips are ints in the smallest unit: every chip is paid out, none is created.

>>> showdown(["As 2h 3d 4c 5s", "2c 3s 4h 5d 6c"], pot=100)            # Alma scoops Bruno
[100, 0]
>>> showdown(["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"], pot=100)            # Ann is quartered by Ben
[25, 75]
>>> settle([50, 100, 100], ["As 2h 3d 4c Kd", None, "Ac 2d 3h 4s 5c"]).payouts
[37, 0, 213]
>>> showdown(["As 2h 3d 4c 5s", "As 3s 4h 5d 6c"], pot=100)
Traceback (most recent call last):
...
badacey_fast.errors.DuplicateCardError: card 'As' is in the hands of both seat 0 and seat 1
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction

from . import _backend, reference
from .cards import format_cards, parse_cards
from .errors import BadaceyError, DuplicateCardError, ShowdownError, UnknownGameError
from .evaluator import Cards, Description, Value
from .games import BADACEY, BADEUCY

__all__ = [
    "LOW",
    "BADUGI",
    "ODD_CHIP_POLICIES",
    "UNSHOWN",
    "Scoring",
    "SCORINGS",
    "scoring",
    "PotResult",
    "ShowdownResult",
    "Settlement",
    "showdown",
    "showdown_detail",
    "settle",
]

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


@dataclass(frozen=True)
class PotResult:
    """One pot settled: its chips, who could win it, who won each half, what each seat got.

    Seats are 0-based.  ``low_winners``/``badugi_winners`` are in seat order and empty for a half the
    game does not play; in an uncontested pot (one eligible seat) that seat wins every half it plays.

    >>> pot = settle([10, 10], ["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"]).pots[0]      # Ann and Ben
    >>> pot.amount, pot.low_winners, pot.badugi_winners, pot.chips, [str(f) for f in pot.shares]
    (20, (1,), (0, 1), (5, 15), ['1/4', '3/4'])
    >>> pot.chips[2]
    Traceback (most recent call last):
    ...
    IndexError: tuple index out of range
    """

    amount: int  #: chips in this pot
    eligible: tuple[int, ...]  #: live seats that contributed to it, seat order
    low_winners: tuple[int, ...]
    badugi_winners: tuple[int, ...]
    chips: tuple[int, ...]  #: chips from this pot per seat (every seat, 0 if none)
    halves: int  #: 2 for the split games (low and badugi halves), 1 for the single-pot games

    @cached_property
    def shares(self) -> tuple[Fraction, ...]:
        """The fraction of the pot per seat before odd-chip rounding (e.g. 1/4 for a quartered seat)."""
        share = [Fraction(0)] * len(self.chips)
        for winners in (self.low_winners, self.badugi_winners):
            for s in winners:
                share[s] += Fraction(1, self.halves * len(winners))
        return tuple(share)

    @property
    def uncontested(self) -> bool:
        """True when a single live seat was eligible (everyone else folded or did not contribute)."""
        return len(self.eligible) == 1

    @property
    def scooper(self) -> int | None:
        """The seat that took the whole pot alone (every half), else None."""
        won = [s for s, share in enumerate(self.shares) if share == 1]
        return won[0] if won else None


class _Described:
    """Each seat's ``values`` and their words, built on first use from ``low_ranks`` and ``badugi_ranks``:
    the engine's hot path never needs them."""

    game: str
    low_ranks: tuple[int | None, ...]
    badugi_ranks: tuple[int | None, ...]

    @cached_property
    def values(self) -> tuple[Value | None, ...]:
        """Each seat's :class:`Value` (dense ranks, lower is better); None for a folded or unshown seat, and
        None inside the Value for a half the game does not play."""
        return tuple(None if lo is None and bd is None else Value(lo, bd)
                     for lo, bd in zip(self.low_ranks, self.badugi_ranks))

    @cached_property
    def descriptions(self) -> tuple[Description | None, ...]:
        """Each seat's halves in the seeds' words (None for a folded/unshown seat or a half not played)."""
        rules = SCORINGS[self.game]
        low_game = BADEUCY if rules.ace_high else BADACEY
        return tuple(
            None if v is None else Description(
                None if v.low is None else reference.describe_low_rank(v.low, low_game),
                None if v.badugi is None else reference.describe_badugi_rank(v.badugi, rules.ace_high),
            )
            for v in self.values
        )


@dataclass(frozen=True)
class ShowdownResult(_Described):
    """A single-pot showdown: payouts (None = folded seat), each live hand's value, the pot's winners."""

    game: str
    button: int
    odd_chip: str
    hands: tuple[tuple[int, ...] | None, ...]  #: card ids per seat; None folded; () unshown fold-winner
    low_ranks: tuple[int | None, ...]  #: per seat, lower is better; None: folded, unshown or no low half
    badugi_ranks: tuple[int | None, ...]  #: per seat, lower is better; None: folded, unshown or no badugi
    pot: PotResult
    payouts: list[int | None]

    @property
    def low_winners(self) -> tuple[int, ...]:
        """Seats that won (or split) the low half."""
        return self.pot.low_winners

    @property
    def badugi_winners(self) -> tuple[int, ...]:
        """Seats that won (or split) the badugi half."""
        return self.pot.badugi_winners

    @property
    def scooper(self) -> int | None:
        """The seat that took the whole pot (both halves alone, or the fold-winner), else None."""
        return self.pot.scooper

    @property
    def fold_win(self) -> bool:
        """True when all but one seat folded: no hand was judged."""
        return self.pot.uncontested

    def explain(self, names: Sequence[str] | None = None) -> str:
        """Readable lines: each hand in words, who wins each half, who takes what.

        >>> print(showdown_detail(["As 2h 3d 4c 5s", "2c 3s 4h 5d 6c"], 100).explain(["Alma", "Bruno"]))
        Badacey: A-5 low and ace-low badugi split the pot (ranks: lower is better)
        Alma: As 2h 3d 4c 5s: low 5-4-3-2-A low (rank 1), badugi 4-3-2-A badugi (rank 1)
        Bruno: 2c 3s 4h 5d 6c: low 6-5-4-3-2 low (rank 6), badugi 5-4-3-2 badugi (rank 5)
        Low half: Alma wins with 5-4-3-2-A low
        Badugi half: Alma wins with 4-3-2-A badugi
        Alma scoops the whole pot (100 chips)
        >>> showdown_detail(["As 2h 3d 4c 5s", None], 7).explain(["Alma"])
        Traceback (most recent call last):
        ...
        badacey_fast.errors.ShowdownError: 1 names for 2 seats
        """
        who = _names(names, len(self.hands))
        lines = _hand_lines(self, who)
        lines += _pot_lines(self.pot, scoring(self.game), self.descriptions, who, self.odd_chip, self.button, "")
        return "\n".join(lines)


@dataclass(frozen=True)
class Settlement(_Described):
    """A hand settled from contributions: main and side pots, each settled among its eligible seats."""

    game: str
    button: int
    odd_chip: str
    contributions: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    low_ranks: tuple[int | None, ...]  #: per seat, lower is better; None: folded, unshown or no low half
    badugi_ranks: tuple[int | None, ...]  #: per seat, lower is better; None: folded, unshown or no badugi
    pots: tuple[PotResult, ...]  #: main pot first, then side pots in order of size of contribution
    payouts: list[int]  #: total chips won per seat, 0 for folded seats

    def explain(self, names: Sequence[str] | None = None) -> str:
        """Readable lines: the hands, then per pot who wins each half and who takes what.

        >>> s = settle([50, 100, 100], ["As 2h 3d 4c Kd", None, "Ac 2d 3h 4s 5c"])
        >>> print(s.explain(["Ann", "Cal", "Ben"]).splitlines()[-1])
          Ben takes it uncontested (100 chips)
        >>> s.explain(["Ann", "Ben"])
        Traceback (most recent call last):
        ...
        badacey_fast.errors.ShowdownError: 2 names for 3 seats
        """
        who = _names(names, len(self.hands))
        lines = _hand_lines(self, who)
        rules = scoring(self.game)
        for i, pot in enumerate(self.pots):
            indent = ""
            if len(self.pots) > 1:
                title = "Main pot" if i == 0 else f"Side pot {i}"
                lines.append(f"{title}: {pot.amount} chips, for {_join([who[s] for s in pot.eligible])}")
                indent = "  "
            lines += _pot_lines(pot, rules, self.descriptions, who, self.odd_chip, self.button, indent)
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------
# validation: once per call, cheap on the engine's fast path (tuples of ints)

def _chips(value: object, what: str) -> int:
    if type(value) is not int:
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise TypeError(f"{what} must be an int number of chips, not {type(value).__name__}")
        value = operator.index(value)  # numpy ints are fine
    if value < 0:
        raise ShowdownError(f"{what} is negative: {value}")
    return value


def _odd_low(odd_chip: str) -> bool:
    if odd_chip == "position":
        return False
    if odd_chip == "low":
        return True
    if not isinstance(odd_chip, str):
        raise TypeError(f"odd_chip must be a str, not {type(odd_chip).__name__}")
    raise ShowdownError(f"unknown odd_chip policy {odd_chip!r}: expected 'position' or 'low'")


_CARD_IDS = frozenset(range(52))
_INT_ONLY = {int}


def _read_hands(hands: object, size: int) -> tuple[list, list[int]]:
    """Card tuples per seat (None folded, () unshown) and the live seats, cards distinct across hands."""
    if type(hands) is not list and type(hands) is not tuple:  # the ABC check below is slow: lists skip it
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
            raise TypeError(
                f"hands must be a sequence with one hand (or None) per seat, not {type(hands).__name__}"
            )
    out: list = list(hands)
    live: list[int] = []
    seen: set[int] = set()
    dealt = 0
    for seat, hand in enumerate(out):
        if hand is None:
            continue
        live.append(seat)
        if hand is UNSHOWN:
            out[seat] = ()
            continue
        # Fast path (the engine's tuples of ids): set operations run in C; anything else is parsed.
        if not (type(hand) is tuple and len(hand) == size and _CARD_IDS.issuperset(hand)
                and set(map(type, hand)) == _INT_ONLY):
            try:
                hand = parse_cards(hand, count=size)
            except BadaceyError as exc:
                raise type(exc)(f"seat {seat}: {exc}") from None
            except TypeError as exc:
                raise TypeError(f"seat {seat}: {exc}") from None
            out[seat] = hand
        dealt += size
        seen.update(hand)
    if dealt != len(seen):
        _raise_duplicate(out)
    if not out:
        raise ShowdownError("no seats: hands is empty")
    if not live:
        raise ShowdownError(f"no live hand: all {len(out)} seats folded")
    if len(live) > 1:
        for seat in live:
            if out[seat] == ():
                raise ShowdownError(
                    f"seat {seat} is UNSHOWN but {len(live)} seats are live: a showdown needs every live hand"
                )
    return out, live


def _raise_duplicate(hands: list) -> None:
    """Name the card that appears twice (slow path, only on bad input)."""
    owner: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        for c in hand or ():
            if c in owner:
                where = f"twice in the hand of seat {seat}" if owner[c] == seat else (
                    f"in the hands of both seat {owner[c]} and seat {seat}")
                raise DuplicateCardError(f"card {format_cards([c])!r} is {where}")
            owner[c] = seat


def _button(button: object, n: int) -> int:
    if type(button) is not int:
        if isinstance(button, bool) or not hasattr(button, "__index__"):
            raise TypeError(f"button must be an int seat number, not {type(button).__name__}")
        button = operator.index(button)
    if not 0 <= button < n:
        raise ShowdownError(f"button {button} is outside the seats 0..{n - 1}")
    return button


# ---------------------------------------------------------------------------------------------------------
# judging


def _evaluate(rules: Scoring, hands: list, live: list[int]) -> tuple[list, list]:
    """Low and badugi ranks per seat (None where folded or a half not played); each hand evaluated once."""
    impl = _backend.impl
    n = len(hands)
    lows: list = [None] * n
    bads: list = [None] * n
    ace_high = rules.ace_high
    if len(rules.halves) == 2:
        for s in live:
            lows[s], bads[s] = impl.evaluate5(hands[s], ace_high)
    elif rules.halves[0] == LOW:
        for s in live:
            lows[s] = impl.low_rank5(hands[s], ace_high)
    else:
        for s in live:
            bads[s] = impl.badugi_rank(hands[s], ace_high)
    return lows, bads


def _share(amount: int, winners: list[int], chips: list[int]) -> None:
    # Leftover chips of an uneven split go one each to the winners first clockwise from the button;
    # ``winners`` is already in that order.
    q, r = divmod(amount, len(winners))
    for i, s in enumerate(winners):
        chips[s] += q + (i < r)


def _split(amount: int, order: list[int], lows: list, bads: list, rules: Scoring, odd_low: bool,
           chips: list[int]) -> tuple[list[int], list[int]]:
    """Pay one pot among ``order`` (contenders clockwise from the button) into ``chips``; the winners."""
    if len(order) == 1:
        chips[order[0]] += amount
        return (order if LOW in rules.halves else []), (order if BADUGI in rules.halves else [])
    if len(rules.halves) == 1:
        ranks = lows if rules.halves[0] == LOW else bads
        best = min([ranks[s] for s in order])
        winners = [s for s in order if ranks[s] == best]
        _share(amount, winners, chips)
        return (winners, []) if rules.halves[0] == LOW else ([], winners)
    ranks = [lows[s] for s in order]  # list comprehensions beat generator min() on this hot path
    best = min(ranks)
    low_w = [s for s, r in zip(order, ranks) if r == best]
    ranks = [bads[s] for s in order]
    best = min(ranks)
    bad_w = [s for s, r in zip(order, ranks) if r == best]
    half = amount >> 1
    low_amount = half
    if amount & 1:
        if odd_low:
            low_amount += 1
        else:  # the worst-positioned winner of either half: first clockwise from the button
            chips[next(s for s in order if s in low_w or s in bad_w)] += 1
    _share(low_amount, low_w, chips)
    _share(half, bad_w, chips)
    return low_w, bad_w


def _clockwise(seats: Sequence[int], button: int, n: int) -> list[int]:
    """Seats (given in seat order) clockwise from the button: button+1 first, the button itself last."""
    return [s for s in seats if s > button] + [s for s in seats if s <= button]


def _pot_result(amount: int, eligible: list[int], low_w: list[int], bad_w: list[int], chips: list[int],
                rules: Scoring) -> PotResult:
    return PotResult(amount, tuple(sorted(eligible)), tuple(sorted(low_w)), tuple(sorted(bad_w)),
                     tuple(chips), len(rules.halves))


# ---------------------------------------------------------------------------------------------------------
# the public functions


def showdown(hands: Sequence[Cards | None], pot: int, button: int = 0, game: str = "badacey",
             odd_chip: str = "position") -> list[int | None]:
    """Split one pot of ``pot`` chips (int >= 0) among the live hands; payout per seat, None if folded.

    ``hands`` has one entry per seat in seat order (0..P-1, clockwise): a hand (text or card ids) or
    None for a folded or empty seat.  A lone live seat wins without showing; its entry may be
    :data:`UNSHOWN`.  ``button`` is a seat number.  ``game``: "badacey", "badeucy" (low and badugi
    halves), or the single-pot "badugi" (4-card hands), "a5", "27".  ``odd_chip``: "position" or "low"
    (see RULES.md §3).  The payouts always sum to ``pot``.

    >>> showdown(["2h 4h 6h 7h Ac", "Ks Qd 9c 5h 5s"], 100)            # Cora and Dmitri split
    [50, 50]
    >>> showdown(["2h 4h 6h 7h Ac", None, "Ks Qd 9c 5h 5s"], 101, button=2)   # odd chip: seat 0 is first
    [51, None, 50]
    >>> showdown([UNSHOWN, None], 30)
    [30, None]
    >>> showdown([None, None], 30)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: no live hand: all 2 seats folded
    """
    rules = scoring(game)
    odd_low = _odd_low(odd_chip)
    cards, live = _read_hands(hands, rules.hand_size)
    n = len(cards)
    pot = _chips(pot, "pot")
    button = _button(button, n)
    if len(live) == 1:  # everyone else folded: no cards are judged
        payouts: list[int | None] = [None] * n
        payouts[live[0]] = pot
        return payouts
    lows, bads = _evaluate(rules, cards, live)
    chips = [0] * n
    _split(pot, _clockwise(live, button, n), lows, bads, rules, odd_low, chips)
    return [None if h is None else chips[s] for s, h in enumerate(cards)]


def showdown_detail(hands: Sequence[Cards | None], pot: int, button: int = 0, game: str = "badacey",
                    odd_chip: str = "position") -> ShowdownResult:
    """Like :func:`showdown` but returns a :class:`ShowdownResult`: values, words, winners, ``explain()``.

    >>> r = showdown_detail(["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"], 100)       # Ann and Ben
    >>> r.payouts, r.low_winners, r.badugi_winners, r.scooper
    ([25, 75], (1,), (0, 1), None)
    >>> r.descriptions[0]
    Description(low='K-4-3-2-A low', badugi='4-3-2-A badugi')
    >>> showdown_detail(["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"], -1)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: pot is negative: -1
    """
    rules = scoring(game)
    odd_low = _odd_low(odd_chip)
    cards, live = _read_hands(hands, rules.hand_size)
    n = len(cards)
    pot = _chips(pot, "pot")
    button = _button(button, n)
    if len(live) > 1:
        lows, bads = _evaluate(rules, cards, live)
    else:
        lows, bads = [None] * n, [None] * n
    chips = [0] * n
    low_w, bad_w = _split(pot, _clockwise(live, button, n), lows, bads, rules, odd_low, chips)
    return ShowdownResult(
        game=rules.game, button=button, odd_chip=odd_chip, hands=tuple(cards), low_ranks=tuple(lows),
        badugi_ranks=tuple(bads),
        pot=_pot_result(pot, live, low_w, bad_w, chips, rules),
        payouts=[None if h is None else chips[s] for s, h in enumerate(cards)],
    )


def settle(contributions: Sequence[int], hands: Sequence[Cards | None], button: int = 0,
           game: str = "badacey", odd_chip: str = "position") -> Settlement:
    """Build the main and side pots from each seat's total contribution and settle each one.

    ``contributions``: chips each seat put in this hand (ints >= 0), in seat order; ``hands`` as in
    :func:`showdown` (None = folded).  A pot level is drawn at every live seat's contribution; each pot
    is settled among the live seats that reached its level.  A folded seat's chips stay in the pots but it
    is eligible for none; chips a folded seat put in above every live seat's contribution (dead money
    nobody live matched) join the top pot.  ``payouts`` sums to ``sum(contributions)``; folded seats get 0.

    >>> s = settle([20, 60, 60, 101], ["As 2h 3d 4c 5s", "2c 4h 6h 7h Ac", "Ks Qd 9c 5h 5d", None])
    >>> s.payouts, [p.amount for p in s.pots], [p.eligible for p in s.pots]
    ([80, 81, 80, 0], [80, 161], [(0, 1, 2), (1, 2)])
    >>> settle([10, -5], ["As 2h 3d 4c 5s", "2c 3s 4h 5d 6c"])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: contribution of seat 1 is negative: -5
    """
    rules = scoring(game)
    odd_low = _odd_low(odd_chip)
    cards, live = _read_hands(hands, rules.hand_size)
    n = len(cards)
    if type(contributions) is not list and (isinstance(contributions, (str, bytes))
                                            or not isinstance(contributions, Iterable)):
        raise TypeError(f"contributions must be a sequence of ints, not {type(contributions).__name__}")
    paid = [_chips(c, f"contribution of seat {s}") for s, c in enumerate(contributions)]
    if len(paid) != n:
        raise ShowdownError(f"{len(paid)} contributions for {n} seats (one per seat, 0 for no chips)")
    button = _button(button, n)
    if len(live) > 1:
        lows, bads = _evaluate(rules, cards, live)
    else:
        lows, bads = [None] * n, [None] * n
    levels = sorted({paid[s] for s in live})
    if len(levels) == 1:  # the usual hand: every live seat put in the same, one pot (dead money included)
        layers = [(sum(paid), live)]
    else:
        layers = []  # (amount, eligible seats) per pot, main pot first
        prev = 0
        for level in levels:
            layers.append((sum(min(c, level) - min(c, prev) for c in paid), [s for s in live if paid[s] >= level]))
            prev = level
        # Chips a folded seat put in above every live seat: dead money nobody live matched, to the top pot.
        layers[-1] = (layers[-1][0] + sum(c - prev for c in paid if c > prev), layers[-1][1])
    pots = []
    total = [0] * n
    for amount, eligible in layers:
        if amount == 0:
            continue
        chips = [0] * n
        low_w, bad_w = _split(amount, _clockwise(eligible, button, n), lows, bads, rules, odd_low, chips)
        pots.append(_pot_result(amount, eligible, low_w, bad_w, chips, rules))
        for s in eligible:
            total[s] += chips[s]
    return Settlement(game=rules.game, button=button, odd_chip=odd_chip, contributions=tuple(paid),
                      hands=tuple(cards), low_ranks=tuple(lows), badugi_ranks=tuple(bads), pots=tuple(pots),
                      payouts=total)


# ---------------------------------------------------------------------------------------------------------
# words

_FRACTION_WORDS = {
    Fraction(1, 2): "half", Fraction(1, 4): "a quarter", Fraction(3, 4): "three quarters",
    Fraction(1, 3): "a third", Fraction(2, 3): "two thirds", Fraction(1, 6): "a sixth",
    Fraction(1, 8): "an eighth", Fraction(3, 8): "three eighths", Fraction(5, 8): "five eighths",
}


def _names(names: Sequence[str] | None, n: int) -> list[str]:
    if names is None:
        return [f"seat {s}" for s in range(n)]
    if isinstance(names, str):
        raise TypeError("names must be a sequence of names, one per seat, not a str")
    out = [str(x) for x in names]
    if len(out) != n:
        raise ShowdownError(f"{len(out)} names for {n} seats")
    return out


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _hand_lines(result: ShowdownResult | Settlement, who: list[str]) -> list[str]:
    lines = [f"{SCORINGS[result.game].title} (ranks: lower is better)"]
    for s, hand in enumerate(result.hands):
        if hand is None:
            lines.append(f"{who[s]}: folded")
            continue
        words, value = result.descriptions[s], result.values[s]
        if words is None:
            lines.append(f"{who[s]}: {format_cards(hand) if hand else 'cards not shown'}")
            continue
        parts = [f"{half} {getattr(words, half)} (rank {getattr(value, half)})"
                 for half in (LOW, BADUGI) if getattr(value, half) is not None]
        lines.append(f"{who[s]}: {format_cards(hand)}: {', '.join(parts)}")
    return lines


def _pot_lines(pot: PotResult, rules: Scoring, words: tuple, who: list[str], odd_chip: str, button: int,
               indent: str) -> list[str]:
    if pot.uncontested:
        seat = pot.eligible[0]
        if indent:  # one pot among several: its only eligible seat takes it
            return [f"{indent}{who[seat]} takes it uncontested ({pot.amount} chips)"]
        return [f"{who[seat]} wins the whole pot ({pot.amount} chips): everyone else folded"]
    lines = []
    for half, winners in ((LOW, pot.low_winners), (BADUGI, pot.badugi_winners)):
        if half not in rules.halves:
            continue
        what = getattr(words[winners[0]], half)
        players = _join([who[s] for s in winners])
        if len(rules.halves) == 2:
            verb = f"wins with {what}" if len(winners) == 1 else f"tie with {what} and split it"
            lines.append(f"{indent}{half.capitalize()} half: {players} {verb}")
        else:
            verb = "with" if len(winners) == 1 else "tie with"
            lines.append(f"{indent}Best {half}: {players} {verb} {what}")
    takes = []
    for s in pot.eligible:
        share = pot.shares[s]
        if share == 0:
            continue
        if share == 1:
            phrase = "scoops the whole pot" if len(rules.halves) == 2 else "wins the whole pot"
        else:
            phrase = "takes " + _FRACTION_WORDS.get(share, f"{share} of the pot")
        takes.append(f"{who[s]} {phrase} ({pot.chips[s]} chips)")
    lines.append(indent + " · ".join(takes))
    if pot.amount & 1 and len(rules.halves) == 2 and pot.scooper is None:
        if odd_chip == "low":
            lines.append(f"{indent}The odd chip goes to the low half (odd_chip='low')")
        else:
            first = next(s for s in _clockwise(pot.eligible, button, len(who))
                         if s in pot.low_winners or s in pot.badugi_winners)
            lines.append(f"{indent}The odd chip goes to {who[first]}, the first winner clockwise from the button")
    return lines
