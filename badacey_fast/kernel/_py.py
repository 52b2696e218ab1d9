"""The pure-Python twin of the C kernel: the same functions as ``_c.py``, served by the reference.

Single hands: inputs are already validated by the public API (tuples of distinct ints in 0..51 of the
right length).  Batches (``eval_many``, ``badugi_rank_many``, ``all_entries``, ``showdown_many``) are in
``_py_numpy.py``, imported on first use so that ``import badacey_fast`` does not import numpy.  Ranks
are dense, lower is better.

Ten C functions have no Python twin, each for a documented reason: ``parse_deals`` returns None (the
deal files' Python path is :mod:`badacey_fast.files.lines`, which words every error; the C parser only
speeds up the strict forms), ``read_stars``, ``read_tilt`` and ``read_kings`` return None (the PokerStars, Full
Tilt and KingsClub readers' Python paths word every error; the C reader only speeds up the lines it knows), ``dealt_and_paid`` and ``holdings`` return None (``HandBuilder.finish`` words every
refusal and note; the C functions only speed up the hands it would add none to), ``stars_first_line`` and ``stars_table_line`` return None (their twins are the
PokerStars reader's expressions), ``xml_attributes`` returns None (its twin: ``histories.text.ATTRIBUTE``), ``hand_starts`` and
``split_lines`` return None (the hand-history reader's own Python scan and split, ``reader._firsts`` and
``reader._lines``, are their twins), and ``eval_many_level`` raises ``NotImplementedError`` (there are no
vector paths to choose from: ``simd_level()`` is -1).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from math import comb
from operator import index
from typing import TYPE_CHECKING

from badacey_fast.rules import reference as reference
from badacey_fast.rules.games import GAMES, SCORINGS

if TYPE_CHECKING:
    from typing import Any

    from badacey_fast.kernel.twin import NDArray, Progress

NAME = "python"

__all__ = ["NAME", "evaluate5", "low_rank5", "badugi_rank", "eval_many", "badugi_rank_many", "all_entries",
           "showdown_many", "showdown_columns", "split_many", "draw_histograms", "draw_all_discards", "parse_deals", "read_stars", "read_tilt", "read_kings", "stars_first_line", "stars_table_line", "xml_attributes", "hand_starts", "split_lines", "dealt_and_paid", "holdings",
           "format_results", "simd_level", "eval_many_level", "observe_many", "observe_list",
           "seat_encoder"]

# The two scale families' Scorings, by ace_high: what the reference's low functions take.
_SCALES = tuple(SCORINGS[game] for game in GAMES)


def evaluate5(cards: tuple[int, ...], ace_high: bool) -> tuple[int, int]:
    """(low rank, badugi rank) of five validated cards; ``ace_high`` selects Badeucy."""
    return (
        reference.low_rank(cards, _SCALES[ace_high]),
        reference.badugi_rank(cards, ace_high),
    )


def low_rank5(cards: tuple[int, ...], ace_high: bool) -> int:
    """Low rank of five validated cards (A-5, or 2-7 when ``ace_high``)."""
    return reference.low_rank(cards, _SCALES[ace_high])


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


def showdown_columns(hands: NDArray, live: NDArray | None, ace_high: bool, pots: NDArray, buttons: NDArray,
                     odd_low: bool, chips: NDArray, low_bits: NDArray | None, badugi_bits: NDArray | None,
                     status: NDArray | None = None) -> tuple[int, int]:
    """As the C twin's: :func:`showdown_many`'s chips and winners, laid out as payout columns."""
    from badacey_fast.kernel import _py_numpy

    return _py_numpy.showdown_columns(hands, live, ace_high, pots, buttons, odd_low, chips, low_bits, badugi_bits,
                                      status)


def split_many(pots: NDArray, buttons: NDArray, low_bits: NDArray | None, badugi_bits: NDArray | None,
               odd_low: bool, chips: NDArray, columns: bool) -> int:
    """As the C twin's: each row paid by the one Python split, :func:`badacey_fast.rules.odd_chips.split_pot`."""
    from badacey_fast.kernel import _py_numpy

    return _py_numpy.split_many(pots, buttons, low_bits, badugi_bits, odd_low, chips, columns)


def read_stars(lines: list[str], i: int, start: int, scale: int, draws: int, hand_size: int,
               consts: tuple[object, ...]) -> None:
    """None: the Python twin has no C reader (the caller's Python path reads the hand's lines)."""
    return None


read_tilt = read_stars  # Full Tilt's hands alike: None, the caller's Python path reads them
read_kings = read_stars  # KingsClub's too


def stars_first_line(line: str) -> None:
    """None: the PokerStars reader matches its first line's expression itself (``pokerstars._HEADER``)."""
    return None


def stars_table_line(line: str) -> None:
    """None: the PokerStars reader matches its table line's expression itself (``pokerstars._TABLE``)."""
    return None


def xml_attributes(line: str) -> None:
    """None: the XML rooms' attributes are read by their expression (``histories.text.ATTRIBUTE``)."""
    return None


def hand_starts(text: str, prefixes: tuple[str, ...]) -> None:
    """None: the reader scans the text for its hands' first lines itself (``reader._firsts``)."""
    return None


def split_lines(chunk: str) -> None:
    """None: the reader splits and strips a hand's lines itself (``reader._lines``)."""
    return None


def dealt_and_paid(seats: dict[str, Any], events: list[Any], held: dict[str, dict[int, tuple[int, ...]]],
                   behind: dict[str, int], collected: dict[str, int], seat_type: type) -> None:
    """None: the Python twin finds who was dealt in and sums the chips itself (``HandBuilder.finish``)."""
    return None


def holdings(seats: dict[str, Any], events: list[Any], held: dict[str, dict[int, tuple[int, ...]]],
             shown: dict[str, tuple[int, ...]], draws: int, hand_size: int,
             consts: tuple[object, ...]) -> None:
    """None: the Python twin derives the holdings itself (``HandBuilder._holdings``)."""
    return None


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
    low = [0] * reference.LOW_CLASS_COUNTS[GAMES[ace_high]]
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
                      progress: Progress | None = None) -> tuple[NDArray, NDArray]:
    """As the C twin's: one :func:`draw_histograms` per discard mask; ``progress`` counts all 32 together."""
    import numpy as np

    need = sum(comb(5, k) * comb(len(unseen), k) for k in range(6))
    done = 0
    lows, bds = [], []
    for mask in range(32):
        kept = tuple(c for i, c in enumerate(hand) if not mask >> i & 1)
        k = 5 - len(kept)
        sub = None if progress is None else (lambda n, _total, base=done: progress(base + n, need))
        low, bd = draw_histograms(kept, unseen, k, ace_high, sub)
        lows.append(low)
        bds.append(bd)
        done += comb(len(unseen), k)
    return np.array(lows, dtype=np.int64), np.array(bds, dtype=np.int64)


# --------------------------------------------------------------------------------------------------
# Vector paths: C only.


def simd_level() -> int:
    """-1: the Python twin has no vector paths (the C twin's levels are 0..2)."""
    return -1


def eval_many_level(cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
                    out_badugi: NDArray, level: int) -> int:
    """Not available: the vector paths are the C kernel's (``simd_level()`` is -1 here)."""
    raise NotImplementedError("eval_many_level: the Python twin has no vector paths; use the C twin")


# --------------------------------------------------------------------------------------------------
# Observation vectors of the learning environments (csrc/observe.h): the same checks and the same
# arithmetic, step by step (chips times 1.0 / unit in double, rounded once to float32 when stored).

OBS_SIZE, OBS_HEAD, OBS_ROW_MAX, OBS_BAD_ARGS, OBS_CHIPS_MAX = 223, 12, 65, -2, 1 << 53
_SLOTS, _SEATS, _POS, _PHASE, _STREET, _MONEY, _NBETS, _PER_SEAT = 52, 137, 142, 148, 150, 154, 157, 163
_INT64 = (-(1 << 63), (1 << 63) - 1)


def _obs_row_len(rows: list[int], pos: int, end: int) -> int:
    """The length of the row at ``rows[pos:]`` (``end`` = the ints available), or -1 if it is bad."""
    if end - pos < OBS_HEAD:
        return -1
    n, seat, button, phase, street, to_act, level, nbets, bet_size, unit, d, k = rows[pos:pos + OBS_HEAD]
    big = OBS_CHIPS_MAX
    if not (2 <= n <= 6 and 0 <= seat < n and 0 <= button < n and 0 <= phase <= 2 and 0 <= street <= 3
            and -1 <= to_act < n and 0 <= level <= big and 0 <= nbets <= big and 0 <= bet_size <= big
            and 1 <= unit <= big and 0 <= d <= 3 and 0 <= k <= 5):
        return -1
    length = OBS_HEAD + (5 + d) * n + k
    if length > end - pos:
        return -1
    b = pos + OBS_HEAD
    if not all(0 <= x <= big for x in rows[b:b + 3 * n]) or not all(x in (0, 1) for x in rows[b + 3 * n:b + 5 * n]):
        return -1
    if not all(-1 <= x <= 5 for x in rows[b + 5 * n:b + (5 + d) * n]):
        return -1
    cards = rows[b + (5 + d) * n:pos + length]
    if not all(0 <= c <= 51 for c in cards) or len(set(cards)) != len(cards):
        return -1
    return length


def _obs_fill(rows: list[int], pos: int, v: NDArray) -> None:
    """The vector of the checked row at ``rows[pos:]`` into ``v`` (a float32 array of OBS_SIZE)."""
    n, seat, button, phase, street, to_act, level, nbets, bet_size, unit, d, k = rows[pos:pos + OBS_HEAD]
    inv = 1.0 / unit
    b = pos + OBS_HEAD
    stacks, sbet, contrib = rows[b:b + n], rows[b + n:b + 2 * n], rows[b + 2 * n:b + 3 * n]
    folded, pending = rows[b + 3 * n:b + 4 * n], rows[b + 4 * n:b + 5 * n]
    draws = [rows[b + (5 + t) * n:b + (6 + t) * n] for t in range(d)]
    v[:] = 0.0
    for slot, c in enumerate(sorted(rows[b + (5 + d) * n:b + (5 + d) * n + k])):
        v[c] = v[_SLOTS + 17 * slot + c // 4] = v[_SLOTS + 17 * slot + 13 + c % 4] = 1.0
    v[_SEATS + n - 2] = 1.0
    v[_POS + (seat - button) % n] = 1.0
    if phase == 0:
        v[_PHASE] = 1.0
        if seat == to_act:
            lv, st = level - sbet[seat], stacks[seat]
            v[_MONEY] = (lv if lv < st else st) * inv
        v[_NBETS + (nbets if nbets < 5 else 5)] = 1.0
    else:
        if phase == 1:
            v[_PHASE + 1] = 1.0
        v[_NBETS] = 1.0
    v[_STREET + street] = 1.0
    v[_MONEY + 1] = sum(contrib) * inv
    v[_MONEY + 2] = bet_size * inv
    p = _PER_SEAT
    for r in range(n):
        j = (seat + r) % n
        st = stacks[j]
        v[p] = 1.0
        if folded[j]:
            v[p + 1] = 1.0
        elif st == 0:
            v[p + 2] = 1.0
        v[p + 3], v[p + 4], v[p + 5] = st * inv, sbet[j] * inv, contrib[j] * inv
        for t in range(d):
            v[p + 6 + t] = (draws[t][j] + 1) * 0.16666667
        if phase == 0 and pending[j]:
            v[p + 9] = 1.0
        p += 10


def observe_many(rows: Iterable[int], count: int, out: NDArray) -> int:
    """As the C twin's (csrc/observe.h ``bd_observe_many``): the observation vectors of ``count`` rows
    packed in ``rows`` (a sequence of ints) into the float32 array ``out`` (C-contiguous, at least
    ``count * 223`` values, row i at ``out.flat[i * 223]``).  Returns -1, the first bad row (the rows
    before it written), or -2 for bad arguments.  Ints outside int64 raise ``OverflowError`` (as the C
    twin's conversion does)."""
    try:  # numpy is not imported at ``import badacey_fast``: duck-typed, as the C twin's buffer check
        ok = out.dtype.char == "f" and out.flags.c_contiguous and out.flags.writeable
    except AttributeError:
        ok = False
    if not ok:
        raise TypeError(f"out must be a writable C-contiguous float32 array, not {type(out).__name__}")
    ints = [index(x) for x in rows]  # TypeError for a non-integer, as the C twin's conversion
    lo, hi = _INT64
    for x in ints:
        if not lo <= x <= hi:
            raise OverflowError(f"observation row value {x} does not fit an int64")
    flat = out.reshape(-1)
    if count < 0 or count > flat.size // OBS_SIZE:
        return OBS_BAD_ARGS
    pos, end = 0, len(ints)
    for i in range(count):
        length = _obs_row_len(ints, pos, end)
        if length < 0:
            return i
        _obs_fill(ints, pos, flat[i * OBS_SIZE:(i + 1) * OBS_SIZE])
        pos += length
    return -1 if pos == end else OBS_BAD_ARGS


#: ``observe_many`` itself, what :func:`badacey_fast.kernel.row_encoder` hands out on this twin (the C
#: twin's takes a list only; this one any sequence).
observe_list = observe_many


def seat_encoder(cls: type, fields: tuple[object, ...], betting: str, drawing: str) -> None:
    """None: the Python twin has no encoder reading a game's slots (the environments build the row with
    ``obs_row`` and encode it with :func:`observe_many`, which is what the C twin's encoder does at once)."""
    return None
