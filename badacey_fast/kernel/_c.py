"""The C twin: the same functions as ``_py.py``, served by the cffi kernel and its tables.

Every ``lib.bd_*`` call of the package is here, once, behind a numpy/Python-level function (the feature
modules reach them through :mod:`badacey_fast.kernel`'s dispatch, never directly).

Importing this module imports the compiled extensions ``badacey_fast._kernel`` (cffi: the kernel) and
``badacey_fast._speedups`` (CPython API: the single-hand call, see ``csrc/cpython/speedups.c``) and
checks that both table files exist (two ``stat`` calls); the tables themselves are read and checked
(header, size, checksum, ranges) lazily, on first use of each game, so a damaged table raises
``TableIntegrityError`` there in every backend policy.  Ranks are dense, lower is better.
"""

from __future__ import annotations

import os
from _thread import allocate_lock

from badacey_fast.tables import format as tables
from badacey_fast._kernel import ffi, lib  # ImportError here means the extension was never built
from badacey_fast._speedups import SEAT_ROWS_NOT_SERVED, HandEvaluator, SeatRows, observe_rows as _observe_rows
from badacey_fast._speedups import dealt_and_paid as dealt_and_paid, hand_starts as hand_starts, holdings as holdings
from badacey_fast._speedups import split_lines as split_lines, xml_attributes as xml_attributes
from badacey_fast._speedups import stars_first_line as stars_first_line
from badacey_fast._speedups import stars_table_line as stars_table_line, read_kings as read_kings, read_stars as read_stars, read_tilt as read_tilt
from badacey_fast.cards import parse_cards
from badacey_fast.errors import ConfigError, InformationStateError, SettingError, ShapeError, ShowdownError, SolveError
from badacey_fast.rules.value import VALUES, Value, from_entry

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (docs/import.md); mypy reads it alike
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, TypeAlias

    from _cffi_backend import FFI
    from typing_extensions import Buffer

    from badacey_fast.kernel.twin import NDArray, Progress

    #: a cffi pointer or array (``ffi.new``, ``ffi.cast``, ``ffi.from_buffer``, ``ffi.NULL``)
    CData: TypeAlias = FFI.CData

    # ``ffi.from_buffer`` itself; numpy's stubs give ndarray the buffer protocol (``__buffer__``) only
    # from Python 3.12, though every ndarray has it at runtime on every supported version.
    def _from_buffer(cdecl: str, python_buffer: NDArray | Buffer, /) -> CData: ...
else:
    _from_buffer = ffi.from_buffer

NAME = "c"


__all__ = ["NAME", "Kernel", "KERNEL", "SINGLE", "evaluate5", "low_rank5", "badugi_rank", "eval_many",
           "badugi_rank_many", "all_entries", "showdown_many", "showdown_columns", "split_many", "draw_histograms",
           "draw_all_discards", "parse_deals", "format_results", "simd_level", "eval_many_level", "observe_many",
           "observe_list", "seat_encoder", "read_stars", "read_tilt", "read_kings", "stars_first_line", "stars_table_line", "xml_attributes", "hand_starts", "split_lines", "dealt_and_paid", "holdings", "EngineTables", "Simulator", "BOT_KINDS", "SIM_RECORDS", "bot_keep",
           "SolverCore", "MCStore", "Abstraction", "bot_policy", "keep_mask", "draw_mask", "info_key",
           "lbr_run", "mccfr_run"]


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
        self.tables: list[CData | None] = [None, None]
        # evaluate()'s single-hand call on each loaded table: cards -> cached Value, or None (see
        # csrc/cpython/speedups.c); None until loaded.
        self.single: list[HandEvaluator[Value] | None] = [None, None]
        # Four-card badugi ranks by colex index (uint16_t[BD_HANDS4]), derived from the tables on demand.
        self.tables4: list[CData | None] = [None, None]
        self._lock = allocate_lock()  # threading.Lock itself: _thread is loaded with the interpreter

    def table(self, ace_high: bool) -> CData:
        """The table of Badacey (``ace_high=False``) or Badeucy (``True``); loads and verifies it once."""
        found = self.tables[ace_high]
        if found is None:
            found = self._load(1 if ace_high else 0)
        return found

    def badugi4(self, ace_high: bool) -> CData:
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

    def _load(self, game: int) -> CData:
        with self._lock:
            found = self.tables[game]
            if found is None:
                # Mapped, not copied: processes on one machine share the file's pages, so two workers
                # keep one copy of the table in the shared cache (tables.map_table).  The cdata keeps
                # the map alive.
                payload, _ = tables.map_table(game, self.directory, _first_bad_entry)
                buf = _from_buffer("uint32_t[]", payload)
                self.tables[game] = found = buf
                self.single[game] = HandEvaluator(ffi.buffer(buf), VALUES, from_entry)
            return found


def _first_bad_entry(game: int, payload: memoryview) -> int:
    """The kernel's range check of a table payload (``bd_table_first_bad``): first bad entry, or -1."""
    return lib.bd_table_first_bad(_from_buffer("uint32_t[]", payload), game)


def _check_isa() -> None:
    """Refuse a bad ``BADACEY_FAST_ISA`` (a misspelt code path, or one this CPU lacks) with a
    :class:`~badacey_fast.errors.SettingError` naming the value and the valid ones (``bd_isa_check``'s
    words).  Run once, when this twin is imported, i.e. before any call and any output of a command: the
    C extension's own check, when a table loads, would come after a command has begun printing.

    >>> _check_isa()  # the value this process runs with is a valid one
    """
    msg = ffi.new("char[]", 256)
    if lib.bd_isa_check(msg, len(msg)):
        text = ffi.string(msg)  # bytes for a char array (cffi's stubs allow str too)
        raise SettingError(text.decode("utf-8", "replace") if isinstance(text, bytes) else text)


_check_isa()
tables.check_present()
KERNEL = Kernel()
_TABLES = KERNEL.tables
#: Per ace_high: ``f(cards) -> Value`` for a tuple or list of five exact ints that are distinct card ids,
#: else None; None before the table loads.  The evaluator reads it through ``_backend.single``.
SINGLE = KERNEL.single
_eval5 = lib.bd_eval5


def _table(ace_high: bool) -> CData:
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


# --------------------------------------------------------------------------------------------------
# Batches over numpy arrays.  Arrays come validated in shape and dtype from the public API (the layouts
# are in each function's docstring); the kernel validates card ids itself and reports the first bad row.


def _addr(ctype: str, arr: NDArray) -> CData:
    """A ``ctype`` pointer to an array's first element (any strides: the kernel is told them)."""
    return ffi.cast(ctype, arr.__array_interface__["data"][0])


def _split(call: Callable[..., int], shared: Callable[..., int], args: tuple[object, ...], n: int,
           threads: int) -> int:
    """``call(*args)`` over ``n`` rows, or on ``threads`` threads its ``_shared`` variant (the same
    arguments, then a shared counter and a chunk size).  Returns the first bad row or -1."""
    if threads <= 1:
        return call(*args)
    # Loaded with the first split batch: the helper threads' module imports threading, which a single
    # thread (and ``import badacey_fast``) never needs.
    from badacey_fast.kernel import threads as helpers

    counter, chunk = ffi.new("int64_t *"), helpers.chunk(n, threads)
    return helpers.run_shared(lambda: shared(*args, counter, chunk), threads)


def eval_many(cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
              out_badugi: NDArray, threads: int = 1) -> int:
    """Fill ``out_low`` / ``out_badugi`` (C-contiguous uint16 (N,)) with the ranks of an (N, 5) uint8 array
    (any strides); ``threads`` >= 1 splits the batch.  Returns the first bad row (ids outside 0..51 or
    repeated, only when ``check``), or -1."""
    n = cards.shape[0]
    rs, cs = cards.strides
    args = (_table(ace_high), _addr("const uint8_t *", cards), n, rs, cs, _addr("uint16_t *", out_low),
            _addr("uint16_t *", out_badugi), 1 if check else 0)
    return _split(lib.bd_eval_many, lib.bd_eval_many_shared, args, n, threads)


def badugi_rank_many(cards: NDArray, ace_high: bool, check: bool, out: NDArray,
                     threads: int = 1) -> int:
    """Fill ``out`` (C-contiguous uint16 (N,)) with the badugi ranks of an (N, k) uint8 array, k = 1..5 (any
    strides).  Returns the first bad row (only when ``check``), or -1."""
    n, k = cards.shape
    rs, cs = cards.strides
    rows, out_p, flag = _addr("const uint8_t *", cards), _addr("uint16_t *", out), 1 if check else 0
    if k == 4:  # four cards: one load per row from the derived four-card table
        args: tuple[object, ...] = (KERNEL.badugi4(ace_high), rows, n, rs, cs, out_p, flag)
        return _split(lib.bd_badugi4_many, lib.bd_badugi4_many_shared, args, n, threads)
    args = (_table(ace_high), rows, n, k, rs, cs, out_p, flag)
    return _split(lib.bd_badugi_many, lib.bd_badugi_many_shared, args, n, threads)


def all_entries(ace_high: bool) -> NDArray:
    """Packed entries ``low | badugi << 16`` (little-endian uint32) of every hand in colex order.

    The table IS the evaluation of every hand in colex order: a read-only view of it, no hashing."""
    import numpy as np

    return np.frombuffer(memoryview(ffi.buffer(_table(ace_high))), dtype="<u4", count=tables.HANDS5)


def _bytes(arr: NDArray | bytearray | None) -> CData:
    return ffi.NULL if arr is None else _from_buffer("uint8_t[]", arr)


def _i64(arr: NDArray | None) -> CData:
    return ffi.NULL if arr is None else _from_buffer("int64_t[]", arr)


def showdown_many(hands: NDArray, live: NDArray | None, ace_high: bool,
                  pots: NDArray | None, buttons: NDArray | None, odd_low: bool,
                  shares: NDArray | None, chips: NDArray | None,
                  low: NDArray | None, badugi: NDArray | None,
                  status: NDArray | None = None) -> tuple[int, int]:
    """Settle N showdowns (csrc/showdown.h ``bd_showdown_many``); every array C-contiguous, None = absent.

    ``hands`` uint8 (N, P, 5) (ids outside 0..51 already made 255); ``live`` bool/uint8 (N, P) or None (all
    live); ``pots`` / ``buttons`` int64 (N,) for chips, None for shares; outputs ``shares`` float64 (N, P),
    ``chips`` int64 (N, P), ``low`` / ``badugi`` bool/uint8 (N, P) winner masks.  Without ``status``:
    returns ``(first bad row, its BD_SD_* code)``, rows before it written, or ``(-1, 0)``; with ``status``
    (uint8 (N,)): every row's code goes there (bad rows pay nothing) and returns ``(bad row count, 0)``.
    """
    n, p = hands.shape[:2]
    code = ffi.new("int32_t *")
    row = lib.bd_showdown_many(
        _table(ace_high), _bytes(hands), _bytes(live), n, p, _i64(pots), _i64(buttons), int(odd_low),
        ffi.NULL if shares is None else _from_buffer("double[]", shares), _i64(chips), _bytes(low),
        _bytes(badugi), _bytes(status), code,
    )
    if row == -2:  # pragma: no cover - the arguments are built by the callers
        raise ShowdownError(f"bd_showdown_many rejected its arguments ({n} rows of {p} seats)")
    return int(row), int(code[0])


def showdown_columns(hands: NDArray, live: NDArray | None, ace_high: bool, pots: NDArray, buttons: NDArray,
                     odd_low: bool, chips: NDArray, low_bits: NDArray | None, badugi_bits: NDArray | None,
                     status: NDArray | None = None) -> tuple[int, int]:
    """:func:`showdown_many`'s chip form in a payout table's layout (csrc/showdown.h ``bd_showdown_columns``).

    ``hands``, ``live``, ``pots``, ``buttons``, ``status`` and the return value as :func:`showdown_many`;
    ``chips`` int64 (P, N) C-contiguous: ``chips[s]`` is seat s's column; ``low_bits`` / ``badugi_bits``
    uint8 (N,) seat bitmasks of each half's winners (bit s = seat s), or None.
    """
    n, p = hands.shape[:2]
    code = ffi.new("int32_t *")
    row = lib.bd_showdown_columns(
        _table(ace_high), _bytes(hands), _bytes(live), n, p, _i64(pots), _i64(buttons), int(odd_low), _i64(chips),
        n, _bytes(low_bits), _bytes(badugi_bits), _bytes(status), code,
    )
    if row == -2:  # pragma: no cover - the arguments are built by the callers
        raise ShowdownError(f"bd_showdown_columns rejected its arguments ({n} rows of {p} seats)")
    return int(row), int(code[0])


def split_many(pots: NDArray, buttons: NDArray, low_bits: NDArray | None, badugi_bits: NDArray | None,
               odd_low: bool, chips: NDArray, columns: bool) -> int:
    """Pay N pots whose winners are known (csrc/showdown.h ``bd_split_many``): the one split of RULES.md §3.

    ``pots``, ``buttons``: int64 (N,) C-contiguous; ``low_bits`` / ``badugi_bits``: uint8 (N,) seat masks of
    each half's winners, None for a half the game does not play; ``chips``: int64 C-contiguous, (N, P)
    (``columns`` False) or (P, N) seat columns (``columns`` True), P = the seats.  Returns -1, or the first
    row with a negative pot, a button that is not a seat, or no winner (the rows before it written).
    """
    n = len(pots)
    seats = chips.shape[0] if columns else chips.shape[1]
    # bd_split_many trusts the lengths it is given: every array is checked against them here.
    if (chips.shape != ((seats, n) if columns else (n, seats)) or not chips.flags.c_contiguous or len(buttons) != n
            or any(bits is not None and len(bits) != n for bits in (low_bits, badugi_bits))):
        raise ShapeError(f"split_many: arrays of other lengths than {n} rows of {seats} seats")
    row = lib.bd_split_many(_i64(pots), _i64(buttons), _bytes(low_bits), _bytes(badugi_bits), n, seats,
                            int(odd_low), _i64(chips), 1 if columns else seats, n if columns else 1)
    if row == -2:  # pragma: no cover - the arguments are built by the callers
        raise ShowdownError(f"bd_split_many rejected its arguments ({n} rows of {seats} seats)")
    return int(row)


def parse_deals(block: bytes, pos: int, seats: int, csv: bool, columns: NDArray | None, ncolumns: int,
                max_rows: int, hands: NDArray, live: NDArray, pot: NDArray,
                button: NDArray, flags: NDArray, start: NDArray,
                length: NDArray) -> tuple[int, int] | None:
    """The deal-file fast parser (csrc/deals.h ``bd_parse_deals``) on ``block[pos:]``: fills the row
    arrays (C-contiguous, ``max_rows`` long) and returns ``(lines scanned, bytes consumed)``.  ``columns``:
    int8 column kinds, or None.  (The Python twin has no such parser and returns None.)"""
    consumed = ffi.new("int64_t *")
    rows = lib.bd_parse_deals(
        ffi.from_buffer(block) + pos, len(block) - pos, seats, int(csv),
        ffi.NULL if columns is None else _from_buffer("int8_t[]", columns), ncolumns, max_rows,
        _bytes(hands), _bytes(live), _i64(pot), _i64(button), _bytes(flags), _i64(start), _i64(length), consumed,
    )
    if rows < 0:  # pragma: no cover - arguments are built by the caller
        raise RuntimeError("bd_parse_deals rejected its arguments")
    return int(rows), int(consumed[0])


def format_results(line: NDArray, chips: NDArray, low: NDArray,
                   badugi: NDArray, keep: NDArray | None, out: bytearray) -> int:
    """CSV rows ``line,chips...,low_winners,badugi_winners\\n`` of the kept rows into ``out``; returns the
    bytes written, or -1 if ``out`` is too small.  Arrays C-contiguous: ``line`` int64 (N,), ``chips`` int64
    (N, P), ``low`` / ``badugi`` / ``keep`` uint8."""
    n, p = chips.shape
    return int(lib.bd_format_results(_i64(line), _i64(chips), _bytes(low), _bytes(badugi), _bytes(keep), n, p,
                                     ffi.from_buffer(out), len(out)))


# --------------------------------------------------------------------------------------------------
# Draw enumeration (csrc/draw.c): histograms over every replacement set, indexed by rank.


def _draw_buffers(call: Callable[..., int], ace_high: bool, hand: tuple[int, ...], with_count: bool,
                  unseen: tuple[int, ...], copies: int) -> tuple[Any, Any, int, int]:
    """One kernel call filling ``copies`` (low, badugi) histograms: the two uint64 buffers (slot 0 of
    each histogram unused: indexed by rank) and their lengths."""
    from badacey_fast.rules import reference  # the class counts (on first use: not an import-time cost)

    low_len = reference.LOW_CLASS_COUNTS[_GAMES[ace_high]] + 1
    bd_len = reference.BADUGI_CLASS_COUNT + 1
    low = ffi.new("uint64_t[]", copies * low_len)
    bd = ffi.new("uint64_t[]", copies * bd_len)
    head = (_table(ace_high), ffi.new("uint8_t[]", hand)) + ((len(hand),) if with_count else ())
    got = call(*head, ffi.new("uint8_t[]", unseen), len(unseen), low, low_len, bd, bd_len)
    if got < 0:  # validated by the callers, so only a damaged table can get here
        from badacey_fast.cards import format_cards

        raise RuntimeError(f"{'bd_draw_histograms' if with_count else 'bd_draw_all_discards'} failed with code "
                           f"{got} for {format_cards(hand)!r}")
    return low, bd, low_len, bd_len


_GAMES = ("badacey", "badeucy")


def draw_histograms(kept: tuple[int, ...], unseen: tuple[int, ...], k: int, ace_high: bool,
                    progress: Progress | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(low, badugi) histograms, rank 1 first, of ``kept`` plus every ``k``-card set of ``unseen``
    (``k = 5 - len(kept)``).  ``progress(done, total)``: one kernel call, so only the last report."""
    low, bd, low_len, bd_len = _draw_buffers(lib.bd_draw_histograms, ace_high, kept, True, unseen, 1)
    # memoryview.tolist() makes the Python ints about twice as fast as ffi.unpack ("Q" = uint64).
    lows = tuple(memoryview(ffi.buffer(low)).cast("Q")[1:].tolist())
    bds = tuple(memoryview(ffi.buffer(bd)).cast("Q")[1:].tolist())
    if progress is not None:
        total = sum(lows)
        progress(total, total)
    return lows, bds


def draw_all_discards(hand: tuple[int, ...], unseen: tuple[int, ...], ace_high: bool,
                      progress: Progress | None = None) -> tuple[NDArray, NDArray]:
    """The histograms of :func:`draw_histograms` for all 32 discards of a five-card hand from one kernel
    call: two int64 arrays, (32, low ranks) and (32, badugi ranks), row = discard mask (bit ``i`` =
    ``hand[i]`` thrown), column = rank - 1; ``progress`` as there.  Arrays, because the pot-share
    objective of ``best_discards`` weighs all 32 rows at once (a tuple per row cost more than the
    enumeration)."""
    import numpy as np

    low, bd, low_len, bd_len = _draw_buffers(lib.bd_draw_all_discards, ace_high, hand, False, unseen, 32)
    # Counts are at most C(47, 5) = 1,533,939: int64 holds them, and numpy's arithmetic stays signed.
    lows = np.frombuffer(memoryview(ffi.buffer(low)), np.uint64).reshape(32, low_len)[:, 1:].astype(np.int64)
    bds = np.frombuffer(memoryview(ffi.buffer(bd)), np.uint64).reshape(32, bd_len)[:, 1:].astype(np.int64)
    if progress is not None:
        total = int(lows.sum())
        progress(total, total)
    return lows, bds


# --------------------------------------------------------------------------------------------------
# Observation vectors of the learning environments (csrc/observe.c).

def observe_many(rows: Iterable[int], count: int, out: NDArray) -> int:
    """The observation vectors of ``count`` rows packed in ``rows`` (a list of ints, the layout of
    csrc/observe.h) into ``out`` (float32, C-contiguous, at least ``count * 223`` values, row i at
    ``out.flat[i * 223]``).  Returns -1, the first bad row (the rows before it written), or -2 for bad
    arguments (``bd_observe_many``).  Served by ``_speedups.observe_rows`` (csrc/cpython/speedups.c),
    which reads the list's ints straight into the int64 array ``bd_observe_many`` takes: the cffi route
    (pack, from_buffer, the call) cost ~0.8 us against ~0.2 us, at every turn of a game.  A non-integer
    raises ``TypeError``, an int outside int64 ``OverflowError``."""
    return _observe_rows(rows if type(rows) is list else list(rows), count, out)


#: ``observe_many`` for rows given as a list (anything else: ``TypeError``), with no Python call in front:
#: what :func:`badacey_fast.kernel.row_encoder` hands the environments to call at every turn.
observe_list = _observe_rows



def seat_encoder(cls: type, fields: tuple[object, ...], betting: str, drawing: str
                 ) -> Callable[[object, int, int, NDArray], int]:
    """``_speedups.SeatRows``: the observation row read from a game's slots and encoded in one C call
    (csrc/cpython/speedups.c; :func:`badacey_fast.kernel.seat_encoder`).  Its "not served" code is the
    kernel's ``SEAT_NOT_SERVED``."""
    assert SEAT_ROWS_NOT_SERVED == -3  # kernel.SEAT_NOT_SERVED (the extension's constant, the same value)
    return SeatRows(cls, fields, betting, drawing)


# --------------------------------------------------------------------------------------------------
# The vector paths, for the benchmark and the tests: C only.


def simd_level() -> int:
    """The best vector path this CPU runs: 0 scalar loop, 1 AVX2, 2 AVX-512 VBMI."""
    return int(lib.bd_simd_level())


def eval_many_level(cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
                    out_badugi: NDArray, level: int) -> int:
    """:func:`eval_many` on one thread, limited to one vector path (``level`` as :func:`simd_level`)."""
    rs, cs = cards.strides
    return lib.bd_eval_many_level(_table(ace_high), _addr("const uint8_t *", cards), cards.shape[0], rs, cs,
                                  _addr("uint16_t *", out_low), _addr("uint16_t *", out_badugi), 1 if check else 0,
                                  level)


# --------------------------------------------------------------------------------------------------
# The C twin of the hand loop (csrc/engine.c), for the vectorised learning environment: C only (its Python
# twin is the rules engine itself, badacey_fast.game, a layer above this one).


class EngineTables:
    """``count`` tables of the C hand loop (``bd_eng_table[count]``), the learner at seat ``learner``
    against random bots, every hand starting from ``stacks`` (chips per seat).  ``game``: the preset's
    index in :data:`badacey_fast.rules.games.PRESETS`; ``cap``: bets per round, ``None`` for no cap;
    ``size``: the game's (ranks, suits, hand size, draws), a small game's or the full one's (13, 4, 5 or
    Badugi's 4, 3), as :class:`~badacey_fast.game.GameConfig` checked them.
    Arrays passed to :meth:`reset` and :meth:`step` come checked (shape, dtype, C order) from the caller
    (badacey_fast/envs/gymnasium.py); the kernel checks every table's state and every action itself.
    Raises ``ValueError`` when the kernel refuses the rules (a value outside its ranges, ints beyond int64
    included)."""

    def __init__(self, count: int, game: int, learner: int, stacks: list[int], small_blind: int, big_blind: int,
                 ante: int, small_bet: int, big_bet: int, cap: int | None, heads_up_uncapped: bool, burn: bool,
                 odd_low: bool, ace_high: bool, size: tuple[int, int, int, int]) -> None:
        cfg: Any = ffi.new("bd_eng_config *")  # a struct: its fields are attributes cffi's stubs cannot name
        # A cap no count of bets can reach (chips are at most 2**40, each bet at least 1) is no cap.
        no_cap = cap is None or cap >= lib.BD_ENG_NO_CAP
        try:  # cffi raises OverflowError for an int beyond the field's int64: the same refusal
            cfg.small_blind, cfg.big_blind, cfg.ante = small_blind, big_blind, ante
            cfg.small_bet, cfg.big_bet = small_bet, big_bet
            cfg.cap = lib.BD_ENG_NO_CAP if no_cap else cap
            cfg.stacks[0:len(stacks)] = stacks
            cfg.game, cfg.seats, cfg.learner = game, len(stacks), learner
            cfg.heads_up_uncapped, cfg.burn, cfg.odd_low = int(heads_up_uncapped), int(burn), int(odd_low)
            cfg.ranks, cfg.suits, cfg.hand_size, cfg.draws = size
            refused = False
        except (OverflowError, IndexError):  # IndexError: more than 6 stacks
            refused = True
        self.count = count
        self.config = cfg
        self.tables = ffi.new("bd_eng_table[]", max(count, 1))
        self.table = _table(ace_high)
        if refused or lib.bd_eng_init(self.tables, cfg, 0) != lib.BD_ENG_OK:
            raise ConfigError(f"the C hand loop refuses these rules (chips above 2**40, or a value out of range): "
                             f"stacks {stacks}, blinds {small_blind}/{big_blind}, ante {ante}, "
                             f"bets {small_bet}/{big_bet}, cap {cap}, ranks/suits/hand size/draws {size}")

    def seed(self, seeds: list[int]) -> None:
        """Start every table afresh: table k's generator from ``seeds[k]`` (ints 0..2**64-1, one per table),
        the button at seat 0 for its first hand.  ``ValueError`` for a count of seeds other than the tables';
        ``RuntimeError`` if the kernel refuses a table's start: the config it accepted in ``__init__`` was
        changed since (``config`` is the cffi struct itself), which no caller of the package does."""
        if len(seeds) != self.count:  # one table per seed: more would be written past the array
            raise ShapeError(f"{len(seeds)} seeds for {self.count} tables")
        for k, s in enumerate(seeds):
            code = lib.bd_eng_init(self.tables + k, self.config, s)
            if code != lib.BD_ENG_OK:
                why = "its config is out of range" if code == lib.BD_ENG_BAD_ARGS else "unknown"
                raise RuntimeError(f"the C hand loop refused to start table {k}: {why} (bd_eng_init code {code})")

    def reset(self, obs: NDArray, codes: NDArray) -> int:
        """Deal every table's first hand up to the learner's decision (``bd_eng_reset_many``): the
        observations into ``obs`` (float32 ``[count, 223]``), the mask codes into ``codes`` (int64).
        Returns -1, or the first table refused."""
        return int(lib.bd_eng_reset_many(self.tables, self.count, self.table, _addr("float *", obs), obs.size,
                                         _addr("int64_t *", codes)))

    def step(self, actions: NDArray, obs: NDArray, final: NDArray, rewards: NDArray, term: NDArray,
             illegal: NDArray, codes: NDArray) -> int:
        """One step of every table (``bd_eng_step_many``): ``actions`` int64, ``obs`` and ``final`` float32
        ``[count, 223]``, ``rewards`` float64, ``term`` and ``illegal`` uint8 (or bool), ``codes`` int64.
        Returns -1, or the first table refused."""
        return int(lib.bd_eng_step_many(self.tables, self.count, self.table, _addr("const int64_t *", actions),
                                        _addr("float *", obs), _addr("float *", final), obs.size,
                                        _addr("double *", rewards), _addr("uint8_t *", term),
                                        _addr("uint8_t *", illegal), _addr("int64_t *", codes)))


# --------------------------------------------------------------------------------------------------
# Simulations of the built-in bots in the C hand loop (csrc/simulate.c, csrc/bots.c): C only (their
# Python twin is game/simulate.py with game/bots.py's bots).

#: bd_bots' kinds by the bots' names (game/bots.py BOTS).
BOT_KINDS = {"random": 0, "rule": 1}
#: The per-hand records bd_sim_run writes: name -> (dtype, shape of a row; 6 seats a row whatever the seats).
SIM_RECORDS = {"net": ("int64", (6,)), "cards": ("uint8", (6, 5)), "folded": ("uint8", (6,)),
               "button": ("uint8", ()), "showdown": ("uint8", ()), "pot": ("int64", ())}
_SIM_ERRORS = {1: "an illegal action", 2: "a damaged table state", 3: "bad arguments", 4: "cards ran out",
               5: "a sum beyond int64"}


class Simulator:
    """One table of the C hand loop played by built-in bots, hand after hand (``bd_sim_run``).

    ``game``: the preset's index in :data:`badacey_fast.rules.games.PRESETS`; ``stacks``: each seat's chips
    at the start of every hand; the rules as :class:`EngineTables` takes them (``cap`` None: no cap;
    ``size``: ranks, suits, hand size, draws); ``bots``: each seat's bot name (``"random"`` or ``"rule"``);
    ``seed``: the deal's generator; ``bot_seeds``: each seat's bot's generator (ints 0..2**64-1).  Raises
    ``ValueError`` when the kernel refuses the rules or the bots (chips above 2**40, a value out of range,
    an unknown bot)."""

    #: The per-hand records :meth:`run` fills (:data:`SIM_RECORDS`).
    RECORDS = SIM_RECORDS

    def __init__(self, game: int, stacks: list[int], small_blind: int, big_blind: int, ante: int, small_bet: int,
                 big_bet: int, cap: int | None, heads_up_uncapped: bool, burn: bool, odd_low: bool, ace_high: bool,
                 size: tuple[int, int, int, int], bots: list[str], seed: int, bot_seeds: list[int]) -> None:
        if len(bots) != len(stacks) or len(bot_seeds) != len(stacks) or any(b not in BOT_KINDS for b in bots):
            raise ConfigError(f"one built-in bot ({', '.join(BOT_KINDS)}) and one seed per seat: got {bots}")
        cfg: Any = ffi.new("bd_eng_config *")  # a struct: its fields are attributes cffi's stubs cannot name
        cfg.small_blind, cfg.big_blind, cfg.ante = small_blind, big_blind, ante
        cfg.small_bet, cfg.big_bet = small_bet, big_bet
        cfg.cap = lib.BD_ENG_NO_CAP if cap is None else cap
        cfg.stacks[0:len(stacks)] = stacks
        cfg.game, cfg.seats, cfg.learner = game, len(stacks), 0
        cfg.heads_up_uncapped, cfg.burn, cfg.odd_low = int(heads_up_uncapped), int(burn), int(odd_low)
        cfg.ranks, cfg.suits, cfg.hand_size, cfg.draws = size
        self.seats = len(stacks)
        self.config = cfg
        self.state: Any = ffi.new("bd_eng_table *")
        self.table = _table(ace_high)
        if lib.bd_eng_init(self.state, cfg, seed) != lib.BD_ENG_OK:
            raise ConfigError(f"the C hand loop refuses these rules (chips above 2**40, or a value out of range): "
                             f"stacks {stacks}, blinds {small_blind}/{big_blind}, ante {ante}, "
                             f"bets {small_bet}/{big_bet}, cap {cap}, ranks/suits/hand size/draws {size}")
        self.bots: Any = ffi.new("bd_bots *")
        kinds = ffi.new("int32_t[]", [BOT_KINDS[b] for b in bots])
        if lib.bd_bots_init(self.bots, kinds, ffi.new("uint64_t[]", bot_seeds), self.seats) != 0:
            raise ConfigError(f"the C bots refuse seats {self.seats} or bots {bots}")
        self.sums: Any = ffi.new("bd_sim_sums *")
        self.records: Any = ffi.new("bd_sim_records *")

    def run(self, first: int, count: int, records: dict[str, NDArray] | None = None
            ) -> tuple[list[int], list[int], int]:
        """Play hands ``first .. first + count - 1`` (the button at hand % seats): returns each seat's net chips
        summed, their squares summed, and the showdowns, over these hands.  ``records``: arrays as
        :data:`SIM_RECORDS` describes, each of at least ``count`` rows (C-contiguous, the right dtype: the
        caller's), filled with the hands' records.  ``RuntimeError`` when the kernel stops: a sum beyond int64
        (the caller sizes ``count`` so that it cannot happen), or a state it refuses."""
        ffi.memmove(self.sums, bytes(ffi.sizeof("bd_sim_sums")), ffi.sizeof("bd_sim_sums"))
        rec = ffi.NULL
        if records is not None:
            import numpy as np

            # The kernel writes `count` rows into each array: each is checked to hold them, as the C
            # type it is passed as, so no call can write past a buffer.
            for name, (dtype, shape) in SIM_RECORDS.items():
                a = records.get(name)
                if not isinstance(a, np.ndarray) or a.dtype != np.dtype(dtype) or a.shape[1:] != shape \
                        or len(a) < count or not a.flags.c_contiguous or not a.flags.writeable:
                    raise ShapeError(f"records[{name!r}] must be a writable C-contiguous {dtype} array of "
                                     f"shape (>= {count},) + {shape}")
            r = self.records
            r.rows = count
            r.net = _addr("int64_t *", records["net"])
            r.cards = _addr("uint8_t *", records["cards"])
            r.folded = _addr("uint8_t *", records["folded"])
            r.button = _addr("uint8_t *", records["button"])
            r.showdown = _addr("uint8_t *", records["showdown"])
            r.pot = _addr("int64_t *", records["pot"])
            rec = r
        code = lib.bd_sim_run(self.state, self.table, self.bots, first, count, self.sums, rec)
        if code != lib.BD_ENG_OK:
            raise RuntimeError(f"the C hand loop stopped at a hand of {first}..{first + count - 1}: "
                               f"{_SIM_ERRORS.get(code, 'unknown')} (bd_sim_run code {code})")
        s = self.sums
        return list(s.totals)[:self.seats], list(s.squares)[:self.seats], int(s.showdowns)


def bot_keep(hand: tuple[int, ...], game: int, top: int = 8) -> int:
    """``bd_bot_keep``: the C rule-of-thumb keep set of ``hand`` (card ids) as a bit mask (bit j = hand[j]
    kept), or -1 for arguments the kernel refuses: the C bots' twin of draw/policy.py keep_cards, for the
    tests that hold one to the other.  ``game``: the preset's index in PRESETS."""
    return int(lib.bd_bot_keep(ffi.new("uint8_t[]", [c & 255 for c in hand]), len(hand), game, top))


# The exact solver's core (csrc/solve.c): C only, like the hand loop above (its Python twin is numpy code in
# badacey_fast.solve, a layer above this one).


def _array(arr: NDArray, dtype: str, what: str) -> NDArray:
    """``arr`` as a C-contiguous array of ``dtype`` (refused otherwise: the kernel reads it whole)."""
    import numpy as np

    if not isinstance(arr, np.ndarray) or arr.dtype != np.dtype(dtype) or not arr.flags.c_contiguous:
        raise TypeError(f"{what} must be a C-contiguous {dtype} numpy array")
    return arr


_SOLVER_ERRORS = {-1: "bad arguments", -2: "an inconsistent game description", -3: "out of memory",
                  -4: "too large for the exact path"}


def _solver_check(code: int, what: str) -> int:
    if code < 0:
        if code == -3:
            raise MemoryError(f"{what}: the solver could not allocate its scratch memory")
        raise SolveError(f"{what}: the C solver refused it ({_SOLVER_ERRORS.get(code, code)})")
    return code


class SolverCore:
    """The C core of the exact solver for one game description (``bd_sv_game``): the public tree and the
    layers as numpy arrays (see ``csrc/solve.h`` for each; ``arrays`` keys are its field names), kept
    alive by this object.  The description is checked once here (``ValueError`` if inconsistent) and again
    by every call (the kernel trusts nothing)."""

    _FIELDS = (("kind", "int32"), ("player", "int32"), ("child", "int32"), ("n_child", "int32"),
               ("layer", "int32"), ("offset", "int64"), ("payoff", "float64"), ("chance", "float64"),
               ("layer_start", "int64"), ("layer_parent", "int32"), ("layer_draw", "int32"),
               ("layer_seen", "int32"), ("hand", "uint64"), ("seen", "uint64"), ("rank", "uint16"),
               ("order", "uint32"))

    def __init__(self, arrays: dict[str, NDArray], n_cards: int, hand_size: int, n_halves: int,
                 strategy_size: int) -> None:
        game: Any = ffi.new("bd_sv_game *")
        self._keep = {}
        for name, dtype in self._FIELDS:
            arr = _array(arrays[name], dtype, name)
            self._keep[name] = arr
            setattr(game, name, _from_buffer(f"{_CTYPES[dtype]}[]", arr))
        # The C core derives every array's length from these counts: check the arrays have them, so that a
        # short array is refused here rather than read past by a call.
        n, nl = len(arrays["kind"]), len(arrays["layer_parent"])
        starts = self._keep["layer_start"]
        total = int(starts[-1]) if starts.size == nl + 1 and nl > 0 else -1
        want = {"kind": n, "player": n, "child": n, "n_child": n, "layer": 2 * n, "offset": n, "payoff": 8 * n,
                "chance": n, "layer_start": nl + 1, "layer_parent": nl, "layer_draw": nl, "layer_seen": nl,
                "hand": total, "seen": total, "rank": n_halves * total, "order": n_halves * total}
        for name, size in want.items():
            if total < 0 or self._keep[name].size != size:
                raise SolveError(f"the game description's {name} has {self._keep[name].size} entries, not {size}")
        game.n_cards, game.hand_size, game.n_halves = n_cards, hand_size, n_halves
        game.n_nodes, game.n_layers = len(arrays["kind"]), len(arrays["layer_parent"])
        game.strategy_size = strategy_size
        self.game = game
        self.strategy_size = strategy_size
        _solver_check(lib.bd_sv_check(game), "the game description")

    def _strategy(self, arr: NDArray, what: str) -> CData:
        _array(arr, "float64", what)
        if arr.size != self.strategy_size:
            raise SolveError(f"{what} has {arr.size} entries, the game {self.strategy_size}")
        return _from_buffer("double[]", arr)

    def best_response(self, strategy: NDArray, seat: int, best: NDArray | None) -> float:
        """The value (chips) of ``seat``'s best response to ``strategy``; its pure strategy into ``best``."""
        value = ffi.new("double *")
        out = ffi.NULL if best is None else self._strategy(best, "best")
        _solver_check(lib.bd_sv_best_response(self.game, self._strategy(strategy, "strategy"), seat, value, out),
                      "best response")
        return float(value[0])

    def profile_value(self, strategy: NDArray) -> float:
        """Seat 0's expected chips when both seats play ``strategy``."""
        value = ffi.new("double *")
        _solver_check(lib.bd_sv_profile_value(self.game, self._strategy(strategy, "strategy"), value), "value")
        return float(value[0])

    def cfr(self, regret: NDArray, average: NDArray, first: int, iterations: int, variant: int, alpha: float,
            beta: float, gamma: float) -> None:
        """``iterations`` CFR iterations from iteration ``first`` (1-based), updating ``regret``/``average``."""
        _solver_check(lib.bd_sv_cfr(self.game, self._strategy(regret, "regret"), self._strategy(average, "average"),
                                    first, iterations, variant, alpha, beta, gamma), "CFR")

    @staticmethod
    def deal_layer(n_cards: int, hand_size: int) -> tuple[NDArray, NDArray]:
        """Every hand of ``hand_size`` of ``n_cards`` deck positions in colex order: (hands, seen) bits."""
        import numpy as np
        from math import comb

        n = comb(n_cards, hand_size) if 0 <= hand_size <= n_cards else 0
        hand, seen = np.empty(n, np.uint64), np.empty(n, np.uint64)
        got = lib.bd_sv_deal_layer(n_cards, hand_size, _from_buffer("uint64_t[]", hand),
                                   _from_buffer("uint64_t[]", seen), n)
        _solver_check(got, "deal layer")
        return hand, seen

    @staticmethod
    def draw_layer(n_cards: int, hand_size: int, hand: NDArray, seen: NDArray, k: int) -> tuple[NDArray, NDArray]:
        """The layer after a draw of ``k`` cards from the states (``hand``, ``seen``)."""
        import numpy as np
        from math import comb

        _array(hand, "uint64", "hand")
        _array(seen, "uint64", "seen")
        if hand.size != seen.size:
            raise ShapeError("hand and seen differ in length")
        n_seen = bin(int(seen[0])).count("1") if seen.size else hand_size
        n = hand.size * comb(hand_size, k) * comb(max(0, n_cards - n_seen), k) if 0 <= k <= hand_size else 0
        out_h, out_s = np.empty(n, np.uint64), np.empty(n, np.uint64)
        got = lib.bd_sv_draw_layer(n_cards, hand_size, _from_buffer("uint64_t[]", hand),
                                   _from_buffer("uint64_t[]", seen), hand.size, k,
                                   _from_buffer("uint64_t[]", out_h), _from_buffer("uint64_t[]", out_s), n)
        _solver_check(got, "draw layer")
        return out_h[:got], out_s[:got]

    @staticmethod
    def canonical(cards: NDArray) -> NDArray:
        """Suit-canonical form of an information state's hands: ``cards`` uint8 (stages, size)."""
        import numpy as np

        _array(cards, "uint8", "cards")
        out = np.empty_like(cards)
        _solver_check(lib.bd_iso_canonical(_from_buffer("uint8_t[]", cards), cards.shape[1], cards.shape[0],
                                           _from_buffer("uint8_t[]", out)), "canonical")
        return out

    @staticmethod
    def hand_classes(size: int) -> tuple[NDArray, NDArray]:
        """(class of each hand by colex index, colex index of each class's canonical hand)."""
        import numpy as np
        from math import comb

        class_of = np.empty(comb(52, size), np.uint32)
        first = np.empty(comb(52, size), np.uint32)
        got = lib.bd_iso_hand_table(size, _from_buffer("uint32_t[]", class_of), class_of.size,
                                    _from_buffer("uint32_t[]", first), first.size)
        _solver_check(got, "hand classes")
        return class_of, first[:got].copy()


_CTYPES = {"int32": "int32_t", "int64": "int64_t", "uint64": "uint64_t", "uint16": "uint16_t", "uint32": "uint32_t",
           "float64": "double"}


# --------------------------------------------------------------------------------------------------
# Full-size play for measuring bots (csrc/lbr.c): bots' probabilities, MCCFR stores, local best response.
# C only (the Python twins are in badacey_fast.solve).


def _engine_config(game: int, stacks: list[int], small_blind: int, big_blind: int, ante: int, small_bet: int,
                   big_bet: int, cap: int | None, burn: bool, odd_low: bool, size: tuple[int, int, int, int]) -> Any:
    cfg: Any = ffi.new("bd_eng_config *")
    cfg.ranks, cfg.suits, cfg.hand_size, cfg.draws = size
    cfg.small_blind, cfg.big_blind, cfg.ante = small_blind, big_blind, ante
    cfg.small_bet, cfg.big_bet = small_bet, big_bet
    cfg.cap = lib.BD_ENG_NO_CAP if cap is None else cap
    cfg.stacks[0:len(stacks)] = stacks
    cfg.game, cfg.seats, cfg.learner = game, len(stacks), 0
    cfg.heads_up_uncapped, cfg.burn, cfg.odd_low = 0, int(burn), int(odd_low)
    return cfg


class MCStore:
    """A strategy table of csrc/lbr.c (``bd_mc_store``): ``capacity`` information states (a power of two)
    and ``pool`` floats of regrets and of averages, as numpy arrays this object owns."""

    def __init__(self, capacity: int, pool: int) -> None:
        import numpy as np

        if capacity < 1 or capacity & (capacity - 1) or pool < 1 or pool > 2 ** 32 - 1:
            raise SolveError(f"a store needs a power-of-two capacity and 1..2**32-1 floats, not {capacity}, {pool}")
        self.keys = np.zeros(capacity, np.uint64)
        self.offset = np.zeros(capacity, np.uint32)
        self.n_actions = np.zeros(capacity, np.uint8)
        self.regret = np.zeros(pool, np.float32)
        self.average = np.zeros(pool, np.float32)
        s: Any = ffi.new("bd_mc_store *")
        s.keys = _from_buffer("uint64_t[]", self.keys)
        s.offset = _from_buffer("uint32_t[]", self.offset)
        s.n_actions = _from_buffer("uint8_t[]", self.n_actions)
        s.regret = _from_buffer("float[]", self.regret)
        s.average = _from_buffer("float[]", self.average)
        s.capacity, s.pool, s.used, s.pool_used = capacity, pool, 0, 0
        self.struct = s

    @property
    def used(self) -> int:
        """Information states stored."""
        return int(self.struct.used)

    @property
    def pool_used(self) -> int:
        """Floats used in each of regret and average."""
        return int(self.struct.pool_used)

    def restore(self, used: int, pool_used: int) -> None:
        """Set the counters after the arrays were filled from a file (checked by every call)."""
        self.struct.used, self.struct.pool_used = used, pool_used

    def grown(self) -> "MCStore":
        """A store of twice the capacity and pool holding every information state of this one."""
        bigger = MCStore(2 * self.keys.size, min(2 * self.regret.size, 2 ** 32 - 1))
        _play_check(lib.bd_mc_rehash(self.struct, bigger.struct), "rehash")
        return bigger

    def lookup(self, key: int, n: int) -> tuple[int, list[float]]:
        """(actions stored, the average strategy's probabilities) of one information state."""
        out = ffi.new("double[]", max(n, 1))
        got = lib.bd_mc_lookup(self.struct, key, n, out)
        _play_check(got, "lookup")
        return int(got), [float(out[i]) for i in range(n)]


_PLAY_ERRORS = {-1: "bad arguments", -2: "the hand loop refused the config or an action", -3: "the store is full"}


def _play_check(code: int, what: str) -> int:
    if code < 0:
        raise SolveError(f"{what}: {_PLAY_ERRORS.get(code, code)}")
    return code


class Abstraction:
    """The card abstraction of csrc/lbr.c: hand classes by colex index, then optional buckets."""

    def __init__(self, class_of: NDArray, bucket_of: NDArray | None) -> None:
        self._keep = [_array(class_of, "uint32", "class_of")]
        a: Any = ffi.new("bd_abstraction *")
        a.class_of, a.n_class_of = _from_buffer("uint32_t[]", class_of), class_of.size
        if bucket_of is not None:
            self._keep.append(_array(bucket_of, "uint32", "bucket_of"))
            a.bucket_of, a.n_bucket_of = _from_buffer("uint32_t[]", bucket_of), bucket_of.size
        else:
            a.bucket_of, a.n_bucket_of = ffi.NULL, 0
        self.struct = a

    def bucket(self, hand: tuple[int, ...]) -> int:
        """The bucket of a hand (card ids)."""
        got = lib.bd_hand_bucket(self.struct, bytes(hand), len(hand))
        return _play_check(int(got), "bucket")


def _bot(kind: int, store: MCStore | None, abstraction: Abstraction | None) -> Any:
    b: Any = ffi.new("bd_bot *")
    b.kind = kind
    if store is not None and abstraction is not None:
        b.store = store.struct
        b.abstraction = abstraction.struct[0]
    return b


def bot_policy(kind: int, game: int, hand: tuple[int, ...], street: int, draws: int, code: int, seat: int,
               tokens: bytes, store: MCStore | None = None, abstraction: Abstraction | None = None) -> list[float]:
    """A bot's probabilities (``bd_bot_policy``): [fold, call, raise] betting, one per discard mask drawing."""
    n = len(hand)
    out = ffi.new("double[]", 32)
    b = _bot(kind, store, abstraction)
    _play_check(lib.bd_bot_policy(b, game, bytes(hand), n, street, draws, code, seat, tokens, len(tokens), out),
                "bot policy")
    return [float(out[i]) for i in range(1 << n if code >= 8 else 3)]


def keep_mask(game: int, hand: tuple[int, ...]) -> int:
    """The rule of thumb's keep set of a hand (bit j = hand[j] kept)."""
    return _play_check(int(lib.bd_keep_mask(game, bytes(hand), len(hand))), "keep mask")


def draw_mask(game: int, hand: tuple[int, ...], k: int) -> int:
    """The abstract draw of k cards: its discard mask."""
    return _play_check(int(lib.bd_draw_mask(game, bytes(hand), len(hand), k)), "draw mask")


def info_key(seat: int, bucket: int, tokens: bytes) -> int:
    """The 64-bit key of an information state."""
    return int(lib.bd_info_key(seat, bucket, tokens, len(tokens)))


def lbr_run(game: int, blinds: tuple[int, int], bets: tuple[int, int], cap: int, stack: int, odd_low: bool,
            ace_high: bool, kind: int, store: MCStore | None, abstraction: Abstraction | None, pairs: int,
            particles: int, seed: int, size: tuple[int, int, int, int]) -> dict[str, Any]:
    """``bd_lbr_run``: the LBR's results as a dict of the ``bd_lbr_result`` fields; ``size``: (ranks,
    suits, hand size, draws)."""
    cfg = _engine_config(game, [stack, stack], blinds[0], blinds[1], 0, bets[0], bets[1], cap, False, odd_low, size)
    out: Any = ffi.new("bd_lbr_result *")
    b = _bot(kind, store, abstraction)
    _play_check(lib.bd_lbr_run(cfg, _table(ace_high), b, pairs, particles, seed, out), "local best response")
    return {"hands": out.hands, "sum": list(out.sum), "sum_sq": list(out.sum_sq), "count": list(out.count),
            "pair_sum": out.pair_sum, "pair_sum_sq": out.pair_sum_sq, "pairs": out.pairs, "lost": out.lost,
            "decisions": out.decisions, "raises": out.raises, "folds": out.folds}


def mccfr_run(game: int, blinds: tuple[int, int], bets: tuple[int, int], cap: int, stack: int, odd_low: bool,
              ace_high: bool, store: MCStore, abstraction: Abstraction, first: int, iterations: int,
              seed: int, size: tuple[int, int, int, int]) -> int:
    """``bd_mc_run``: returns 0, or -3 when the store filled (grow it and go on)."""
    cfg = _engine_config(game, [stack, stack], blinds[0], blinds[1], 0, bets[0], bets[1], cap, False, odd_low, size)
    got = int(lib.bd_mc_run(cfg, _table(ace_high), store.struct, abstraction.struct, first, iterations, seed))
    if got == lib.BD_MC_FULL:
        return got
    return _play_check(got, "MCCFR")


class CompactCore:
    """The compact exact path of ``csrc/solve.c`` (``bd_cs_*``): one game's tables, built by the kernel
    from the public tree (``arrays``: ``kind``, ``player``, ``child``, ``n_child``, ``thrown`` (int32,
    2 x nodes), ``payoff`` (8 x nodes), ``chance``, ``n_classes`` (int32 per half), ``hand_class`` (uint16,
    halves x hands by colex index)) and freed with this object.  ``ValueError`` names a description the
    kernel refuses, ``MemoryError`` a build that does not fit."""

    _FIELDS = (("kind", "int32"), ("player", "int32"), ("child", "int32"), ("n_child", "int32"),
               ("thrown", "int32"), ("payoff", "float64"), ("chance", "float64"), ("n_classes", "int32"),
               ("hand_class", "uint16"))

    def __init__(self, arrays: dict[str, NDArray], n_ranks: int, n_suits: int, hand_size: int) -> None:
        import numpy as np
        from math import comb

        g: Any = ffi.new("bd_cs_game *")
        keep = {}
        n = len(arrays["kind"])
        halves = len(arrays["n_classes"])
        want = {"kind": n, "player": n, "child": n, "n_child": n, "thrown": 2 * n, "payoff": 8 * n, "chance": n,
                "n_classes": halves, "hand_class": halves * comb(n_ranks * n_suits, hand_size)}
        for name, dtype in self._FIELDS:
            arr = _array(arrays[name], dtype, name)
            if arr.size != want[name]:
                raise SolveError(f"the compact description's {name} has {arr.size} entries, not {want[name]}")
            keep[name] = arr
            setattr(g, name, _from_buffer(f"{_CTYPES[dtype]}[]", arr))
        g.n_ranks, g.n_suits, g.hand_size, g.n_halves, g.n_nodes = n_ranks, n_suits, hand_size, halves, n
        out = ffi.new("bd_cs **")
        _solver_check(lib.bd_cs_new(g, out), "the compact game")  # copies every array: keep may go
        self._ptr = ffi.gc(out[0], lib.bd_cs_free)
        self.n_nodes = n
        self.strategy_size = int(lib.bd_cs_strategy_size(self._ptr))
        offset = np.empty(n, np.int64)
        _solver_check(lib.bd_cs_offsets(self._ptr, _from_buffer("int64_t[]", offset), n), "offsets")
        self.offset = offset

    def space_size(self, thrown: int) -> int:
        """Canonical states of a seat that threw ``thrown`` cards (-1: none built)."""
        return int(lib.bd_cs_space_size(self._ptr, thrown))

    def state(self, thrown: int, index: int) -> tuple[int, int, float]:
        """(hand bits, dead bits, class size) of canonical state ``index`` of space ``thrown``."""
        h, d, o = ffi.new("uint64_t *"), ffi.new("uint64_t *"), ffi.new("double *")
        _solver_check(lib.bd_cs_state(self._ptr, thrown, index, h, d, o), "state")
        return int(h[0]), int(d[0]), float(o[0])

    def index(self, hand: int, dead: int) -> tuple[int, tuple[int, ...]]:
        """(canonical index in space popcount(dead), the renaming: suit j becomes suit perm[j])."""
        perm = ffi.new("int32_t[4]")
        got = int(lib.bd_cs_index(self._ptr, hand, dead, perm))
        if got < 0:
            raise InformationStateError(f"no compact state of hand {hand:#x}, dead {dead:#x}")
        return got, tuple(perm)

    def value(self, strategy: NDArray | None, seat: int, follow: bool) -> float:
        """``seat``'s chips per hand: best response (``follow`` False) to, or playing, ``strategy`` (None: uniform)."""
        value = ffi.new("double *")
        if strategy is None:
            ptr, size = ffi.NULL, 0
        else:
            _array(strategy, "float64", "strategy")
            if strategy.size != self.strategy_size:
                raise SolveError(f"strategy has {strategy.size} entries, the compact game {self.strategy_size}")
            ptr, size = _from_buffer("double[]", strategy), strategy.size
        _solver_check(lib.bd_cs_value(self._ptr, ptr, size, seat, int(follow), value), "compact value")
        return float(value[0])

    def cfr(self, regret: NDArray, average: NDArray, first: int, iterations: int, variant: int, alpha: float,
            beta: float, gamma: float) -> None:
        """``iterations`` CFR iterations over the compact layout from iteration ``first`` (1-based), updating
        ``regret``/``average`` (float64, ``strategy_size`` entries each) in place."""
        for name, arr in (("regret", regret), ("average", average)):
            _array(arr, "float64", name)
            if arr.size != self.strategy_size:
                raise SolveError(f"{name} has {arr.size} entries, the compact game {self.strategy_size}")
        _solver_check(lib.bd_cs_cfr(self._ptr, _from_buffer("double[]", regret), _from_buffer("double[]", average),
                                    regret.size, first, iterations, variant, alpha, beta, gamma), "compact CFR")
