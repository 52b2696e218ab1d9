"""Bots: a bot is any callable ``bot(view) -> Action`` given the :class:`SeatView` of the seat to act.

Two built-ins:

- :class:`RandomBot` — a uniformly random legal action; when drawing, a uniformly random subset of its
  cards (each card discarded with probability 1/2).
- :class:`RuleBot` — a rule-of-thumb player: keeps its best badugi cards and its distinct low cards
  (8 or lower), draws the rest; bets and raises made hands, calls with one card to come early, and
  gives up weak draws when facing a bet late.

A bot with a ``reseed(seed)`` method is reseeded by :func:`~badacey_fast.game.simulate.simulate` so
that simulations are reproducible.

>>> from badacey_fast.game import Game
>>> g = Game(stacks=[20, 20], seed=1)
>>> RandomBot(seed=3)(g.view(g.to_act)) in g.legal_actions()
True
>>> RandomBot(seed=3)(g.view(1 - g.to_act))
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: seat 1 has no legal action: it is seat 0's turn
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import random
import sys
import zlib
from collections.abc import Callable, Sequence
from math import floor
from operator import itemgetter

from badacey_fast.errors import ConfigError, IllegalActionError
from badacey_fast.draw.policy import keep_cards
from badacey_fast.game.actions import BET, CALL, CHECK, DRAW, FOLD, RAISE, Action
from badacey_fast.game.view import SeatView

__all__ = ["RandomBot", "RuleBot", "rule_betting", "RULE_FLOAT", "random_bot", "rule_bot", "BOTS", "SUBSETS", "keep_cards", "load_bot",
           "load_bots"]

_new = tuple.__new__


def _no_action(view: SeatView) -> IllegalActionError:
    return IllegalActionError(f"seat {view.seat} has no legal action: it is seat {view.to_act}'s turn")


def _picker(idx: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    if not idx:
        return lambda hand: ()
    if len(idx) == 1:
        (i,) = idx
        return lambda hand: (hand[i],)
    return itemgetter(*idx)


#: For a hand of k cards (1 to 5), the 2**k subsets as pickers indexed by a bit mask (bit j = discard card j):
#: RandomBot's random discards and the environments' draw actions (badacey_fast.envs.encoding.decode).
SUBSETS = {k: [_picker(tuple(j for j in range(k) if mask >> j & 1)) for mask in range(1 << k)]
           for k in range(1, 6)}


class RandomBot:
    """Uniformly random legal actions (random discards when drawing), from its own seeded RNG."""

    __slots__ = ("_rnd", "_bits")
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the bot's random stream from ``seed``."""
        rng = random.Random(seed)
        self._rnd = rng.random
        self._bits = rng.getrandbits

    def __call__(self, view: SeatView) -> Action:
        g = view._g  # the view's own game: skip one indirection on the simulation hot path
        acts = g.legal_actions() if g.to_act == view.seat else ()
        if not acts:
            raise _no_action(view)
        a = acts[floor(self._rnd() * len(acts))]  # floor, not int: the same index, a cheaper call (rules/stub.py)
        if a[0] == DRAW:
            # A uniformly random subset: one random bit per card held.
            hand = a[2] or ()  # (the draw action offered always holds the hand)
            return _new(Action, (DRAW, None, SUBSETS[len(hand)][self._bits(len(hand))](hand)))
        return a


#: How often the rule-of-thumb bot calls instead of folding a weak draw facing a bet.
RULE_FLOAT = 0.1


def rule_betting(missing: int, draws_left: int) -> str:
    """The rule-of-thumb bot's betting, by the cards its hand still wants (``missing``, 0..hand size) and
    the draws left (0..3): ``"aggressive"`` (bet or raise when it may, else check or call), ``"passive"``
    (check or call), or ``"weak"`` (check when it may, else fold -- calling a fraction :data:`RULE_FLOAT`
    of the time).  The one home of the rule: :class:`RuleBot` plays it, the solver reads it.

    >>> rule_betting(0, 0), rule_betting(1, 2), rule_betting(2, 1)
    ('aggressive', 'aggressive', 'weak')
    """
    if missing == 0 or (missing == 1 and draws_left >= 2):
        return "aggressive"
    if missing == 1 or (missing == 2 and draws_left == 3):
        return "passive"
    return "weak"


class RuleBot:
    """Rule of thumb: draw to the best badugi and low cards; bet made hands; fold weak draws late."""

    __slots__ = ("_rnd", "_memo")
    name = "rule"

    def __init__(self, seed: int | None = None) -> None:
        self._memo: dict[tuple[str, tuple[int, ...]], tuple[tuple[int, ...], int]] = {}
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the bot's random stream (used to mix in an occasional bluff) from ``seed``."""
        self._rnd = random.Random(seed).random

    def _plan(self, game: str, hand: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        """(the discards, how many cards the hand still wants) of ``hand``: asked at every decision of a
        hand about the same few holdings, so kept per bot (a bounded memo)."""
        key = (game, hand)
        found = self._memo.get(key)
        if found is None:
            keep = keep_cards(hand, game)
            found = (tuple(c for c in hand if c not in keep), len(hand) - len(keep))
            if len(self._memo) >= 4096:
                self._memo.clear()
            self._memo[key] = found
        return found

    def __call__(self, view: SeatView) -> Action:
        g = view._g  # the view's own game: skip one indirection on the simulation hot path
        acts = g.legal_actions() if g.to_act == view.seat else ()
        if not acts:
            raise _no_action(view)
        config = g.config
        discards, missing = self._plan(config.game, tuple(g.hands[view.seat]))
        first = acts[0]
        if first[0] == DRAW:
            return _new(Action, (DRAW, None, discards))
        # legal_actions' order: fold (facing a bet), check or call, then bet or raise when allowed.
        last = acts[-1]
        aggressive = last if last[0] == RAISE or last[0] == BET else None
        passive = acts[1] if first[0] == FOLD else first  # the check or the call
        how = rule_betting(missing, config.draws - g.street)  # draws left: 3 in the full game
        if how == "aggressive":
            return aggressive if aggressive is not None else passive
        if how == "passive" or passive[0] == CHECK:
            return passive
        if self._rnd() < RULE_FLOAT:  # an occasional float keeps the bot from being exploited by pure aggression
            return passive
        return first  # the fold


random_bot = RandomBot()
rule_bot = RuleBot()

#: Built-in bots by name (classes: each seat gets its own instance).
BOTS: dict[str, type[RandomBot | RuleBot]] = {"random": RandomBot, "rule": RuleBot}


def load_bot(spec: str) -> Callable[[SeatView], Action]:
    """One bot from its name as a user types it: a built-in (``"random"``, ``"rule"``: a new instance), or
    a plugin ``"module:Name"`` (``module`` imported by name, as ``import`` would find it) or
    ``"path/to/file.py:Name"`` (the file loaded as a module).  ``Name`` is a class, called with no
    arguments for a new bot, or any other object with the bot protocol: a callable ``bot(view) ->
    Action`` (a ``name`` attribute names it in results; a ``reseed(seed)`` method makes it reproducible).
    A plugin plays on the Python hand loop (the C loop knows only the built-ins).

    >>> type(load_bot("rule")).__name__, load_bot("random").name
    ('RuleBot', 'random')
    >>> load_bot("badacey_fast.game.bots:RandomBot").name
    'random'
    >>> load_bot("shark")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: unknown bot 'shark': expected random, rule, or a plugin module:Class (or path/to/file.py:Class)
    >>> load_bot("badacey_fast.game.bots:SUBSETS")
    Traceback (most recent call last):
    ...
    TypeError: 'badacey_fast.game.bots:SUBSETS' is not a bot: a bot is a callable bot(view) -> Action, and SUBSETS gives a dict that is not callable
    """
    if not isinstance(spec, str):
        raise TypeError(f"a bot is named by a str, not {type(spec).__name__}")
    name = spec.strip()
    if name.lower() in BOTS:
        return BOTS[name.lower()]()
    where, colon, attr = name.rpartition(":")
    if not colon or not where or not attr:
        raise ConfigError(f"unknown bot {name!r}: expected {', '.join(BOTS)}, or a plugin module:Class "
                          "(or path/to/file.py:Class)")
    try:
        if where.endswith(".py") or os.sep in where or (os.altsep and os.altsep in where):
            module = _module_from_file(where, name)
        else:
            module = importlib.import_module(where)
    except ModuleNotFoundError as exc:
        raise ConfigError(f"cannot load the bot {name!r}: no module named {exc.name or where!r} "
                          "(a module on the Python path, or path/to/file.py:Class)") from None
    except ConfigError:
        raise
    except Exception as exc:  # the plugin's own code failed as it was imported: one line, not its traceback
        raise ConfigError(f"cannot load the bot {name!r}: importing {where!r} failed: {type(exc).__name__}: "
                          f"{exc}") from None
    try:
        obj = getattr(module, attr)
    except AttributeError:
        raise ConfigError(f"cannot load the bot {name!r}: module {where!r} has no {attr!r}") from None
    if inspect.isclass(obj):
        try:
            obj = obj()
        except TypeError as exc:
            raise TypeError(f"cannot make the bot {name!r}: {attr}() failed ({exc}): a plugin class is called "
                            "with no arguments") from None
    if not callable(obj):
        raise TypeError(f"{name!r} is not a bot: a bot is a callable bot(view) -> Action, and {attr} gives a "
                        f"{type(obj).__name__} that is not callable")
    if not _takes_one(obj):
        raise TypeError(f"{name!r} is not a bot: a bot is a callable bot(view) -> Action, and {attr} cannot be "
                        "called with one argument (the view)")
    bot: Callable[[SeatView], Action] = obj
    return bot


def _takes_one(call: Callable[..., object]) -> bool:
    """Whether ``call`` can be called with one positional argument (the view)."""
    try:
        inspect.signature(call).bind(None)
    except TypeError:
        return False
    except ValueError:  # no signature to read (a builtin): let it be tried
        return True
    return True


def _module_from_file(path: str, spec: str) -> object:
    if not os.path.isfile(path):
        raise ConfigError(f"cannot load the bot {spec!r}: no file {path!r}")
    # A name of its own per file, registered like an imported module (so its classes pickle by name).
    stem = os.path.splitext(os.path.basename(path))[0]
    key = f"badacey_plugin_{stem}_{zlib.crc32(os.path.abspath(path).encode()):08x}"
    if key in sys.modules:
        return sys.modules[key]
    found = importlib.util.spec_from_file_location(key, path)
    if found is None or found.loader is None:
        raise ConfigError(f"cannot load the bot {spec!r}: {path!r} is not a Python file")
    module = importlib.util.module_from_spec(found)
    sys.modules[key] = module
    try:
        found.loader.exec_module(module)
    except BaseException:
        del sys.modules[key]
        raise
    return module


def load_bots(spec: str) -> list[Callable[[SeatView], Action]]:
    """Bots, one a seat, from a comma-separated list of names (each as :func:`load_bot` reads it); built-in
    names and plugins mix: ``"rule,random,mybots:Shark"``.

    >>> [b.name for b in load_bots("rule, random,badacey_fast.game.bots:RuleBot")]
    ['rule', 'random', 'rule']
    >>> load_bots(" , ")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: no bots named in ' , '
    """
    names = [x.strip() for x in spec.split(",") if x.strip()]
    if not names:
        raise ConfigError(f"no bots named in {spec!r}")
    return [load_bot(x) for x in names]
