"""The pure-Python twin of the C kernel: the same functions as ``_c.py``, served by the reference.

Single hands: inputs are already validated by the public API (tuples of distinct ints in 0..51 of the
right length).  Batches (``eval_many``, ``badugi_rank_many``, ``all_entries``, ``showdown_many``) are in
``_py_numpy.py``, imported on first use so that ``import badacey_fast`` does not import numpy.  Ranks
are dense, lower is better.

Two C functions have no Python twin, each for a documented reason: ``parse_deals`` returns None (the
deal files' Python path is :mod:`badacey_fast.files.lines`, which words every error; the C parser only
speeds up the strict forms), and ``eval_many_level`` raises ``NotImplementedError`` (there are no
vector paths to choose from: ``simd_level()`` is -1).
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from badacey_fast.rules import reference as reference

if TYPE_CHECKING:
    from badacey_fast.kernel.backend import NDArray, Progress

NAME = "python"

__all__ = ["NAME", "evaluate5", "low_rank5", "badugi_rank", "eval_many", "badugi_rank_many", "all_entries",
           "showdown_many", "draw_histograms", "draw_all_discards", "parse_deals", "format_results",
           "simd_level", "eval_many_level"]

_LOW_GAME = ("badacey", "badeucy")


def evaluate5(cards: tuple[int, ...], ace_high: bool) -> tuple[int, int]:
    """(low rank, badugi rank) of five validated cards; ``ace_high`` selects Badeucy."""
    return (
        reference.low_rank(cards, _LOW_GAME[ace_high]),
        reference.badugi_rank(cards, ace_high),
    )


def low_rank5(cards: tuple[int, ...], ace_high: bool) -> int:
    """Low rank of five validated cards (A-5, or 2-7 when ``ace_high``)."""
    return reference.low_rank(cards, _LOW_GAME[ace_high])


def badugi_rank(cards: tuple[int, ...], ace_high: bool) -> int:
    """Badugi rank of 1 to 5 validated cards."""
    return reference.badugi_rank(cards, ace_high)


# --------------------------------------------------------------------------------------------------
# Batches: numpy, in _py_numpy (the contracts are the C twin's, see _c.py).


def eval_many(cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
              out_badugi: NDArray, threads: int = 1) -> int:
    """As the C twin's; ``threads`` is ignored (numpy)."""
    from badacey_fast.kernel import _py_numpy

    return _py_numpy.eval_many(cards, ace_high, check, out_low, out_badugi)


def badugi_rank_many(cards: NDArray, ace_high: bool, check: bool, out: NDArray,
                     threads: int = 1) -> int:
    """As the C twin's; ``threads`` is ignored (numpy)."""
    from badacey_fast.kernel import _py_numpy

    return _py_numpy.badugi_rank_many(cards, ace_high, check, out)


def all_entries(ace_high: bool) -> NDArray:
    """As the C twin's: computed from the reference's class maps (about a second per game)."""
    from badacey_fast.kernel import _py_numpy

    return _py_numpy.all_entries(ace_high)


def showdown_many(hands: NDArray, live: NDArray | None, ace_high: bool,
                  pots: NDArray | None, buttons: NDArray | None, odd_low: bool,
                  shares: NDArray | None, chips: NDArray | None,
                  low: NDArray | None, badugi: NDArray | None,
                  status: NDArray | None = None) -> tuple[int, int]:
    """As the C twin's (slow: each distinct live hand is evaluated by the reference)."""
    from badacey_fast.kernel import _py_numpy

    return _py_numpy.showdown_many(hands, live, ace_high, pots, buttons, odd_low, shares, chips, low, badugi, status)


def parse_deals(block: bytes, pos: int, seats: int, csv: bool, columns: NDArray | None, ncolumns: int,
                max_rows: int, hands: NDArray, live: NDArray, pot: NDArray,
                button: NDArray, flags: NDArray, start: NDArray,
                length: NDArray) -> None:
    """None: the Python twin has no fast deal parser (the caller's Python path parses the lines)."""
    return None


def format_results(line: NDArray, chips: NDArray, low: NDArray,
                   badugi: NDArray, keep: NDArray | None, out: bytearray) -> int:
    """As the C twin's: CSV rows of the kept rows into ``out``, the bytes written or -1 if too small."""
    rows = []
    for i in range(len(chips)):
        if keep is not None and not keep[i]:
            continue
        lw = " ".join(str(s) for s, won in enumerate(low[i].tolist()) if won)
        bw = " ".join(str(s) for s, won in enumerate(badugi[i].tolist()) if won)
        rows.append(f"{int(line[i])},{','.join(map(str, chips[i].tolist()))},{lw},{bw}\n")
    data = "".join(rows).encode()
    if len(data) > len(out):
        return -1
    out[: len(data)] = data
    return len(data)


# --------------------------------------------------------------------------------------------------
# Draw enumeration: every replacement set evaluated by the reference (about 15 µs per outcome).


def draw_histograms(kept: tuple[int, ...], unseen: tuple[int, ...], k: int, ace_high: bool,
                    progress: Progress | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """As the C twin's; ``progress(done, total)`` every 4096 outcomes and at the end."""
    low = [0] * reference.LOW_CLASS_COUNTS[_LOW_GAME[ace_high]]
    badugi = [0] * reference.BADUGI_CLASS_COUNT
    total = comb(len(unseen), k)
    for n, drawn in enumerate(combinations(unseen, k), 1):
        lo, bd = evaluate5(kept + drawn, ace_high)
        low[lo - 1] += 1
        badugi[bd - 1] += 1
        if progress is not None and n % 4096 == 0:
            progress(n, total)
    if progress is not None:
        progress(total, total)
    return tuple(low), tuple(badugi)


def draw_all_discards(hand: tuple[int, ...], unseen: tuple[int, ...], ace_high: bool,
                      progress: Progress | None = None) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """As the C twin's: one :func:`draw_histograms` per discard mask; ``progress`` counts all 32 together."""
    need = sum(comb(5, k) * comb(len(unseen), k) for k in range(6))
    done = 0
    by_mask = []
    for mask in range(32):
        kept = tuple(c for i, c in enumerate(hand) if not mask >> i & 1)
        k = 5 - len(kept)
        sub = None if progress is None else (lambda n, _total, base=done: progress(base + n, need))
        by_mask.append(draw_histograms(kept, unseen, k, ace_high, sub))
        done += comb(len(unseen), k)
    return by_mask


# --------------------------------------------------------------------------------------------------
# Vector paths: C only.


def simd_level() -> int:
    """-1: the Python twin has no vector paths (the C twin's levels are 0..2)."""
    return -1


def eval_many_level(cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
                    out_badugi: NDArray, level: int) -> int:
    """Not available: the vector paths are the C kernel's (``simd_level()`` is -1 here)."""
    raise NotImplementedError("eval_many_level: the Python twin has no vector paths; use the C twin")
