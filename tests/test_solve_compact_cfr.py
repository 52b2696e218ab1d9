"""CFR over the compact layout (csrc/solve.c bd_cs_cfr, solve.cfr(compact=...)), the compact strategies'
files and bot, the built-in bots read on the compact path, and the compact path's two-half showdowns.

Held to the full layers (themselves held to OpenSpiel in tests/test_solve_openspiel.py):

- where no two sequences of hands merge (one-card hands), the compact run IS the full run: every point of
  the curve equal to 1e-9, for CFR+, DCFR and vanilla CFR;
- where they merge (two-card hands), the first iteration's regrets are the full run's row for row (later
  iterations part at ties: a regret of +1e-17 or 0 picks a pure or a mixed strategy, and the full layers'
  two twins part there too), and the average strategy the compact run returns is valued alike by both
  paths (the full layers playing its rows at every sequence of hands).

The compact path is C only: these tests switch to the C twin themselves (marked backend_independent).
"""

from __future__ import annotations

import numpy as np
import pytest

from badacey_fast import solve
from badacey_fast.errors import InformationStateError, SolveError
from badacey_fast.game import Game, GameConfig, simulate
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.game.small import SMALL_GAMES
from badacey_fast.kernel.backend import using
from badacey_fast.solve import compact
from badacey_fast.solve.exact import CFR, CFR_PLUS, DCFR
from badacey_fast.solve.exploit import exact_of
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.strategy import InfoState, Strategy
from badacey_fast.solve.tree import hand_ranks

pytestmark = pytest.mark.backend_independent

ONE_CARD = {
    "micro": GameSpec.of(SMALL_GAMES["micro-badugi"]),
    "one card, 2 suits": GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1),
    "two draws": GameSpec.of("badugi", ranks=4, suits=3, hand_size=1, draws=2, cap=1),
}
TWO_CARDS = GameSpec.of("badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=2)


@pytest.fixture(autouse=True)
def _c_twin():
    with using("c"):
        yield


@pytest.mark.parametrize("method", ["cfr+", "dcfr", "cfr"])
@pytest.mark.parametrize("name", list(ONE_CARD))
def test_compact_cfr_is_the_full_run_where_nothing_merges(name, method):
    spec = ONE_CARD[name]
    full = solve.cfr(spec, iterations=30, method=method, every=10, compact=False)
    small = solve.cfr(spec, iterations=30, method=method, every=10, compact=True)
    assert isinstance(small.strategy, solve.CompactStrategy) and isinstance(full.strategy, Strategy)
    assert [p.iteration for p in small.curve] == [10, 20, 30]
    for a, b in zip(small.curve, full.curve):
        assert a.mbb == pytest.approx(b.mbb, abs=1e-9), (name, method, a.iteration)
    assert small.curve[-1].mbb < small.curve[0].mbb


@pytest.mark.parametrize("variant", [CFR_PLUS, DCFR, CFR])
def test_first_iteration_regrets_equal_the_full_layers_where_sequences_merge(variant):
    c = compact.compact_of(TWO_CARDS)
    exact = exact_of(TWO_CARDS)
    regret, average = np.zeros(c.strategy_size), np.zeros(c.strategy_size)
    c.cfr(regret, average, 1, 1, variant)
    full_regret, full_average = np.zeros(exact.tree.strategy_size), np.zeros(exact.tree.strategy_size)
    exact.cfr(full_regret, full_average, 1, 1, variant)
    assert np.count_nonzero(regret) > regret.size // 4  # both seats moved (seat 1 facing seat 0's new play)
    np.testing.assert_allclose(c.full_strategy(regret), full_regret, atol=1e-9, rtol=0)


def test_the_average_strategy_of_a_merged_run_is_valued_alike_by_both_paths():
    r = solve.cfr(TWO_CARDS, iterations=40, every=4, compact=True)
    full = Strategy(TWO_CARDS, r.strategy.compact.full_strategy(r.strategy.probs))
    full.check()
    assert solve.exploitability(TWO_CARDS, full).mbb == pytest.approx(r.exploitability_mbb, abs=1e-9)
    # and it converges as the full run does (their iterates part at ties, not in speed)
    ref = solve.cfr(TWO_CARDS, iterations=40, every=40, compact=False)
    assert r.exploitability_mbb < 0.1 * r.curve[0].mbb
    assert r.exploitability_mbb == pytest.approx(ref.exploitability_mbb, rel=0.5)


def test_checkpoint_resume_continues_the_compact_run_exactly(tmp_path):
    ck = tmp_path / "ck.npz"
    solve.cfr(TWO_CARDS, iterations=20, every=10, compact=True, checkpoint=ck)
    resumed = solve.cfr(TWO_CARDS, iterations=40, every=10, compact=True, resume=ck)
    straight = solve.cfr(TWO_CARDS, iterations=40, every=10, compact=True)
    assert [p.mbb for p in resumed.curve] == [p.mbb for p in straight.curve]
    assert resumed.strategy.probs.tolist() == straight.strategy.probs.tolist()
    with pytest.raises(SolveError, match="checkpoint of the compact layout"):
        solve.cfr(TWO_CARDS, iterations=40, resume=ck, compact=False)


@pytest.mark.parametrize("suffix", [".npz", ".arrow"])
def test_a_compact_strategy_saves_and_loads(tmp_path, suffix):
    if suffix == ".arrow":
        pytest.importorskip("pyarrow")
    s = solve.cfr(TWO_CARDS, iterations=5, compact=True).strategy
    path = tmp_path / f"s{suffix}"
    s.save(path)
    back = solve.CompactStrategy.load(path)
    assert back.game == s.game and back.probs.tolist() == s.probs.tolist()
    Strategy.uniform(TWO_CARDS).save(tmp_path / f"full{suffix}")
    with pytest.raises(SolveError, match="Strategy.load"):
        solve.CompactStrategy.load(tmp_path / f"full{suffix}")
    bad = s.probs.copy()
    bad[0] = 2.0
    solve.CompactStrategy(TWO_CARDS, bad).save(path)
    with pytest.raises(SolveError, match="not a probability distribution"):
        solve.CompactStrategy.load(path)


def test_compact_probabilities_are_the_full_strategy_s_at_every_information_state():
    s = solve.cfr(TWO_CARDS, iterations=8, compact=True).strategy
    full = Strategy(TWO_CARDS, s.compact.full_strategy(s.probs))
    seen = 0
    for k, info in enumerate(full.info_states()):
        if k % 23 == 0:  # a sample across every node (the whole walk takes ~10 s)
            assert s.probabilities(info) == pytest.approx(full.probabilities(info), abs=1e-12), info
            seen += 1
    assert seen > 500
    info = next(iter(full.info_states(seat=0)))
    with pytest.raises(InformationStateError, match="does not act"):
        s.probabilities(info._replace(seat=1))
    with pytest.raises(InformationStateError, match="hand"):
        s.probabilities(info._replace(hands=(info.hands[0][:1],)))


def test_strategy_bot_plays_a_compact_strategy_as_its_full_twin():
    s = solve.cfr(TWO_CARDS, iterations=8, compact=True).strategy
    full = Strategy(TWO_CARDS, s.compact.full_strategy(s.probs))
    bots = solve.StrategyBot(s, seed=1), solve.StrategyBot(full, seed=1)
    config = GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=2)
    checked = 0
    for seed in range(40):
        g = Game(config, [40, 40], button=0, seed=seed)
        while g.phase != "complete":
            view = g.view(g.to_act)
            a, b = bots[0].probabilities(view), bots[1].probabilities(view)
            assert a.keys() == b.keys() and all(a[k] == pytest.approx(b[k], abs=1e-12) for k in a)
            checked += 1
            g.apply(bots[0](view))
    assert checked > 100
    r = simulate([solve.StrategyBot(s, seed=2), RuleBot(seed=3)], hands=200, seed=4, config=config, stack=40)
    assert r.hands == 200


@pytest.mark.exhaustive
def test_strategy_bot_read_back_at_every_information_state_is_the_compact_strategy():
    result = solve.cfr(TWO_CARDS, iterations=30, compact=True)
    bot = solve.StrategyBot(result.strategy, seed=1)
    assert solve.exploitability(TWO_CARDS, bot).mbb == pytest.approx(result.exploitability_mbb, abs=1e-9)


def test_two_half_showdowns_equal_the_full_layers():
    # Badacey and Badeucy score two halves: the compact showdown sums each half's wins, ties and losses.
    for spec in (GameSpec.of("badacey", ranks=4, draws=0, cap=2), GameSpec.of("badeucy", ranks=4, draws=0, cap=2),
                 GameSpec.of("badacey", ranks=3, draws=0, cap=1)):
        assert len(hand_ranks(spec)) == 2
        c = compact.compact_of(spec)
        rng = np.random.default_rng(5)
        for which in ("uniform", "random"):
            probs = c.uniform()
            if which == "random":
                for i, v in enumerate(c.tree.nodes):
                    if v.kind in ("bet", "draw"):
                        rows = c.rows(probs, i)
                        x = rng.random(rows.shape) ** 3
                        rows[:] = x / x.sum(axis=1, keepdims=True)
            new = solve.exploitability(spec, solve.CompactStrategy(spec, probs))
            old = solve.exploitability(spec, Strategy(spec, c.full_strategy(probs)))
            assert new.values == pytest.approx(old.values, abs=1e-9), (spec.label(), which)
            assert new.value == pytest.approx(old.value, abs=1e-9), (spec.label(), which)
        r = solve.cfr(spec, iterations=12, every=4, compact=True)
        ref = solve.cfr(spec, iterations=12, every=4, compact=False)
        assert [p.mbb for p in r.curve] == pytest.approx([p.mbb for p in ref.curve], abs=1e-9)


def test_the_built_in_bots_on_the_compact_path():
    spec = TWO_CARDS
    random_bot = compact.bot_strategy(spec, RandomBot())
    assert random_bot.probs.tolist() == compact.compact_of(spec).uniform().tolist()
    rule = compact.bot_strategy(spec, RuleBot())
    mapped = Strategy(spec, rule.compact.full_strategy(rule.probs))
    mapped.check()
    on_compact = solve.exploitability(spec, rule)
    assert on_compact.values == pytest.approx(solve.exploitability(spec, mapped).values, abs=1e-9)
    # Its betting: a made two-card badugi raises, a pair facing a raise folds 90 % of the time.
    assert rule.probabilities(InfoState(0, (), ((0, 5),), ())) == (0.0, 0.0, 1.0)
    # Ac Ad wants one card with one draw to come: it calls the button's raise (fold, call: capped).
    assert rule.probabilities(InfoState(1, ("r",), ((0, 1),), ())) == (0.0, 1.0)
    # Three clubs want two cards with one draw to come: facing a bet they fold, but for a 10 % float.
    three = GameSpec.of("badugi", ranks=5, suits=3, hand_size=3, draws=1, cap=2)
    clubs = tuple(three.deck[p] for p in (0, 3, 6))  # Ac 2c 3c
    weak = compact.bot_strategy(three, RuleBot())
    assert weak.probabilities(InfoState(1, ("r",), (clubs,), ())) == pytest.approx((0.9, 0.1))
    with pytest.raises(SolveError, match="random and rule-of-thumb bots .RandomBot, RuleBot., not .rule."):
        compact.bot_strategy(spec, "rule")


@pytest.mark.exhaustive
def test_the_rule_bot_itself_is_at_least_as_exploitable_as_its_compact_rows():
    # The bot breaks ties between discards alike up to suits by card order (As kept from As Ah): the
    # compact rows break them at random, the mean of the bot's renamings (exploitability is convex).
    spec = GameSpec.of("badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=1)
    on_compact = solve.exploitability(spec, compact.bot_strategy(spec, RuleBot())).mbb
    own = solve.exploitability(spec, RuleBot()).mbb
    assert on_compact - 1e-9 <= own <= 1.02 * on_compact


def test_the_python_twin_refuses_compact_cfr():
    with using("python"):
        with pytest.raises(SolveError, match="C twin only"):
            solve.cfr(TWO_CARDS, iterations=1, compact=True)
        with pytest.raises(SolveError, match="strategy entries"):
            solve.cfr(SMALL_GAMES["mini-badugi"], iterations=1)
    with pytest.raises(TypeError, match="compact"):
        solve.cfr(TWO_CARDS, iterations=1, compact="yes")


@pytest.mark.exhaustive
def test_mini_badugi_cfr_first_iterations_and_the_bots():
    mini = SMALL_GAMES["mini-badugi"]
    r = solve.cfr(mini, iterations=2, every=1)
    assert isinstance(r.strategy, solve.CompactStrategy)
    uniform = solve.exploitability(mini, "uniform").mbb
    assert r.curve[0].mbb == pytest.approx(uniform, abs=1e-9)  # one iteration's average: uniform
    assert r.curve[1].mbb < uniform - 10
    rule = solve.exploitability(mini, RuleBot())
    assert solve.exploitability(mini, RandomBot()).mbb == pytest.approx(uniform, abs=1e-9)
    assert 0 < rule.mbb < uniform and rule.value != 0
