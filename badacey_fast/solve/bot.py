"""A bot that plays a solver's strategy (game/bots.py's protocol: ``bot(view) -> Action``, ``reseed(seed)``,
``name``), in the rules engine, the learning environments and :func:`~badacey_fast.game.simulate`.

- an exact :class:`~badacey_fast.solve.strategy.Strategy` of a small game: the row of the seat's
  information state (its hands through its draws, the public actions; the button plays the strategy's
  seat 0), heads-up, in the game it was solved for; a
  :class:`~badacey_fast.solve.compact.CompactStrategy` (mini Badugi's CFR+) alike, through the canonical
  state of the hand held and the cards thrown;
- an :class:`~badacey_fast.solve.mccfr.MCCFRStrategy`: its abstraction's information state (the bucket of
  the hand held, the summarised public history; csrc/lbr.h) -- the twin of the C bots'.

:meth:`StrategyBot.probabilities` gives every legal action's probability (what an exact exploitability
needs of a bot).

>>> from badacey_fast.game import simulate
>>> from badacey_fast.game.bots import RuleBot
>>> from badacey_fast.solve.mccfr import mccfr
>>> bot = StrategyBot(mccfr("badugi", iterations=50, seed=2), seed=1)
>>> simulate([bot, RuleBot()], hands=20, seed=3, config="badugi").hands
20
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from badacey_fast.errors import IllegalActionError, SolveError
from badacey_fast.game.actions import DRAW, Action
from badacey_fast.game.view import SeatView
from badacey_fast.rules.games import scoring
from badacey_fast.solve.compact import CompactStrategy
from badacey_fast.solve.mccfr import MCCFRStrategy, equity_buckets
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.strategy import InfoState, Strategy
from badacey_fast.solve.tree import TOKEN

__all__ = ["StrategyBot", "history_tokens", "table_key", "draw_mask", "table_draws"]


def history_tokens(view: SeatView) -> tuple[str, ...]:
    """The public history as the exact solver's tokens (``f k c b r``, ``d<count>``)."""
    return tuple(f"d{cards}" if kind == DRAW else TOKEN[kind] for _, kind, _, cards in view.public_log())


# ------------------------------------------------------------------------- the abstraction's twin
def _value(card: int, ace_high: bool) -> int:
    r = card >> 2
    return 14 if ace_high and r == 0 else r + 1


def draw_mask(game: str, hand: tuple[int, ...], k: int) -> int:
    """The abstract draw of ``k`` cards (csrc/lbr.c bd_draw_mask): the cards outside the rule of thumb's
    keep set first, highest first (the later position first among equals), then kept cards alike."""
    from badacey_fast.draw.policy import keep_cards

    keep = set(keep_cards(hand, game))
    ace_high = scoring(game).ace_high
    order = sorted(range(len(hand)), key=lambda j: (hand[j] in keep, -_value(hand[j], ace_high), -j))
    return sum(1 << j for j in order[:k])


def table_draws(game: str, hand: tuple[int, ...]) -> tuple[int, int, int]:
    """A strategy table's three draws: stand pat, the rule of thumb's discard, one card more."""
    from badacey_fast.draw.policy import keep_cards

    k = len(hand) - len(keep_cards(hand, game))
    return 0, draw_mask(game, hand, k), draw_mask(game, hand, min(k + 1, len(hand)))


def _fnv(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def table_key(seat: int, bucket: int, tokens: bytes) -> int:
    """The key of an information state of a strategy table (csrc/lbr.c bd_info_key): the public history
    summarised -- the round, the bets of earlier rounds (small rounds 1, big rounds 2), each seat's count
    at the last draw, the current round's actions."""
    cur: list[int] = []
    street = pot = bets = 0
    drawing = False
    last = [0, 0]
    for tok in tokens:
        kind, s = tok & 15, (tok >> 4) & 1
        if kind >= 3:
            if not drawing:
                pot += bets * (1 if street < 2 else 2)
                bets = 0
                street += 1
                drawing = True
                cur = []
            last[s] = kind - 3
        else:
            if drawing:
                drawing = False
                cur = []
            if kind == 2:
                bets += 1
        cur.append(tok)
    head = bytes([seat, street | (drawing << 3), min(pot, 255), last[0] | last[1] << 4]) + bucket.to_bytes(4, "little")
    h = _fnv(head + bytes(cur))
    return h or 1


class StrategyBot:
    """Plays ``strategy`` (see the module docstring), sampling from its own seeded random stream."""

    __slots__ = ("strategy", "_rnd", "_table", "_bucket_of", "_spec")
    name = "strategy"

    def __init__(self, strategy: Strategy | CompactStrategy | MCCFRStrategy, seed: int | None = None) -> None:
        if not isinstance(strategy, (Strategy, CompactStrategy, MCCFRStrategy)):
            raise TypeError("a StrategyBot plays a Strategy, a CompactStrategy or an MCCFRStrategy, not "
                            f"{type(strategy).__name__}")
        self.strategy = strategy
        self._table: dict[int, tuple[int, int]] | None = None
        self._bucket_of: np.ndarray[Any, Any] | None = None
        self._spec: GameSpec | None = None
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the bot's random stream from ``seed``."""
        self._rnd = random.Random(seed).random

    def __call__(self, view: SeatView) -> Action:
        probs = self.probabilities(view)
        x = self._rnd()
        last = None
        for action, p in probs.items():
            if p <= 0:
                continue
            last = action
            if x < p:
                return action
            x -= p
        assert last is not None  # probabilities sum to 1
        return last

    def probabilities(self, view: SeatView) -> dict[Action, float]:
        """The probability of each legal action of ``view``'s seat (the actions of ``view.legal_actions()``;
        a draw: one Action per set of cards thrown)."""
        acts = view.legal_actions()
        if not acts:
            raise IllegalActionError(f"seat {view.seat} has no legal action: it is seat {view.to_act}'s turn")
        if view.seats != 2:
            raise SolveError(f"a solver's strategy plays heads-up, not {view.seats} seats")
        if isinstance(self.strategy, (Strategy, CompactStrategy)):
            return self._exact(view, acts)
        return self._abstract(view, acts)

    # ------------------------------------------------------------------------------------- exact
    def _exact(self, view: SeatView, acts: tuple[Action, ...]) -> dict[Action, float]:
        strat = self.strategy
        assert isinstance(strat, (Strategy, CompactStrategy))
        if self._spec is None or self._spec != GameSpec.of(view.config, stack=strat.game.stack):
            got = GameSpec.of(view.config, stack=strat.game.stack)
            if got != strat.game:
                raise SolveError(f"the strategy is of {strat.game.label()}, the table plays {got.label()}")
            self._spec = got
        seat = 0 if view.seat == view.button else 1
        hands = view.hands_seen
        info = InfoState(seat, history_tokens(view), hands, ())
        if isinstance(strat, CompactStrategy):
            node, idx, cols = strat.locate(info)
            row = strat.compact.rows(strat.probs, node)[idx][cols]  # the canonical row, in this hand's order
            tree = strat.compact.tree
        else:
            node, idx = strat.locate(info)
            row = strat.rows(node)[idx]
            tree = strat.tree
        if acts[0].kind == DRAW:
            hand = tuple(sorted(view.hand))
            out: dict[Action, float] = {}
            for m, p in enumerate(row):
                thrown = tuple(c for j, c in enumerate(hand) if m >> j & 1)
                out[Action(DRAW, None, thrown)] = float(p)
            return out
        names = tree.nodes[node].actions
        by_kind = {a.kind: a for a in acts}
        return {by_kind[name]: float(p) for name, p in zip(names, row)}

    # ---------------------------------------------------------------------------------- abstract
    def _abstract(self, view: SeatView, acts: tuple[Action, ...]) -> dict[Action, float]:
        strat = self.strategy
        assert isinstance(strat, MCCFRStrategy)
        if view.config.game != strat.game:
            raise SolveError(f"the strategy is of {strat.game}, the table plays {view.config.game}")
        hand = view.hand
        key = table_key((view.seat - view.button) % 2, self._bucket(hand), self._tokens(view))
        if acts[0].kind == DRAW:
            masks = table_draws(strat.game, hand)
            probs = self._lookup(key, 3)
            out: dict[Action, float] = {}
            for m, p in zip(masks, probs):
                a = Action(DRAW, None, tuple(c for j, c in enumerate(hand) if m >> j & 1))
                out[a] = out.get(a, 0.0) + p
            return out
        probs = self._lookup(key, len(acts))
        return dict(zip(acts, probs))

    def _tokens(self, view: SeatView) -> bytes:
        kinds = {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}
        out = bytearray()
        for seat, kind, _, cards in view.public_log():
            rel = (seat - view.button) % 2
            out.append(rel << 4 | (3 + (cards or 0) if kind == DRAW else kinds[kind]))
        return bytes(out)

    def _bucket(self, hand: tuple[int, ...]) -> int:
        from badacey_fast.solve.iso import canonical

        strat = self.strategy
        assert isinstance(strat, MCCFRStrategy)
        cls = canonical(hand)
        if strat.buckets is None:
            return cls
        if self._bucket_of is None:
            self._bucket_of = equity_buckets(strat.game, strat.buckets, strat.size[2])
        return int(self._bucket_of[cls])

    def _lookup(self, key: int, n: int) -> list[float]:
        strat = self.strategy
        assert isinstance(strat, MCCFRStrategy)
        if self._table is None:
            keys = strat.arrays["keys"]
            used = np.flatnonzero(keys)
            self._table = {int(k): (int(strat.arrays["offset"][i]), int(strat.arrays["n_actions"][i]))
                           for k, i in zip(keys[used].tolist(), used.tolist())}
        found = self._table.get(key)
        if found is not None and found[1] == n:
            avg = np.maximum(strat.arrays["average"][found[0]:found[0] + n].astype(np.float64), 0.0)
            total = avg.sum()
            if total > 0:
                return [float(x) for x in avg / total]
        return [1.0 / n] * n

