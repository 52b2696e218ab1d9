"""Gymnasium environments: one seat against the library's bots (or any callables), and a vectorised form.

Importing this module registers one environment per preset, ``badacey_fast/Badacey-v0``,
``badacey_fast/Badeucy-v0``, ``badacey_fast/Badugi-v0``, ``badacey_fast/A5-v0`` and
``badacey_fast/27-v0`` (``gymnasium.make("badacey_fast.envs.gymnasium:badacey_fast/Badugi-v0")`` imports
it on the way):

>>> import gymnasium
>>> import badacey_fast.envs.gymnasium
>>> env = gymnasium.make("badacey_fast/Badugi-v0", seats=3)
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape
((223,), (19,))

- **Game**: a preset name, or any :class:`~badacey_fast.game.GameConfig` -- small games included
  (RULES.md §6: fewer ranks, suits, cards or draws), on both engines of the vector environment.
- **Episode**: one hand.  The learner plays seat ``seat`` (default 0); the button moves one seat each
  hand (from seat 0 after a seeded reset).  ``opponents``: one bot per other seat, any callable
  ``bot(view) -> Action`` (:mod:`badacey_fast.game.bots`); default :class:`RandomBot`\\ s seeded from the
  reset seed.  A hand the learner never acts in (everyone folds to its big blind) is dealt again at
  reset; its result is in ``info["skipped"]`` (net chips in big blinds).
- **Actions, observation**: as :mod:`badacey_fast.envs.encoding` (``Discrete(35)``, 19 for Badugi;
  ``float32[223]``); the legal actions are ``info["action_mask"]``.  An illegal action is replaced by
  the nearest legal one (``info["illegal"]``); an index outside the space is an ``IllegalActionError``.
- **Reward**: at the end of the hand, the learner's net chips won or lost in big blinds; 0 before.

:class:`BadaceyVectorEnv` steps ``num_envs`` tables at once (a :class:`gymnasium.vector.VectorEnv`,
same-step autoreset: the observation returned with ``terminated`` is the next hand's first, the finished
hand's is ``info["final_obs"]``); observations come as one ``float32[num_envs, 223]`` array.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, SupportsFloat, SupportsIndex

from badacey_fast.errors import ConfigError, MissingExtraError, ShapeError

# Without the extra: one line naming it (a command line prints it as it is), not a bare ModuleNotFoundError.
MissingExtraError.require("gymnasium", "rl", "the Gymnasium environments")

import gymnasium  # noqa: E402
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from badacey_fast.envs.encoding import (
    OBS_SIZE, action_mask, check_chips, decode, encode, encode_many, encode_rows, mask_code, mask_table, n_actions,
    obs_row, obs_string,
)
from badacey_fast import kernel
from badacey_fast.errors import IllegalActionError
from badacey_fast.game import Game, GameConfig
from badacey_fast.game.bots import RandomBot
from badacey_fast.game.simulate import shuffled_decks
from badacey_fast.game.state import check_stacks
from badacey_fast.game.view import SeatView
from badacey_fast.rules.games import PRESETS

if TYPE_CHECKING:
    from badacey_fast.game.simulate import Bot
    from badacey_fast.kernel import EngineTables

__all__ = ["BadaceyEnv", "BadaceyVectorEnv", "ENV_IDS", "ENGINES", "register_envs"]

#: The registered ids, by preset.
ENV_IDS = {"badacey": "badacey_fast/Badacey-v0", "badeucy": "badacey_fast/Badeucy-v0",
           "badugi": "badacey_fast/Badugi-v0", "a5": "badacey_fast/A5-v0", "27": "badacey_fast/27-v0"}

#: An observation (``float32[223]``, or ``[num_envs, 223]``), a mask or a vector of rewards.
Array = np.ndarray[Any, Any]
_NO_HAND = "no hand in play: call reset() first"
_INT = {int}  # the types of a list of plain ints (bool is a type of its own)


#: Decks a table shuffles at once (numpy, game.simulate.shuffled_decks): deck order is chance, not a rule,
#: and a Python RNG drawing each card costs ~2 k instructions (the lazy Fisher-Yates of a random stub).
#: Reshuffles still come from the table's Random, as RULES.md says.
_DECK_BATCH = 128


def _learner(view: SeatView) -> NoReturn:
    """The learner's place in a table's list of bots: the learner acts through step(), never through it."""
    raise RuntimeError(f"seat {view.seat} is the learner's: it has no bot")


@dataclass(frozen=True)
class _Rules:
    """A table's checked rules and seats (:func:`_checked_rules`): what every table of an environment
    shares, known before any table is built (the vector env's C path builds none)."""

    config: GameConfig
    seats: int
    seat: int  #: the learner's
    stacks: tuple[int, ...]  #: chips of each seat at the start of every hand
    big_blind: int  #: chips: the rewards' unit (the small bet in an ante game)

    @property
    def hand_size(self) -> int:
        return self.config.hand_size


def _checked_rules(game: str | GameConfig, seats: int, seat: int, stacks: int | None) -> _Rules:
    """The rules and seats of the environments' arguments, checked (the one home of these checks for both
    environments); ``stacks=None`` is 100 big blinds a seat.  Bad values raise as :class:`GameConfig` and
    :class:`Game` would, ``ConfigError`` for chips an observation cannot hold (``check_chips``: above 2**53),
    or ``ValueError`` for the seats."""
    config = game if isinstance(game, GameConfig) else GameConfig(game=game)
    if not 2 <= seats <= 6 or not 0 <= seat < seats:
        raise ConfigError(f"seats must be 2 to 6 and seat one of them, not seats={seats} seat={seat}")
    config.check_seats(seats)  # a small game's deck may be too small for this many seats (RULES.md §6)
    bb = config.big_blind or config.small_bet
    chips = [100 * bb if stacks is None else stacks] * seats
    check_stacks(chips)
    check_chips(config, chips)
    return _Rules(config, seats, seat, tuple(chips), bb)


class _Table:
    """One table: the learner's seat, its opponents, the hand in play (shared by both environments)."""

    def __init__(self, rules: _Rules, opponents: Sequence[Bot] | None) -> None:
        self.config = rules.config
        self.inv = 1.0 / rules.big_blind
        self.stacks = list(rules.stacks)
        seats = self.seats = rules.seats
        self.seat = rules.seat
        self.hand_size = rules.hand_size
        self.given = None if opponents is None else list(opponents)
        if self.given is not None and len(self.given) != seats - 1:
            raise ConfigError(f"{len(self.given)} opponents for {seats - 1} other seats")
        self.rng = random.Random()
        self.deck = rules.config.deck  # the 52 cards, or a small game's (RULES.md §6)
        self.decks = shuffled_decks(0, _DECK_BATCH, self.deck)  # replaced by seed()
        self.button = 0
        self.bots: list[Bot] = []  # by seat, _learner at the learner's
        self.game: Game | None = None
        self.views = [SeatView(Game(self.config, self.stacks, seed=0), i) for i in range(seats)]  # rebound per hand

    def seed(self, seed: int | None) -> None:
        self.rng = random.Random(seed)
        self.button = 0
        self.game = None  # the next hand is dealt from the new source
        others: list[Bot]
        if self.given is None:
            others = [RandomBot(seed=self.rng.getrandbits(32)) for _ in range(self.seats - 1)]
        else:
            others = self.given
            for b in others:
                if hasattr(b, "reseed"):
                    b.reseed(self.rng.getrandbits(32))
        self.bots = others[:self.seat] + [_learner] + others[self.seat:]
        self.decks = shuffled_decks(self.rng.getrandbits(63), _DECK_BATCH, self.deck)

    def new_hand(self) -> float:
        """Deal hands until the learner has a decision; returns the skipped hands' net in big blinds."""
        skipped = 0.0
        g = self.game
        while True:
            # The first hand after seeding is checked and built; the next ones re-deal from it (the same
            # config, stacks and random source, the next deck: what Game(...) deals, without its checks).
            if g is None:
                g = Game(self.config, self.stacks, button=self.button, rng=self.rng, deck=next(self.decks))
            else:
                g = g.next_hand(self.button, _shuffled=next(self.decks))
            self.game = g
            self.button = (self.button + 1) % self.seats
            for v in self.views:  # the bots' views, rebound to the new hand (as simulate.play_hand does)
                v._g = g
            self.run_bots(g)
            if g.phase != "complete":
                return skipped
            skipped += g.winnings[self.seat] * self.inv

    def run_bots(self, g: Game) -> None:
        """The bots act in ``g`` (the hand in play) until the learner's turn or the end of the hand."""
        seat, bots, views = self.seat, self.bots, self.views
        apply = g.apply
        while g.phase != "complete" and g.to_act != seat:
            i = g.to_act
            apply(bots[i](views[i]))

    def step(self, action: SupportsIndex) -> tuple[float, bool, bool, Game]:
        """The learner's ``action``, then the bots': (reward, hand over, action legal, the hand)."""
        g = self.game
        if g is None:
            raise RuntimeError(_NO_HAND)
        a, legal = decode(g, action)
        g.apply(a)
        self.run_bots(g)
        if g.phase == "complete":
            return g.winnings[self.seat] * self.inv, True, legal, g
        return 0.0, False, legal, g


class BadaceyEnv(gymnasium.Env[Array, SupportsIndex]):
    """One seat of a hand against bots; see the module docstring."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str | GameConfig = "badacey", seats: int = 2, seat: int = 0,
                 stacks: int | None = None, opponents: Sequence[Bot] | None = None,
                 render_mode: str | None = None) -> None:
        self._t = _Table(_checked_rules(game, seats, seat, stacks), opponents)
        self.observation_space = spaces.Box(-1.0, np.inf, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(n_actions(self._t.hand_size))
        self.render_mode = render_mode

    @property
    def game(self) -> Game:
        """The hand in play (a :class:`~badacey_fast.game.Game`); ``RuntimeError`` before the first reset."""
        g = self._t.game
        if g is None:
            raise RuntimeError(_NO_HAND)
        return g

    def _info(self, g: Game, **extra: object) -> dict[str, Any]:
        return {"action_mask": action_mask(g, self._t.hand_size), **extra}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Array, dict[str, Any]]:
        super().reset(seed=seed)
        t = self._t
        if seed is not None or not t.bots:
            t.seed(seed if seed is not None else int(self.np_random.integers(1 << 62)))
        skipped = t.new_hand()
        g = self.game
        return encode(g, t.seat), self._info(g, skipped=skipped)

    def step(self, action: SupportsIndex) -> tuple[Array, SupportsFloat, bool, bool, dict[str, Any]]:
        t = self._t
        reward, done, legal, g = t.step(action)
        info = self._info(g) if legal else self._info(g, illegal=True)
        return encode(g, t.seat), reward, done, False, info

    def action_masks(self) -> Array:
        """The legal actions now, as booleans (``info["action_mask"]`` of the last reset or step): the
        method sb3-contrib's ``MaskablePPO`` calls.  ``RuntimeError`` before the first reset.

        >>> env = BadaceyEnv()
        >>> obs, info = env.reset(seed=1)
        >>> (env.action_masks() == info["action_mask"]).all(), env.action_masks().dtype
        (np.True_, dtype('bool'))
        """
        mask: Array = action_mask(self.game, self._t.hand_size).astype(np.bool_)
        return mask

    def render(self) -> str | None:
        return obs_string(self._t.game, self._t.seat) if self._t.game is not None else None


#: The ``engine`` choices of :class:`BadaceyVectorEnv`.
ENGINES = ("auto", "c", "python")


class BadaceyVectorEnv(VectorEnv[Array, Array, Array]):
    """``num_envs`` tables stepped at once; observations ``float32[num_envs, 223]``, masks
    ``int8[num_envs, n_actions]`` (``info["action_mask"]``), ``info["illegal"]`` (bool per table: the
    action was replaced by the nearest legal one).  Same-step autoreset (module docstring).

    ``engine``: ``"c"`` plays the hands in the C twin of the rules engine (``csrc/engine.c``, one kernel
    call per step: the tables, the random opponents and the observations in C), ``"python"`` in
    :class:`~badacey_fast.game.Game` with the ``opponents``; ``"auto"`` (default) takes C when it can:
    default random opponents (``opponents=None``), the C kernel active (``BADACEY_FAST_BACKEND=python``
    forces Python) and chips within the C loop's range (every stack, blind, ante and bet at most 2**40),
    else Python.  Asking for ``"c"`` with custom opponents, without the C kernel, or with chips beyond its
    range, is a ``ValueError``.  Chips beyond what an observation holds (a blind or bet above 2**53, stacks
    totalling more) are a ``ConfigError`` on every engine, raised here.
    Both play the same rules and the same opponents' distribution (uniform legal actions, uniform discard
    subsets, as :class:`~badacey_fast.game.bots.RandomBot`); each is deterministic per seed, but the two
    deal and choose from different random streams, so a seed gives different trajectories on each.  The
    actions must be ints in ``0..n_actions - 1``, one per table (an ``IllegalActionError``, a
    ``ValueError``, names one that is not, before any table moves).

    >>> env = BadaceyVectorEnv(4, "badugi", seats=3)
    >>> obs, info = env.reset(seed=1)
    >>> obs.shape, info["action_mask"].shape, env.engine in ("c", "python")
    ((4, 223), (4, 19), True)
    >>> _ = env.step([1, 1, 1, 1])
    >>> BadaceyVectorEnv(2, engine="gpu")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: engine must be one of 'auto', 'c', 'python', not 'gpu'
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int = 8, game: str | GameConfig = "badacey", seats: int = 2, seat: int = 0,
                 stacks: int | None = None, opponents: Callable[[], Sequence[Bot]] | None = None,
                 engine: str = "auto") -> None:
        if engine not in ENGINES:
            raise ConfigError(f"engine must be one of 'auto', 'c', 'python', not {engine!r}")
        if type(num_envs) is not int or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive int, not {num_envs!r}")
        self.num_envs = num_envs
        rules = _checked_rules(game, seats, seat, stacks)  # whichever engine plays
        self._c = self._c_tables(rules, opponents, engine)
        self.engine = "python" if self._c is None else "c"
        #: The Python path's tables (none on the C path: its tables are in ``_c``).
        self.tables = [] if self._c is not None else [
            _Table(rules, None if opponents is None else opponents()) for _ in range(num_envs)]
        na = n_actions(rules.hand_size)
        self._na = na
        self.single_observation_space = spaces.Box(-1.0, np.inf, (OBS_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(na)
        self.observation_space = spaces.Box(-1.0, np.inf, (num_envs, OBS_SIZE), np.float32)
        self.action_space = spaces.MultiDiscrete([na] * num_envs)
        self._masks = mask_table(rules.hand_size)
        self._seats = [seat] * num_envs  # the learner's seat of each table, as encode_many takes them
        self._codes: Array = np.zeros(num_envs, np.int64)  # each table's mask code (encoding.mask_code)
        self._ready = False

    def _c_tables(self, rules: _Rules, opponents: object, engine: str) -> EngineTables | None:
        """The C tables when ``engine`` (and the rules) let C play, else None; refuses ``"c"`` it cannot."""
        if engine == "python":
            return None
        tables = kernel.engine_tables()
        why = ("custom opponents play in Python only" if opponents is not None else
               f"the C kernel is not active (backend {kernel.name!r})" if tables is None else None)
        if why is not None:
            if engine == "c":
                raise ConfigError(f"engine='c' is unavailable: {why}")
            return None
        assert tables is not None  # why is None
        cfg = rules.config
        try:
            return tables(self.num_envs, PRESETS.index(cfg.game), rules.seat, list(rules.stacks), cfg.small_blind,
                          cfg.big_blind, cfg.ante, cfg.small_bet, cfg.big_bet, cfg.cap, cfg.heads_up_uncapped,
                          cfg.burn, cfg.odd_chip.odd_low, cfg.scoring.ace_high,
                          (cfg.ranks, cfg.suits, cfg.hand_size, cfg.draws))
        except ValueError as e:
            if engine == "c":
                raise ConfigError(f"engine='c' is unavailable: {e}") from None
            return None  # chips beyond the C loop's range: Python plays them

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Array, dict[str, Any]]:
        root = random.Random(seed)
        c = self._c
        if c is not None:
            c.seed([root.getrandbits(64) for _ in range(self.num_envs)])
            obs = np.empty((self.num_envs, OBS_SIZE), np.float32)
            codes = np.empty(self.num_envs, np.int64)
            if c.reset(obs, codes) != -1:  # the tables were just made: a refusal is a bug here
                raise RuntimeError("the C hand loop refused a table it had just dealt")
            self._codes = codes
            self._ready = True
            return obs, {"action_mask": self._masks[codes]}
        for t in self.tables:
            t.seed(root.getrandbits(63))
            t.new_hand()
        self._ready = True
        return self._observe(), {"action_mask": self._masks[self._codes]}

    def _observe(self) -> Array:
        """Every table's observation (one kernel call) into a new array; the mask codes into _codes."""
        games = [g for t in self.tables if (g := t.game) is not None]
        if len(games) != self.num_envs:
            raise RuntimeError(_NO_HAND)
        self._codes = np.array([mask_code(g) for g in games], np.int64)
        return encode_many(games, self._seats, np.empty((self.num_envs, OBS_SIZE), np.float32))

    def _checked_actions(self, actions: Array | Sequence[int]) -> Array:
        """The actions as a C-ordered int64 array, checked (both engines): one per table, ints in 0..n_actions - 1."""
        # The common case first: a list of in-range plain ints, checked without a Python loop (_plain).
        if isinstance(actions, (list, tuple)) and self._plain(actions):
            return np.array(actions, np.int64)
        if isinstance(actions, np.ndarray):
            if actions.dtype.kind not in "iu":
                raise TypeError(f"actions must be integers, not an array of {actions.dtype}")
            acts = np.ascontiguousarray(actions, np.int64) if actions.dtype != np.int64 else actions
        else:
            items = list(actions)
            for a in items:
                if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
                    raise TypeError(f"actions must be ints, not {type(a).__name__} ({a!r})")
            acts = np.array(items, np.int64) if items else np.empty(0, np.int64)
        if acts.shape != (self.num_envs,):
            shape = "" if acts.ndim == 1 else f" (an array of shape {acts.shape}, not one per table)"
            raise ShapeError(f"{acts.size} actions for {self.num_envs} tables{shape}")
        bad = (acts < 0) | (acts >= self._na)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise IllegalActionError(f"action index {int(acts[k])} of table {k} is not in 0..{self._na - 1}")
        if not acts.flags.c_contiguous:
            acts = np.ascontiguousarray(acts)
        return acts

    def step(self, actions: Array | Sequence[int]) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        c = self._c
        if c is not None:
            if not self._ready:
                raise RuntimeError(_NO_HAND)
            acts = self._checked_actions(actions)
            n = self.num_envs
            obs = np.empty((n, OBS_SIZE), np.float32)
            final = np.zeros((n, OBS_SIZE), np.float32)
            rew = np.empty(n, np.float64)
            term = np.empty(n, np.bool_)
            illegal = np.empty(n, np.bool_)
            codes = np.empty(n, np.int64)
            if c.step(acts, obs, final, rew, term, illegal, codes) != -1:  # checked above: a bug here
                raise RuntimeError("the C hand loop refused a step of tables it dealt")
            self._codes = codes
            info: dict[str, Any] = {"action_mask": self._masks[codes], "illegal": illegal}
            if term.any():
                info["final_obs"] = final
            return obs, rew, term, np.zeros(n, np.bool_), info
        return self._python_step(actions)

    def action_masks(self) -> Array:
        """Every table's legal actions now, ``bool[num_envs, n_actions]`` (``info["action_mask"]`` of the
        last reset or step): the method sb3-contrib's ``MaskablePPO`` calls.  ``RuntimeError`` before the
        first reset."""
        if not self._ready:
            raise RuntimeError(_NO_HAND)
        masks: Array = self._masks[self._codes].astype(np.bool_)
        return masks

    def _plain(self, actions: Sequence[int]) -> bool:
        """True for the common case of both engines, accepted without numpy or a Python loop: one plain int
        per table (bool is a type of its own: refused), each in range.  False sends the actions through
        :meth:`_checked_actions`' full check, which words every refusal."""
        return (len(actions) == self.num_envs and set(map(type, actions)) == _INT and min(actions) >= 0
                and max(actions) < self._na)

    def _python_actions(self, actions: Array | Sequence[int]) -> list[int]:
        """The actions as a list of Python ints (the Python path's tables take them one by one), checked as
        :meth:`_checked_actions`; a list that is :meth:`_plain` is copied as it is (no list -> numpy -> list)."""
        if type(actions) is list:
            acts: list[int] = actions[:]  # copied, then checked: the tables step on what was checked
            if self._plain(acts):
                return acts
        checked: list[int] = self._checked_actions(actions).tolist()
        return checked

    def _python_step(self, actions: Array | Sequence[int]) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        # Plain Python ints and lists on the per-table path (a numpy scalar per table costs more than the
        # whole conversion); each table's step leaves its observation row and mask code, then one kernel
        # call encodes every row.
        acts = self._python_actions(actions)
        n = self.num_envs
        rew = [0.0] * n
        term = [False] * n
        illegal = [False] * n
        codes = [0] * n
        rows: list[int] = []
        done_games: list[Game] = []
        done_at: list[int] = []
        for k, t in enumerate(self.tables):
            r, done, legal, g = t.step(acts[k])
            if not legal:
                illegal[k] = True
            if done:
                term[k] = True
                done_games.append(g)
                done_at.append(k)
                r += t.new_hand()  # a skipped hand's chips land with the finished one
                dealt = t.game
                assert dealt is not None  # new_hand dealt it
                g = dealt
            rew[k] = r
            rows += obs_row(g, t.seat)
            codes[k] = mask_code(g)
        self._codes = np.array(codes, np.int64)
        obs = encode_rows(rows, n, np.empty((n, OBS_SIZE), np.float32))
        info: dict[str, Any] = {"action_mask": self._masks[self._codes], "illegal": np.array(illegal)}
        if done_at:
            final = np.zeros_like(obs)
            final[done_at] = encode_many(done_games, [self._seats[k] for k in done_at],
                                         np.empty((len(done_at), OBS_SIZE), np.float32))
            info["final_obs"] = final
        return obs, np.array(rew), np.array(term), np.zeros(n, np.bool_), info


def register_envs() -> None:
    """Register one environment per preset with Gymnasium (done on import of this module)."""
    for preset, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="badacey_fast.envs.gymnasium:BadaceyEnv",
                               kwargs={"game": preset}, disable_env_checker=False)
        vec_id = env_id.replace("-v0", "Vector-v0")
        if vec_id not in gymnasium.registry:
            gymnasium.register(vec_id, vector_entry_point="badacey_fast.envs.gymnasium:BadaceyVectorEnv",
                               kwargs={"game": preset})


register_envs()
