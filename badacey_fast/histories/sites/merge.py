"""Merge Network hand histories: XML-like ``<game>`` records, one element a line, after a
``<description type="2-7 Lowball" stakes="Limit $1/$2"/>`` that names the game for the records after it.

What this network writes, as read here: players by seat number in every event; ``RAISE`` and ``BET``
amounts are the round total, ``CALL`` the chips added, ``ALL_IN`` whatever chips the player had left;
``DRAW text="3"`` is the count; ``DRAW_DRAWN_CARDS`` the hero's hand after a draw; ``<winner
uncalled="true">`` an uncalled bet returned; the rake is not written (it is what the winners did not get).
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from badacey_fast.histories.build import HandBuilder
from badacey_fast.histories.games import betting, variant
from badacey_fast.histories.model import ANTE, BET, BIG_BLIND, CALL, DEAD, MUCK, POST, RAISE, SMALL_BLIND, RealHand
from badacey_fast.histories.sites.base import Site
from badacey_fast.histories.text import amount, attributes, cards

__all__ = ["SITE", "parse"]

_STAKES = re.compile(r"^(?P<limit>[A-Za-z ]*?)\s*\(?(?P<small>[$€£]?[\d,.]+)/(?P<big>[$€£]?[\d,.]+)\)?$")
_DRAWS = {"FIRST_DRAW": 1, "SECOND_DRAW": 2, "THIRD_DRAW": 3, "DRAW": 1}
_BETS = {"POST_FIRST_DRAW", "POST_SECOND_DRAW", "POST_THIRD_DRAW", "POST_DRAW", "PRE_FIRST_DRAW", "PRE_DRAW"}



def _between(line: str, context: dict[str, object]) -> bool:
    return line.startswith(("<?xml", "</", "<session", "<root", "<ROOT"))


def parse(lines: list[str], start: int, file: str, context: dict[str, object]
          ) -> tuple[RealHand, list[tuple[int, str]]] | None:
    """One Merge ``<game>`` (see the module docstring); a ``<description>`` only sets the game of the next."""
    first = lines[0]
    if first.startswith("<description "):
        context["merge"] = attributes(first)
        return None
    g = attributes(first)
    desc = context.get("merge")
    hand = RealHand("Merge", g.get("id", ""), file, start)
    b = HandBuilder(hand)
    if not isinstance(desc, dict):
        raise b.fail("a Merge <game> without the <description> that names its game", start)
    hand.variant = desc.get("type", "")
    s = _stakes(desc.get("stakes", ""))
    if s is None:
        raise b.fail(f"Merge stakes {desc.get('stakes')!r} in a shape this reader does not know", start)
    hand.betting, small, big = s
    hand.game, hand.draws, hand.hand_size = variant(hand.variant)
    if g.get("numholecards", "").isdigit():
        hand.hand_size = int(g["numholecards"])
    real = g.get("realmoney", "true") == "true"
    hand.scale = 2
    hand.currency = ("USD" if small.startswith("$") else "EUR" if small.startswith("€") else "USD") if real else "play"
    stakes = amount(small, 2), amount(big, 2)
    when = g.get("starttime", "")
    if len(when) == 14 and when.isdigit():
        hand.started = datetime(int(when[:4]), int(when[4:6]), int(when[6:8]), int(when[8:10]), int(when[10:12]),
                                int(when[12:14]))
    data = g.get("data", "").split("|")
    if len(data) > 1:
        hand.table = data[1].rsplit(" (", 1)[0]
    seat_names: dict[str, str] = {}
    garbage: list[tuple[int, str]] = []
    round_id = ""
    ended = False
    for no, line in enumerate(lines[1:], start + 1):
        line = line.strip()
        if not line:
            continue
        if ended:
            garbage.append((no, line))
            continue
        # The tags below are tested most common first: no line starts with two of them ("<player " needs
        # its space, "<players" has none; a closing tag none of the others), so the order decides nothing.
        if line.startswith("<event "):
            _event(b, attributes(line), seat_names, no)
        elif line.startswith("</"):  # </round>, </players>, and the end
            if line == "</game>":
                ended = True
        elif line.startswith("<player "):
            a = attributes(line)
            seat_names[a["seat"]] = a["nickname"]
            b.seat(int(a["seat"]), a["nickname"], amount(a.get("balance", "0"), 2), dealt=a.get("dealtin") != "false")
        elif line.startswith("<players"):
            a = attributes(line)
            if a.get("dealer", "").isdigit():
                hand.button = int(a["dealer"])
        elif line.startswith("<round "):
            round_id = attributes(line).get("id", "")
            street = _DRAWS.get(round_id)
            if street is not None:
                b.new_street(street, True)
            elif round_id in _BETS:
                b.drawing = False
            elif round_id == "GAME_CANCELLED":
                hand.status = "cancelled"
        elif line.startswith("<cards "):
            a = attributes(line)
            name = seat_names.get(a.get("player", ""))
            if name is None:
                continue
            kind = a.get("type", "")
            shown = cards(a.get("cards", ""))
            if kind == "HOLE":
                b.hold(name, shown, 0)
            elif kind == "DRAW_DRAWN_CARDS":
                b.hold(name, shown)
            elif kind == "SHOWN":
                b.show(name, shown, no)
            elif kind == "MUCKED":
                b.reveal(name, shown)
        elif line.startswith("<winner "):
            a = attributes(line)
            name = seat_names.get(a.get("player", ""))
            if name is None:
                raise b.fail(f"a winner at an empty seat: {line!r}", no)
            if a.get("uncalled") == "true":
                b.uncalled(name, amount(a.get("amount", "0"), 2), no)
            else:
                pot = a.get("potnumber", "1")
                b.collect(name, amount(a.get("amount", "0"), 2), "" if pot == "1" else f"side {int(pot) - 1}", no)
        elif not line.startswith(("<round", "<players")):
            garbage.append((no, line))
    if not ended and hand.status != "cancelled":
        raise b.fail("truncated hand: no </game>", start + len(lines) - 1)
    if not b.seats:
        raise b.fail("no players in the <game>", start)
    b.stated_stakes(stakes)
    b.return_uncalled(paid_in_collect=True)  # the winner's amount holds the uncalled bet
    return b.finish(), garbage


@lru_cache(maxsize=4096)  # every hand of a file has its description's stakes: read once
def _stakes(text: str) -> tuple[str, str, str] | None:
    """A description's stakes (``Limit $1/$2``) as (betting, small, big), None in a shape not known."""
    s = _STAKES.match(text.strip())
    return None if s is None else (betting(s["limit"] or "Limit"), s["small"], s["big"])


def _event(b: HandBuilder, a: dict[str, str], seat_names: dict[str, str], no: int) -> None:
    kind = a.get("type", "")
    if kind in ("CHAT", "GAME_CANCELLED"):
        if kind == "GAME_CANCELLED":
            b.hand.status = "cancelled"
        return
    name = seat_names.get(a.get("player", ""))
    if name is None:
        raise b.fail(f"a {kind} at an empty seat {a.get('player')!r}", no)
    money = amount(a["amount"], 2) if "amount" in a else None
    # (the kinds most common first: each test is an equality, so the order decides nothing)
    if kind == "FOLD":
        b.fold(name, no)
    elif kind == "CALL":
        b.bet(name, CALL, no, added=money)
    elif kind == "DRAW":
        b.draw(name, int(a.get("text", "0")), no)
    elif kind == "CHECK":
        b.check(name, no)
    elif kind == "RAISE":
        b.bet(name, RAISE, no, to=money)
    elif kind == "BET":
        b.bet(name, BET, no, to=money)
    elif kind == "SMALL_BLIND":
        b.post(name, SMALL_BLIND if SMALL_BLIND not in b.posted else DEAD, money or 0, no)
    elif kind == "BIG_BLIND":
        b.post(name, BIG_BLIND if BIG_BLIND not in b.posted else POST, money or 0, no)
    elif kind == "INITIAL_BLIND":
        b.post(name, POST, money or 0, no)
    elif kind == "ANTE":
        b.post(name, ANTE, money or 0, no)
    elif kind == "ALL_IN":
        b.bet(name, None, no, all_in=True)
    elif kind == "SHOW":
        pass  # the cards come in the round's <cards type="SHOWN">
    elif kind == "MUCK":
        b.show(name, None, no, MUCK)


START = r"<game |<description "

SITE = Site("Merge", START, parse, _between, aliases=("merge network", "carbon"),
            prefixes=("<game ", "<description "))
