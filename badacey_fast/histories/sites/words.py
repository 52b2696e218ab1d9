"""What the text rooms (PokerStars, Full Tilt, Winamax, KingsClub, OnGame) write alike: names with
spaces at the start of a line, dates and their time zones, the all-in words.

>>> names = Names(["nl pokerr", "nl", "Hero"])
>>> names.split("nl pokerr folds"), names.split("Hero: calls 2", ": "), names.split("Bob folds")
(('nl pokerr', 'folds'), ('Hero', 'calls 2'), None)
>>> when("2011/06/26 18:34:02", "ET").isoformat()
'2011-06-26T18:34:02-04:00'
>>> strip_all_in("calls $1.50 and is all-in"), strip_all_in("raises to 1,180, and is all in")
(('calls $1.50', True), ('raises to 1,180', True))
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timezone, tzinfo
from functools import lru_cache

from badacey_fast.cards import RANK_CHARS, SUIT_CHARS
from badacey_fast.errors import BadaceyError
from badacey_fast.histories.kinds import (
    ANTE, BET, BIG_BLIND, CALL, CHECK, COLLECT, DEAD, DRAW, FOLD, MUCK, POST, RAISE, RESHUFFLE, SHOW, SMALL_BLIND,
    UNCALLED,
)
from badacey_fast.histories.record import Event, Seat

__all__ = ["Names", "when", "zone", "strip_all_in", "ZONES", "CONSTS"]

#: What the C reader of PokerStars and Full Tilt hands (csrc/cpython/stars.c, ``kernel.read_stars`` and
#: ``read_tilt``) builds with: the event and seat classes, the event kinds in its order, the card characters.
CONSTS = (Event, Seat, (ANTE, SMALL_BLIND, BIG_BLIND, POST, DEAD, FOLD, CHECK, CALL, BET, RAISE, DRAW, SHOW, MUCK,
                        UNCALLED, COLLECT, RESHUFFLE), RANK_CHARS, SUIT_CHARS)

#: The zone abbreviations rooms print, as IANA zones (ET is New York time, summer or winter).
ZONES = {
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "CT": "America/Chicago", "MT": "America/Denver", "PT": "America/Los_Angeles", "AT": "America/Halifax",
    "CET": "Europe/Paris", "CEST": "Europe/Paris", "WET": "Europe/Lisbon", "WEST": "Europe/Lisbon",
    "EET": "Europe/Helsinki", "EEST": "Europe/Helsinki", "BST": "Europe/London", "MSK": "Europe/Moscow",
    "AET": "Australia/Sydney", "NZT": "Pacific/Auckland", "BRT": "America/Sao_Paulo", "ART": "America/Argentina/Buenos_Aires",
    "IST": "Asia/Kolkata", "CCT": "Asia/Shanghai", "JST": "Asia/Tokyo", "KT": "Asia/Seoul",
}


@lru_cache(maxsize=None)
def zone(abbreviation: str | None) -> tzinfo | None:
    """The time zone of a room's abbreviation (UTC, GMT, ET, CET, ...), None when unknown (the time is
    then kept as printed, without a zone)."""
    if not abbreviation:
        return None
    if abbreviation in ("UTC", "GMT"):
        return timezone.utc
    name = ZONES.get(abbreviation)
    if name is None:
        return None
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(name)
    except Exception:  # no time zone database on this system: keep the time as printed
        return None


_DAYS: dict[str, tuple[int, int, int]] = {}
# Two ASCII digits and their number: a clock's hours, minutes and seconds looked up, not read by int(),
# which costs ~0.3 us a call (a third of a date).  Anything else (int() also takes " 8", "+8", other
# scripts' digits) is read by int() as before.
_TWO = {f"{k:02d}": k for k in range(100)}


def when(text: str, abbreviation: str | None = None) -> datetime:
    """``YYYY/MM/DD H:MM:SS`` (``/`` or ``-``) in a zone (see :func:`zone`) as a datetime; ``ValueError``
    naming the text otherwise."""
    if len(text) == 19 and text[13] == ":" and text[4] in "/-":  # YYYY/MM/DD HH:MM:SS, the usual shape
        try:
            ymd = _DAYS.get(text[:10])
            if ymd is None:  # a session's hands share their day: its three numbers are read once
                ymd = (int(text[:4]), int(text[5:7]), int(text[8:10]))
                if len(_DAYS) > 4096:
                    _DAYS.clear()
                _DAYS[text[:10]] = ymd
            two = _TWO.get
            hour, minute, second = two(text[11:13]), two(text[14:16]), two(text[17:19])
            if hour is None or minute is None or second is None:
                hour, minute, second = int(text[11:13]), int(text[14:16]), int(text[17:19])
            # (the zone passed by position: a keyword costs the constructor half its time)
            return datetime(ymd[0], ymd[1], ymd[2], hour, minute, second, 0, zone(abbreviation))
        except (ValueError, OverflowError):  # (a number beyond a C long: datetime's OverflowError)
            raise BadaceyError(f"{text!r} is not a date and time") from None
    try:
        day, _, clock = text.strip().partition(" ")
        y, m, d = day.replace("-", "/").split("/")
        hh, mm, ss = clock.split(":")
        return datetime(int(y), int(m), int(d), int(hh), int(mm), int(ss), tzinfo=zone(abbreviation))
    except (ValueError, OverflowError):
        raise BadaceyError(f"{text!r} is not a date and time") from None


def strip_all_in(rest: str) -> tuple[str, bool]:
    """An action's words without the room's all-in words, and whether they were there."""
    if "all" not in rest:
        return rest, False
    for tail in (" and is all-in", ", and is all in", " and is all in", " [all in]", " (all-in)", " all-in"):
        if rest.endswith(tail):
            return rest[: -len(tail)], True
    return rest, False


class Names:
    """The players of one hand, to find a name at the start of a line even with spaces in it (the
    longest name that fits wins: ``nl pokerr`` before ``nl``)."""

    __slots__ = ("_by_first", "all", "colon", "spaced")

    def __init__(self, names: Iterable[str]) -> None:
        self.all = set(names)
        joined = "\n".join(self.all)  # (no name holds a line break: the join makes no ": " and no " ")
        #: Whether a name has ": " in it (else a line "name: rest" is found by one partition).
        self.colon = ": " in joined
        #: Whether a name has a space in it (else a line "name rest" is found by one partition).
        self.spaced = " " in joined
        self._by_first: dict[str, list[str]] | None = None  # built on first need: most hands never ask

    @property
    def by_first(self) -> dict[str, list[str]]:
        """The names by their first word, longest first."""
        by_first = self._by_first
        if by_first is None:
            by_first = self._by_first = {}
            for n in self.all:
                by_first.setdefault(n.split(" ", 1)[0], []).append(n)
            for same in by_first.values():
                if len(same) > 1:  # names with a first word in common: the longest first (a stable sort)
                    same.sort(key=len, reverse=True)
        return by_first

    def split(self, line: str, sep: str = " ") -> tuple[str, str] | None:
        """``(name, rest)`` where the line starts with a player's name and ``sep``, else None."""
        if sep == " " and not self.spaced:  # no name has a space in it: the first space ends the name, if any
            name, found, rest = line.partition(" ")
            return (name, rest) if found and name in self.all else None
        if sep == ": ":
            name, found, rest = line.partition(": ")
            if found and name in self.all:
                return name, rest
            if not self.colon:  # no name has ": " in it: the first ": " ends the name, if any
                return None
        first = line.split(" ", 1)[0]
        if sep == ": " and first.endswith(":"):
            first = first[:-1]
        for name in (self._by_first or self.by_first).get(first, ()):
            if line.startswith(name) and line.startswith(sep, len(name)):
                return name, line[len(name) + len(sep):]
        return None
