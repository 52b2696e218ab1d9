"""OpenSpiel games: ``python_badacey``, ``python_badeucy``, ``python_badugi``, ``python_a5`` and
``python_27``, registered with :mod:`pyspiel` on import of this module.

>>> import pyspiel
>>> import badacey_fast.envs.openspiel
>>> game = pyspiel.load_game("python_badugi", {"players": 2, "stack": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

- **Parameters**: ``players`` (2..6, default 2), ``stack`` (chips per seat, default 100 big blinds),
  ``button`` (default 0), ``cap`` (bets per round, default 4; 0 = no cap); each int at most 2**31 - 1, OpenSpiel's
  int (more is a ``ConfigError``).  One hand per game; returns
  in big blinds (zero-sum).  Small stacks keep the betting tree small under the real rules (``stack`` 2
  in Badugi: one big blind, all-in at once).
- **Small games** (RULES.md §6, :class:`~badacey_fast.game.GameConfig`): ``ranks`` (1..13, default 13),
  ``suits`` (4; Badugi 2..4), ``hand_size`` (the preset's; Badugi 1..4), ``draws`` (0..3, default 3).
  A deck too small for the seats is refused when the game is loaded, naming the smallest ``ranks`` that
  works.  :mod:`badacey_fast.game.small` names small games and counts their trees.
- **Chance nodes**, ``deal``: ``"card"`` (default) -- every card dealt (the deal, each replacement, burn
  cards, every card after a reshuffle) is a chance node whose outcomes are the card ids (0..51) the stub
  may deal, uniform (:meth:`badacey_fast.game.Game.chance_outcomes`: the engine's chance mode).
  ``"set"`` -- each seat's hand is one chance outcome (seat by seat from the left of the button, every
  hand of the cards left equally likely) and so are each draw's replacements (every set the stub may deal
  with its exact probability, the reshuffle included: :meth:`badacey_fast.game.Game.chance_sets`); a burn
  card is its own.  The outcomes are numbered by the set: ``set_action(cards)`` / ``action_set(action)``
  (:meth:`BadaceyGame.set_action`).  The same game with a tree smaller by the orders a set can be dealt
  in: what exact algorithms want.
- **Actions** as :mod:`badacey_fast.envs.encoding`: 0 fold, 1 check/call, 2 bet/raise, ``3 + m`` draw
  the cards of mask ``m`` (over the player's cards sorted by id).
- **Observation** tensor: the 223 values of :mod:`badacey_fast.envs.encoding`; string: a short text.
  **Information state** (perfect recall): the observation, then the player's hand after each of its
  draws (4 x 52 multi-hot), then every player action so far in order, :data:`HIST_FEATURES` values each
  (actor's seat relative to the player, one-hot 6; fold, check/call, bet/raise, draw 0..5 cards, one-hot
  9): an opponent's draw shows its count only.  The string lists the same.

A tiny game is small enough for OpenSpiel's own exact algorithms (Badugi, 3 ranks x 3 suits, 2-card
hands, one draw, cap 1, heads-up, one big blind each):

>>> tiny = pyspiel.load_game("python_badugi", {"ranks": 3, "suits": 3, "hand_size": 2, "draws": 1,
...                                             "cap": 1, "stack": 2, "deal": "set"})
>>> state = tiny.new_initial_state()
>>> len(state.chance_outcomes()), state.chance_outcomes()[0]        # seat 1's hand: 2 of the 9 cards
(36, (9, 0.027777777777777776))
>>> tiny.action_set(9), tiny.set_action((9, 10))             # Ac Ad, the first of them; 3d 3h, the last
((0, 1), 44)
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any

from badacey_fast.errors import ConfigError, IllegalActionError, InvalidCardError, MissingExtraError

# Without the extra: one line naming it (a command line prints it as it is), not a bare ModuleNotFoundError.
MissingExtraError.require("pyspiel", "openspiel", "OpenSpiel games")

import numpy as np  # noqa: E402
import pyspiel

from badacey_fast.cards import format_cards
from badacey_fast.envs.encoding import N_BETTING, OBS_SIZE, decode, encode, n_actions, obs_string
from badacey_fast.errors import ConfigError, IllegalActionError
from badacey_fast.game import Game, GameConfig
from badacey_fast.game.config import PRESETS
from badacey_fast.rules.games import scoring

__all__ = ["GAME_NAMES", "DEALS", "KEPT_STATES", "BadaceyGame", "BadaceyState", "register"]

HIST_FEATURES = 15
_KIND = {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}

#: Card names by id (the information-state string names cards at every decision of a search).
_CARD = [format_cards([c]) for c in range(52)]

#: Each seat's hands so far (sorted card ids): the deal, then each draw that changed it.
Seen = tuple[tuple[tuple[int, ...], ...], ...]

#: OpenSpiel's game parameters are C++ ints: stacks up to this (six seats hold far less than the 2**53 chips an
#: observation holds, envs.encoding.check_chips).
_INT_MAX = 2**31 - 1

#: The registered short names by preset.
GAME_NAMES = {p: f"python_{p}" for p in PRESETS}

#: The ``deal`` parameter's values: every card a chance node, or every hand and draw one.
DEALS = ("card", "set")


def _max_moves(cfg: GameConfig, n: int, stack: int) -> tuple[int, int]:
    """Bounds of the player actions and the chance events of one hand."""
    cap = cfg.cap if cfg.cap is not None else stack // max(1, cfg.small_bet) + 1
    rounds = cfg.draws + 1
    player = rounds * (n + (cap + 1) * (n - 1)) + cfg.draws * n
    chance = n * cfg.hand_size + cfg.draws * (n * cfg.hand_size + 1)
    return player, chance


class _Sets:
    """The numbering of sets of cards as chance actions (``deal="set"``): a set of ``k`` cards of a
    deck of ``D`` is ``offset[k]`` plus the colexicographic rank of its cards' places in the deck
    (``sum C(place_i, i)``, places ascending, ``i`` from 1), ``offset[k]`` the number of smaller sets
    (sizes 1..k-1): one card is its place, and every set of 1..hand-size cards has its own number."""

    def __init__(self, deck: tuple[int, ...], hand_size: int) -> None:
        self.deck = deck
        self.place = {c: i for i, c in enumerate(deck)}
        d = len(deck)
        self.offset = [0, 0]
        for k in range(1, hand_size + 1):
            self.offset.append(self.offset[-1] + comb(d, k))
        self.count = self.offset[-1]  # the numbers in use: max_chance_outcomes

    def number(self, cards: tuple[int, ...]) -> int:
        places = sorted(self.place[c] for c in cards)
        return self.offset[len(places)] + sum(comb(p, i) for i, p in enumerate(places, 1))

    def cards(self, number: int) -> tuple[int, ...]:
        if type(number) is not int or not 0 <= number < self.count:
            raise IllegalActionError(f"chance action {number!r} is not a set of this deck (0..{self.count - 1})")
        k = 1
        while self.offset[k + 1] <= number:
            k += 1
        rank = number - self.offset[k]
        places = []
        for i in range(k, 0, -1):  # the largest place p with C(p, i) <= rank, from the highest card down
            p = i - 1
            while comb(p + 1, i) <= rank:
                p += 1
            places.append(p)
            rank -= comb(p, i)
        return tuple(sorted(self.deck[p] for p in places))


class _Rules:
    """What every state of one loaded game shares: the rules, the seats, the units, the set numbering."""

    __slots__ = ("config", "n", "inv", "hand_size", "sets", "button", "kept")

    def __init__(self, config: GameConfig, n: int, inv: float, sets: _Sets | None, button: int) -> None:
        self.config = config
        self.n = n
        self.inv = inv  # 1 / big blind: returns in big blinds
        self.hand_size = config.hand_size
        self.sets = sets  # None: deal="card"
        self.button = button
        #: With deal="set": the states kept so far as their parents' children (up to KEPT_STATES).
        self.kept = 0


#: With ``deal="set"``, each state keeps the states made from it (each ~3 kB), up to this many per loaded
#: game: exact algorithms (best response, CFR) visit every node of the tree many times, and the engine's
#: work is then done once a node.  Past it, states are made afresh each time (the same game, more slowly).
KEPT_STATES = 100_000


def _param(params: dict[str, Any], name: str, default: Any) -> Any:
    value = params.get(name, default)
    want = type(default)
    if type(value) is not want:  # pyspiel gives ints and strs as such; a float stack is refused
        raise TypeError(f"parameter {name} must be {want.__name__}, not {type(value).__name__} ({value!r})")
    return value


class BadaceyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no types: its classes are Any
    """One hand of a preset as an OpenSpiel game (see the module docstring)."""

    preset = "badacey"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        preset = self.preset
        unknown = set(params) - set(_defaults(preset))
        if unknown:
            raise ConfigError(f"unknown parameter(s) {', '.join(sorted(unknown))} of {GAME_NAMES[preset]}: "
                             f"expected {', '.join(_defaults(preset))}")
        get = {k: _param(params, k, v) for k, v in _defaults(preset).items()}
        for name, value in get.items():  # pyspiel casts each int to a C++ int, else a bare RuntimeError
            if isinstance(value, int) and not -_INT_MAX - 1 <= value <= _INT_MAX:
                raise ConfigError(f"{name} {value} is beyond {_INT_MAX}, the largest int an OpenSpiel game "
                                  f"parameter holds")
        cap = get["cap"]
        if cap < 0:
            raise ConfigError(f"cap must be 0 (no cap) or a positive int, got {cap}")
        if get["deal"] not in DEALS:
            raise ConfigError(f"deal must be one of {', '.join(map(repr, DEALS))}, not {get['deal']!r}")
        self.config = GameConfig(game=preset, cap=cap or None, ranks=get["ranks"], suits=get["suits"],
                                 hand_size=get["hand_size"], draws=get["draws"])
        bb = self.config.big_blind or self.config.small_bet
        self.n = get["players"]
        self.stack = get["stack"]
        self.button = get["button"]
        self.bb = float(bb)
        self.hand_size = self.config.hand_size
        sets = _Sets(self.config.deck, self.hand_size) if get["deal"] == "set" else None
        self._sets = sets
        player, chance = _max_moves(self.config, self.n, self.stack)
        self.max_player_moves = player
        info = pyspiel.GameInfo(
            num_distinct_actions=n_actions(self.hand_size), max_chance_outcomes=52 if sets is None else sets.count,
            num_players=self.n, min_utility=-self.stack / self.bb, max_utility=(self.n - 1) * self.stack / self.bb,
            utility_sum=0.0, max_game_length=player + chance)
        super().__init__(_game_type(preset), info, {**get, "stack": self.stack})
        # The start of every hand, shared by every initial state (a _Hand is never changed); Game checks the
        # seats against the deck (a ConfigError naming the smallest ranks that works).
        start = Game(self.config, [self.stack] * self.n, button=self.button, chance=True)
        rules = _Rules(self.config, self.n, 1.0 / self.bb, sets, self.button)
        self._start = _Hand(start, ((),) * self.n, rules, () if sets is not None else None)

    def new_initial_state(self) -> "BadaceyState":
        return BadaceyState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, object] | None = None) -> "BadaceyObserver":
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return BadaceyObserver(self, perfect)

    def set_action(self, cards: tuple[int, ...] | list[int]) -> int:
        """The chance action of a set of cards (``deal="set"``): a hand, a draw's replacements, a burn card.
        ``ValueError`` for a card outside the deck or with ``deal="card"`` (whose actions are card ids)."""
        if self._sets is None:
            raise IllegalActionError('chance actions are sets only with deal="set" (here every card is its own)')
        if not cards or len(set(cards)) != len(cards) or len(cards) > self.hand_size:
            raise InvalidCardError(f"a set is 1 to {self.hand_size} distinct cards, not {cards!r}")
        bad = [c for c in cards if c not in self._sets.place]
        if bad:
            raise InvalidCardError(f"card {bad[0]!r} is not in this game's deck")
        return self._sets.number(tuple(cards))

    def action_set(self, action: int) -> tuple[int, ...]:
        """The set of cards (sorted ids) of a chance action (``deal="set"``); inverse of :meth:`set_action`."""
        if self._sets is None:
            raise IllegalActionError('chance actions are sets only with deal="set" (here every card is its own)')
        return self._sets.cards(int(action))


class _Hand:
    """One state of a hand, never changed once made: the engine :class:`~badacey_fast.game.Game` (chance
    mode), each seat's hands so far (sorted tuples: the deal, then each draw that changed it), the
    OpenSpiel current player; with ``deal="set"``, the hands chosen so far while the deal is in progress
    (``pending``: the engine is given the cards once every seat has one, in its dealing order) and the
    chance outcomes once asked for.  OpenSpiel clones a Python state by making a new initial state and
    deep-copying its attributes, and searches clone every node they visit: an immutable holder makes
    that copy free (``__deepcopy__`` returns it), and applying an action copies the Game once (dealing a
    card: :meth:`~badacey_fast.game.Game.chance_child`, no copy-and-restore)."""

    __slots__ = ("game", "seen", "player", "rules", "pending", "_outcomes", "_children")

    def __init__(self, game: Game, seen: Seen, rules: _Rules, pending: tuple[tuple[int, ...], ...] | None) -> None:
        self.game = game
        self.seen = seen
        self.rules = rules
        self.pending = pending
        self._outcomes: tuple[list[tuple[int, float]], dict[int, tuple[int, ...]]] | None = None
        self._children: dict[int, _Hand] | None = None  # deal="set": the states made from this one
        phase = game.phase
        self.player = (_CHANCE if pending is not None or phase == "chance" else
                       _TERMINAL if phase == "complete" else game.to_act)

    def __deepcopy__(self, memo: dict[int, object]) -> "_Hand":
        return self

    def __copy__(self) -> "_Hand":
        return self

    def outcomes(self) -> tuple[list[tuple[int, float]], dict[int, tuple[int, ...]]]:
        """The chance outcomes (action, probability) and, with ``deal="set"``, each action's cards in the
        order the engine deals them (made once per state)."""
        found = self._outcomes
        if found is not None:
            return found
        sets = self.rules.sets
        if sets is None:
            found = (self.game.chance_outcomes(), {})
        else:
            if self.pending is not None:  # a seat's hand: every hand of the cards left, equally likely
                used = {c for hand in self.pending for c in hand}
                left = [c for c in sets.deck if c not in used]
                h = self.rules.hand_size
                p = 1.0 / comb(len(left), h)
                dealt = [(cards, p) for cards in combinations(left, h)]
            else:
                dealt = self.game.chance_sets()
            order = {sets.number(cards): cards for cards, _ in dealt}
            found = ([(sets.number(cards), p) for cards, p in dealt], order)
            found[0].sort()
        self._outcomes = found
        return found

    def after(self, action: int) -> "_Hand":
        """The state after ``action`` (a chance outcome, or an action index); with ``deal="set"`` made once
        and kept (up to :data:`KEPT_STATES` a game)."""
        children = self._children
        if children is not None:
            found = children.get(action)
            if found is not None:
                return found
        child = self._after(action)
        rules = self.rules
        if rules.sets is not None and rules.kept < KEPT_STATES:
            if children is None:
                children = self._children = {}
            children[action] = child
            rules.kept += 1
        return child

    def _after(self, action: int) -> "_Hand":
        chance = self.player == _CHANCE
        pending = None
        if not chance:
            g = self.game.copy()
            g.apply(decode(g, action)[0])
        elif self.rules.sets is None:
            g = self.game.chance_child(action)
        else:
            cards = self.outcomes()[1].get(action)
            if cards is None:
                raise IllegalActionError(f"chance action {action} is not an outcome of this chance node")
            g = self.game
            if self.pending is not None:
                pending = self.pending + (cards,)
                n = self.rules.n
                if len(pending) < n:
                    return _Hand(g, self.seen, self.rules, pending)
                # Every seat has its hand: the engine deals one card at a time clockwise from the left of
                # the button, the seats in the order their hands were chosen.
                cards = tuple(pending[k % n][k // n] for k in range(n * self.rules.hand_size))
                pending = None
            g = g.chance_child(*cards)  # the set in one run of the dealing step
        seen = self.seen
        # A seat's hand changes only when a dealing step completes: the deal, or a draw.
        if g.phase != "chance" and (chance or action >= N_BETTING):
            new = []
            for held, cards_held in zip(seen, g.hands):
                h = tuple(sorted(cards_held))
                new.append(held + (h,) if h and (not held or held[-1] != h) else held)
            seen = tuple(new)
        return _Hand(g, seen, self.rules, pending)


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
#: The legal draw actions by hand size (every discard set): one shared list each.
_DRAWS = {k: list(range(N_BETTING, N_BETTING + (1 << k))) for k in range(1, 6)}


class BadaceyState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no types: its classes are Any
    """A hand in progress: ``game`` is the engine :class:`~badacey_fast.game.Game` in chance mode (read
    only: an applied action works on a copy, states share Games)."""

    def __init__(self, game: BadaceyGame) -> None:
        super().__init__(game)
        self._h = game._start  # the only attribute: OpenSpiel's clone deep-copies each one

    @property
    def game(self) -> Game:
        """The engine state (do not change it: other states may share it).  With ``deal="set"``, while
        the deal is in progress, the engine has no card yet: :attr:`hands_chosen` has the hands."""
        return self._h.game

    @property
    def hands_chosen(self) -> tuple[tuple[int, ...], ...]:
        """With ``deal="set"``, while the deal is in progress: the hands chosen so far, seat by seat from
        the left of the button; empty otherwise."""
        return self._h.pending or ()

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
        return self._h.outcomes()[0]

    def _apply_action(self, action: int) -> None:
        self._h = self._h.after(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            sets = self._h.rules.sets
            return f"deal {format_cards([action] if sets is None else sets.cards(int(action)))}"
        if action < N_BETTING:
            return ("fold", "check/call", "bet/raise")[action]
        return f"draw mask {action - N_BETTING:0{self._h.rules.hand_size}b}"

    def is_terminal(self) -> bool:
        return self._h.player == _TERMINAL

    def returns(self) -> list[float]:
        h = self._h
        g = h.game
        if h.player != _TERMINAL:
            return [0.0] * g.n
        inv = h.rules.inv
        return [w * inv for w in g.winnings]

    def __str__(self) -> str:
        g = self._h.game
        pending = f" chosen {[format_cards(h) for h in self._h.pending]}" if self._h.pending else ""
        return f"{g!r} hands {[format_cards(h) for h in g.hands]} log {g.log}{pending}"


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


def _defaults(preset: str) -> dict[str, Any]:
    """Every parameter of a preset's game with its default (``stack`` 200: 100 big blinds of 2)."""
    return {"players": 2, "stack": 200, "button": 0, "cap": 4, "ranks": 13, "suits": 4,
            "hand_size": scoring(preset).hand_size, "draws": 3, "deal": "card"}


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
        parameter_specification=_defaults(preset))


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
