"""The class maps of :mod:`badacey_fast.tables.generate` over numpy arrays: the Python twin's bulk
evaluation (imported on its first batch call, never by the build, which has no numpy).

The ranks are :func:`~badacey_fast.tables.generate.low_lut` and
:func:`~badacey_fast.tables.generate.badugi_lut` (from the reference's value classes) read as numpy
arrays; a row's badugi rank is the minimum over its 30 subsets of 1 to 4 cards of distinct ranks and
suits, as in the tables.

>>> hands = np.array([[3, 6, 9, 12, 19]], dtype=np.uint8)     # As 2h 3d 4c 5s
>>> [int(x) for x in entries5(hands, ace_high=False) & 0xFFFF]   # the wheel is the best A-5 low
[1]
>>> entries5(np.zeros((1, 4), np.uint8), ace_high=False)
Traceback (most recent call last):
...
badacey_fast.errors.HandSizeError: expected an (N, 5) array of card ids, got shape (1, 4)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any

import numpy as np

from badacey_fast.errors import HandSizeError
from badacey_fast.tables import generate

__all__ = ["all_hands", "badugi_ranks", "entries5"]

# Population count of every 17-bit mask (13 rank bits, then 4 suit bits): a subset is a badugi iff its
# rank and suit masks each have as many bits as it has cards.
_POPCOUNT17 = sum((((np.arange(1 << 17) >> bit) & 1).astype(np.uint8) for bit in range(17)),
                  np.zeros(1 << 17, dtype=np.uint8))


def all_hands() -> np.ndarray[Any, Any]:
    """Every five-card hand as a (2598960, 5) ``uint8`` array in colex order (row ``i`` has hash ``i``).

    Each row is sorted ascending.  Colex order: the combinations of ``k`` cards below ``m`` come first,
    so level ``k`` is built from prefixes of level ``k - 1`` with ``m`` appended.

    >>> all_hands()[[0, -1]].tolist()
    [[0, 1, 2, 3, 4], [47, 48, 49, 50, 51]]
    """
    level: np.ndarray[Any, Any] = np.arange(52, dtype=np.uint8)[:, None]
    for k in range(2, 6):
        parts = []
        for m in range(k - 1, 52):
            prefix = level[: comb(m, k - 1)]
            parts.append(np.hstack([prefix, np.full((len(prefix), 1), m, dtype=np.uint8)]))
        level = np.vstack(parts)
    return level


@lru_cache(maxsize=None)
def _low_lut(ace_high: bool) -> np.ndarray[Any, Any]:
    return np.frombuffer(generate.low_lut(bool(ace_high)), dtype=np.uint16)


@lru_cache(maxsize=None)
def _badugi_lut(ace_high: bool) -> np.ndarray[Any, Any]:
    return np.frombuffer(generate.badugi_lut(bool(ace_high)), dtype=np.uint16)


def badugi_ranks(cards: np.ndarray[Any, Any], ace_high: bool) -> np.ndarray[Any, Any]:
    """Badugi rank (1..1092, lower is better) of each row of an (N, k) array of card ids, k in 1..5.

    A subset of ``size`` cards is a badugi iff its 13-bit rank mask and 4-bit suit mask both have
    ``size`` bits; one popcount lookup on the joined 17-bit mask tests both (``2 * size`` bits).

    >>> badugi_ranks(np.array([[0, 5, 10, 15]]), ace_high=False).tolist()   # Ac 2d 3h 4s
    [1]
    """
    c = np.asarray(cards).astype(np.int32)
    n, k = c.shape
    bits = [(np.left_shift(1, c[:, j] >> 2) | np.left_shift(1 << 13, c[:, j] & 3)).astype(np.uint32)
            for j in range(k)]
    lut = _badugi_lut(ace_high)
    best = np.full(n, 0xFFFF, dtype=np.uint16)
    for size in range(1, min(4, k) + 1):
        for subset in combinations(range(k), size):
            joined = bits[subset[0]].copy()
            for j in subset[1:]:
                joined |= bits[j]
            ok = _POPCOUNT17[joined] == 2 * size
            np.minimum(best, np.where(ok, lut[(joined & 0x1FFF).astype(np.intp)], 0xFFFF), out=best)
    return best


def entries5(cards: np.ndarray[Any, Any], ace_high: bool) -> np.ndarray[Any, Any]:
    """Packed entries ``low_rank | badugi_rank << 16`` (uint32) of each row of an (N, 5) array of card ids.

    Rows must hold five distinct ids in 0..51 (not checked here); they need not be sorted.
    """
    c = np.asarray(cards)
    if c.ndim != 2 or c.shape[1] != 5:
        raise HandSizeError(f"expected an (N, 5) array of card ids, got shape {c.shape}")
    c = np.sort(c.astype(np.int32), axis=1)
    columns: list[np.ndarray[Any, Any]] = list(c.T >> 2)
    code = generate.low_code(columns)  # the rank columns, each row sorted
    if ace_high:
        suits = c & 3
        code += generate.BASE * (suits == suits[:, :1]).all(axis=1)
    low: np.ndarray[Any, Any] = _low_lut(ace_high)[code].astype(np.uint32)
    entries: np.ndarray[Any, Any] = low | (badugi_ranks(c, ace_high).astype(np.uint32) << 16)
    return entries
