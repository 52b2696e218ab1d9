"""Throughput of the environments, side by side with the bare engine (``python bench/side_by_side.py
--group rl``).

Heads-up Badacey, random play everywhere: the bare :class:`~badacey_fast.game.Game` with
:class:`~badacey_fast.game.bots.RandomBot`\\ s (hands), the PettingZoo AEC environment with random legal
actions from the mask (hands), and :class:`~badacey_fast.envs.gymnasium.BadaceyVectorEnv` with 64 tables
(environment steps) on each engine: the Python ``Game``, and the C hand loop (``csrc/engine.c``; only when
the C kernel is active).  Without the ``[rl]`` extra there are no cases.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable

from side_by_side import Case, InterleavedCase

__all__ = ["bench_cases", "bare_hands", "aec_hands", "vector_steps"]


def bare_hands(k: int, seats: int = 2) -> None:
    from badacey_fast.game import Game
    from badacey_fast.game.bots import RandomBot
    from badacey_fast.game.simulate import play_hand

    bots = [RandomBot(seed=i) for i in range(seats)]
    for h in range(k):
        play_hand(Game(stacks=[200] * seats, seed=h), bots)


def aec_hands(k: int, seats: int = 2) -> None:
    from badacey_fast.envs.pettingzoo import raw_env

    e = raw_env("badacey", seats)
    e.reset(seed=1)
    rnd = random.Random(1).random
    hands = 0
    while hands < k:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            if not e.agents:
                hands += 1
                e.reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        e.step(legal[int(rnd() * len(legal))])


def vector_steps(steps: int, num_envs: int = 64, engine: str = "python") -> Callable[[], None]:
    """A block of ``steps`` random masked steps of the vectorised env on ``engine`` ("python": Game and
    RandomBots; "c": the C hand loop)."""
    import numpy as np

    from badacey_fast.envs.gymnasium import BadaceyVectorEnv

    v = BadaceyVectorEnv(num_envs, "badacey", seats=2, engine=engine)
    _, info = v.reset(seed=1)
    rng = np.random.default_rng(1)

    def run() -> None:
        nonlocal info
        for _ in range(steps):
            m = info["action_mask"]
            _, _, _, _, info = v.step((rng.random(m.shape) * m).argmax(1))

    return run


def bench_cases(quick: bool) -> list[Case]:
    """Bare engine and AEC hands (heads-up), vectorised env steps on the Python engine and (C kernel
    active) the C one, all timed interleaved (alternating blocks of calls), so that the AEC env's ratio to
    the bare engine compares blocks timed side by side on a noisy machine.

    >>> cases = bench_cases(quick=True)
    >>> len(cases) in (0, 3, 4), {getattr(c, "interleave", "") for c in cases} <= {"rl"}
    (True, True)
    """
    if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("gymnasium") is None:
        return []
    def rl(name: str, setup: Callable[[], Callable[[], object]], items: int) -> Case:
        return InterleavedCase("rl", name, setup, items, interleave="rl")

    k = 100 if quick else 300  # hands a call: short blocks interleave finely
    s = 5 if quick else 20
    cases = [
        rl(f"bare Game: {k} heads-up random hands", lambda: (lambda: bare_hands(k)), k),
        rl(f"PettingZoo AEC: {k} heads-up random hands", lambda: (lambda: aec_hands(k)), k),
        rl(f"vector env: {s} steps x 64 tables", lambda: vector_steps(s), 64 * s),
    ]
    from badacey_fast import kernel

    if kernel.engine_tables() is not None:
        c = 10 * s  # the C path steps ~10x faster: blocks of about the same time as the Python path's
        cases.append(rl(f"vector env, C engine: {c} steps x 64 tables", lambda: vector_steps(c, engine="c"), 64 * c))
    return cases
