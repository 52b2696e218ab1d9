"""Local best response (LBR; Lisy & Bowling 2017, "Equilibrium Approximation Quality of Current No-Limit
Poker Bots"): a lower bound on a bot's exploitability in full-size heads-up draw games, where no exact
best response fits in memory.

The LBR plays the bot, hand after hand, seeing only its own cards and the public actions, and picks at
each decision the action that looks best under simple assumptions.  Whatever it picks, it is *some*
strategy: its expected winnings are at most a best response's, so its mean result over both seats is a
lower bound on the bot's exploitability (as defined in :mod:`badacey_fast.solve.exploit`), estimated with
a standard error.  The variant here, for draw games:

- **Belief**: particles (``particles`` of them) of the bot's private history -- its cards and every draw
  -- dealt from the cards the LBR has not seen, weighted by the bot's probability of every action it took
  (its strategy is known: that is what LBR measures) and by the public draw counts; a particle that
  holds a card the LBR is later dealt dies; resampled (systematically) when the weights degenerate.
- **Betting** (every fixed-limit action is considered, so the action abstraction is the game's own):
  the LBR assumes the hand is checked and called down afterwards, both seats drawing by the rule of
  thumb's keep set (draw/policy.py keep_cards).  One rollout per particle gives its win probability WP
  (a pot share: ties and split halves count their share); folding loses what it put in; checking or
  calling scores ``(2 WP - 1) x`` with ``x`` each seat's chips at the showdown; betting or raising adds the
  bot's fold probability ``fp`` (from its strategy, particle by particle): ``fp * (the bot's chips) +
  (1 - fp) (2 WP' - 1) x'``, WP' counting only the particles that call.
- **Draws**: each of the hand_size + 1 abstract draws (throw k cards: outside the keep set first, highest
  first) is scored by rollouts against the particles; the best is drawn.
- **Sampling**: pairs of hands, the LBR on the button in the first and in the big blind in the second, each
  dealt afresh; the standard error is that of the pairs' means.  Units: milli-big-bets per hand (1000 x
  chips / the big bet), as the exact exploitability.

>>> r = lbr("badugi", "random", hands=200, particles=32, seed=1)
>>> r.hands, r.mbb > 0, r.se_mbb > 0
(200, True, True)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from badacey_fast import kernel
from badacey_fast.errors import SolveError
from badacey_fast.rules.games import PRESETS, normalize_game, scoring
from badacey_fast.solve.spec import play_rules

__all__ = ["LBRResult", "lbr", "BOT_KINDS"]

#: The bots the C core plays, by name (csrc/lbr.h BD_BOT_*).
BOT_KINDS = {"random": 0, "rule": 1}


@dataclass(frozen=True)
class LBRResult:
    """A local best response run: ``mbb`` (the lower bound: the LBR's mean winnings, milli-big-bets per hand,
    both seats alike) and its standard error ``se_mbb``; ``by_seat``: the LBR's mean on the button and in
    the big blind; ``lost``: hands in which every particle died (the LBR then checked and called down)."""

    game: str
    bot: str
    hands: int
    particles: int
    seconds: float
    cpu_seconds: float
    mbb: float
    se_mbb: float
    by_seat: tuple[float, float]
    lost: int
    decisions: int
    raises: int
    folds: int

    @property
    def hands_per_minute(self) -> float:
        """Hands evaluated per minute of processor time (one core: the run is single-threaded, and on a
        shared machine its wall time counts other people's work too)."""
        return 60.0 * self.hands / self.cpu_seconds if self.cpu_seconds > 0 else math.inf

    def __str__(self) -> str:
        return (f"LBR vs {self.bot} in heads-up {self.game}: at least {self.mbb:.1f} ± {self.se_mbb:.1f} mbb/hand "
                f"(standard error; button {self.by_seat[0]:.1f}, big blind {self.by_seat[1]:.1f}); {self.hands} hands, "
                f"{self.particles} particles, {self.cpu_seconds:.1f} s of one core ({self.hands_per_minute:,.0f} hands/min)")


def lbr(game: object = "badugi", bot: object = "rule", hands: int = 10_000, particles: int = 512, seed: int = 0,
        *, small_bet: int = 2, big_bet: int = 4, small_blind: int = 1, big_blind: int = 2, cap: int = 4) -> LBRResult:
    """Local best response against ``bot`` in heads-up ``game`` (a preset name: the full game with the given
    limits; or a GameConfig or GameSpec, small games too; the stacks deep enough that nobody is all-in):
    ``hands`` (even, >= 2) hands, ``particles`` per hand.  ``bot``: ``"random"``, ``"rule"`` (game/bots.py) or an MCCFR strategy
    (:class:`badacey_fast.solve.mccfr.MCCFRStrategy`).  See the module docstring for the variant.

    >>> lbr("badugi", "shark", hands=2)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.SolveError: unknown bot 'shark': expected random, rule or an MCCFR strategy
    """
    name, blinds, bets, cap, size = play_rules(game, small_blind, big_blind, small_bet, big_bet, cap)
    if type(hands) is not int or hands < 2 or hands % 2:
        raise SolveError(f"hands must be an even int >= 2 (pairs, one in each seat), got {hands!r}")
    if type(particles) is not int or not 1 <= particles <= 1 << 20:
        raise SolveError(f"particles must be an int 1..{1 << 20}, got {particles!r}")
    from badacey_fast.solve.mccfr import MCCFRStrategy

    if isinstance(bot, MCCFRStrategy):
        if bot.game != name or tuple(bot.size) != size:
            raise SolveError(f"the strategy is of {bot.game} {bot.size}, not {name} {size}")
        kind, label = 2, "an MCCFR strategy"
    elif isinstance(bot, str) and bot in BOT_KINDS:
        kind, label = BOT_KINDS[bot], bot
    else:
        raise SolveError(f"unknown bot {bot!r}: expected random, rule or an MCCFR strategy")
    _c = kernel.play()
    if _c is None:
        raise SolveError("local best response runs on the C hand loop (BADACEY_FAST_BACKEND=c); on small games "
                         "the exact exploitability (badacey_fast.solve.exploitability) is the figure, on both twins")
    stack = 1000 * max(blinds[1], bets[1])
    store = abstraction = None
    if kind == 2:
        store, abstraction = bot.core()  # type: ignore[union-attr]  # MCCFRStrategy, checked above
    start, cpu = time.perf_counter(), time.process_time()
    out = _c.lbr_run(PRESETS.index(name), blinds, bets, cap, stack, False, scoring(name).ace_high, kind, store,
                     abstraction, hands // 2, particles, seed, size)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    scale = 1000.0 / bets[1]
    pairs = out["pairs"]
    mean = out["pair_sum"] / pairs
    var = max(0.0, out["pair_sum_sq"] / pairs - mean * mean) * pairs / max(1, pairs - 1)
    by_seat = tuple(scale * out["sum"][s] / max(1, out["count"][s]) for s in (0, 1))
    return LBRResult(name, label, out["hands"], particles, seconds, cpu, scale * mean, scale * math.sqrt(var / pairs),
                     (by_seat[0], by_seat[1]), out["lost"], out["decisions"], out["raises"], out["folds"])
