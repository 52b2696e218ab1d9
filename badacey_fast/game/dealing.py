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

from operator import attrgetter
from typing import TYPE_CHECKING, TypeVar, cast

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import CardOwed, IllegalActionError
from badacey_fast.game.actions import DRAW, Action

if TYPE_CHECKING:  # the typed view of the slots the mixin shares with Game (object at run time)
    from badacey_fast.game.fields import ChanceStep, GameFields
    from badacey_fast.game.fields import GameFields as _Fields
else:
    _Fields = object

__all__ = ["GameDealing"]

_G = TypeVar("_G", bound="GameDealing")

CHANCE = "chance"

_new = tuple.__new__


def _getter(slots: tuple[str, ...],
            _cache: dict[tuple[str, ...], attrgetter[tuple[object, ...]]] = {}) -> attrgetter[tuple[object, ...]]:
    """One attrgetter of every slot of a class (by its __slots__ tuple), made once."""
    get = _cache.get(slots)
    if get is None:
        get = _cache[slots] = attrgetter(*slots)
    return get


class GameDealing(_Fields):
    """The stub, the deal, burns, reshuffles and draws of a :class:`~badacey_fast.game.state.Game`."""

    __slots__: tuple[str, ...] = ()  # no state of its own: Game's slots hold it

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

    # snapshot() of the query side sees the stub as one opaque slot: the stub's part added here.
    def snapshot(self) -> tuple[object, ...]:
        """Every piece of state, the stub's included, as a comparable tuple."""
        stub = self._stub
        return tuple(stub.state() if v is stub else v for v in super().snapshot())

    # ---------------------------------------------------------------------------- chance mode
    # Game(chance=True): the stub's random source is the caller (rules.stub.CALLER).  A dealing step (the
    # initial deal, or an action that deals: a draw, a betting action ending a round with a burn card)
    # is run on a copy; when a card is owed past the cards chosen so far, the stub raises CardOwed with
    # the legal cards, and the state is left as before the step, in the ``chance`` phase, keeping
    # ``_chance = (the state before the step, the step, the legal cards, the cards chosen so far)``.
    # apply_chance(card) runs the step again on a copy of that state, the chosen cards and ``card`` in
    # its stub's script: it completes (the game takes the copy's state), or stops at the next card owed
    # (only ``_chance`` changes).  The stub deals the chosen cards exactly as it deals a replay's (one
    # procedure, RULES.md §4), so ``dealt`` replays it.  While a card is owed the state is frozen: its
    # lists are never changed in place, only whole slots rebound (copy() then shares them).
    @property
    def is_chance(self) -> bool:
        """True while a card is owed in chance mode (``phase == "chance"``): resolve it with
        :meth:`apply_chance`; nobody acts (``to_act`` is -1, ``legal_actions()`` is empty)."""
        return self.phase == CHANCE

    @property
    def chance_cards(self) -> list[int]:
        """The cards chosen so far for the dealing step in progress (while a card is owed: the state
        shows the game before that step; ``dealt`` gets them once the step completes)."""
        chance = self._chance
        if self.phase != CHANCE or chance is None:  # (the chance phase always has its step)
            return []
        return list(chance[3])

    @property
    def cards_owed(self) -> int:
        """The cards the dealing step in progress still owes, 0 unless a card is owed (chance mode): the
        deal's (seats x hand size), a draw's replacements, or a burn card (a betting action ending a
        round), less those chosen so far.

        >>> from badacey_fast.game import Game
        >>> g = Game("badugi", stacks=[10, 10], chance=True)
        >>> g.cards_owed, g.chance_child(5).cards_owed
        (8, 7)
        """
        chance = self._chance
        if self.phase != CHANCE or chance is None:
            return 0
        base, step, _, chosen = chance
        if step is None:
            total = base.n * base.config.hand_size
        else:
            action = step[0]
            total = len(action[2] or ()) if type(action) is Action and action[0] == DRAW else 1
        return total - len(chosen)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards the stub may deal now, each with its probability (uniform: RULES.md §4's stub, the
        muck included after a reshuffle), in card id order; empty unless a card is owed.

        >>> from badacey_fast.game import Game
        >>> g = Game("badugi", stacks=[10, 10], chance=True)
        >>> g.phase, len(g.chance_outcomes()), g.chance_outcomes()[0]
        ('chance', 52, (0, 0.019230769230769232))
        >>> for c in range(8):
        ...     _ = g.apply_chance(c)
        >>> g.phase, g.hands, g.to_act
        ('betting', [[1, 3, 5, 7], [0, 2, 4, 6]], 0)
        """
        chance = self._chance
        if self.phase != CHANCE or chance is None:
            return []
        outcomes = chance[2]
        p = 1.0 / len(outcomes)
        return [(c, p) for c in outcomes]

    def chance_sets(self) -> list[tuple[tuple[int, ...], float]]:
        """Every set of cards the dealing step in progress may deal, with its exact probability (summing
        to 1), each set in an order :meth:`apply_chance` deals it: a draw's replacements as one chance
        event (:meth:`badacey_fast.rules.stub.Stub.draw_sets`, RULES.md §4's reshuffle included), before
        any of its cards is chosen; a burn card or a one-card draw as :meth:`chance_outcomes`' cards.
        Empty unless a card is owed; refused (``IllegalActionError``) for the initial deal, which is
        dealt card by card (OpenSpiel's games deal it seat by seat), and once a draw's first card is chosen.

        >>> from badacey_fast.game import Action, Game, GameConfig
        >>> g = Game(GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=1), [10, 10], chance=True)
        >>> for c in (0, 1, 2, 4):                      # one card at a time: Ac Ah to seat 1, Ad 2c to seat 0
        ...     g = g.chance_child(c)
        >>> g = g.apply("call").apply("check").apply(Action("draw", cards=(0, 2)))   # seat 1 throws both
        >>> sets = g.chance_sets(); len(sets), sets[0], round(sum(p for _, p in sets), 12)
        (10, ((5, 6), 0.1), 1.0)
        """
        chance = self._chance
        if self.phase != CHANCE or chance is None:
            return []
        k = self.cards_owed
        if k == 1:
            return [((c,), p) for c, p in self.chance_outcomes()]
        if chance[1] is None or chance[3]:
            raise IllegalActionError("sets of cards are dealt for a draw's replacements, before any of them is "
                                     "chosen: this step deals card by card")
        # The state shown is the one before the draw (frozen while a card is owed): its stub and muck are
        # those the replacements are dealt from, the drawer's discards not in the muck yet.
        return self._stub.draw_sets(k)

    def apply_chance(self: _G, card: int | str) -> _G:
        """Deal ``card`` (an id or text like ``"7h"``), one of :meth:`chance_outcomes`, and go on: the
        step completes, or stops at the next card owed.  Returns this game, like :meth:`apply`."""
        done, chance = self._deal_chosen(card)
        if done is None:
            self._chance = chance  # the next card owed: only _chance changes (the state stays frozen)
        else:
            self._restore(done)
        return self

    def chance_child(self: _G, card: int | str, *more: int) -> _G:
        """The state after dealing ``card`` as a new game, this one unchanged: ``g.copy().apply_chance(card)``
        without the copy and the restore (searches and OpenSpiel visit every chance node this way).
        ``more``: further card ids of the same dealing step, dealt in order in the same run of the step
        (one of :meth:`chance_sets`' sets: a draw's replacements at once); each must be in the stub when
        it is dealt, and the step must owe them all (else ``IllegalActionError``, this game unchanged).

        >>> from badacey_fast.game import Game
        >>> g = Game("badugi", stacks=[10, 10], chance=True)
        >>> h = g.chance_child(0)
        >>> g.chance_cards, h.chance_cards, len(h.chance_outcomes())
        ([], [0], 51)
        >>> g.chance_child(0, 1, 2, 3, 4, 5, 6, 7).hands
        [[1, 3, 5, 7], [0, 2, 4, 6]]
        >>> g.chance_child(0, 1, 2, 3, 4, 5, 6, 7, 8)
        Traceback (most recent call last):
        ...
        badacey_fast.errors.IllegalActionError: 9 cards given, but this dealing step deals only 8
        """
        done, chance = self._deal_chosen(card, more)
        if done is not None:
            return cast(_G, done)  # a copy of the state before this step: a game of this game's class
        new = self.copy()  # a state owing a card is frozen: the copy shares its lists
        new._chance = chance
        return new

    def _deal_chosen(self, card: int | str, more: tuple[int, ...] = ()) -> tuple[
            GameFields | None, tuple[GameFields, ChanceStep, tuple[int, ...], tuple[int, ...]] | None]:
        """Run the dealing step owed again on a copy of the state before it, the cards chosen so far,
        ``card`` and ``more`` in its stub's script: (the completed game, None), or (None, the new
        ``_chance``) when a further card is owed.  Leaves this game unchanged."""
        chance = self._chance
        if self.phase != CHANCE or chance is None:
            raise IllegalActionError(f"no card is owed: the game is {self.phase}, not at a chance event")
        base, step, outcomes, chosen = chance
        if type(card) is not int:
            (card,) = parse_cards([card]) if isinstance(card, str) else (card,)
        if card not in outcomes:
            raise IllegalActionError(f"card {format_cards([card]) if type(card) is int and 0 <= card < 52 else card!r}"
                                     f" cannot be dealt now: it is not in the stub")
        chosen += (card,) + more
        g = base.copy()
        script = g._stub._script
        assert script is not None  # chance mode's stub deals the caller's cards as a script
        script += chosen
        if more and set(map(type, more)) != {int}:
            raise TypeError(f"further cards must be int ids, not {more!r}")
        try:
            if step is None:
                g._deal_hands()
                g._start_round(0)
            else:
                g._guarded = False  # g is a scratch copy: the step runs on it directly
                g.apply(*step)
                g._guarded = True
        except CardOwed as owed:
            return None, (base, step, owed.outcomes, chosen)  # g, half-way through the step, is dropped
        if more and g._stub._spos < len(script):  # cards left in the script: the step owed fewer
            raise IllegalActionError(f"{len(chosen)} cards given, but this dealing step deals only "
                                     f"{g._stub._spos - (len(script) - len(chosen))}")
        return g, None

    def _deal_step(self, step: None) -> None:
        """The initial deal in chance mode (then the first betting round starts)."""
        saved = self.copy()
        try:
            self._deal_hands()
            self._start_round(0)
        except CardOwed as owed:
            self._restore(saved)
            self._owe(saved, step, owed.outcomes)

    def _owe(self, base: GameFields, step: ChanceStep, outcomes: tuple[int, ...]) -> None:
        self._chance = (base, step, outcomes, ())
        self.phase = CHANCE
        self.to_act = -1
        self._legal = None

    def _restore(self, other: GameFields) -> None:
        """Take every piece of ``other``'s state (its lists, not copies)."""
        slots = type(self).__slots__
        for name, value in zip(slots, _getter(slots)(other)):  # one attrgetter call reads every slot
            setattr(self, name, value)

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
