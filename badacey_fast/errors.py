"""Exceptions raised by badacey_fast.

Every error about a bad *value* is a :class:`ValueError` subclass whose message names the offending
token or value; wrong *types* raise plain :class:`TypeError`.
"""

from __future__ import annotations

__all__ = [
    "BadaceyError",
    "InvalidCardError",
    "DuplicateCardError",
    "HandSizeError",
    "RankError",
    "UnknownGameError",
    "ShowdownError",
    "IllegalActionError",
    "TableIntegrityError",
    "RangeError",
    "HandHistoryError",
]


class BadaceyError(ValueError):
    """Base class of every bad-value error raised by badacey_fast."""


class InvalidCardError(BadaceyError):
    """A card token or card id that is not one of the 52 cards (unknown text, int outside 0..51)."""


class DuplicateCardError(InvalidCardError):
    """The same card appears twice where every card must be distinct."""


class HandSizeError(BadaceyError):
    """A hand has the wrong number of cards for the operation."""


class RankError(BadaceyError):
    """A dense rank outside its scale (e.g. a low rank outside 1..6175 for Badacey)."""


class UnknownGameError(BadaceyError):
    """A game name that is neither Badacey nor Badeucy (nor one of their other spellings)."""


class ShowdownError(BadaceyError):
    """Bad input to a showdown or settlement: negative chips, bad button, no live hand, ..."""


class IllegalActionError(BadaceyError):
    """An action the rules do not allow at this point of a hand (names the rule broken)."""


class RangeError(BadaceyError):
    """Bad range text (``badacey_fast.draw.ranges``): names the token and its 0-based column.

    ``token`` is the offending text (``""`` at the end of the text) and ``column`` its 0-based position.
    """

    def __init__(self, message: str, token: str = "", column: int = -1) -> None:
        super().__init__(message)
        self.token = token
        self.column = column


class HandHistoryError(BadaceyError):
    """A hand history the reader cannot take as a hand (``badacey_fast.histories``): truncated, garbled,
    an amount that does not add up, a room it does not know.  The message is ``file:line: reason``;
    ``file``, ``line`` (1-based) and ``reason`` are also attributes, with the ``site``, ``hand_id`` and
    ``variant`` where the reader got that far (None otherwise), and ``kind``: ``"malformed"`` (a hand
    that cannot be read), ``"garbage"`` (lines that are no hand), ``"duplicate"`` (a hand id given twice).
    """

    kind: str = "malformed"
    site: str | None = None
    hand_id: str | None = None
    variant: str | None = None

    def __init__(self, reason: str, file: str = "<text>", line: int = 0) -> None:
        super().__init__(f"{file}:{line}: {reason}")
        self.file = file
        self.line = line
        self.reason = reason


class TableIntegrityError(RuntimeError):
    """A generated lookup table is missing, truncated or corrupted (names the file and the fix).

    ``missing`` is True when the file does not exist at all: only then does the ``auto`` backend policy
    fall back to the pure-Python twin; a damaged table always raises.
    """

    missing: bool = False
