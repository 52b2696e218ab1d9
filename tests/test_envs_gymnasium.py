"""Gymnasium environments (issue 12): check_env for every preset and 2..6 seats, the vectorised form."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from gymnasium.utils.env_checker import check_env

from badacey_fast.envs.encoding import OBS_SIZE
from badacey_fast.envs.gymnasium import ENV_IDS, BadaceyEnv, BadaceyVectorEnv
from badacey_fast.errors import ShapeError
from badacey_fast.game.bots import RuleBot

pytestmark = [pytest.mark.backend_independent, pytest.mark.filterwarnings("ignore::UserWarning")]


@pytest.mark.parametrize("seats", range(2, 7))
@pytest.mark.parametrize("preset", sorted(ENV_IDS))
def test_check_env(preset, seats):
    env = gymnasium.make(ENV_IDS[preset], seats=seats)
    check_env(env.unwrapped, skip_render_check=True)


def test_play_against_callables_and_rewards_are_winnings():
    env = BadaceyEnv("badugi", seats=3, seat=1, stacks=20, opponents=[RuleBot(seed=1), RuleBot(seed=2)])
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(100):
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, reward, done, truncated, info = env.step(action)
            assert obs.shape == (OBS_SIZE,) and not truncated
        assert reward == env.game.winnings[1] / 2
        obs, info = env.reset()


def test_vector_env_steps_many_tables():
    v = gymnasium.make_vec("badacey_fast/BadaceyVector-v0", num_envs=5, vectorization_mode="vector_entry_point")
    assert isinstance(v, BadaceyVectorEnv)
    obs, info = v.reset(seed=2)
    assert obs.shape == (5, OBS_SIZE) and info["action_mask"].shape == (5, 35)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(200):
        a = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1)
        obs, r, term, trunc, info = v.step(a)
        ended += term.sum()
        assert obs.dtype == np.float32 and (r[~term] == 0).all()
        if term.any():
            assert info["final_obs"].shape == obs.shape
    assert ended > 20


@pytest.mark.parametrize("preset,seats,seat", [("badacey", 2, 0), ("badugi", 3, 1), ("27", 6, 5)])
def test_vector_env_steps_each_table_as_the_single_env_does(preset, seats, seat):
    # The vectorised step's Python path (each table's step, one kernel call for the observations) against
    # BadaceyEnv seeded as the vector env seeds its tables, any action index (illegal ones included).  The
    # C path deals from its own streams: tests/test_engine_c.py replays it in Python instead.
    import random

    n = 4
    v = BadaceyVectorEnv(n, preset, seats=seats, seat=seat, stacks=30, engine="python")
    assert v.engine == "python"
    obs, info = v.reset(seed=9)
    root = random.Random(9)
    singles = [BadaceyEnv(preset, seats=seats, seat=seat, stacks=30) for _ in range(n)]
    firsts = [e.reset(seed=root.getrandbits(63)) for e in singles]
    assert (obs == np.stack([o for o, _ in firsts])).all()
    assert (info["action_mask"] == np.stack([i["action_mask"] for _, i in firsts])).all()
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(300):
        acts = rng.integers(0, v.single_action_space.n, n)
        obs, r, term, _, info = v.step(acts)
        for k, e in enumerate(singles):
            o, rk, done, _, ik = e.step(acts[k])
            assert info["illegal"][k] == ik.get("illegal", False)
            if done:
                assert (info["final_obs"][k] == o).all()
                o, ik = e.reset()
                rk += ik["skipped"]  # the vector env adds a skipped hand's chips to the finished hand's
            assert term[k] == done and r[k] == pytest.approx(rk)
            assert (obs[k] == o).all() and (info["action_mask"][k] == ik["action_mask"]).all()
        ended += term.sum()
    assert ended > 30
    with pytest.raises(ShapeError, match="3 actions for 4 tables"):
        v.step([0, 1, 2])
    before = [t.game.log[:] for t in v.tables]
    with pytest.raises(ValueError, match=f"action index 99 of table 2 is not in 0..{v.single_action_space.n - 1}"):
        v.step([0, 1, 99, 2])  # refused before any table moves
    assert [t.game.log for t in v.tables] == before


BAD_RULES = [  # (arguments, the error the environments raise, its message)
    (dict(seats=7), ValueError, "seats must be 2 to 6 and seat one of them, not seats=7 seat=0"),
    (dict(seats=3, seat=3), ValueError, "seats must be 2 to 6 and seat one of them, not seats=3 seat=3"),
    (dict(stacks=0), ValueError, "every seat needs chips to be dealt in: stack 0"),
    (dict(stacks=-5), ValueError, "every seat needs chips to be dealt in: stack -5"),
    (dict(stacks=2.5), TypeError, "stacks must be ints, not float"),
    (dict(game="razz"), ValueError, "unknown game 'razz'"),
]


@pytest.mark.parametrize("engine", ["python", "auto", "c"])
@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_RULES)
def test_both_environments_refuse_bad_rules_alike(kwargs, error, message, engine):
    from badacey_fast import kernel

    if engine == "c" and kernel.engine_tables() is None:
        pytest.skip("the C kernel is not active")
    with pytest.raises(error, match=message):
        BadaceyEnv(**kwargs)
    with pytest.raises(error, match=message):
        BadaceyVectorEnv(2, engine=engine, **kwargs)


def test_the_c_vector_env_builds_no_python_table(monkeypatch):
    # The rules are checked once, without a throwaway table (its Game, random source and bots).
    from badacey_fast import kernel
    from badacey_fast.envs import gymnasium as module

    if kernel.engine_tables() is None:
        pytest.skip("the C kernel is not active")

    def no_table(*args, **kwargs):
        raise AssertionError("a Python table was built for the C engine")

    monkeypatch.setattr(module, "_Table", no_table)
    v = BadaceyVectorEnv(3, "badugi", seats=4, seat=2, stacks=40, engine="c")
    assert v.engine == "c" and v.tables == [] and v._seats == [2, 2, 2]
    obs, info = v.reset(seed=3)
    assert obs.shape == (3, OBS_SIZE) and info["action_mask"].shape == (3, 19)
    assert v._c is not None and v._c.config.stacks[3] == 40 and v._c.config.learner == 2


@pytest.mark.parametrize("engine", ["python", "c"])
def test_vector_env_actions_are_checked_alike_on_every_path(engine):
    # Plain-int lists take a fast path (and, on Python, no numpy round trip); every other form the full
    # check: each refusal worded the same, before any table moves, whatever the form.
    from badacey_fast import kernel

    if engine == "c" and kernel.engine_tables() is None:
        pytest.skip("the C kernel is not active")
    v = BadaceyVectorEnv(3, "badacey", engine=engine)
    v.reset(seed=5)
    na = v.single_action_space.n
    refused = [
        ([1, True, 1], TypeError, r"actions must be ints, not bool \(True\)"),
        ([1, np.True_, 1], TypeError, r"actions must be ints, not bool \("),
        ([1, 1.0, 1], TypeError, r"actions must be ints, not float \(1.0\)"),
        ((1, "1", 1), TypeError, r"actions must be ints, not str \('1'\)"),
        ([[1], [1], [1]], TypeError, r"actions must be ints, not list"),
        ([1, 1], ValueError, "2 actions for 3 tables"),
        ([1, 1, 1, 1], ValueError, "4 actions for 3 tables"),
        ([], ValueError, "0 actions for 3 tables"),
        ([1, na, 1], ValueError, f"action index {na} of table 1 is not in 0..{na - 1}"),
        ([1, 1, -1], ValueError, f"action index -1 of table 2 is not in 0..{na - 1}"),
        ((1, np.int8(-3), 1), ValueError, f"action index -3 of table 1 is not in 0..{na - 1}"),
        (np.array([True, False, True]), TypeError, "integers, not an array of bool"),
        (np.array([1.0, 1.0, 1.0]), TypeError, "integers, not an array of float64"),
        (np.array([1, 2, 3], object), TypeError, "integers, not an array of object"),
    ]
    if engine == "python":
        before = [t.game.log[:] for t in v.tables]
    for actions, error, message in refused:
        with pytest.raises(error, match=message):
            v.step(actions)
    with pytest.raises(OverflowError):
        v.step([1, 1 << 70, 1])
    if engine == "python":
        assert [t.game.log for t in v.tables] == before
    # Every accepted form of the same actions plays the same step.
    forms = [[0, 1, 2], (0, 1, 2), [np.int64(0), 1, np.uint8(2)], np.array([0, 1, 2], np.uint8),
             np.array([0, 0, 1, 1, 2, 2])[::2]]  # any integer dtype, any strides
    outs = []
    for form in forms:
        w = BadaceyVectorEnv(3, "badacey", engine=engine)
        w.reset(seed=5)
        outs.append(w.step(form))
    for out in outs[1:]:
        for got, want in zip(out[:4], outs[0][:4]):
            np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(out[4]["action_mask"], outs[0][4]["action_mask"])


# Small games (RULES.md §6): the same observation layout, an action space of 3 + 2**hand_size, the cards
# only of the small deck, the streets and draws only as many as the game has.
SMALL_CONFIGS = [
    ("tiny-badugi", {"game": "badugi", "ranks": 3, "suits": 3, "hand_size": 2, "draws": 1, "cap": 1}),
    ("badacey-6-2", {"game": "badacey", "ranks": 6, "draws": 2}),
]


@pytest.mark.parametrize("name,kwargs", SMALL_CONFIGS)
def test_small_games_in_the_single_env(name, kwargs):
    from badacey_fast.game import GameConfig

    config = GameConfig(**kwargs)
    env = BadaceyEnv(config, seats=2, stacks=20)
    check_env(env, skip_render_check=True)
    assert env.action_space.n == 3 + 2 ** config.hand_size
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    deck = set(config.deck)
    for _ in range(200):
        done = False
        while not done:
            cards = set(np.flatnonzero(obs[:52]).tolist())
            assert cards <= deck and len(cards) == config.hand_size
            slots = obs[52:137].reshape(5, 17)
            assert (slots[config.hand_size:] == 0).all() and (slots[:config.hand_size].sum(1) == 2).all()
            assert obs[150:154].argmax() <= config.draws
            discards = obs[163:223].reshape(6, 10)[:, 6:9]  # draws 1..3 of every seat: none past the last
            assert (discards[:, config.draws:] == 0).all()
            obs, reward, done, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        assert reward == env.game.winnings[0] / 2 and len(env.game.discard_counts) <= config.draws
        obs, info = env.reset()


@pytest.mark.parametrize("engine", ["c", "python"])
def test_small_games_in_the_vector_env(engine):
    from badacey_fast.game import ConfigError, GameConfig

    config = GameConfig(game="badugi", ranks=5, suits=3, hand_size=3, draws=2)
    v = BadaceyVectorEnv(6, config, seats=3, stacks=20, engine=engine)
    assert v.engine == engine and v.single_action_space.n == 11
    obs, info = v.reset(seed=5)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(300):
        cards = obs[:, :52]
        assert (cards[:, [c for c in range(52) if c not in config.deck]] == 0).all()
        assert (cards.sum(1) == 3).all()
        obs, r, term, _, info = v.step((rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1))
        ended += term.sum()
    assert ended > 50
    with pytest.raises(ConfigError, match="ranks=6"):  # four seats of 3 cards with draws need 16 cards > 15
        BadaceyVectorEnv(2, config, seats=4, engine=engine)


@pytest.mark.parametrize("engine", ["c", "python"])
def test_action_masks_is_the_mask_in_info(engine):
    # sb3-contrib's MaskablePPO asks env.action_masks() before each step: it must be the mask the last
    # reset or step gave in info, as booleans, on every path.
    single = BadaceyEnv("badugi", seats=3, seat=1)
    vec = BadaceyVectorEnv(6, "badeucy", seats=3, seat=2, stacks=20, engine=engine)
    for env in (single, vec):
        with pytest.raises(RuntimeError, match="reset"):
            env.action_masks()
    rng = np.random.default_rng(2)
    _, info = single.reset(seed=3)
    _, vinfo = vec.reset(seed=3)
    seen = set()
    for _ in range(300):
        for got, want in ((single.action_masks(), info["action_mask"]), (vec.action_masks(), vinfo["action_mask"])):
            assert got.dtype == np.bool_ and got.shape == want.shape and (got == want.astype(bool)).all()
        seen.add(tuple(single.action_masks()[:3]))
        legal = np.flatnonzero(single.action_masks())
        _, _, term, _, info = single.step(int(rng.choice(legal)))
        if term:
            _, info = single.reset()
        m = vec.action_masks()
        _, _, _, _, vinfo = vec.step(np.array([rng.choice(np.flatnonzero(row)) for row in m]))
    assert len(seen) >= 3  # fold/check/call/bet sets of several kinds were asked about
