"""game/bots.py RuleBot (its hot path reads the view's game directly and memoises its plan per holding)
held to its rule stated through the public SeatView API: the same decisions, so the same simulations."""

from __future__ import annotations

import random

import pytest

from badacey_fast.draw.policy import keep_cards
from badacey_fast.game import Action, GameConfig, simulate
from badacey_fast.game.actions import BET, CALL, CHECK, DRAW, FOLD, RAISE
from badacey_fast.game.bots import RandomBot, RuleBot

pytestmark = pytest.mark.backend_independent  # bots and betting: no evaluation but at showdowns, alike


class StatedRuleBot:
    """RuleBot's rule of thumb read off its docstring, through the public view only."""

    name = "rule"

    def __init__(self) -> None:
        self._rnd = random.Random(None).random

    def reseed(self, seed):
        self._rnd = random.Random(seed).random

    def __call__(self, view):
        acts = view.legal_actions()
        hand, game = view.hand, view.config.game
        keep = keep_cards(hand, game)
        if acts[0].kind == DRAW:
            return Action(DRAW, None, tuple(c for c in hand if c not in keep))
        missing = len(hand) - len(keep)
        draws_left = view.config.draws - view.street
        by_kind = {a.kind: a for a in acts}
        aggressive = by_kind.get(RAISE) or by_kind.get(BET)
        if missing == 0 or (missing == 1 and draws_left >= 2):
            return aggressive or by_kind.get(CALL) or by_kind[CHECK]
        if missing == 1 or (missing == 2 and draws_left == 3):
            return by_kind.get(CHECK) or by_kind[CALL]
        if CHECK in by_kind:
            return by_kind[CHECK]
        if self._rnd() < 0.1:
            return by_kind[CALL]
        return by_kind[FOLD]


@pytest.mark.parametrize("config, seats", [("badacey", 2), ("badeucy", 6), ("badugi", 3), ("a5", 4), ("27", 5),
                                           (GameConfig(game="badugi", ranks=6, suits=3, hand_size=3), 3),
                                           (GameConfig(cap=None, draws=2), 4)])
def test_rule_bot_plays_its_stated_rule(config, seats):
    fast = [RuleBot() if s % 2 == 0 else RandomBot() for s in range(seats)]
    stated = [StatedRuleBot() if s % 2 == 0 else RandomBot() for s in range(seats)]
    a = simulate(fast, hands=400, seed=9, config=config, stack=40, engine="python")
    b = simulate(stated, hands=400, seed=9, config=config, stack=40)
    assert a == b
    assert a.showdowns > 0 and any(t != 0 for t in a.totals)
