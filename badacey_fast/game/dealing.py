"""Dealing and drawing, mixed into :class:`~badacey_fast.game.state.Game`.  The cards are held by one
:class:`~badacey_fast.rules.stub.Stub` (``Game._stub``): the stub (a lazy Fisher-Yates shuffle, a given
deck dealt from the top, or a scripted replay), the muck, burn cards and the one reshuffle procedure of
RULES.md §4, the same object :func:`~badacey_fast.draw.equities.policy_equity` deals through.  This mixin
serves a seat's discards (checked by :func:`badacey_fast.game.verify.verify_draw`) through the stub.

Every dealt card is logged in ``dealt`` (reshuffle points in ``reshuffles``) so a hand replays exactly.
The mixin holds no state of its own (empty ``__slots__``).

>>> from badacey_fast.game import Action, Game
>>> g = Game(stacks=[30, 30], seed=1).apply("call").apply("check")
>>> held = g.hands[g.to_act]
>>> g.apply(Action("draw", cards=tuple(held[:2]))).discard_counts
[[-1, 2]]
>>> g.apply(Action("draw", cards=(held[0],)))
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: seat 0 cannot discard ...: it does not hold that card
"""

from __future__ import annotations

from badacey_fast.game.actions import Action

__all__ = ["GameDealing"]

_new = tuple.__new__


class GameDealing:
    """The stub, the deal, burns, reshuffles and draws of a :class:`~badacey_fast.game.state.Game`."""

    __slots__ = ()

    # The stub's lists, read through the Stub (the only place that changes them).
    @property
    def stub(self) -> list[int]:
        """The cards not dealt yet (a list; in a given deck, the next card dealt is its last item)."""
        return self._stub.cards

    @property
    def muck(self) -> list[int]:
        """Every card discarded, folded or burned since the last reshuffle."""
        return self._stub.muck

    @property
    def dealt(self) -> list[int]:
        """Every card dealt this hand in dealing order, burns included (repeats across reshuffles)."""
        return self._stub.dealt

    @property
    def reshuffles(self) -> list[int]:
        """Where each reshuffle happened: the number of cards dealt before it (an index into ``dealt``)."""
        return self._stub.reshuffles

    @property
    def burned(self) -> list[int]:
        """The burn cards (with the ``burn`` option), in order."""
        return self._stub.burned

    # copy() and snapshot() of the query side see the stub as one opaque slot: the stub's part added here.
    def copy(self) -> "GameDealing":
        """An independent copy of this state (lists and the stub copied, the RNG state duplicated)."""
        new = super().copy()
        new._stub = self._stub.copy(new._rng)
        return new

    def snapshot(self) -> tuple:
        """Every piece of state, the stub's included, as a comparable tuple."""
        stub = self._stub
        return tuple(stub.state() if v is stub else v for v in super().snapshot())

    def _deal_hands(self) -> None:
        # One card at a time clockwise, from the seat left of the button.
        n = self.n
        self.hands = self._stub.deal_round(n, self.config.hand_size, (self.button + 1) % n)

    def _burn(self) -> None:
        self._stub.burn()

    def _serve(self, i: int, action: Action, cards: tuple[int, ...], hand: list[int]) -> None:
        """Serve a validated draw: the stub deals the replacements (RULES.md §4) and mucks the discards,
        or refuses with nothing changed (a scripted card not in the stub); then the game moves on."""
        hand += self._stub.draw(cards)
        self._legal = None
        self.log.append((i, action))
        self.hands[i] = hand
        self.discard_counts[-1][i] = len(cards)
        if self.draw_queue:
            self.to_act = self.draw_queue.pop()
        else:
            self._start_round(self.street + 1)
