"""The rules engine: a complete fixed-limit triple-draw hand (Badacey by default), bots and simulation;
small games for solving (:mod:`badacey_fast.game.small`, RULES.md §6).

>>> from badacey_fast.game import Game
>>> g = Game(stacks=[100, 100], seed=11)
>>> while not g.is_over:
...     _ = g.apply(g.legal_actions()[0] if g.phase == "drawing" else ("check" if g.to_call() == 0 else "call"))
>>> sum(g.stacks)
200
>>> Game("razz")
Traceback (most recent call last):
...
badacey_fast.errors.UnknownGameError: unknown game 'razz': expected one of badacey, badeucy, badugi, a5, 27
"""

from __future__ import annotations

from badacey_fast.game.actions import Action, draw, format_action, parse_action
from badacey_fast.errors import ConfigError
from badacey_fast.game.config import PRESETS, GameConfig
from badacey_fast.game.state import BETTING, COMPLETE, DRAWING, Game
from badacey_fast.game.simulate import PlayedHands, SimulationResult, simulate
from badacey_fast.game.small import SMALL_GAMES, SmallGame, TreeSize, tree_size
from badacey_fast.game.table import Table
from badacey_fast.game.view import SeatView
from badacey_fast.rules.stub import UNKNOWN, is_unknown

__all__ = [
    "Action",
    "draw",
    "format_action",
    "parse_action",
    "PRESETS",
    "ConfigError",
    "GameConfig",
    "Game",
    "SeatView",
    "simulate",
    "PlayedHands",
    "SimulationResult",
    "SMALL_GAMES",
    "SmallGame",
    "TreeSize",
    "tree_size",
    "Table",
    "BETTING",
    "DRAWING",
    "COMPLETE",
    "UNKNOWN",
    "is_unknown",
]
