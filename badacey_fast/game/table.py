"""A running table: players sit down and stand up between hands, the button moves, stacks carry over.

A :class:`Table` has up to 6 seats (empty seats allowed).  Each hand is one :class:`Game` built for the
players dealt in: game seat ``i`` is the ``i``-th dealt-in table seat in clockwise (increasing) order,
and the chips go back to the table seats when the hand is over.  All chip amounts are ints.

Rules (RULES.md §4; the button rule is the simple "moving button"):

- **Established players** are those dealt in to a hand since they sat down (before the first hand,
  or whenever fewer than two established players have chips, a new game starts: everyone with chips is
  dealt in, nobody posts or waits).
- **Button**: each hand it moves clockwise to the next seat, after the previous button's seat, of an
  established player with chips.  The blinds are the next dealt-in seats after it (heads-up the
  button posts the small blind), so a blind can occasionally be skipped or paid twice when players leave.
- **Joiners** choose when sitting down: ``join="wait"`` (default) waits for the big blind: the player is
  dealt in at the first hand whose big blind would fall on their seat if they were dealt in (at most one
  waiter enters per hand, the first clockwise from the button); ``join="post"`` is dealt in at the next
  hand and posts a full, live big blind in addition to the normal blinds (none extra if their seat is
  the big blind), except that, as in Robert's Rules of Poker, nobody new is dealt in in the small blind
  seat: such a poster sits out until the button has passed.  In an ante game joiners are dealt in at once.
- **Busted** players (stack 0) sit out until they stand up.
- **Reproducible**: each hand's deck is shuffled from a seed drawn from the table's own seeded RNG.

>>> from badacey_fast.game import Table
>>> from badacey_fast.game.bots import RuleBot
>>> t = Table(seed=1)
>>> t.sit_down(0, 100); t.sit_down(2, 100); t.sit_down(4, 100)
>>> g = t.play_hand({0: RuleBot(), 2: RuleBot(), 4: RuleBot()})
>>> t.button, t.dealt_in, sum(t.stacks.values())        # table seats; chips carried over
(0, (0, 2, 4), 300)
>>> t.sit_down(2, 50)
Traceback (most recent call last):
...
badacey_fast.errors.SeatError: seat 2 is occupied: stand up first
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from badacey_fast.errors import SeatError
from badacey_fast.errors import ConfigError
from badacey_fast.game.config import GameConfig, resolve_config
from badacey_fast.game.simulate import Bot
from badacey_fast.game.simulate import play_hand as _play_game
from badacey_fast.game.state import COMPLETE, Game

if TYPE_CHECKING:
    from badacey_fast.game.history_file import HistoryFile

__all__ = ["Table", "WAIT", "POST"]

#: How a player joins a running table: wait for the big blind, or post one and be dealt in at once.
WAIT, POST = "wait", "post"
_IN = "in"  # established: dealt in to a hand since sitting down


class _Player:
    __slots__ = ("name", "stack", "status")

    def __init__(self, name: str, stack: int, status: str) -> None:
        self.name, self.stack, self.status = name, stack, status


def _after(seats: Sequence[int], start: int, size: int) -> list[int]:
    """``seats`` (a subset of 0..size-1) clockwise, beginning with the first seat after ``start``."""
    return sorted(seats, key=lambda s: (s - start - 1) % size)


class Table:
    """A cash-game table of ``seats`` seats (2..6) playing hand after hand of ``config``.

    ``seed`` makes every deal reproducible; ``button``: the seat at or after which the first button
    goes (the first seated player from it clockwise).  ``save``: an open
    :class:`~badacey_fast.game.history_file.HistoryFile` that gets every hand's history when the hand is
    over and the table takes its chips back (at once in :meth:`play_hand`; after :meth:`next_hand`, at
    the next seat change, query of ``stacks`` or hand).

    >>> t = Table(seats=3, seed=5)
    >>> t.sit_down(1, 40, name="ann"); t.sit_down(2, 40)
    >>> t.next_hand().n, t.button, t.dealt_in
    (2, 1, (1, 2))
    >>> import os, tempfile
    >>> from badacey_fast.game.bots import RuleBot
    >>> from badacey_fast.game.history_file import HistoryFile, read_histories
    >>> path = os.path.join(tempfile.mkdtemp(), "table.phhs")
    >>> with HistoryFile(path) as out:                       # every hand's history, PHH
    ...     t = Table(seats=2, seed=2, save=out)
    ...     t.sit_down(0, 50); t.sit_down(1, 50)
    ...     hands = [t.play_hand([RuleBot(), RuleBot()]) for _ in range(3)]
    >>> [g.stacks for g in read_histories(path)] == [g.stacks for g in hands]
    True
    >>> Table(seats=7)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: a table has 2 to 6 seats, got 7
    """

    def __init__(self, config: GameConfig | str | None = None, seats: int = 6, seed: int | None = None,
                 button: int = 0, *, game: str | None = None, save: HistoryFile | None = None) -> None:
        config = resolve_config(config, game)
        if type(seats) is not int:
            raise TypeError(f"seats must be an int, not {type(seats).__name__}")
        if not 2 <= seats <= 6:
            raise ConfigError(f"a table has 2 to 6 seats, got {seats}")
        self.config = config
        self.size = seats
        self._check_seat(button)
        self._players: list[_Player | None] = [None] * seats
        self._rng = random.Random(seed)
        self._last_button = (button - 1) % seats  # the first button is the first eligible seat from ``button``
        self.button: int | None = None  # table seat of the current (or last) hand's button
        self.dealt_in: tuple[int, ...] = ()  # table seats dealt in to the current (or last) hand
        self.posted: tuple[int, ...] = ()  # table seats that posted an extra big blind that hand
        self.hand: Game | None = None
        self.hands_played = 0
        self.save = save

    # ------------------------------------------------------------------------------------ seating
    def _check_seat(self, seat: object) -> int:
        if type(seat) is not int:
            raise TypeError(f"seat must be an int, not {type(seat).__name__}")
        if not 0 <= seat < self.size:
            raise SeatError(f"seat {seat} is not at this table (seats 0..{self.size - 1})")
        return seat

    def _seated(self, seat: int) -> _Player:
        """The player of a taken seat (one dealt in: nobody stands up while a hand runs)."""
        player = self._players[seat]
        assert player is not None
        return player

    def _between_hands(self, what: str) -> None:
        if self.hand is not None and self.hand.phase != COMPLETE:
            raise SeatError(f"cannot {what} while a hand is running: finish it first")

    def sit_down(self, seat: int, stack: int, name: str | None = None, join: str = WAIT) -> None:
        """Seat a player with ``stack`` chips (a positive int) between hands.

        ``join``: ``"wait"`` for the big blind or ``"post"`` one (see the module rules).

        >>> t = Table(seats=2); t.sit_down(0, 10)
        >>> t.sit_down(1, -5)
        Traceback (most recent call last):
        ...
        badacey_fast.errors.ConfigError: stack must be a positive int of chips, got -5
        """
        self._between_hands("sit down")
        self._finish_hand()
        self._check_seat(seat)
        if type(stack) is not int:
            raise TypeError(f"stack must be an int, not {type(stack).__name__}")
        if stack <= 0:
            raise ConfigError(f"stack must be a positive int of chips, got {stack}")
        if join not in (WAIT, POST):
            raise ConfigError(f"unknown join {join!r}: expected 'wait' or 'post'")
        if self._players[seat] is not None:
            raise SeatError(f"seat {seat} is occupied: stand up first")
        self._players[seat] = _Player(f"seat {seat}" if name is None else str(name), stack, join)

    def stand_up(self, seat: int) -> int:
        """Remove the player of ``seat`` between hands; returns the chips they take with them.

        >>> t = Table(seats=2); t.sit_down(0, 10); t.stand_up(0)
        10
        >>> t.stand_up(0)
        Traceback (most recent call last):
        ...
        badacey_fast.errors.SeatError: seat 0 is empty
        """
        self._between_hands("stand up")
        self._finish_hand()
        player = self._players[self._check_seat(seat)]
        if player is None:
            raise SeatError(f"seat {seat} is empty")
        self._players[seat] = None
        return player.stack

    @property
    def stacks(self) -> dict[int, int]:
        """Chips of every seated player, by table seat (busted players show 0)."""
        self._finish_hand()
        return {s: p.stack for s, p in enumerate(self._players) if p is not None}

    @property
    def names(self) -> dict[int, str]:
        """The name of every seated player, by table seat."""
        return {s: p.name for s, p in enumerate(self._players) if p is not None}

    def waiting(self) -> tuple[int, ...]:
        """Table seats of joiners not yet dealt in (waiting for the big blind or to post)."""
        return tuple(s for s, p in enumerate(self._players) if p is not None and p.status != _IN)

    # ------------------------------------------------------------------------------------- hands
    def _plan(self) -> tuple[int, list[int], list[int]]:
        """The next hand's button, dealt-in seats and extra posters (table seats), by the module rules."""
        size = self.size
        players = {s: p for s, p in enumerate(self._players) if p is not None}  # the seated players, by seat
        live = [s for s, p in players.items() if p.stack > 0]
        est = [s for s in live if players[s].status == _IN]
        if len(est) < 2 or not self.config.uses_blinds:  # a new game (or antes): everyone is dealt in
            if len(live) < 2:
                raise SeatError(f"a hand needs 2 players with chips, the table has {len(live)}")
            button = _after(live, self._last_button, size)[0]
            return button, live, []
        button = _after(est, self._last_button, size)[0]
        dealt = est + [s for s in live if players[s].status == POST]
        while True:  # nobody new in the small blind seat (heads-up it is the button, always established)
            ring = _after(dealt, button, size)
            small = button if len(dealt) == 2 else ring[0]
            if players[small].status == _IN:
                break
            dealt.remove(small)
        for w in _after([s for s in live if players[s].status == WAIT], button, size):
            if _after(dealt + [w], button, size)[1] == w:  # the big blind would fall on w: w comes in
                dealt.append(w)
                break
        ring = _after(dealt, button, size)
        big = ring[0] if len(dealt) == 2 else ring[1]
        posts = [s for s in dealt if players[s].status == POST and s != big]
        return button, sorted(dealt), posts

    def next_hand(self) -> Game:
        """Deal the next hand and return its :class:`Game` (game seat i = table seat ``dealt_in[i]``).

        Drive it with ``Game.apply``; its chips come back to the table at the next seat change, query or
        hand.  Raises :class:`SeatError` while a hand is running or with fewer than 2 players with chips.
        """
        self._between_hands("deal a new hand")
        self._finish_hand()
        button, dealt, posts = self._plan()
        seat_of = {s: i for i, s in enumerate(dealt)}
        game = Game(self.config, [self._seated(s).stack for s in dealt], button=seat_of[button],
                    seed=self._rng.getrandbits(63), posts=[seat_of[s] for s in posts])
        self.button, self.dealt_in, self.posted, self.hand = button, tuple(dealt), tuple(posts), game
        self._last_button = button
        for s in dealt:  # dealt in: established from now on
            self._seated(s).status = _IN
        return game

    def _finish_hand(self) -> None:
        """Carry a finished hand's chips back to the table seats (once)."""
        game = self.hand
        if game is None or game.phase != COMPLETE:
            return
        for i, s in enumerate(self.dealt_in):
            self._seated(s).stack = game.stacks[i]
        self.hand = None
        self.hands_played += 1
        if self.save is not None:
            self.save.add(game)

    def play_hand(self, bots: Mapping[int, Bot] | Sequence[Bot]) -> Game:
        """Deal and play one hand with ``bots[table seat]`` acting for each seat; returns the finished game.

        >>> from badacey_fast.game.bots import RandomBot
        >>> t = Table(seats=2, seed=3); t.sit_down(0, 20); t.sit_down(1, 20)
        >>> t.play_hand([RandomBot(1), RandomBot(2)]).is_over
        True
        >>> t.play_hand({0: RandomBot(1)})
        Traceback (most recent call last):
        ...
        badacey_fast.errors.SeatError: no bot for table seat 1
        """
        self._between_hands("deal a new hand")
        self._finish_hand()
        button, dealt, _ = self._plan()  # check the bots before dealing, so a refusal changes nothing
        for s in dealt:
            try:
                bots[s]
            except (KeyError, IndexError):
                raise SeatError(f"no bot for table seat {s}") from None
        game = self.next_hand()
        _play_game(game, [bots[s] for s in self.dealt_in])
        self._finish_hand()
        return game

    def __repr__(self) -> str:
        seats = " ".join("-" if p is None else f"{p.stack}{'' if p.status == _IN else '*'}" for p in self._players)
        return f"Table({self.config.game}, button={self.button}, hands={self.hands_played}, seats=[{seats}])"
