"""OpenSpiel games (issue 12): random_sim_test with serialization for every preset and 2..6 players;
external-sampling MCCFR on heads-up Badugi with small stacks."""

from __future__ import annotations

import pyspiel
import pytest

from badacey_fast.envs.openspiel import GAME_NAMES, BadaceyObserver, BadaceyState
from badacey_fast.errors import IllegalActionError, InvalidCardError

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


@pytest.mark.exhaustive  # the 100 iterations: ~1 min of CPU
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


# ---------------------------------------------------------------------------------------------------------
# Small games (RULES.md §6, issue 26): the parameters, hands and draws dealt as one chance outcome each
# (deal="set"), and OpenSpiel's own exact algorithms on the smallest of them.

from collections import defaultdict
from math import comb

from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

from badacey_fast.envs.openspiel import BadaceyGame
from badacey_fast.game import Game, GameConfig
from badacey_fast.game.small import SMALL_GAMES, tree_size

SMALL_PARAMS = [
    {"ranks": 3, "suits": 3, "hand_size": 2, "draws": 1, "cap": 1, "stack": 2},
    {"ranks": 3, "suits": 3, "hand_size": 2, "draws": 3, "cap": 1, "stack": 20},  # reshuffles
    {"ranks": 4, "suits": 2, "hand_size": 1, "draws": 2, "cap": 0, "stack": 6, "players": 3},
    {"ranks": 5, "draws": 1, "cap": 2, "stack": 20},
]


@pytest.mark.parametrize("deal", ("card", "set"))
@pytest.mark.parametrize("params", SMALL_PARAMS, ids=lambda p: "-".join(f"{k}{v}" for k, v in p.items()))
def test_random_sim_test_small_badugi(params: dict[str, int], deal: str) -> None:
    game = pyspiel.load_game("python_badugi", {**params, "deal": deal})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("preset,ranks", [pytest.param("badacey", 6, marks=pytest.mark.exhaustive),
                                          pytest.param("badeucy", 7, marks=pytest.mark.exhaustive), ("a5", 5), ("27", 6)])
def test_random_sim_test_small_five_card_games(preset: str, ranks: int) -> None:
    for deal in ("card", "set"):
        game = pyspiel.load_game(GAME_NAMES[preset], {"ranks": ranks, "draws": 2, "stack": 12, "deal": deal})
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_set_deal_outcomes_are_hands_and_draws_with_exact_probabilities() -> None:
    game = pyspiel.load_game("python_badugi", {"ranks": 3, "suits": 3, "hand_size": 2, "draws": 1, "cap": 1,
                                               "stack": 4, "deal": "set"})
    assert isinstance(game, BadaceyGame)
    deck = GameConfig(game="badugi", ranks=3, suits=3, hand_size=2).deck
    state = game.new_initial_state()
    first = state.chance_outcomes()
    assert len(first) == comb(9, 2) and abs(sum(p for _, p in first) - 1) < 1e-12
    assert sorted(game.action_set(a) for a, _ in first) == sorted(
        (a, b) for i, a in enumerate(deck) for b in deck[i + 1:])
    state.apply_action(game.set_action((0, 5)))  # seat 1 (left of the button) first
    second = state.chance_outcomes()
    assert len(second) == comb(7, 2) and all(not {0, 5} & set(game.action_set(a)) for a, _ in second)
    assert state.hands_chosen == ((0, 5),) and state.game.hands == [[], []]
    state.apply_action(game.set_action((1, 10)))
    assert state.current_player() == 0 and state.game.hands == [[1, 10], [0, 5]]
    state.apply_action(1)  # the button calls
    state.apply_action(1)  # the big blind checks: the draw, seat 1 first
    state.apply_action(3 + 0b11)  # seat 1 throws both of its cards
    draws = state.chance_outcomes()
    assert len(draws) == comb(5, 2) and all(abs(p - 0.1) < 1e-12 for _, p in draws)
    assert all(not {0, 5, 1, 10} & set(game.action_set(a)) for a, _ in draws)
    with pytest.raises(Exception, match="not an outcome"):
        state.clone().apply_action(game.set_action((0, 5)))  # its own discards: not in the stub
    state.apply_action(game.set_action((2, 4)))
    assert sorted(state.game.hands[1]) == [2, 4] and state.hands_seen[1] == ((0, 5), (2, 4))
    with pytest.raises(InvalidCardError, match="is not in this game's deck"):
        game.set_action((3,))
    with pytest.raises(InvalidCardError, match="1 to 2 distinct cards"):
        game.set_action((0, 1, 2))


def test_set_deal_equals_card_deal_in_value() -> None:
    # No draws, 2-card hands of 8 cards: the per-seat hands of deal="set" against every card dealt one by one
    # (each hand in two orders): OpenSpiel's value of the uniform policy is the same.
    params = {"ranks": 2, "hand_size": 2, "draws": 0, "cap": 1, "stack": 4}
    values = []
    for deal in ("card", "set"):
        game = pyspiel.load_game("python_badugi", {**params, "deal": deal})
        values.append(expected_game_score.policy_value(game.new_initial_state(), [os_policy.UniformRandomPolicy(game)] * 2))
    assert values[0][0] != 0 and abs(values[0][0] + values[0][1]) < 1e-12
    assert all(abs(a - b) < 1e-12 for a, b in zip(*values))


def _walk(game: pyspiel.Game) -> tuple[int, int, int]:
    """Histories, terminal histories and information sets of a game, by visiting every node."""
    infos: set[tuple[int, str]] = set()
    count = [0, 0]
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        count[0] += 1
        if state.is_terminal():
            count[1] += 1
            continue
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            infos.add((state.current_player(), state.information_state_string()))
            actions = state.legal_actions()
        stack += [state.child(a) for a in actions]
    return count[0], count[1], len(infos)


@pytest.mark.parametrize("name", ["nano-badugi", pytest.param("micro-badugi", marks=pytest.mark.exhaustive)])
def test_tree_size_counts_what_a_walk_of_the_tree_finds(name: str) -> None:
    small = SMALL_GAMES[name]
    game = pyspiel.load_game(GAME_NAMES[small.config.game], small.openspiel_params())
    size = tree_size(small)
    assert _walk(game) == (size.histories, size.terminal, size.information_sets)
    assert size.deals == 9 * 8


def _uniform_value(g: Game, seat: int) -> float:
    """The value to ``seat`` (big blinds) of every seat playing uniformly at random, by the engine's chance
    mode dealt card by card: an exact expectation independent of the OpenSpiel wrapper."""
    if g.is_over:
        return g.winnings[seat] / g.config.big_blind
    if g.is_chance:
        return sum(p * _uniform_value(g.chance_child(c), seat) for c, p in g.chance_outcomes())
    if g.phase == "drawing":
        hand = g.hands[g.to_act]
        subsets = [tuple(c for j, c in enumerate(hand) if m >> j & 1) for m in range(1 << len(hand))]
        return sum(_uniform_value(g.copy().apply(pyspiel_draw(d)), seat) for d in subsets) / len(subsets)
    legal = g.legal_actions()
    return sum(_uniform_value(g.copy().apply(a), seat) for a in legal) / len(legal)


def pyspiel_draw(cards: tuple[int, ...]) -> "Action":
    from badacey_fast.game import Action

    return Action("draw", cards=cards)


def test_openspiel_exact_algorithms_run_on_the_nano_game() -> None:
    # OpenSpiel's own Python best response and CFR+ on nano Badugi (5,554 histories).  The uniform policy's
    # value agrees with an exact expectation through the engine card by card; CFR+ drives exploitability
    # well below the uniform policy's.
    small = SMALL_GAMES["nano-badugi"]
    game = pyspiel.load_game(GAME_NAMES[small.config.game], small.openspiel_params())
    uniform = os_policy.UniformRandomPolicy(game)
    value = expected_game_score.policy_value(game.new_initial_state(), [uniform] * 2)
    engine = Game(small.config, [small.stack] * 2, chance=True)
    assert abs(value[0] - _uniform_value(engine, 0)) < 1e-12
    start = exploitability.exploitability(game, uniform)
    assert start > 0.1
    solver = cfr.CFRPlusSolver(game)
    for _ in range(8):
        solver.evaluate_and_update_policy()
    end = exploitability.exploitability(game, solver.average_policy())
    assert 0 <= end < start / 5, (start, end)


def test_small_game_parameters_are_checked() -> None:
    with pytest.raises(Exception, match="ranks=3"):  # three seats of 2 cards with draws need 9 cards > 8
        pyspiel.load_game("python_badugi", {"ranks": 2, "hand_size": 2, "players": 3})
    with pytest.raises(Exception, match="deal must be one of 'card', 'set'"):
        pyspiel.load_game("python_badugi", {"deal": "hand"})
    with pytest.raises(Exception, match="hand_size 4 is not dealt in badacey"):
        pyspiel.load_game("python_badacey", {"hand_size": 4})
    card = pyspiel.load_game("python_badugi", {"ranks": 5})
    assert card.max_chance_outcomes() == 52 and card.new_initial_state().chance_outcomes()[-1][0] == 19
    with pytest.raises(IllegalActionError, match='deal="set"'):
        card.set_action((0,))


def test_the_solving_docs_examples_run() -> None:
    # docs/solving.md's examples (small games, an OpenSpiel exploitability) run as written.
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "docs" / "solving.md"
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 8 and result.failed == 0
