"""``parse``: hand histories in, :class:`~badacey_fast.histories.model.RealHand` objects out, one at a time.

The text is cut into hands by each room's first line (``PokerStars Hand #``, ``Full Tilt Poker Game #``,
``Winamax Poker -``, ``#40201390: Limit Badacey``, Merge's ``<game``, OnGame's ``***** History for hand``,
Boss's ``<HISTORY``), so the room is found hand by hand and one file may mix rooms.  A hand the reader
cannot take (truncated, cut off by the next one, an amount that does not add up, a hand id seen before,
text no room writes) is a :class:`~badacey_fast.errors.HandHistoryError` naming the file and line; what
happens to it is ``on_bad_hand``'s choice (as pandas' ``on_bad_lines``): ``"warn"`` (the default: a
:class:`HistoryWarning`, and the next hand), ``"skip"``, ``"error"`` (raise it), or a callable that gets
each error.  The other hands always come through.

>>> from badacey_fast.histories.model import EXAMPLE
>>> [h.hand_id for h in parse(EXAMPLE + EXAMPLE.replace("#1:", "#2:"))]
['1', '2']
>>> problems = []
>>> hands = list(parse("garbage\\n" + EXAMPLE + EXAMPLE, on_bad_hand=problems.append))
>>> len(hands), [str(p) for p in problems]
(1, ['<text>:1: 1 line that no room writes (garbage, or a room this reader does not know)', '<text>:25: hand PokerStars #1 is given twice (first at <text>:2)'])
"""

from __future__ import annotations

import re
import warnings
from itertools import compress, repeat
from collections.abc import Callable, Iterator
from typing import IO, Union

from badacey_fast.errors import HandHistoryError, HistoryWarning
from badacey_fast.histories.model import RealHand
from badacey_fast.histories.sites import SITES, Site, site_named
from badacey_fast.histories.sources import sources

__all__ = ["parse", "OnBadHand", "BAD_HAND_CHOICES"]

#: What to do with a hand the reader cannot take: "warn", "skip", "error", or a callable given the error.
OnBadHand = Union[str, Callable[[HandHistoryError], object]]
BAD_HAND_CHOICES = ("warn", "skip", "error")


def _handler(on_bad_hand: OnBadHand) -> Callable[[HandHistoryError], object]:
    if callable(on_bad_hand):
        return on_bad_hand
    if on_bad_hand == "warn":
        return lambda err: warnings.warn(str(err), HistoryWarning, stacklevel=4)
    if on_bad_hand == "skip":
        return lambda err: None

    def fail(err: HandHistoryError) -> object:
        raise err

    if on_bad_hand == "error":
        return fail
    raise ValueError(f"on_bad_hand must be one of {', '.join(BAD_HAND_CHOICES)} or a callable, not {on_bad_hand!r}")


#: Characters read at a time: hands are cut from blocks of text, never from the whole file.
BLOCK = 1 << 20


def parse(source: object, site: str = "auto", on_bad_hand: OnBadHand = "warn",
          dedupe: bool = True) -> Iterator[RealHand]:
    """Every hand of ``source`` as a :class:`RealHand`, in order, streamed: files are read in blocks of
    :data:`BLOCK` characters, so memory does not grow with their size (``dedupe`` keeps one small entry
    per hand to find hand ids given twice).

    ``source``: a path (a file, a directory read recursively, a glob), history text, bytes, a file object,
    or a list of them (:func:`badacey_fast.histories.sources.sources`).  ``site``: ``"auto"`` (each hand's
    room from its first line) or one room's name (``"PokerStars"``, ``"Full Tilt"``, ``"Winamax"``,
    ``"KingsClub"``, ``"Merge"``, ``"OnGame"``, ``"Boss"``; any case, spaces optional): other rooms' hands
    are then reported, not read.  ``on_bad_hand``: see the module docstring.

    >>> from badacey_fast.histories.model import EXAMPLE
    >>> next(parse(EXAMPLE, site="winamax", on_bad_hand="skip"))
    Traceback (most recent call last):
    ...
    StopIteration
    >>> next(parse(EXAMPLE, site="Party"))
    Traceback (most recent call last):
    ...
    ValueError: unknown site 'Party': expected auto or one of PokerStars, Full Tilt, Winamax, KingsClub, Merge, OnGame, Boss
    """
    handle = _handler(on_bad_hand)
    wanted = None if site == "auto" else site_named(site)
    seen: dict[int, str] | None = {} if dedupe else None
    for name, stream in sources(source):
        yield from _read(name, stream, wanted, handle, seen)


# Hands are cut at every room's first line, whichever rooms are read: a room's text never runs into
# another's hand.  A block of text is split into lines once; the lines that begin with one of the rooms'
# literal prefixes are picked out at C speed (str.startswith mapped over the lines), and only those are
# matched against the rooms' first-line expressions (``$`` in one of them ends the line: re.M).
_STARTS = re.compile("|".join(f"(?P<s{k}>{r.start})" for k, r in enumerate(SITES)), re.M)
_PREFIXES = tuple(p for r in SITES for p in r.prefixes) if all(r.prefixes for r in SITES) else ("",)


def _firsts(lines: list[str]) -> list[tuple[int, Site]]:
    """The hands' first lines among ``lines`` (from the second on: the first is the end of a line
    before): (index, room)."""
    rooms, match = SITES, _STARTS.match
    out = []
    for k in compress(range(len(lines)), map(str.startswith, lines, repeat(_PREFIXES))):
        m = match(lines[k]) if k else None
        if m is not None:
            out.append((k, rooms[int(m.lastgroup[1:])]))  # type: ignore[index]  # every alternative is a named group
    return out


def _read(file: str, stream: IO[str], wanted: Site | None, handle: Callable[[HandHistoryError], object],
          seen: dict[int, str] | None) -> Iterator[RealHand]:
    """Cut the text into hands at each room's first line, a block at a time; the last hand of a block
    waits for the next block (or the end of the text).  ``wanted``: the one room to read (None: all)."""
    rooms = SITES
    context: dict[str, object] = {}
    buf = "\n"  # a first line at the very start of the text has a line before it (an empty one)
    line = 0  # the line number of buf's first line (the empty one in front of the text: line 0)
    while True:
        block = stream.read(BLOCK)
        eof = not block
        buf += block
        lines = buf.split("\n")
        found = _firsts(lines)
        if not found:
            if eof or len(buf) > 4 * BLOCK:  # no hand in sight: report the text, keep memory flat
                line = _garbage(lines, file, line, rooms, context, handle)
                buf = "\n"
            if eof:
                return
            continue
        head = found[0][0]
        if head > 1 or lines[0]:
            line = _garbage(lines[:head], file, line, rooms, context, handle)
        else:
            line += head - 1
        # Lines keep their trailing blanks unless a hand has some (rare): then its lines are stripped.
        blanks = " \n" in buf or "\t" in buf or "\r" in buf or buf.endswith(" ")
        carry = ""
        for j, (k, room) in enumerate(found):
            if j + 1 == len(found):
                if not eof:
                    carry = "\n" + "\n".join(lines[k:])
                    break
                end = len(lines)
            else:
                end = found[j + 1][0]
            line += 1  # the line break before the hand's first line
            chunk = lines[k:end]
            if wanted is None or room is wanted:
                yield from _one(room, chunk, blanks, line, file, context, rooms, handle, seen)
            else:
                other = HandHistoryError(f"a {room.name} hand, not read: only {wanted.name} hands are asked for",
                                         file, line)
                other.kind, other.site = "garbage", room.name
                handle(other)
            line += end - k - 1
        buf = carry
        if eof:
            return


def _garbage(lines: list[str], file: str, line: int, rooms: tuple[Site, ...], context: dict[str, object],
             handle: Callable[[HandHistoryError], object]) -> int:
    """Report the lines (``lines``, the first numbered ``line``) that no room writes (between hands:
    separators, XML wrappers are fine); returns the number of the last line."""
    bad = [(line + k, t.strip()) for k, t in enumerate(lines)
           if t.strip() and not any(r.between(t.strip(), context) for r in rooms)]
    if bad:
        handle(_junk(len(bad), file, bad[0][0]))
    return line + len(lines) - 1


def _junk(count: int, file: str, line: int) -> HandHistoryError:
    what = "1 line" if count == 1 else f"{count} lines"
    junk = HandHistoryError(f"{what} that no room writes (garbage, or a room this reader does not know)", file, line)
    junk.kind = "garbage"
    return junk


def _one(room: Site, lines: list[str], blanks: bool, start: int, file: str, context: dict[str, object],
         rooms: tuple[Site, ...], handle: Callable[[HandHistoryError], object], seen: dict[int, str] | None
         ) -> Iterator[RealHand]:
    """One hand's ``lines`` read by its room; ``blanks``: whether the text around may have trailing blanks."""
    if blanks:  # rare: the hand's own text decides whether its lines are stripped
        chunk = "\n".join(lines)
        if " \n" in chunk or "\t" in chunk or "\r" in chunk or chunk.endswith(" "):
            lines = [t.rstrip() for t in lines]
    try:
        got = room.parse(lines, start, file, context)
    except HandHistoryError as bad:
        bad.site = room.name
        handle(bad)
        return
    except (ValueError, IndexError, KeyError) as exc:  # a line in a shape the parser did not expect
        unreadable = HandHistoryError(f"unreadable {room.name} hand: {exc}", file, start)
        unreadable.site = room.name
        handle(unreadable)
        return
    if got is None:  # a chunk that only sets context (Merge's <description>)
        return
    hand, garbage = got
    if seen is not None:
        key = hash((hand.site, hand.hand_id))
        where = seen.get(key)
        if where is not None:
            twice = HandHistoryError(f"hand {hand.site} #{hand.hand_id} is given twice (first at {where})", file, start)
            twice.site, twice.hand_id, twice.variant, twice.kind = hand.site, hand.hand_id, hand.variant, "duplicate"
            handle(twice)
            return
        seen[key] = f"{file}:{start}"
    if garbage:
        garbage = [(no, t) for no, t in garbage if not any(r.between(t, context) for r in rooms)]
    if garbage:
        junk = HandHistoryError(f"{len(garbage)} line{'s' if len(garbage) > 1 else ''} after the hand that no "
                                f"room writes: {garbage[0][1][:60]!r}", file, garbage[0][0])
        junk.site, junk.hand_id, junk.variant, junk.kind = hand.site, hand.hand_id, hand.variant, "garbage"
        handle(junk)
    yield hand
