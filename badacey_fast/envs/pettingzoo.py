"""A PettingZoo AEC environment: one hand of any preset for 2 to 6 seats, each seat an agent.

>>> from badacey_fast.envs.pettingzoo import env
>>> e = env("badugi", seats=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, obs["action_mask"].tolist()[:3]
('player_0', (223,), [1, 1, 1])

- **Game**: a preset name, or any :class:`~badacey_fast.game.GameConfig` -- small games included
  (RULES.md §6: fewer ranks, suits, cards or draws; the observation layout is the same, see
  :mod:`badacey_fast.envs.encoding`).
- **Agents** ``player_0`` ... ``player_<n-1>``: ``player_i`` is seat ``i``.  The button moves one seat
  each hand (``button=None``, from seat 0 on the first hand after a seeded reset) or stays where given.
- **Actions** ``Discrete(3 + 2**hand_size)``: fold, check/call, bet/raise, then one per discard set
  (bit ``k`` = the ``k``-th of the seat's cards sorted by id), see :mod:`badacey_fast.envs.encoding`.
  An illegal action is replaced by the nearest legal one (``infos[agent]["illegal"]`` is then True); an
  index outside the space is an ``IllegalActionError`` (a ``ValueError``).
- **Observations** a dict: ``observation`` (``float32[223]``: the seat's own view only, documented in
  :mod:`badacey_fast.envs.encoding`) and ``action_mask`` (``int8``).
- **Rewards** at the end of the hand: each seat's net chips won or lost, in big blinds.  An episode is
  one hand; every seat starts it with ``stacks`` chips (default 100 big blinds; at most 2**53 chips at the
  table, the most an observation holds: more is a ``ConfigError`` when the environment is made).

A turn-based game: PettingZoo's parallel API does not fit (one seat acts at a time), so no parallel
wrapper is offered; the vectorised Gymnasium environment is the batched form.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsIndex

from badacey_fast.errors import MissingExtraError

# Without the extra: one line naming it (a command line prints it as it is), not a bare ModuleNotFoundError.
for _needed in ("gymnasium", "pettingzoo"):  # (pettingzoo imports gymnasium)
    MissingExtraError.require(_needed, "rl", "the PettingZoo environments")

import numpy as np  # noqa: E402
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from badacey_fast.envs.encoding import (
    OBS_SIZE, check_chips, decode, encode, mask_code, mask_table, n_actions, obs_string,
)
from badacey_fast.game import Game, GameConfig
from badacey_fast.game.config import PRESETS
from badacey_fast.game.state import check_stacks

__all__ = ["BadaceyAEC", "OrderEnforcing", "env", "raw_env"]

_NO_HAND = "no hand in play: call reset() first"


class BadaceyAEC(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types (no py.typed): AECEnv is Any
    """The AEC environment; see the module docstring.  ``game``: a preset name or a :class:`GameConfig`."""

    metadata = {"name": "badacey_fast_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, game: str | GameConfig = "badacey", seats: int = 2, stacks: int | Sequence[int] | None = None,
                 button: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.config = game if isinstance(game, GameConfig) else GameConfig(game=game)
        if not 2 <= seats <= 6:
            raise ValueError(f"seats must be 2 to 6, not {seats}")
        self.config.check_seats(seats)  # a small game's deck may be too small for this many (RULES.md §6)
        bb = self.config.big_blind or self.config.small_bet
        if stacks is None:
            stacks = 100 * bb
        self._stacks = [stacks] * seats if isinstance(stacks, int) else list(stacks)
        if len(self._stacks) != seats:
            raise ValueError(f"{len(self._stacks)} stacks for {seats} seats")
        check_stacks(self._stacks)
        check_chips(self.config, self._stacks)  # ConfigError now, not an observation refused mid-hand
        self._bb = float(bb)
        self._fixed_button = button
        self._button = 0 if button is None else button
        self.render_mode = render_mode
        self.hand_size = self.config.hand_size
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        na = n_actions(self.hand_size)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-1.0, np.inf, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (na,), np.int8),
        })
        self._act_space = spaces.Discrete(na)
        self._masks = mask_table(self.hand_size)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self._rng = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    # ------------------------------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            self._button = 0 if self._fixed_button is None else self._fixed_button
        elif self.game is not None and self._fixed_button is None:
            self._button = (self._button + 1) % len(self._stacks)
        if seed is None and self.game is not None:  # the same table and random source: re-dealt, unchecked
            g = self.game = self.game.next_hand(self._button)
        else:
            g = self.game = Game(self.config, self._stacks, button=self._button, rng=self._rng)
        agents = self.possible_agents
        self.agents = agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in agents}
        self.agent_selection = agents[g.to_act]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        g = self.game
        if g is None:
            raise RuntimeError(_NO_HAND)
        i = self._index[agent]
        # Built when asked for (last() asks once per turn).  The mask is a row of the shared mask table, which
        # is read-only: a view of it cannot be written by mistake, so it needs no copy (row 0: all zeros).
        return {"observation": encode(g, i), "action_mask": self._masks[mask_code(g) if g.to_act == i else 0]}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``: (observation, cumulative reward, terminated, truncated, info) of the agent
        to act; the same as AECEnv's, read without its generic steps (it runs every turn)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: SupportsIndex | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        if g is None:
            raise RuntimeError(_NO_HAND)
        if action is None:
            raise TypeError(f"{agent} is live: its action must be an index, not None")
        a, legal = decode(g, action)
        if not legal:
            self.infos[agent] = {"illegal": True}
        elif self.infos[agent]:
            self.infos[agent] = {}
        g.apply(a)
        self._cumulative_rewards[agent] = 0.0
        if g.phase == "complete":
            inv = 1.0 / self._bb
            agents = self.agents
            for a_, w in zip(self.possible_agents, g.winnings):
                self.rewards[a_] = w * inv
                self.terminations[a_] = True
            for a_ in agents:
                self._cumulative_rewards[a_] += self.rewards[a_]
            self.agent_selection = agents[0]
        else:
            self.agent_selection = self.possible_agents[g.to_act]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.game is None:
            return None
        text = repr(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def observation_string(self, agent: str) -> str:
        """A short text form of ``agent``'s observation."""
        g = self.game
        if g is None:
            raise RuntimeError(_NO_HAND)
        return obs_string(g, self._index[agent])


def raw_env(game: str | GameConfig = "badacey", seats: int = 2, stacks: int | Sequence[int] | None = None,
            button: int | None = None, render_mode: str | None = None) -> BadaceyAEC:
    """The environment without PettingZoo's wrappers (the fastest form)."""
    return BadaceyAEC(game, seats, stacks, button, render_mode)


def _forward(name: str) -> property:
    """The wrapped env's attribute ``name``, read as OrderEnforcingWrapper reads it (an AttributeError
    before reset) but without its ``__getattr__`` chain: PettingZoo's ``last()`` and ``agent_iter()`` read
    five such attributes every turn, and the chain cost more than the game's own step."""

    def get(self: Any) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get)


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]  # pettingzoo ships no types
    """PettingZoo's order-enforcing wrapper (what :func:`env` returns), its checks unchanged, with the
    attributes read every turn forwarded directly (:func:`_forward`) and ``last()`` asked of the env
    itself once reset was."""

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)  # type: ignore[no-any-return]


def env(game: str | GameConfig = "badacey", seats: int = 2, stacks: int | Sequence[int] | None = None,
        button: int | None = None, render_mode: str | None = None) -> AECEnv:
    """The environment with PettingZoo's order-enforcing wrapper (checks reset before step etc.).

    >>> e = env("badugi", seats=3)
    >>> e.last()
    Traceback (most recent call last):
    ...
    AssertionError: reset() needs to be called before observe.
    """
    return OrderEnforcing(BadaceyAEC(game, seats, stacks, button, render_mode))


PRESET_NAMES = tuple(PRESETS)
