"""OpenSpiel games (issue 12): random_sim_test with serialization for every preset and 2..6 players;
external-sampling MCCFR on heads-up Badugi with small stacks."""

from __future__ import annotations

import numpy as np
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


#: External-sampling MCCFR iterations run here; the issue asks for 100 (README "Training bots" gives the
#: measured cost: about 1-2 s per iteration on one loaded core, so 100 do not fit this suite's budget).
MCCFR_ITERATIONS = 20


def test_external_sampling_mccfr_average_policy_sums_to_one():
    # Heads-up Badugi with stacks of one big blind (2 chips): the button folds or calls all-in, then
    # both draw three times (16 discard sets each, every card a chance node) -- the real rules, the
    # smallest betting tree.  Every information state the solver visited is checked.
    game = pyspiel.load_game("python_badugi", {"players": 2, "stack": 2})
    np.random.seed(12)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    visited = {}  # information state -> a state where the solver met it
    update = solver._update_regrets

    def recording(state, player):
        if not state.is_terminal() and not state.is_chance_node():
            visited.setdefault(state.information_state_string(state.current_player()), state)
        return update(state, player)

    solver._update_regrets = recording
    for _ in range(MCCFR_ITERATIONS):
        solver.iteration()
    policy = solver.average_policy()
    assert set(visited) == set(solver._infostates) and len(visited) > 1000
    for key, state in visited.items():
        probs = policy.action_probabilities(state)
        assert sorted(probs) == state.legal_actions(), key
        assert abs(sum(probs.values()) - 1) < 1e-9 and min(probs.values()) >= 0, key
    # The solver updated regrets (actions of unequal value) at many information states.
    assert sum(np.ptp(regrets) > 0 for regrets, _ in solver._infostates.values()) > 100
