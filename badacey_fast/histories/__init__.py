"""Real hands: draw-game hand histories from real poker rooms, read, replayed and checked."""
from __future__ import annotations

from badacey_fast.histories.model import Event, RealHand, Seat
from badacey_fast.histories.reader import HistoryWarning, parse

__all__ = ["parse", "RealHand", "Seat", "Event", "HistoryWarning"]
