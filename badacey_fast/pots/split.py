"""The one split of a pot among its winners (RULES.md §3): halves, ties, odd chips.

Every settlement path (``showdown``, ``settle``'s general path and its one-pot fast path) pays a pot
through :func:`split_pot`, so the odd-chip rule has one home.  Chips are ints; every chip is paid.

>>> chips = [0, 0, 0]
>>> split_pot(101, [1, 2, 0], [0], [2], odd_low=False, chips=chips)   # seat 2 is first after the button
>>> chips
[50, 0, 51]
>>> chips = [0, 0, 0]
>>> split_pot(101, [1, 2, 0], [0], [2], odd_low=True, chips=chips)    # odd chip to the low half
>>> chips
[51, 0, 50]
>>> split_pot(7, [0, 1], [], [], odd_low=False, chips=[0, 0])
Traceback (most recent call last):
...
ValueError: a pot of 7 chips has no winner
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["split_pot"]


def _share(amount: int, winners: Sequence[int], chips: list[int]) -> None:
    # Leftover chips of an uneven split go one each to the winners first clockwise from the button;
    # ``winners`` is already in that order.
    if len(winners) == 1:
        chips[winners[0]] += amount
        return
    q, r = divmod(amount, len(winners))
    for i, s in enumerate(winners):
        chips[s] += q + (i < r)


def split_pot(amount: int, order: Sequence[int], low_winners: Sequence[int], badugi_winners: Sequence[int],
              odd_low: bool, chips: list[int]) -> None:
    """Add one pot's payouts to ``chips`` (one int per seat).

    ``amount``: the pot's chips (int >= 0).  ``order``: the pot's contenders clockwise from the button
    (button + 1 first: the worst position first).  ``low_winners`` / ``badugi_winners``: each half's
    winners, in that same clockwise order; a single-pot game leaves the half it does not play empty and
    its winners take the whole pot.  Split games: the pot splits in two halves, each shared equally
    among its winners, leftover chips one each to the tied winners first clockwise; the odd chip of an
    odd pot goes to the low half (``odd_low``) or to the first winner of either half clockwise.
    """
    if not low_winners or not badugi_winners:
        winners = low_winners or badugi_winners
        if not winners:
            raise ValueError(f"a pot of {amount} chips has no winner")
        _share(amount, winners, chips)
        return
    half = amount >> 1
    low_amount = half
    if amount & 1:
        if odd_low:
            low_amount += 1
        else:  # the worst-positioned winner of either half: first clockwise from the button
            for s in order:
                if s in low_winners or s in badugi_winners:
                    chips[s] += 1
                    break
    _share(low_amount, low_winners, chips)
    _share(half, badugi_winners, chips)
