"""Simulate many hands between bots: winnings per 100 hands with a 95 % confidence interval.

Seat ``i`` holds ``bots[i]`` for every hand; the button moves one seat each hand and every hand starts
from the same stacks (a cash game with top-ups), so each hand is an independent sample.

>>> from badacey_fast.game.bots import RandomBot, RuleBot
>>> r = simulate([RuleBot(), RandomBot()], hands=200, seed=1)
>>> r.hands, sum(r.totals)              # zero-sum: every chip won was lost by someone
(200, 0)
>>> simulate([RandomBot()], hands=10)
Traceback (most recent call last):
...
badacey_fast.errors.ConfigError: a hand needs 2 to 6 seats, got 1
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import FunctionType, MethodType

from badacey_fast.game.actions import Action
from badacey_fast.errors import ConfigError
from badacey_fast.game.config import GameConfig, resolve_config
from badacey_fast.game.state import COMPLETE, Game
from badacey_fast.game.view import SeatView

__all__ = ["SimulationResult", "simulate", "summarize", "play_hand", "shuffled_decks", "direct_calls"]

Bot = Callable[[SeatView], Action]


@dataclass(frozen=True)
class SimulationResult:
    """Per-bot totals over ``hands`` hands.  ``per100`` and ``ci95`` are chips per 100 hands."""

    names: tuple[str, ...]
    hands: int
    big_blind: int
    totals: tuple[int, ...]
    per100: tuple[float, ...]
    ci95: tuple[float, ...]
    showdowns: int

    def table(self) -> str:
        """A readable results table (chips and big blinds per 100 hands, with 95 % intervals).

        >>> from badacey_fast.game.bots import RandomBot
        >>> print(simulate([RandomBot(), RandomBot()], hands=50, seed=2).table().splitlines()[0])
        seat  bot        chips/100 hands       bb/100 hands   total chips
        """
        bb = self.big_blind or 1
        lines = [f"{'seat':<6}{'bot':<10}{'chips/100 hands':>16}{'bb/100 hands':>19}{'total chips':>14}"]
        for i, name in enumerate(self.names):
            chips = f"{self.per100[i]:+.1f} ± {self.ci95[i]:.1f}"
            bbs = f"{self.per100[i] / bb:+.2f} ± {self.ci95[i] / bb:.2f}"
            lines.append(f"{i:<6}{name:<10}{chips:>16}{bbs:>19}{self.totals[i]:>14}")
        lines.append(f"{self.hands} hands, {self.showdowns} showdowns; ± is a 95 % confidence interval")
        return "\n".join(lines)


def shuffled_decks(seed: int | None, batch: int = 1024,
                   cards: Sequence[int] | None = None) -> Iterator[list[int]]:
    """Endless shuffled 52-card decks (lists of card ids), made in bulk with numpy: a simulation's deals.
    ``cards``: the deck's cards (default the 52 in id order; a small game's
    :attr:`~badacey_fast.game.GameConfig.deck`).

    Shuffling a thousand decks at once costs about a microsecond per deck, several times less than
    drawing each card from a Python RNG.  ``seed`` makes the sequence reproducible.

    >>> d = next(shuffled_decks(1)); sorted(d) == list(range(52))
    True
    >>> sorted(next(shuffled_decks(1, cards=(3, 7, 11))))
    [3, 7, 11]
    >>> next(shuffled_decks(1, batch=0))
    Traceback (most recent call last):
    ...
    ValueError: batch must be a positive int, got 0
    """
    if type(batch) is not int or batch < 1:
        raise ValueError(f"batch must be a positive int, got {batch!r}")
    import numpy as np  # only simulations need it

    gen = np.random.default_rng(seed)
    deck = np.arange(52, dtype=np.int64) if cards is None else np.array(cards, dtype=np.int64)
    base = np.tile(deck, (batch, 1))
    while True:
        yield from gen.permuted(base, axis=1).tolist()


def play_hand(game: Game, bots: Sequence[Bot], views: list[SeatView] | None = None) -> Game:
    """Let ``bots[seat]`` act for each seat until the hand is over; returns the finished game.

    ``views``: one :class:`SeatView` per seat to reuse (rebound to ``game``), saving their creation in
    long simulations.
    """
    if views is None:
        views = [SeatView(game, i) for i in range(game.n)]
    else:
        for v in views:
            v._g = game
    apply = game.apply
    while game.phase != COMPLETE:
        i = game.to_act
        apply(bots[i](views[i]))
    return game


def direct_calls(bots: Sequence[Bot]) -> list[Bot]:
    """The bots as the cheapest callables doing the same: for an instance of a class with a Python
    ``__call__``, that method bound to it (``bot(view)`` runs ``type(bot).__call__(bot, view)``, looked up
    on every call); any other bot as it is.  Long simulations pass these to :func:`play_hand`.

    >>> from badacey_fast.game.bots import RandomBot
    >>> bot = RandomBot(seed=1)
    >>> call, same = direct_calls([bot, len])
    >>> call.__self__ is bot, same is len
    (True, True)
    >>> direct_calls(None)
    Traceback (most recent call last):
    ...
    TypeError: 'NoneType' object is not iterable
    """
    out = []
    for bot in bots:
        call = getattr(type(bot), "__call__", None)
        out.append(MethodType(call, bot) if type(call) is FunctionType else bot)
    return out


def simulate(
    bots: Sequence[Bot],
    hands: int = 1000,
    seed: int | None = 0,
    config: GameConfig | str | None = None,
    stack: int | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    game: str | None = None,
) -> SimulationResult:
    """Play ``hands`` hands between ``bots`` (2 to 6, seat i = bots[i]) and report their winnings.

    ``stack``: chips each seat starts every hand with (default 100 big blinds, or 100 bets in an ante
    game).  ``seed`` makes the run reproducible (deals and the bots' own random choices).
    ``progress(k)`` is called every 1000 hands and at the end with the number of hands done.
    ``config``: a :class:`GameConfig` or a preset name; ``game=`` a preset name as every entry point takes
    it (both given must agree: :func:`~badacey_fast.game.config.resolve_config`).

    >>> from badacey_fast.game.bots import RandomBot, RuleBot
    >>> r = simulate([RuleBot(), RandomBot(), RandomBot()], hands=300, seed=5)
    >>> r.names, r.per100[0] > 0          # the rule-of-thumb bot beats random play
    (('rule', 'random', 'random'), True)
    >>> simulate([RandomBot(), RandomBot()], hands=0)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: hands must be a positive int, got 0
    """
    config = resolve_config(config, game)
    n = len(bots)
    if not 2 <= n <= 6:
        raise ConfigError(f"a hand needs 2 to 6 seats, got {n}")
    if type(hands) is not int or hands < 1:
        raise ConfigError(f"hands must be a positive int, got {hands!r}")
    unit = config.big_blind or config.small_bet
    stacks = [stack if stack is not None else 100 * unit] * n
    rng = random.Random(seed)
    for i, bot in enumerate(bots):
        reseed = getattr(bot, "reseed", None)
        if reseed is not None:
            reseed(None if seed is None else seed * 7919 + i + 1)
    totals = [0] * n
    squares = [0] * n
    showdowns = 0
    decks = shuffled_decks(None if seed is None else seed + 1, batch=min(hands, 1024), cards=config.deck)
    views = None
    calls = direct_calls(bots)
    for h in range(hands):
        g = Game(config, stacks, button=h % n, rng=rng, _shuffled=next(decks))
        if views is None:
            views = [SeatView(g, i) for i in range(n)]
        play_hand(g, calls, views)
        for i, w in enumerate(g.winnings):
            totals[i] += w
            squares[i] += w * w
        showdowns += g.nlive > 1
        if progress is not None and ((h + 1) % 1000 == 0 or h + 1 == hands):
            progress(h + 1)
    names = tuple(getattr(b, "name", getattr(b, "__name__", type(b).__name__)) for b in bots)
    return summarize(names, hands, unit, totals, squares, showdowns)


def summarize(names: tuple[str, ...], hands: int, unit: int, totals: Sequence[int], squares: Sequence[int],
              showdowns: int) -> SimulationResult:
    """A :class:`SimulationResult` from each seat's total winnings and sum of squared winnings (chips)
    over ``hands`` hands (``unit``: the big blind): chips per 100 hands and their 95% intervals.  The
    one summary of a simulation, also of one merged from partitions (:mod:`badacey_fast.dask`).

    >>> summarize(("a", "b"), 4, 2, [8, -8], [16, 16], 2).per100      # +2 chips a hand, every hand
    (200.0, -200.0)
    """
    per100, ci95 = [], []
    for i in range(len(names)):
        mean = totals[i] / hands
        var = max(0.0, squares[i] / hands - mean * mean) * hands / max(1, hands - 1)
        per100.append(100 * mean)
        ci95.append(100 * 1.96 * math.sqrt(var / hands))
    return SimulationResult(names, hands, unit, tuple(totals), tuple(per100), tuple(ci95), showdowns)
