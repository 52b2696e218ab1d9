"""Large output arrays of the bulk calls, 2 MiB-aligned and handed out again once dropped.

A 1 M-row, 6-seat payout array is 48 MB: more than glibc's largest reusable heap block (32 MB), so
every new one is memory the OS maps, faults in and zeroes, call after call, while smaller outputs (the
six hands' ranks, 24 MB) come back from the heap already mapped.  Two things close that gap:

- **Alignment.** numpy asks for transparent huge pages for large arrays, but glibc maps them 4 KiB + 16
  bytes past a 2 MiB boundary, so their partial first and last 2 MiB take ~450 small page faults on top
  of the ~23 huge ones.  An array here starts on a 2 MiB boundary inside a 2 MiB larger byte buffer (the
  slack is never touched: address space, not memory); a 1 M-row result then takes 24 faults.
- **Recycling.** Up to :data:`KEEP` buffers of at most :data:`MAX_BYTES` each stay with this module after
  use.  One is handed out again only when nothing else refers to it: the array made from it, and every
  view of that array, hold a reference to the buffer (numpy's ``base``), so while any of them lives its
  reference count says so.  The loop ``for batch in ...: out = showdown_many(batch)`` then alternates
  between two buffers (the previous result is still bound while the next is made) and never faults.
  This is what the heap does for blocks under 32 MB, and what pyarrow's and CuPy's memory pools do:
  memory once used is kept, up to ``KEEP * MAX_BYTES`` (256 MiB); :func:`release_buffers` gives it back.

Measured on this project's 2-core AVX-512 VM, against ``KEEP = 0`` (aligned, never recycled): a 1 M-row,
6-seat ``showdown_many`` with chips, each result dropped at the next call, 24.0-25.3 ns a row against
29.4-30.5 (``taskset -c 1``, 20 alternated rounds of 5 calls, medians of two runs); in ``python bench/side_by_side.py
--group showdown-vs-hands-new`` (avx512, three alternated runs) chips 1.46-1.68x the evaluation of the
six hands into new arrays, against 1.27-1.99x (that ratio moves with the evaluation's own noise).

Only CPython's reference counts tell a dropped buffer from a held one; elsewhere nothing is recycled.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import numpy as np

from badacey_fast.errors import BadaceyError

__all__ = ["KEEP", "MAX_BYTES", "MIN_BYTES", "fresh", "release_buffers", "check_out"]

#: Buffers kept for reuse (two: a loop's previous result is still bound while the next is made).
KEEP = 2
#: The largest buffer kept, in bytes (a 2.5 M-row, 6-seat int64 result fits); larger ones are freed as usual.
MAX_BYTES = 128 << 20
#: Arrays smaller than this (bytes) are plain ``np.empty``: the heap reuses them, and numpy asks for huge
#: pages only from 4 MiB.
MIN_BYTES = 4 << 20

_HUGE_PAGE = 1 << 21  # bytes: an x86-64 / aarch64 (4 KiB granule) transparent huge page
_COUNTS_REFS = hasattr(sys, "getrefcount")
_lock = threading.Lock()
_kept: list[np.ndarray[Any, Any]] = []  # uint8 buffers, oldest first


def _references(kept: list[np.ndarray[Any, Any]], k: int) -> int:
    return sys.getrefcount(kept[k])


def _calibrate() -> int:
    """What _references counts for a buffer only a list holds, measured the same way rather than assumed (2
    on CPython 3.10-3.13: the list's and the argument's; an interpreter that borrows the argument counts 1);
    -1, and no recycling, unless a view of the buffer shows as exactly one more."""
    if not _COUNTS_REFS:
        return -1
    probe = [np.empty(1, np.uint8)]
    alone = _references(probe, 0)
    view = probe[0][:]
    held = _references(probe, 0)
    del view
    return alone if held == alone + 1 and _references(probe, 0) == alone else -1


_ALONE = _calibrate()


def _unused(k: int) -> bool:
    # An array made from the buffer, and any view of it, adds its base reference.
    return _references(_kept, k) == _ALONE


def fresh(shape: tuple[int, int], dtype: type[np.generic]) -> np.ndarray[Any, Any]:
    """A new, uninitialised, C-contiguous array of ``shape`` and 8-byte ``dtype``; from :data:`MIN_BYTES`
    on it starts on a 2 MiB boundary and may reuse a dropped buffer of an earlier call (module docstring).

    >>> a = fresh((1_000_000, 6), np.int64)
    >>> a.shape, a.dtype == np.int64, a.flags.c_contiguous, a.ctypes.data % (1 << 21)
    ((1000000, 6), True, True, 0)
    >>> b = fresh((1_000_000, 6), np.int64)      # a is still held: another buffer
    >>> b.ctypes.data != a.ctypes.data
    True
    >>> at = a.ctypes.data; del a                # a dropped: its buffer is handed out again
    >>> fresh((1_000_000, 6), np.float64).ctypes.data == at or _ALONE < 0
    True
    >>> fresh((3, 2), np.float64).shape
    (3, 2)
    """
    size = shape[0] * shape[1] * 8
    if size < MIN_BYTES:
        return np.empty(shape, dtype=dtype)
    need = size + _HUGE_PAGE
    kept = _ALONE > 0 and need <= MAX_BYTES  # a buffer of this size is recycled
    raw = _take(need) if kept else None
    if raw is None:
        # Allocated outside the lock: a large allocation (an mmap) must not hold up the other threads'
        # takes.  Held by this frame from here on, so no other thread sees it unused before its array does.
        raw = _allocate(need)
        if kept:
            with _lock:
                _kept.append(raw)
                if len(_kept) > KEEP:
                    del _kept[0]  # the oldest goes back to the OS once its array is dropped
    start = -raw.ctypes.data % _HUGE_PAGE
    return raw[start:start + size].view(dtype).reshape(shape)


def _take(need: int) -> np.ndarray[Any, Any] | None:
    """The smallest kept buffer of at least ``need`` bytes that nothing refers to, or None; when none fits,
    a free one too small for this call is given back (rather than keep three once the caller adds one)."""
    with _lock:  # two threads must not both take one buffer: the check and the reference are one step
        free = [k for k in range(len(_kept)) if _unused(k)]
        fits = [k for k in free if _kept[k].nbytes >= need]
        if fits:
            # Returned while the lock is held: the caller's reference makes it used before any other check.
            return _kept[min(fits, key=lambda k: _kept[k].nbytes)]
        if free:
            del _kept[free[0]]
        return None


def _allocate(need: int) -> np.ndarray[Any, Any]:
    """A new uint8 buffer of ``need`` bytes (the tests replace it to watch the lock)."""
    return np.empty(need, dtype=np.uint8)


def release_buffers() -> int:
    """Give back the buffers kept for reuse (module docstring); returns their bytes (held ones included:
    they are freed when their arrays are).

    >>> _ = fresh((1_000_000, 6), np.int64)
    >>> release_buffers() >= 48_000_000 or _ALONE < 0
    True
    >>> release_buffers()
    0
    """
    with _lock:
        total = sum(b.nbytes for b in _kept)
        _kept.clear()
    return total


def check_out(out: Any, dtype: Any, shape: tuple[int, ...], what: str) -> np.ndarray[Any, Any]:
    """``out`` if it is an array the caller may fill in place, else the error of every ``out=``.

    One rule wherever ``out=`` exists: not an ndarray at all is a ``TypeError``; an ndarray of the wrong
    dtype, shape or layout (not C-contiguous, or not aligned to its dtype: a view of a byte buffer at an
    odd offset, which C may not store into), or read-only, is a :class:`BadaceyError` (a ``ValueError``):
    the argument is the right kind of thing, only not one this result can be written into.

    >>> check_out(np.zeros(3, np.uint16), np.uint16, (3,), "out").shape
    (3,)
    >>> check_out(np.zeros(3, np.uint16)[::2], np.uint16, (2,), "out")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: out must be a writable C-contiguous uint16 array of shape (2,), got dtype uint16, shape (2,), not C-contiguous
    """
    want = f"a writable C-contiguous {np.dtype(dtype)} array of shape {shape}"
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{what} must be {want}, not {type(out).__name__}")
    flags = out.flags
    if out.dtype != dtype or out.shape != shape or not flags.c_contiguous or not flags.writeable or not flags.aligned:
        got = [f"dtype {out.dtype}", f"shape {out.shape}"]
        got += ["read-only"] * (not flags.writeable) + ["not C-contiguous"] * (not flags.c_contiguous)
        got += ["not aligned"] * (not flags.aligned)
        raise BadaceyError(f"{what} must be {want}, got {', '.join(got)}")
    return out
