"""Betting rounds of a hand, mixed into :class:`~badacey_fast.game.state.Game`: who acts next, when a
round ends (then the draw, or the showdown), and paying the pot.

The hot betting mutation itself stays inline in :meth:`Game.apply` and the legal set in
:meth:`Game.legal_actions` (state.py); the rule of each action, with its refusal's wording, in
:mod:`~badacey_fast.game.verify`.  The shared pieces they use live here: the interned actions (one
object per legal shape, so a bot's choice is found by identity) and the prebuilt clockwise seat orders.
The mixin holds no state of its own (empty ``__slots__``).

>>> from badacey_fast.game import Game
>>> g = Game(stacks=[30, 30, 30], seed=1).apply("call").apply("call").apply("check")
>>> g.phase, g.to_act                               # the round is over: the draw starts left of the button
('drawing', 1)
>>> g.apply("call")
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: seat 1 must draw now (discard 0 to 5 cards), not call
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from badacey_fast.game.actions import BET, CALL, CHECK, FOLD, RAISE, Action
from badacey_fast.rules.stub import UNKNOWN

if TYPE_CHECKING:  # the typed view of the slots the mixin shares with Game (object at run time)
    from badacey_fast.game.fields import GameFields as _Fields
    from badacey_fast.pots import Settlement
else:
    _Fields = object

__all__ = ["GameBetting", "BETTING", "DRAWING", "COMPLETE", "CHANCE", "FOLD_ACTION", "CHECK_ACTION", "call_action",
           "raise_action", "legal_set", "SEATS_AFTER", "OTHER_SEATS"]

BETTING, DRAWING, COMPLETE = "betting", "drawing", "complete"
CHANCE = "chance"  # chance mode (Game(chance=True)): a card is owed, the caller resolves it

_new = tuple.__new__
FOLD_ACTION = _new(Action, (FOLD, None, None))
CHECK_ACTION = _new(Action, (CHECK, None, None))
_CALLS: dict[int, Action] = {}
_BETS: dict[tuple[str, int], Action] = {}


def call_action(amount: int) -> Action:
    a = _CALLS.get(amount)
    if a is None:
        if len(_CALLS) > 4096:  # bounded: odd all-in amounts must not grow it forever
            _CALLS.clear()
        a = _CALLS[amount] = _new(Action, (CALL, amount, None))
    return a


def raise_action(kind: str, to: int) -> Action:
    a = _BETS.get((kind, to))
    if a is None:
        if len(_BETS) > 4096:
            _BETS.clear()
        a = _BETS[(kind, to)] = _new(Action, (kind, to, None))
    return a


_DRAW_ORDERS: dict[tuple[int, int], list[int]] = {}  # (seats, button) -> seats clockwise, reversed
#: Seat orders prebuilt per table size n (2..6), so the hot loops need no modulo arithmetic:
#: ``SEATS_AFTER[n][i]``: every seat clockwise after seat i, ending with i; ``OTHER_SEATS[n][i]``: the same
#: without i.
SEATS_AFTER = [tuple(tuple((i + k) % n for k in range(1, n + 1)) for i in range(n)) for n in range(7)]
OTHER_SEATS = [tuple(order[:-1] for order in after) for after in SEATS_AFTER]
_SETTLE: list[Callable[..., Settlement]] = []  # [badacey_fast.pots.settle] once the first showdown imported it


def legal_set(call: int, target: int, raising: bool) -> tuple[Action, ...]:
    acts = [FOLD_ACTION, call_action(call)] if call > 0 else [CHECK_ACTION]
    if target:
        acts.append(raise_action(RAISE if raising else BET, target))
    return tuple(acts)


class GameBetting(_Fields):
    """Betting rounds and the end of a hand of a :class:`~badacey_fast.game.state.Game`."""

    __slots__: tuple[str, ...] = ()  # no state of its own: Game's slots hold it

    def _start_round(self, street: int) -> None:
        n, stacks, folded = self.n, self.stacks, self.folded
        self.street = street
        self.phase = BETTING
        self.bet_size = self.config.small_bet if street < 2 else self.config.big_bet
        low = min(stacks)
        if self.nlive == n:  # nobody folded (always so before the first draw): chips decide alone
            if low:  # every seat has chips (the usual deal): no scan, no sum
                active = [True] * n
                nactive = n
            else:
                active = [s > 0 for s in stacks]
                nactive = sum(active)
        else:
            active = [not folded[i] and stacks[i] > 0 for i in range(n)]
            nactive = sum(active)
        self.nactive = nactive
        # Chips a seat can have in this round (stack + bet so far) only move from stack to bet, so the
        # smallest stack with chips bounds them all from below for the whole round: while the bet is
        # under it, every seat with chips could call a raise (legal_actions skips verify's _raise_callable).
        self._tmin = low if low else min([s for s in stacks if s], default=0)
        self.pending = active
        self.can_raise = active[:]
        if street == 0 and self.bb_seat >= 0:
            self.level = self.full_level = self.config.big_blind
            self.nbets = 1
            first = self.bb_seat + 1
        else:
            self.sbet = [0] * n
            self.level = self.full_level = self.nbets = 0
            first = self.button + 1
        if nactive > 1:  # the usual round: the first active seat from ``first`` on acts (_next_actor, inlined)
            for j in SEATS_AFTER[n][first - 1]:
                if active[j]:
                    self.to_act = j
                    return
        self._next_actor(first % n)

    def _next_actor(self, start: int) -> None:
        """Find who acts next from ``start`` on; end the round when nobody needs to act."""
        pending = self.pending
        alone = self.nactive <= 1
        for j in SEATS_AFTER[self.n][start - 1]:  # start first, clockwise (index -1 is the last seat)
            if pending[j]:
                if alone and self.sbet[j] >= self.level:
                    pending[j] = False  # alone with chips and nothing to call: nothing to decide
                    continue
                self.to_act = j
                return
        self._end_round()

    def _end_round(self) -> None:
        if self.street < self.config.draws:
            self.phase = DRAWING
            n, b, folded = self.n, self.button, self.folded
            order = _DRAW_ORDERS.get((n, b))
            if order is None:  # the button's seat ring, last drawer first (the queue pops from its end)
                order = _DRAW_ORDERS[(n, b)] = [(b + k) % n for k in range(n, 0, -1)]
            self.draw_queue = [s for s in order if not folded[s]]
            self.discard_counts.append([-1] * n)
            if self.config.burn:
                self._burn()
            self.to_act = self.draw_queue.pop()
        else:
            self._finish()

    def _finish(self) -> None:
        n, contrib, stacks = self.n, self.contrib, self.stacks
        # Uncalled chips go back to their owner before anything is settled.
        ranked = sorted(contrib)
        top, second = ranked[-1], ranked[-2]
        owner = contrib.index(top)
        if top > second:
            back = top - second
            contrib[owner] -= back
            stacks[owner] += back
            self.returned[owner] = back
        folded = self.folded
        if self.nlive == 1:
            winner = folded.index(False)
            payouts = [0] * n
            payouts[winner] = won = sum(contrib)
            stacks[winner] += won
        else:
            if not _SETTLE:  # lazy, once: the showdown module sits above the engine's imports
                from badacey_fast.pots.settlement import settle

                _SETTLE.append(settle)
            hands = [None if folded[j] else tuple(self.hands[j]) for j in range(n)]
            if self._stub.has_unknown and max([max(h) for h in hands if h is not None]) >= UNKNOWN:
                # A replayed real hand whose showdown holds a card nobody saw (rules/stub.py): nothing can
                # be judged, so the hand ends with the pots built but unpaid (payouts None); the caller
                # awards them (badacey_fast.histories compares the room's award with the rules).
                self.payouts = None
                self.phase = COMPLETE
                self.to_act = -1
                self.pending = [False] * n
                return
            cfg = self.config
            self.settlement = _SETTLE[0](contrib, hands, button=self.button, game=cfg.scoring,
                                         odd_chip=cfg.odd_chip)
            payouts = list(self.settlement.payouts)
            for j in range(n):
                stacks[j] += payouts[j]
        self.payouts = payouts
        self.phase = COMPLETE
        self.to_act = -1
        self.pending = [False] * n
