"""Table rules for one hand: the game (preset), blinds or antes, limit bet sizes, the cap, options.

All chip amounts are non-negative integers in the smallest unit.  Five presets (RULES.md §4):

====================  =========  =====================================================
name                  cards      pot
====================  =========  =====================================================
``"badacey"``         5          split: A-5 low half + ace-low badugi half (default)
``"badeucy"``         5          split: 2-7 low half + ace-high badugi half
``"badugi"``          4          one pot: ace-low badugi
``"a5"``              5          one pot: A-5 low (A-5 triple draw)
``"27"``              5          one pot: 2-7 low (2-7 triple draw)
====================  =========  =====================================================

>>> GameConfig()
GameConfig(game='badacey', small_blind=1, big_blind=2, ante=0, small_bet=2, big_bet=4, cap=4, heads_up_uncapped=False, burn=False, odd_chip='position')
>>> GameConfig(game="Baduci").game, GameConfig(game="2-7").hand_size
('badeucy', 5)
>>> GameConfig(small_bet=0)
Traceback (most recent call last):
...
badacey_fast.game.config.ConfigError: small_bet must be a positive int, got 0
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from badacey_fast.errors import BadaceyError
from badacey_fast.rules.games import PRESETS as _PRESETS
from badacey_fast.rules.games import normalize_game
from badacey_fast.rules.odd_chips import check_odd_chip

__all__ = ["ConfigError", "GameConfig", "PRESETS", "normalize_preset"]

#: Every game's canonical name (the presets), from the one spelling table.
PRESETS = _PRESETS

class ConfigError(BadaceyError):
    """A table rule that is out of range (a negative blind, a cap below 1, an unknown option...)."""


#: The canonical preset name of a game in any spelling (kept for callers of the old name).
normalize_preset = normalize_game


def _check_int(name: str, value: object, positive: bool = False) -> None:
    if type(value) is not int:  # bool is an int subclass, and True chips make no sense
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0 or (positive and value == 0):
        kind = "positive" if positive else "non-negative"
        raise ConfigError(f"{name} must be a {kind} int, got {value}")


@dataclass(frozen=True)
class GameConfig:
    """The rules of one hand.  Chips are integers; every bet is fixed by the limit structure.

    - ``game``: a preset name (see the module table); any spelling of Badacey/Badeucy is accepted.
    - ``small_blind``, ``big_blind``: posted by the two seats left of the button (heads-up the button
      posts the small blind).  Both 0 means an ante game (``ante`` > 0 then required).
    - ``ante``: posted by every seat before the deal (dead money, not part of the first bet).
    - ``small_bet``, ``big_bet``: the limit sizes, small-small-big-big over the four betting rounds.
    - ``cap``: the number of bets per round including the opening bet (default 4: a bet and three
      raises; before the draw the big blind counts as the bet); ``None`` = no cap.
    - ``heads_up_uncapped``: lift the cap while only two players are in the hand.
    - ``burn``: burn one card before each draw's replacements.
    - ``odd_chip``: ``"position"`` (default) or ``"low"``, passed to :func:`badacey_fast.pots.settle`.

    >>> GameConfig(game="badugi").hand_size, GameConfig(game="badugi").settle_game
    (4, 'badugi')
    >>> GameConfig(small_blind=0, big_blind=0, ante=1).uses_blinds
    False
    >>> GameConfig(cap=0)
    Traceback (most recent call last):
    ...
    badacey_fast.game.config.ConfigError: cap must be None or a positive int, got 0
    """

    game: str = "badacey"
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    small_bet: int = 2
    big_bet: int = 4
    cap: int | None = 4
    heads_up_uncapped: bool = False
    burn: bool = False
    odd_chip: str = "position"

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", normalize_game(self.game))
        _check_int("small_blind", self.small_blind)
        _check_int("big_blind", self.big_blind)
        _check_int("ante", self.ante)
        _check_int("small_bet", self.small_bet, positive=True)
        _check_int("big_bet", self.big_bet, positive=True)
        if self.big_blind < self.small_blind:
            raise ConfigError(f"big_blind {self.big_blind} is smaller than small_blind {self.small_blind}")
        if self.big_blind == 0 and self.small_blind == 0 and self.ante == 0:
            raise ConfigError("a hand needs blinds or an ante: big_blind and ante are both 0")
        if self.big_blind == 0 and self.small_blind > 0:
            raise ConfigError(f"small_blind {self.small_blind} without a big blind")
        if self.cap is not None:
            if type(self.cap) is not int:
                raise TypeError(f"cap must be None or an int, not {type(self.cap).__name__}")
            if self.cap < 1:
                raise ConfigError(f"cap must be None or a positive int, got {self.cap}")
        for name in ("heads_up_uncapped", "burn"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be a bool, not {type(getattr(self, name)).__name__}")
        check_odd_chip(self.odd_chip, ConfigError)

    @property
    def hand_size(self) -> int:
        """Cards per hand: 4 for Badugi, 5 otherwise."""
        return 4 if self.game == "badugi" else 5

    @property
    def uses_blinds(self) -> bool:
        """True when the hand opens with blinds (False: an ante game with no forced bet)."""
        return self.big_blind > 0

    @property
    def settle_game(self) -> str:
        """The ``game`` argument of :func:`badacey_fast.pots.settle` for this preset."""
        return self.game

    @property
    def split_pot(self) -> bool:
        """True for the split-pot games (Badacey, Badeucy)."""
        return self.game in ("badacey", "badeucy")

    def to_dict(self) -> dict[str, Any]:
        """The config as a JSON-ready dict (inverse: ``GameConfig(**d)``).

        >>> GameConfig(**GameConfig(burn=True).to_dict()) == GameConfig(burn=True)
        True
        """
        return asdict(self)
