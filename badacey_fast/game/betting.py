"""Betting rounds of a hand, mixed into :class:`~badacey_fast.game.state.Game`: who acts next, when a
round ends (then the draw, or the showdown), and paying the pot.

The hot betting mutation stays in :meth:`Game.apply` and the legal set in :meth:`Game.legal_actions`
(state.py); the rule of each action, with its refusal's wording, in :mod:`~badacey_fast.game.verify`.  The
shared pieces they use live here: the interned actions (one object per legal shape, so a bot's choice is
found by identity), the prebuilt clockwise seat orders, and the chips' rules that the hand-history
replay's ledger (histories/engine.py, a Game's betting on chips alone) follows as well: :func:`put_in`
(a call, bet or raise) and :func:`round_seats` (who may act in a new round).  The mixin holds no state of
its own (empty ``__slots__``).

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
from typing import TYPE_CHECKING, Protocol

from badacey_fast.game.actions import BET, CALL, CHECK, FOLD, RAISE, Action
from badacey_fast.rules.stub import UNKNOWN

if TYPE_CHECKING:  # the typed view of the slots the mixin shares with Game (object at run time)
    from badacey_fast.game.fields import GameFields as _Fields
    from badacey_fast.pots import Settlement
else:
    _Fields = object

__all__ = ["GameBetting", "BETTING", "DRAWING", "COMPLETE", "CHANCE", "FOLD_ACTION", "CHECK_ACTION", "call_action",
           "raise_action", "legal_set", "SEATS_AFTER", "OTHER_SEATS", "BettingChips", "put_in", "round_seats"]

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


class BettingChips(Protocol):
    """The betting fields :func:`put_in` reads and writes, by the names :class:`~badacey_fast.game.Game`
    gives them (the replay's ledger uses the same names)."""

    n: int  #: seats
    stacks: list[int]  #: chips behind, per seat
    sbet: list[int]  #: chips bet in this betting round, per seat
    contrib: list[int]  #: chips put in this hand, per seat
    folded: list[bool]
    pending: list[bool]  #: seats that must still act in this round
    can_raise: list[bool]  #: seats the betting is open to (a short all-in raise does not reopen it)
    nactive: int  #: seats neither folded nor all in
    level: int  #: the bet to match in this round (chips)
    full_level: int  #: the last full bet or raise's level (chips)
    nbets: int  #: bets and full raises in this round, counted to the cap
    bet_size: int  #: this round's fixed bet (chips)


def put_in(t: BettingChips, i: int, kind: str, amount: int) -> None:
    """Seat ``i`` calls ``amount`` chips (``kind`` ``"call"``), or bets or raises to ``amount`` chips in all
    this round (``"bet"``, ``"raise"``): the chips go from its stack to its round's bet and the hand's
    contributions; a bet above the level becomes the level, and a full raise (or an all-in of at least half
    a bet) reopens the betting to every other seat with chips and counts to the cap, while a short all-in
    raise only makes the seats under it act again (RULES.md §4).  The caller has validated the action
    and does the rest (the seat's own ``pending``, who acts next).

    One home for the rule: :meth:`Game.apply <badacey_fast.game.state.Game.apply>` and the replay's ledger
    both call it.  The call's price in the engine, with :func:`round_seats`'s: 1.0-1.3 % of a simulated
    hand's instructions (6-max random hands, ``bench/pettingzoo_speed.py --only bare --seats 6`` under
    callgrind, two setups: 635,836 -> 641,857 and 620,077 -> 627,827 a hand; about 10 calls, bets and raises
    a hand and 3 rounds).

    >>> from types import SimpleNamespace
    >>> t = SimpleNamespace(n=3, stacks=[30, 29, 28], sbet=[0, 1, 2], contrib=[0, 1, 2], folded=[False] * 3,
    ...                     pending=[False, True, True], can_raise=[False, True, True], nactive=3, level=2,
    ...                     full_level=2, nbets=1, bet_size=2)
    >>> put_in(t, 0, "raise", 4)  # seat 0 raises to 4 chips: a full raise
    >>> t.stacks, t.sbet, t.contrib, t.level, t.nbets, t.pending, t.can_raise
    ([26, 29, 28], [4, 1, 2], [4, 1, 2], 4, 2, [False, True, True], [False, True, True])
    >>> put_in(t, 1, "call", 3)  # seat 1 calls 3 chips: the level stays
    >>> t.stacks[1], t.sbet[1], t.level
    (26, 4, 4)
    """
    stacks, sbet = t.stacks, t.sbet
    pay = amount if kind == CALL else amount - sbet[i]
    stacks[i] -= pay
    sbet[i] += pay
    t.contrib[i] += pay
    if stacks[i] == 0:
        t.nactive -= 1
    new = sbet[i]
    if new > t.level:
        folded, pending = t.folded, t.pending
        if (new - t.full_level) * 2 >= t.bet_size:
            # A full raise (or an all-in of at least half a bet): reopens and counts to the cap.
            t.nbets += 1
            t.full_level = new
            can_raise = t.can_raise
            for j in OTHER_SEATS[t.n][i]:  # one pass: every other seat with chips may raise again...
                if not folded[j] and stacks[j] > 0:
                    can_raise[j] = True
                    if sbet[j] < new:  # ...and must act again if it is now short
                        pending[j] = True
        else:
            for j in OTHER_SEATS[t.n][i]:
                if not folded[j] and stacks[j] > 0 and sbet[j] < new:
                    pending[j] = True
        t.level = new


def round_seats(stacks: list[int], folded: list[bool], nlive: int) -> tuple[list[bool], int, int]:
    """Who may act in a new betting round: ``(active, nactive, tmin)``, the seats neither folded nor all in
    (a list per seat), how many, and the smallest stack with chips (0 when none has any), given the chips
    behind, the folds and the seats not folded (``nlive``).

    Chips a seat can have in a round (stack + bet so far) only move from stack to bet, so ``tmin`` bounds
    them all from below for the whole round: while the bet is under it, every seat with chips could call a
    raise (:meth:`Game.legal_actions <badacey_fast.game.state.Game.legal_actions>` skips verify's
    ``raise_callable`` scan; the replay's ledger likewise).

    >>> round_seats([10, 0, 7], [False, False, True], 2)  # seat 1 all in, seat 2 folded
    ([True, False, False], 1, 7)
    >>> round_seats([10, 12, 7], [False] * 3, 3)
    ([True, True, True], 3, 7)
    """
    n = len(stacks)
    low = min(stacks)
    if nlive == n and low:  # nobody folded and every seat has chips (the usual deal): no scan, no sum
        return [True] * n, n, low
    active = [not folded[i] and stacks[i] > 0 for i in range(n)]
    return active, sum(active), low if low else min([s for s in stacks if s], default=0)


class GameBetting(_Fields):
    """Betting rounds and the end of a hand of a :class:`~badacey_fast.game.state.Game`."""

    __slots__: tuple[str, ...] = ()  # no state of its own: Game's slots hold it

    def _start_round(self, street: int) -> None:
        n, stacks, folded = self.n, self.stacks, self.folded
        self.street = street
        self.phase = BETTING
        self.bet_size = self.config.small_bet if street < 2 else self.config.big_bet
        active, nactive, self._tmin = round_seats(stacks, folded, self.nlive)
        self.nactive = nactive
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
