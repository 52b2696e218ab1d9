"""Vectorised table generation from the reference rules (numpy; imported only when building or in bulk).

Nothing here is a hand-typed value: every rank comes from the reference's value classes
(:func:`~badacey_fast.rules.reference.low_class_hands`, :func:`~badacey_fast.rules.reference.badugi_class_hands`),
whose index ``i`` is rank ``i + 1`` (dense, lower is better).  The class maps turn a hand into a rank
with a few array operations, so all 2,598,960 hands take about a second per game instead of 2.6 M
Python-level evaluations:

- A-5 low depends only on the multiset of ranks: code = sorted ranks in base 13 (13**5 codes);
- 2-7 low adds one bit, "all five cards one suit" (straights are a function of the ranks);
- badugi: the best subset of the cards with distinct ranks and suits; its value depends only on the set
  of ranks that play, so a 13-bit rank mask indexes the rank, and the hand's rank is the minimum over
  its 30 subsets of 1 to 4 cards.

These functions also serve the Python twin's bulk evaluation.

>>> import numpy as np
>>> hands = np.array([[3, 6, 9, 12, 19]], dtype=np.uint8)     # As 2h 3d 4c 5s
>>> [int(x) for x in entries5(hands, ace_high=False) & 0xFFFF]   # the wheel is the best A-5 low
[1]
>>> entries5(np.zeros((1, 4), np.uint8), ace_high=False)
Traceback (most recent call last):
...
ValueError: expected an (N, 5) array of card ids, got shape (1, 4)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from badacey_fast.rules import reference
from badacey_fast.tables import format as tables
from badacey_fast.rules.games import GAMES

__all__ = ["all_hands", "colex_index", "low_lut", "badugi_lut", "badugi_ranks", "entries5", "table_payloads",
           "build_tables"]

_BASE = 13**5  # number of base-13 codes of five sorted ranks
# Population count of every 17-bit mask (13 rank bits, then 4 suit bits): a subset is a badugi iff its
# rank and suit masks each have as many bits as it has cards.
_POPCOUNT17 = sum((((np.arange(1 << 17) >> bit) & 1).astype(np.uint8) for bit in range(17)),
                  np.zeros(1 << 17, dtype=np.uint8))


def all_hands() -> np.ndarray[Any, Any]:
    """Every five-card hand as a (2598960, 5) ``uint8`` array in colex order (row ``i`` has hash ``i``).

    Each row is sorted ascending.  Colex order: the combinations of ``k`` cards below ``m`` come first,
    so level ``k`` is built from prefixes of level ``k - 1`` with ``m`` appended.
    """
    level = np.arange(52, dtype=np.uint8)[:, None]
    for k in range(2, 6):
        parts = []
        for m in range(k - 1, 52):
            prefix = level[: comb(m, k - 1)]
            parts.append(np.hstack([prefix, np.full((len(prefix), 1), m, dtype=np.uint8)]))
        level = np.vstack(parts)
    return level


def colex_index(cards: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The perfect hash of each row of an (N, 5) array of distinct card ids: colex rank, 0..2598959."""
    c = np.sort(np.asarray(cards, dtype=np.int64), axis=1)
    binom = np.array([[comb(n, k) for k in range(6)] for n in range(52)], dtype=np.int64)
    index: np.ndarray[Any, Any] = sum(binom[c[:, i], i + 1] for i in range(5))
    return index


@lru_cache(maxsize=None)
def low_lut(ace_high: bool) -> np.ndarray[Any, Any]:
    """Low rank by code ``sum(sorted_ranks[i] * 13**i) + flush * 13**5``; 0 = no such hand."""
    lut = np.zeros(2 * _BASE, dtype=np.uint16)
    for i, hand in enumerate(reference.low_class_hands(GAMES[ace_high])):
        code = sum(r * 13**k for k, r in enumerate(sorted(c >> 2 for c in hand)))
        flush = ace_high and len({c & 3 for c in hand}) == 1  # only 2-7 low cares about flushes
        lut[code + _BASE * flush] = i + 1
    if not ace_high:
        lut[_BASE:] = lut[:_BASE]
    return lut


@lru_cache(maxsize=None)
def badugi_lut(ace_high: bool) -> np.ndarray[Any, Any]:
    """Badugi rank by 13-bit mask of the ranks that play (1 to 4 bits); 0 for other masks."""
    lut = np.zeros(tables.BADUGI_MASKS, dtype=np.uint16)
    for i, hand in enumerate(reference.badugi_class_hands(ace_high)):
        lut[sum(1 << (c >> 2) for c in hand)] = i + 1  # a class hand is its own best badugi
    return lut


def _badugi_min(cards: np.ndarray[Any, Any], games: tuple[bool, ...]) -> list[np.ndarray[Any, Any]]:
    """Best (minimum) badugi rank of each row for each ace treatment in ``games``, sharing the subset work.

    A subset of ``size`` cards is a badugi iff its 13-bit rank mask and 4-bit suit mask both have
    ``size`` bits; one popcount lookup on the joined 17-bit mask tests both (``2 * size`` bits).
    """
    c = np.asarray(cards).astype(np.int32)
    n, k = c.shape
    bits = [(np.left_shift(1, c[:, j] >> 2) | np.left_shift(1 << 13, c[:, j] & 3)).astype(np.uint32)
            for j in range(k)]
    luts = [badugi_lut(ace_high) for ace_high in games]
    best = [np.full(n, 0xFFFF, dtype=np.uint16) for _ in games]
    for size in range(1, min(4, k) + 1):
        for subset in combinations(range(k), size):
            joined = bits[subset[0]].copy()
            for j in subset[1:]:
                joined |= bits[j]
            ok = _POPCOUNT17[joined] == 2 * size
            ranks = (joined & 0x1FFF).astype(np.intp)
            for lut, b in zip(luts, best):
                np.minimum(b, np.where(ok, lut[ranks], 0xFFFF), out=b)
    return best


def badugi_ranks(cards: np.ndarray[Any, Any], ace_high: bool) -> np.ndarray[Any, Any]:
    """Badugi rank (1..1092, lower is better) of each row of an (N, k) array of card ids, k in 1..5."""
    return _badugi_min(cards, (ace_high,))[0]


def _low_ranks(c: np.ndarray[Any, Any], ace_high: bool) -> np.ndarray[Any, Any]:
    """Low ranks of rows of five SORTED distinct card ids (int32)."""
    ranks = c >> 2
    code = ranks[:, 0] + 13 * ranks[:, 1] + 169 * ranks[:, 2] + 2197 * ranks[:, 3] + 28561 * ranks[:, 4]
    if ace_high:
        suits = c & 3
        code += _BASE * (suits == suits[:, :1]).all(axis=1)
    low: np.ndarray[Any, Any] = low_lut(ace_high)[code]
    return low


def entries5(cards: np.ndarray[Any, Any], ace_high: bool) -> np.ndarray[Any, Any]:
    """Packed entries ``low_rank | badugi_rank << 16`` (uint32) of each row of an (N, 5) array of card ids.

    Rows must hold five distinct ids in 0..51 (not checked here).
    """
    c = np.asarray(cards)
    if c.ndim != 2 or c.shape[1] != 5:
        raise ValueError(f"expected an (N, 5) array of card ids, got shape {c.shape}")
    c = np.sort(c.astype(np.int32), axis=1)
    return _low_ranks(c, ace_high).astype(np.uint32) | (badugi_ranks(c, ace_high).astype(np.uint32) << 16)


def table_payloads() -> list[np.ndarray[Any, Any]]:
    """Both tables (index 0 = Badacey, 1 = Badeucy), each ``tables.ENTRIES`` little-endian uint32."""
    hands = all_hands().astype(np.int32)  # colex rows are already sorted
    badugi = _badugi_min(hands, (False, True))  # the subset work is shared by both ace treatments
    payloads = []
    for game, ace_high in enumerate((False, True)):
        five: np.ndarray[Any, Any]
        five = _low_ranks(hands, ace_high).astype(np.uint32) | (badugi[game].astype(np.uint32) << 16)
        if not (five & 0xFFFF).all() or not (five >> 16).all():  # every hand must fall in some class (rank > 0)
            raise AssertionError(f"table {game}: a hand matched no value class")
        masks = badugi_lut(ace_high).astype(np.uint32) << 16
        payloads.append(np.concatenate([five, masks]).astype("<u4"))
    return payloads


def build_tables(directory: str | Path | None = None) -> list[Path]:
    """Generate both tables (header + payload) into ``directory`` (default: the package's ``_data/``).

    Files are written to a temporary name and renamed, so a reader never sees half a table.
    Returns the paths written.
    """
    out = Path(directory) if directory is not None else Path(__file__).resolve().parent / "_data"
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for game, array in enumerate(table_payloads()):
        payload = array.tobytes()
        path = Path(tables.table_path(game, out))
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            f.write(tables.pack_header(game, payload))
            f.write(payload)
        tmp.replace(path)
        written.append(path)
    return written
