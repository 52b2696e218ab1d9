"""What a real hand history says: :class:`RealHand` -- its data (:class:`~badacey_fast.histories.record.HandRecord`,
its :class:`Seat` list and its :class:`Event` list) and what the engine makes of it (replay, check, export).

Amounts are exact integers in the hand's smallest unit -- cents (``scale=2``) for cash games, chips
(``scale=0``) for tournaments -- never floats; :meth:`RealHand.money` gives a :class:`~decimal.Decimal` for
display.  Cards are the library's ids 0..51 (:mod:`badacey_fast.cards`); a card the text does not show is
``None`` in :attr:`RealHand.holdings`.

Streets: street 0 is the deal and the first betting round; street *k* (1..3) is the *k*-th draw and the
betting round after it.  A draw of 0 cards is standing pat.

>>> from badacey_fast.histories import parse
>>> hand = next(parse(EXAMPLE))
>>> hand.site, hand.hand_id, hand.game, hand.betting, hand.limits, hand.money(hand.collected["Hero"])
('PokerStars', '1', 'badugi', 'fixed', (50, 100), Decimal('1.90'))
>>> [(e.player, e.kind, e.amount) for e in hand.actions[:3]]
[('Hero', 'small blind', 25), ('Villain', 'big blind', 50), ('Hero', 'raise', 75)]
>>> hand.holdings["Hero"]            # after the deal, after each draw; None: not shown (or not reached)
[(3, 6, 11, 12), (3, 6, 11, 16), None, None]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from badacey_fast.histories.kinds import (  # re-exported: the kinds live in .kinds
    ANTE, BET, BETS, BETTINGS, BIG_BLIND, CALL, CHECK, COLLECT, DEAD, DRAW, FOLD, MUCK, POST, POSTS, PUT_IN, RAISE,
    RESHUFFLE, SHOW, SMALL_BLIND, UNCALLED,
)
from badacey_fast.histories.record import EXAMPLE, Event, HandRecord, Seat  # re-exported: the data lives in .record

if TYPE_CHECKING:
    from badacey_fast.game import Game
    from badacey_fast.histories.audit import Check

__all__ = [
    "ANTE", "SMALL_BLIND", "BIG_BLIND", "POST", "DEAD", "FOLD", "CHECK", "CALL", "BET", "RAISE", "DRAW",
    "SHOW", "MUCK", "UNCALLED", "COLLECT", "RESHUFFLE", "POSTS", "BETS", "PUT_IN", "BETTINGS",
    "Seat", "Event", "RealHand", "EXAMPLE",
]


class RealHand(HandRecord):
    """One hand dealt by a real poker room, as its history tells it: the fields and reading methods of
    :class:`~badacey_fast.histories.record.HandRecord` (``site``, ``hand_id``, ``seats``, ``actions``,
    ``holdings``, ``collected``, ``rake``...), and the verbs below, which load the engine on first use
    (reading hands needs none of it).
    """

    __slots__ = ()

    # ------------------------------------------------------------------------------------------ engine
    def replay(self) -> Game:
        """The hand replayed in the rules engine (:func:`badacey_fast.histories.engine.replay`): a finished
        :class:`~badacey_fast.game.Game`, cards nobody saw as :data:`~badacey_fast.game.UNKNOWN`.  Raises
        :class:`~badacey_fast.errors.ReplayError` for a hand the engine does not replay (another
        game, pot limit, cancelled) or an action its rules refuse, with the reason.

        >>> from badacey_fast.histories import parse
        >>> g = next(parse(EXAMPLE)).replay()
        >>> g.is_over, g.contrib, g.payouts             # the engine's pot; the room's rake is the check's
        (True, [100, 100], [200, 0])
        """
        from badacey_fast.histories.engine import replay

        return replay(self, fast=False).game  # the game itself: the engine's path at once

    def check(self) -> Check:
        """The rules' settlement against the room's (:func:`badacey_fast.histories.audit.check`).

        >>> from badacey_fast.histories import parse
        >>> next(parse(EXAMPLE)).check().status
        'agree'
        """
        from badacey_fast.histories.audit import check

        return check(self)

    def to_json(self, indent: int | None = None) -> str:
        """JSON text: every field, and the engine's history of its replay (:mod:`.export`)."""
        from badacey_fast.histories.export import to_json

        return to_json(self, indent)

    def to_phh(self) -> str:
        """PHH text (TOML), unknown cards as ``??`` (:mod:`.export`: the variant codes)."""
        from badacey_fast.histories.export import to_phh

        return to_phh(self)
