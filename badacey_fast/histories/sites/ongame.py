"""OnGame Network hand histories (``***** History for hand R5-... *****`` to ``***** End of hand ... *****``).

What this network writes, as read here: ``posts small blind ($0.02)``, ``raises $0.10 to $0.10``
(``to``: the round total), ``calls $0.05 [all in]`` (the chips added), ``changed 2 cards`` and ``New hand
for Hero: [..]``, ``---`` between streets (not always), no uncalled bet (it goes back to its owner), and a
summary ``Main pot: $0.22 won by Name ($0.21)``, ``Rake taken: $0.01`` and each player's net (checked
against the play).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone, tzinfo
from functools import lru_cache

from badacey_fast.errors import HandHistoryError
from badacey_fast.histories.build import HandBuilder
from badacey_fast.histories.games import betting, variant
from badacey_fast.histories.model import ANTE, BET, BIG_BLIND, CALL, DEAD, MUCK, POST, RAISE, SMALL_BLIND, RealHand
from badacey_fast.histories.sites.base import Site
from badacey_fast.histories.sites.words import Names, strip_all_in, zone
from badacey_fast.histories.text import amount, cards

__all__ = ["SITE", "parse"]

_FIRST = re.compile(r"^\*\*\*\*\* History for hand (?P<id>\S+) \*\*\*\*\*")
_TABLE = re.compile(r"^Table: (?P<table>.+?) \[(?P<tid>\d+)\] \((?P<limit>[A-Z_]+) (?P<game>[A-Z_]+) "
                    r"(?P<small>[$€£]?[\d,.]+)/(?P<big>[$€£]?[\d,.]+), (?P<money>[^)]*)\)")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[^)]+)\)(?:, net: (?P<net>[-+][$€£]?[\d,.]+))?(?: \[(?P<cards>[^]]*)\])?")
_POT = re.compile(r"^(?P<pot>Main pot|Side pot \d+): (?P<amount>[$€£]?[\d,.]+) won by (?P<who>.+) \((?P<won>[$€£]?[\d,.]+)\)$")
_MONTHS = {m: k for k, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), 1)}
_LIMITS = {"LIMIT": "Limit", "POT_LIMIT": "Pot Limit", "NO_LIMIT": "No Limit"}
_MARKED = ("Dealing", "New")  # the first words of the lines the play marks (cards dealt, drawn)



def _between(line: str, context: dict[str, object]) -> bool:
    return False


def _date(text: str) -> datetime:
    """``Mon Sep 13 00:21:02 GMT+0100 2010`` (or ``CET``, ``EEST`` for the zone)."""
    _, month, day, clock, tz, year = text.split()
    hh, mm, ss = clock.split(":")
    return datetime(int(year), _MONTHS[month], int(day), int(hh), int(mm), int(ss), tzinfo=_zone(tz))


@lru_cache(maxsize=4096)  # a session's hands share their zone: each is read once
def _zone(tz: str) -> tzinfo | None:
    """The zone of a date's ``GMT+0100`` (a fixed offset), ``GMT`` or abbreviation (see :func:`zone`)."""
    if tz.startswith("GMT") and len(tz) > 3:
        sign = 1 if tz[3] == "+" else -1
        offset = timedelta(hours=int(tz[4:6]), minutes=int(tz[6:8] or 0))
        return timezone(sign * offset)
    return zone(tz) if tz != "GMT" else timezone.utc


@lru_cache(maxsize=4096)  # a session's hands share their table line: it is read once
def _table(line: str) -> tuple[str, str, str, tuple[str | None, int, int], str, tuple[int, int]] | None:
    """The table line's name, variant, betting, game, currency and stakes; None for a shape this reader
    does not know."""
    t = _TABLE.match(line)
    if t is None:
        return None
    name = t["game"].replace("_", " ").lower().replace("five card draw", "5 Card Draw")
    small = t["small"]
    currency = ("USD" if small.startswith("$") else "EUR" if small.startswith("€") else
                "GBP" if small.startswith("£") else "USD") if "Real" in t["money"] else "play"
    return (t["table"], name, betting(_LIMITS.get(t["limit"], "Limit")), variant(name), currency,
            (amount(small, 2), amount(t["big"], 2)))


def parse(lines: list[str], start: int, file: str, context: dict[str, object]
          ) -> tuple[RealHand, list[tuple[int, str]]]:
    """One OnGame hand (see the module docstring)."""
    m = _FIRST.match(lines[0])
    if m is None:
        raise HandHistoryError("an OnGame first line in a shape this reader does not know", file, start)
    hand = RealHand("OnGame", m["id"], file, start)
    b = HandBuilder(hand)
    n = len(lines)
    i = 1
    stakes: tuple[int, int] | None = None
    while i < n and not lines[i].startswith("Seat "):
        line = lines[i]
        if line.startswith("Start hand: "):
            hand.started = _date(line[12:])
        elif line.startswith("Table: "):
            t = _table(line)
            if t is None:
                raise b.fail(f"an OnGame table line in a shape this reader does not know: {line!r}", start + i)
            hand.table, hand.variant, hand.betting, (hand.game, hand.draws, hand.hand_size), hand.currency, \
                stakes = t
            hand.scale = 2
        elif line.startswith("Button: seat "):
            hand.button = int(line[13:])
        i += 1
    if stakes is None:
        raise b.fail("no table line: the game and stakes are unknown", start)
    while i < n and lines[i].startswith("Seat "):
        s = _SEAT.match(lines[i])
        if s is None:
            break
        b.seat(int(s["seat"]), s["name"], amount(s["stack"], 2))
        i += 1
    names = Names(b.seats)
    # Where no name holds a space and none is a word the marked lines start with ("Dealing", "New"; most
    # hands), a line's first word is the player's name when it is one: one partition, before the tests
    # of the marked lines (which see every other line, as they did).
    actors = names.all if not names.spaced and names.all.isdisjoint(_MARKED) else ()
    summary = -1
    while i < n:
        line = lines[i]
        no = start + i
        i += 1
        head, found, rest = line.partition(" ")
        if head in actors and found:
            verb, _, what = rest.partition(" ")
            _action(b, head, verb, what, no)
            continue
        if not line or line == "---" or line == "Dealing pocket cards":
            if line == "---" and b.events and b.events[-1].kind == "draw":
                b.drawing = False
            continue
        if line == "Summary:":
            summary = i
            break
        if line.startswith("Dealing to "):
            got = names.split(line[11:], ": ")
            if got is not None:
                b.hold(got[0], cards(got[1]), 0)
            continue
        if line.startswith("New hand for "):
            got = names.split(line[13:], ": ")
            if got is not None:
                b.hold(got[0], cards(got[1]))
            continue
        got = names.split(line, " ")
        if got is not None:
            verb, _, what = got[1].partition(" ")
            _action(b, got[0], verb, what, no)
    if summary < 0:
        raise b.fail("truncated hand: no Summary:", start + n - 1)
    nets: dict[str, int] = {}
    garbage: list[tuple[int, str]] = []
    ended = False
    for k in range(summary, n):
        line = lines[k]
        no = start + k
        if not line:
            continue
        if line.startswith("Seat "):  # (first: the most lines, and none a pot's)
            s = _SEAT.match(line)
            if s is not None:
                if s["net"]:
                    nets[s["name"]] = amount(s["net"][1:], 2) * (-1 if s["net"][0] == "-" else 1)
                if s["cards"]:
                    b.reveal(s["name"], cards(s["cards"]))
            continue
        p = _POT.match(line)
        if p is not None:
            pot = "" if p["pot"] == "Main pot" else p["pot"].lower().replace(" pot", "")
            for who in p["who"].split(", "):
                b.collect(who, amount(p["won"], 2), pot, no)
        elif line.startswith("Rake taken: "):
            hand.rake = amount(line[12:], 2)
        elif line.startswith("***** End of hand"):
            ended = True
        else:
            garbage.append((no, line))
    if not ended:
        raise b.fail("truncated hand: no ***** End of hand *****", start + n - 1)
    b.stated_stakes(stakes)
    b.return_uncalled()
    finished = b.finish()
    ours = finished.nets()
    for name, net in nets.items():
        if ours.get(name) != net:
            raise b.fail(f"the amounts do not add up: the summary gives {name} {finished.money(net)}, the play "
                         f"{finished.money(ours.get(name, 0))}", start + summary)
    return finished, garbage


def _action(b: HandBuilder, name: str, verb: str, what: str, no: int) -> None:
    """A player's action: its ``verb`` and ``what`` follows it (``raises`` and ``$0.10 to $0.10``)."""
    what, all_in = strip_all_in(what) if "all" in what else (what, False)  # (no "all": no all-in words)
    if what.endswith("]"):  # "calls $0.05 [all in]" is taken by strip_all_in; other brackets are cards
        what = what[: what.index(" [")] if " [" in what else what
    if verb == "folds":
        b.fold(name, no)
    elif verb == "checks":
        b.check(name, no)
    elif verb == "calls":
        b.bet(name, CALL, no, added=amount(what, 2), all_in=all_in)
    elif verb == "bets":
        b.bet(name, BET, no, added=amount(what, 2), all_in=all_in)
    elif verb == "raises":
        b.bet(name, RAISE, no, to=amount(what.rpartition(" to ")[2], 2), all_in=all_in)
    elif verb == "changed":
        b.draw(name, int(what.split(" ", 1)[0]), no)
    elif verb == "stands" and what.startswith("pat"):
        b.draw(name, 0, no)
    elif verb == "posts":
        money = amount(what[what.index("(") + 1: what.index(")")], 2)
        if what.startswith("small blind"):
            b.post(name, SMALL_BLIND if SMALL_BLIND not in b.posted else DEAD, money, no)
        elif what.startswith("big blind"):
            b.post(name, POST if BIG_BLIND in b.posted else BIG_BLIND, money, no)
        elif what.startswith("ante"):
            b.post(name, ANTE, money, no)
        else:  # "posts dead blind ($0.02)"
            b.post(name, DEAD, money, no)
    elif verb == "shows":
        b.show(name, cards(what[what.index("["):]) if "[" in what else None, no)
    elif verb == "mucks":
        b.show(name, None, no, MUCK)


START = r"\*\*\*\*\* History for hand "

SITE = Site("OnGame", START, parse, _between, aliases=("ongame network",),
            prefixes=("***** History for hand ",))
