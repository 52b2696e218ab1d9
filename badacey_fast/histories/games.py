"""The rooms' names for draw games, and which are ours: one table from a variant's words to the game,
its draws and hand size (the presets of :mod:`badacey_fast.game` where the variant is one).

>>> variant("Triple Draw 2-7 Lowball"), variant("Limit Badacey"), variant("5 Card Draw")
(('27', 3, 5), ('badacey', 3, 5), (None, 1, 5))
>>> variant("A-5 Single Draw"), variant("Hold'em")
((None, 1, 5), (None, 0, 2))
>>> betting("Pot Limit"), betting("fixed limit"), betting("NL"), betting("Half Pot Limit")
('pot', 'fixed', 'no', 'half-pot')
"""

from __future__ import annotations

import re

__all__ = ["variant", "betting"]

# (pattern, preset or None, draws, hand size), first match wins: single draws before the triple draws
# that share their words, the split games before Badugi.
_VARIANTS: list[tuple[re.Pattern[str], str | None, int, int]] = [
    (re.compile(p, re.I), g, d, s) for p, g, d, s in (
        (r"drawmaha", None, 1, 5),
        (r"bad[a]?ce[y]?|badacy|badaci", "badacey", 3, 5),
        (r"badeuc[e]?y|baduci", "badeucy", 3, 5),
        (r"badugi", "badugi", 3, 4),
        (r"(single|1)[- ]draw", None, 1, 5),
        (r"a-?5|ace.to.five|a5", "a5", 3, 5),
        (r"2-?7|deuce|lowball27|27", "27", 3, 5),
        (r"5.card draw|five.card.draw|five_card_draw|5cd|fcd|^5-draw", None, 1, 5),
        (r"hold'?em|omaha|stud|razz|courchevel", None, 0, 2),
    )
]


_KNOWN: dict[str, tuple[str | None, int, int]] = {}


def variant(words: str) -> tuple[str | None, int, int]:
    """``(preset or None, draws, hand size)`` of a variant in a room's words.  An unknown variant is
    ``(None, 0, 5)``: read as far as the text goes, never replayed."""
    got = _KNOWN.get(words)
    if got is None:
        if len(_KNOWN) > 4096:
            _KNOWN.clear()
        got = _KNOWN[words] = _variant(words)
    return got


def _variant(words: str) -> tuple[str | None, int, int]:
    for pattern, game, draws, size in _VARIANTS:
        if pattern.search(words):
            if game is None and draws == 0 and re.search(r"omaha", words, re.I):
                return None, 0, 4
            return game, draws, size
    return None, 0, 5


def betting(words: str) -> str:
    """``"fixed"``, ``"pot"``, ``"half-pot"`` or ``"no"`` from a room's words for the betting structure
    (``Limit``, ``FL``, ``Pot Limit``, ``PL``, ``No Limit``, ``NL``, ``Half Pot Limit``, ``HPL``)."""
    w = words.lower().replace("-", " ").strip()
    if "half" in w or w == "hpl":
        return "half-pot"
    if "pot" in w or w == "pl":
        return "pot"
    if "no limit" in w or w in ("nl", "no"):
        return "no"
    return "fixed"
