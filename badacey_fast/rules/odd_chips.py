"""Odd chips and the one split of a pot among its winners (RULES.md §3): the policies, their one check,
the seat order from the button, and :func:`split_pot`.

- ``OddChip.POSITION`` (``"position"``, the default): the odd chip of an odd pot goes to the winner (of
  either half) first clockwise from the button, the worst position;
- ``OddChip.LOW`` (``"low"``): the odd chip of an odd pot goes to the low half (BARGE's rule for split games).

Chips left over when a half is split between tied winners go one each to those winners, first clockwise
from the button first, under both policies.  Every Python path that pays chips (``showdown``, ``settle``
and its one-pot fast path, the Python twin of the bulk showdown) pays a pot through :func:`split_pot`;
its C twin is ``bd_split_pot`` (csrc/showdown.c), which the C engine calls too.  A policy name is read
here and nowhere else: the entry points turn it into an :class:`OddChip` with :func:`odd_chip_policy`.

>>> odd_chip_policy("low"), clockwise([0, 2, 3], button=2)
(OddChip.LOW, [3, 0, 2])
>>> odd_chip_policy("high")
Traceback (most recent call last):
...
badacey_fast.errors.ShowdownError: unknown odd_chip policy 'high': expected 'position' or 'low'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from badacey_fast.errors import BadaceyError, ShowdownError

__all__ = ["OddChip", "ODD_CHIP_POLICIES", "odd_chip_policy", "clockwise", "first_clockwise", "split_pot"]


class OddChip(str, Enum):
    """Who gets the odd chip of an odd split pot (RULES.md §3).  A ``str``: equal to its name, so a
    result's ``odd_chip`` compares with ``"low"`` and writes as ``low``.

    >>> OddChip.LOW == "low", str(OddChip.POSITION), OddChip.LOW.odd_low
    (True, 'position', True)
    """

    POSITION = "position"
    LOW = "low"

    @property
    def odd_low(self) -> bool:
        """True when the odd chip goes to the low half: the kernel's ``odd_low`` flag."""
        return self is OddChip.LOW

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"OddChip.{self.name}"


#: The policy names, in the order of the kernel's ``odd_low`` flag (0 = position, 1 = low).
ODD_CHIP_POLICIES = ("position", "low")
# Name -> policy; an OddChip hashes and compares as its name, so it finds itself.
_BY_NAME = {member.value: member for member in OddChip}


def odd_chip_policy(policy: OddChip | str, error: type[BadaceyError] = ShowdownError) -> OddChip:
    """The :class:`OddChip` a policy name (``"position"`` or ``"low"``) names; an :class:`OddChip` is
    returned as it is.  Else ``error`` (a ValueError subclass) naming it: ``error`` lets the caller's own
    error class carry the same message (``GameConfig`` raises its ``ConfigError``).

    >>> odd_chip_policy("position") is odd_chip_policy(OddChip.POSITION) is OddChip.POSITION
    True
    >>> odd_chip_policy(None)
    Traceback (most recent call last):
    ...
    TypeError: odd_chip must be a str, not NoneType
    """
    if type(policy) is OddChip:
        return policy
    if not isinstance(policy, str):
        raise TypeError(f"odd_chip must be a str, not {type(policy).__name__}")
    found = _BY_NAME.get(policy)
    if found is None:
        raise error(f"unknown odd_chip policy {policy!r}: expected 'position' or 'low'")
    return found


def clockwise(seats: Sequence[int], button: int) -> list[int]:
    """Seats (ints, given in seat order) clockwise from the button: button+1 first, the button itself last.

    The order in which odd chips are handed out: the first seat is the worst position.

    >>> clockwise([0, 1, 4, 5], button=4)
    [5, 0, 1, 4]
    """
    return [s for s in seats if s > button] + [s for s in seats if s <= button]


def first_clockwise(button: int, seats: int, candidates: Sequence[int]) -> int:
    """The seat of ``candidates`` (at least one) first clockwise from the button among ``seats`` seats
    (button + 1 first, the button last): the worst position, which gets an odd chip under
    ``OddChip.POSITION``.

    >>> first_clockwise(2, 6, [0, 5, 3])
    3
    """
    first, gap = -1, seats
    for s in candidates:  # (a loop, not min(key=...): settle pays an odd pot through here)
        d = (s - button - 1) % seats
        if d < gap:
            first, gap = s, d
    return first


def _share(amount: int, winners: Sequence[int], chips: list[int]) -> None:
    # Leftover chips of an uneven split go one each to the winners first clockwise from the button;
    # ``winners`` is already in that order.
    if len(winners) == 1:
        chips[winners[0]] += amount
        return
    q, r = divmod(amount, len(winners))
    for i, s in enumerate(winners):
        chips[s] += q + (i < r)


def split_pot(amount: int, button: int, low_winners: Sequence[int], badugi_winners: Sequence[int],
              odd_chip: OddChip, chips: list[int]) -> None:
    """Add one pot's payouts to ``chips`` (one int per seat: ``len(chips)`` is the number of seats).

    ``amount``: the pot's chips (int >= 0).  ``button``: the button's seat.  ``low_winners`` /
    ``badugi_winners``: each half's winners, each in clockwise order from the button (button + 1 first:
    the worst position first); a single-pot game leaves the half it does not play empty and its winners
    take the whole pot.  Split games: the pot splits in two halves, each shared equally among its
    winners, leftover chips one each to the tied winners first clockwise; the odd chip of an odd pot goes
    to the low half (``OddChip.LOW``) or to the first winner of either half clockwise
    (``OddChip.POSITION``).  The C twin, ``bd_split_pot`` in csrc/showdown.c, takes the same arguments
    (the winners as seat masks).

    >>> chips = [0, 0, 0]
    >>> split_pot(101, 1, [0], [2], OddChip.POSITION, chips)   # seat 2 is first after the button
    >>> chips
    [50, 0, 51]
    >>> chips = [0, 0, 0]
    >>> split_pot(101, 1, [0], [2], OddChip.LOW, chips)        # odd chip to the low half
    >>> chips
    [51, 0, 50]
    >>> split_pot(7, 0, [], [], OddChip.POSITION, [0, 0])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: a pot of 7 chips has no winner
    """
    if not low_winners or not badugi_winners:
        winners = low_winners or badugi_winners
        if not winners:
            raise ShowdownError(f"a pot of {amount} chips has no winner")
        _share(amount, winners, chips)
        return
    half = amount >> 1
    low_amount = half
    if amount & 1:
        if odd_chip is OddChip.LOW:
            low_amount += 1
        else:  # the worst-positioned winner of either half: each half's first winner, the nearer one
            chips[first_clockwise(button, len(chips), (low_winners[0], badugi_winners[0]))] += 1
    _share(low_amount, low_winners, chips)
    _share(half, badugi_winners, chips)


def check_odd_chip(policy: OddChip | str, error: type[BadaceyError] = ShowdownError) -> str:
    """``odd_chip_policy(policy, error).value``: kept only until files/ hands an OddChip down (issue 23,
    phase 2).

    >>> check_odd_chip("low")
    'low'
    """
    return odd_chip_policy(policy, error).value
