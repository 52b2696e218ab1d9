"""PokerStars hand histories (cash games and tournaments; ``PokerStars Hand #``, older ``PokerStars Game #``).

What this room writes, as read here: ``Name: verb ...`` for every action, ``raises $X to $Y`` (``to`` is
the round total), ``calls $X`` (the chips added), ``posts small & big blinds`` (the small blind's part
dead), ``discards 2 cards [..]`` then ``Dealt to Hero [kept] [new]``, ``The deck is reshuffled``,
``Total pot $X | Rake $Y`` (the pot before the rake), ``collected $X from side pot-2``; 5 Card Draw and
some single-draw hands have no ``*** DRAW ***`` line (a draw after a betting round starts the next street).
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
from badacey_fast.kernel import read_stars, stars_first_line, stars_table_line

__all__ = ["SITE", "parse"]

_HEADER = re.compile(
    r"^PokerStars (?:Zoom |Home Game |Rush )?(?:Hand|Game) #(?P<id>\d+):\s*"
    r"(?:Tournament #(?P<tour>\d+), (?:(?P<buyin>[^ ]*\d[^ ]*(?: [A-Z]{3})?|Freeroll) )?)?"
    r"(?P<game>.*?) - "
    r"(?:Match Round \w+, )?(?:Level (?P<level>\w+) \((?P<lvl>[^)]*)\) - )?"
    r"(?P<date>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2})(?: (?P<tz>[A-Z]+))?"
    r"(?: \[(?P<date2>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2}) (?P<tz2>[A-Z]+)\])?"
)
# "Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD)", "Badugi Limit", "8-Game (Badugi Limit, $1/$2)"
_GAME = re.compile(r"^(?P<variant>.*?) (?P<limit>Pot Limit|No Limit|Fixed Limit|Limit)(?: \((?P<stakes>[^)]*)\))?$")
_MIXED = re.compile(r"^(?P<mix>.*?) \((?P<variant>.*?) (?P<limit>Pot Limit|No Limit|Fixed Limit|Limit)(?:, (?P<stakes>[^)]*))?\)$")
_TABLE = re.compile(r"^Table '(?P<table>.*)' (?:(?P<max>\d+)-max )?(?:\(Play Money\) )?(?:Seat #(?P<button>\d+) is the button)?")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^ )]+)(?: in chips)?(?:, [^)]*)?\)(?P<tail>.*)$")
_STREETS = {"FIRST DRAW": 1, "SECOND DRAW": 2, "THIRD DRAW": 3, "DRAW": 1}
_SUMMARY_CARDS = re.compile(r"(?:showed|mucked) \[(?P<cards>[^]]*)\]")



def _between(line: str, context: dict[str, object]) -> bool:
    return False


#: _HEADER's groups, in the order kernel.stars_first_line gives them.
_GROUPS = ("id", "tour", "buyin", "game", "level", "lvl", "date", "tz", "date2", "tz2")


def _first_line(line: str) -> tuple[str | None, ...] | None:
    """_HEADER's groups of a first line (None: not one): read in C (csrc/cpython/stars_head.c, which gives
    what the expression gives or leaves the line to it), or by the expression."""
    got = stars_first_line(line)
    if got is not None:
        return got
    m = _HEADER.match(line)
    return None if m is None else m.group(*_GROUPS)


def _header(line: str, hand: RealHand) -> tuple[int, int] | None:
    """Fill the header fields; the stakes (two amounts) where stated."""
    got = _first_line(line)
    hand_id, tour, _, game_words, _, lvl, date, tz, date2, tz2 = got or (None,) * 10
    if hand_id is None or game_words is None or date is None:  # (groups that take part in every match)
        raise HandHistoryError("a PokerStars first line in a shape this reader does not know", hand.file, hand.line)
    hand.hand_id = hand_id
    if date2:
        date, tz = date2, tz2
    # A session's hands share the game and stakes words: what they give is read once (a bounded cache of
    # the hands read whole; a hand that fails is read again, and fails the same way).
    key = (game_words, lvl, bool(tour))
    known = _TABLES.get(key)
    if known is None:
        note, stakes = _game_words(game_words, lvl, tour, hand)
        hand.started = when(date, tz)
        amounts: tuple[int, int] | None = None
        if stakes:
            parts = stakes.split(" ")[0].split("/")
            if len(parts) == 2:
                amounts = amount(parts[0], hand.scale), amount(parts[1], hand.scale)
        if len(_TABLES) > 1024:
            _TABLES.clear()
        _TABLES[key] = (hand.variant, hand.betting, hand.game, hand.draws, hand.hand_size, note, hand.currency,
                        hand.scale, amounts)
        return amounts
    variant_words, betting_words, game, draws, size, note, currency, scale, amounts = known
    hand.variant, hand.betting, hand.game, hand.draws, hand.hand_size = variant_words, betting_words, game, draws, size
    if note is not None:
        hand.notes.append(note)
    if tour:
        hand.tournament = tour
    hand.currency, hand.scale = currency, scale
    hand.started = when(date, tz)
    return amounts


# (game words, level words, tournament?) -> (variant, betting, game, draws, hand size, note, currency, scale,
# stakes as amounts): what those words give every hand.
_TABLES: dict[tuple[str, str | None, bool],
              tuple[str, str, str | None, int, int, str | None, str, int, tuple[int, int] | None]] = {}


def _game_words(words: str, lvl: str | None, tour: str | None, hand: RealHand) -> tuple[str | None, str | None]:
    """Set the fields the game words (and a tournament's level stakes ``lvl``, its id ``tour``) give on
    ``hand``; returns the note it adds (if any) and the stakes' words."""
    game = words.strip()
    g = _MIXED.match(game) or _GAME.match(game)
    if g is None:
        raise HandHistoryError(f"unknown PokerStars game {game!r}", hand.file, hand.line)
    hand.variant = g["variant"]
    hand.betting = betting(g["limit"])
    hand.game, hand.draws, hand.hand_size = variant(hand.variant)
    note = None
    if hand.betting != "fixed" and hand.game is not None:
        note = f"{g['limit']} {hand.variant}: the engine plays fixed limit"
        hand.notes.append(note)
    stakes = g["stakes"] or lvl
    if tour:
        hand.tournament = tour
        hand.currency, hand.scale = "chips", 0
    else:
        hand.scale = 2
        currency = (stakes or "").rsplit(" ", 1)[-1] if stakes and stakes[-1].isalpha() else ""
        hand.currency = currency if currency else ("USD" if stakes and "$" in stakes else
                                                  "EUR" if stakes and "€" in stakes else "play")
    return note, stakes


def parse(lines: list[str], start: int, file: str, context: dict[str, object]
          ) -> tuple[RealHand, list[tuple[int, str]]]:
    """One PokerStars hand (see the module docstring)."""
    hand = RealHand("PokerStars", "", file, start)
    stakes = _header(lines[0], hand)
    n = len(lines)
    i = 1
    while i < n and not lines[i]:
        i += 1
    if i < n and lines[i].startswith("Table '"):
        table = stars_table_line(lines[i])  # C (csrc/cpython/stars_head.c), or None: the expression reads it
        if table is not None:
            hand.table, hand.max_seats, hand.button = table
        else:
            t = _TABLE.match(lines[i])
            if t is not None:
                hand.table = t["table"]
                hand.max_seats = int(t["max"]) if t["max"] else None
                hand.button = int(t["button"]) if t["button"] else None
        i += 1
    b = HandBuilder(hand)
    got = read_stars(lines, i, start, hand.scale, hand.draws, hand.hand_size, _CONSTS)
    if got is None:  # the Python twin: always on the Python backend, and for any hand the C reader leaves
        return _play(b, lines, i, start, stakes)
    b.seats, b.behind, b.events, b.held, b.collected, b.shown, b.posted, hand.pot, hand.rake, garbage, _ = got
    _stakes(hand, b.events, stakes, ANTE in b.posted)
    return b.finish(), garbage


_CONSTS = CONSTS  # what the C reader builds with (words.CONSTS)


def _play(b: HandBuilder, lines: list[str], i: int, start: int, stakes: tuple[int, int] | None
          ) -> tuple[RealHand, list[tuple[int, str]]]:
    """The hand from its seats (``lines[i]``) on, in Python: the twin of the C reader
    (``kernel.read_stars``), which reads these lines the same way or leaves the hand to this function."""
    hand = b.hand
    scale = hand.scale
    n = len(lines)
    while i < n and lines[i].startswith("Seat "):
        s = _SEAT.match(lines[i])
        if s is None:
            break
        seat, name, stack, tail = s.groups()  # one call, not four look-ups by group name
        b.seat(int(seat), name, amount(stack, scale), dealt="sitting out" not in tail and "out of hand" not in tail)
        i += 1
    if not b.seats:
        raise b.fail("no seats: the hand is cut off after its first line", start)
    names = Names(b.seats)
    players = names.all
    colon_names = names.colon
    fold, check, bet, draw = b.fold, b.check, b.bet, b.draw
    summary = -1
    garbage: list[tuple[int, str]] = []
    no = start + i - 1
    for line in lines[i:]:
        no += 1
        name, colon, rest = line.partition(": ")
        if colon and name in players:
            # The hot path: one line of play (the commonest first, inlined).
            if rest == "folds":
                fold(name, no)
            elif rest == "checks":
                check(name, no)
            elif rest[:6] == "calls ":
                what = rest[6:]
                all_in = what.endswith("all-in")
                if all_in:
                    what = strip_all_in(what)[0]
                bet(name, CALL, no, added=amount(what, scale), all_in=all_in)
            elif rest[:9] == "discards " and rest[10:15] == " card":
                count = int(rest[9])
                discards = cards(rest[rest.index("["):]) if "[" in rest else None
                draw(name, count, no, discards if discards is not None and len(discards) == count else None)
            elif rest == "stands pat":
                draw(name, 0, no)
            elif rest[:5] == "bets " and not rest.endswith("all-in"):
                bet(name, BET, no, added=amount(rest[5:], scale))
            else:
                _action(b, name, rest, no, scale)
            continue
        if not line:
            continue
        if line[:4] == "*** ":
            mark = line[4:].split(" ***", 1)[0]
            if mark == "SUMMARY":
                summary = no - start + 1
                break
            street = _STREETS.get(mark)
            if street is not None:
                b.new_street(street, True)
            continue
        got = names.split(line, ": ") if colon_names else None  # else the partition above said it
        if got is not None:
            _action(b, got[0], got[1], no, scale)
        elif line.startswith("Dealt to "):
            _dealt(b, names, players, line, no)
        elif line.startswith("Uncalled bet ("):
            money, _, who = line[14:].partition(") returned to ")
            b.uncalled(who, amount(money, scale), no)
        elif " collected " in line and " from " in line:
            name_amount, _, pot = line.rpartition(" from ")
            who, _, money = name_amount.rpartition(" collected ")
            pot = pot.replace("pot", "").replace("-", " ").strip()
            b.collect(who, amount(money, scale), pot, no)
        elif line == "The deck is reshuffled":
            b.events.append(Event(b.street, "", "reshuffle", line=no))
        elif line == "Hand cancelled":
            hand.status = "cancelled"
    if summary < 0:
        if hand.status == "cancelled":
            return b.finish(), garbage
        raise b.fail("truncated hand: no *** SUMMARY ***", start + n - 1)
    _summary(b, names, lines, summary, start, scale, garbage)
    _stakes(hand, b.events, stakes, ANTE in b.posted)
    return b.finish(), garbage


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
        _, _, to = what.partition(" to ")
        b.bet(name, RAISE, no, to=amount(to, scale), all_in=all_in)
    elif verb == "discards":
        count, _, shown = what.partition(" card")
        discards = cards(shown.lstrip("s ")) if "[" in shown else None
        b.draw(name, int(count), no, discards if discards is not None and len(discards) == int(count) else None)
    elif verb == "stands" and what.startswith("pat"):  # "stands pat" / "stands pat on [cards]"
        b.draw(name, 0, no)
        if "[" in what:
            b.hold(name, cards(what[what.index("["):]))
    elif verb == "posts":
        what, _ = strip_all_in(what)
        if what.startswith("small & big blinds "):
            total = amount(what[19:], scale)
            big = b.hand.blinds[1] or _big_blind_of(b)
            b.post(name, DEAD, total - big, no)
            b.post(name, BIG_BLIND if BIG_BLIND not in b.posted else POST, big, no)
        elif what.startswith("small blind "):
            b.post(name, SMALL_BLIND if SMALL_BLIND not in b.posted else DEAD, amount(what[12:], scale), no)
        elif what.startswith("big blind "):
            b.post(name, BIG_BLIND if BIG_BLIND not in b.posted else POST, amount(what[10:], scale), no)
        elif what.startswith(("the ante ", "ante ")):
            b.post(name, ANTE, amount(what.rpartition(" ")[2], scale), no)
        else:
            raise b.fail(f"unknown post {rest!r}", no)
    elif verb == "shows":
        b.show(name, cards(what[: what.index("]") + 1]) if "[" in what else None, no)
    elif verb == "mucks":
        b.show(name, cards(what) if what.startswith("[") else None, no, MUCK)
    elif verb in ("is", "sits") and ("sitting out" in what or what == "out"):
        b.sit_out(name)
    elif verb not in _QUIET:  # a verb this reader does not know: noted (its chips, if any, fail the check)
        b.hand.notes.append(f"line {no}: {name}'s action {rest!r} is not read")


# What a player may do that moves no chip and no card.
_QUIET = frozenset({"doesn't", "is", "sits", "has", "said", "leaves", "joins", "will", "was", "timed", "removed",
                    "re-joins", "returned"})


def _big_blind_of(b: HandBuilder) -> int:
    for e in b.events:
        if e.kind == BIG_BLIND and e.amount:
            return e.amount
    raise b.fail("'posts small & big blinds' before anyone posts the big blind: its size is unknown", 0)


def _dealt(b: HandBuilder, names: Names, players: set[str], line: str, no: int) -> None:
    cut = line.find(" [", 9)
    name = line[9:cut]
    if name in players:
        rest = line[cut + 1:]
    else:  # a name with " [" in it
        got = names.split(line[9:], " ")
        if got is None:
            raise b.fail(f"cards dealt to a player not seated: {line!r}", no)
        name, rest = got
    if b.street == 0:
        b.hold(name, cards(rest), 0)
        return
    groups = rest.split("] [")
    if len(groups) == 1 and b.last_draw.get(name) is None:
        b.hold(name, cards(rest))
        return
    b.drew(name, cards(groups[0]) if len(groups) == 2 else (), cards(groups[-1]), no)


def _summary(b: HandBuilder, names: Names, lines: list[str], i: int, start: int, scale: int,
             garbage: list[tuple[int, str]]) -> None:
    hand = b.hand
    for k in range(i, len(lines)):
        line = lines[k]
        if not line:
            continue
        if line.startswith("Total pot "):
            head, _, rake = line.partition("| Rake ")
            hand.pot = amount(head[10:].split(" ", 1)[0], scale)
            hand.rake = amount(rake, scale) if rake else None
        elif line.startswith("Seat "):
            m = _SUMMARY_CARDS.search(line) if "[" in line else None
            if m is not None:
                seat = line[5:].split(": ", 1)
                if len(seat) == 2:
                    got = names.split(seat[1], " ")
                    if got is not None:
                        b.reveal(got[0], cards(m["cards"]))
        elif line.startswith(("Board ", "Hand was run")):
            continue
        else:
            garbage.append((start + k, line))


def _stakes(hand: RealHand, events: list[Event], stakes: tuple[int, int] | None, antes: bool) -> None:
    """Blinds from the posts; the limits (fixed limit) or blinds (else) the header states.  ``antes``:
    whether anyone posted an ante (else no event need be looked at for one)."""
    small, big, ante = posted_stakes(events)
    hand.ante = ante if antes else 0
    if hand.betting == "fixed":
        if stakes is not None:
            hand.limits = stakes
        elif big:
            hand.limits = (big, 2 * big)
        hand.blinds = (small, big or (hand.limits[0] if hand.limits else 0))
    else:
        hand.blinds = stakes if stakes is not None else (small, big)


START = r"PokerStars (?:Zoom |Home Game |Rush )?(?:Hand|Game) #"

SITE = Site("PokerStars", START, parse, _between, aliases=("stars", "ps", "pokerstars.com"),
            prefixes=("PokerStars ",))
