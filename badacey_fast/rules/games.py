"""The five games, every spelling of their names, and what each scores (RULES.md §2, §3, §5): one table.

Badacey and Badeucy split every pot between a low half and a badugi half; the single-pot games play one
of those halves for the whole pot (Badugi, A-5 and 2-7 triple draw: the rules engine's presets).  Every
entry point (evaluate, showdown, settle, the bulk calls, deal files, ``GameConfig``, the CLI) reads a
game's name through :func:`scoring` here, so a spelling accepted anywhere is accepted everywhere with
the same meaning.  A game's **scale family** is ``ace_high``: the ace-low games (Badacey, Badugi, A-5)
rank on the A-5 low and ace-low badugi scales, the ace-high ones (Badeucy, 2-7) on the 2-7 low and
ace-high badugi scales.  Ranks are dense and **lower is better**.

>>> normalize_game("Baduci"), normalize_game("deuce to seven"), normalize_game("A-5 Triple Draw")
('badeucy', '27', 'a5')
>>> scoring("badeucy").halves, scoring("2-7").ace_high, scoring("badugi").hand_size
(('low', 'badugi'), True, 4)
>>> normalize_game("razz")
Traceback (most recent call last):
...
badacey_fast.errors.UnknownGameError: unknown game 'razz': expected one of badacey, badeucy, badugi, a5, 27
"""

from __future__ import annotations

from dataclasses import dataclass

from badacey_fast.errors import UnknownGameError

__all__ = ["BADACEY", "BADEUCY", "GAMES", "PRESETS", "SPELLINGS", "LOW", "BADUGI", "Scoring", "SCORINGS",
           "scoring", "normalize_game", "is_ace_high", "scale_family"]

BADACEY = "badacey"
BADEUCY = "badeucy"
#: The two split-pot games, in the order of their integer codes and table files (0 = Badacey, 1 = Badeucy):
#: index by ``ace_high``.
GAMES = (BADACEY, BADEUCY)
#: Every game's canonical name: the split games, then the single-pot games (the rules engine's presets).
PRESETS = (BADACEY, BADEUCY, "badugi", "a5", "27")

LOW = "low"
BADUGI = "badugi"


@dataclass(frozen=True)
class Scoring:
    """How a game scores a showdown: the halves the pot splits into, the scale family, the hand size."""

    game: str  #: canonical name: one of PRESETS
    title: str  #: the game and its scoring in words
    halves: tuple[str, ...]  #: (LOW, BADUGI) for the split games, one of them for single-pot games
    ace_high: bool  #: aces high in both evaluators (2-7 low, ace-high badugi); indexes GAMES and the tables
    hand_size: int  #: cards per hand: 5, or 4 for Badugi


SCORINGS: dict[str, Scoring] = {
    s.game: s
    for s in (
        Scoring(BADACEY, "Badacey: A-5 low and ace-low badugi split the pot", (LOW, BADUGI), False, 5),
        Scoring(BADEUCY, "Badeucy: 2-7 low and ace-high badugi split the pot", (LOW, BADUGI), True, 5),
        Scoring("badugi", "Badugi: the best ace-low badugi takes the whole pot", (BADUGI,), False, 4),
        Scoring("a5", "A-5 lowball: the best A-5 low takes the whole pot", (LOW,), False, 5),
        Scoring("27", "2-7 lowball: the best 2-7 low takes the whole pot", (LOW,), True, 5),
    )
}

#: Every accepted spelling (case and surrounding blanks do not matter) -> canonical name.  RULES.md §5:
#: Badacey = Badacy = Badaci, Badeucy = Badeucey = Baduci; the single-pot games by their usual names.
SPELLINGS: dict[str, str] = {
    **{name: name for name in PRESETS},
    "badacy": BADACEY, "badaci": BADACEY,
    "badeucey": BADEUCY, "baduci": BADEUCY,
    "a-5": "a5", "a5td": "a5", "a-5td": "a5", "a5 triple draw": "a5", "a-5 triple draw": "a5",
    "ace-to-five": "a5", "ace to five": "a5", "a-5 lowball": "a5", "ace-to-five triple draw": "a5",
    "2-7": "27", "27td": "27", "2-7td": "27", "27 triple draw": "27", "2-7 triple draw": "27",
    "deuce-to-seven": "27", "deuce to seven": "27", "2-7 lowball": "27", "deuce-to-seven triple draw": "27",
}
# Exact strings seen before -> Scoring: the engine and the bulk calls pass the same few strings millions
# of times.  Only strings that resolved are cached, so the cache is bounded by the callers' spellings.
_CACHE: dict[str, Scoring] = {}


def scoring(game: str) -> Scoring:
    """The :class:`Scoring` of a game name in any spelling (see :data:`SPELLINGS`).

    >>> scoring("Badaci").game, scoring("a5").halves, scoring("27").ace_high
    ('badacey', ('low',), True)
    >>> scoring(27)
    Traceback (most recent call last):
    ...
    TypeError: game must be a str, not int
    """
    found = _CACHE.get(game) if type(game) is str else None
    if found is not None:
        return found
    if not isinstance(game, str):
        raise TypeError(f"game must be a str, not {type(game).__name__}")
    name = SPELLINGS.get(game.strip().lower())
    if name is None:
        raise UnknownGameError(f"unknown game {game!r}: expected one of {', '.join(PRESETS)}")
    found = _CACHE[game] = SCORINGS[name]
    return found


def normalize_game(game: str) -> str:
    """The canonical name (one of :data:`PRESETS`) of a game name in any spelling; case does not matter.

    >>> normalize_game("BADACI"), normalize_game("Badeucey"), normalize_game("deuce-to-seven")
    ('badacey', 'badeucy', '27')
    >>> normalize_game(7)
    Traceback (most recent call last):
    ...
    TypeError: game must be a str, not int
    """
    return scoring(game).game


def is_ace_high(game: str) -> bool:
    """True for the ace-high scale family (Badeucy and 2-7: 2-7 low, ace-high badugi), in any spelling.

    >>> is_ace_high("badacey"), is_ace_high("Baduci"), is_ace_high("2-7"), is_ace_high("badugi")
    (False, True, True, False)
    """
    return scoring(game).ace_high


def scale_family(game: str) -> str:
    """The split game whose scales (and table) a game ranks on: ``"badacey"`` (A-5 low, ace-low badugi)
    for Badacey, Badugi and A-5; ``"badeucy"`` (2-7 low, ace-high badugi) for Badeucy and 2-7.

    >>> scale_family("Badaci"), scale_family("badugi"), scale_family("a5"), scale_family("deuce to seven")
    ('badacey', 'badacey', 'badacey', 'badeucy')
    """
    return GAMES[scoring(game).ace_high]
