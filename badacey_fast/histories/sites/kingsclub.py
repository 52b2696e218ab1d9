"""KingsClub hand histories (``#40201390: Limit Badacey - 22/44``): the room that dealt Badacey and
Badeucey, with antes and blinds.

What this room writes, as read here: ``Name: posts ante 5.50`` and the blinds with a colon, every other
action without one; ``raises to 44`` and ``calls 44`` both give the round total (a big blind of 22 calling
a raise to 44 writes ``calls 44``); ``Dealt to Name: [X X X X X]``; ``Hero discards [7h Qc] draws [2h 9s]``
and ``Player1 draws 2``; the summary gives each player's final stack and net (checked against the play),
``Rake 5`` and ``wins (168) from pot``.  Amounts are dollars; the date has no time zone.
"""

from __future__ import annotations

import re

from badacey_fast.errors import HandHistoryError
from badacey_fast.histories.build import HandBuilder
from badacey_fast.histories.games import betting, variant
from badacey_fast.histories.model import ANTE, BET, BIG_BLIND, CALL, DEAD, MUCK, POST, RAISE, SMALL_BLIND, RealHand
from badacey_fast.histories.sites.base import Site
from badacey_fast.histories.sites.words import CONSTS, Names, strip_all_in, when
from badacey_fast.histories.text import amount, cards
from badacey_fast.kernel import read_kings

__all__ = ["SITE", "parse"]

_FIRST = re.compile(r"^#(?P<id>\d+): (?P<game>.+) - (?P<small>[\d,.]+)/(?P<big>[\d,.]+)$")
_LIMIT = re.compile(r"^(?P<limit>No Limit|Pot Limit|Limit|Fixed Limit) (?P<variant>.+)$")
_TABLE = re.compile(r"^Table '(?P<table>.*)' Seat (?P<button>\d+) is the button")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[\d,.]+)\)(?: (?P<net>[-+][\d,.]+))?$")
_ORDINAL = {"1ST": 1, "2ND": 2, "3RD": 3, "4TH": 4}



def _between(line: str, context: dict[str, object]) -> bool:
    return False


def parse(lines: list[str], start: int, file: str, context: dict[str, object]
          ) -> tuple[RealHand, list[tuple[int, str]]]:
    """One KingsClub hand (see the module docstring)."""
    m = _FIRST.match(lines[0])
    hand = RealHand("KingsClub", "", file, start)
    if m is None:
        raise HandHistoryError("a KingsClub first line in a shape this reader does not know", file, start)
    hand.hand_id = m["id"]
    g = _LIMIT.match(m["game"])
    hand.variant = g["variant"] if g else m["game"]
    hand.betting = betting(g["limit"]) if g else "fixed"
    hand.game, hand.draws, hand.hand_size = variant(hand.variant)
    hand.currency, hand.scale = "USD", 2
    stakes = amount(m["small"], 2), amount(m["big"], 2)
    b = HandBuilder(hand)
    n = len(lines)
    i = 1
    if i < n and lines[i][:1].isdigit():
        hand.started = when(lines[i])
        i += 1
    if i < n and lines[i].startswith("Table '"):
        t = _TABLE.match(lines[i])
        if t is not None:
            hand.table, hand.button = t["table"], int(t["button"])
        i += 1
    got = read_kings(lines, i, start, hand.scale, hand.draws, hand.hand_size, CONSTS)
    if got is None:  # the Python twin: always on the Python backend, and for any hand the C reader leaves
        names, summary = _play(b, lines, i, start)
    else:
        (b.seats, b.behind, b.events, b.held, _, b.shown, b.posted, _, _, _, _, b.street, b.drawing, b.round_bet,
         summary) = got
        names = Names(b.seats)
    if summary < 0:
        raise b.fail("truncated hand: no *** SUMMARY ***", start + n - 1)
    garbage: list[tuple[int, str]] = []
    nets = _summary(b, names, lines, summary, start, garbage)
    b.stated_stakes(stakes)
    b.return_uncalled()  # this room does not write it
    ours = _dead_blinds(b, nets)
    finished = b.finish()
    if nets:
        wrong = [name for name, net in nets.items() if ours.get(name) != net]
        if wrong:
            name = wrong[0]
            raise b.fail(f"the amounts do not add up: the summary gives {name} {finished.money(nets[name])}, "
                         f"the play {finished.money(ours.get(name, 0))}", start + summary)
    return finished, garbage


def _play(b: HandBuilder, lines: list[str], i: int, start: int) -> tuple[Names, int]:
    """The seats (``lines[i]`` on) and the play up to ``*** SUMMARY ***``, in Python: the twin of the C
    reader (``kernel.read_kings``), which reads these lines the same way or leaves the hand to this
    function.  Returns the players' names and the index of the line after the summary's mark (-1: none)."""
    n = len(lines)
    while i < n and lines[i].startswith("Seat "):
        s = _SEAT.match(lines[i])
        if s is None:
            break
        b.seat(int(s["seat"]), s["name"], amount(s["stack"], 2))
        i += 1
    if not b.seats:
        raise b.fail("no seats: the hand is cut off after its first lines", start)
    names = Names(b.seats)
    plain, everyone = not names.colon and not names.spaced, names.all
    summary = -1
    while i < n:
        line = lines[i]
        no = start + i
        i += 1
        # No name holds a space or ": ": a line's first word is its player's name ("Name:" before a post),
        # one partition before the marked lines' tests, which see the lines starting "***", "Dealt" or "Run".
        if plain:
            name, found, rest = line.partition(" ")
            if found and name != "***" and name != "Dealt" and name != "Run":
                if name[-1:] == ":" and name[:-1] in everyone and rest.startswith("posts "):  # "Name: posts"
                    _post(b, name[:-1], rest[6:], no)
                elif name in everyone:
                    _action(b, name, rest, no)
                continue
        if not line:
            continue
        if line.startswith("*** "):
            mark = line[4:].split(" ***", 1)[0]
            if mark == "SUMMARY":
                summary = i
                break
            word, _, kind = mark.partition(" ")
            if kind == "DRAW":
                b.new_street(_ORDINAL.get(word, b.street + 1), True)
            elif kind == "BETTING ROUND" and _ORDINAL.get(word, 1) > 1:
                b.drawing = False
            elif mark in ("FLOP", "TURN", "RIVER"):  # Drawmaha's board: a new betting round
                b.round_bet = {}
                b.drawing = False
            continue
        if line.startswith("Dealt to "):
            got = names.split(line[9:], ": ")
            if got is None:
                raise b.fail(f"cards dealt to a player not seated: {line!r}", no)
            b.hold(got[0], cards(got[1]), 0)
            continue
        if line.startswith("Run "):  # run it twice: "Run 1: Hero shows [..]"
            line = line.partition(": ")[2]
        if plain:  # Names.split inlined: no name holds a space or ": ", so one partition finds each name
            name, found, rest = line.partition(": ")
            if found and name in everyone and rest.startswith("posts "):
                _post(b, name, rest[6:], no)
                continue
            name, found, rest = line.partition(" ")
            if found and name in everyone:
                _action(b, name, rest, no)
            continue
        got = names.split(line, ": ")
        if got is not None and got[1].startswith("posts "):
            _post(b, got[0], got[1][6:], no)
            continue
        got = names.split(line, " ")
        if got is not None:
            _action(b, got[0], got[1], no)
    return names, summary


def _dead_blinds(b: HandBuilder, nets: dict[str, int]) -> dict[str, int]:
    """This room charges a player who missed a blind the small blind, dead, without a line (``posts blind
    44`` writes the live big blind only; a player coming back may post nothing at all): where the summary's
    net is short of the play's by at most a small blind, that much is posted dead.  Returns the play's
    nets with those posts (what :meth:`RealHand.nets` gives the finished hand: no event adds chips after)."""
    hand = b.hand
    collected = b.collected
    behind = b.behind
    # What each put in (posts and bets, less uncalled bets) as the builder counts it: the stack less the
    # chips behind, which every post, bet and return moves (as HandBuilder's own check of the chips reads it).
    paid = {name: seat.stack - behind[name] for name, seat in b.seats.items()}
    small = hand.blinds[0]
    for name, net in nets.items():
        missing = collected.get(name, 0) - paid.get(name, 0) - net
        if 0 < missing <= small and name in b.seats:
            b.events.insert(0, b.events[0]._replace(player=name, kind=DEAD, amount=missing, to=None, all_in=False,
                                                    drawn=None, cards=None, new=None, pot=None))
            behind[name] -= missing
            paid[name] += missing
            hand.notes.append(f"{name} pays {hand.money(missing)} more than the play shows: a dead small blind "
                              f"the text leaves out (the summary's net)")
    return {name: collected.get(name, 0) - chips for name, chips in paid.items()}


def _post(b: HandBuilder, name: str, what: str, no: int) -> None:
    what, _ = strip_all_in(what)
    money = amount(what.rpartition(" ")[2], 2)
    if what.startswith("ante"):
        b.post(name, ANTE, money, no)
    elif what.startswith("the small blind"):
        b.post(name, SMALL_BLIND, money, no)
    elif what.startswith("the big blind"):
        b.post(name, BIG_BLIND, money, no)
    else:  # "posts blind 44": a player coming in posts a big blind, live
        b.post(name, POST, money, no)


def _action(b: HandBuilder, name: str, rest: str, no: int) -> None:
    verb, _, what = rest.partition(" ")
    if verb == "folds":
        b.fold(name, no)
    elif verb == "checks":
        b.check(name, no)
    elif verb in ("calls", "bets", "raises"):
        what, all_in = strip_all_in(what)
        to = amount(what.rpartition(" ")[2], 2)
        kind = {"calls": CALL, "bets": BET, "raises": RAISE}[verb]
        b.bet(name, kind, no, to=to, all_in=all_in)
    elif verb == "draws":
        b.draw(name, int(what), no)
    elif verb == "stands" and what.startswith("pat"):
        b.draw(name, 0, no)
    elif verb == "discards":
        # "discards [7h Qc] draws [2h 9s]" (run it twice: "draws [8c] [Qs]", the first run's cards)
        thrown, _, new = what.partition(" draws ")
        discards = cards(thrown)
        got = cards(new.split("] [", 1)[0]) if new else None
        count = len(discards or ())
        b.draw(name, count, no, discards, got if got is not None and len(got) == count else None)
    elif verb == "shows":
        b.show(name, cards(what[: what.index("]") + 1]) if "[" in what else None, no)
    elif verb == "mucks":
        b.show(name, cards(what) if what.startswith("[") else None, no, MUCK)


def _summary(b: HandBuilder, names: Names, lines: list[str], i: int, start: int,
             garbage: list[tuple[int, str]]) -> dict[str, int]:
    """Read the summary: the rake, the wins (the room's payments), and each player's net as the room states it."""
    hand = b.hand
    nets: dict[str, int] = {}
    for k in range(i, len(lines)):
        line = lines[k]
        no = start + k
        if not line:
            continue
        if line.startswith("Seat "):
            s = _SEAT.match(line)
            if s is not None:
                _, name, _, net = s.groups()
                if net:
                    nets[name] = amount(net[1:], 2) * (-1 if net[0] == "-" else 1)
        elif line.startswith("Rake "):
            hand.rake = amount(line[5:], 2)
        else:
            got = names.split(line, " ")
            if got is None or not got[1].startswith("wins "):
                garbage.append((no, line))
                continue
            name, rest = got
            # "wins (168) from pot", "wins pot (1,194)", "wins (9,225) from side pot 1"
            money = rest[rest.index("(") + 1: rest.index(")")]
            pot = rest.rpartition(" from ")[2] if " from " in rest else "pot"
            pot = pot.replace("pot", "").strip()
            b.collect(name, amount(money, 2), pot, no)
    if hand.rake is None and b.collected:
        hand.rake = 0
    return nets


START = r"#\d+: [^\n]+ - [\d,.]+/[\d,.]+$"

SITE = Site("KingsClub", START, parse, _between, aliases=("kings club", "kc"), prefixes=("#",))
