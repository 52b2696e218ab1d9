"""The data of a real hand history: :class:`HandRecord`, its :class:`Seat` list and its :class:`Event` list
(:class:`~badacey_fast.histories.model.RealHand` adds the verbs that need the engine: replay, check, export).
The replay, the check and the export read a hand through this module only, so none of them imports the
model that calls them.

Amounts are exact integers in the hand's smallest unit -- cents (``scale=2``) for cash games, chips
(``scale=0``) for tournaments -- never floats; :meth:`HandRecord.money` gives a :class:`~decimal.Decimal` for
display.  Cards are the library's ids 0..51 (:mod:`badacey_fast.cards`); a card the text does not show is
``None`` in :attr:`HandRecord.holdings`.

Streets: street 0 is the deal and the first betting round; street *k* (1..3) is the *k*-th draw and the
betting round after it.  A draw of 0 cards is standing pat.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal
from typing import Any, NamedTuple

from badacey_fast.cards import format_cards
from badacey_fast.histories.kinds import DRAW, FOLD, MUCK, PUT_IN, SHOW, UNCALLED

__all__ = ["Seat", "Event", "HandRecord", "EXAMPLE"]


class Seat(NamedTuple):
    """One seat at the table as the hand starts: the room's seat ``number``, the player's ``name``, the
    ``stack`` (smallest units) and whether the player sat out (``dealt`` False: no cards this hand)."""

    number: int
    name: str
    stack: int
    dealt: bool = True


class Event(NamedTuple):
    """One line of play, in order.

    ``street`` 0..3 (see the module docstring); ``player`` ("" for none); ``kind`` one of the kinds above;
    ``amount``: chips the event puts in (posts, calls, bets, raises: the chips added), returns (uncalled) or
    wins (collect); ``to``: a bet's or raise's total for the round; ``all_in``; ``count``: cards thrown by a
    draw; ``cards``: the discards of a draw, the cards shown or mucked face up (None where not shown);
    ``new``: the cards a draw received (None where not shown); ``pot``: which pot a collect is from;
    ``line``: the line number in the source.
    """

    street: int
    player: str
    kind: str
    amount: int | None = None
    to: int | None = None
    all_in: bool = False
    drawn: int | None = None
    cards: tuple[int, ...] | None = None
    new: tuple[int, ...] | None = None
    pot: str | None = None
    line: int = 0


class HandRecord:
    """One hand dealt by a real poker room, as its history tells it (see the module docstring); the data of
    :class:`~badacey_fast.histories.model.RealHand`, which the reader makes.

    Attributes: ``site``, ``hand_id``, ``started`` (a datetime, timezone-aware where the text names the
    zone), ``table``, ``tournament`` (its id; None in a cash game), ``variant`` (the room's words), ``game``
    (our preset -- ``"badacey"``, ``"badeucy"``, ``"badugi"``, ``"a5"``, ``"27"`` -- or None), ``betting``
    (``"fixed"``, ``"pot"``, ``"half-pot"``, ``"no"``), ``draws`` (draws the variant has), ``hand_size``,
    ``limits`` ((small bet, big bet) in fixed limit, else None), ``blinds`` ((small, big)), ``ante``,
    ``currency`` (``"USD"``, ``"EUR"``, ... ``"chips"``, ``"play"``), ``scale`` (decimal places of the unit),
    ``seats`` (:class:`Seat`), ``max_seats``, ``button`` (a seat number, None if not stated), ``actions``
    (:class:`Event`, in order), ``holdings`` (per player: the cards held after the deal and after each draw,
    a tuple or None where unknown), ``collected`` (per player, what the room paid), ``rake``, ``pot`` (the
    total pot the room states, None if it states none), ``status`` ("complete", "cancelled", "partial" or
    "no deal"), ``notes`` (what the reader noticed and let pass), ``file`` and ``line`` (where it starts).
    """

    __slots__ = (
        "site", "hand_id", "started", "table", "tournament", "variant", "game", "betting", "draws", "hand_size",
        "limits", "blinds", "ante", "currency", "scale", "seats", "max_seats", "button", "actions", "holdings",
        "collected", "rake", "pot", "status", "notes", "file", "line",
    )

    def __init__(self, site: str, hand_id: str, file: str = "<text>", line: int = 1) -> None:
        self.site = site
        self.hand_id = hand_id
        self.file = file
        self.line = line
        self.started: datetime | None = None
        self.table = ""
        self.tournament: str | None = None
        self.variant = ""
        self.game: str | None = None
        self.betting = "fixed"
        self.draws = 0
        self.hand_size = 5
        self.limits: tuple[int, int] | None = None
        self.blinds: tuple[int, int] = (0, 0)
        self.ante = 0
        self.currency = "chips"
        self.scale = 0
        self.seats: tuple[Seat, ...] = ()
        self.max_seats: int | None = None
        self.button: int | None = None
        self.actions: tuple[Event, ...] = ()
        self.holdings: dict[str, list[tuple[int, ...] | None]] = {}
        self.collected: dict[str, int] = {}
        self.rake: int | None = None
        self.pot: int | None = None
        self.status = "complete"
        self.notes: list[str] = []

    # ------------------------------------------------------------------------------------------ reading
    @property
    def where(self) -> str:
        """``file:line`` of the hand's first line."""
        return f"{self.file}:{self.line}"

    @property
    def players(self) -> list[str]:
        """The names of the players dealt in, in seat order."""
        return [s.name for s in self.seats if s.dealt]

    def money(self, amount: int) -> Decimal:
        """``amount`` (smallest units) as a :class:`~decimal.Decimal` in the hand's unit (dollars, euros,
        chips): exact, for display.

        >>> h = HandRecord("PokerStars", "1"); h.scale = 2
        >>> h.money(12345), h.money(-5)
        (Decimal('123.45'), Decimal('-0.05'))
        """
        return Decimal(amount).scaleb(-self.scale)

    def put_in(self) -> dict[str, int]:
        """What each player put into the pot (posts, calls, bets, raises), less uncalled bets returned."""
        out = {s.name: 0 for s in self.seats}
        for e in self.actions:
            if e.kind in PUT_IN:
                out[e.player] = out.get(e.player, 0) + (e.amount or 0)
            elif e.kind == UNCALLED:
                out[e.player] = out.get(e.player, 0) - (e.amount or 0)
        return out

    def nets(self) -> dict[str, int]:
        """Each player's result by the room's account: collected less put in (smallest units)."""
        paid = self.put_in()
        return {name: self.collected.get(name, 0) - paid.get(name, 0) for name in paid}

    def shown(self) -> dict[str, tuple[int, ...]]:
        """The final cards of every player whose hand the text shows (shown, or mucked face up)."""
        out: dict[str, tuple[int, ...]] = {}
        for e in self.actions:
            if e.kind in (SHOW, MUCK) and e.cards is not None:
                out[e.player] = e.cards
        return out

    def folded(self) -> set[str]:
        """The players who folded."""
        return {e.player for e in self.actions if e.kind == FOLD}

    def events(self, kind: str) -> Iterator[Event]:
        """The events of one kind, in order."""
        return (e for e in self.actions if e.kind == kind)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.site} #{self.hand_id}, {self.variant!r}, {len(self.players)} players, "
                f"{self.where})")

    # ------------------------------------------------------------------------------------------ output
    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values: amounts in smallest units (ints), cards as text (``??`` never
        appears here: an unknown holding is ``null``), the start time in ISO 8601.

        >>> from badacey_fast.histories import parse
        >>> d = next(parse(EXAMPLE)).to_dict()
        >>> d["site"], d["seats"][0], d["actions"][2]
        ('PokerStars', {'number': 1, 'name': 'Hero', 'stack': 1000, 'dealt': True}, {'street': 0, 'player': 'Hero', 'kind': 'raise', 'amount': 75, 'to': 100})
        """
        def cards(c: tuple[int, ...] | None) -> str | None:
            return None if c is None else format_cards(c)

        actions = []
        for e in self.actions:
            d: dict[str, Any] = {"street": e.street, "player": e.player, "kind": e.kind}
            for key in ("amount", "to", "drawn", "pot"):
                value = getattr(e, key)
                if value is not None:
                    d[key] = value
            if e.all_in:
                d["all_in"] = True
            if e.cards is not None:
                d["cards"] = format_cards(e.cards)
            if e.new is not None:
                d["new"] = format_cards(e.new)
            actions.append(d)
        return {
            "site": self.site, "hand_id": self.hand_id,
            "started": None if self.started is None else self.started.isoformat(),
            "table": self.table, "tournament": self.tournament, "variant": self.variant, "game": self.game,
            "betting": self.betting, "draws": self.draws, "hand_size": self.hand_size,
            "limits": None if self.limits is None else list(self.limits), "blinds": list(self.blinds),
            "ante": self.ante, "currency": self.currency, "scale": self.scale,
            "seats": [s._asdict() for s in self.seats], "max_seats": self.max_seats, "button": self.button,
            "actions": actions,
            "holdings": {name: [cards(c) for c in held] for name, held in self.holdings.items()},
            "collected": dict(self.collected), "rake": self.rake, "pot": self.pot, "status": self.status,
            "notes": list(self.notes), "file": self.file, "line": self.line,
        }


#: A small PokerStars Badugi hand (written for these docs), used by the examples.
EXAMPLE = """\
PokerStars Hand #1:  Badugi Limit ($0.50/$1 USD) - 2024/01/02 20:00:00 ET
Table 'Example' 6-max Seat #1 is the button
Seat 1: Hero ($10 in chips)
Seat 2: Villain ($10 in chips)
Hero: posts small blind $0.25
Villain: posts big blind $0.50
*** DEALING HANDS ***
Dealt to Hero [As 2h 3s 4c]
Hero: raises $0.50 to $1
Villain: calls $0.50
*** FIRST DRAW ***
Villain: discards 2 cards
Hero: discards 1 card [4c]
Dealt to Hero [As 2h 3s] [5c]
Villain: checks
Hero: bets $0.50
Villain: folds
Uncalled bet ($0.50) returned to Hero
Hero collected $1.90 from pot
*** SUMMARY ***
Total pot $2 | Rake $0.10
Seat 1: Hero (button) (small blind) collected ($1.90)
Seat 2: Villain (big blind) folded on the 1st Draw
"""
