"""Dealing and drawing, mixed into :class:`~badacey_fast.game.state.Game`: the stub (a lazy Fisher-Yates
shuffle, a given deck dealt from the top, or a scripted replay), burn cards, reshuffles of the muck, and
serving a seat's discards (checked by :func:`badacey_fast.game.verify.verify_draw`).

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

from collections.abc import Sequence

from badacey_fast.cards import format_cards
from badacey_fast.errors import IllegalActionError
from badacey_fast.game.actions import Action

__all__ = ["GameDealing"]


class GameDealing:
    """The stub, the deal, burns, reshuffles and draws of a :class:`~badacey_fast.game.state.Game`."""

    __slots__ = ()

    def _card(self) -> int:
        stub = self.stub
        script = self._script
        if script is not None and self._spos < len(script):
            c = script[self._spos]
            try:
                i = stub.index(c)
            except ValueError:
                raise IllegalActionError(f"scripted card {format_cards([c])} is not in the stub") from None
            self._spos += 1
        elif self._deckmode:
            c = stub.pop()
            self.dealt.append(c)
            return c
        else:
            i = int(self._rnd() * len(stub))
            c = stub[i]
        stub[i] = stub[-1]
        stub.pop()
        self.dealt.append(c)
        return c

    def _deal_hands(self) -> None:
        n, b, hands = self.n, self.button, self.hands
        if self._deckmode:
            # One card at a time from the top: the seat p places left of the button gets cards
            # p, p + n, p + 2n, ... of the top, i.e. one slice per seat.
            stub = self.stub
            m = n * self.config.hand_size
            top = stub[:-m - 1:-1]
            for p in range(n):
                hands[(b + 1 + p) % n] = top[p::n]
            del stub[-m:]
            self.dealt = top
            return
        order = [(b + k) % n for k in range(1, n + 1)] * self.config.hand_size
        if self._script is not None:
            card = self._card
            for seat in order:
                hands[seat].append(card())
            return
        # The hot path of every simulated hand: a partial Fisher-Yates shuffle moving each dealt card to
        # the tail of the stub, one card at a time in dealing order (same distribution as shuffling first).
        stub, rnd = self.stub, self._rnd
        m = 52
        for seat in order:
            i = int(rnd() * m)
            m -= 1
            c = stub[i]
            stub[i] = stub[m]
            stub[m] = c
            hands[seat].append(c)
        dealt = stub[m:]
        dealt.reverse()
        self.dealt = dealt
        del stub[m:]
    def _burn(self) -> None:
        if len(self.stub) <= 1:
            self._reshuffle_for(())
        c = self._card()
        self.burned.append(c)
        self.muck.append(c)

    def _reshuffle_for(self, held_aside: Sequence[int]) -> None:
        # ``held_aside``: the served seat's discards.  They are not in the muck yet (they join it after
        # the seat is served), which is exactly how they stay out of the new stub.
        stub = self.stub
        stub.extend(self.muck)
        self.muck = []
        self.reshuffles.append(len(self.dealt))
        self._deckmode = False  # a given deck's order ends here; the new stub is dealt in random order
        if len(stub) <= 1:
            raise IllegalActionError("the deck ran out: no cards left to complete the draw")

    def _check_script(self, k: int) -> None:
        """Refuse, before anything changes, a scripted replay whose next ``k`` cards (reshuffling as
        _serve would) are not all in the stub: a tampered history must not leave a half-served draw."""
        script, pos = self._script, self._spos
        stub, muck = set(self.stub), self.muck  # the served seat's discards join the muck only afterwards
        for _ in range(k):
            if len(stub) <= 1:
                stub.update(muck)
                muck = ()
            if pos >= len(script):  # the script is over: the rest is dealt at random
                return
            c = script[pos]
            if c not in stub:
                raise IllegalActionError(f"scripted card {format_cards([c])} is not in the stub")
            stub.discard(c)
            pos += 1

    def _serve(self, i: int, action: Action, cards: tuple[int, ...], hand: list[int]) -> None:
        """Mutate for a validated draw: deal the replacements (reshuffling if needed), then move on."""
        if self._script is not None:
            self._check_script(len(cards))
        self._legal = None
        self.log.append((i, action))
        self.hands[i] = hand
        stub = self.stub
        k = len(cards)
        if self._deckmode and len(stub) > k:
            if k:
                new = stub[:-k - 1:-1]  # the top k cards, in order
                del stub[-k:]
                self.dealt += new
                hand += new
        elif self._script is None and len(stub) > k:
            # The common case, inlined: random deck, no reshuffle.  Each card drawn uniformly from the
            # stub is swapped to its tail; the k tail cards are then dealt in order in one slice.
            rnd = self._rnd
            m = len(stub)
            for _ in cards:
                j = int(rnd() * m)
                m -= 1
                c = stub[j]
                stub[j] = stub[m]
                stub[m] = c
            new = stub[:m - 1:-1] if k else []
            del stub[m:]
            self.dealt += new
            hand += new
        else:
            for _ in cards:
                if len(stub) <= 1:
                    self._reshuffle_for(cards)
                hand.append(self._card())
        self.muck.extend(cards)
        self.discard_counts[-1][i] = k
        if self.draw_queue:
            self.to_act = self.draw_queue.pop()
        else:
            self._start_round(self.street + 1)
