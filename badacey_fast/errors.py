"""Every exception class of badacey_fast, in one module.

Every error about a bad *value* is a :class:`ValueError` subclass whose message names the offending
token or value; wrong *types* raise plain :class:`TypeError`.  :class:`TableIntegrityError` (damaged
data files) is a :class:`RuntimeError`, and :class:`CardOwed` is no error at all: the signal of chance
mode (a card is owed and the caller chooses it).  :class:`Terminated` (SIGTERM in the command) is a
:class:`BaseException`, as KeyboardInterrupt is, and :class:`PartitionAbandoned` a task's internal signal.
"""

from __future__ import annotations

from types import ModuleType

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
    "HistoryWarning",
    "ReplayError",
    "SettingError",
    "BackendError",
    "ConfigError",
    "HistoryError",
    "SeatError",
    "InvariantError",
    "CardOwed",
    "Terminated",
    "PartitionAbandoned",
    "MissingExtraError",
    "FileFormatError",
    "ShapeError",
    "SolveError",
    "InformationStateError",
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


class FileFormatError(BadaceyError):
    """A file format the package does not read or write: an output path whose extension names no format
    its writer knows (``badacey_fast.files.outputs.output_format``), a format name or a form of the cards
    (``"text"``, ``"array"``) that is none of those accepted.  The message names the bad value and the
    accepted ones; for a path, ``path`` and ``accepted`` (the extensions, ``""`` for none) are also
    attributes (``""`` and ``()`` otherwise)."""

    def __init__(self, message: str, path: str = "", accepted: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.path = path
        self.accepted = accepted


class HandHistoryError(BadaceyError):
    """A hand history that cannot be taken as a hand: a real room's text (``badacey_fast.histories``:
    truncated, garbled, an amount that does not add up, a room the reader does not know), or one of ours
    (``badacey_fast.game.history`` JSON, ``badacey_fast.game.phh`` PHH: malformed, or a replay that does
    not reach the recorded result).

    Read from a file (the room's texts), the message is ``file:line: reason``; otherwise (``file`` empty)
    it is the reason alone.  ``file``, ``line`` (1-based, 0 if none) and ``reason`` are also attributes,
    with the ``site``, ``hand_id`` and ``variant`` where the reader got that far (None otherwise), and
    ``kind``: ``"malformed"`` (a hand that cannot be read), ``"garbage"`` (lines that are no hand),
    ``"duplicate"`` (a hand id given twice).
    """

    kind: str = "malformed"
    site: str | None = None
    hand_id: str | None = None
    variant: str | None = None

    def __init__(self, reason: str, file: str = "", line: int = 0) -> None:
        super().__init__(f"{file}:{line}: {reason}" if file else reason)
        self.file = file
        self.line = line
        self.reason = reason


#: Deprecated: the old name of :class:`HandHistoryError` (one concept, one class); it will be removed.
HistoryError = HandHistoryError


class HistoryWarning(UserWarning):
    """A hand the reader of ``badacey_fast.histories`` could not take (``on_bad_hand="warn"``): the message
    is ``file:line: reason``."""


class ReplayError(BadaceyError):
    """A real hand (``badacey_fast.histories``) that cannot be replayed, or an action the engine refuses;
    ``kind`` says which: "skipped" (not one of our fixed-limit games, cancelled, ...), "rule difference"
    (the engine's rules refuse what the room allowed) or "parse gap" (the text does not say enough);
    ``line`` is the hand's line (1-based, 0 if none)."""

    def __init__(self, message: str, kind: str = "skipped", line: int = 0) -> None:
        super().__init__(message)
        self.kind = kind
        self.line = line


class SolveError(BadaceyError):
    """A game or strategy the solver cannot take (``badacey_fast.solve``): a game too large to solve
    exactly, an option the solver does not model, a strategy that does not fit the game (names which)."""


class InformationStateError(SolveError):
    """An information state a strategy of a small game does not have (``Strategy.locate``): a public
    history with no such node, a seat that does not act there, a card outside the deck, the wrong hands
    for the seat's draws (the message names the state)."""


class TableIntegrityError(RuntimeError):
    """A generated lookup table is missing, truncated or corrupted (names the file and the fix).

    ``missing`` is True when the file does not exist at all: only then does the ``auto`` backend policy
    fall back to the pure-Python twin; a damaged table always raises.
    """

    missing: bool = False


class SettingError(BadaceyError):
    """An environment variable of badacey_fast holds a value it refuses: ``BADACEY_FAST_BACKEND``
    (:class:`BackendError`) or ``BADACEY_FAST_ISA`` (a misspelt code path, or one this CPU lacks).  The
    message names the variable, the value and the valid values; raised when the package loads, before any
    work (the ``badacey`` command prints it as one line and exits with status 2)."""


class BackendError(SettingError):
    """An unknown value of ``BADACEY_FAST_BACKEND`` (:mod:`badacey_fast.kernel.backend`)."""


class ConfigError(BadaceyError):
    """A table rule, or an option of a run, that is out of range or unknown (a negative blind, a cap below
    1, seats outside 2..6, an unknown engine or parameter...)."""


class ShapeError(BadaceyError):
    """Arrays or lists whose shapes or lengths do not fit the call or each other (names the shapes): an
    ``(N, 5)`` array of hands of another shape, columns of different lengths, a label a seat short."""


class SeatError(BadaceyError):
    """A seat that is not at the table, occupied, or empty, or a seat change while a hand is running."""


class InvariantError(BadaceyError):
    """A broken invariant of a hand (a bug in the engine or a tampered state)."""


class CardOwed(Exception):
    """Raised by a stub dealing for the caller (``badacey_fast.rules.stub.CALLER``) when a card is owed and
    its script is over: ``outcomes`` are the cards it may deal next (the stub's cards, after any reshuffle
    of RULES.md §4), each equally likely.  Not an error: chance mode's signal, raised and caught."""

    def __init__(self, outcomes: tuple[int, ...]) -> None:
        # No message built here: chance mode raises this at every card a search deals, and catches it.
        super().__init__(outcomes)
        self.outcomes = outcomes

    def __str__(self) -> str:
        return f"a card is owed: one of {len(self.outcomes)} cards"


class Terminated(BaseException):
    """SIGTERM reached the ``badacey`` command (:mod:`badacey_fast.cli.signals`).  A BaseException, as
    KeyboardInterrupt is, so that no ``except Exception`` swallows it on the way out and every output
    being written is discarded, leaving the old one."""


class PartitionAbandoned(Exception):
    """A Dask partition of :func:`badacey_fast.dask.score_dataset` has nothing left to do: the client gave
    the run up (its payout folder is gone), or an earlier partition stopped at a bad row.  Not an error:
    raised between batches and caught by the partition's task, which then reports itself abandoned."""


class MissingExtraError(ImportError):
    """An optional dependency is not installed: the one-line message names the pip extra that installs it
    (``extra``), for a command line to print as it is.

    >>> MissingExtraError.require("json", "plot", "plots").__name__
    'json'
    >>> MissingExtraError.require("no_such_module_here", "plot", "plots")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.MissingExtraError: plots need no_such_module_here: pip install "badacey_fast[plot]"
    """

    def __init__(self, message: str, extra: str) -> None:
        super().__init__(message)
        self.extra = extra

    @classmethod
    def require(cls, module: str, extra: str, what: str) -> ModuleType:
        """``import module``, or this error: ``"<what> need <module>: pip install "badacey_fast[<extra>]""``."""
        import importlib

        try:
            return importlib.import_module(module)
        except ImportError:
            top = module.split(".")[0]
            raise cls(f'{what} need {top}: pip install "badacey_fast[{extra}]"', extra) from None
