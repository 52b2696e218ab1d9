"""The typed view of a hand's state, for the type checker (the package imports this module only under
``TYPE_CHECKING``).

:class:`~badacey_fast.game.state.Game` holds its state in ``__slots__`` and splits its rules into mixins
(:mod:`~badacey_fast.game.betting`, :mod:`~badacey_fast.game.dealing`, :mod:`~badacey_fast.game.queries`)
that read and write those slots and call one another; :mod:`~badacey_fast.game.verify` and
:mod:`~badacey_fast.game.view` read a game without importing state.py (the game modules import one way
only, TYPE_CHECKING blocks included: ``tests/test_game_verify.py``).  :class:`GameFields` declares every
field's type and the methods those modules call, so it imports no other game module but actions and
config.  Each mixin names it as its base under ``TYPE_CHECKING`` only (``object`` at run time, so the
classes, their MRO and their cost are unchanged).

The slots themselves are listed once, in ``Game.__slots__``; the types here follow ``Game.__init__``.

>>> import badacey_fast.game.fields as f
>>> f.GameFields.__annotations__["stacks"]
'list[int]'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    import random

    from badacey_fast.game.actions import Action
    from badacey_fast.game.config import GameConfig
    from badacey_fast.pots import Settlement
    from badacey_fast.rules.stub import Stub

__all__ = ["GameFields", "ChanceStep"]

#: A dealing step of chance mode: ``None`` (the initial deal) or the ``(action, seat)`` being applied.
ChanceStep: TypeAlias = "tuple[Action | str, int | None] | None"

_F = TypeVar("_F", bound="GameFields")


class GameFields:
    """Every slot of a :class:`~badacey_fast.game.state.Game` with its type, and the methods the game
    modules call on a game they do not import (each defined where its docstring says; these bodies never
    run, as the defining class comes first in ``Game``'s MRO)."""

    config: GameConfig
    n: int  #: seats (2..6)
    button: int
    starting_stacks: tuple[int, ...]
    stacks: list[int]  #: chips behind, per seat
    contrib: list[int]  #: chips put in this hand, per seat
    sbet: list[int]  #: chips bet in this betting round, per seat
    folded: list[bool]
    hands: list[list[int]]  #: card ids held, per seat
    _stub: Stub
    _rnd: Callable[[], float] | None  #: ``_rng.random``; None in chance mode (no random source)
    _rng: random.Random | None
    _guarded: bool
    #: chance mode, while a card is owed: (the state before the dealing step, the step, the cards that may
    #: be dealt, the cards chosen so far)
    _chance: tuple[GameFields, ChanceStep, tuple[int, ...], tuple[int, ...]] | None
    street: int  #: betting round 0..3
    phase: str  #: ``"betting"``, ``"drawing"``, ``"complete"`` or ``"chance"``
    to_act: int  #: the seat to act, -1 when nobody acts
    # The betting fields _start_round sets (level .. nactive, _tmin): in chance mode, before the deal is
    # complete, 0 and all-False lists (no round yet: no bet, nobody to act or raise).
    level: int
    full_level: int
    nbets: int
    bet_size: int
    pending: list[bool]
    can_raise: list[bool]
    nlive: int
    nactive: int
    draw_queue: list[int]
    discard_counts: list[list[int]]
    log: list[tuple[int, Action]]
    payouts: list[int] | None
    returned: list[int]
    seed: int | None
    sb_seat: int
    bb_seat: int
    settlement: Settlement | None
    _legal: tuple[Action, ...] | None
    _cap: int
    _hu_uncapped: bool
    _tmin: int
    posts: tuple[int, ...]
    _dealing: str  #: how the cards are dealt: state.py's DEAL_RANDOM, DEAL_DECK, DEAL_SCRIPT or DEAL_CHANCE

    def apply(self, action: Action | str, seat: int | None = None) -> GameFields:
        """:meth:`badacey_fast.game.state.Game.apply`."""
        raise NotImplementedError

    def legal_actions(self) -> tuple[Action, ...]:
        """:meth:`badacey_fast.game.state.Game.legal_actions`."""
        raise NotImplementedError

    @property
    def pot(self) -> int:
        """:class:`badacey_fast.game.queries.GameQueries`."""
        raise NotImplementedError

    def to_call(self, seat: int | None = None) -> int:
        """:class:`badacey_fast.game.queries.GameQueries`."""
        raise NotImplementedError

    def copy(self: _F) -> _F:
        """:meth:`badacey_fast.game.state.Game.copy`."""
        raise NotImplementedError

    def snapshot(self) -> tuple[object, ...]:
        """:class:`badacey_fast.game.queries.GameQueries` (and dealing's part of it)."""
        raise NotImplementedError

    def _start_round(self, street: int) -> None:
        """:class:`badacey_fast.game.betting.GameBetting`."""
        raise NotImplementedError

    def _burn(self) -> None:
        """:class:`badacey_fast.game.dealing.GameDealing`."""
        raise NotImplementedError

    def _deal_step(self, step: None) -> None:
        """:class:`badacey_fast.game.dealing.GameDealing`."""
        raise NotImplementedError

    def _deal_hands(self) -> None:
        """:class:`badacey_fast.game.dealing.GameDealing`."""
        raise NotImplementedError
