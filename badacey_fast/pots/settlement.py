"""Showdown and settlement (RULES.md §3): halves, ties, odd chips, side pots.

A Badacey or Badeucy pot is split in two halves, the low and the badugi, judged independently from the
same five cards; each half is divided equally among its tied winners.  Ranks are dense and **lower is
better**.  Chips are ints in the smallest unit: every chip is paid out, none is created.

This module reads the arguments once (a game spelling into its :class:`~badacey_fast.rules.games.Scoring`,
an odd-chip policy into its :class:`~badacey_fast.rules.odd_chips.OddChip`), finds the winners of every pot
and pays each pot with the one split, :func:`badacey_fast.rules.odd_chips.split_pot`.  The result objects
and their words (``explain()``) are in :mod:`badacey_fast.pots.results`.

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
from typing import Any, cast

from badacey_fast import kernel
from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import BadaceyError, DuplicateCardError, ShowdownError
from badacey_fast.rules.decks import dealt
from badacey_fast.pots.one_pot import settle_one_pot
from badacey_fast.pots.results import UNSHOWN, PotResult, SeatHand, Settlement, ShowdownResult
from badacey_fast.rules.games import BADUGI, LOW, Scoring, scoring
from badacey_fast.rules.odd_chips import OddChip, clockwise, odd_chip_policy, split_pot

__all__ = ["showdown", "showdown_detail", "settle", "settle_general", "side_pots"]


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


_CARD_IDS = frozenset(range(52))
#: one seat's cards as ids (``()`` for an UNSHOWN hand; None for a folded seat, in ``list[Hand | None]``)
Hand = tuple[int, ...]
#: one rank per seat, None where folded or for a half the game does not play
Ranks = list["int | None"]
_INT_ONLY = {int}


def _read_hands(hands: object, size: int) -> tuple[list[Hand | None], list[int]]:
    """Card tuples per seat (None folded, () unshown) and the live seats, cards distinct across hands."""
    if type(hands) is not list and type(hands) is not tuple:  # the ABC check below is slow: lists skip it
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
            raise TypeError(
                f"hands must be a sequence with one hand (or None) per seat, not {type(hands).__name__}"
            )
    out: list[Any] = list(hands)  # the caller's items, each replaced by its Hand (or kept None) below
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


def _raise_duplicate(hands: list[Hand | None]) -> None:
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


def _evaluate(rules: Scoring, hands: list[Hand | None], live: list[int]) -> tuple[Ranks, Ranks]:
    """Low and badugi ranks per seat (None where folded or a half not played); each hand evaluated once."""
    impl = kernel  # the dispatch: the active twin at call time
    n = len(hands)
    lows: Ranks = [None] * n
    bads: Ranks = [None] * n
    ace_high = rules.ace_high
    held = cast("list[Hand]", hands)  # read only at live seats, which hold a Hand (_read_hands)
    if len(rules.halves) == 2:
        for s in live:
            lows[s], bads[s] = impl.evaluate5(held[s], ace_high)
    elif rules.halves[0] == LOW:
        for s in live:
            lows[s] = impl.low_rank5(held[s], ace_high)
    else:
        for s in live:
            bads[s] = impl.badugi_rank(held[s], ace_high)
    return lows, bads


def _split(amount: int, button: int, order: list[int], lows: Ranks, bads: Ranks, rules: Scoring, odd_chip: OddChip,
           chips: list[int]) -> tuple[list[int], list[int]]:
    """Pay one pot among ``order`` (contenders clockwise from the button) into ``chips``; the winners."""
    if len(order) == 1:
        chips[order[0]] += amount
        return (order if LOW in rules.halves else []), (order if BADUGI in rules.halves else [])
    low_w: list[int] = []
    bad_w: list[int] = []
    if LOW in rules.halves:
        # A played half: every contender has a rank (an int).  List comprehensions beat generator min()
        # on this hot path.
        ranks = cast("list[int]", [lows[s] for s in order])
        best = min(ranks)
        low_w = [s for s, r in zip(order, ranks) if r == best]
    if BADUGI in rules.halves:
        ranks = cast("list[int]", [bads[s] for s in order])
        best = min(ranks)
        bad_w = [s for s, r in zip(order, ranks) if r == best]
    split_pot(amount, button, low_w, bad_w, odd_chip, chips)
    return low_w, bad_w


def _pot_result(amount: int, eligible: list[int], low_w: list[int], bad_w: list[int], chips: list[int],
                rules: Scoring) -> PotResult:
    return PotResult(amount, tuple(sorted(eligible)), tuple(sorted(low_w)), tuple(sorted(bad_w)),
                     tuple(chips), len(rules.halves))


# ---------------------------------------------------------------------------------------------------------
# the public functions


def showdown(hands: Sequence[SeatHand], pot: int, button: int = 0, game: Scoring | str = "badacey",
             odd_chip: OddChip | str = "position") -> list[int | None]:
    """Split one pot of ``pot`` chips (int >= 0) among the live hands; payout per seat, None if folded.

    ``hands`` has one entry per seat in seat order (0..P-1, clockwise): a hand (text or card ids) or
    None for a folded or empty seat.  A lone live seat wins without showing; its entry may be
    :data:`UNSHOWN`.  ``button`` is a seat number.  ``game``: "badacey", "badeucy" (low and badugi
    halves), or the single-pot "badugi" (4-card hands), "a5", "27", in any spelling (or a
    :class:`~badacey_fast.rules.games.Scoring`).  ``odd_chip``: "position" or "low" (an
    :class:`~badacey_fast.rules.odd_chips.OddChip`; see RULES.md §3).  The payouts always sum to ``pot``.

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
    rules, policy, cards, live, pot, button = _read_showdown(hands, pot, button, game, odd_chip)
    n = len(cards)
    if len(live) == 1:  # everyone else folded: no cards are judged
        payouts: list[int | None] = [None] * n
        payouts[live[0]] = pot
        return payouts
    lows, bads = _evaluate(rules, cards, live)
    chips = [0] * n
    _split(pot, button, clockwise(live, button), lows, bads, rules, policy, chips)
    return [None if h is None else chips[s] for s, h in enumerate(cards)]


def _read_showdown(hands: object, pot: object, button: object, game: Scoring | str, odd_chip: OddChip | str
                   ) -> tuple[Scoring, OddChip, list[Hand | None], list[int], int, int]:
    """Check one showdown's arguments (shared by showdown and showdown_detail)."""
    rules = scoring(game)
    policy = odd_chip_policy(odd_chip)
    cards, live = _read_hands(hands, rules.hand_size)
    return rules, policy, cards, live, _chips(pot, "pot"), _button(button, len(cards))


def showdown_detail(hands: Sequence[SeatHand], pot: int, button: int = 0, game: Scoring | str = "badacey",
                    odd_chip: OddChip | str = "position") -> ShowdownResult:
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
    rules, policy, cards, live, pot, button = _read_showdown(hands, pot, button, game, odd_chip)
    n = len(cards)
    if len(live) > 1:
        lows, bads = _evaluate(rules, cards, live)
    else:
        lows, bads = [None] * n, [None] * n
    chips = [0] * n
    low_w, bad_w = _split(pot, button, clockwise(live, button), lows, bads, rules, policy, chips)
    return ShowdownResult(
        game=rules.game, button=button, odd_chip=policy, hands=tuple(cards), low_ranks=tuple(lows),
        badugi_ranks=tuple(bads),
        pot=_pot_result(pot, live, low_w, bad_w, chips, rules),
        payouts=[None if h is None else chips[s] for s, h in enumerate(cards)],
    )


def settle(contributions: Sequence[int], hands: Sequence[SeatHand], button: int = 0,
           game: Scoring | str = "badacey", odd_chip: OddChip | str = "position",
           hand_size: int | None = None) -> Settlement:
    """Build the main and side pots from each seat's total contribution and settle each one.

    ``contributions``: chips each seat put in this hand (ints >= 0), in seat order; ``hands`` as in
    :func:`showdown` (None = folded).  A pot level is drawn at every live seat's contribution; each pot
    is settled among the live seats that reached its level.  A folded seat's chips stay in the pots but it
    is eligible for none; chips a folded seat put in above every live seat's contribution (dead money
    nobody live matched) join the top pot.  ``payouts`` sums to ``sum(contributions)``; folded seats get 0.
    ``hand_size``: cards per hand, default the game's (5, Badugi 4); a small Badugi game (RULES.md §6)
    may deal 1 to 4, each hand then judged on the same scale.

    >>> s = settle([20, 60, 60, 101], ["As 2h 3d 4c 5s", "2c 4h 6h 7h Ac", "Ks Qd 9c 5h 5d", None])
    >>> s.payouts, [p.amount for p in s.pots], [p.eligible for p in s.pots]
    ([80, 81, 80, 0], [80, 161], [(0, 1, 2), (1, 2)])
    >>> settle([10, -5], ["As 2h 3d 4c 5s", "2c 3s 4h 5d 6c"])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: contribution of seat 1 is negative: -5
    """
    rules = scoring(game)
    if hand_size is not None and hand_size != rules.hand_size:
        rules = dealt(rules, hand_size)
    policy = odd_chip_policy(odd_chip)
    found = settle_one_pot(contributions, hands, button, rules, policy)
    if found is not None:
        return found
    return settle_general(contributions, hands, button, rules, policy)


def side_pots(contributions: Sequence[int], live: Sequence[int]) -> list[tuple[int, list[int]]]:
    """The main pot and the side pots (RULES.md §3) built from each seat's total contribution: a list of
    ``(chips, eligible seats)``, main pot first, every pot with chips.  ``live``: the seats still in the
    hand (a folded seat's chips stay in the pots, it is eligible for none).  The pots :func:`settle` pays.

    >>> side_pots([20, 60, 60, 101], [0, 1, 2])
    [(80, [0, 1, 2]), (161, [1, 2])]
    >>> side_pots([10, -1], [0, 1])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: contribution of seat 1 is negative: -1
    """
    paid = [_chips(c, f"contribution of seat {s}") for s, c in enumerate(contributions)]
    seats = sorted(set(live))
    if not seats:
        raise ShowdownError("no live seat: every pot needs one")
    for s in seats:
        if type(s) is not int or not 0 <= s < len(paid):
            raise ShowdownError(f"live seat {s!r} is not a seat 0..{len(paid) - 1}")
    return [(amount, eligible) for amount, eligible in _layers(paid, seats) if amount]


def _layers(paid: list[int], live: list[int]) -> list[tuple[int, list[int]]]:
    """(chips, eligible seats) per pot, main pot first (pots of 0 chips included)."""
    levels = sorted({paid[s] for s in live})
    if len(levels) == 1:  # the usual hand: every live seat put in the same, one pot (dead money included)
        return [(sum(paid), live)]
    layers = []
    prev = 0
    for level in levels:
        layers.append((sum(min(c, level) - min(c, prev) for c in paid), [s for s in live if paid[s] >= level]))
        prev = level
    # Chips a folded seat put in above every live seat: dead money nobody live matched, to the top pot.
    layers[-1] = (layers[-1][0] + sum(c - prev for c in paid if c > prev), layers[-1][1])
    return layers


def settle_general(contributions: Sequence[int], hands: Sequence[SeatHand], button: int, rules: Scoring,
                   odd_chip: OddChip) -> Settlement:
    """:func:`settle`'s general path, for every input (what its one-pot fast path,
    :func:`~badacey_fast.pots.one_pot.settle_one_pot`, declines): validates everything, builds main and
    side pots.  ``rules`` and ``odd_chip`` are already read (:func:`settle` reads them).

    >>> from badacey_fast.rules.games import scoring
    >>> settle_general([5, 5], ["As 2h 3d 4c 5s", "2c 3s 4h 5d 6c"], 0, scoring("badacey"), OddChip.LOW).payouts
    [10, 0]
    """
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
    layers = _layers(paid, live)
    pots = []
    total = [0] * n
    for amount, eligible in layers:
        if amount == 0:
            continue
        chips = [0] * n
        low_w, bad_w = _split(amount, button, clockwise(eligible, button), lows, bads, rules, odd_chip, chips)
        pots.append(_pot_result(amount, eligible, low_w, bad_w, chips, rules))
        for s in eligible:
            total[s] += chips[s]
    return Settlement(game=rules.game, button=button, odd_chip=odd_chip, contributions=tuple(paid),
                      hands=tuple(cards), low_ranks=tuple(lows), badugi_ranks=tuple(bads), pots=tuple(pots),
                      payouts=total)
