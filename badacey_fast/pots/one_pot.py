"""settle's fast path: the common showdown (one pot, live seats paid the same) of every game (RULES.md §3).

The rules engine settles hundreds of thousands of showdowns a second through
:func:`badacey_fast.pots.settle`; nearly all of them are one pot between live seats that each put in
the same chips, with the hands as tuples of card ids (both halves of a split game, or the one half of a
single-pot game: Badugi, A-5, 2-7 -- searches such as OpenSpiel's MCCFR settle one per leaf).  :func:`settle_one_pot` settles exactly that case
with one kernel call per hand and no re-parsing, and declines (returns None) everything else, which
``settle`` then hands to its general path (main and side pots, text hands, and every error message).
Both paths give equal :class:`~badacey_fast.pots.results.Settlement` objects; ranks are dense, lower is better.

>>> from badacey_fast.rules.games import scoring
>>> from badacey_fast.rules.odd_chips import OddChip
>>> badacey, badugi, position = scoring("badacey"), scoring("badugi"), OddChip.POSITION
>>> s = settle_one_pot([10, 10], [(0, 5, 10, 15, 16), (1, 6, 11, 17, 20)], 0, badacey, position)
>>> s.payouts, s.low_ranks           # Ac 2d 3h 4s 5c scoops Ad 2h 3s 5d 6c (6-5-3-2-A: low rank 3)
([20, 0], (1, 3))
>>> settle_one_pot([10, 20], [(0, 5, 10, 15, 16), (1, 6, 11, 17, 20)], 0, badacey, position) is None
True
>>> settle_one_pot([10, 10], [(0, 5, 10, 15, 16)], 0, badacey, position) is None   # 1 hand, 2 chips
True
>>> settle_one_pot([3, 3], [(0, 5, 10, 15), (1, 6, 11, 17)], 1, badugi, position).payouts  # A234 badugi
[6, 0]
"""

from __future__ import annotations

from bisect import bisect_right

from badacey_fast import kernel
from badacey_fast.pots.results import PotResult, Settlement
from badacey_fast.rules.games import LOW, Scoring
from badacey_fast.rules.odd_chips import OddChip, split_pot

__all__ = ["settle_one_pot"]

_CARD_IDS = frozenset(range(52))
_new_object = object.__new__
_INT_TYPES = {int}


def settle_one_pot(contributions: object, hands: object, button: object, rules: Scoring,
                   odd_chip: OddChip) -> Settlement | None:
    """:func:`~badacey_fast.pots.settle` for the common case, or None to let its general path decide.

    The common case: ``hands`` a list or tuple of int-tuples of the game's hand size in card ids (five, or
    four in Badugi; or None), at least two live, every live seat with the same contribution (one pot: no
    side pot), ints everywhere.  ``rules`` and ``odd_chip`` are read already (by ``settle``).  The result equals the general path's (tests check it on random
    input); any doubt returns None, so this path never raises and never guesses.
    """
    if type(hands) is not list and type(hands) is not tuple:
        return None
    if type(contributions) is not list and type(contributions) is not tuple:
        return None
    n = len(hands)
    size = rules.hand_size
    if len(contributions) != n or type(button) is not int or not 0 <= button < n:
        return None
    if set(map(type, contributions)) != _INT_TYPES or min(contributions) < 0:
        return None
    live: list[int] = []
    level = -1
    cards: tuple[int, ...] = ()
    for s in range(n):  # one pass: the live seats, their contribution (one level: one pot), their cards
        hand = hands[s]
        if hand is not None:
            if type(hand) is not tuple or len(hand) != size:
                return None  # text, UNSHOWN or a wrong size: the general path
            if level != contributions[s]:
                if level >= 0:
                    return None  # live seats paid different amounts: side pots, the general path
                level = contributions[s]
            live.append(s)
            cards += hand
    if len(live) < 2:
        return None
    # Live seats clockwise from the button (button + 1 first): the order odd chips are handed out in.
    k = bisect_right(live, button)
    order = live[k:] + live[:k]
    # Three C-level checks for every card at once: ints (not bools or numpy ints), ids 0..51, all distinct.
    if (set(map(type, cards)) != _INT_TYPES or not _CARD_IDS.issuperset(cards)
            or len(set(cards)) != len(cards)):
        return None
    amount = sum(contributions)
    if amount == 0:
        return None
    lows: list[int | None] = [None] * n
    bads: list[int | None] = [None] * n
    low_w: list[int] = []
    bad_w: list[int] = []
    halves = rules.halves
    if len(halves) == 2:
        single = kernel.single[rules.ace_high]
        evaluate5 = kernel.evaluate5
        best_low = best_bad = 1 << 30
        for s in order:  # one evaluation per hand; each half's winners collected in clockwise order
            if single is not None:  # the C twin with its table loaded: one C call, no re-parsing
                value = single(hands[s])
                if value is None:
                    return None  # a hand that is not a plain tuple or list: the general path takes it
                low, bad = lows[s], bads[s] = value
            else:
                low, bad = lows[s], bads[s] = evaluate5(hands[s], rules.ace_high)
            if low < best_low:
                best_low = low
                low_w = [s]
            elif low == best_low:
                low_w.append(s)
            if bad < best_bad:
                best_bad = bad
                bad_w = [s]
            elif bad == best_bad:
                bad_w.append(s)
    else:  # a single-pot game: the one half it plays takes the whole pot
        low_half = halves[0] == LOW
        rank = kernel.low_rank5 if low_half else kernel.badugi_rank
        ranks = lows if low_half else bads
        winners = low_w if low_half else bad_w
        best = 1 << 30
        for s in order:
            r = ranks[s] = rank(hands[s], rules.ace_high)
            if r < best:
                best = r
                winners[:] = [s]
            elif r == best:
                winners.append(s)
    chips = [0] * n
    split_pot(amount, button, low_w, bad_w, odd_chip, chips)
    # The result objects are frozen dataclasses: filling their __dict__ directly skips the per-field
    # object.__setattr__ of their __init__ (the same fields, values and types as the general path).
    pot = _new_object(PotResult)
    pot.__dict__.update(amount=amount, eligible=tuple(live), low_winners=tuple(sorted(low_w)),
                        badugi_winners=tuple(sorted(bad_w)), chips=tuple(chips), halves=len(halves))
    out = _new_object(Settlement)
    out.__dict__.update(game=rules.game, button=button, odd_chip=odd_chip, contributions=tuple(contributions),
                        hands=tuple(hands), low_ranks=tuple(lows), badugi_ranks=tuple(bads), pots=(pot,),
                        payouts=chips)
    return out
