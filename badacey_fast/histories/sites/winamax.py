"""Winamax hand histories (``Winamax Poker - CashGame - HandId: #...``, tournaments ``Tournament "..."``).

What this room writes, as read here: ``Name posts small blind 12.50€``, ``posts big blind 0.50 out of
position`` (a live post), ``raises 25€ to 50€`` (``to``: the round total), ``calls 25€`` (the chips added),
``discard 2 cards`` / ``stands pat [..]`` (the hero's cards only where the room shows them),
``collected 298€ from pot``, and ``Total pot 298€ | Rake 2€`` where the total is what the winners got:
the pot before the rake is the total plus the rake.
"""

from __future__ import annotations

import re

from badacey_fast.errors import HandHistoryError
from badacey_fast.histories.build import HandBuilder
from badacey_fast.histories.games import betting, variant
from badacey_fast.histories.model import ANTE, BET, BIG_BLIND, CALL, DEAD, MUCK, POST, RAISE, SMALL_BLIND, RealHand
from badacey_fast.histories.sites.base import Site
from badacey_fast.histories.sites.words import Names, strip_all_in, when
from badacey_fast.histories.text import amount, cards

__all__ = ["SITE", "parse"]

_FIRST = re.compile(
    r"^Winamax Poker - (?P<kind>CashGame|Tournament \"(?P<tname>[^\"]*)\"[^-]*|[^-]+?) - HandId: #(?P<id>[\d-]+) - "
    r"(?P<game>.+?) \((?P<stakes>[^)]*)\) - (?P<date>\d{4}/\d{2}/\d{2} \d{1,2}:\d{2}:\d{2})(?: (?P<tz>\w+))?")
_LIMIT = re.compile(r"^(?P<variant>.+?) (?P<limit>fixed limit|pot limit|no limit|limit)$", re.I)
_TABLE = re.compile(r"^Table: '(?P<table>.*)' (?:(?P<max>\d+)-max )?(?P<money>\([^)]*\) )?Seat #(?P<button>\d+) is the button")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^)]+)\)(?P<tail>.*)$")
_STREETS = {"FIRST-DRAW": 1, "SECOND-DRAW": 2, "THIRD-DRAW": 3, "DRAW": 1}
_SUMMARY_CARDS = re.compile(r"showed \[(?P<cards>[^]]*)\]")
_MARKED = ("***", "Dealt")  # the first words of the lines the play marks (streets, cards dealt)



def _game(words: str) -> tuple[str, str, tuple[str | None, int, int]]:
    """The variant, the betting and the game of the first line's game words (``2-7 Triple Draw fixed
    limit``).  A session's hands share their game: its words are read once."""
    got = _GAMES.get(words)
    if got is None:
        g = _LIMIT.match(words)
        name = g["variant"] if g else words
        got = (name, betting(g["limit"]) if g else "fixed", variant(name))
        if len(_GAMES) > 4096:
            _GAMES.clear()
        _GAMES[words] = got
    return got


_GAMES: dict[str, tuple[str, str, tuple[str | None, int, int]]] = {}


def _between(line: str, context: dict[str, object]) -> bool:
    return False


def parse(lines: list[str], start: int, file: str, context: dict[str, object]
          ) -> tuple[RealHand, list[tuple[int, str]]]:
    """One Winamax hand (see the module docstring)."""
    m = _FIRST.match(lines[0])
    hand = RealHand("Winamax", "", file, start)
    if m is None:
        raise HandHistoryError("a Winamax first line in a shape this reader does not know", file, start)
    hand.hand_id = m["id"]
    hand.variant, hand.betting, (hand.game, hand.draws, hand.hand_size) = _game(m["game"])
    cash = m["kind"] == "CashGame"
    if cash:
        hand.scale = 2
        hand.currency = "EUR" if "€" in m["stakes"] else "USD" if "$" in m["stakes"] else "play"
    else:
        hand.tournament, hand.currency, hand.scale = (m["tname"] or m["kind"]), "chips", 0
    stakes_text = m["stakes"].split("/")
    stakes = (amount(stakes_text[-2], hand.scale), amount(stakes_text[-1], hand.scale)) if len(stakes_text) >= 2 else None
    hand.started = when(m["date"], m["tz"])
    b = HandBuilder(hand)
    n = len(lines)
    i = 1
    if i < n and lines[i].startswith("Table: "):
        t = _TABLE.match(lines[i])
        if t is not None:
            hand.table = t["table"]
            hand.max_seats = int(t["max"]) if t["max"] else None
            hand.button = int(t["button"])
            if t["money"] and "play" in t["money"]:
                hand.currency = "play"
        i += 1
    while i < n and lines[i].startswith("Seat "):
        s = _SEAT.match(lines[i])
        if s is None:
            break
        seat, name, stack, tail = s.groups()  # one call, not four look-ups by group name
        b.seat(int(seat), name, amount(stack, hand.scale), dealt="out" not in tail)
        i += 1
    if not b.seats:
        raise b.fail("no seats: the hand is cut off after its first lines", start)
    names = Names(b.seats)
    # Where no name holds a space and none is a word the marked lines start with ("***", "Dealt"; most
    # hands), a line's first word is the player's name when it is one: one partition, before the tests
    # of the marked lines (which see every other line, as they did).
    actors = names.all if not names.spaced and names.all.isdisjoint(_MARKED) else ()
    summary = -1
    scale = hand.scale
    while i < n:
        line = lines[i]
        no = start + i
        i += 1
        head, found, rest = line.partition(" ")
        if head in actors and found:
            verb, _, what = rest.partition(" ")
            _action(b, head, verb, what, no, scale)
            continue
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
            elif mark.endswith("-BET") and mark != "FIRST-BET":
                b.drawing = False
            continue
        if line.startswith("Dealt to "):
            got = names.split(line[9:], " ")
            if got is not None:
                b.hold(got[0], cards(got[1].split("] [", 1)[0]), 0 if b.street == 0 else None)
            continue
        got = names.split(line, " ")
        if got is not None:
            verb, _, what = got[1].partition(" ")
            _action(b, got[0], verb, what, no, scale)
    if summary < 0:
        raise b.fail("truncated hand: no *** SUMMARY ***", start + n - 1)
    garbage: list[tuple[int, str]] = []
    for k in range(summary, n):
        line = lines[k]
        if not line:
            continue
        if line.startswith("Total pot "):
            head, _, rake = line.partition("| Rake ")
            hand.rake = amount(rake, scale) if rake else 0
            hand.pot = amount(head[10:].split(" ", 1)[0], scale) + (hand.rake or 0)
        elif line.startswith("Seat "):
            c = _SUMMARY_CARDS.search(line)
            got = names.split(line.split(": ", 1)[-1], " ")
            if c is not None and got is not None:
                b.reveal(got[0], cards(c["cards"]))
        elif line.startswith("Board"):
            continue
        else:
            garbage.append((start + k, line))
    b.stated_stakes(stakes)
    b.return_uncalled(paid_in_collect=True)  # written nowhere: paid back inside "collected"
    return b.finish(), garbage


def _action(b: HandBuilder, name: str, verb: str, what: str, no: int, scale: int) -> None:
    """A player's action: its ``verb`` and ``what`` follows it (``raises`` and ``25€ to 50€``)."""
    what, all_in = strip_all_in(what) if "all" in what else (what, False)  # (no "all": no all-in words)
    if verb == "folds":
        b.fold(name, no)
    elif verb == "checks":
        b.check(name, no)
    elif verb == "calls":
        b.bet(name, CALL, no, added=amount(what, scale), all_in=all_in)
    elif verb == "bets":
        b.bet(name, BET, no, added=amount(what, scale), all_in=all_in)
    elif verb == "raises":
        b.bet(name, RAISE, no, to=amount(what.rpartition(" to ")[2], scale), all_in=all_in)
    elif verb in ("discard", "discards"):
        thrown = int(what.split(" ", 1)[0])
        shown = cards(what[what.index("["):]) if "[" in what else None
        b.draw(name, thrown, no, shown if shown is not None and len(shown) == thrown else None)
    elif verb == "stands" and what.startswith("pat"):
        b.draw(name, 0, no)
        if "[" in what:
            b.hold(name, cards(what[what.index("["):]))
    elif verb == "posts":
        money = amount(what.split(" ")[2] if what.startswith(("small blind", "big blind")) else
                       what.rpartition(" ")[2], scale)
        if what.startswith("small blind"):
            b.post(name, SMALL_BLIND if SMALL_BLIND not in b.posted else DEAD, money, no)
        elif what.startswith("big blind"):
            live_extra = "out of position" in what or BIG_BLIND in b.posted
            b.post(name, POST if live_extra else BIG_BLIND, money, no)
        elif what.startswith("ante"):
            b.post(name, ANTE, money, no)
        else:
            b.post(name, DEAD, money, no)
    elif verb == "shows":
        b.show(name, cards(what[: what.index("]") + 1]) if "[" in what else None, no)
    elif verb == "mucks":
        b.show(name, None, no, MUCK)
    elif verb == "collected":
        won, _, pot = what.partition(" from ")
        b.collect(name, amount(won, scale), pot.replace("pot", "").strip(), no)


START = r"Winamax Poker - "

SITE = Site("Winamax", START, parse, _between, aliases=("wina",), prefixes=("Winamax Poker - ",))
