"""The exact solver against OpenSpiel's own algorithms on our OpenSpiel games of the tiniest small games:
exploitability equal to 1e-9 (OpenSpiel counts big blinds, our games' utility unit), for the uniform
policy, for OpenSpiel's CFR+ policies read by the solver, and for the solver's CFR+ strategies read by
OpenSpiel; and the suit-canonical information-state tensor."""

from __future__ import annotations

import os

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # the [openspiel] extra: in [test], so CI always runs these

from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import cfr as os_cfr  # noqa: E402
from open_spiel.python.algorithms import exploitability as os_exploitability  # noqa: E402

import badacey_fast.envs.openspiel  # noqa: E402,F401  # registers the games
from badacey_fast import kernel, solve  # noqa: E402
from badacey_fast.game.small import SMALL_GAMES  # noqa: E402
from badacey_fast.solve.interop import canonical_information_state_tensor, strategy_of, to_tabular_policy  # noqa: E402



def load(name: str, deal: str = "set"):
    return pyspiel.load_game("python_badugi", SMALL_GAMES[name].openspiel_params(deal))


# OpenSpiel's computation runs once (it is the same whatever our twin); ours on both twins inside each test.
pytestmark = pytest.mark.backend_independent
TWINS = ("python", "c")


@pytest.mark.parametrize("name,deal", [("nano-badugi", "set"), pytest.param("nano-badugi", "card", marks=pytest.mark.exhaustive),
                                       pytest.param("micro-badugi", "set", marks=pytest.mark.exhaustive)]
                         # Tiny Badugi: OpenSpiel's Python exploitability takes ~3 min of a core there, more
                         # than CI's half hour can spare; BADACEY_FAST_SOAK=1 adds it (docs/testing.md).
                         + ([pytest.param("tiny-badugi", "set", marks=pytest.mark.exhaustive)]
                            if os.environ.get("BADACEY_FAST_SOAK") else []))
def test_uniform_exploitability_equals_openspiels(name, deal):
    game = load(name, deal)
    theirs = os_exploitability.exploitability(game, os_policy.UniformRandomPolicy(game))
    for twin in TWINS:
        with kernel.using(twin):
            ours = solve.exploitability(game, "uniform")
            assert ours.big_blinds == pytest.approx(theirs, abs=1e-9), twin
            assert ours.mbb == pytest.approx(1000 * theirs * ours.game.big_blind / ours.game.big_bet, abs=1e-6)
            # OpenSpiel's policy read by the solver is the same strategy.
            read = solve.exploitability(game, os_policy.UniformRandomPolicy(game))
            assert read.chips == pytest.approx(ours.chips, abs=1e-12)


def test_openspiel_cfr_policy_exploitability_equals_openspiels():
    game = load("nano-badugi")
    solver = os_cfr.CFRPlusSolver(game)
    for _ in range(5):
        solver.evaluate_and_update_policy()
    trained = solver.average_policy()
    theirs = os_exploitability.exploitability(game, trained)
    assert theirs < os_exploitability.exploitability(game, os_policy.UniformRandomPolicy(game))
    for twin in TWINS:
        with kernel.using(twin):
            assert solve.exploitability(game, trained).big_blinds == pytest.approx(theirs, abs=1e-9), twin


@pytest.mark.parametrize("name", ["nano-badugi", pytest.param("micro-badugi", marks=pytest.mark.exhaustive)])
def test_solver_strategy_read_by_openspiel(name):
    game = load(name)
    for twin in TWINS:
        with kernel.using(twin):
            result = solve.cfr(game, iterations=30)
            table = to_tabular_policy(result.strategy, game)
            theirs = os_exploitability.exploitability(game, table)
            big_blinds = result.exploitability_mbb * solve.GameSpec.of(game).big_bet / 1000 / solve.GameSpec.of(game).big_blind
            assert big_blinds == pytest.approx(theirs, abs=1e-9), twin
            back = strategy_of(game, result.game, table)
            assert np.allclose(back.probs, result.strategy.probs, atol=1e-12)


def test_openspiel_policies_must_fit_the_game():
    game = load("nano-badugi")
    other = load("micro-badugi")
    from badacey_fast.errors import SolveError

    with pytest.raises(SolveError, match="an OpenSpiel policy is read on its game"):
        solve.exploitability(other, os_policy.UniformRandomPolicy(game))


def test_canonical_tensor_equal_for_isomorphic_states_only():
    game = pyspiel.load_game("python_badugi", {"ranks": 3, "suits": 3, "hand_size": 2, "draws": 1, "cap": 1,
                                               "deal": "set"})

    def dealt(h1, h0):
        s = game.new_initial_state()
        s.apply_action(game.set_action(h1))
        s.apply_action(game.set_action(h0))
        return s

    # Seat 0 holds A + 2 of one suit (Ac 2c) or of another (Ad 2d): isomorphic; As-less Ac 2d is not.
    a = canonical_information_state_tensor(dealt((1, 2), (0, 4)), 0)
    b = canonical_information_state_tensor(dealt((0, 2), (1, 5)), 0)
    c = canonical_information_state_tensor(dealt((1, 2), (0, 5)), 0)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    raw_a = dealt((1, 2), (0, 4)).information_state_tensor(0)
    raw_b = dealt((0, 2), (1, 5)).information_state_tensor(0)
    assert not np.array_equal(raw_a, raw_b)  # the raw tensors differ: the renaming is what makes them equal
