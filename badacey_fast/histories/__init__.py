"""Real hands: draw-game hand histories from real poker rooms, read, replayed in the rules engine and
checked against what the room paid (the layer above :mod:`badacey_fast.game`).

- :func:`parse` reads files, folders, globs, text or file objects and yields one :class:`RealHand` per hand
  (PokerStars, Full Tilt, Winamax, KingsClub, Merge, OnGame, Boss; the room found hand by hand);
- :meth:`RealHand.replay` plays a fixed-limit hand of one of our games in :class:`badacey_fast.game.Game`,
  cards nobody saw as :data:`badacey_fast.game.UNKNOWN`; :func:`check` compares the rules' settlement with
  the room's, hand by hand, with the reason of every difference;
- :meth:`RealHand.to_json`, :meth:`RealHand.to_phh`; :func:`to_table` (pyarrow or pandas, one row per hand
  per player) and :func:`stats` (per player and game, pandas).

>>> from badacey_fast.histories import parse
>>> from badacey_fast.histories.model import EXAMPLE
>>> hand = next(parse(EXAMPLE))
>>> hand.site, hand.game, hand.players, hand.check().status
('PokerStars', 'badugi', ['Hero', 'Villain'], 'agree')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from badacey_fast.histories.model import Event, RealHand, Seat
from badacey_fast.errors import HistoryWarning, ReplayError
from badacey_fast.histories.reader import parse

if TYPE_CHECKING:
    from badacey_fast.histories.audit import Check, Disagreement, check
    from badacey_fast.histories.engine import Replay, replay
    from badacey_fast.histories.table import stats, to_table

__all__ = ["parse", "RealHand", "Seat", "Event", "HistoryWarning", "check", "Check", "Disagreement", "replay",
           "Replay", "ReplayError", "to_table", "stats"]

# The replay (the engine), the check and the tables load on first use: reading hands needs none of them.
_LAZY = {
    "check": "badacey_fast.histories.audit", "Check": "badacey_fast.histories.audit",
    "Disagreement": "badacey_fast.histories.audit",
    "replay": "badacey_fast.histories.engine", "Replay": "badacey_fast.histories.engine",
    "to_table": "badacey_fast.histories.table", "stats": "badacey_fast.histories.table",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'badacey_fast.histories' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
