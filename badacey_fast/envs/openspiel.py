"""OpenSpiel games: ``python_badacey``, ``python_badeucy``, ``python_badugi``, ``python_a5`` and
``python_27``, registered with :mod:`pyspiel` on import of this module.

>>> import pyspiel
>>> import badacey_fast.envs.openspiel
>>> game = pyspiel.load_game("python_badugi", {"players": 2, "stack": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

- **Parameters**: ``players`` (2..6, default 2), ``stack`` (chips per seat, default 100 big blinds),
  ``button`` (default 0).  One hand per game; returns in big blinds (zero-sum).  Small stacks keep the
  betting tree small under the real rules (``stack`` 2 in Badugi: one big blind, all-in at once).
- **Chance nodes**: every card dealt -- the deal, each replacement, burn cards, every card after a
  reshuffle -- is a chance node whose outcomes are the card ids (0..51) the stub may deal, uniform
  (:meth:`badacey_fast.game.Game.chance_outcomes`: the engine's chance mode).
- **Actions** as :mod:`badacey_fast.envs.encoding`: 0 fold, 1 check/call, 2 bet/raise, ``3 + m`` draw
  the cards of mask ``m`` (over the player's cards sorted by id).
- **Observation** tensor: the 223 values of :mod:`badacey_fast.envs.encoding`; string: a short text.
  **Information state** (perfect recall): the observation, then the player's hand after each of its
  draws (4 x 52 multi-hot), then every player action so far in order, :data:`HIST_FEATURES` values each
  (actor's seat relative to the player, one-hot 6; fold, check/call, bet/raise, draw 0..5 cards, one-hot
  9): an opponent's draw shows its count only.  The string lists the same.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from badacey_fast.cards import format_cards
from badacey_fast.envs.encoding import N_BETTING, OBS_SIZE, decode, encode, n_actions, obs_string
from badacey_fast.game import Game, GameConfig
from badacey_fast.game.config import PRESETS

__all__ = ["GAME_NAMES", "BadaceyGame", "BadaceyState", "register"]

HIST_FEATURES = 15
_KIND = {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}

#: Card names by id (the information-state string names cards at every decision of a search).
_CARD = [format_cards([c]) for c in range(52)]

#: Each seat's hands so far (sorted card ids): the deal, then each draw that changed it.
Seen = tuple[tuple[tuple[int, ...], ...], ...]

#: The registered short names by preset.
GAME_NAMES = {p: f"python_{p}" for p in PRESETS}


def _max_moves(cfg: GameConfig, n: int, stack: int) -> tuple[int, int]:
    """Bounds of the player actions and the chance events of one hand."""
    cap = cfg.cap if cfg.cap is not None else stack // max(1, cfg.small_bet) + 1
    player = 4 * (n + (cap + 1) * (n - 1)) + 3 * n
    chance = n * cfg.hand_size + 3 * n * cfg.hand_size + 3
    return player, chance


class BadaceyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no types: its classes are Any
    """One hand of a preset as an OpenSpiel game (see the module docstring)."""

    preset = "badacey"

    def __init__(self, params: dict[str, int] | None = None) -> None:
        params = dict(params or {})
        preset = self.preset
        self.config = GameConfig(game=preset)
        bb = self.config.big_blind or self.config.small_bet
        self.n = int(params.get("players", 2))
        self.stack = int(params.get("stack", 100 * bb))
        self.button = int(params.get("button", 0))
        self.bb = float(bb)
        self.hand_size = self.config.hand_size
        player, chance = _max_moves(self.config, self.n, self.stack)
        self.max_player_moves = player
        info = pyspiel.GameInfo(
            num_distinct_actions=n_actions(self.hand_size), max_chance_outcomes=52, num_players=self.n,
            min_utility=-self.stack / self.bb, max_utility=(self.n - 1) * self.stack / self.bb,
            utility_sum=0.0, max_game_length=player + chance)
        super().__init__(_game_type(preset), info, {"players": self.n, "stack": self.stack,
                                                    "button": self.button})
        # The start of every hand, shared by every initial state (a _Hand is never changed).
        start = Game(self.config, [self.stack] * self.n, button=self.button, chance=True)
        self._start = _Hand(start, ((),) * self.n, 1.0 / self.bb, self.hand_size)

    def new_initial_state(self) -> "BadaceyState":
        return BadaceyState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, object] | None = None) -> "BadaceyObserver":
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return BadaceyObserver(self, perfect)


class _Hand:
    """One state of a hand, never changed once made: the engine :class:`~badacey_fast.game.Game` (chance
    mode), each seat's hands so far (sorted tuples: the deal, then each draw that changed it), the
    OpenSpiel current player.  OpenSpiel clones a Python state by making a new initial state and
    deep-copying its attributes, and searches clone every node they visit: an immutable holder makes
    that copy free (``__deepcopy__`` returns it), and applying an action copies the Game once (dealing a
    card: :meth:`~badacey_fast.game.Game.chance_child`, no copy-and-restore)."""

    __slots__ = ("game", "seen", "player", "inv", "hand_size")

    def __init__(self, game: Game, seen: Seen, inv: float, hand_size: int) -> None:
        self.game = game
        self.seen = seen
        self.inv = inv  # 1 / big blind: returns in big blinds
        self.hand_size = hand_size
        phase = game.phase
        self.player = (_TERMINAL if phase == "complete" else _CHANCE if phase == "chance" else game.to_act)

    def __deepcopy__(self, memo: dict[int, object]) -> "_Hand":
        return self

    def __copy__(self) -> "_Hand":
        return self

    def after(self, action: int) -> "_Hand":
        """The state after ``action`` (a card id at a chance node, else an action index)."""
        chance = self.player == _CHANCE
        if chance:
            g = self.game.chance_child(action)
        else:
            g = self.game.copy()
            g.apply(decode(g, action)[0])
        seen = self.seen
        # A seat's hand changes only when a dealing step completes: the deal, or a draw.
        if g.phase != "chance" and (chance or action >= N_BETTING):
            new = []
            for held, cards in zip(seen, g.hands):
                h = tuple(sorted(cards))
                new.append(held + (h,) if h and (not held or held[-1] != h) else held)
            seen = tuple(new)
        return _Hand(g, seen, self.inv, self.hand_size)


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
#: The legal draw actions by hand size (every discard set): one shared list each.
_DRAWS = {k: list(range(N_BETTING, N_BETTING + (1 << k))) for k in (4, 5)}


class BadaceyState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no types: its classes are Any
    """A hand in progress: ``game`` is the engine :class:`~badacey_fast.game.Game` in chance mode (read
    only: an applied action works on a copy, states share Games)."""

    def __init__(self, game: BadaceyGame) -> None:
        super().__init__(game)
        self._h = game._start  # the only attribute: OpenSpiel's clone deep-copies each one

    @property
    def game(self) -> Game:
        """The engine state (do not change it: other states may share it)."""
        return self._h.game

    @property
    def hands_seen(self) -> Seen:
        """Each seat's hands so far, sorted: the deal, then after each draw that changed it."""
        return self._h.seen

    def current_player(self) -> int:
        return self._h.player

    def _legal_actions(self, player: int) -> list[int]:
        g = self._h.game
        if g.phase == "drawing":
            return _DRAWS[len(g.hands[g.to_act])]
        return [_KIND[a[0]] for a in g.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._h.game.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._h = self._h.after(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {format_cards([action])}"
        if action < N_BETTING:
            return ("fold", "check/call", "bet/raise")[action]
        return f"draw mask {action - N_BETTING:0{self._h.hand_size}b}"

    def is_terminal(self) -> bool:
        return self._h.player == _TERMINAL

    def returns(self) -> list[float]:
        h = self._h
        g = h.game
        if h.player != _TERMINAL:
            return [0.0] * g.n
        inv = h.inv
        return [w * inv for w in g.winnings]

    def __str__(self) -> str:
        g = self._h.game
        return f"{g!r} hands {[format_cards(h) for h in g.hands]} log {g.log}"


class BadaceyObserver:
    """Observation (``perfect_recall`` False) or information state (True) tensors and strings."""

    def __init__(self, game: BadaceyGame, perfect_recall: bool) -> None:
        self.perfect = perfect_recall
        self.max_hist = game.max_player_moves
        size = OBS_SIZE + (4 * 52 + self.max_hist * HIST_FEATURES if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:OBS_SIZE]}
        if perfect_recall:
            self.dict["hands"] = self.tensor[OBS_SIZE:OBS_SIZE + 208].reshape(4, 52)
            self.dict["history"] = self.tensor[OBS_SIZE + 208:].reshape(self.max_hist, HIST_FEATURES)

    def set_from(self, state: BadaceyState, player: int) -> None:
        g = state.game
        t = self.tensor
        t.fill(0)
        encode(g, player, t[:OBS_SIZE])
        if not self.perfect:
            return
        hands = self.dict["hands"]
        for k, h in enumerate(state.hands_seen[player][:4]):
            hands[k, list(h)] = 1.0
        hist = self.dict["history"]
        n = g.n
        for row, (seat, a) in zip(hist, g.log):
            row[(seat - player) % n] = 1.0
            if a[0] != "draw":
                row[6 + _KIND[a[0]]] = 1.0
            else:
                cards = a[2]
                assert cards is not None  # a logged draw always names its discards
                row[9 + len(cards)] = 1.0

    def string_from(self, state: BadaceyState, player: int) -> str:
        g = state.game
        if not self.perfect:
            return obs_string(g, player)
        parts = [f"p{player}", "hands " + " | ".join(" ".join([_CARD[c] for c in h])
                                                     for h in state.hands_seen[player])]
        for seat, a in g.log:
            if a[0] == "draw":
                cards = a[2]
                assert cards is not None  # a logged draw always names its discards
                parts.append(f"{seat}:d{' '.join([_CARD[c] for c in cards]) if seat == player else len(cards)}")
            else:
                parts.append(f"{seat}:{a[0][0]}")
        if g.phase == "chance":
            parts.append("deal")
        return " ".join(parts)


def _game_type(preset: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAMES[preset], long_name=f"Python {preset} triple draw (badacey_fast)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": 2, "stack": 200, "button": 0})


def register() -> None:
    """Register every preset with pyspiel (done on import of this module)."""
    registered = set(pyspiel.registered_names())
    for preset, name in GAME_NAMES.items():
        if name not in registered:
            pyspiel.register_game(_game_type(preset), _CLASSES[preset])


#: One game class per preset (module globals, so that pickle finds them).
_CLASSES: dict[str, type] = {}
for _p in PRESETS:
    _name = f"BadaceyGame_{_p}"
    _CLASSES[_p] = globals()[_name] = type(_name, (BadaceyGame,), {"preset": _p, "__module__": __name__})
del _p, _name


register()
