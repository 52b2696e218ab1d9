"""Full Tilt Poker hand histories (``Full Tilt Poker Game #`` or ``FullTiltPoker Game #``; cash games,
sit & gos; the client's UTF-16 files and its archive format with ``*** # 1 ***`` separators).

What this room writes, as read here: ``Name verb ...`` without a colon (a colon is chat), names with
spaces, ``raises to $X`` (the round total), ``calls $X`` (the chips added), ``posts the small blind of``,
``posts a dead small blind of`` (dead), ``antes``, ``The button is in seat #5`` after the posts,
``discards 1 card [Qs]`` then ``Dealt to Hero [kept] [new]``, ``wins the pot ($X)``, ``Total pot $X |
Rake $Y`` (before the rake); a hand kept ``(partial)`` has only its summary.
"""

from __future__ import annotations

import re

from badacey_fast.errors import HandHistoryError
from badacey_fast.histories.build import HandBuilder, posted_stakes
from badacey_fast.histories.games import betting, variant
from badacey_fast.histories.model import (
    ANTE, BET, BIG_BLIND, CALL, DEAD, MUCK, POST, RAISE, SMALL_BLIND, Event, RealHand,
)
from badacey_fast.histories.sites.base import Site
from badacey_fast.histories.sites.words import CONSTS, Names, strip_all_in, when
from badacey_fast.histories.text import amount, cards
from badacey_fast.kernel import read_tilt

__all__ = ["SITE", "parse"]

_FIRST = re.compile(r"^(?:Full Tilt Poker|FullTiltPoker) Game #(?P<id>\d+): (?P<rest>.*)$")
_STAKES = re.compile(r"^(?P<small>[$€£]?[\d,.]+)/(?P<big>[$€£]?[\d,.]+)(?: Ante (?P<ante>[$€£]?[\d,.]+))?$")
_LIMIT = re.compile(r"^(?P<limit>No Limit|Pot Limit|Limit|FL|NL|PL) (?P<variant>.+)$")
_TOURNAMENT = re.compile(r"\((?P<tour>\d+)\), Table (?P<table>.+)$")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^)]+)\)(?P<tail>.*)$")
_STREETS = {"FIRST DRAW": 1, "SECOND DRAW": 2, "THIRD DRAW": 3, "DRAW": 1}
_SUMMARY_CARDS = re.compile(r"(?:showed|mucked) \[(?P<cards>[^]]*)\]")



def _between(line: str, context: dict[str, object]) -> bool:
    # The archive's separators: "******************** # 1 *************************"
    return line.startswith("*****") and "#" in line and line.endswith("*")


def _header(line: str, hand: RealHand) -> tuple[int, int] | None:
    m = _FIRST.match(line)
    if m is None:
        raise HandHistoryError("a Full Tilt first line in a shape this reader does not know", hand.file, hand.line)
    hand.hand_id = m["id"]
    parts = m["rest"].split(" - ")
    if parts and parts[-1].endswith("(partial)"):
        parts[-1] = parts[-1][: -len("(partial)")].strip()
        hand.status = "partial"
    if len(parts) < 4:
        raise HandHistoryError("a Full Tilt first line without its stakes, game, time and date", hand.file, hand.line)
    date, clock = parts[-1], parts[-2]
    clock_part, _, tz = clock.partition(" ")
    # A session's hands share what comes before the time (table, stakes, game): what it gives is read once
    # (a bounded cache of the hands read whole; a hand that fails is read again, and fails the same way).
    key = tuple(parts[:-2])
    known = _BODIES.get(key)
    if known is not None:
        (hand.variant, hand.betting, hand.game, hand.draws, hand.hand_size, hand.tournament, hand.table,
         hand.currency, hand.scale, hand.max_seats, hand.ante, amounts) = known
        hand.started = when(f"{date} {clock_part}", tz or None)
        return amounts
    stakes = _body(list(key), m["rest"], hand)
    hand.started = when(f"{date} {clock_part}", tz or None)
    if stakes["ante"]:
        hand.ante = amount(stakes["ante"], hand.scale)
    amounts = amount(stakes["small"], hand.scale), amount(stakes["big"], hand.scale)
    if len(_BODIES) > 1024:
        _BODIES.clear()
    _BODIES[key] = (hand.variant, hand.betting, hand.game, hand.draws, hand.hand_size, hand.tournament, hand.table,
                    hand.currency, hand.scale, hand.max_seats, hand.ante, amounts)
    return amounts


# (the first line's parts before its time) -> (variant, betting, game, draws, hand size, tournament, table,
# currency, scale, max seats, ante, stakes as amounts): what those words give every hand.
_BODIES: dict[tuple[str, ...], tuple[str, str, str | None, int, int, str | None, str, str, int, int | None, int,
                                     tuple[int, int]]] = {}


def _body(body: list[str], rest: str, hand: RealHand) -> re.Match[str]:
    """Set the fields the first line's parts before its time give on ``hand``; returns the stakes' match."""
    stakes = None
    game: str | None = None
    k = len(body)
    while k > 0 and (stakes is None or game is None):
        s = _STAKES.match(body[k - 1]) if stakes is None else None
        if s is not None:
            stakes = s
        elif game is None and _LIMIT.match(body[k - 1]):
            game = body[k - 1]
        else:
            break
        k -= 1
    where = " - ".join(body[:k])
    if game is None or stakes is None:
        raise HandHistoryError(f"no game or stakes in {rest!r}", hand.file, hand.line)
    g = _LIMIT.match(game)
    assert g is not None  # game was chosen by this pattern
    hand.variant = g["variant"]
    hand.betting = betting(g["limit"])
    hand.game, hand.draws, hand.hand_size = variant(hand.variant)
    t = _TOURNAMENT.search(where)
    if t is not None:
        hand.tournament, hand.table = t["tour"], t["table"]
        hand.currency, hand.scale = "chips", 0
    else:
        hand.table = where[6:] if where.startswith("Table ") else where
        money = stakes["small"]
        hand.scale = 2
        hand.currency = "USD" if money.startswith("$") else "EUR" if money.startswith("€") else \
            "GBP" if money.startswith("£") else "play"
    if hand.table.endswith(")") and " (" in hand.table:
        table, _, size = hand.table[:-1].rpartition(" (")
        hand.table = table
        hand.max_seats = 2 if size == "heads up" else int(size.split()[0]) if size.split()[0].isdigit() else None
    return stakes


def parse(lines: list[str], start: int, file: str, context: dict[str, object]
          ) -> tuple[RealHand, list[tuple[int, str]]]:
    """One Full Tilt hand (see the module docstring)."""
    hand = RealHand("Full Tilt", "", file, start)
    stakes = _header(lines[0], hand)
    b = HandBuilder(hand)
    # A partial hand's summary pays and seats players: the Python reader's alone.
    got = read_tilt(lines, 1, start, hand.scale, hand.draws, hand.hand_size, CONSTS) \
        if hand.status == "complete" else None
    if got is None:  # the Python twin: always on the Python backend, and for any hand the C reader leaves
        return _play(b, lines, 1, start, stakes)
    b.seats, b.behind, b.events, b.held, b.collected, b.shown, b.posted, hand.pot, hand.rake, garbage, button = got
    if button is not None:
        hand.button = button
    return _end(b, stakes), garbage


def _play(b: HandBuilder, lines: list[str], i: int, start: int, stakes: tuple[int, int] | None
          ) -> tuple[RealHand, list[tuple[int, str]]]:
    """The hand from its seats (``lines[i]``) on, in Python: the twin of the C reader
    (``kernel.read_tilt``), which reads these lines the same way or leaves the hand to this function."""
    hand = b.hand
    scale = hand.scale
    n = len(lines)
    garbage: list[tuple[int, str]] = []
    while i < n and (not lines[i] or lines[i].startswith("Seat ")):
        s = _SEAT.match(lines[i]) if lines[i] else None
        if lines[i] and s is None:
            break
        if s is not None:
            seat, name, stack, tail = s.groups()  # one call, not four look-ups by group name
            b.seat(int(seat), name, amount(stack, scale), dealt="sitting out" not in tail)
        i += 1
    names = Names(b.seats)
    summary = -1
    while i < n:
        line = lines[i]
        no = start + i
        i += 1
        if not line:
            continue
        if line.startswith("*** "):
            mark = line[4:].split(" ***", 1)[0]
            if mark == "SUMMARY":
                summary = i
                break
            street = _STREETS.get(mark)
            if street is not None:
                b.new_street(street, True)
            continue
        got = names.split(line, " ")
        if got is not None:
            _action(b, got[0], got[1], no, scale)
        elif line.startswith("Dealt to "):
            got = names.split(line[9:], " ")
            if got is None:
                raise b.fail(f"cards dealt to a player not seated: {line!r}", no)
            name, rest = got
            groups = rest.split("] [")
            if b.street == 0 or b.last_draw.get(name) is None:
                b.hold(name, cards(rest), 0 if b.street == 0 else None)
            else:
                b.drew(name, cards(groups[0]) if len(groups) == 2 else (), cards(groups[-1]), no)
        elif line.startswith("Uncalled bet of "):
            money, _, who = line[16:].partition(" returned to ")
            b.uncalled(who, amount(money, scale), no)
        elif line.startswith("The button is in seat #"):
            hand.button = int(line[23:])
    if summary < 0:
        raise b.fail("truncated hand: no *** SUMMARY ***", start + n - 1)
    _summary(b, lines, summary, start, scale, garbage)
    return _end(b, stakes), garbage


def _end(b: HandBuilder, stakes: tuple[int, int] | None) -> RealHand:
    """The hand's status, blinds and limits from its events, and the finished hand (both readers')."""
    hand = b.hand
    if hand.status == "complete" and not any(e.kind in ("fold", "check", "call", "bet", "raise", "draw")
                                              for e in b.events):
        hand.status = "no deal"
    _stakes(hand, b.events, stakes)
    return b.finish()


def _action(b: HandBuilder, name: str, rest: str, no: int, scale: int) -> None:
    verb, _, what = rest.partition(" ")
    if verb == "folds":
        b.fold(name, no)
    elif verb == "checks":
        b.check(name, no)
    elif verb == "calls":
        what, all_in = strip_all_in(what)
        b.bet(name, CALL, no, added=amount(what, scale), all_in=all_in)
    elif verb == "bets":
        what, all_in = strip_all_in(what)
        b.bet(name, BET, no, added=amount(what, scale), all_in=all_in)
    elif verb == "raises":
        what, all_in = strip_all_in(what)
        b.bet(name, RAISE, no, to=amount(what.rpartition(" ")[2], scale), all_in=all_in)
    elif verb == "discards":
        count, _, shown = what.partition(" card")
        discards = cards(shown[shown.index("["):]) if "[" in shown else None
        b.draw(name, int(count), no, discards if discards is not None and len(discards) == int(count) else None)
    elif verb == "stands" and what.startswith("pat"):
        b.draw(name, 0, no)
        if "[" in what:
            b.hold(name, cards(what[what.index("["):]))
    elif verb == "posts":
        what, _ = strip_all_in(what)
        money = amount(what.rpartition(" ")[2], scale)
        if what.startswith("the small blind"):
            b.post(name, SMALL_BLIND, money, no)
        elif what.startswith("the big blind"):
            b.post(name, BIG_BLIND if BIG_BLIND not in b.posted else POST, money, no)
        elif what.startswith("a dead"):
            b.post(name, DEAD, money, no)
        else:
            b.post(name, POST, money, no)
    elif verb == "antes":
        what, _ = strip_all_in(what)
        b.post(name, ANTE, amount(what, scale), no)
    elif verb == "shows":
        b.show(name, cards(what[: what.index("]") + 1]) if "[" in what else None, no)
    elif verb == "mucks":
        b.show(name, cards(what[: what.index("]") + 1]) if what.startswith("[") else None, no, MUCK)
    elif verb == "wins" or verb == "ties":
        # "wins the pot ($2,922) with ...", "wins the side pot #1 ($5)", "ties for the pot ($5)"
        head, _, tail = what.partition("(")
        pot = head.replace("for the", "").replace("the", "").replace("pot", "").replace("#", "").strip()
        b.collect(name, amount(tail.split(")", 1)[0], scale), pot, no)
    elif verb == "is" and what == "sitting out":
        b.sit_out(name)
    # "is dealt 2 cards", "has 15 seconds left to act", "adds $5", "sits down": nothing to record


def _summary(b: HandBuilder, lines: list[str], i: int, start: int, scale: int,
             garbage: list[tuple[int, str]]) -> None:
    hand = b.hand
    seat_names = Names(b.seats)
    for k in range(i, len(lines)):
        line = lines[k]
        if not line or line == "\ufffd":  # the client's UTF-16 files end with half a character
            continue
        if line.startswith("Total pot "):
            head, _, rake = line.partition("| Rake ")
            hand.pot = amount(head[10:].split(" ", 1)[0], scale)
            hand.rake = amount(rake, scale) if rake else None
        elif line.startswith("Seat "):
            body = line.split(": ", 1)[-1]
            got = seat_names.split(body, " ")
            if got is None:
                continue
            name, rest = got
            m = _SUMMARY_CARDS.search(rest)
            if m is not None:
                b.reveal(name, cards(m["cards"]))
            if hand.status == "partial":
                if name not in b.seats:
                    continue
                if "collected (" in rest:
                    money = rest.split("collected (", 1)[1].split(")", 1)[0]
                    b.collected[name] = b.collected.get(name, 0) + amount(money, scale)
                if "sitting out" in rest:
                    b.sit_out(name)
        elif line.startswith(("Duration ", "Board")):
            continue
        else:
            garbage.append((start + k, line))


def _stakes(hand: RealHand, events: list[Event], stakes: tuple[int, int] | None) -> None:
    small, big, ante = posted_stakes(events)
    hand.ante = max(ante, hand.ante)
    if hand.betting == "fixed":
        hand.limits = stakes
        if stakes is not None:
            # The big blind is the small bet, the small blind what the room says (FTP's 2 of a 5 bet).
            hand.blinds = (small or stakes[0] // 2, stakes[0])
    else:
        hand.blinds = stakes if stakes is not None else (small, big)


START = r"Full ?Tilt ?Poker Game #"

SITE = Site("Full Tilt", START, parse, _between, aliases=("ftp", "fulltiltpoker", "full tilt poker"),
            prefixes=("Full",))
