# Type stub of the compiled CPython extension badacey_fast._speedups (csrc/cpython/speedups.c, where the
# contract is written down): the single-hand call of evaluate(), and the list -> int64 glue in front of
# bd_observe_many.  Generic here only (the runtime class takes no subscript): _V is the value type the
# caller's `make` builds (evaluate()'s Value).
from collections.abc import Callable
from typing import Any, Generic, TypeVar, final

import numpy as np
from _cffi_backend import buffer
from typing_extensions import Buffer

_V = TypeVar("_V")

@final
class HandEvaluator(Generic[_V]):
    # table: one game's uint32 table (BD_TABLE_ENTRIES entries); values: {packed entry: value}, shared and
    # filled on first sight; make(entry) -> value, called once per new entry.
    def __init__(self, table: buffer, values: dict[int, _V], make: Callable[[int], _V], /) -> None: ...
    # The value of `cards` when it is a tuple or list of five exact ints that are distinct card ids, else None.
    def __call__(self, cards: object, /) -> _V | None: ...

# bd_observe_many (csrc/observe.h) on the ints of the list `rows` (exactly a list) into `out`, a writable
# C-contiguous float32 buffer (numpy's stubs give ndarray the buffer protocol only from Python 3.12, hence
# the ndarray beside Buffer).  Returns bd_observe_many's result.
def observe_rows(rows: list[int], count: int, out: np.ndarray[Any, Any] | Buffer, /) -> int: ...

# What a SeatRows call returns for a game it does not read (out untouched).
SEAT_ROWS_NOT_SERVED: int

# The observation row of csrc/observe.h read from the slots of a game of exactly type `cls` (`fields`: its
# member descriptors, in speedups.c's order) and encoded: -1, the bad row, or SEAT_ROWS_NOT_SERVED.
@final
class SeatRows:
    def __init__(self, cls: type, fields: tuple[object, ...], betting: str, drawing: str, /) -> None: ...
    def __call__(self, game: object, seat: int, unit: int, out: np.ndarray[Any, Any] | Buffer, /) -> int: ...

# A PokerStars hand's lines from its seats (lines[i]) on, read in C (csrc/cpython/stars.c): (seats, behind,
# events, held, collected, shown, posted, pot, rake, garbage, button), or None where the Python reader reads
# the hand; read_tilt: a Full Tilt hand's, alike.
# consts: (Event, Seat, the event kinds in stars.c's order, RANK_CHARS, SUIT_CHARS).
def read_stars(lines: list[str], i: int, start: int, scale: int, draws: int, hand_size: int,
               consts: tuple[object, ...], /) -> tuple[Any, ...] | None: ...
def read_tilt(lines: list[str], i: int, start: int, scale: int, draws: int, hand_size: int,
              consts: tuple[object, ...], /) -> tuple[Any, ...] | None: ...
def read_kings(lines: list[str], i: int, start: int, scale: int, draws: int, hand_size: int,
               consts: tuple[object, ...], /) -> tuple[Any, ...] | None: ...
# csrc/cpython/finish.c: a finished hand's players dealt in (seats fixed in place) and (chips put in, chips
# paid), and its holdings ({name: [cards or None] * (draws + 1)}, the draws' cards filled in `events`); None
# where the Python twin (HandBuilder.finish, _holdings) decides.  consts: (Event, DRAW, FOLD).
def dealt_and_paid(seats: dict[str, Any], events: list[Any], held: dict[str, dict[int, tuple[int, ...]]],
                   behind: dict[str, int], collected: dict[str, int], seat_type: type, /) -> tuple[int, int] | None: ...
def holdings(seats: dict[str, Any], events: list[Any], held: dict[str, dict[int, tuple[int, ...]]],
             shown: dict[str, tuple[int, ...]], draws: int, hand_size: int,
             consts: tuple[object, ...], /) -> dict[str, list[tuple[int, ...] | None]] | None: ...
# csrc/cpython/lines.c: the offsets of the line breaks one of `prefixes` follows; a hand's lines, stripped
# as histories.reader strips a hand with trailing blanks.
def hand_starts(text: str, prefixes: tuple[str, ...], /) -> list[int]: ...
def xml_attributes(line: str, /) -> dict[str, str] | None: ...
def split_lines(chunk: str, /) -> list[str]: ...
# csrc/cpython/stars_head.c: a PokerStars first line's and table line's groups as pokerstars._HEADER and
# _TABLE give them, or None where the expression reads the line.
def stars_first_line(line: str, /) -> tuple[str | None, ...] | None: ...
def stars_table_line(line: str, /) -> tuple[str, int | None, int | None] | None: ...
