"""The engine's speed paths give the same hands as the plain ones (issue 5's throughput work).

- ``direct_calls`` (bots bound once, as simulations call them) makes the same decisions as calling the
  bots themselves, so a simulation's hands do not depend on how the bots are called;
- every showdown the engine settles through ``settle``'s one-pot fast path equals the general path's
  settlement of the same contributions and hands (side pots from all-ins included, which take the
  general path).
"""

from __future__ import annotations

import random

from badacey_fast.game import Game, GameConfig
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.game.simulate import direct_calls, play_hand
from badacey_fast.pots.settlement import Settlement, scoring

from badacey_fast.pots import settlement as sd


def _bots(n: int, k: int) -> list:
    return [RandomBot(seed=k * 10 + i) if (k + i) % 3 else RuleBot(seed=k + i) for i in range(n)]


def _record(g: Game) -> tuple:
    return g.log, g.payouts, g.stacks, g.dealt


def test_direct_calls_play_the_same_hands_as_the_bots():
    plain, direct = [], []
    for k in range(300):
        n = 2 + k % 5
        stacks = [200] * n
        g = play_hand(Game(GameConfig(), stacks, button=k % n, seed=k), _bots(n, k))
        plain.append(_record(g))
        g = play_hand(Game(GameConfig(), stacks, button=k % n, seed=k), direct_calls(_bots(n, k)))
        direct.append(_record(g))
    assert plain == direct
    assert len({p[1].count(0) for p in plain}) > 1  # not one repeated outcome


def test_engine_showdowns_equal_the_general_settlement(backend):
    rng = random.Random(7)
    configs = [GameConfig(), GameConfig(game="badeucy"), GameConfig(odd_chip="low")]
    showdowns = side_pots = 0
    for k in range(1500):
        cfg = configs[k % len(configs)]
        n = rng.randint(2, 6)
        stacks = [rng.choice([5, 9, 30, 200]) for _ in range(n)]  # short stacks: all-ins and side pots
        g = play_hand(Game(cfg, stacks, button=k % n, seed=k), _bots(n, k))
        if g.settlement is None:
            continue
        s = g.settlement
        general = sd._settle_general(list(s.contributions), list(s.hands), s.button, scoring(cfg.settle_game),
                                     cfg.odd_chip)
        assert type(s) is Settlement and s == general
        assert g.payouts == general.payouts
        showdowns += 1
        side_pots += len(s.pots) > 1
    assert showdowns > 500 and side_pots > 100  # both the fast path and the side-pot path were played
