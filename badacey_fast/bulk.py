"""Bulk evaluation over numpy arrays of card ids: every hand's low and badugi ranks, lower is better.

Rows are hands of card ids ``0..51`` (``card = 4 * rank + suit``); any integer dtype and any strides are
accepted (``uint8`` is used in place, with no copy, whatever its strides).  The C kernel serves these
when it is the active backend (``badacey_fast.backend == "c"``), the numpy twin of the reference
otherwise.  Ranks are dense, **lower is better**: low 1..6175 (Badacey A-5) or 1..7462 (Badeucy 2-7),
badugi 1..1092.

>>> import numpy as np
>>> low, badugi = evaluate_many(np.array([[3, 6, 9, 12, 19], [0, 4, 8, 12, 16]]))
>>> low.tolist(), badugi.tolist()          # the wheel; then A-2-3-4-5 all clubs: a 1-card ace badugi
([1, 1], [1, 1080])
>>> evaluate_many(np.array([[3, 6, 9, 12, 12]]))
Traceback (most recent call last):
...
badacey_fast.errors.DuplicateCardError: row 0: card '4c' is given twice
"""

from __future__ import annotations

import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from . import _backend, _tablegen, tables
from .cards import format_card
from .errors import DuplicateCardError, HandSizeError, InvalidCardError
from .games import BADACEY, normalize_game

__all__ = ["evaluate_many", "badugi_rank_many", "all_hands", "evaluate_all"]


def _as_cards(cards: Any, sizes: tuple[int, ...], check: bool) -> np.ndarray:
    """A 2-D integer array of card ids, uint8 (a view when possible), range-checked if ``check``."""
    arr = cards if isinstance(cards, np.ndarray) else np.asarray(cards)
    if arr.dtype.kind not in "iu":  # bool is kind "b": not card ids
        raise TypeError(f"cards must be an integer array of card ids, not dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] not in sizes:
        want = f"(N, {sizes[0]})" if len(sizes) == 1 else f"(N, k) with k in {sizes[0]}..{sizes[-1]}"
        raise HandSizeError(f"expected an array of shape {want}, got shape {arr.shape}")
    if arr.dtype == np.uint8:
        return arr
    if check and arr.size:
        bad = (arr < 0) | (arr > 51)
        if bad.any():  # report here: casting to uint8 would wrap 256 to a valid card
            row = int(np.flatnonzero(bad.any(axis=1))[0])
            value = int(arr[row][bad[row]][0])
            raise InvalidCardError(f"row {row}: card id {value} is outside 0..51")
    return arr.astype(np.uint8)  # unchecked ids outside 0..255 wrap: garbage in, garbage out


def _row_error(arr: np.ndarray, row: int) -> InvalidCardError:
    """The error naming the first bad value of a row the kernel (or the numpy check) rejected."""
    values = [int(v) for v in arr[row]]
    for v in values:
        if not 0 <= v <= 51:
            return InvalidCardError(f"row {row}: card id {v} is outside 0..51")
    seen = set()
    for v in values:
        if v in seen:
            return DuplicateCardError(f"row {row}: card {format_card(v)!r} is given twice")
        seen.add(v)
    return InvalidCardError(f"row {row}: rejected")  # pragma: no cover - the kernel agrees with the above


def _first_bad_row(arr: np.ndarray) -> int:
    """Index of the first row with an id outside 0..51 or a repeated id, or -1 (numpy twin).

    Unchecked garbage is clamped to 51 by the callers, so the twin, like the kernel, never indexes
    outside its class maps (meaningless ranks, no crash)."""
    s = np.sort(arr.astype(np.int16), axis=1)
    bad = (s[:, 0] < 0) | (s[:, -1] > 51) | (np.diff(s, axis=1) == 0).any(axis=1)
    rows = np.flatnonzero(bad)
    return int(rows[0]) if rows.size else -1


def _out16(out: Any, n: int, what: str) -> np.ndarray:
    if out is None:
        return np.empty(n, dtype=np.uint16)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{what} must be a numpy array, not {type(out).__name__}")
    if out.dtype != np.uint16 or out.shape != (n,) or not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(
            f"{what} must be a writable C-contiguous uint16 array of shape ({n},), "
            f"got {out.dtype} {out.shape}"
        )
    return out


def _threads(threads: Any, n: int) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    return max(1, min(threads, n // 65536 or 1))  # tiny batches are not worth a thread


_POOL: ThreadPoolExecutor | None = None
_POOL_SIZE = 0
_POOL_LOCK = threading.Lock()


def _pool(workers: int) -> ThreadPoolExecutor:
    """A process-wide pool with at least ``workers`` threads, reused across calls (starting threads per
    call costs ~0.1 ms each, a tenth of a million-hand batch)."""
    global _POOL, _POOL_SIZE
    with _POOL_LOCK:
        if _POOL is None or _POOL_SIZE < workers:  # an old, smaller pool just idles
            _POOL_SIZE = max(workers, os.cpu_count() or 1)
            _POOL = ThreadPoolExecutor(max_workers=_POOL_SIZE, thread_name_prefix="badacey_fast")
        return _POOL


def _run_split(call: Any, n: int, threads: int) -> int:
    """Run ``call(start, stop)`` over chunks of ``range(n)`` on ``threads`` threads (this one included).

    The cffi calls release the GIL, so the C loops run on separate cores.  The batch is cut into about
    eight chunks per thread, taken from a shared counter, so a slower core simply takes fewer chunks.
    Returns the smallest bad row any chunk reported, or -1.
    """
    size = max(16384, -(-n // (threads * 8)))
    starts = range(0, n, size)
    counter = itertools.count()  # next() on it is atomic under the GIL

    def work() -> int:
        first = -1
        while True:
            k = next(counter)
            if k >= len(starts):
                return first
            got = call(starts[k], min(starts[k] + size, n))
            if got >= 0 and (first < 0 or got < first):
                first = got

    futures = [_pool(threads - 1).submit(work) for _ in range(threads - 1)]
    found = [work()] + [f.result() for f in futures]
    bad = [r for r in found if r >= 0]
    return min(bad) if bad else -1


def evaluate_many(
    cards: Any,
    game: str = BADACEY,
    *,
    check: bool = True,
    out: tuple[np.ndarray, np.ndarray] | None = None,
    threads: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Low and badugi ranks (two uint16 arrays of length N, lower is better) of an (N, 5) array of hands.

    ``cards``: any integer dtype, any strides (uint8 is read in place).  ``game``: ``"badacey"`` (A-5
    low 1..6175, ace-low badugi 1..1092) or ``"badeucy"`` (2-7 low 1..7462, ace-high badugi).
    ``check=False`` skips validation for callers who validated already (bad rows then give meaningless
    ranks, never a crash).  ``out=(low, badugi)``: preallocated uint16 arrays to fill and return.
    ``threads``: split the batch across that many threads (the C kernel releases the GIL).

    >>> import numpy as np
    >>> low, bad = evaluate_many(np.array([[3, 6, 9, 12, 19]], dtype=np.int64), game="badeucy")
    >>> int(low[0]), int(bad[0])
    (785, 1)
    >>> evaluate_many(np.array([[3, 6, 9, 12, 52]]))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: row 0: card id 52 is outside 0..51
    """
    ace_high = normalize_game(game) != BADACEY
    arr = _as_cards(cards, (5,), check)
    n = arr.shape[0]
    if out is None:
        low, badugi = np.empty(n, dtype=np.uint16), np.empty(n, dtype=np.uint16)
    else:
        if not isinstance(out, tuple) or len(out) != 2:
            raise TypeError("out must be a tuple (low, badugi) of uint16 arrays")
        low, badugi = _out16(out[0], n, "out[0]"), _out16(out[1], n, "out[1]")
    nthreads = _threads(threads, n)
    if n == 0:
        return low, badugi
    if _backend.name != "c":
        bad = _first_bad_row(arr) if check else -1
        if bad >= 0:
            raise _row_error(arr, bad)
        entries = _tablegen.entries5(arr if check else np.minimum(arr, 51), ace_high)
        low[:] = entries & 0xFFFF
        badugi[:] = entries >> 16
        return low, badugi
    kernel = _backend.kernel()
    ffi, lib, table = kernel.ffi, kernel.lib, kernel.table(ace_high)
    rs, cs = arr.strides
    base = arr.__array_interface__["data"][0]
    low_p = ffi.cast("uint16_t *", low.__array_interface__["data"][0])
    bad_p = ffi.cast("uint16_t *", badugi.__array_interface__["data"][0])
    flag = 1 if check else 0

    def call(start: int, stop: int) -> int:
        got = lib.bd_eval_many(table, ffi.cast("const uint8_t *", base + start * rs), stop - start, rs, cs,
                               low_p + start, bad_p + start, flag)
        return got + start if got >= 0 else -1

    bad = call(0, n) if nthreads == 1 else _run_split(call, n, nthreads)
    if bad >= 0:
        raise _row_error(arr, bad)
    return low, badugi


def badugi_rank_many(
    cards: Any,
    ace_high: bool = False,
    *,
    check: bool = True,
    out: np.ndarray | None = None,
    threads: int = 1,
) -> np.ndarray:
    """Badugi ranks (uint16, 1..1092, lower is better) of an (N, k) array of hands, k = 1..5 cards.

    Four-card rows are Badugi hands; five-card rows are Badacey/Badeucy hands.  ``ace_high=False`` is
    the ace-low badugi (Badacey, Badugi), ``True`` Badeucy's.  ``check``, ``out`` and ``threads`` as in
    :func:`evaluate_many`.

    >>> import numpy as np
    >>> badugi_rank_many(np.array([[3, 4, 9, 14], [7, 8, 13, 18]])).tolist()   # As 2c 3d 4h; 2s 3c 4d 5h
    [1, 5]
    >>> badugi_rank_many(np.array([[3, 4, 9, 14]]), ace_high="yes")
    Traceback (most recent call last):
    ...
    TypeError: ace_high must be a bool, not str
    """
    if not isinstance(ace_high, bool):
        raise TypeError(f"ace_high must be a bool, not {type(ace_high).__name__}")
    arr = _as_cards(cards, (1, 2, 3, 4, 5), check)
    n, k = arr.shape
    result = _out16(out, n, "out")
    nthreads = _threads(threads, n)
    if n == 0:
        return result
    if _backend.name != "c":
        bad = _first_bad_row(arr) if check else -1
        if bad >= 0:
            raise _row_error(arr, bad)
        result[:] = _tablegen.badugi_ranks(arr if check else np.minimum(arr, 51), ace_high)
        return result
    kernel = _backend.kernel()
    ffi, lib, table = kernel.ffi, kernel.lib, kernel.table(ace_high)
    rs, cs = arr.strides
    base = arr.__array_interface__["data"][0]
    out_p = ffi.cast("uint16_t *", result.__array_interface__["data"][0])
    flag = 1 if check else 0

    table4 = kernel.badugi4(ace_high) if k == 4 else None  # four cards: one load per row

    def call(start: int, stop: int) -> int:
        rows = ffi.cast("const uint8_t *", base + start * rs)
        if table4 is not None:
            got = lib.bd_badugi4_many(table4, rows, stop - start, rs, cs, out_p + start, flag)
        else:
            got = lib.bd_badugi_many(table, rows, stop - start, k, rs, cs, out_p + start, flag)
        return got + start if got >= 0 else -1

    bad = call(0, n) if nthreads == 1 else _run_split(call, n, nthreads)
    if bad >= 0:
        raise _row_error(arr, bad)
    return result


def all_hands() -> np.ndarray:
    """Every five-card hand, a (2598960, 5) uint8 array in colex order: row ``i`` is the hand whose
    perfect-hash index is ``i``; each row ascending.  Rows of 0..51 card ids.

    >>> hands = all_hands()
    >>> hands.shape, hands[0].tolist(), hands[-1].tolist()
    ((2598960, 5), [0, 1, 2, 3, 4], [47, 48, 49, 50, 51])
    >>> hands[2598960]
    Traceback (most recent call last):
    ...
    IndexError: index 2598960 is out of bounds for axis 0 with size 2598960
    """
    return _tablegen.all_hands()


def evaluate_all(game: str = BADACEY) -> tuple[np.ndarray, np.ndarray]:
    """Low and badugi ranks (uint16, lower is better) of every hand, in the colex order of :func:`all_hands`.

    >>> low, badugi = evaluate_all("badeucy")
    >>> int(low.max()), int(badugi.max())     # royal flush; T-J-Q-K-A suited plays only the 1-card T
    (7462, 1088)
    >>> evaluate_all("razz")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.UnknownGameError: unknown game 'razz': expected 'badacey' or 'badeucy' (or Badacy, Badaci, Badeucey, Baduci)
    """
    ace_high = normalize_game(game) != BADACEY
    if _backend.name != "c":
        entries = _tablegen.entries5(_tablegen.all_hands(), ace_high)
    else:
        kernel = _backend.kernel()
        # The table IS the evaluation of every hand in colex order: read it in place, no hashing.
        entries = np.frombuffer(kernel.ffi.buffer(kernel.table(ace_high)), dtype="<u4", count=tables.HANDS5)
    halves = entries.astype("<u4", copy=False).view("<u2").reshape(-1, 2)  # (low, badugi) per entry
    return halves[:, 0].astype(np.uint16), halves[:, 1].astype(np.uint16)
