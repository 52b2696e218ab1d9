"""The kinds of event a hand history holds, in poker's words (one module with no imports, which every
part of :mod:`badacey_fast.histories` reads; :mod:`.model` re-exports them).

>>> DRAW in PUT_IN, CALL in BETS, "fixed" in BETTINGS
(False, True, True)
"""

from __future__ import annotations

__all__ = [
    "ANTE", "SMALL_BLIND", "BIG_BLIND", "POST", "DEAD", "FOLD", "CHECK", "CALL", "BET", "RAISE", "DRAW",
    "SHOW", "MUCK", "UNCALLED", "COLLECT", "RESHUFFLE", "POSTS", "BETS", "PUT_IN", "BETTINGS",
]

# Event kinds, in poker's words.
ANTE = "ante"
SMALL_BLIND = "small blind"
BIG_BLIND = "big blind"
POST = "post"  #: a live big blind posted out of turn (a player joining the table)
DEAD = "dead blind"  #: chips posted dead: in the pot, not part of the poster's bet
FOLD = "fold"
CHECK = "check"
CALL = "call"
BET = "bet"
RAISE = "raise"
DRAW = "draw"  #: ``drawn`` cards thrown and received (0: stand pat), ``cards`` the discards and ``new`` the new cards where shown
SHOW = "show"  #: ``cards`` shown
MUCK = "muck"  #: ``cards`` where the room revealed them anyway
UNCALLED = "uncalled"  #: ``amount`` of an uncalled bet returned to the player
COLLECT = "collect"  #: ``amount`` won from the pot named by ``pot`` ("main", "side 1", ...; "" for the only pot)
RESHUFFLE = "reshuffle"  #: the room says it reshuffled the deck (player "")

POSTS = frozenset({ANTE, SMALL_BLIND, BIG_BLIND, POST, DEAD})
BETS = frozenset({CALL, BET, RAISE})
#: Every kind whose ``amount`` the player put into the pot.
PUT_IN = POSTS | BETS

#: The betting structures: fixed limit, pot limit, half-pot limit, no limit.
BETTINGS = ("fixed", "pot", "half-pot", "no")
