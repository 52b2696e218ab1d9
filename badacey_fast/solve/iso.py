"""Suit isomorphism: hands (and sequences of hands) that differ only by a renaming of the suits play
alike in every game here -- suits never rank a hand, only whether cards share one -- so a solver needs
one strategy per class.

A hand's **canonical form** renames its suits so that their rank masks (bit r for rank r, ace 0) decrease:
the suit holding the highest card becomes clubs, ties broken by the next highest card ...: two hands are isomorphic exactly when their
canonical forms are equal.  Classes of hands of k cards (1..5, full deck) are numbered 0.. in the colex
order of their canonical hands: 5 cards make 134,459 classes, 4 cards 16,432.  An information state's
hands through its draws are canonical together: each suit is keyed by its masks at every stage in turn
(so the deal's suits decide first, and a draw can only break the deal's ties).

>>> from badacey_fast.cards import format_cards
>>> format_cards(canonical_hand("Ah 2s 3h 4d"))  # masks: diamonds {4} > hearts {A,3} > spades {2}
'Ad 2h 3d 4c'
>>> canonical("Ah 2s 3h 4d") == canonical("Ad 2c 3d 4s"), n_classes(5), n_classes(4)
(True, 134459, 16432)
>>> format_cards(hand_of_class(4, canonical("Ah 2s 3h 4d")))
'Ad 2h 3d 4c'
>>> canonical("Ah Ah")
Traceback (most recent call last):
...
badacey_fast.errors.DuplicateCardError: card 'Ah' is given twice
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import comb
from typing import Any

import numpy as np

from badacey_fast import kernel
from badacey_fast.cards import parse_cards
from badacey_fast.errors import HandSizeError, SolveError

__all__ = ["canonical", "canonical_hand", "canonical_sequence", "n_classes", "hand_of_class", "class_table"]

#: Classes of hands of 1..5 cards of the full deck (the tests count them by brute force).
N_CLASSES = {1: 13, 2: 169, 3: 1755, 4: 16432, 5: 134459}


def _check(cards: str | Iterable[str | int]) -> tuple[int, ...]:
    ids = parse_cards(cards)
    if not 1 <= len(ids) <= 5:
        raise HandSizeError(f"a hand has 1 to 5 cards, got {len(ids)}")
    return ids


def _canonical_rows(rows: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """The canonical form of a sequence of hands (card ids; each a set): the Python twin."""
    n = len(rows)
    key = [0, 0, 0, 0]
    for st, row in enumerate(rows):
        for c in row:
            key[c & 3] |= 1 << (13 * (n - 1 - st) + (c >> 2))
    perm = sorted(range(4), key=lambda s: (-key[s], s))  # stable: equal keys keep suit order
    to = {old: new for new, old in enumerate(perm)}
    return tuple(tuple(sorted((c & ~3) | to[c & 3] for c in row)) for row in rows)


def canonical_sequence(hands: Sequence[str | Iterable[str | int]]) -> tuple[tuple[int, ...], ...]:
    """The canonical form of an information state's hands (the deal, then the hand after each draw: 1..4
    hands of the same size), each hand sorted.

    >>> canonical_sequence(["As 2s", "As 3h"])     # spades first (both cards at the deal), then hearts
    ((0, 4), (0, 9))
    """
    rows = [_check(h) for h in hands]
    if not 1 <= len(rows) <= 4 or len({len(r) for r in rows}) != 1:
        raise HandSizeError(f"an information state holds 1 to 4 hands of one size, got sizes {[len(r) for r in rows]}")
    core = kernel.solver()
    if core is None:
        return _canonical_rows(rows)
    out = core.canonical(np.array(rows, np.uint8))
    return tuple(tuple(int(c) for c in row) for row in out)


def canonical_hand(cards: str | Iterable[str | int]) -> tuple[int, ...]:
    """The canonical form of a hand (sorted card ids)."""
    return canonical_sequence([cards])[0]


def class_table(size: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """(class of every hand of ``size`` cards by the colex index of its sorted cards, colex index of
    each class's canonical hand): built once per twin (the 5-card table is 10 MB)."""
    if size not in N_CLASSES:
        raise HandSizeError(f"a hand has 1 to 5 cards, got {size}")

    def compute() -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        core = kernel.solver()
        if core is not None:
            return core.hand_classes(size)
        return _classes_numpy(size)

    return kernel.memo(("solve.iso", size), compute)


def colex_rows(n: int, k: int) -> np.ndarray[Any, Any]:
    """Every k-subset of 0..n-1 as sorted rows (int64), in colex order (row i has colex index i).

    >>> colex_rows(4, 2).tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    if k == 0:
        return np.zeros((1, 0), np.int64)
    # Colex: by the largest element, then the rest in colex order -- the subsets of 0..last-1 are the
    # first C(last, k-1) rows of those of 0..n-2, so one table serves every ``last``.
    rest = colex_rows(n - 1, k - 1) if n >= 1 else np.zeros((0, k - 1), np.int64)
    parts = [np.hstack([rest[:comb(last, k - 1)], np.full((comb(last, k - 1), 1), last, np.int64)])
             for last in range(k - 1, n)]
    return np.vstack(parts) if parts else np.zeros((0, k), np.int64)


def _classes_numpy(size: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    rows = colex_rows(52, size)
    # Each hand's suits' rank masks, sorted (decreasing): the canonical form.
    suit = np.zeros((rows.shape[0], 4), np.int64)
    for j in range(size):
        bit = 1 << (rows[:, j] >> 2)
        for s in range(4):
            suit[:, s] |= np.where((rows[:, j] & 3) == s, bit, 0)
    suit = -np.sort(-suit, axis=1)
    key = (suit[:, 0] << 39) | (suit[:, 1] << 26) | (suit[:, 2] << 13) | suit[:, 3]
    keys, inverse = np.unique(key, return_inverse=True)
    # Each class's canonical hand (cards 4r + s in increasing order) by its colex index.
    masks = np.stack([(keys >> (39 - 13 * s)) & 0x1FFF for s in range(4)], axis=1)
    binom = np.array([[comb(c, i) for i in range(6)] for c in range(52)], np.int64)
    index = np.zeros(keys.size, np.int64)
    count = np.zeros(keys.size, np.int64)
    for card in range(52):
        held = (masks[:, card & 3] >> (card >> 2)) & 1
        count += held
        index += held * binom[card, np.minimum(count, 5)]
    order = np.argsort(index)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rank[inverse.reshape(-1)].astype(np.uint32), index[order].astype(np.uint32)


def _colex(cards: Sequence[int]) -> int:
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(cards)))


def canonical(cards: str | Iterable[str | int]) -> int:
    """The class index (0 .. ``n_classes(len(cards)) - 1``) of a hand of 1 to 5 cards of the full deck."""
    ids = _check(cards)
    class_of, _ = class_table(len(ids))
    return int(class_of[_colex(ids)])


def n_classes(hand_size: int) -> int:
    """The number of suit-isomorphism classes of hands of ``hand_size`` (1..5) cards of the full deck."""
    if type(hand_size) is not int:
        raise TypeError(f"hand_size must be an int, not {type(hand_size).__name__}")
    return int(class_table(hand_size)[1].size)


def hand_of_class(hand_size: int, index: int) -> tuple[int, ...]:
    """The canonical hand (sorted card ids) of class ``index`` of hands of ``hand_size`` cards: the
    inverse of :func:`canonical`."""
    _, first = class_table(hand_size)
    if type(index) is not int:
        raise TypeError(f"index must be an int, not {type(index).__name__}")
    if not 0 <= index < first.size:
        raise SolveError(f"class index {index} is outside 0..{first.size - 1} for {hand_size}-card hands")
    rest = int(first[index])
    out = []
    for i in range(hand_size, 0, -1):  # unrank the colex index: the largest card first
        c = i - 1
        while comb(c + 1, i) <= rest:
            c += 1
        out.append(c)
        rest -= comb(c, i)
    return tuple(sorted(out))
