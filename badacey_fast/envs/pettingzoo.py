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

from badacey_fast.errors import ConfigError, IllegalActionError, MissingExtraError

# Without the extra: one line naming it (a command line prints it as it is), not a bare ModuleNotFoundError.
for _needed in ("gymnasium", "pettingzoo"):  # (pettingzoo imports gymnasium)
    MissingExtraError.require(_needed, "rl", "the PettingZoo environments")

import numpy as np  # noqa: E402
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from badacey_fast.envs.encoding import (
    N_BETTING, OBS_SIZE, betting_choices, check_chips, chip_unit, decode, encode, mask_code, mask_table, n_actions,
    obs_string, seat_encoder,
)
from badacey_fast.game import BETTING, Game, GameConfig
from badacey_fast.game.config import PRESETS
from badacey_fast.game.state import check_stacks

__all__ = ["BadaceyAEC", "OrderEnforcing", "env", "raw_env"]

_NO_HAND = "no hand in play: call reset() first"
_F32 = np.dtype(np.float32)  # a dtype object: np.empty reads it without converting a type


class BadaceyAEC(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types (no py.typed): AECEnv is Any
    """The AEC environment; see the module docstring.  ``game``: a preset name or a :class:`GameConfig`."""

    metadata = {"name": "badacey_fast_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, game: str | GameConfig = "badacey", seats: int = 2, stacks: int | Sequence[int] | None = None,
                 button: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.config = game if isinstance(game, GameConfig) else GameConfig(game=game)
        if not 2 <= seats <= 6:
            raise ConfigError(f"seats must be 2 to 6, not {seats}")
        self.config.check_seats(seats)  # a small game's deck may be too small for this many (RULES.md §6)
        bb = self.config.big_blind or self.config.small_bet
        if stacks is None:
            stacks = 100 * bb
        self._stacks = [stacks] * seats if isinstance(stacks, int) else list(stacks)
        if len(self._stacks) != seats:
            raise ConfigError(f"{len(self._stacks)} stacks for {seats} seats")
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
        self._mask_rows = tuple(self._masks)  # the table's rows as views made once (each read-only)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self._rng = random.Random()
        self.game: Game | None = None
        self._unit = chip_unit(self.config)
        self._observe = seat_encoder()
        self._choices: tuple[int, Any, Any] | None = None  # betting_choices of the last betting turn observed

    def __getstate__(self) -> dict[str, Any]:
        # The C twin's seat encoder is a compiled object that does not pickle: a copy asks for its own.
        state = self.__dict__.copy()
        del state["_observe"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._observe = seat_encoder()

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
        self._observe = seat_encoder()  # the serving twin's, once a hand (last() calls it at every turn)

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        g = self.game
        if g is None:
            raise RuntimeError(_NO_HAND)
        i = self._index[agent]
        return {"observation": encode(g, i), "action_mask": self._mask_rows[mask_code(g) if g.to_act == i else 0]}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``: (observation, cumulative reward, terminated, truncated, info) of the agent
        to act; the same as AECEnv's, read without its generic steps (it runs every turn).

        The observation is built when asked for, a new vector each time: one handed out is never written
        again.  The mask is a row of the shared mask table, which is read-only: the same view of it each
        time cannot be written by mistake, so it needs no copy (row 0: all zeros).  While betting, what the
        indices mean is kept for step() (the seat to act usually steps what it was just shown)."""
        agent = self.agent_selection
        if not observe:
            return None, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], \
                self.infos[agent]
        g = self.game
        if g is None:
            raise RuntimeError(_NO_HAND)
        i = self._index[agent]
        if g.to_act != i:
            code = 0
        elif g.phase == BETTING:  # mask_code's betting case, the set's choices kept
            legal = g.legal_actions()
            choices = self._choices
            if choices is None or choices[2] is not legal:  # the same set as last turn's: the same choices
                choices = self._choices = betting_choices(legal)
            code = choices[0]
        else:
            code = mask_code(g)
        # encode(g, i), read straight from the game's lists on the C twin (it runs every turn); anything
        # that encoder does not serve, or a refusal (which no state of the engine's should meet), goes the
        # plain way, which writes the same vector or words the refusal.
        out = np.empty(OBS_SIZE, _F32)
        if self._observe(g, i, self._unit, out) != -1:
            encode(g, i, out)
        return ({"observation": out, "action_mask": self._mask_rows[code]}, self._cumulative_rewards[agent],
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
        if type(action) is not int:
            action = int(action)  # (decode's own conversion: a numpy integer, say)
        if 0 <= action < N_BETTING and g.phase == BETTING:
            # decode's betting case, with what last() worked out for this legal set when it is the same set
            # (the engine's legal sets are shared objects: the same set means the same choices).
            legal_set = g.legal_actions()
            choices = self._choices
            if choices is None or choices[2] is not legal_set:
                choices = betting_choices(legal_set)
            a, legal = choices[1][action]
        else:
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

    def _was_dead_step(self, action: SupportsIndex | None) -> None:
        """AECEnv's step of a terminated agent, for this env: its entries dropped, the next agent chosen and
        the rewards cleared exactly as AECEnv's does, without its scan for dead agents -- every agent of a
        hand ends with it, so all the agents left are dead (it runs once per seat at the end of each hand)."""
        if action is not None:
            raise IllegalActionError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        if agents:
            if getattr(self, "_skip_agent_selection", None) is None:
                self._skip_agent_selection = agent
            self.agent_selection = agents[0]
        else:
            if getattr(self, "_skip_agent_selection", None) is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None  # type: ignore[assignment]  # AECEnv's own None, typed str there
        rewards = self.rewards
        for a in agents:  # AECEnv's _clear_rewards, in place: int 0 for every agent left
            rewards[a] = 0

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
    """PettingZoo's order-enforcing wrapper (what :func:`env` returns), its checks unchanged, with what runs
    every turn read without PettingZoo's layers: the attributes forwarded directly (:func:`_forward`),
    ``last()`` and ``step()`` handed to the env itself, and ``agent_iter()``'s iterator (PettingZoo's own,
    :class:`Turns`) reading the env's ``agents`` and ``agent_selection`` straight."""

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

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # OrderEnforcingWrapper.reset, without BaseWrapper's: the flags, then the env's reset.
        self._has_reset = True
        self._has_updated = True
        self.env.reset(seed=seed, options=options)
        # From now on the reset-first checks always pass: the env's own last() is this wrapper's, and step()
        # is _Step (the wrapper's step without that check), bound once -- a call and reads of this
        # slow-to-read object (its class has a __getattr__) saved every turn.
        self.last = self.env.last  # type: ignore[method-assign]  # an instance attribute, on purpose
        self.step = _Step(self).step  # type: ignore[method-assign]

    def step(self, action: SupportsIndex | None) -> None:
        # OrderEnforcingWrapper.step's checks, in its order, then the env's step without BaseWrapper's.
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _TurnsIterable(self, max_iter)


class _Step:
    """:meth:`OrderEnforcing.step` once the env was reset (its one other check): bound to the wrapper by
    its reset as a bound method (a method, not a closure: the wrapper still pickles)."""

    __slots__ = ("wrapper", "env")

    def __init__(self, wrapper: OrderEnforcing) -> None:
        self.wrapper = wrapper
        self.env = wrapper.env

    def step(self, action: SupportsIndex | None) -> None:
        self.wrapper._has_updated = True
        env = self.env
        if env.agents:
            env.step(action)
        else:
            EnvLogger.warn_step_after_terminated_truncated()


class _TurnsIterable(AECOrderEnforcingIterable):  # type: ignore[misc]  # pettingzoo ships no types
    def __iter__(self) -> "Turns":
        return Turns(self.env, self.max_iter)


class Turns(AECOrderEnforcingIterator):  # type: ignore[misc]  # pettingzoo ships no types
    """The iterator of :meth:`OrderEnforcing.agent_iter`: PettingZoo's ``AECOrderEnforcingIterator``, the
    same stops and the same check (``step()`` or ``reset()`` between two turns), reading the wrapped env's
    attributes directly rather than through the wrapper (a call saved on each, every turn)."""

    def __init__(self, env: OrderEnforcing, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env.env  # the wrapper's attributes are slow to read (its class has a __getattr__)

    def __next__(self) -> str:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        wrapper = self.env
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return raw.agent_selection  # type: ignore[no-any-return]


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
