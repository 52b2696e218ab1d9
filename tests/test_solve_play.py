"""Full-size play for measuring bots (csrc/lbr.c, badacey_fast/solve/lbr.py, badacey_fast/solve/mccfr.py):
the C bots held to game/bots.py decision by decision, the abstraction's pieces to their Python twins, and
local best response held to the exact exploitability where both exist.

These tests call the C core directly whatever the active twin (marked backend_independent): local best
response and MCCFR run on the C hand loop only.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from badacey_fast import solve
from badacey_fast.errors import SolveError
from badacey_fast.game import Game, GameConfig
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.kernel import _c
from badacey_fast.rules.games import PRESETS

pytestmark = pytest.mark.backend_independent


def rule_distribution(view) -> dict:
    """RuleBot's action probabilities at a view: it is deterministic but for one 10 % float, which the
    bot draws from its random stream -- read both branches by feeding it each side of 0.1."""
    bot = RuleBot()
    bot._rnd = lambda: 0.05
    low = bot(view)
    bot._rnd = lambda: 0.5
    high = bot(view)
    return {low: 1.0} if low == high else {low: 0.1, high: 0.9}


def code_of(game, seat) -> int:
    acts = game.legal_actions()
    if acts[0].kind == "draw":
        return 8 + len(game.hands[seat])
    kinds = {a.kind for a in acts}
    return (1 if "fold" in kinds else 0) | 2 | (4 if kinds & {"bet", "raise"} else 0)


def index_of(action, hand) -> int:
    if action.kind == "draw":
        return sum(1 << j for j, c in enumerate(hand) if c in action.cards)
    return {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}[action.kind]


@pytest.mark.parametrize("preset", PRESETS)
def test_c_rule_bot_is_game_bots_rule_bot(preset):
    """Every decision of many random hands: the C rule bot's probabilities are RuleBot's."""
    rng = random.Random(11)
    checked = 0
    for hand_no in range(200):
        g = Game(GameConfig(game=preset), [200, 200], seed=hand_no)
        players = [RandomBot(seed=rng.random()), RandomBot(seed=rng.random())]
        while g.phase != "complete":
            seat = g.to_act
            view = g.view(seat)
            want = rule_distribution(view)
            got = _c.bot_policy(1, PRESETS.index(preset), tuple(g.hands[seat]), g.street, 3, code_of(g, seat), seat,
                                b"")
            expect = np.zeros(len(got))
            for action, p in want.items():
                expect[index_of(action, g.hands[seat])] += p
            assert np.allclose(got, expect), (preset, g.hands[seat], g.street, want, got)
            checked += 1
            g.apply(players[seat](view))
    assert checked > 1200


@pytest.mark.parametrize("preset", PRESETS)
def test_c_keep_mask_is_keep_cards(preset):
    from badacey_fast.draw.policy import keep_cards

    rng = random.Random(3)
    size = GameConfig(game=preset).hand_size
    for _ in range(3000):
        hand = tuple(rng.sample(range(52), size))
        keep = keep_cards(hand, preset)
        assert _c.keep_mask(PRESETS.index(preset), hand) == sum(1 << j for j, c in enumerate(hand) if c in keep)


def test_random_bot_probabilities_are_uniform():
    assert _c.bot_policy(0, 2, (0, 5, 10, 15), 1, 3, 1 | 2 | 4, 0, b"") == pytest.approx([1 / 3] * 3)
    assert _c.bot_policy(0, 2, (0, 5, 10, 15), 1, 3, 2, 0, b"") == pytest.approx([0, 1, 0])
    assert _c.bot_policy(0, 0, (0, 5, 10, 15, 20), 1, 3, 13, 0, b"") == pytest.approx([1 / 32] * 32)


def test_draw_masks_throw_the_unkept_cards_first():
    hand = (0, 5, 10, 50, 51)  # Ac 2d 3h Kh Ks: Badacey keeps A 2 3, throws the kings first, the king of spades
    keep = _c.keep_mask(0, hand)
    assert keep == 0b00111
    assert [_c.draw_mask(0, hand, k) for k in range(6)] == [0, 0b10000, 0b11000, 0b11100, 0b11110, 0b11111]
    with pytest.raises(ValueError):
        _c.draw_mask(0, hand, 6)
    with pytest.raises(ValueError):
        _c.bot_policy(1, 2, (0, 5, 10, 52), 0, 3, 2, 0, b"")  # a card out of range


def test_lbr_on_the_full_game():
    """Full-size Badugi: the LBR wins against the random bot (clearly beyond its standard error), less
    against the rule bot; both seats played."""
    r = solve.lbr("badugi", "random", hands=400, particles=32, seed=3)
    s = solve.lbr("badugi", "rule", hands=400, particles=32, seed=3)
    assert r.mbb > 3 * r.se_mbb > 0
    assert s.mbb < r.mbb
    assert r.hands == 400 and r.by_seat[0] != r.by_seat[1]


def engine_tokens(game) -> bytes:
    """The public history as csrc/lbr.h's tokens, from the engine's log (the button is seat 0 here)."""
    kinds = {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}
    out = bytearray()
    for seat, a in game.log:
        out.append(seat << 4 | (3 + len(a.cards) if a.kind == "draw" else kinds[a.kind]))
    return bytes(out)


@pytest.mark.parametrize("preset,buckets,least", [("badugi", 16, 50), ("27", None, 1), ("badacey", 32, 50)])
def test_strategy_bot_is_the_c_table_bot(preset, buckets, least):
    """An MCCFR strategy played by StrategyBot (Python: keys, buckets, abstract draws) gives the very
    probabilities the C core's table bot gives, decision by decision."""
    from badacey_fast.solve.bot import StrategyBot, draw_mask, table_key
    from badacey_fast.solve.mccfr import mccfr

    strat = mccfr(preset, iterations=60, seed=4, buckets=buckets, progress=False)
    store, abstraction = strat.core()
    bot = StrategyBot(strat)
    game_index = PRESETS.index(preset)
    rng = random.Random(5)
    checked = learned = 0
    for hand_no in range(60):
        g = Game(GameConfig(game=preset), [200, 200], seed=hand_no)
        players = [RandomBot(seed=rng.random()), RandomBot(seed=rng.random())]
        while g.phase != "complete":
            seat = g.to_act
            view = g.view(seat)
            hand = tuple(g.hands[seat])
            tokens = engine_tokens(g)
            bucket = abstraction.bucket(hand)
            assert bot._bucket(hand) == bucket
            assert table_key(seat, bucket, tokens) == _c.info_key(seat, bucket, tokens)
            got = _c.bot_policy(2, game_index, hand, g.street, 3, code_of(g, seat), seat, tokens, store, abstraction)
            expect = np.zeros(len(got))
            for action, p in bot.probabilities(view).items():
                expect[index_of(action, hand)] += p
            assert np.allclose(got, expect, atol=1e-6), (hand, tokens, got, expect)
            checked += 1
            learned += not np.allclose(expect[expect > 0], expect[expect > 0][0])  # not uniform: a stored state
            for k in range(len(hand) + 1):
                assert draw_mask(preset, hand, k) == _c.draw_mask(game_index, hand, k)
            g.apply(players[seat](view))
    assert checked > 300 and learned >= least  # suit classes alone: few states seen twice in 60 iterations
    assert strat.information_states > 0 and any(store.lookup(int(k), int(n))[0] for k, n in
                                                zip(strat.arrays["keys"][:50], strat.arrays["n_actions"][:50]) if k)


SMALL = GameConfig(game="badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1)


@pytest.mark.parametrize("name,bot", [("random", RandomBot()), ("rule", RuleBot())])
def test_lbr_is_a_lower_bound_of_the_exact_exploitability(name, bot):
    """On a small game both exist: the exact exploitability of the bot (its action probabilities read at
    every information state) bounds LBR's estimate from above (within its standard error), and LBR
    finds a good part of it (measured: 72 % of the random bot's, 70 % of the rule bot's)."""
    exact = solve.exploitability(SMALL, bot).mbb
    found = solve.lbr(SMALL, name, hands=4000, particles=64, seed=2)
    assert found.mbb <= exact + 4 * found.se_mbb
    assert found.mbb >= 0.5 * exact


def test_strategy_bot_plays_an_exact_strategy():
    """A CFR+ strategy played by StrategyBot is the strategy: the bot read back at every information state
    gives the same exploitability; it beats the random bot in the engine."""
    from badacey_fast.game import simulate
    from badacey_fast.solve.bot import StrategyBot

    result = solve.cfr(SMALL, iterations=200)
    bot = StrategyBot(result.strategy, seed=1)
    assert solve.exploitability(SMALL, bot).mbb == pytest.approx(result.exploitability_mbb, abs=1e-9)
    games = simulate([bot, RandomBot(seed=2)], hands=4000, seed=3, config=SMALL, stack=20)
    assert games.per100[0] > 0
    from badacey_fast.errors import SolveError

    with pytest.raises(SolveError, match="the table plays"):
        StrategyBot(result.strategy)(Game(GameConfig(game="badugi", ranks=4, suits=3, hand_size=1, draws=1, cap=1),
                                          [20, 20], seed=1).view(0))


def test_strategy_bot_is_an_environment_opponent():
    from badacey_fast.envs.gymnasium import BadaceyEnv
    from badacey_fast.solve.bot import StrategyBot

    strategy = solve.cfr(SMALL, iterations=20).strategy
    env = BadaceyEnv(SMALL, opponents=[StrategyBot(strategy, seed=4)], stacks=20)
    obs, info = env.reset(seed=5)
    steps = 0
    done = False
    while not done:
        mask = info["action_mask"]
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        steps += 1
    assert steps >= 1 and isinstance(reward, float)


def test_a_damaged_strategy_file_is_refused_not_followed(tmp_path):
    """A strategy table read from a file is checked where the C core reads it: an offset past the pool or
    a wrong action count makes MCCFR refuse to resume, never write past the arrays."""
    from badacey_fast.solve.mccfr import MCCFRStrategy, mccfr

    strat = mccfr("badugi", iterations=10, seed=1, progress=False)
    path = tmp_path / "s.npz"
    strat.save(path)
    back = MCCFRStrategy.load(path)
    used = np.flatnonzero(back.arrays["keys"])
    back.arrays["offset"][used] = back.arrays["regret"].size  # every state points past the pool
    with pytest.raises(SolveError, match="bad arguments"):
        mccfr("badugi", iterations=2, seed=2, resume=back, progress=False)


def test_the_python_twin_refuses_the_c_only_solvers_by_name():
    # LBR and MCCFR have no Python twin: on it they say so (a SolveError naming the switch), never a crash.
    from badacey_fast.errors import SolveError
    from badacey_fast.kernel.backend import using

    with using("python"):
        with pytest.raises(SolveError, match="local best response runs on the C hand loop"):
            solve.lbr("badugi", "rule", hands=2)
        with pytest.raises(SolveError, match="MCCFR runs on the C hand loop"):
            solve.mccfr("badugi", iterations=1)
