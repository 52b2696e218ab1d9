"""The five games, every spelling of their names, and what each scores (RULES.md §2, §3, §5): one table.

Badacey and Badeucy split every pot between a low half and a badugi half; the single-pot games play one
of those halves for the whole pot (Badugi, A-5 and 2-7 triple draw: the rules engine's presets).  A
game's name is read here and nowhere else: every public entry point (evaluate, showdown, settle, the
bulk calls, deal files, ``GameConfig``, the CLI) turns the ``game`` it is given into a :class:`Scoring`
with :func:`scoring`, once, and hands that object down; a spelling accepted anywhere is accepted
everywhere with the same meaning, and a :class:`Scoring` is accepted wherever a name is.  A game's
**scale family** is ``ace_high``: the ace-low games (Badacey, Badugi, A-5) rank on the A-5 low and
ace-low badugi scales, the ace-high ones (Badeucy, 2-7) on the 2-7 low and ace-high badugi scales.  Ranks
are dense and **lower is better**.

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

from badacey_fast.errors import UnknownGameError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (docs/import.md); mypy reads it alike
if TYPE_CHECKING:
    from typing import NoReturn

__all__ = ["BADACEY", "BADEUCY", "GAMES", "PRESETS", "SPELLINGS", "LOW", "BADUGI", "Scoring", "SCORINGS", "READY",
           "scoring", "normalize_game"]

BADACEY = "badacey"
BADEUCY = "badeucy"
#: The two split-pot games, in the order of their integer codes and table files (0 = Badacey, 1 = Badeucy):
#: index by ``ace_high``.  Also the names of the two scale families.
GAMES = (BADACEY, BADEUCY)
#: Every game's canonical name: the split games, then the single-pot games (the rules engine's presets).
PRESETS = (BADACEY, BADEUCY, "badugi", "a5", "27")

LOW = "low"
BADUGI = "badugi"


class Scoring:
    """How a game scores a showdown: the halves the pot splits into, the scale family, the hand size.

    There are five, one per game (:data:`SCORINGS`), and one per other hand size a game is dealt in
    (:meth:`resized`, for small games), each made once: compare them with ``is`` or ``==`` (the same
    thing), pickle and copy them freely (the copy is the same object).  A plain class rather than a
    dataclass: ``dataclasses`` imports ``inspect`` (and ``ast``, ``dis``), which would double the import
    time of the package (docs/import.md).

    >>> s = scoring("Badaci")
    >>> s, s.game, s.halves, s.ace_high, s.hand_size, s.family
    (Scoring('badacey'), 'badacey', ('low', 'badugi'), False, 5, 'badacey')
    >>> import copy, pickle
    >>> copy.deepcopy(s) is s is pickle.loads(pickle.dumps(s))
    True
    >>> two = scoring("badugi").resized(2)
    >>> two, two.hand_size, two is pickle.loads(pickle.dumps(two)) is scoring("badugi").resized(2)
    (Scoring('badugi', hand_size=2), 2, True)
    >>> two.resized(4) is scoring("badugi")
    True
    >>> s.hand_size = 4
    Traceback (most recent call last):
    ...
    AttributeError: Scoring is read-only: hand_size cannot be set
    """

    __slots__ = ("game", "title", "halves", "ace_high", "hand_size", "family")

    game: str  #: canonical name: one of PRESETS
    title: str  #: the game and its scoring in words
    halves: tuple[str, ...]  #: (LOW, BADUGI) for the split games, one of them for single-pot games
    ace_high: bool  #: aces high in both evaluators (2-7 low, ace-high badugi); indexes GAMES and the tables
    hand_size: int  #: cards per hand: 5, or 4 for Badugi
    family: str  #: the split game whose scales (and table) it ranks on: GAMES[ace_high]

    def __init__(self, game: str, title: str, halves: tuple[str, ...], ace_high: bool, hand_size: int) -> None:
        for name, value in (("game", game), ("title", title), ("halves", halves), ("ace_high", ace_high),
                            ("hand_size", hand_size), ("family", GAMES[ace_high])):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"Scoring is read-only: {name} cannot be set")

    def resized(self, hand_size: int) -> Scoring:
        """This game's scoring for hands of ``hand_size`` cards (the same halves and scales): itself at its
        own size, else made once per size.  Which sizes a game may be dealt is
        :func:`badacey_fast.rules.decks.dealt`'s to check."""
        if hand_size == self.hand_size:
            return self
        base = SCORINGS[self.game]
        if hand_size == base.hand_size:
            return base
        key = (self.game, hand_size)
        found = _RESIZED.get(key)
        if found is None:
            found = _RESIZED[key] = Scoring(self.game, self.title, self.halves, self.ace_high, hand_size)
        return found

    def __repr__(self) -> str:
        if self.hand_size == SCORINGS[self.game].hand_size:
            return f"Scoring({self.game!r})"
        return f"Scoring({self.game!r}, hand_size={self.hand_size})"

    def __reduce__(self) -> tuple[object, tuple[str, int]]:
        return _made, (self.game, self.hand_size)  # unpickled (or copied) as the one Scoring of its kind


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

_RESIZED: dict[tuple[str, int], Scoring] = {}  # (game, hand size) -> its Scoring (Scoring.resized)


def _made(game: str, hand_size: int) -> Scoring:
    """The Scoring of ``game`` at ``hand_size``: what a pickled or copied Scoring is rebuilt by."""
    return SCORINGS[game].resized(hand_size)


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


#: What :func:`scoring` takes as it is, in one lookup: each Scoring (to itself) and each canonical name (to
#: its Scoring).  Any other spelling is folded and looked up in :data:`SPELLINGS`.
READY: dict[object, Scoring] = {key: rules for key, rules in SCORINGS.items()}
READY.update((rules, rules) for rules in SCORINGS.values())


def scoring(game: Scoring | str) -> Scoring:
    """The :class:`Scoring` of a game name in any spelling (see :data:`SPELLINGS`); a :class:`Scoring` is
    returned as it is, so an entry point may be handed either.

    >>> scoring("Badaci").game, scoring("a5").halves, scoring("27").ace_high, scoring(scoring("27")).game
    ('badacey', ('low',), True, '27')
    >>> scoring(27)
    Traceback (most recent call last):
    ...
    TypeError: game must be a str, not int
    """
    try:  # a Scoring, or a canonical name (what programs pass): one lookup, no folding
        found = READY.get(game)
    except TypeError:  # unhashable: not a name at all (worded below)
        found = None
    if found is not None:
        return found
    if type(game) is Scoring:  # a game's Scoring at another hand size (Scoring.resized)
        return game
    if not isinstance(game, str):
        raise TypeError(f"game must be a str, not {type(game).__name__}")
    name = SPELLINGS.get(game.strip().lower())
    if name is None:
        raise UnknownGameError(f"unknown game {game!r}: expected one of {', '.join(PRESETS)}")
    return SCORINGS[name]


def normalize_game(game: Scoring | str) -> str:
    """The canonical name (one of :data:`PRESETS`) of a game name in any spelling; case does not matter.

    >>> normalize_game("BADACI"), normalize_game("Badeucey"), normalize_game("deuce-to-seven")
    ('badacey', 'badeucy', '27')
    >>> normalize_game(7)
    Traceback (most recent call last):
    ...
    TypeError: game must be a str, not int
    """
    return scoring(game).game


def is_ace_high(game: Scoring | str) -> bool:
    """``scoring(game).ace_high``: kept only until files/ hands a Scoring down (issue 23, phase 2).

    >>> is_ace_high("Baduci")
    True
    """
    return scoring(game).ace_high
