"""Odd chips (RULES.md §3): the two policies, the one check of a policy name, and the seat order.

- ``"position"`` (default): the odd chip of an odd pot goes to the winner (of either half) first clockwise
  from the button, the worst position;
- ``"low"``: the odd chip of an odd pot goes to the low half (BARGE's rule for split games).

Chips left over when a half is split between tied winners go one each to those winners, first clockwise
from the button first, under both policies.  The arithmetic is :func:`badacey_fast.pots.split_pot`.

>>> check_odd_chip("low"), clockwise([0, 2, 3], button=2)
('low', [3, 0, 2])
>>> check_odd_chip("high")
Traceback (most recent call last):
...
badacey_fast.errors.ShowdownError: unknown odd_chip policy 'high': expected 'position' or 'low'
"""

from __future__ import annotations

from collections.abc import Sequence

from badacey_fast.errors import BadaceyError, ShowdownError

__all__ = ["ODD_CHIP_POLICIES", "check_odd_chip", "clockwise"]

#: The policy names, in the order of the kernel's ``odd_low`` flag (0 = position, 1 = low).
ODD_CHIP_POLICIES = ("position", "low")


def check_odd_chip(policy: object, error: type[BadaceyError] = ShowdownError) -> str:
    """Return ``policy`` if it names an odd-chip policy; else ``error`` (a ValueError subclass) naming it.

    ``error`` lets the caller's own error class carry the same message (``GameConfig`` raises its
    ``ConfigError``).

    >>> check_odd_chip(None)
    Traceback (most recent call last):
    ...
    TypeError: odd_chip must be a str, not NoneType
    """
    if isinstance(policy, str) and (policy == "position" or policy == "low"):
        return policy
    if not isinstance(policy, str):
        raise TypeError(f"odd_chip must be a str, not {type(policy).__name__}")
    raise error(f"unknown odd_chip policy {policy!r}: expected 'position' or 'low'")


def clockwise(seats: Sequence[int], button: int) -> list[int]:
    """Seats (ints, given in seat order) clockwise from the button: button+1 first, the button itself last.

    The order in which odd chips are handed out: the first seat is the worst position.

    >>> clockwise([0, 1, 4, 5], button=4)
    [5, 0, 1, 4]
    """
    return [s for s in seats if s > button] + [s for s in seats if s <= button]
