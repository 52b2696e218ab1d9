"""Bulk evaluation over numpy arrays of card ids: every hand's low and badugi ranks, lower is better.

Rows are hands of card ids ``0..51`` (``card = 4 * rank + suit``); any integer dtype and any strides are
accepted (``uint8`` is used in place, with no copy, whatever its strides).  The active twin of
:mod:`badacey_fast.kernel` serves these (the C kernel, or the numpy twin of the reference).  Ranks are dense, **lower is better**: low 1..6175 (Badacey A-5) or 1..7462 (Badeucy 2-7),
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

import operator
from typing import TYPE_CHECKING, Any

import numpy as np

from badacey_fast import kernel
from badacey_fast.bulk.buffers import check_out
from badacey_fast.tables import arrays as _arrays
from badacey_fast.cards import format_card
from badacey_fast.errors import BadaceyError, DuplicateCardError, HandSizeError, InvalidCardError
from badacey_fast.rules.games import BADACEY, Scoring, scoring

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["evaluate_many", "badugi_rank_many", "all_hands", "evaluate_all"]


def _as_cards(cards: npt.ArrayLike, sizes: tuple[int, ...], check: bool) -> np.ndarray[Any, Any]:
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


def _row_error(arr: np.ndarray[Any, Any], row: int) -> InvalidCardError:
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


def _out16(out: Any, n: int, what: str) -> np.ndarray[Any, Any]:
    return np.empty(n, dtype=np.uint16) if out is None else check_out(out, np.uint16, (n,), what)


def _threads(threads: object, n: int) -> int:
    # Any integer, numpy's too (as pot= and button= take them: a count computed with numpy is one);
    # bool is an int to Python but never a count.
    if isinstance(threads, (bool, np.bool_)) or not hasattr(threads, "__index__"):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    count = operator.index(threads)
    if count < 1:
        raise BadaceyError(f"threads must be at least 1, got {count}")
    return max(1, min(count, n // 65536 or 1))  # tiny batches are not worth a thread


def evaluate_many(
    cards: npt.ArrayLike,
    game: Scoring | str = BADACEY,
    *,
    check: bool = True,
    out: tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]] | None = None,
    threads: int = 1,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Low and badugi ranks (two uint16 arrays of length N, lower is better) of an (N, 5) array of hands.

    ``cards``: any integer dtype, any strides (uint8 is read in place).  ``game``: ``"badacey"`` (A-5
    low 1..6175, ace-low badugi 1..1092) or ``"badeucy"`` (2-7 low 1..7462, ace-high badugi).
    ``check=False`` skips validation for callers who validated already (bad rows then give meaningless
    ranks, never a crash).  ``out=(low, badugi)``: preallocated writable aligned C-contiguous uint16 arrays of
    shape ``(N,)`` to fill and return; not a tuple of two ndarrays is a ``TypeError``, an array of another
    dtype, shape or layout (misaligned included), or read-only, a :class:`~badacey_fast.errors.BadaceyError` (as in
    :func:`badacey_fast.bulk.showdown.showdown_many`).
    ``threads``: an integer >= 1 (numpy integers too, not bool): split the batch across that many
    threads, this one included (the C kernel releases the GIL; the others are persistent helper
    threads; the threads claim small chunks of the batch as they go, so a core that is busy with
    something else simply does fewer of them).

    >>> import numpy as np
    >>> low, bad = evaluate_many(np.array([[3, 6, 9, 12, 19]], dtype=np.int64), game="badeucy")
    >>> int(low[0]), int(bad[0])
    (785, 1)
    >>> evaluate_many(np.array([[3, 6, 9, 12, 52]]))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: row 0: card id 52 is outside 0..51
    """
    ace_high = scoring(game).ace_high
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
    bad = kernel.eval_many(arr, ace_high, check, low, badugi, nthreads)
    if bad >= 0:
        raise _row_error(arr, bad)
    return low, badugi


def badugi_rank_many(
    cards: npt.ArrayLike,
    ace_high: bool = False,
    *,
    game: Scoring | str | None = None,
    check: bool = True,
    out: np.ndarray[Any, Any] | None = None,
    threads: int = 1,
) -> np.ndarray[Any, Any]:
    """Badugi ranks (uint16, 1..1092, lower is better) of an (N, k) array of hands, k = 1..5 cards.

    Four-card rows are Badugi hands; five-card rows are Badacey/Badeucy hands.  ``ace_high=False`` is
    the ace-low badugi (Badacey, Badugi), ``True`` Badeucy's; ``game``, when given, names the scale
    instead (any game, any spelling, as everywhere).  ``check``, ``out`` and ``threads`` as in
    :func:`evaluate_many`.

    >>> import numpy as np
    >>> badugi_rank_many(np.array([[3, 4, 9, 14], [7, 8, 13, 18]])).tolist()   # As 2c 3d 4h; 2s 3c 4d 5h
    [1, 5]
    >>> badugi_rank_many(np.array([[3, 4, 9, 14]]), ace_high="yes")
    Traceback (most recent call last):
    ...
    TypeError: ace_high must be a bool, not str
    """
    if game is not None:
        ace_high = scoring(game).ace_high
    elif not isinstance(ace_high, bool):
        raise TypeError(f"ace_high must be a bool, not {type(ace_high).__name__}")
    arr = _as_cards(cards, (1, 2, 3, 4, 5), check)
    n = arr.shape[0]
    result = _out16(out, n, "out")
    nthreads = _threads(threads, n)
    if n == 0:
        return result
    bad = kernel.badugi_rank_many(arr, ace_high, check, result, nthreads)
    if bad >= 0:
        raise _row_error(arr, bad)
    return result


def all_hands() -> np.ndarray[Any, Any]:
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
    return _arrays.all_hands()


def evaluate_all(game: Scoring | str = BADACEY) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Low and badugi ranks (uint16, lower is better) of every hand, in the colex order of :func:`all_hands`.

    >>> low, badugi = evaluate_all("badeucy")
    >>> int(low.max()), int(badugi.max())     # royal flush; T-J-Q-K-A suited plays only the 1-card T
    (7462, 1088)
    >>> evaluate_all("razz")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.UnknownGameError: unknown game 'razz': expected one of badacey, badeucy, badugi, a5, 27
    """
    entries = kernel.all_entries(scoring(game).ace_high)  # the C twin reads its table in place: no hashing
    halves = entries.astype("<u4", copy=False).view("<u2").reshape(-1, 2)  # (low, badugi) per entry
    return halves[:, 0].astype(np.uint16), halves[:, 1].astype(np.uint16)
