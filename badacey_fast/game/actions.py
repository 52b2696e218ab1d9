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

import re
from collections.abc import Iterable
from typing import NamedTuple

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import IllegalActionError

__all__ = ["Action", "KINDS", "FOLD", "CHECK", "CALL", "BET", "RAISE", "DRAW", "draw", "format_action",
           "parse_action"]

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


# The words of format_action, read back (case and spacing free).  "raise 8" is refused rather than read:
# it could mean "to 8" or "by 8", and a server must not guess which.
_TEXT = re.compile(r"""\s*(?:
      (?P<kind>fold|check|call|bet|raise|draw)
      (?:\s+(?P<to>to\s+)?(?P<amount>[0-9]+))?
      (?:\s*\((?P<cards>[^()]*)\))?
    | (?P<pat>stand\s+pat|pat)
    )\s*$""", re.IGNORECASE | re.VERBOSE)


def parse_action(text: str) -> Action:
    """The action a line of text names: every form :func:`format_action` prints, read back.

    ``fold``, ``check``, ``call`` / ``call 2`` (the chips added), ``bet`` / ``bet 4``, ``raise`` /
    ``raise to 8`` (the seat's total bet in the round), ``stand pat`` (or ``pat``), ``draw 2 (7h Kd)``
    (the count must match the cards).  An amount is checked against the game when the action is applied.

    >>> parse_action("raise to 8"), parse_action("Call 2")
    (Action(kind='raise', amount=8, cards=None), Action(kind='call', amount=2, cards=None))
    >>> parse_action("draw 2 (7h Kd)") == draw("7h Kd"), parse_action("stand pat") == draw()
    (True, True)
    >>> parse_action("raise 8")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.IllegalActionError: 'raise 8' is ambiguous: say 'raise to 8' (the seat's total bet in the round)
    """
    if not isinstance(text, str):
        raise TypeError(f"expected action text, not {type(text).__name__}")
    m = _TEXT.match(text)
    if m is None:
        first = text.split()[0] if text.split() else text
        if first.lower() not in KINDS and first.lower() not in ("stand", "pat"):
            raise IllegalActionError(f"unknown action kind {first!r}: expected one of {', '.join(KINDS)}")
        raise IllegalActionError(f"cannot read the action {text!r}: expected e.g. 'call', 'call 2', 'bet 4', "
                                 "'raise to 8', 'fold', 'check', 'stand pat' or 'draw 2 (7h Kd)'")
    if m["pat"]:
        return draw()
    kind = m["kind"].lower()
    amount = None if m["amount"] is None else int(m["amount"])
    if kind == DRAW:
        if m["to"]:
            raise IllegalActionError(f"cannot read the action {text!r}: a draw takes no 'to'")
        if m["cards"] is None:
            if amount not in (None, 0):
                raise IllegalActionError(f"cannot read the action {text!r}: name the {amount} cards, "
                                         f"e.g. 'draw {amount} (7h Kd)'")
            return Action(DRAW) if amount is None else draw()  # a bare "draw": verify_draw reads it as pat
        got = draw(m["cards"])
        assert got.cards is not None
        if amount is not None and amount != len(got.cards):
            raise IllegalActionError(f"cannot read the action {text!r}: {amount} cards announced, "
                                     f"{len(got.cards)} named")
        return got
    if m["cards"] is not None:
        raise IllegalActionError(f"cannot read the action {text!r}: only a draw names cards")
    if kind == RAISE and amount is not None and not m["to"]:
        raise IllegalActionError(f"{text.strip()!r} is ambiguous: say 'raise to {amount}' (the seat's total bet "
                                 "in the round)")
    if m["to"] and kind != RAISE:
        raise IllegalActionError(f"cannot read the action {text!r}: only a raise is 'to' an amount")
    if amount is not None and kind in (FOLD, CHECK):
        raise IllegalActionError(f"illegal amount: {kind} takes no amount, got {amount}")
    return Action(kind, amount)
