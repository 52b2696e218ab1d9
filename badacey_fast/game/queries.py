"""The read-only side of a hand, mixed into :class:`Game` (the rules of actions and the wording of
refusals live in :mod:`badacey_fast.game.verify`).

Kept apart from :mod:`badacey_fast.game.state` (the mutating hot path) so each file stays small; the
mixin holds no state of its own (empty ``__slots__``).

>>> from badacey_fast.game import Game
>>> g = Game(stacks=[30, 30, 30], seed=1)
>>> g.pot, g.to_call(), g.is_over
(3, 2, False)
>>> g.view(5)
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: seat 5 is not at this table (seats 0..2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from badacey_fast.errors import IllegalActionError
from badacey_fast.game.view import SeatView

if TYPE_CHECKING:  # the typed view of the slots the mixin shares with Game (object at run time)
    from badacey_fast.game.fields import GameFields as _Fields
else:
    _Fields = object

__all__ = ["GameQueries"]

BETTING, COMPLETE = "betting", "complete"

_G = TypeVar("_G", bound="GameQueries")


class GameQueries(_Fields):
    """Queries, results, copies and seat views of a :class:`~badacey_fast.game.state.Game`."""

    __slots__: tuple[str, ...] = ()  # no state of its own: Game's slots hold it

    @property
    def is_over(self) -> bool:
        """True once the hand has ended (everyone else folded, or after the showdown)."""
        return self.phase == COMPLETE

    @property
    def pot(self) -> int:
        """Chips in the middle (every seat's contributions this hand, blinds and antes included)."""
        return sum(self.contrib)

    def to_call(self, seat: int | None = None) -> int:
        """Chips ``seat`` (default: the seat to act) needs to call in this betting round (0 = may check).

        >>> from badacey_fast.game import Game
        >>> Game(stacks=[20, 20], seed=1).to_call()          # heads-up: the button completes the blind
        1
        >>> Game(stacks=[20, 20], seed=1).to_call(seat=5)
        Traceback (most recent call last):
        ...
        badacey_fast.errors.IllegalActionError: seat 5 is not at this table (seats 0..1)
        """
        i = self.to_act if seat is None else seat
        if type(i) is not int or not 0 <= i < self.n:
            if self.phase == COMPLETE and seat is None:
                return 0
            raise IllegalActionError(f"seat {seat} is not at this table (seats 0..{self.n - 1})")
        if self.phase != BETTING:
            return 0
        return max(0, min(self.level - self.sbet[i], self.stacks[i]))

    @property
    def winnings(self) -> list[int]:
        """Net chips won (+) or lost (-) by each seat this hand (final stack minus starting stack).

        >>> from badacey_fast.game import Game
        >>> Game(stacks=[20, 20], seed=1).apply("fold").winnings     # the button folds its small blind
        [-1, 1]
        """
        return [s - s0 for s, s0 in zip(self.stacks, self.starting_stacks)]

    @property
    def showdown(self) -> bool:
        """True when the hand ended at a showdown (more than one live seat after the last round)."""
        return self.phase == COMPLETE and self.nlive > 1

    # copy.copy, copy.deepcopy and pickle (search and OpenSpiel clone states): the same independent copy
    # (Game.copy, in state.py next to the slots it copies).
    def __copy__(self: _G) -> _G:
        return self.copy()

    def __deepcopy__(self: _G, memo: dict[int, object]) -> _G:
        return self.copy()

    def __getstate__(self) -> dict[str, object]:
        # _legal is a cache of interned actions (apply recognises fold and check by identity): not pickled.
        return {name: getattr(self, name) for name in type(self).__slots__
                if name not in ("_legal", "_rnd") and hasattr(self, name)}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name in type(self).__slots__:
            setattr(self, name, state.get(name))
        self._rnd = None if self._rng is None else self._rng.random  # chance mode has no random source

    def snapshot(self) -> tuple[object, ...]:
        """Every piece of state as a comparable tuple (tests use it to prove a rejected action changed nothing)."""
        out = []
        for name in type(self).__slots__:
            if name in ("_rng", "_rnd", "_legal"):  # _legal is a cache, not state
                continue
            if name == "_chance":  # chance mode: the step owed and the state before it
                c = self._chance
                out.append(None if c is None else (c[0].snapshot(),) + c[1:])
                continue
            value = getattr(self, name, None)
            if isinstance(value, list):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            out.append(value)
        out.append(None if self._rng is None else self._rng.getstate())
        return tuple(out)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see: its own cards, public betting and draw counts; no other cards, no deck."""
        return SeatView(self, seat)

    def __repr__(self) -> str:
        return (f"Game({self.config.game}, seats={self.n}, button={self.button}, phase={self.phase}, "
                f"street={self.street}, to_act={self.to_act}, pot={self.pot})")
