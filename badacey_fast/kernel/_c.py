"""The C twin: the same private functions as ``_python.py``, served by the cffi kernel and its tables.

Importing this module imports the compiled extensions ``badacey_fast._kernel`` (cffi: the kernel) and
``badacey_fast._speedups`` (CPython API: the single-hand call, see ``csrc/cpython/speedups.c``) and
checks that both table files exist (two ``stat`` calls); the tables themselves are read and checked
(header, size, checksum, ranges) lazily, on first use of each game, so a damaged table raises
``TableIntegrityError`` there in every backend policy.  Ranks are dense, lower is better.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from badacey_fast.tables import format as tables
from badacey_fast._kernel import ffi, lib  # ImportError here means the extension was never built
from badacey_fast._speedups import HandEvaluator
from badacey_fast.cards import parse_cards
from badacey_fast.rules.value import VALUES, from_entry

NAME = "c"

__all__ = ["NAME", "Kernel", "KERNEL", "SINGLE", "evaluate5", "low_rank5", "badugi_rank"]


class Kernel:
    """The loaded C kernel: ``ffi``, ``lib`` and the lookup tables, loaded lazily and integrity-checked.

    ``table(ace_high)`` returns a cffi ``uint32_t[]`` (usable wherever a ``const uint32_t *`` table is
    expected): Badacey's table for ``False``, Badeucy's for ``True``.  See ``csrc/badacey.h`` for the
    layout.  Thread-safe: concurrent first calls load a table once.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.ffi = ffi
        self.lib = lib
        self.directory = directory
        # Indexed by ace_high (False/True = 0/1); read on the hot path without the lock.
        self.tables: list[Any] = [None, None]
        # evaluate()'s single-hand call on each loaded table: cards -> cached Value, or None (see
        # csrc/cpython/speedups.c); None until loaded.
        self.single: list[Any] = [None, None]
        # Four-card badugi ranks by colex index (uint16_t[BD_HANDS4]), derived from the tables on demand.
        self.tables4: list[Any] = [None, None]
        self._lock = threading.Lock()

    def table(self, ace_high: bool) -> Any:
        """The table of Badacey (``ace_high=False``) or Badeucy (``True``); loads and verifies it once."""
        found = self.tables[ace_high]
        if found is None:
            found = self._load(1 if ace_high else 0)
        return found

    def badugi4(self, ace_high: bool) -> Any:
        """``uint16_t[BD_HANDS4]``: badugi rank (lower is better) of every four-card hand by colex index.

        Computed once (~10 ms) from the rank-mask part of ``table(ace_high)``, which is checked first.
        """
        found = self.tables4[ace_high]
        if found is None:
            table = self.table(ace_high)
            with self._lock:
                found = self.tables4[ace_high]
                if found is None:
                    buf = ffi.new("uint16_t[]", lib.BD_HANDS4)
                    lib.bd_fill_badugi4(table, buf)
                    self.tables4[ace_high] = found = buf
        return found

    def _load(self, game: int) -> Any:
        with self._lock:
            found = self.tables[game]
            if found is None:
                buf = ffi.new("uint32_t[]", tables.ENTRIES)
                tables.read_table(game, memoryview(ffi.buffer(buf)), self.directory, _first_bad_entry)
                self.tables[game] = found = buf
                self.single[game] = HandEvaluator(ffi.buffer(buf), VALUES, from_entry)
            return found


def _first_bad_entry(game: int, payload: memoryview) -> int:
    """The kernel's range check of a table payload (``bd_table_first_bad``): first bad entry, or -1."""
    return lib.bd_table_first_bad(ffi.from_buffer("uint32_t[]", payload), game)


tables.check_present()
KERNEL = Kernel()
_TABLES = KERNEL.tables
#: Per ace_high: ``f(cards) -> Value`` for a tuple or list of five exact ints that are distinct card ids,
#: else None; None before the table loads.  The evaluator reads it through ``_backend.single``.
SINGLE = KERNEL.single
_eval5 = lib.bd_eval5


def _table(ace_high: bool) -> Any:
    return _TABLES[ace_high] or KERNEL.table(ace_high)


def evaluate5(cards: tuple[int, ...], ace_high: bool) -> tuple[int, int]:
    """(low rank, badugi rank) of five validated cards, lower is better; ``ace_high`` selects Badeucy."""
    entry = _eval5(_TABLES[ace_high] or KERNEL.table(ace_high), *cards)
    if not entry:  # cannot happen for validated input; let the parser word the error
        parse_cards(cards, count=5)
        raise AssertionError(f"kernel rejected {cards!r}")
    return entry & 0xFFFF, entry >> 16


def low_rank5(cards: tuple[int, ...], ace_high: bool) -> int:
    """Low rank of five validated cards (A-5, or 2-7 when ``ace_high``); lower is better."""
    return evaluate5(cards, ace_high)[0]


def badugi_rank(cards: tuple[int, ...], ace_high: bool) -> int:
    """Badugi rank (1..1092, lower is better) of 1 to 5 validated cards."""
    rank = lib.bd_badugi_rank(_table(ace_high), cards, len(cards))
    if not rank:
        parse_cards(cards, count=(1, 2, 3, 4, 5))
        raise AssertionError(f"kernel rejected {cards!r}")
    return rank
