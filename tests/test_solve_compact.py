"""The compact exact path (csrc/solve.c bd_cs_*, badacey_fast/solve/compact.py): states merged by hand and
dead cards and by suit, terminals summed up the lattice of card sets.  Held to the full layers' exact path
(itself held to OpenSpiel to 1e-9 in tests/test_solve_openspiel.py) on every small game both can take:
the uniform strategy and random ones, one and two draws, best responses and the profile's value.

The compact path is C only: these tests switch to the C twin themselves (marked backend_independent), and
check that the Python twin refuses it by name.
"""

from __future__ import annotations

import numpy as np
import pytest

from badacey_fast import solve
from badacey_fast.errors import InformationStateError, SolveError
from badacey_fast.game.small import SMALL_GAMES
from badacey_fast.kernel.backend import using
from badacey_fast.solve import compact
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.strategy import Strategy

pytestmark = pytest.mark.backend_independent

GAMES = {
    "one card, 2 suits": GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1),
    "micro": GameSpec.of(SMALL_GAMES["micro-badugi"]),
    "tiny (all-in)": GameSpec.of(SMALL_GAMES["tiny-badugi"]),
    "two cards, 4 suits, cap 2": GameSpec.of("badugi", ranks=4, suits=4, hand_size=2, draws=1, cap=2),
    "two draws": GameSpec.of("badugi", ranks=4, suits=3, hand_size=1, draws=2, cap=1),
}


def random_strategy(c: compact.Compact, seed: int) -> np.ndarray:
    """A random compact strategy, far from uniform, its draw rows symmetric over each state's renamings."""
    rng = np.random.default_rng(seed)
    p = c.uniform()
    for i, v in enumerate(c.tree.nodes):
        if v.kind in ("bet", "draw"):
            rows = c.rows(p, i)
            x = rng.random(rows.shape) ** 3
            rows[:] = x / x.sum(axis=1, keepdims=True)
    return c.symmetric(p)


SOAK_GAMES = {"two cards, 4 suits, cap 2"}  # its full layers take half a minute: CI's exhaustive step


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.exhaustive) if n in SOAK_GAMES else n for n in GAMES])
def test_compact_path_equals_the_full_layers(name):
    spec = GAMES[name]
    with using("c"):
        c = compact.compact_of(spec)
        for which in ("uniform", 1, 2):
            probs = c.uniform() if which == "uniform" else random_strategy(c, which)
            full = Strategy(spec, c.full_strategy(probs))
            full.check()
            old = solve.exploitability(spec, full)
            new = solve.exploitability(spec, solve.CompactStrategy(spec, probs))
            assert new.values == pytest.approx(old.values, abs=1e-9, rel=1e-9), (name, which)
            assert new.value == pytest.approx(old.value, abs=1e-9, rel=1e-9), (name, which)
            assert new.mbb == pytest.approx(old.mbb, abs=1e-6)
        # "uniform" needs no array: the kernel plays 1 / columns itself.
        assert compact.values(spec, "uniform")[0] == pytest.approx(
            solve.exploitability(spec, "uniform").values, abs=1e-9)


@pytest.mark.exhaustive  # a brute-force count over the 20-card deck
def test_compact_sizes_of_mini_badugi():
    """The canonical (hand, dead cards) states of mini Badugi per cards thrown, against a count by brute
    force: the distinct suit-canonical forms of every (hand, dead) pair of the 20-card deck."""
    from itertools import combinations, permutations

    spec = GameSpec.of(SMALL_GAMES["mini-badugi"])
    n, S = spec.n_cards, spec.suits

    def canon(hand: tuple[int, ...], dead: tuple[int, ...]) -> tuple:
        return min((tuple(sorted(4 * (p // S) + q[p % S] for p in hand)),
                    tuple(sorted(4 * (p // S) + q[p % S] for p in dead))) for q in permutations(range(S)))

    with using("c"):
        got = compact.sizes(spec)
    for thrown in (0, 1):  # the larger spaces by the same rule would take minutes here
        want = {canon(h, d) for h in combinations(range(n), 4)
                for d in combinations([p for p in range(n) if p not in h], thrown)}
        assert got[f"states thrown {thrown}"] == len(want)
    assert got["states thrown 4"] == 384_420 and got["strategy entries"] == 112_903_710


@pytest.mark.exhaustive  # mini Badugi's two best responses: seconds each
def test_mini_badugi_uniform_exploitability_is_the_sum_of_its_best_responses():
    """Mini Badugi (too large for the full layers) on the compact path: the uniform strategy's best
    responses both win, and each is at least what the other seat's uniform play concedes to uniform."""
    spec = GameSpec.of(SMALL_GAMES["mini-badugi"])
    with using("c"):
        e = solve.exploitability(SMALL_GAMES["mini-badugi"], "uniform")  # too large for the full layers
    assert e.game == spec
    assert e.chips == pytest.approx((e.values[0] + e.values[1]) / 2)
    assert e.values[0] >= e.value - 1e-9 and e.values[1] >= -e.value - 1e-9  # a best response beats playing along
    assert 500 < e.mbb < 1000


def test_the_compact_path_refuses_what_it_cannot_take():
    spec = GAMES["micro"]
    with using("python"):
        with pytest.raises(SolveError, match="compact exact path runs on the C twin only"):
            compact.values(spec, "uniform")
    with using("c"):
        with pytest.raises(SolveError, match="takes 'uniform', a CompactStrategy or a built-in bot .RandomBot, RuleBot., not 'raise'"):
            compact.values(spec, "raise")
        with pytest.raises(SolveError, match="has 315 entries, not 3"):
            compact.CompactStrategy(spec, np.zeros(3))
        other = compact.CompactStrategy.uniform(GAMES["two draws"])
        with pytest.raises(SolveError, match="the strategy is of badugi R4 S3 H1 D2 cap1, not"):
            solve.exploitability(spec, other)
        c = compact.compact_of(spec)
        with pytest.raises(SolveError, match="strategy has 5 entries"):
            c.value(np.zeros(5), 0)
        with pytest.raises(InformationStateError, match="no compact state"):
            c.core.index(0b11, 0)  # two cards: not a hand of one
