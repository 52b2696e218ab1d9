"""PettingZoo AEC environment (issue 12): pettingzoo.test.api_test for every preset and 2..6 seats."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from badacey_fast.envs.encoding import OBS_SIZE
from badacey_fast.envs.pettingzoo import env, raw_env
from badacey_fast.game.config import PRESETS

pytestmark = [pytest.mark.backend_independent, pytest.mark.filterwarnings("ignore::UserWarning")]


@pytest.mark.parametrize("seats", range(2, 7))
@pytest.mark.parametrize("game", sorted(PRESETS))
def test_api_test(game, seats):
    api_test(env(game, seats), num_cycles=30)


@pytest.mark.parametrize("seats", [2, 6])
def test_random_play_conserves_chips_and_rewards_are_winnings(seats):
    e = raw_env("badugi", seats, stacks=20)
    e.reset(seed=3)
    rnd = random.Random(3)
    for _ in range(50):
        totals = dict.fromkeys(e.possible_agents, 0.0)
        while e.agents:
            obs, r, term, trunc, info = e.last()
            assert obs["observation"].shape == (OBS_SIZE,) and obs["observation"].dtype == np.float32
            totals[e.agent_selection] += r
            if term or trunc:
                e.step(None)
                continue
            e.step(rnd.choice(np.flatnonzero(obs["action_mask"])))
        assert abs(sum(totals.values())) < 1e-9
        assert [totals[a] for a in e.possible_agents] == [w / 2 for w in e.game.winnings]
        e.reset()


def test_the_observation_shows_only_the_seats_own_cards():
    e = raw_env("badacey", 3)
    e.reset(seed=5)
    g = e.game
    for i, agent in enumerate(e.possible_agents):
        v = e.observe(agent)["observation"]
        assert set(np.flatnonzero(v[:52])) == set(g.hands[i])


def test_an_illegal_action_is_replaced_and_flagged():
    e = raw_env("badacey", 2)
    e.reset(seed=1)
    e.step(10)  # a draw index while betting: calls
    assert e.infos["player_0"] == {"illegal": True} and e.game.log[-1][1].kind == "call"


def test_small_game():
    # A small game (RULES.md §6): PettingZoo's API test, the action space 3 + 2**hand_size, the small deck.
    from badacey_fast.game import ConfigError, GameConfig

    config = GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=1)
    api_test(env(config, 2), num_cycles=30)
    e = raw_env(config, 2, stacks=10)
    assert e.action_space("player_0").n == 7
    e.reset(seed=2)
    for agent in e.possible_agents:
        assert set(np.flatnonzero(e.observe(agent)["observation"][:52])) <= set(config.deck)
    with pytest.raises(ConfigError, match="smallest R that works is ranks=4"):
        raw_env(config, 4)


def test_the_wrapped_env_keeps_the_order_checks_and_reads_the_env_directly(caplog):
    # env()'s wrapper forwards the attributes read every turn without PettingZoo's __getattr__ chain: the
    # checks before reset stay, and after it every attribute is the env's own object.
    e = env("badacey", 3)
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(e, name)
    with pytest.raises(AssertionError, match="reset"):
        e.last()
    e.reset(seed=4)
    raw = e.unwrapped
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
                 "_cumulative_rewards"):
        assert getattr(e, name) is getattr(raw, name)
    obs, *rest = e.last()
    obs_raw, *rest_raw = raw.last()
    assert (obs["observation"] == obs_raw["observation"]).all() and rest == rest_raw
    # The mask is a view of the shared read-only table: it cannot be written by mistake.
    with pytest.raises(ValueError, match="read-only"):
        obs["action_mask"][0] = 1
    steps = 0
    for agent in e.agent_iter():
        o, r, term, trunc, info = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(o["action_mask"])[0]))
        steps += 1
    assert steps > 3 and not e.agents
    e.step(0)  # after the hand: PettingZoo's warning, as before
    assert "step() called after all agents are terminated" in caplog.text
