"""Player actions: fold, check, call, bet, raise (with chip amounts) and draw (with a discard set).

Amounts are chips in the smallest unit: for ``call`` the chips added by the call; for ``bet`` and
``raise`` the seat's TOTAL bet in the current betting round after the action ("raise to", as PHH's
``cbr``).  In :meth:`Game.legal_actions`, the ``draw`` action's ``cards`` lists the cards the seat
holds: any subset of them (including none, standing pat) may be discarded.

>>> Action("raise", 4)
Action(kind='raise', amount=4, cards=None)
>>> draw("7h Kd")
Action(kind='draw', amount=None, cards=(26, 49))
>>> Action("shove")
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: unknown action kind 'shove': expected one of fold, check, call, bet, raise, draw
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import IllegalActionError

__all__ = ["Action", "KINDS", "FOLD", "CHECK", "CALL", "BET", "RAISE", "DRAW", "draw", "format_action"]

FOLD, CHECK, CALL, BET, RAISE, DRAW = "fold", "check", "call", "bet", "raise", "draw"
KINDS = (FOLD, CHECK, CALL, BET, RAISE, DRAW)


class _ActionBase(NamedTuple):
    kind: str
    amount: int | None = None
    cards: tuple[int, ...] | None = None


class Action(_ActionBase):
    """One action.  ``amount`` may be omitted (``None``) when the limit fixes it; ``cards`` only for draws.

    >>> Action("call")
    Action(kind='call', amount=None, cards=None)
    """

    __slots__ = ()

    def __new__(cls, kind: str, amount: int | None = None, cards: tuple[int, ...] | None = None) -> "Action":
        if kind not in KINDS:
            raise IllegalActionError(f"unknown action kind {kind!r}: expected one of {', '.join(KINDS)}")
        return _ActionBase.__new__(cls, kind, amount, cards)


def draw(cards: str | Iterable[int | str] = ()) -> Action:
    """A draw action discarding ``cards`` (text like ``"7h Kd"`` or card ids; empty = stand pat).

    >>> draw()
    Action(kind='draw', amount=None, cards=())
    >>> draw("7h 7h")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.DuplicateCardError: card '7h' is given twice
    """
    return _ActionBase.__new__(Action, DRAW, None, parse_cards(cards) if cards != () else ())


def format_action(action: Action) -> str:
    """A short human form of an action, e.g. ``raise to 8``, ``draw 2 (7h Kd)``, ``stand pat``.

    >>> format_action(Action("raise", 8)), format_action(draw("7h Kd")), format_action(draw())
    ('raise to 8', 'draw 2 (7h Kd)', 'stand pat')
    >>> format_action("fold")
    Traceback (most recent call last):
    ...
    TypeError: expected an Action, not str
    """
    if not isinstance(action, Action):
        raise TypeError(f"expected an Action, not {type(action).__name__}")
    kind, amount, cards = action
    if kind == DRAW:
        if not cards:
            return "stand pat"
        return f"draw {len(cards)} ({format_cards(cards)})"
    if kind == BET:
        return f"bet {amount}" if amount is not None else kind
    if kind == RAISE:
        return f"raise to {amount}" if amount is not None else kind
    if kind == CALL and amount is not None:
        return f"call {amount}"
    return kind
