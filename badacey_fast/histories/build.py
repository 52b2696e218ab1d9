"""The one place a hand is assembled, whatever the room: every site parser reads its own words and calls
a :class:`HandBuilder`, which keeps the streets, each player's bet in the round and chips behind, turns
"calls 44" or "raises to 88" into the chips added, and checks the hand when it is finished -- every
amount adds up, no player puts in more than the stack, every card known is consistent.

>>> from badacey_fast.histories.model import RealHand
>>> b = HandBuilder(RealHand("Example", "1"))
>>> b.hand.draws = 1
>>> b.seat(1, "Ann", 100); b.seat(2, "Ben", 100)
>>> b.post("Ann", "small blind", 1, 5); b.post("Ben", "big blind", 2, 6)
>>> b.bet("Ann", "raise", 7, to=4); b.bet("Ben", "call", 8, to=4)
>>> b.draw("Ann", 2, 9); b.draw("Ben", 0, 10)
>>> b.bet("Ann", "bet", 11, added=2); b.fold("Ben", 12); b.uncalled("Ann", 2, 13); b.collect("Ann", 8, "", 14)
>>> hand = b.finish()
>>> hand.put_in(), hand.nets(), [e.street for e in hand.actions]
({'Ann': 4, 'Ben': 4}, {'Ann': 4, 'Ben': -4}, [0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
"""

from __future__ import annotations

from operator import itemgetter

from badacey_fast.errors import HandHistoryError
from badacey_fast.kernel import dealt_and_paid as c_dealt_and_paid, holdings as c_holdings
from badacey_fast.histories.model import (
    ANTE, BET, BIG_BLIND, CALL, CHECK, COLLECT, DEAD, DRAW, FOLD, MUCK, POST, RAISE, SHOW, SMALL_BLIND,
    UNCALLED, Event, RealHand, Seat,
)

__all__ = ["HandBuilder", "posted_stakes"]

_LIVE_POSTS = frozenset({SMALL_BLIND, BIG_BLIND, POST})
_BETS_AND_LIVE_POSTS = _LIVE_POSTS | {CALL, BET, RAISE}
# Events are built with tuple.__new__: the NamedTuple's own __new__ is a Python function (its defaults),
# ~4x the cost, on every line of every hand.
_new = tuple.__new__
_STREET, _PLAYER, _KIND = itemgetter(0), itemgetter(1), itemgetter(2)  # an Event's street, player, kind
_HOLDINGS = (Event, DRAW, FOLD)  # what the C derivation of the holdings builds with (csrc/cpython/finish.c)


_STAKE_POSTS = frozenset({SMALL_BLIND, BIG_BLIND, ANTE})


def posted_stakes(events: list[Event]) -> tuple[int, int, int]:
    """(The first small blind's chips, the first big blind's, the largest ante; 0 where none): what the
    rooms that state no blinds take them from.  One pass over the events (three generator passes cost
    twice as much, on every hand)."""
    small: int | None = None
    big: int | None = None
    ante = 0
    for e in events:
        kind = e[2]
        if kind in _STAKE_POSTS:
            if kind == SMALL_BLIND:
                if small is None:
                    small = e[3] or 0
            elif kind == BIG_BLIND:
                if big is None:
                    big = e[3] or 0
            elif (e[3] or 0) > ante:
                ante = e[3] or 0
    return small or 0, big or 0, ante


class HandBuilder:
    """Collects one hand's seats and events (see the module docstring); :meth:`finish` checks and returns
    the :class:`RealHand`.  Every refusal is a :class:`~badacey_fast.errors.HandHistoryError` naming the
    file and line."""

    __slots__ = ("hand", "events", "street", "drawing", "round_bet", "behind", "seats", "held", "last_draw",
                 "collected", "shown", "posted")

    def __init__(self, hand: RealHand) -> None:
        self.hand = hand
        self.events: list[Event] = []
        self.street = 0
        self.drawing = False
        self.round_bet: dict[str, int] = {}
        self.behind: dict[str, int] = {}
        self.seats: dict[str, Seat] = {}
        self.held: dict[str, dict[int, tuple[int, ...]]] = {}
        self.last_draw: dict[str, int] = {}
        self.collected: dict[str, int] = {}
        self.shown: dict[str, tuple[int, ...]] = {}
        self.posted: set[str] = set()  # the kinds of post so far (a second small blind is dead, ...)

    def fail(self, reason: str, line: int) -> HandHistoryError:
        """The error to raise for this hand (``raise b.fail(...)``), with its room, id and variant."""
        hand = self.hand
        err = HandHistoryError(reason, hand.file, line or hand.line)
        err.site, err.hand_id, err.variant = hand.site, hand.hand_id or None, hand.variant or None
        return err

    # ----------------------------------------------------------------------------------------- seats
    def seat(self, number: int, name: str, stack: int, dealt: bool = True) -> None:
        """A player at the table (``dealt`` False: sitting out, no cards)."""
        self.seats[name] = _new(Seat, (number, name, stack, dealt))
        self.behind[name] = stack

    def sit_out(self, name: str) -> None:
        """The player sits this hand out (said before the deal)."""
        s = self.seats.get(name)
        if s is not None and not any(e.player == name for e in self.events):
            self.seats[name] = s._replace(dealt=False)

    def known(self, name: str, line: int) -> str:
        """The name of a seated player who acts (a player listed as sitting out who acts was dealt in:
        tournaments deal to players sitting out, who then fold; :meth:`finish` sees to it)."""
        if name not in self.behind:
            raise self.fail(f"{name!r} acts but has no seat in this hand", line)
        return name

    # ----------------------------------------------------------------------------------------- streets
    def new_street(self, street: int, drawing: bool) -> None:
        """A street marker of the room's (``*** FIRST DRAW ***``, a board card, ...)."""
        if street != self.street:
            self.street = street
            self.round_bet = {}
        self.drawing = drawing

    def _betting(self) -> None:
        self.drawing = False

    # ----------------------------------------------------------------------------------------- chips
    def post(self, name: str, kind: str, amount: int, line: int) -> None:
        """An ante, a blind, a live post or dead chips (``kind``: one of the post kinds)."""
        behind = self.behind
        left = behind.get(name)
        if left is None:
            raise self.fail(f"{name!r} acts but has no seat in this hand", line)
        left -= amount
        if left < 0 or amount < 0:  # (inlined: posts come in every hand)
            raise self.fail(f"{name} puts in {amount} with {behind[name]} behind: the amounts do not add up", line)
        behind[name] = left
        all_in = left == 0
        if kind in _LIVE_POSTS:
            self.round_bet[name] = self.round_bet.get(name, 0) + amount
        self.posted.add(kind)
        self.events.append(_new(Event, (self.street, name, kind, amount, None, all_in, None, None, None, None, line)))

    def bet(self, name: str, kind: str | None, line: int, added: int | None = None, to: int | None = None,
            all_in: bool = False) -> None:
        """A call, bet or raise, given the chips ``added`` or the round total ``to`` (one of them; an
        all-in with neither puts in every chip behind).  ``kind`` None: decided from the bets so far."""
        self.drawing = False
        behind = self.behind
        left = behind.get(name)
        if left is None:
            raise self.fail(f"{name!r} acts but has no seat in this hand", line)
        round_bet = self.round_bet
        before = round_bet.get(name, 0)
        if added is None:
            if to is None:
                if not all_in:
                    raise self.fail(f"{name}'s bet has no amount", line)
                added = left
            else:
                added = to - before
        total = before + added
        if kind is None:
            top = max(round_bet.values(), default=0)
            kind = CALL if total <= top else (RAISE if top > 0 else BET)
        left -= added
        if left <= 0 or added < 0:
            if left < 0 or added < 0:
                raise self.fail(f"{name} puts in {added} with {behind[name]} behind: the amounts do not add up", line)
            all_in = True
        behind[name] = left
        round_bet[name] = total
        self.events.append(_new(Event, (self.street, name, kind, added, None if kind == CALL else total, all_in,
                                        None, None, None, None, line)))

    def fold(self, name: str, line: int) -> None:
        self.drawing = False
        if name not in self.behind:
            raise self.fail(f"{name!r} acts but has no seat in this hand", line)
        self.events.append(_new(Event, (self.street, name, FOLD, None, None, False, None, None, None, None, line)))

    def check(self, name: str, line: int) -> None:
        self.drawing = False
        if name not in self.behind:
            raise self.fail(f"{name!r} acts but has no seat in this hand", line)
        self.events.append(_new(Event, (self.street, name, CHECK, None, None, False, None, None, None, None, line)))

    def uncalled(self, name: str, amount: int, line: int) -> None:
        """An uncalled bet returned."""
        self.known(name, line)
        self.behind[name] += amount
        self.round_bet[name] = self.round_bet.get(name, 0) - amount
        self.events.append(_new(Event, (self.street, name, UNCALLED, amount, None, False, None, None, None, None, line)))

    def collect(self, name: str, amount: int, pot: str, line: int) -> None:
        """Chips the room paid the player from a pot ("" for the only pot, "main", "side 1", ...)."""
        self.known(name, line)
        self.collected[name] = self.collected.get(name, 0) + amount
        self.events.append(_new(Event, (self.street, name, COLLECT, amount, None, False, None, None, None, pot, line)))

    # ----------------------------------------------------------------------------------------- cards
    def draw(self, name: str, count: int, line: int, discards: tuple[int, ...] | None = None,
             new: tuple[int, ...] | None = None) -> None:
        """A draw of ``count`` cards (0: stand pat), the discards and new cards where the text shows them.
        A draw after a betting round starts the next street."""
        if name not in self.behind:
            raise self.fail(f"{name!r} acts but has no seat in this hand", line)
        if not self.drawing:
            self.new_street(self.street + 1, True)
        hand = self.hand
        if self.street > hand.draws:
            raise self.fail(f"{name} draws on draw {self.street} of a {hand.draws}-draw game", line)
        if not 0 <= count <= hand.hand_size or (discards is not None and len(discards) != count):
            raise self.fail(f"{name} draws {count} cards of {hand.hand_size}", line)
        self.last_draw[name] = len(self.events)
        self.events.append(_new(Event, (self.street, name, DRAW, None, None, False, count, discards, new, None, line)))

    def drew(self, name: str, kept: tuple[int, ...] | None, new: tuple[int, ...] | None, line: int) -> None:
        """The cards a player's last draw kept and received (``Dealt to Hero [kept] [new]``)."""
        k = self.last_draw.get(name)
        if k is None or self.events[k].street != self.street:
            raise self.fail(f"cards dealt to {name} on draw {self.street}, who has not drawn", line)
        if new is not None:
            e = self.events[k]
            self.events[k] = _new(Event, e[:8] + (new,) + e[9:])  # e._replace(new=new), without its cost
        if kept is not None and new is not None:
            self.hold(name, kept + new)

    def hold(self, name: str, cards: tuple[int, ...] | None, street: int | None = None) -> None:
        """The cards a player holds on a street (default: the current one), where the text shows them."""
        if cards is not None:
            self.held.setdefault(name, {})[self.street if street is None else street] = cards

    def show(self, name: str, cards: tuple[int, ...] | None, line: int, kind: str = SHOW) -> None:
        """A player shows (``kind`` MUCK: mucks, ``cards`` where the room reveals them anyway)."""
        self.known(name, line)
        if cards is not None:
            self.shown[name] = cards
        self.events.append(_new(Event, (self.street, name, kind, None, None, False, None, cards, None, None, line)))

    def reveal(self, name: str, cards: tuple[int, ...] | None) -> None:
        """Final cards the summary reveals (a mucked hand) without an event in the play."""
        if cards is not None and name in self.seats:
            self.shown.setdefault(name, cards)

    def return_uncalled(self, paid_in_collect: bool = False) -> None:
        """For rooms that do not write it: the part of the last round's top bet nobody matched goes back
        to its owner (the round's top bet less the next one).  ``paid_in_collect``: the room paid it back
        inside the owner's ``collected`` (and counted it in the total pot), so it comes out of both."""
        if UNCALLED in map(_KIND, self.events):  # (at C speed: a generator costs ~6x, on every hand)
            return
        if paid_in_collect:
            before = len(self.events)
            self.return_uncalled()
            if len(self.events) == before:
                return
            back = self.events[-1]
            who, chips = back.player, back.amount or 0
            for k, e in enumerate(self.events):
                if e.kind == COLLECT and e.player == who and (e.amount or 0) >= chips:
                    self.events[k] = e._replace(amount=(e.amount or 0) - chips)
                    self.collected[who] -= chips
                    if self.hand.pot is not None:
                        self.hand.pot -= chips
                    return
            return
        # The last betting round with chips in it (draws after an all-in leave later rounds empty).
        chips_in = [e for e in self.events if e[2] in _BETS_AND_LIVE_POSTS]
        if not chips_in:
            return
        last = max(map(_STREET, chips_in))
        bets: dict[str, int] = {}
        for e in chips_in:
            if e[0] == last:
                bets[e[1]] = bets.get(e[1], 0) + (e[3] or 0)
        ranked = sorted(bets.items(), key=lambda kv: kv[1], reverse=True)
        top_name, top = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0
        if top > second:
            line = self.events[-1].line if self.events else 0
            self.uncalled(top_name, top - second, line)
            self.hand.notes.append(f"an uncalled bet of {self.hand.money(top - second)} goes back to {top_name} "
                                   f"(the text does not say)")

    def stated_stakes(self, stakes: tuple[int, int] | None) -> None:
        """The limits, blinds and ante of a room that states its stakes (two amounts) and not its blinds, once
        the posts are read: in fixed limit the stakes are the limits and the blinds are the first small blind
        posted (half the small bet where none was) and the small bet; otherwise the stakes are the blinds.
        The ante is the largest posted."""
        hand = self.hand
        posted = self.posted
        small = ante = 0
        if SMALL_BLIND in posted or ANTE in posted:  # (else no pass over the events)
            small, _, ante = posted_stakes(self.events)
        if hand.betting == "fixed":
            hand.limits = stakes
            if stakes is not None:
                hand.blinds = (small if SMALL_BLIND in posted else stakes[0] // 2, stakes[0])
        elif stakes is not None:
            hand.blinds = stakes
        hand.ante = ante

    # ----------------------------------------------------------------------------------------- the end
    def finish(self) -> RealHand:
        """Check the hand and return it (see the module docstring)."""
        hand = self.hand
        events = self.events
        complete = hand.status == "complete" and bool(events)
        # The C twin (csrc/cpython/finish.c) fixes who is dealt in and sums the chips in one pass; None:
        # nothing done, the loops below do it (always on the Python twin).
        paid = c_dealt_and_paid(self.seats, events, self.held, self.behind, self.collected, Seat) if complete else None
        if complete and paid is None:
            # Who is dealt in: every player who acts (tournaments deal to players listed as sitting out,
            # who then fold), and no player with no action and no card (rooms list players sitting out
            # without saying so until the summary).
            acted = set(map(_PLAYER, events))
            acted.update(self.held)
            for name, seat in self.seats.items():
                if seat.dealt != (name in acted):
                    self.seats[name] = seat._replace(dealt=name in acted)
        hand.seats = tuple(self.seats.values())
        hand.collected = self.collected
        if complete:
            self._check_pot(*(paid or self._paid()))
        # The C derivation serves every hand it would add no note to (a third of reading a PokerStars hand
        # in Python); None: this twin decides, and words the notes.
        held = c_holdings(self.seats, events, self.held, self.shown, hand.draws, hand.hand_size, _HOLDINGS)
        hand.holdings = held if held is not None else self._holdings()
        hand.actions = tuple(events)  # with the draws' cards the holdings showed
        return hand

    def _paid(self) -> tuple[int, int]:
        """(Chips the players put in, chips the room paid them)."""
        gross = 0
        behind = self.behind
        for name, seat in self.seats.items():
            paid = seat.stack - behind[name]
            if paid < 0:
                raise self.fail(f"more is returned to {name} than {name} put in", self.hand.line)
            gross += paid
        return gross, sum(self.collected.values())

    def _check_pot(self, gross: int, won: int) -> None:
        """The room's rake and total pot against what the players put in (``gross``) and were paid (``won``)."""
        hand = self.hand
        if hand.rake is None and self.collected:
            hand.rake = gross - won  # a room that does not state its rake: what the winners did not get
            if hand.rake < 0:
                raise self.fail(f"the amounts do not add up: the players put in {hand.money(gross)}, the room "
                                f"paid {hand.money(won)}", hand.line)
        if hand.pot is not None and hand.pot != gross:
            raise self.fail(f"the amounts do not add up: the players put in {hand.money(gross)}, the room "
                            f"states a total pot of {hand.money(hand.pot)}", hand.line)
        if self.collected and won + (hand.rake or 0) != gross:
            raise self.fail(f"the amounts do not add up: the players put in {hand.money(gross)}, the room paid "
                            f"{hand.money(won)} and raked {hand.money(hand.rake or 0)}", hand.line)
        if not self.collected and gross and hand.rake is None:
            hand.notes.append("the room states no winner")

    def _holdings(self) -> dict[str, list[tuple[int, ...] | None]]:
        hand = self.hand
        width = hand.draws + 1
        events = self.events
        held_by = self.held
        shown = self.shown
        # Only players with a card known somewhere need the work below; the draws that show cards are
        # already in ``held`` (``drew``) or are taken as they are.
        out: dict[str, list[tuple[int, ...] | None]] = {}
        if not held_by and not shown:
            for name, seat in self.seats.items():
                if seat.dealt:
                    out[name] = [None] * width
            return out
        last = events[-1][0] if events else 0
        folded_at: dict[str, int] = {}
        draws_of: dict[str, dict[int, Event]] = {}
        # One pass over the events.  (Not compress over map(DRAW.__eq__, kinds): a method-wrapper called
        # from map builds an argument tuple for every event, several times the instructions of this loop.)
        for e in events:
            kind = e[2]
            if kind == DRAW:
                draws_of.setdefault(e[1], {})[e[0]] = e
            elif kind == FOLD:
                folded_at[e[1]] = e[0]
        for name, seat in self.seats.items():
            if not seat.dealt:
                continue
            if name not in held_by and name not in shown:
                out[name] = [None] * width
                continue
            held: list[tuple[int, ...] | None] = [None] * width
            for street, cards in held_by.get(name, {}).items():
                if 0 <= street < width:
                    held[street] = cards
            mine = draws_of.get(name, {})
            end = min(folded_at.get(name, last), hand.draws)
            final = shown.get(name)
            if final is not None:
                s = end
                while s >= 0:
                    if held[s] is None:
                        held[s] = final
                    elif set(held[s] or ()) != set(final):
                        hand.notes.append(f"the cards shown for {name} are not the cards dealt to {name}")
                    d = mine.get(s)
                    if s == 0 or (d is not None and d.drawn != 0):
                        break
                    s -= 1
            if not self._derive(name, held, mine, end):
                hand.notes.append(f"the cards the text gives {name} do not add up: taken as unknown")
                held = [None] * width
                if final is not None:
                    held[end] = final
                for s, d in mine.items():
                    self.events[self.events.index(d)] = d._replace(cards=None, new=None)
            out[name] = held
        return out

    def _derive(self, name: str, held: list[tuple[int, ...] | None], mine: dict[int, Event], end: int) -> bool:
        """Fill what follows from what is known (a draw's discards and new cards from the hands before and
        after it, a hand after a draw from the one before and the draw); False when they contradict."""
        size = self.hand.hand_size
        for h in held:
            if h is not None and (len(h) != size or len({*h}) != size):
                return False
        for s in range(1, end + 1):
            d = mine.get(s)
            if d is None:
                if held[s] is None:
                    held[s] = held[s - 1]
                continue
            before, after = held[s - 1], held[s]
            count = d.drawn or 0
            if before is not None and after is not None:
                kept = {*before}.intersection(after)
                gone = tuple([c for c in before if c not in kept])
                came = tuple([c for c in after if c not in kept])
                if len(gone) != count or len(came) != count:
                    return False
                if (d.cards is not None and set(d.cards) != set(gone)) or (d.new is not None and set(d.new) != set(came)):
                    return False
                if d.cards is None or d.new is None:
                    e = _new(Event, d[:7] + (gone, came) + d[9:])  # d._replace(cards=gone, new=came)
                    self.events[self.events.index(d)] = e
                    mine[s] = e
            elif before is not None and count == 0:
                held[s] = before
            elif after is not None and count == 0:
                held[s - 1] = after
            elif before is not None and d.cards is not None and d.new is not None:
                if not set(d.cards) <= set(before) or len(d.new) != count:
                    return False
                held[s] = tuple(c for c in before if c not in d.cards) + d.new
            elif before is not None and d.cards is not None and not set(d.cards) <= set(before):
                return False
        return True
