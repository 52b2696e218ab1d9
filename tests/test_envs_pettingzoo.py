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


def _trajectory_digest(game, seats, hands, seed):
    # Every turn of `hands` hands under agent_iter() with random indices (illegal ones too): the agent, its
    # observation's bytes, its mask, reward, flags and info, hashed in order.
    import hashlib

    h = hashlib.sha256()
    e = env(game, seats)
    e.reset(seed=seed)
    rnd = random.Random(seed)
    for _ in range(hands):
        for agent in e.agent_iter():
            obs, r, term, trunc, info = e.last()
            h.update(agent.encode())
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            h.update(repr((r, term, trunc, sorted(info.items()))).encode())
            e.step(None if term or trunc else rnd.randrange(e.action_space(agent).n))
        e.reset()
    return h.hexdigest()


# Recorded with the environment as it was before its turn loop was made leaner (issue 24): the same seeds
# must give byte-identical observations, masks, rewards and infos.
RECORDED = [
    (("badacey", 2, 40, 7), "8459f71c16f88246f9caf2e28d6949fb878a90355f675751e8c342b977f475a9"),
    (("badacey", 6, 40, 8), "518cd01ca5c74c6524056785495a24a238efd01e153c6424a036731da5ec54dc"),
    (("badugi", 3, 40, 9), "bcf4910382af0a81d9dfc6e6bdc5c6ad0e6005045e96bc934bf7a8e1246e37c1"),
    (("badeucy", 5, 40, 10), "98168174cd412382b451c90e49aa62cf296779a7ab0c717a2ab1ced97b376d00"),
]


@pytest.mark.parametrize("args, digest", RECORDED)
def test_a_recorded_trajectory_is_unchanged(args, digest):
    assert _trajectory_digest(*args) == digest


@pytest.mark.parametrize("seats", [2, 3, 6])
@pytest.mark.parametrize("game", sorted(PRESETS))
def test_each_observation_is_the_encoding_functions_and_stays_as_handed_out(game, seats):
    # The env builds observations its own way (inlined, the betting choices kept between last() and
    # step()): at every turn they must equal encoding.encode and the mask table's row of mask_code, for the
    # agent to act and any other, and none handed out may change afterwards.
    from badacey_fast.envs.encoding import encode, mask_code, mask_table

    e = env(game, seats)
    e.reset(seed=seats)
    masks = mask_table(e.unwrapped.hand_size)
    rnd = random.Random(seats)
    kept = []
    for _ in range(15):
        for agent in e.agent_iter():
            obs, r, term, trunc, info = e.last()
            g, seat = e.unwrapped.game, e.possible_agents.index(agent)
            assert obs["observation"].tobytes() == encode(g, seat).tobytes()
            want = masks[mask_code(g)] if g.to_act == seat and not term else masks[0]
            assert (obs["action_mask"] == want).all()
            other = e.possible_agents[(seat + 1) % seats]
            assert e.observe(other)["observation"].tobytes() == encode(g, seat=(seat + 1) % seats).tobytes()
            kept.append((obs["observation"], obs["observation"].copy()))
            e.step(None if term or trunc else rnd.randrange(e.action_space(agent).n))
        e.reset()
    assert all((held == copy).all() for held, copy in kept)
    assert len({id(held) for held, _ in kept}) == len(kept)  # a vector of its own at every turn


def test_the_wrapped_env_iterates_with_pettingzoos_checks():
    from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterator

    e = env("badugi", 3)
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.agent_iter()
    e.reset(seed=2)
    turns = iter(e.agent_iter(max_iter=3))
    assert isinstance(turns, AECOrderEnforcingIterator)
    assert next(turns) == e.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(turns)  # no step() since the last turn (a turn counted, as PettingZoo's iterator counts it)
    e.step(1)
    next(turns)
    e.step(1)
    with pytest.raises(StopIteration):  # max_iter
        next(turns)


def test_the_wrapped_env_pickles_mid_hand_and_plays_on_alike():
    import pickle

    e = env("badacey", 4)
    e.reset(seed=6)
    e.step(1)
    twin = pickle.loads(pickle.dumps(e))
    rnd_a, rnd_b = random.Random(1), random.Random(1)
    for one, rnd in ((e, rnd_a), (twin, rnd_b)):
        seen = []
        for agent in one.agent_iter():
            obs, r, term, trunc, _ = one.last()
            seen.append((agent, obs["observation"].tobytes(), r))
            one.step(None if term or trunc else int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
        one.seen = seen
    assert e.seen == twin.seen and len(e.seen) > 4
    assert twin.step.__self__.env is twin.unwrapped  # the copy steps its own env
