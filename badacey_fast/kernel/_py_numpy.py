"""The Python twin's batch calls, in numpy: the same contracts as the C twin's ``eval_many``,
``badugi_rank_many``, ``all_entries``, ``showdown_many`` and ``split_many`` (see ``_c.py``), served by the
reference rules: ranks from :mod:`badacey_fast.rules.reference`, chips from the one Python split,
:func:`badacey_fast.rules.odd_chips.split_pot`, row by row (as the C twin calls its own, ``bd_split_pot``).

Kept apart from ``_py.py`` because it imports numpy, which ``import badacey_fast`` must not pay for:
``_py.py`` imports this module on the first batch call.  Ranks are dense, lower is better.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from badacey_fast.errors import ShapeError
from badacey_fast.rules import reference
from badacey_fast.rules.games import GAMES, SCORINGS
from badacey_fast.rules.odd_chips import OddChip, split_pot
from badacey_fast.tables import arrays

if TYPE_CHECKING:
    from badacey_fast.kernel.twin import NDArray

# Error codes shared with csrc/showdown.h (BD_SD_*): which check a row failed.
_OK, _BAD_CARD, _DUP_CARD, _NO_LIVE, _BAD_POT, _BAD_BUTTON = 0, 1, 2, 3, 4, 5
# The two scale families' Scorings, by ace_high: what the reference's low functions take.
_SCALES = tuple(SCORINGS[game] for game in GAMES)


def _first_bad_row(arr: NDArray) -> int:
    """Index of the first row with an id outside 0..51 or a repeated id, or -1.

    Unchecked garbage is clamped to 51 by the callers, so the twin, like the kernel, never indexes
    outside its class maps (meaningless ranks, no crash)."""
    s = np.sort(arr.astype(np.int16), axis=1)
    bad = (s[:, 0] < 0) | (s[:, -1] > 51) | (np.diff(s, axis=1) == 0).any(axis=1)
    rows = np.flatnonzero(bad)
    return int(rows[0]) if rows.size else -1


def eval_many(cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
              out_badugi: NDArray, threads: int = 1) -> int:
    bad = _first_bad_row(cards) if check else -1
    if bad >= 0:
        return bad
    entries = arrays.entries5(cards if check else np.minimum(cards, 51), ace_high)
    out_low[:] = entries & 0xFFFF
    out_badugi[:] = entries >> 16
    return -1


def badugi_rank_many(cards: NDArray, ace_high: bool, check: bool, out: NDArray,
                     threads: int = 1) -> int:
    bad = _first_bad_row(cards) if check else -1
    if bad >= 0:
        return bad
    out[:] = arrays.badugi_ranks(cards if check else np.minimum(cards, 51), ace_high)
    return -1


def all_entries(ace_high: bool) -> NDArray:
    return arrays.entries5(arrays.all_hands(), ace_high)


# --------------------------------------------------------------------------------------------------
# Showdowns: the numpy reference of csrc/showdown.c.  Ranks come from the reference (one evaluation per
# distinct live hand), the split is whole-array numpy.


def _row_codes(hands: NDArray, alive: NDArray, pots: NDArray | None,
               buttons: NDArray | None) -> NDArray:
    """The BD_SD_* code of every row (0 = good): the first check it fails."""
    n, p = alive.shape
    wide = hands.astype(np.int64)
    bad_id = (((wide < 0) | (wide > 51)) & alive[:, :, None]).any(axis=(1, 2))
    # Folded seats' cards are replaced by distinct values above 51 so that they never collide.
    filler = 64 + np.arange(p * 5, dtype=np.int64).reshape(p, 5)
    flat = np.where(alive[:, :, None], wide, filler).reshape(n, p * 5)
    flat.sort(axis=1)
    dup = (flat[:, 1:] == flat[:, :-1]).any(axis=1)
    codes = np.zeros(n, dtype=np.uint8)
    checks = [(~alive.any(axis=1), _NO_LIVE), (dup, _DUP_CARD), (bad_id, _BAD_CARD)]
    if pots is not None:
        assert buttons is not None  # the chip form gives both (see _c.showdown_many)
        checks = [((buttons < 0) | (buttons >= p), _BAD_BUTTON), (pots < 0, _BAD_POT)] + checks
    for failed, code in checks:  # the last assignment wins: the first check in csrc order
        codes[failed] = code
    return codes


def _ranks(hands: NDArray, alive: NDArray,
           ace_high: bool) -> tuple[NDArray, NDArray]:
    """Dense (low, badugi) ranks of every live seat; 0x7FFFFFFF (worse than any rank) when folded."""
    n, p = alive.shape
    worst = np.iinfo(np.int32).max
    low = np.full((n, p), worst, dtype=np.int32)
    bad = np.full((n, p), worst, dtype=np.int32)
    scale = _SCALES[ace_high]
    cache: dict[tuple[int, ...], tuple[int, int]] = {}
    rows, seats = np.nonzero(alive)
    for r, s, hand in zip(rows.tolist(), seats.tolist(), hands[rows, seats].tolist()):
        key = tuple(sorted(hand))
        value = cache.get(key)
        if value is None:
            value = cache[key] = (reference.low_rank(key, scale), reference.badugi_rank(key, ace_high))
        low[r, s], bad[r, s] = value
    return low, bad


def _settle(hands: NDArray, alive: NDArray, ace_high: bool,
            pots: NDArray | None, buttons: NDArray | None,
            odd_low: bool) -> tuple[NDArray, NDArray, NDArray]:
    """(payouts, low winners, badugi winners) of valid rows: float64 shares, or int64 chips with pots."""
    n, p = alive.shape
    low, bad = _ranks(hands, alive, ace_high)
    low_win = alive & (low == low.min(axis=1, keepdims=True))
    bad_win = alive & (bad == bad.min(axis=1, keepdims=True))
    lone = alive.sum(axis=1) == 1  # everyone else folded: the whole pot, no evaluation needed
    low_win[lone] = bad_win[lone] = alive[lone]
    k_low = low_win.sum(axis=1, keepdims=True)
    k_bad = bad_win.sum(axis=1, keepdims=True)
    if pots is None:
        return 0.5 * low_win / k_low + 0.5 * bad_win / k_bad, low_win, bad_win
    assert buttons is not None  # the chip form gives both (see _c.showdown_many)
    chips = np.empty((n, p), dtype=np.int64)
    weights = 1 << np.arange(p)
    split_many(pots, buttons, (low_win * weights).sum(axis=1).astype(np.uint8),
               (bad_win * weights).sum(axis=1).astype(np.uint8), odd_low, chips, False)  # good rows: all paid
    return chips, low_win, bad_win


def split_many(pots: NDArray, buttons: NDArray, low_bits: NDArray | None, badugi_bits: NDArray | None,
               odd_low: bool, chips: NDArray, columns: bool) -> int:
    """As the C twin's: every row paid by :func:`~badacey_fast.rules.odd_chips.split_pot`; -1, or the first
    row with a negative pot, a button that is not a seat, or no winner (the rows before it written)."""
    n = len(pots)
    seats = chips.shape[0] if columns else chips.shape[1]
    if (chips.shape != ((seats, n) if columns else (n, seats)) or len(buttons) != n
            or any(bits is not None and len(bits) != n for bits in (low_bits, badugi_bits))):
        raise ShapeError(f"split_many: arrays of other lengths than {n} rows of {seats} seats")
    policy = OddChip.LOW if odd_low else OddChip.POSITION
    lows = [0] * n if low_bits is None else low_bits.tolist()
    bads = [0] * n if badugi_bits is None else badugi_bits.tolist()
    everyone = (1 << seats) - 1
    rows: list[list[int]] = []
    bad_row = -1
    for pot, button, lw, bw in zip(pots.tolist(), buttons.tolist(), lows, bads):
        if pot < 0 or not 0 <= button < seats or not lw | bw or (lw | bw) & ~everyone:
            bad_row = len(rows)
            break
        order = [(button + 1 + j) % seats for j in range(seats)]  # clockwise from the button
        row = [0] * seats
        split_pot(pot, button, [s for s in order if lw >> s & 1], [s for s in order if bw >> s & 1], policy, row)
        rows.append(row)
    if rows:
        (chips.T if columns else chips)[: len(rows)] = rows
    return bad_row


def showdown_many(hands: NDArray, live: NDArray | None, ace_high: bool,
                  pots: NDArray | None, buttons: NDArray | None, odd_low: bool,
                  shares: NDArray | None, chips: NDArray | None,
                  low: NDArray | None, badugi: NDArray | None,
                  status: NDArray | None = None) -> tuple[int, int]:
    n, p = hands.shape[:2]
    alive = np.ones((n, p), bool) if live is None else live.astype(bool)
    codes = _row_codes(hands, alive, pots, buttons)
    bad_rows = np.flatnonzero(codes)
    if status is None:  # stop at the first bad row: the rows before it are written
        first = int(bad_rows[0]) if bad_rows.size else -1
        result = (first, int(codes[first]) if first >= 0 else 0)
        good = np.arange(n) < (first if first >= 0 else n)
    else:  # every row's code; bad rows pay nothing and win nothing
        status[:] = codes
        result = (int(bad_rows.size), 0)
        good = codes == 0
    pays, low_win, bad_win = _settle(hands[good], alive[good], ace_high, None if pots is None else pots[good],
                                     None if buttons is None else buttons[good], odd_low)
    for target, value in ((shares, pays if pots is None else None), (chips, pays if pots is not None else None),
                          (low, low_win), (badugi, bad_win)):
        if target is not None and value is not None:
            if status is not None:
                target[~good] = 0
            target[good] = value
    return result


def showdown_columns(hands: NDArray, live: NDArray | None, ace_high: bool, pots: NDArray, buttons: NDArray,
                     odd_low: bool, chips: NDArray, low_bits: NDArray | None, badugi_bits: NDArray | None,
                     status: NDArray | None = None) -> tuple[int, int]:
    """:func:`showdown_many` into row-major arrays, then laid out as the C twin's columns and bitmasks
    (a row :func:`showdown_many` leaves unwritten, after the first bad one, is left unwritten here too)."""
    n, p = hands.shape[:2]
    rows = np.empty((n, p), dtype=np.int64)
    low = np.zeros((n, p), dtype=bool)
    bad = np.zeros((n, p), dtype=bool)
    result = showdown_many(hands, live, ace_high, pots, buttons, odd_low, None, rows, low, bad, status)
    done = n if status is not None or result[0] < 0 else result[0]
    chips[:, :done] = rows[:done].T
    weights = (1 << np.arange(p)).astype(np.uint8)
    for bits, won in ((low_bits, low), (badugi_bits, bad)):
        if bits is not None:
            bits[:done] = (won[:done] * weights).sum(axis=1, dtype=np.uint8)
    return result
