"""Per-seat views: what one seat may see of a hand (its own cards, the public betting and draw counts).

A :class:`SeatView` is a thin read-only window onto a live :class:`~badacey_fast.game.state.Game`
(cheap enough to build for every bot decision).  It never exposes other seats' cards, the stub or the
muck; for a server that must hand a view to untrusted code or over the wire, :meth:`SeatView.to_dict`
is a plain, JSON-ready copy that holds no reference to the game.

>>> from badacey_fast.game import Game
>>> v = Game(stacks=[30, 30, 30], seed=5).view(1)
>>> v.seat, v.to_act, len(v.hand), v.legal_actions()   # not seat 1's turn: no legal actions
(1, 0, 5, ())
>>> sorted(v.to_dict())[:4]
['bet_size', 'bets', 'button', 'config']
>>> Game(stacks=[30, 30], seed=5).view(2)
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: seat 2 is not at this table (seats 0..1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from badacey_fast.errors import IllegalActionError
from badacey_fast.game.actions import DRAW, Action

if TYPE_CHECKING:  # pragma: no cover
    from badacey_fast.game.config import GameConfig
    # The hand a view reads: a Game, typed by its fields (state.py is not imported here: the game's
    # ``view()`` builds SeatViews, so the import runs one way, from the game to this module).
    from badacey_fast.game.fields import GameFields as Game

__all__ = ["SeatView"]


class SeatView:
    """What ``seat`` sees.  Chips are ints; ``hand`` is this seat's cards only (card ids 0..51)."""

    __slots__ = ("_g", "seat")

    def __init__(self, game: "Game", seat: int) -> None:
        if type(seat) is not int:
            raise TypeError(f"seat must be an int, not {type(seat).__name__}")
        if not 0 <= seat < game.n:
            raise IllegalActionError(f"seat {seat} is not at this table (seats 0..{game.n - 1})")
        self._g = game
        self.seat = seat

    @property
    def config(self) -> "GameConfig":
        """The table rules."""
        return self._g.config

    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards (card ids)."""
        return tuple(self._g.hands[self.seat])

    @property
    def seats(self) -> int:
        """Number of seats at the table (2..6)."""
        return self._g.n

    @property
    def button(self) -> int:
        """The button seat."""
        return self._g.button

    @property
    def phase(self) -> str:
        """``"betting"``, ``"drawing"`` or ``"complete"``."""
        return self._g.phase

    @property
    def street(self) -> int:
        """Betting round 0..3 (0 = before the first draw; a small game's last is its ``config.draws``);
        while drawing, the draw number is street + 1."""
        return self._g.street

    @property
    def to_act(self) -> int:
        """The seat to act (-1 once the hand is over)."""
        return self._g.to_act

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind of every seat."""
        return tuple(self._g.stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Every seat's bet in the current betting round."""
        return tuple(self._g.sbet)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Every seat's chips put in this hand."""
        return tuple(self._g.contrib)

    @property
    def folded(self) -> tuple[bool, ...]:
        """Which seats have folded."""
        return tuple(self._g.folded)

    @property
    def pot(self) -> int:
        """Chips in the middle."""
        return self._g.pot

    @property
    def to_call(self) -> int:
        """Chips this seat needs to call now (0 when it may check or it is not betting)."""
        return self._g.to_call(self.seat) if self._g.to_act == self.seat else 0

    @property
    def bet_size(self) -> int:
        """The limit bet size of the current round."""
        return self._g.bet_size

    @property
    def discard_counts(self) -> tuple[tuple[int, ...], ...]:
        """Cards drawn by each seat in each draw so far (-1 = did not draw: folded or not yet)."""
        return tuple(tuple(d) for d in self._g.discard_counts)

    @property
    def hands_seen(self) -> tuple[tuple[int, ...], ...]:
        """This seat's hands so far: the deal, then the hand after each of its draws (card ids, in the
        order the seat holds them: kept cards, then the replacements as dealt).  What a player with
        perfect recall knows of its own cards (the solver's strategies are keyed by it).

        >>> from badacey_fast.game import Action, Game
        >>> g = Game(stacks=[50, 50], seed=1).apply("call").apply("check")
        >>> g = g.apply(Action("draw", None, tuple(g.hands[1][:2])))
        >>> len(g.view(1).hands_seen), g.view(1).hands_seen[-1] == tuple(g.hands[1])
        (2, True)
        """
        g = self._g
        hands = [tuple(g.hands[self.seat])]
        for seat, a in reversed(g.log):
            if seat == self.seat and a[0] == DRAW:
                thrown = tuple(a[2] or ())
                now = hands[-1]
                # Replacements sit at the end of the hand, in dealing order: undo them.
                hands.append(now[:len(now) - len(thrown)] + thrown)
        return tuple(reversed(hands))

    def legal_actions(self) -> tuple[Action, ...]:
        """This seat's legal actions (empty when it is not this seat's turn)."""
        g = self._g
        return g.legal_actions() if g.to_act == self.seat else ()

    def public_log(self) -> list[tuple[int, str, int | None, int | None]]:
        """Every action so far as ``(seat, kind, amount, cards drawn)``; others' discards only as counts."""
        out: list[tuple[int, str, int | None, int | None]] = []
        for seat, a in self._g.log:
            if a[0] == DRAW:
                out.append((seat, DRAW, None, len(a[2] or ())))  # (a draw always names its discards)
            else:
                out.append((seat, a[0], a[1], None))
        return out

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-ready copy of everything this seat may see (no reference to the game)."""
        return {
            "seat": self.seat,
            "seats": self.seats,
            "config": self.config.to_dict(),
            "button": self.button,
            "phase": self.phase,
            "street": self.street,
            "to_act": self.to_act,
            "hand": list(self.hand),
            "stacks": list(self.stacks),
            "bets": list(self.bets),
            "contributions": list(self.contributions),
            "folded": list(self.folded),
            "pot": self.pot,
            "to_call": self.to_call,
            "bet_size": self.bet_size,
            "discard_counts": [list(d) for d in self.discard_counts],
            "legal_actions": [list(a) if a[2] is None else [a[0], a[1], list(a[2])] for a in self.legal_actions()],
            "log": [list(e) for e in self.public_log()],
        }

    def __repr__(self) -> str:
        return f"SeatView(seat={self.seat}, phase={self.phase}, to_act={self.to_act})"
