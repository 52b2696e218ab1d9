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
>>> GameConfig(game="Baduci").game, GameConfig(game="2-7").hand_size, GameConfig(game="2-7").scoring
('badeucy', 5, Scoring('27'))
>>> GameConfig(small_bet=0)
Traceback (most recent call last):
...
badacey_fast.errors.ConfigError: small_bet must be a positive int, got 0

**Small decks** (RULES.md §6, for solving): ``ranks`` R keeps the R lowest ranks of the game's own order
(A..R for the ace-low games, 2..R+1 for the 2-7 games, whose ace is the 13th), ``draws`` the number of
draws (0-3: the hand ends at the showdown after betting round ``draws``; the rounds keep their bet sizes,
small-small-big-big); for tests, Badugi may also use fewer ``suits`` (2-4) and a smaller ``hand_size``
(1-4).  Hands keep their values on the full game's scale.  A deck too small for some sequence of draws
is refused, naming the smallest R that works (:func:`badacey_fast.rules.decks.check_deck`: here for
heads-up, by :class:`~badacey_fast.game.Game` and the environments for their seats).  Named small games
are in :mod:`badacey_fast.game.small`.

>>> mini = GameConfig(game="badugi", ranks=5, draws=1, cap=2)
>>> mini
GameConfig(game='badugi', small_blind=1, big_blind=2, ante=0, small_bet=2, big_bet=4, cap=2, heads_up_uncapped=False, burn=False, odd_chip='position', ranks=5, draws=1)
>>> len(mini.deck), mini.hand_size, mini.small
(20, 4, True)
>>> GameConfig(game="badugi", ranks=2, suits=3, hand_size=2, draws=1)
Traceback (most recent call last):
...
badacey_fast.errors.ConfigError: a deck of 2 ranks x 3 suits (6 cards) can run out: 2 seats of 2 cards with draws need 7 cards (a player throwing his whole hand is owed 2 and only 1 can be dealt); the smallest R that works is ranks=3
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from badacey_fast.errors import ConfigError
from badacey_fast.rules.decks import FULL_RANKS, FULL_SUITS, MAX_DRAWS, check_deck, dealt, hand_sizes, small_deck
from badacey_fast.rules.games import PRESETS, SCORINGS, Scoring, scoring
from badacey_fast.rules.odd_chips import OddChip, odd_chip_policy

__all__ = ["GameConfig", "PRESETS", "resolve_config"]


def _check_int(name: str, value: object, positive: bool = False) -> None:
    if type(value) is not int:  # bool is an int subclass, and True chips make no sense
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0 or (positive and value == 0):
        kind = "positive" if positive else "non-negative"
        raise ConfigError(f"{name} must be a {kind} int, got {value}")


@dataclass(frozen=True, repr=False)
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
    - ``game``: any spelling is kept as the canonical name; :attr:`scoring` is what the game scores (its
      halves, scale family and hand size: the one :class:`~badacey_fast.rules.games.Scoring` the engine
      settles by), read once here.
    - ``odd_chip``: ``"position"`` (default) or ``"low"`` (RULES.md §3), kept as an
      :class:`~badacey_fast.rules.odd_chips.OddChip` (a str: equal to its name).
    - ``ranks`` (1-13, default 13), ``suits`` (4; 2-4 for Badugi), ``hand_size`` (``None``: the
      preset's, 5 or Badugi's 4; 1-4 for Badugi), ``draws`` (0-3, default 3): a small game (module
      docstring); ``deck`` is its cards.  ``hand_size`` is always an int once made.

    >>> GameConfig(game="badugi").hand_size, GameConfig(game="badugi").scoring
    (4, Scoring('badugi'))
    >>> GameConfig(game="badugi", ranks=5, hand_size=2, draws=1).scoring
    Scoring('badugi', hand_size=2)
    >>> GameConfig(small_blind=0, big_blind=0, ante=1).uses_blinds
    False
    >>> GameConfig(cap=0)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: cap must be None or a positive int, got 0
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
    odd_chip: OddChip = OddChip.POSITION
    ranks: int = FULL_RANKS
    suits: int = FULL_SUITS
    hand_size: int = None  # type: ignore[assignment]  # None on input (the preset's size), an int once made
    draws: int = MAX_DRAWS
    #: what the game scores, read once from ``game`` (with this ``hand_size``): halves, scales, hand size
    scoring: Scoring = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rules = scoring(self.game)
        object.__setattr__(self, "scoring", rules)
        object.__setattr__(self, "game", rules.game)
        object.__setattr__(self, "odd_chip", odd_chip_policy(self.odd_chip, ConfigError))
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
        self._check_small_deck()

    def _check_small_deck(self) -> None:
        """The small-deck fields (RULES.md §6): each in range, then the deck big enough heads-up."""
        rules = self.scoring
        sizes = hand_sizes(rules)
        given: object = self.hand_size  # typed int (what it is once made), given None for the preset's size
        if given is None:
            object.__setattr__(self, "hand_size", rules.hand_size)
        for name, low, high in (("ranks", 1, FULL_RANKS), ("suits", 2, FULL_SUITS), ("hand_size", 1, 5),
                                ("draws", 0, MAX_DRAWS)):
            value = getattr(self, name)
            if type(value) is not int:
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
            if not low <= value <= high:
                raise ConfigError(f"{name} must be {low} to {high}, got {value}")
        if self.hand_size not in sizes:
            raise ConfigError(f"hand_size {self.hand_size} is not dealt in {self.game}: "
                              f"{'1 to 4 cards' if len(sizes) > 1 else f'{sizes[0]} cards'} only")
        if self.suits != FULL_SUITS and len(sizes) == 1:
            raise ConfigError(f"suits {self.suits}: only Badugi is dealt with fewer than 4 suits")
        self.check_seats(2)
        object.__setattr__(self, "scoring", dealt(rules, self.hand_size))

    def check_seats(self, seats: int) -> None:
        """Refuse (``ConfigError``, naming the smallest R that works) a table of ``seats`` seats whose deck
        could run out (:func:`badacey_fast.rules.decks.check_deck`); the full deck always suffices.

        >>> GameConfig(ranks=9).check_seats(6)
        >>> GameConfig(ranks=8).check_seats(6)
        Traceback (most recent call last):
        ...
        badacey_fast.errors.ConfigError: a deck of 8 ranks x 4 suits (32 cards) can run out: 6 seats of 5 cards with draws need 36 cards (a player throwing his whole hand is owed 5 and only 1 can be dealt); the smallest R that works is ranks=9
        """
        check_deck(self.ranks, self.suits, seats, self.hand_size, self.draws, ConfigError)

    @property
    def small(self) -> bool:
        """True for a small game (RULES.md §6): fewer ranks, suits, cards per hand or draws than the preset."""
        return (self.ranks != FULL_RANKS or self.suits != FULL_SUITS or self.draws != MAX_DRAWS
                or self.hand_size != SCORINGS[self.game].hand_size)

    @property
    def deck(self) -> tuple[int, ...]:
        """The card ids of this game's deck, sorted (``4 * rank + suit``, suits ``0..suits-1``): the 52
        cards unless ``ranks`` or ``suits`` shrink it.

        >>> from badacey_fast.cards import format_cards
        >>> format_cards(GameConfig(game="27", ranks=4).deck[-4:]), format_cards(GameConfig(ranks=4).deck[:4])
        ('5c 5d 5h 5s', 'Ac Ad Ah As')
        >>> len(GameConfig().deck), len(GameConfig(game="badugi", ranks=3, suits=3, hand_size=2).deck)
        (52, 9)
        """
        return _deck(self.scoring.ace_high, self.ranks, self.suits)

    @property
    def uses_blinds(self) -> bool:
        """True when the hand opens with blinds (False: an ante game with no forced bet)."""
        return self.big_blind > 0

    @property
    def split_pot(self) -> bool:
        """True for the split-pot games (Badacey, Badeucy): two halves (the game's :class:`Scoring` says)."""
        return len(self.scoring.halves) == 2

    def _items(self) -> list[tuple[str, Any]]:
        """Every field with its value, the small-deck fields only where they differ from the full game's
        (so the full games' dicts and reprs are those they had before small decks existed)."""
        full = {"ranks": FULL_RANKS, "suits": FULL_SUITS, "draws": MAX_DRAWS,
                "hand_size": SCORINGS[self.game].hand_size}
        # The policy as its name (what GameConfig(**d) and JSON take); the Scoring is no field of its own.
        items = [(f.name, str(getattr(self, f.name)) if f.name == "odd_chip" else getattr(self, f.name))
                 for f in fields(self) if f.init]
        return [(k, v) for k, v in items if k not in full or v != full[k]]

    def to_dict(self) -> dict[str, Any]:
        """The config as a JSON-ready dict (inverse: ``GameConfig(**d)``); the small-deck fields are
        written only where they differ from the full game's.

        >>> GameConfig(**GameConfig(burn=True).to_dict()) == GameConfig(burn=True)
        True
        >>> GameConfig(game="badugi", ranks=5, hand_size=2, draws=1).to_dict()["hand_size"]
        2
        """
        return dict(self._items())

    def __repr__(self) -> str:
        return f"GameConfig({', '.join(f'{k}={v!r}' for k, v in self._items())})"


_DECKS: dict[tuple[bool, int, int], tuple[int, ...]] = {}


def _deck(ace_high: bool, ranks: int, suits: int) -> tuple[int, ...]:
    """:func:`~badacey_fast.rules.decks.small_deck`, made once per deck (the engine reads it every hand)."""
    key = (ace_high, ranks, suits)
    deck = _DECKS.get(key)
    if deck is None:
        deck = _DECKS[key] = small_deck(ace_high, ranks, suits)
    return deck


def resolve_config(config: GameConfig | str | None = None, game: str | None = None) -> GameConfig:
    """The :class:`GameConfig` an entry point's ``config=`` and ``game=`` arguments name together (``Game``,
    ``Table``, ``simulate``): ``game=`` alone is the preset's default table (as is a preset name given
    as ``config``); ``config=`` alone is itself; both must name the same game -- a mismatch is a
    :class:`ConfigError`, never one silently overriding the other.

    >>> resolve_config(game="Baduci").game, resolve_config("27").game, resolve_config().game
    ('badeucy', '27', 'badacey')
    >>> resolve_config(GameConfig(game="badeucy", cap=3), game="badeucy").cap
    3
    >>> resolve_config(GameConfig(cap=3), game="badeucy")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: game='badeucy' but config= plays badacey: give the game once (GameConfig(game='badeucy', ...) or game= alone)
    """
    if config is None:
        return GameConfig() if game is None else GameConfig(game=game)
    if isinstance(config, str):
        config = GameConfig(game=config)
    elif not isinstance(config, GameConfig):
        raise TypeError(f"config must be a GameConfig or a preset name, not {type(config).__name__}")
    if game is not None and scoring(game).game != config.game:
        raise ConfigError(f"game={game!r} but config= plays {config.game}: give the game once "
                          f"(GameConfig(game={scoring(game).game!r}, ...) or game= alone)")
    return config
