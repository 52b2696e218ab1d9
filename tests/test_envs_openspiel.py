"""OpenSpiel games (issue 12): random_sim_test with serialization for every preset and 2..6 players;
external-sampling MCCFR on heads-up Badugi with small stacks."""

from __future__ import annotations

import pyspiel
import pytest

from badacey_fast.envs.openspiel import GAME_NAMES, BadaceyObserver, BadaceyState

pytestmark = pytest.mark.backend_independent


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("preset", sorted(GAME_NAMES))
def test_random_sim_test(preset: str, players: int) -> None:
    game = pyspiel.load_game(GAME_NAMES[preset], {"players": players, "stack": 20})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_chance_nodes_are_every_card() -> None:
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


#: External-sampling MCCFR iterations: the issue's 100 (README "Training bots" gives the cost).
MCCFR_ITERATIONS = 100


def _values_table(serialized: str) -> dict[str, tuple[list[int], list[float]]]:
    """The solver's table from its serialization: information state -> (legal actions, cumulative regrets).

    OpenSpiel writes ``[SolverValuesTable]`` then ``key<~>values<~>key<~>values...``; the values are
    ``legal actions;cumulative regrets;cumulative policy;current policy`` (hex floats)."""
    body = serialized.split("[SolverValuesTable]\n", 1)[1].rstrip("\n")
    items = body.split("<~>")
    assert len(items) % 2 == 0, items[-1][:200]
    table: dict[str, tuple[list[int], list[float]]] = {}
    for key, values in zip(items[0::2], items[1::2]):
        legal, regrets = values.split(";")[:2]
        table[key] = ([int(a) for a in legal.split(",")], [float.fromhex(r) for r in regrets.split(",")])
    return table


def test_external_sampling_mccfr_average_policy_sums_to_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Heads-up Badugi with stacks of one big blind (2 chips): the button folds or calls all-in, then both
    # draw three times (16 discard sets each, every card a chance node) -- the real rules, the smallest
    # betting tree.  OpenSpiel's external-sampling MCCFR (its C++ solver: the Python one walks the same
    # tree at about twice the cost a node) runs the 100 iterations.  Every information state the
    # game showed the solver is recorded with its legal actions, and each one is checked.
    game = pyspiel.load_game("python_badugi", {"players": 2, "stack": 2})
    shown: dict[str, list[int]] = {}  # information state -> the legal actions where the solver met it
    string_from = BadaceyObserver.string_from

    def recording(self: BadaceyObserver, state: BadaceyState, player: int) -> str:
        key = string_from(self, state, player)
        if self.perfect and key not in shown and state.current_player() == player:
            shown[key] = state.legal_actions()
        return key

    monkeypatch.setattr(BadaceyObserver, "string_from", recording)
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=12)
    for _ in range(MCCFR_ITERATIONS):
        solver.run_iteration()
    table = _values_table(solver.__getstate__())  # its pickle state: OpenSpiel's Serialize()
    # The solver's table holds exactly the information states it asked for: every one it visited.
    assert set(table) == set(shown) and len(shown) > 50_000  # 102,842 with this seed
    policy = solver.average_policy()
    for key, legal in shown.items():
        probs = dict(policy.get_state_policy(key))
        assert table[key][0] == legal and sorted(probs) == legal, key
        assert abs(sum(probs.values()) - 1) < 1e-9 and min(probs.values()) >= 0, key
    # The solver updated regrets (actions of unequal value) at many information states.
    assert sum(max(regrets) > min(regrets) for _, regrets in table.values()) > 10_000  # 35,055
