"""OpenSpiel games (issue 12): random_sim_test with serialization for every preset and 2..6 players;
external-sampling MCCFR on heads-up Badugi with small stacks."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python.algorithms import external_sampling_mccfr

from badacey_fast.envs.openspiel import GAME_NAMES

pytestmark = pytest.mark.backend_independent


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("preset", sorted(GAME_NAMES))
def test_random_sim_test(preset, players):
    game = pyspiel.load_game(GAME_NAMES[preset], {"players": players, "stack": 20})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_chance_nodes_are_every_card():
    game = pyspiel.load_game("python_badugi", {"players": 2, "stack": 8})
    state = game.new_initial_state()
    dealt = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - dealt and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(outcomes[0][0])
        dealt += 1
    assert dealt == 8 and state.current_player() == 0
    assert state.information_state_string(0) != state.information_state_string(1)


def test_external_sampling_mccfr_average_policy_sums_to_one():
    # One iteration only: a Python game this deep (three draws of 16 discard sets each, every card a
    # chance node) costs ~35 s per iteration on one core; the 100 iterations are reported, not run.
    game = pyspiel.load_game("python_badugi", {"players": 2, "stack": 8})
    solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    solver.iteration()
    policy = solver.average_policy()
    infostates = solver._infostates
    assert infostates
    checked = 0
    for key, (regrets, avg) in list(infostates.items())[:2000]:
        total = avg.sum()
        probs = avg / total if total > 0 else [1 / len(avg)] * len(avg)
        assert abs(sum(probs) - 1) < 1e-6
        checked += 1
    assert checked and policy is not None
