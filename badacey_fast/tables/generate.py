"""Table generation from the reference rules, in the standard library alone (the build runs it before
numpy is installed).

Nothing here is a hand-typed value: every rank comes from the reference's value classes
(:func:`~badacey_fast.rules.reference.low_class_hands`, :func:`~badacey_fast.rules.reference.badugi_class_hands`),
whose index ``i`` is rank ``i + 1`` (dense, lower is better).  Two class maps turn those lists into
lookups:

- :func:`low_lut`: A-5 low depends only on the multiset of ranks, code = sorted ranks in base 13
  (13**5 codes); 2-7 low adds one bit, "all five cards one suit" (straights are a function of the ranks);
- :func:`badugi_lut`: a badugi's value depends only on the set of ranks that play, so a 13-bit rank
  mask indexes its rank; a hand's badugi rank is the minimum over its subsets of distinct ranks and
  distinct suits.

A five-card hand's entry therefore depends only on its sorted ranks and on which of those positions
share a suit (a set partition of the five positions: 51 of them).  :func:`table_payloads` values each
of those classes once (207,129 of them, instead of 2.6 M hands), and writes the perfect-hash table
in colex order from an additive per-card code, one list operation per hand: about a second for both
games.  :mod:`badacey_fast.tables.arrays` applies the same class maps to numpy arrays (the Python
twin's bulk evaluation).

>>> wheel = low_code((0, 1, 2, 3, 4))   # A-2-3-4-5
>>> low_lut(False)[wheel], low_lut(True)[wheel], low_lut(True)[wheel + BASE]   # 2-7: ace high, and as a flush
(1, 785, 6648)
>>> badugi_lut(False)[0b1111]    # A-2-3-4 in four suits: the best badugi
1
>>> low_lut(2)
Traceback (most recent call last):
...
TypeError: ace_high must be a bool, not int
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, islice
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from badacey_fast.rules import reference
from badacey_fast.rules.games import GAMES
from badacey_fast.tables import format as tables

if TYPE_CHECKING:  # only the annotations of low_code name numpy: the build runs without it
    import numpy as np

__all__ = ["BASE", "low_code", "low_lut", "badugi_lut", "table_payloads", "build_tables"]

#: Number of base-13 codes of five sorted ranks: :func:`low_lut`'s flush bit is worth this much.
BASE = 13**5


def _check_ace_high(ace_high: bool) -> bool:
    if not isinstance(ace_high, bool):
        raise TypeError(f"ace_high must be a bool, not {type(ace_high).__name__}")
    return ace_high


@overload
def low_code(sorted_ranks: Sequence[int]) -> int: ...
@overload
def low_code(sorted_ranks: Sequence[np.ndarray[Any, Any]]) -> np.ndarray[Any, Any]: ...


def low_code(sorted_ranks: Sequence[Any]) -> Any:
    """:func:`low_lut`'s index of five sorted ranks (0..12, ace = 0) without the flush bit: base 13.

    The ranks may be five numpy columns instead (:mod:`badacey_fast.tables.arrays`: every row's code).

    >>> low_code((0, 0, 0, 0, 1)), low_code((11, 12, 12, 12, 12))   # four aces and a deuce; four kings
    (28561, 371291)
    """
    return sum(r * 13**i for i, r in enumerate(sorted_ranks))


def low_lut(ace_high: bool) -> array[int]:
    """Low rank (``array('H')`` of ``2 * BASE``, 1..6175 or 1..7462) by ``low_code(ranks) + flush * BASE``.

    ``ace_high`` False is A-5 low (Badacey: the flush bit changes nothing), True 2-7 low (Badeucy).
    0 marks codes no five-card hand has (a rank five times, or a flush of paired ranks).  Computed once.
    """
    return _low_lut(_check_ace_high(ace_high))


def badugi_lut(ace_high: bool) -> array[int]:
    """Badugi rank (``array('H')`` of 8192, 1..1092) by 13-bit mask of the ranks that play (1 to 4 bits);
    0 for other masks.  Computed once.

    >>> badugi_lut(True)[0b1111], badugi_lut(True)[0b11110]   # ace high: A-4-3-2 is the best ace-high one; 5-4-3-2 the best
    (496, 1)
    """
    return _badugi_lut(_check_ace_high(ace_high))


@lru_cache(maxsize=None)
def _low_lut(ace_high: bool) -> array[int]:
    lut = array("H", bytes(2 * 2 * BASE))
    for i, hand in enumerate(reference.low_class_hands(GAMES[ace_high])):
        flush = ace_high and len({c & 3 for c in hand}) == 1  # only 2-7 low cares about flushes
        lut[low_code(sorted(c >> 2 for c in hand)) + BASE * flush] = i + 1
    if not ace_high:
        lut[BASE:] = lut[:BASE]
    return lut


@lru_cache(maxsize=None)
def _badugi_lut(ace_high: bool) -> array[int]:
    lut = array("H", bytes(2 * tables.BADUGI_MASKS))
    for i, hand in enumerate(reference.badugi_class_hands(ace_high)):
        lut[sum(1 << (c >> 2) for c in hand)] = i + 1  # a class hand is its own best badugi
    return lut


def _first_seen(labels: tuple[int, ...]) -> tuple[int, ...]:
    """Relabel by order of first appearance: the set partition ``labels`` makes, e.g. (2, 0, 2) -> (0, 1, 0)."""
    seen: dict[int, int] = {}
    return tuple(seen.setdefault(x, len(seen)) for x in labels)


# Hands are classed by (sorted ranks, suit partition of those five positions).  The sorted ranks are
# numbered densely by the multiset colex code sum(C(r_i + i, i + 1)) (0..C(17, 5) - 1), a sum of one
# term per card like the suit code sum(s_i * 4**i) below; a class's key is rank code * 51 + partition id.
_SUIT_SEQUENCES = [tuple((code >> (2 * i)) & 3 for i in range(5)) for code in range(4**5)]  # by suit code
_PARTITIONS = sorted({_first_seen(suits) for suits in _SUIT_SEQUENCES})
_PARTITION_OF = [_PARTITIONS.index(_first_seen(suits)) for suits in _SUIT_SEQUENCES]  # by suit code
_PER_RANKS = len(_PARTITIONS)  # 51: five cards cannot have five suits
_RANK_CODES = comb(17, 5)  # sorted five-rank sequences, 0..12 each (a few have a rank five times)
_SUBSETS = [s for size in range(1, 5) for s in combinations(range(5), size)]  # 30 candidate badugis


@lru_cache(maxsize=None)
def _classes_of(shape: tuple[int, ...]) -> tuple[tuple[int, bool, tuple[int, ...]], ...]:
    """For sorted ranks whose equal positions are ``shape`` (first-seen labels): each possible suit
    partition as (id, flush, indices into ``_SUBSETS`` of the badugis it allows)."""
    out = []
    for pid, part in enumerate(_PARTITIONS):
        if any(shape[i] == shape[j] and part[i] == part[j] for j in range(5) for i in range(j)):
            continue  # two cards of one rank in one suit: no such hand
        ok = tuple(k for k, s in enumerate(_SUBSETS)
                   if len({shape[i] for i in s}) == len(s) == len({part[i] for i in s}))
        out.append((pid, len(set(part)) == 1, ok))
    return tuple(out)


def _rank_term(rank: int, position: int) -> int:
    """The card at ``position`` (0..4) of sorted ranks adds this to their rank code."""
    return comb(rank + position, position + 1)


def _class_entries() -> tuple[list[int], list[int]]:
    """Entry ``low | badugi << 16`` of every (sorted ranks, suit partition) class, per game, by key.

    Keys no hand has hold 0.  The badugi rank is the minimum of :func:`badugi_lut` over the subsets of
    positions with distinct ranks and distinct suits (listed once per shape of equal ranks and partition).
    """
    lows = (low_lut(False), low_lut(True))
    badugis = (badugi_lut(False), badugi_lut(True))
    out: tuple[list[int], list[int]] = ([0] * (_RANK_CODES * _PER_RANKS), [0] * (_RANK_CODES * _PER_RANKS))
    for ranks in combinations_with_replacement(range(13), 5):
        if ranks[0] == ranks[4]:
            continue  # one rank five times
        masks = [sum({1 << ranks[i] for i in s}) for s in _SUBSETS]
        code = low_code(ranks)
        key = sum(map(_rank_term, ranks, range(5))) * _PER_RANKS
        classes = _classes_of(_first_seen(ranks))
        for low, badugi, entries in zip(lows, badugis, out):
            values = [badugi[m] for m in masks]
            for pid, flush, ok in classes:
                low_rank, badugi_rank = low[code + BASE * flush], min(map(values.__getitem__, ok))
                if not low_rank or not badugi_rank:
                    raise AssertionError(f"ranks {ranks}, suit partition {_PARTITIONS[pid]}: no value class")
                entries[key + pid] = low_rank | badugi_rank << 16
    return out


def _hand_entries(entries_by_game: tuple[list[int], ...]) -> list[array[int]]:
    """The colex-ordered five-card entries (``array('I')`` of ``HANDS5``) of each game's class entries.

    Colex order lists the k-card hands below card ``m`` first, so the k-card level is the (k-1)-card
    level's prefixes with ``m`` appended.  Each level keeps an additive code per hand, ``rank code * 256
    + suit code``; the last card turns it into a class key through its suit (one of four lists of the
    four-card level, by the partition each suit would complete).
    """
    level = [_rank_term(c >> 2, 0) * 256 + (c & 3) for c in range(52)]
    for k in range(1, 4):
        nxt: list[int] = []
        for m in range(k, 52):
            add = _rank_term(m >> 2, k) * 256 + (m & 3) * 4**k
            nxt += [x + add for x in islice(level, comb(m, k))]
        level = nxt
    by_suit = [[(x >> 8) * _PER_RANKS + part[x & 255] for x in level]
               for part in (_PARTITION_OF[256 * s: 256 * s + 256] for s in range(4))]
    out = [array("I") for _ in entries_by_game]
    for m in range(4, 52):
        add = _rank_term(m >> 2, 4) * _PER_RANKS
        keys = [x + add for x in islice(by_suit[m & 3], comb(m, 4))]
        for entries, table in zip(entries_by_game, out):
            table.extend(map(entries.__getitem__, keys))
    return out


def table_payloads() -> list[bytes]:
    """Both tables' payloads (index 0 = Badacey, 1 = Badeucy), each ``tables.ENTRIES`` little-endian uint32.

    >>> [len(p) // 4 for p in table_payloads()] == [tables.ENTRIES] * 2
    True
    """
    payloads = []
    for game, five in enumerate(_hand_entries(_class_entries())):
        if five.itemsize != 4:  # pragma: no cover - 'I' is 32 bits on every platform CPython supports
            raise AssertionError(f"array('I') holds {five.itemsize}-byte items, not 4")
        if 0 in five:  # a hand keyed to no class (every class's entry has both ranks)
            raise AssertionError(f"table {game}: a hand matched no value class")
        five.extend(rank << 16 for rank in badugi_lut(bool(game)))
        if sys.byteorder != "little":  # pragma: no cover - the tables are little-endian
            five.byteswap()
        payloads.append(five.tobytes())
    return payloads


def build_tables(directory: str | Path | None = None) -> list[Path]:
    """Generate both tables (header + payload) into ``directory`` (default: the package's ``_data/``).

    Files are written to a temporary name and renamed, so a reader never sees half a table.
    Returns the paths written.
    """
    out = Path(directory) if directory is not None else Path(__file__).resolve().parent.parent / "_data"
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for game, payload in enumerate(table_payloads()):
        path = Path(tables.table_path(game, out))
        tmp = path.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            f.write(tables.pack_header(game, payload))
            f.write(payload)
        tmp.replace(path)
        written.append(path)
    return written
