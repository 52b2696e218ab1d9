"""The two games and their other spellings (RULES.md §5).

>>> normalize_game("Baduci")
'badeucy'
>>> normalize_game("razz")
Traceback (most recent call last):
...
badacey_fast.errors.UnknownGameError: unknown game 'razz': expected 'badacey' or 'badeucy' (or Badacy, Badaci, Badeucey, Baduci)
"""

from __future__ import annotations

from .errors import UnknownGameError

__all__ = ["GAMES", "BADACEY", "BADEUCY", "normalize_game", "is_ace_high"]

BADACEY = "badacey"
BADEUCY = "badeucy"
#: The canonical game names, in the order of their integer codes (0 = Badacey, 1 = Badeucy).
GAMES = (BADACEY, BADEUCY)

_SPELLINGS = {
    "badacey": BADACEY,
    "badacy": BADACEY,
    "badaci": BADACEY,
    "badeucy": BADEUCY,
    "badeucey": BADEUCY,
    "baduci": BADEUCY,
}


def normalize_game(game: str) -> str:
    """Return the canonical name (``"badacey"`` or ``"badeucy"``) of a game name in any spelling.

    Badacey = Badacy = Badaci (A-5 low + ace-low badugi); Badeucy = Badeucey = Baduci
    (2-7 low + ace-high badugi).  Case does not matter.

    >>> normalize_game("BADACI")
    'badacey'
    >>> normalize_game(7)
    Traceback (most recent call last):
    ...
    TypeError: game must be a str, not int
    """
    if not isinstance(game, str):
        raise TypeError(f"game must be a str, not {type(game).__name__}")
    try:
        return _SPELLINGS[game.strip().lower()]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {game!r}: expected 'badacey' or 'badeucy' "
            "(or Badacy, Badaci, Badeucey, Baduci)"
        ) from None


def is_ace_high(game: str) -> bool:
    """True when the game plays aces high (Badeucy: 2-7 low, ace-high badugi).

    >>> is_ace_high("badacey"), is_ace_high("badeucy")
    (False, True)
    """
    return normalize_game(game) == BADEUCY
