"""Boss Media hand histories: ``<HISTORY ...>`` records of XML (alone, or inside ``<ROOT>``).

What this network writes, as read here: players and actions by name; ``ACTION_RAISE``, ``ACTION_BET``
and ``ACTION_CALL`` values are the round total; cards are numbers 0..51 (``card % 13`` the rank, ace
first; 0-12 diamonds, 13-25 clubs, 26-38 hearts, 39-51 spades; ``b`` a card face down); a ``CHANGECARD``
lists the hand after the draw; no uncalled bet is written (it goes back to its owner); ``<SHOWDOWN
POT=.. RAKE=..>`` gives the pot after the rake.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from badacey_fast.errors import HandHistoryError, InvalidCardError
from badacey_fast.histories.build import HandBuilder
from badacey_fast.histories.games import betting, variant
from badacey_fast.histories.model import ANTE, BIG_BLIND, CALL, DEAD, POST, RAISE, SMALL_BLIND, BET, RealHand
from badacey_fast.histories.sites.base import Site
from badacey_fast.histories.text import amount, attributes

__all__ = ["SITE", "parse", "card"]

_CARD = re.compile(r'<CARD LINK="([0-9]+|b)">')
_SUITS = (1, 0, 2, 3)  # Boss's quarters of the deck (diamonds, clubs, hearts, spades) as our suits
_LIMITS = {"FL": "Limit", "PL": "Pot Limit", "NL": "No Limit"}
_GAMES = {"GAME_FCD": "5 Card Draw", "GAME_THM": "Hold'em", "GAME_OMA": "Omaha", "GAME_OMAHL": "Omaha Hi/Lo"}
_BLINDS = {"HAND_SB": SMALL_BLIND, "HAND_BB": BIG_BLIND, "HAND_DSB": DEAD}  # any other: a live post
_BETS = {"ACTION_CALL": CALL, "ACTION_BET": BET, "ACTION_RAISE": RAISE}  # an all-in's kind: from the bets


def card(link: int) -> int:
    """A Boss card number (0..51) as our card id.

    >>> from badacey_fast.cards import format_card
    >>> [format_card(card(k)) for k in (0, 12, 13, 26, 51)]
    ['Ad', 'Kd', 'Ac', 'Ah', 'Ks']
    """
    if not 0 <= link < 52:
        raise InvalidCardError(f"Boss card {link} is not 0..51")
    return 4 * (link % 13) + _SUITS[link // 13]



def _between(line: str, context: dict[str, object]) -> bool:
    return line.startswith(("<?xml", "<ROOT", "</ROOT"))


# A card's line as the room writes it, alone (most lines of a hand): its link, found by one look-up where
# the expression would find the same one link and no closing tag.
_CARD_LINES = {f'<CARD LINK="{k}"></CARD>': k for k in (*map(str, range(52)), "b")}
# An element's last card line, with the element's closing tag.
_LAST_CARD_LINES = {f"{line}</{tag}>": k for line, k in _CARD_LINES.items() for tag in ("ACTION", "RESULT")}
# The card of each link as the room writes it (a link such as "07" is read by card(int(..)) below).
_CARD_OF = {str(k): card(k) for k in range(52)}


def _cards(links: list[str]) -> tuple[int, ...] | None:
    if not links or "b" in links:
        return None
    try:
        return tuple(map(_CARD_OF.__getitem__, links))
    except KeyError:
        return tuple(card(int(k)) for k in links)


def parse(lines: list[str], start: int, file: str, context: dict[str, object]
          ) -> tuple[RealHand, list[tuple[int, str]]]:
    """One Boss ``<HISTORY>`` (see the module docstring)."""
    h = attributes(lines[0])
    hand = RealHand("Boss", h.get("ID", ""), file, start)
    b = HandBuilder(hand)
    if not hand.hand_id:
        raise HandHistoryError("a Boss <HISTORY> without its ID", file, start)
    hand.table = h.get("TABLE", "")
    hand.variant = _GAMES.get(h.get("GAME", ""), h.get("GAME", "").replace("GAME_", ""))
    hand.betting = betting(_LIMITS.get(h.get("LIMIT", "FL"), "Limit"))
    hand.game, hand.draws, hand.hand_size = variant(hand.variant)
    cash = h.get("GAMEKIND", "GAMEKIND_CASH") == "GAMEKIND_CASH"
    hand.scale = 2 if cash else 0
    hand.currency = h.get("TABLECURRENCY") or ("USD" if cash else "chips")
    if not cash:
        hand.tournament = h.get("TABLETOURNEYID") or None
    if h.get("DATE", "").isdigit():
        hand.started = datetime.fromtimestamp(int(h["DATE"]), tz=timezone.utc)
    small, _, big = h.get("STAKES", "0/0").partition("/")
    stakes = amount(small, hand.scale), amount(big or small, hand.scale)
    pending: tuple[str, str, dict[str, str], list[str], int] | None = None  # an element whose cards follow
    garbage: list[tuple[int, str]] = []
    ended = False
    card_line, last_card_line = _CARD_LINES.get, _LAST_CARD_LINES.get
    for k in range(len(lines)):
        if pending is not None:  # (a first line is never a card's: it starts with <HISTORY)
            link = card_line(lines[k])
            if link is not None:
                pending[3].append(link)
                continue
            link = last_card_line(lines[k])
            if link is not None:
                pending[3].append(link)
                _element(b, pending)
                pending = None
                continue
        line = lines[k].strip() if k else lines[k][lines[k].index(">") + 1:].strip()
        no = start + k
        if not line:
            continue
        while line:
            if pending is not None:
                links = _CARD.findall(line)
                pending[3].extend(links)
                if "</ACTION>" in line or "</RESULT>" in line:
                    _element(b, pending)
                    pending = None
                if "</HISTORY>" in line:
                    ended = True
                break
            if line.startswith("<PLAYER "):
                a = attributes(line)
                if a.get("STATE") != "STATE_EMPTY" and a.get("NAME"):
                    b.seat(int(a["SEAT"]), a["NAME"], amount(a.get("AMOUNT", "0"), hand.scale),
                           dealt=a.get("STATE") != "STATE_SITOUT")
                    if a.get("DEALER") == "Y":
                        hand.button = int(a["SEAT"])
                break
            if line.startswith(("<ACTION ", "<RESULT ")):
                a = attributes(line)
                tag = "ACTION" if line.startswith("<ACTION") else "RESULT"
                # (no "<CARD": no link to find, the expression's scan skipped)
                pending = (tag, a.get("TYPE", ""), a, _CARD.findall(line) if "<CARD" in line else [], no)
                if ("</ACTION>" if tag == "ACTION" else "</RESULT>") in line:
                    _element(b, pending)
                    pending = None
                if "</HISTORY>" in line:
                    ended = True
                break
            if line.startswith("<SHOWDOWN "):
                a = attributes(line)
                if a.get("RAKE"):
                    hand.rake = amount(a["RAKE"], hand.scale)
                line = line[line.index(">") + 1:].strip()
                continue
            if line.startswith("</HISTORY>") or line.endswith("</HISTORY>"):
                ended = True
                break
            if not line.startswith(("</", "<ROOT")):
                garbage.append((no, line))
            break
    if not ended:
        raise b.fail("truncated hand: no </HISTORY>", start + len(lines) - 1)
    b.stated_stakes(stakes)
    b.return_uncalled()
    return b.finish(), garbage


def _element(b: HandBuilder, el: tuple[str, str, dict[str, str], list[str], int]) -> None:
    tag, kind, a, links, no = el
    name = a.get("PLAYER", "")
    scale = b.hand.scale
    value = amount(a["VALUE"], scale) if a.get("VALUE") and a["VALUE"][0].isdigit() else None
    if tag == "RESULT":
        win = amount(a.get("WIN", "0"), scale)
        if win:
            b.collect(name, win, "", no)
        shown = _cards(links)
        if shown is not None:
            b.reveal(name, shown)
        return
    if kind == "HAND_BLINDS":
        blind = a.get("KIND", "")
        what = _BLINDS.get(blind, POST)
        if what == BIG_BLIND and BIG_BLIND in b.posted:
            what = POST
        b.post(name, what, value or 0, no)
    elif kind == "HAND_ANTE":
        b.post(name, ANTE, value or 0, no)
    elif kind == "HAND_DEAL":
        b.hold(name, _cards(links), 0)
    elif kind == "ACTION_FOLD":
        b.fold(name, no)
    elif kind == "ACTION_CHECK":
        b.check(name, no)
    elif kind in ("ACTION_CALL", "ACTION_BET", "ACTION_RAISE", "ACTION_ALLIN"):
        b.bet(name, _BETS.get(kind), no, to=value,
              all_in=kind == "ACTION_ALLIN")
    elif kind == "CHANGECARD":
        b.draw(name, int(a.get("COUNT", "0")), no)
        b.hold(name, _cards(links))
    elif kind == "HAND_BOARD":
        b.drawing = b.drawing  # the pot between streets: nothing to record


START = r"<HISTORY "

SITE = Site("Boss", START, parse, _between, aliases=("boss media", "opoker"), prefixes=("<HISTORY ",))
