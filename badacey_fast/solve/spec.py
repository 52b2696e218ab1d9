"""The heads-up game the solver works on, read once from a :class:`~badacey_fast.game.GameConfig` or one
of our OpenSpiel games: the preset, the small deck (RULES.md §6), the hand size, the draws, the limit
structure.

The solver plays two seats, seat 0 on the button (it posts the small blind, acts first before the first
draw and last after each draw), both with the same stack (deep by default: nobody is ever all-in).
Options the solver does not model are refused by name (:class:`~badacey_fast.errors.SolveError`): antes, no cap,
``heads_up_uncapped``, and any deck so small that a draw could reach the reshuffle (the exact path
counts on the stub never running out; heads-up full-size games never reach it).

>>> spec = GameSpec.of(game="badugi", ranks=5, draws=1, cap=2)
>>> spec.n_cards, spec.hand_size, spec.deck[:4]
(20, 4, (0, 1, 2, 3))
>>> GameSpec.of(game="27", ranks=6, draws=1).deck[:2], GameSpec.of(game="27", ranks=6, draws=1).deck[-1]  # 2..7
((4, 5), 27)
>>> GameSpec.of(game="badugi", ranks=3, suits=2, hand_size=2, draws=3)
Traceback (most recent call last):
...
badacey_fast.errors.SolveError: a draw could reach the reshuffle: 6 cards, 2 hands of 2, 3 draws need up to 12 replacements from a stub of 2 (its last card is never dealt); the exact solver needs ranks >= 9 at this size
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from badacey_fast.errors import SolveError
from badacey_fast.rules.decks import small_deck
from badacey_fast.rules.games import is_ace_high, normalize_game, scoring

__all__ = ["GameSpec", "deck_of", "play_rules"]


def deck_of(game: str, ranks: int, suits: int) -> tuple[int, ...]:
    """The card ids of a small deck (RULES.md §6; the one rule: :func:`badacey_fast.rules.decks.small_deck`):
    the ``ranks`` lowest ranks of the game's order (A.. for the ace-low games, 2.. for the 2-7 games, the
    ace last) times the first ``suits`` suits, sorted.

    >>> deck_of("badugi", 2, 2)
    (0, 1, 4, 5)
    >>> deck_of("badeucy", 13, 4) == tuple(range(52))
    True
    """
    return small_deck(is_ace_high(game), ranks, suits)


def _int(name: str, value: object, low: int, high: int) -> int:
    if type(value) is not int:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise SolveError(f"{name} must be {low}..{high}, got {value}")
    return value


@dataclass(frozen=True)
class GameSpec:
    """One heads-up draw game as the solver sees it (build it with :meth:`of`).

    ``game``: the preset; ``ranks`` (1..13), ``suits`` (2..4, Badugi only below 4), ``hand_size`` (4 for
    Badugi, 1..4 allowed; 5 otherwise), ``draws`` (0..3), ``cap`` (bets per round including the opening
    bet; before the draw the big blind counts as the bet), the blinds and the limit bets in chips
    (small bet before the first draw and after it, big bet after the second and third draws), ``burn``
    and ``odd_chip`` as in :class:`~badacey_fast.game.GameConfig`; ``stack``: each seat's chips (None:
    deep enough that nobody is ever all-in).
    """

    game: str = "badugi"
    ranks: int = 13
    suits: int = 4
    hand_size: int = 4
    draws: int = 3
    cap: int = 4
    small_blind: int = 1
    big_blind: int = 2
    small_bet: int = 2
    big_bet: int = 4
    burn: bool = False
    odd_chip: str = "position"
    stack: int | None = None

    @classmethod
    def of(cls, game: object = None, /, **overrides: Any) -> "GameSpec":
        """The spec of ``game``: a :class:`GameSpec` (returned as is), a
        :class:`~badacey_fast.game.GameConfig`, a named small game (``SMALL_GAMES[...]``: its config and
        stack), one of our OpenSpiel games (``python_badugi`` ...: its config and stack), a preset name, or
        None (Badugi); ``overrides`` set fields by name (``ranks=5, draws=1``...).  A stack deep enough that
        nobody can be all-in is read as deep (``stack=None``): the same game.

        >>> GameSpec.of("badugi", ranks=4, hand_size=3, draws=1).n_cards
        16
        >>> from badacey_fast.game.small import SMALL_GAMES
        >>> GameSpec.of(SMALL_GAMES["tiny-badugi"]).label()
        'badugi R3 S3 H2 D1 cap1 stack2'
        >>> GameSpec.of(3.5)
        Traceback (most recent call last):
        ...
        TypeError: a game must be a GameConfig, an OpenSpiel game of badacey_fast, a GameSpec or a preset name, not float
        """
        if isinstance(game, GameSpec) and not overrides:
            return game
        values: dict[str, Any] = {}
        stack = None
        if isinstance(game, GameSpec):
            values = {f.name: getattr(game, f.name) for f in fields(game)}
        elif game is None or isinstance(game, str):
            values["game"] = normalize_game(game or "badugi")
        elif _is_config(game):
            values = _from_config(game)
        elif _is_config(getattr(game, "config", None)) and hasattr(game, "seats"):  # a named SmallGame
            named: Any = game
            values = _from_config(named.config)
            if named.seats != 2:
                raise SolveError(f"the solver plays heads-up games: {named.name} has {named.seats} seats")
            stack = named.stack
        elif _is_config(getattr(game, "config", None)):  # our pyspiel game: BadaceyGame
            values = _from_config(game.config)  # type: ignore[attr-defined]  # checked just above
            players, stack, button = (getattr(game, a, None) for a in ("n", "stack", "button"))
            if players != 2:
                raise SolveError(f"the solver plays heads-up games: this OpenSpiel game has {players} players")
            if button != 0:
                raise SolveError(f"the solver puts the button on seat 0: this OpenSpiel game has button {button}")
        else:
            raise TypeError("a game must be a GameConfig, an OpenSpiel game of badacey_fast, a GameSpec or a "
                            f"preset name, not {type(game).__name__}")
        unknown = set(overrides) - {f.name for f in fields(cls)}
        if unknown:
            raise TypeError(f"unknown field(s) {sorted(unknown)} of GameSpec")
        values.update(overrides)
        if "game" in overrides:
            values["game"] = normalize_game(values["game"])
        if values.get("hand_size") is None:
            values["hand_size"] = scoring(values.get("game", "badugi")).hand_size
        spec = cls(**values)
        spec.check()
        if stack is not None and "stack" not in overrides:
            spec = cls(**{**values, "hand_size": spec.hand_size, "stack": None if stack >= spec.max_contribution
                          else stack})
            spec.check()
        return spec

    def check(self) -> None:
        """Refuse values the solver cannot take (``SolveError``/``TypeError`` naming the value)."""
        game = normalize_game(self.game)
        if game != self.game:
            raise SolveError(f"game must be a canonical preset name, got {self.game!r} (use GameSpec.of)")
        badugi = game == "badugi"
        _int("ranks", self.ranks, 1, 13)
        _int("suits", self.suits, 2 if badugi else 4, 4)
        _int("hand_size", self.hand_size, 1 if badugi else 5, 4 if badugi else 5)
        _int("draws", self.draws, 0, 3)
        _int("cap", self.cap, 1, 64)
        _int("small_blind", self.small_blind, 0, 1 << 40)
        _int("big_blind", self.big_blind, 1, 1 << 40)
        _int("small_bet", self.small_bet, 1, 1 << 40)
        _int("big_bet", self.big_bet, 1, 1 << 40)
        if self.small_blind > self.big_blind:
            raise SolveError(f"big_blind {self.big_blind} is smaller than small_blind {self.small_blind}")
        if self.stack is not None:
            _int("stack", self.stack, 1, 1 << 40)
        if not isinstance(self.burn, bool):
            raise TypeError(f"burn must be a bool, not {type(self.burn).__name__}")
        if self.odd_chip not in ("position", "low"):
            raise SolveError(f"odd_chip must be 'position' or 'low', got {self.odd_chip!r}")
        n, h = self.n_cards, self.hand_size
        stub = n - 2 * h
        need = self.draws * (2 * h + int(self.burn))
        if stub - 1 < need:
            smallest = next((r for r in range(self.ranks, 14)
                             if r * self.suits - 2 * h - 1 >= need), None)
            fix = (f"ranks >= {smallest}" if smallest is not None else "fewer draws or smaller hands")
            raise SolveError(f"a draw could reach the reshuffle: {n} cards, 2 hands of {h}, {self.draws} draws need "
                             f"up to {need} replacements from a stub of {stub} (its last card is never dealt); "
                             f"the exact solver needs {fix} at this size")

    # ------------------------------------------------------------------------------------ derived
    @property
    def deck(self) -> tuple[int, ...]:
        """The card ids of the deck, sorted: deck positions are indices into it."""
        return deck_of(self.game, self.ranks, self.suits)

    @property
    def n_cards(self) -> int:
        """Cards in the deck."""
        return self.ranks * self.suits

    @property
    def halves(self) -> tuple[str, ...]:
        """What a showdown compares: ("low", "badugi") for the split games, one of them otherwise."""
        return scoring(self.game).halves

    @property
    def ace_high(self) -> bool:
        """The scale family (2-7 low, ace-high badugi) of Badeucy and 2-7."""
        return scoring(self.game).ace_high

    def bet_size(self, street: int) -> int:
        """The limit bet of betting round ``street`` (0 before the first draw): small, small, big, big."""
        return self.small_bet if street < 2 else self.big_bet

    @property
    def max_contribution(self) -> int:
        """The most chips a seat can put in a hand: every round capped (before the draw the big blind is
        the first of the cap's bets)."""
        total = self.big_blind + (self.cap - 1) * self.small_bet
        return total + sum(self.cap * self.bet_size(street) for street in range(1, self.draws + 1))

    def label(self) -> str:
        """A short human name: ``badugi R5 S4 H4 D1 cap2`` (and the stack when it is not deep)."""
        deep = "" if self.stack is None else f" stack{self.stack}"
        return f"{self.game} R{self.ranks} S{self.suits} H{self.hand_size} D{self.draws} cap{self.cap}{deep}"


def _is_config(obj: object) -> bool:
    # Duck-typed: the game layer's GameConfig (imported lazily by callers that have one), without this
    # module importing the engine.
    return obj is not None and type(obj).__name__ == "GameConfig" and hasattr(obj, "small_bet")


def _from_config(cfg: Any) -> dict[str, Any]:
    """The solver's fields of a GameConfig (fields a config does not have yet take their defaults)."""
    if getattr(cfg, "ante", 0):
        raise SolveError(f"the solver models blind games: this config has an ante of {cfg.ante}")
    if getattr(cfg, "heads_up_uncapped", False):
        raise SolveError("the solver needs a cap: heads_up_uncapped lifts it heads-up")
    if cfg.cap is None:
        raise SolveError("the solver needs a cap: this config has none")
    if not cfg.big_blind:
        raise SolveError("the solver models blind games: this config has no big blind")
    game = cfg.game
    values = {
        "game": game,
        "ranks": getattr(cfg, "ranks", 13),
        "suits": getattr(cfg, "suits", 4),
        "hand_size": getattr(cfg, "hand_size", None),
        "draws": getattr(cfg, "draws", 3),
        "cap": cfg.cap,
        "small_blind": cfg.small_blind,
        "big_blind": cfg.big_blind,
        "small_bet": cfg.small_bet,
        "big_bet": cfg.big_bet,
        "burn": cfg.burn,
        "odd_chip": cfg.odd_chip,
    }
    return values


def play_rules(game: object, small_blind: int = 1, big_blind: int = 2, small_bet: int = 2, big_bet: int = 4,
               cap: int = 4) -> tuple[str, tuple[int, int], tuple[int, int], int, tuple[int, int, int, int]]:
    """(preset, blinds, bets, cap, (ranks, suits, hand size, draws)) of a preset name (the full game with
    the given limits), a GameConfig or a GameSpec (their own), for the C hand loop's sampling runs."""
    if isinstance(game, str):
        name = normalize_game(game)
        return name, (small_blind, big_blind), (small_bet, big_bet), cap, (13, 4, scoring(name).hand_size, 3)
    spec = GameSpec.of(game)  # a GameConfig, a named small game, a GameSpec (refuses antes, no cap, ...)
    return (spec.game, (spec.small_blind, spec.big_blind), (spec.small_bet, spec.big_bet), spec.cap,
            (spec.ranks, spec.suits, spec.hand_size, spec.draws))
