"""Reading the pieces every room writes: amounts (exact, in the smallest unit) and cards.

>>> amount("$1,234.5", 2), amount("22", 2), amount("1,500", 0), amount("12.50€", 2)
(123450, 2200, 1500, 1250)
>>> cards("[Ad 7h 8h]"), cards("Ah,5h,Ts"), cards("[X X X X X]")
((1, 26, 30), (2, 18, 39), None)
>>> amount("0.125", 2)
Traceback (most recent call last):
...
badacey_fast.errors.BadaceyError: amount '0.125' has more than 2 decimals
"""

from __future__ import annotations

import re

from badacey_fast.errors import BadaceyError, InvalidCardError
from badacey_fast.cards import RANK_CHARS, SUIT_CHARS
from badacey_fast.kernel import xml_attributes

__all__ = ["amount", "cards", "card", "CARD_IDS", "ATTRIBUTE", "attributes"]

#: Card text -> id, in every spelling a room writes: ``Ad``, ``AD``, ``ad``, ``10d``.
CARD_IDS: dict[str, int] = {}
for _r, _rc in enumerate(RANK_CHARS):
    for _s, _sc in enumerate(SUIT_CHARS):
        for _rt in {_rc, _rc.lower()} | ({"10"} if _rc == "T" else set()):
            for _st in (_sc, _sc.upper()):
                CARD_IDS[_rt + _st] = 4 * _r + _s
del _r, _rc, _s, _sc, _rt, _st

_STRIP = "$€£ \t"
_POW = (1, 10, 100, 1000, 10000)


# A hand's amounts repeat (the stakes): each text is read once per unit.  One table per scale (0..4), so
# the look-up key is the text itself, not a (text, scale) pair built on every call.
_SEEN: tuple[dict[str, int], ...] = tuple({} for _ in _POW)


def amount(text: str, scale: int) -> int:
    """An amount as written (``$1,234.56``, ``12.50€``, ``1,500``, ``(168)``) in units of 10**-scale.
    ``ValueError`` naming the text when it is not an amount or has more decimals than the unit."""
    seen = _SEEN[scale]
    got = seen.get(text)
    if got is None:
        got = _amount(text, scale)
        if len(seen) > 1 << 16:  # bounded: a long import sees endless odd amounts
            seen.clear()
        seen[text] = got
    return got


def _amount(text: str, scale: int) -> int:
    if text.isdigit():  # the usual tournament chips, and whole dollars
        return int(text) * _POW[scale]
    t = text.strip(_STRIP + "()").replace(",", "")
    if t.endswith(("USD", "EUR", "GBP", "CAD")):
        t = t[:-3].rstrip(_STRIP)
    whole, dot, frac = t.partition(".")
    if not whole.isdigit():
        if whole or not dot:
            raise BadaceyError(f"{text!r} is not an amount")
        whole = "0"
    if dot:
        frac = frac.rstrip("0")
        if len(frac) > scale:
            raise BadaceyError(f"amount {text.strip()!r} has more than {scale} decimals")
        if frac and not frac.isdigit():
            raise BadaceyError(f"{text!r} is not an amount")
        return int(whole) * _POW[scale] + (int(frac) * _POW[scale - len(frac)] if frac else 0)
    return int(whole) * _POW[scale]


def card(token: str) -> int:
    """One card's id from its text (``Ad``, ``10h``); ``ValueError`` naming the token otherwise."""
    c = CARD_IDS.get(token)
    if c is None:
        raise InvalidCardError(f"{token!r} is not a card")
    return c


def cards(text: str) -> tuple[int, ...] | None:
    """The cards of a bracketed or comma/space separated list (``[Ad 7h]``, ``Ah,5h``, ``[Tc, 9h]``);
    None when the room hides them (``[X X]``, ``[]`` for a hidden hand); ``ValueError`` naming a token that
    is no card."""
    t = text.strip("[] ")
    if "," in t:
        t = t.replace(",", " ")
    tokens = t.split()
    if not tokens or tokens[0] in _HIDDEN:
        return None
    try:
        return tuple(map(CARD_IDS.__getitem__, tokens))
    except KeyError as exc:
        raise InvalidCardError(f"{exc.args[0]!r} is not a card") from None


_HIDDEN = frozenset({"X", "x", "??", "xx"})


#: An XML room's attribute (Merge, Boss): ``name="value"``.
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


def attributes(line: str) -> dict[str, str]:
    """The attributes of an XML room's line, ``dict(ATTRIBUTE.findall(line))`` (the last of a name given
    twice): read in C for an ASCII line (csrc/cpython/lines.c, a quarter of the expression's cost), else by
    the expression.

    >>> attributes('<event sequence="3" type="CALL" player="1" amount="0.50"/>')
    {'sequence': '3', 'type': 'CALL', 'player': '1', 'amount': '0.50'}
    """
    got = xml_attributes(line)
    return got if got is not None else dict(ATTRIBUTE.findall(line))
