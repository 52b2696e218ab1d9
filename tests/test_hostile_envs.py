"""The learning environments (badacey_fast.envs) at their documented limits: chips an observation cannot
hold are a ``ConfigError`` when the environment is made, on every engine and environment (one rule,
``envs.encoding.check_chips``: each blind, ante and bet, and the stacks' total, at most 2**53); chips up to
that limit play; ``engine="auto"`` falls back to Python beyond the C loop's 2**40 and ``"c"`` says why it
cannot; illegal and out-of-range actions are handled as documented.  Every test runs on both twins (on the
Python twin ``auto`` is Python); hypothesis drives the fuzz (``HYPOTHESIS_PROFILE=soak`` for more)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from badacey_fast import kernel
from badacey_fast.envs.encoding import CHIPS_MAX, OBS_SIZE, n_actions
from badacey_fast.envs.gymnasium import BadaceyEnv, BadaceyVectorEnv
from badacey_fast.envs.openspiel import BadaceyGame
from badacey_fast.envs.pettingzoo import env as aec_env
from badacey_fast.errors import IllegalActionError
from badacey_fast.game import ConfigError, GameConfig
from badacey_fast.rules.games import PRESETS

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # gymnasium's and pettingzoo's own warnings

BASE = settings.default.max_examples  # 100 in the "ci" profile, 20,000 in "soak"
C_MAX = 1 << 40  # the C hand loop's chips (csrc/engine.c bd_cfg_ok)


def budget(percent: int) -> settings:
    return settings(max_examples=max(5, BASE * percent // 100), suppress_health_check=[HealthCheck.too_slow])


def _vector(engine: str) -> Any:
    return lambda cfg, seats, stacks: BadaceyVectorEnv(2, cfg, seats=seats, stacks=stacks, engine=engine)


MAKERS = {
    "vector auto": _vector("auto"),
    "vector c": _vector("c"),
    "vector python": _vector("python"),
    "single": lambda cfg, seats, stacks: BadaceyEnv(cfg, seats=seats, stacks=stacks),
    "pettingzoo": lambda cfg, seats, stacks: aec_env(cfg, seats=seats, stacks=stacks),
}

HUGE = {  # (config, stacks per seat, the value the message names)
    "stacks 2**63": (GameConfig(), 2**63, str(2 * 2**63)),
    "stacks 2**62": (GameConfig(), 2**62, str(2 * 2**62)),
    "stacks 2**100": (GameConfig(), 2**100, str(2 * 2**100)),
    "blinds 2**57, 100 big blinds": (GameConfig(small_blind=2**56, big_blind=2**57, small_bet=2**57, big_bet=2**58),
                                     None, str(2**56)),
    "stacks one chip past 2**53": (GameConfig(), CHIPS_MAX // 2 + 1, str(CHIPS_MAX + 2)),
    "a big bet past 2**53": (GameConfig(big_bet=CHIPS_MAX + 1), 100, str(CHIPS_MAX + 1)),
    "an ante past 2**53": (GameConfig("badugi", small_blind=0, big_blind=0, ante=CHIPS_MAX + 1), 100,
                           str(CHIPS_MAX + 1)),
}


@pytest.mark.parametrize("case", sorted(HUGE))
@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_chips_an_observation_cannot_hold_are_refused_when_the_env_is_made(maker, case):
    # Before: OverflowError from kernel/_c.py (auto, c), or from observe_many / a refused observation at
    # the first reset (python, single, pettingzoo).
    config, stacks, named = HUGE[case]
    with pytest.raises(ConfigError, match=r"2\*\*53") as info:
        MAKERS[maker](config, 2, stacks)
    assert named in str(info.value)


def test_openspiel_refuses_what_its_int_parameters_cannot_hold():
    # OpenSpiel's parameters are C++ ints (stacks far below 2**53 at six seats): a bigger one raised
    # pybind11's bare "Unable to cast Python instance" RuntimeError.
    for params, named in (({"stack": 2**63}, "stack 9223372036854775808"), ({"stack": 2**31}, "stack 2147483648"),
                          ({"button": 2**40}, "button 1099511627776")):
        with pytest.raises(ConfigError, match="the largest int an OpenSpiel game parameter holds") as info:
            BadaceyGame({"players": 2, **params})
        assert named in str(info.value)
    game = BadaceyGame({"players": 6, "stack": 2**31 - 1})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_actions() and np.isfinite(state.observation_tensor(state.current_player())).all()


def _play_vector(v: BadaceyVectorEnv, steps: int, rng: np.random.Generator, total: int) -> int:
    obs, info = v.reset(seed=int(rng.integers(1 << 30)))
    hands = 0
    for _ in range(steps):
        obs, reward, term, trunc, info = v.step(rng.integers(0, v.single_action_space.n, v.num_envs))
        assert obs.shape == (v.num_envs, OBS_SIZE) and np.isfinite(obs).all() and (obs >= -1).all()
        assert np.isfinite(reward).all() and not trunc.any()
        assert np.abs(reward).max() <= total  # big blinds won or lost: never more than the chips at the table
        hands += int(term.sum())
    return hands


@pytest.mark.parametrize("seats", range(2, 7))
@pytest.mark.parametrize("preset", PRESETS)
def test_chips_at_the_limit_play_on_every_engine(preset, seats, backend):
    stacks = CHIPS_MAX // seats  # the most a table holds
    rng = np.random.default_rng(seats)
    for engine in ("auto", "python"):
        v = BadaceyVectorEnv(2, preset, seats=seats, stacks=stacks, engine=engine)
        assert v.engine == "python"  # beyond the C loop's 2**40: auto plays in Python, as documented
        assert _play_vector(v, 60, rng, stacks * seats) > 0
    with pytest.raises(ValueError, match="engine='c' is unavailable"):
        BadaceyVectorEnv(2, preset, seats=seats, stacks=stacks, engine="c")
    c_ok = BadaceyVectorEnv(2, preset, seats=seats, stacks=C_MAX)  # the C loop's largest stacks
    assert c_ok.engine == ("c" if backend == "c" else "python")
    assert _play_vector(c_ok, 60, rng, C_MAX * seats) > 0
    e = aec_env(preset, seats=seats, stacks=stacks)
    e.reset(seed=seats)
    assert _play_aec(e, rng, 300) > 0


def _play_aec(e: Any, rng: np.random.Generator, turns: int) -> int:
    """Random indices (legal or not: an illegal one is replaced by the nearest legal one) for ``turns``
    turns; returns the hands finished, each checked zero-sum."""
    n = e.action_space(e.possible_agents[0]).n
    done_hands, finals = 0, {}
    for agent in e.agent_iter(max_iter=turns):
        obs, reward, terminated, truncated, info = e.last()
        assert np.isfinite(obs["observation"]).all() and math.isfinite(reward) and not truncated
        if terminated:
            finals[agent] = reward
            e.step(None)
            if not e.agents:
                assert len(finals) == len(e.possible_agents)
                assert abs(sum(finals.values())) <= 1e-9 * max(1.0, *map(abs, finals.values()))  # zero-sum
                done_hands, finals = done_hands + 1, {}
                e.reset()
            continue
        e.step(int(rng.integers(0, n)))
    return done_hands


@pytest.mark.backend_independent
def test_the_c_loop_refuses_ints_beyond_int64_as_it_refuses_any_value_out_of_range():
    from badacey_fast._kernel import lib
    from badacey_fast.kernel._c import EngineTables

    def tables(stacks: list[int], cap: int | None = 4, bb: int = 2) -> EngineTables:
        return EngineTables(2, 0, 0, stacks, 1, bb, 0, bb, 2 * bb, cap, True, False, True, False, (13, 4, 5, 3))

    for stacks, bb in (([2**64, 100], 2), ([2**63, 100], 2), ([100, 100], 2**63), ([-(2**63) - 1, 100], 2),
                       ([100] * 7, 2)):
        with pytest.raises(ValueError, match="refuses these rules"):  # was OverflowError / IndexError
            tables(stacks, bb=bb)
    t = tables([100, 100], cap=2**70)  # a cap no count of bets can reach is no cap: made, and it plays
    assert t.config.cap == lib.BD_ENG_NO_CAP
    t.seed([1, 2])
    assert t.reset(np.empty((2, OBS_SIZE), np.float32), np.empty(2, np.int64)) == -1


# ---------------------------------------------------------------------------------------------------------
# Fuzz: configs at and past the limits, every preset and seat count, each environment, illegal actions.

SMALL = st.integers(1, 50)
BIG = st.sampled_from([C_MAX - 1, C_MAX, C_MAX + 1, CHIPS_MAX // 6, CHIPS_MAX // 2, CHIPS_MAX - 1, CHIPS_MAX,
                       CHIPS_MAX + 1, 2**62, 2**63 - 1, 2**63, 2**64, 2**80])
FIELDS = ("stacks", "blinds", "ante", "bets", None)  # which chips are at a boundary (None: none)


@st.composite
def tables(draw: Any) -> tuple[GameConfig, int, int | None]:
    """(config, seats, stacks per seat or None for 100 big blinds): ordinary chips but in one field."""
    big = draw(st.sampled_from(FIELDS))
    chips = lambda field: draw(BIG if field == big else SMALL)  # noqa: E731
    preset = draw(st.sampled_from(PRESETS))
    small_bet = chips("bets")
    kw: dict[str, Any] = dict(small_bet=small_bet, big_bet=draw(st.sampled_from([small_bet, 2 * small_bet])),
                              cap=draw(st.sampled_from([None, 1, 4, 2**40, 2**70])),
                              heads_up_uncapped=draw(st.booleans()), burn=draw(st.booleans()))
    if big == "ante" or draw(st.booleans()):
        kw.update(small_blind=0, big_blind=0, ante=chips("ante"))
    else:
        bb = chips("blinds")
        kw.update(small_blind=draw(st.sampled_from([0, max(1, bb // 2), bb])), big_blind=bb,
                  ante=draw(st.sampled_from([0, 0, 1, bb])))
    try:
        config = GameConfig(preset, **kw)
    except ConfigError:  # GameConfig's own rules: not what these tests are about
        assume(False)
        raise
    stacks = chips("stacks") if big == "stacks" or draw(st.booleans()) else None
    return config, draw(st.integers(2, 6)), stacks


def _refused(cfg: GameConfig, seats: int, stacks: int | None) -> bool:
    chips = [cfg.small_blind, cfg.big_blind, cfg.ante, cfg.small_bet, cfg.big_bet]
    per_seat = 100 * (cfg.big_blind or cfg.small_bet) if stacks is None else stacks
    return max(chips) > CHIPS_MAX or per_seat * seats > CHIPS_MAX


@budget(100)
@given(tables(), st.sampled_from(sorted(MAKERS)), st.integers(0, 2**32))
def test_fuzz_configs_and_actions_at_the_limits(table, maker, seed):
    cfg, seats, stacks = table
    rng = np.random.default_rng(seed)
    event(f"{maker}: {'refused' if _refused(cfg, seats, stacks) else 'made'}")
    if _refused(cfg, seats, stacks):
        with pytest.raises(ConfigError, match=r"2\*\*53"):
            MAKERS[maker](cfg, seats, stacks)
        return
    try:
        made = MAKERS[maker](cfg, seats, stacks)
    except ValueError as e:  # only "c" may refuse, and says why: beyond its 2**40, or no C kernel
        assert maker == "vector c" and "engine='c' is unavailable" in str(e), e
        return
    per_seat = 100 * (cfg.big_blind or cfg.small_bet) if stacks is None else stacks
    if maker.startswith("vector"):
        in_c = kernel.engine_tables() is not None and max(per_seat, cfg.big_blind, cfg.ante, cfg.small_bet,
                                                            cfg.big_bet) <= C_MAX
        assert made.engine == ("python" if maker == "vector python" or not in_c else "c")
        _play_vector(made, 25, rng, per_seat * seats)
        with pytest.raises(IllegalActionError):  # past the space: refused before any table moves
            made.step([made.single_action_space.n] * made.num_envs)
        made.step([1] * made.num_envs)  # and it goes on
    elif maker == "single":
        obs, info = made.reset(seed=seed)
        na = n_actions(cfg.hand_size)
        for _ in range(25):
            with pytest.raises(IllegalActionError):
                made.step(int(rng.choice([-1, na, na + 7])))
            obs, reward, terminated, truncated, info = made.step(int(rng.integers(0, na)))
            assert np.isfinite(obs).all() and math.isfinite(reward)
            if terminated:
                obs, info = made.reset()
    else:
        made.reset(seed=seed)
        _play_aec(made, rng, 60)
