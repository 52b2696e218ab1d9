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
from collections.abc import Callable, Iterator
from typing import IO, Union

from badacey_fast.errors import ConfigError, HandHistoryError, HistoryWarning
from badacey_fast.histories.model import RealHand
from badacey_fast.histories.sites import SITES, Site, site_named
from badacey_fast.histories.sources import sources
from badacey_fast.kernel import hand_starts, split_lines

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
    raise ConfigError(f"on_bad_hand must be one of {', '.join(BAD_HAND_CHOICES)} or a callable, not {on_bad_hand!r}")


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
    badacey_fast.errors.ConfigError: unknown site 'Party': expected auto or one of PokerStars, Full Tilt, Winamax, KingsClub, Merge, OnGame, Boss
    """
    handle = _handler(on_bad_hand)
    wanted = None if site == "auto" else site_named(site)
    seen: dict[int, str] | None = {} if dedupe else None
    for name, stream in sources(source):
        yield from _read(name, stream, wanted, handle, seen)


# Hands are cut at every room's first line, whichever rooms are read: a room's text never runs into
# another's hand.  The pattern starts with the line break before a first line; the text gets one in front.
_STARTS = re.compile("\n(?:" + "|".join(f"(?P<s{k}>{r.start})" for k, r in enumerate(SITES)) + ")", re.M)
# Where the expression can match: a line break and one of the rooms' literal prefixes (Site.prefixes), found
# by one scan of the text for any of them (an alternation of literals: the engine looks for line breaks
# and tries a few characters there; 4x faster than a str.find pass per prefix), so the expression is tried at
# a few places, not at every line.  No prefix holds a second line break, so no match hides another place.
# The same prefixes are what the C scan (kernel.hand_starts) looks for; the expression is its twin.
_PREFIXES = tuple(sorted({p for r in SITES for p in r.prefixes}))
_NEWLINE_PREFIXES = re.compile("|".join(re.escape("\n" + p) for p in _PREFIXES)) if all(r.prefixes for r in SITES) \
    else None


def _firsts(buf: str) -> list[re.Match[str]]:
    """The matches of :data:`_STARTS` in ``buf``, in order (as ``finditer`` gives them)."""
    if _NEWLINE_PREFIXES is None:
        return list(_STARTS.finditer(buf))
    match = _STARTS.match
    # A match ends on its own line (no room's first line spans two), so matches tried at each line break
    # are the ones finditer finds.  The line breaks a prefix follows: found in C (a memchr pass), or by
    # the expression (its twin).
    at = hand_starts(buf, _PREFIXES)
    if at is None:
        return [m for p in _NEWLINE_PREFIXES.finditer(buf) if (m := match(buf, p.start())) is not None]
    return [m for k in at if (m := match(buf, k)) is not None]


def _lines(chunk: str) -> list[str]:
    """A hand's lines, every one stripped of trailing blanks when the hand has any (rare: a tab, a carriage
    return, a blank before a line break): split in C, or here (its twin)."""
    lines = split_lines(chunk)
    if lines is not None:
        return lines
    lines = chunk.split("\n")
    if " \n" in chunk or "\t" in chunk or "\r" in chunk or chunk.endswith(" "):
        lines = [t.rstrip() for t in lines]
    return lines


#: Each alternative's group name in :data:`_STARTS` and its room.
_ROOM_OF = {f"s{k}": r for k, r in enumerate(SITES)}


def _read(file: str, stream: IO[str], wanted: Site | None, handle: Callable[[HandHistoryError], object],
          seen: dict[int, str] | None) -> Iterator[RealHand]:
    """Cut the text into hands at each room's first line, a block at a time; the last hand of a block
    waits for the next block (or the end of the text).  ``wanted``: the one room to read (None: all)."""
    rooms = SITES
    context: dict[str, object] = {}
    buf = "\n"  # the line break a first line at the very start of the text needs (see _STARTS)
    line = 0  # the line number of buf's first character (the line break in front: line 0)
    while True:
        block = stream.read(BLOCK)
        eof = not block
        buf += block
        found = _firsts(buf)
        if not found:
            if eof or len(buf) > 4 * BLOCK:  # no hand in sight: report the text, keep memory flat
                line = _garbage(buf, file, line, rooms, context, handle)
                buf = "\n"
            if eof:
                return
            continue
        head = found[0].start()
        if head:
            line = _garbage(buf[:head], file, line, rooms, context, handle)
        carry = ""
        for k, m in enumerate(found):
            end = found[k + 1].start() if k + 1 < len(found) else len(buf)
            if k + 1 == len(found) and not eof:
                carry = buf[m.start():]
                break
            line += 1  # the match's line break ends the line before the hand
            chunk = buf[m.start() + 1:end]
            room = _ROOM_OF[m.lastgroup]  # type: ignore[index]  # every alternative is a named group
            if wanted is None or room is wanted:
                lines = _lines(chunk)
                breaks = len(lines) - 1  # the chunk's line breaks, counted by the split (no second pass)
                hand = _one(room, lines, line, file, context, rooms, handle, seen)
                if hand is not None:
                    yield hand
                line += breaks
            else:
                other = HandHistoryError(f"a {room.name} hand, not read: only {wanted.name} hands are asked for",
                                         file, line)
                other.kind, other.site = "garbage", room.name
                handle(other)
                line += chunk.count("\n")
        buf = carry
        if eof:
            return


def _garbage(text: str, file: str, line: int, rooms: tuple[Site, ...], context: dict[str, object],
             handle: Callable[[HandHistoryError], object]) -> int:
    """Report the lines of ``text`` that no room writes (between hands: separators, XML wrappers are
    fine); returns the line number after ``text``."""
    lines = text.split("\n")
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


def _one(room: Site, lines: list[str], start: int, file: str, context: dict[str, object],
         rooms: tuple[Site, ...], handle: Callable[[HandHistoryError], object], seen: dict[int, str] | None
         ) -> RealHand | None:
    """The hand of ``lines`` (see :func:`_lines`; its first line number ``start``), or None: a bad hand
    (given to ``handle``) or a chunk that only sets context.  A plain function, not a generator: one hand at
    most, without a generator built and resumed per hand."""
    try:
        got = room.parse(lines, start, file, context)
    except HandHistoryError as bad:
        bad.site = room.name
        handle(bad)
        return None
    except (ValueError, IndexError, KeyError) as exc:  # a line in a shape the parser did not expect
        unreadable = HandHistoryError(f"unreadable {room.name} hand: {exc}", file, start)
        unreadable.site = room.name
        handle(unreadable)
        return None
    if got is None:  # a chunk that only sets context (Merge's <description>)
        return None
    hand, garbage = got
    if seen is not None:
        key = hash((hand.site, hand.hand_id))
        where = seen.get(key)
        if where is not None:
            twice = HandHistoryError(f"hand {hand.site} #{hand.hand_id} is given twice (first at {where})", file, start)
            twice.site, twice.hand_id, twice.variant, twice.kind = hand.site, hand.hand_id, hand.variant, "duplicate"
            handle(twice)
            return None
        seen[key] = f"{file}:{start}"
    if garbage:
        garbage = [(no, t) for no, t in garbage if not any(r.between(t, context) for r in rooms)]
    if garbage:
        junk = HandHistoryError(f"{len(garbage)} line{'s' if len(garbage) > 1 else ''} after the hand that no "
                                f"room writes: {garbage[0][1][:60]!r}", file, garbage[0][0])
        junk.site, junk.hand_id, junk.variant, junk.kind = hand.site, hand.hand_id, hand.variant, "garbage"
        handle(junk)
    return hand
