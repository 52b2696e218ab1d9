"""The one seam to C: feature modules call ``kernel.<function>`` and never ask which backend serves.

Two twins export the same functions with the same signatures: ``_c`` (the cffi kernel ``_kernel`` and
the single-hand call ``_speedups``; the only importer of either, and the only place a ``lib.bd_*`` call
is made) and ``_py`` (the reference rules, numpy for batches).  The functions below dispatch at call
time to the active twin, so ``with kernel.using("python"):`` switches every feature module at once:

- single hands: ``evaluate5``, ``low_rank5``, ``badugi_rank``; ``single[ace_high]``, evaluate()'s fast
  path (a C call returning the cached Value, or None on the Python twin);
- batches over numpy arrays: ``eval_many``, ``badugi_rank_many``, ``all_entries``, ``showdown_many``,
  ``showdown_columns`` (its chips as payout columns; ``threads`` splitting lives in :mod:`.threads`),
  ``split_many`` (the one split of RULES.md §3 over rows of pots whose winners are known);
- draws: ``draw_histograms``, ``draw_all_discards``;
- deal files: ``parse_deals`` (None on the Python twin: no fast parser), ``format_results``;
- hand histories: ``read_stars``, ``read_tilt``, ``read_kings`` (a PokerStars, Full Tilt or KingsClub
  hand's lines; None on the Python twin, and from C for any hand it leaves to the Python reader), ``stars_first_line`` and
  ``stars_table_line`` (a PokerStars hand's first two lines; None on the Python twin), ``xml_attributes``
  (an XML room's line; None on the Python twin), ``hand_starts`` and
  ``split_lines`` (a text's hands and a hand's lines; None on the Python twin), ``dealt_and_paid`` and
  ``holdings`` (a finished hand's players dealt in, chips and cards per street, any room; None on the
  Python twin and wherever the Python derivation adds a note);
- vector paths (C only): ``simd_level`` (-1 on the Python twin), ``eval_many_level``;
- observation vectors of the learning environments (:mod:`badacey_fast.envs`): ``observe_many``,
  ``row_encoder``, ``seat_encoder`` (C only: None on the Python twin);
- ``memo(key, compute)``: a value computed by the active twin, kept per twin (whole-deck rank tables
  that a feature module derives from the twin's answers, so each twin's tests see that twin's answers).

``name`` is the active twin's name (``"c"`` or ``"python"``), for reporting only; the policy
(``ENV_VAR`` = ``BADACEY_FAST_BACKEND``: auto, c, python), :func:`load` and :func:`using` are in
:mod:`.backend`.
"""

from __future__ import annotations


from badacey_fast.kernel import backend as _backend
from badacey_fast.kernel.backend import ENV_VAR, POLICIES, load, using

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (docs/import.md); mypy reads it alike
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Iterable
    from types import ModuleType
    from typing import Any, TypeVar, cast

    from badacey_fast.kernel._c import EngineTables as EngineTables  # engine_tables() returns the class
    from badacey_fast.kernel._c import Simulator as Simulator  # simulator() returns the class
    from badacey_fast.kernel._c import SolverCore as SolverCore  # solver() returns the class
    from badacey_fast.kernel._c import CompactCore as CompactCore  # compact_solver() returns the class
    from badacey_fast.kernel.twin import NDArray, Progress, Single

    _T = TypeVar("_T")
else:
    def cast(_type: object, value: object) -> object:
        """typing.cast, without importing typing."""
        return value

__all__ = ["ENV_VAR", "POLICIES", "load", "using", "name", "single", "evaluate5", "low_rank5", "badugi_rank",
           "eval_many", "badugi_rank_many", "all_entries", "showdown_many", "showdown_columns", "split_many", "draw_histograms",
           "draw_all_discards", "parse_deals", "read_stars", "read_tilt", "read_kings", "stars_first_line", "stars_table_line", "xml_attributes", "hand_starts", "split_lines", "dealt_and_paid", "holdings", "format_results", "simd_level", "eval_many_level", "observe_many",
           "row_encoder", "seat_encoder", "SEAT_NOT_SERVED", "OBS_SIZE", "OBS_CHIPS_MAX", "memo", "engine_tables", "simulator", "solver", "play"]

# ``name`` and ``single`` are plain attributes (one dict lookup on evaluate()'s hot path), set here and
# re-set by backend.using() on every switch, so reading them is always live.
name: str = _backend.name
single: Single = _backend.single

# The dispatch: each reads the active twin (backend.impl) when called, so using() and tests that patch
# backend.impl reach every caller.  Signatures and contracts: see _c.py (the Python twin's are the same).


def evaluate5(cards: tuple[int, ...], ace_high: bool) -> tuple[int, int]:
    """(low rank, badugi rank) of five validated cards (distinct ints 0..51); lower is better."""
    return _backend.impl.evaluate5(cards, ace_high)


def low_rank5(cards: tuple[int, ...], ace_high: bool) -> int:
    """Low rank of five validated cards (A-5, or 2-7 when ``ace_high``)."""
    return _backend.impl.low_rank5(cards, ace_high)


def badugi_rank(cards: tuple[int, ...], ace_high: bool) -> int:
    """Badugi rank (1..1092) of 1 to 5 validated cards."""
    return _backend.impl.badugi_rank(cards, ace_high)


def eval_many(cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
              out_badugi: NDArray, threads: int = 1) -> int:
    """Ranks of an (N, 5) uint8 array into two uint16 arrays; the first bad row (when ``check``) or -1."""
    return _backend.impl.eval_many(cards, ace_high, check, out_low, out_badugi, threads)


def badugi_rank_many(cards: NDArray, ace_high: bool, check: bool, out: NDArray,
                     threads: int = 1) -> int:
    """Badugi ranks of an (N, k) uint8 array into a uint16 array; the first bad row (when ``check``) or -1."""
    return _backend.impl.badugi_rank_many(cards, ace_high, check, out, threads)


def all_entries(ace_high: bool) -> NDArray:
    """Packed ``low | badugi << 16`` uint32 entries of every hand in colex order."""
    return _backend.impl.all_entries(ace_high)


def showdown_many(hands: NDArray, live: NDArray | None, ace_high: bool,
                  pots: NDArray | None, buttons: NDArray | None, odd_low: bool,
                  shares: NDArray | None, chips: NDArray | None,
                  low: NDArray | None, badugi: NDArray | None,
                  status: NDArray | None = None) -> tuple[int, int]:
    """Settle N showdowns into the given arrays; ``(first bad row, code)`` or ``(-1, 0)`` (see ``_c.py``)."""
    return _backend.impl.showdown_many(hands, live, ace_high, pots, buttons, odd_low, shares, chips, low, badugi,
                                       status)


def showdown_columns(hands: NDArray, live: NDArray | None, ace_high: bool, pots: NDArray, buttons: NDArray,
                     odd_low: bool, chips: NDArray, low_bits: NDArray | None, badugi_bits: NDArray | None,
                     status: NDArray | None = None) -> tuple[int, int]:
    """``showdown_many``'s chips into (P, N) seat columns and its winners into (N,) seat bitmasks."""
    return _backend.impl.showdown_columns(hands, live, ace_high, pots, buttons, odd_low, chips, low_bits,
                                          badugi_bits, status)


def split_many(pots: NDArray, buttons: NDArray, low_bits: NDArray | None, badugi_bits: NDArray | None,
               odd_low: bool, chips: NDArray, columns: bool) -> int:
    """Pay N pots whose winners are known (csrc/showdown.h ``bd_split_many``): -1, or the first bad row."""
    return _backend.impl.split_many(pots, buttons, low_bits, badugi_bits, odd_low, chips, columns)


def draw_histograms(kept: tuple[int, ...], unseen: tuple[int, ...], k: int, ace_high: bool,
                    progress: Progress | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(low, badugi) rank histograms over every ``k``-card replacement set from ``unseen``."""
    return _backend.impl.draw_histograms(kept, unseen, k, ace_high, progress)


def draw_all_discards(hand: tuple[int, ...], unseen: tuple[int, ...], ace_high: bool,
                      progress: Progress | None = None) -> tuple[NDArray, NDArray]:
    """:func:`draw_histograms` of all 32 discards of a five-card hand: int64 arrays (32, low ranks) and
    (32, badugi ranks), row = discard mask (bit ``i`` = ``hand[i]`` thrown), column = rank - 1."""
    return _backend.impl.draw_all_discards(hand, unseen, ace_high, progress)


def parse_deals(block: bytes, pos: int, seats: int, csv: bool, columns: NDArray | None, ncolumns: int,
                max_rows: int, hands: NDArray, live: NDArray, pot: NDArray,
                button: NDArray, flags: NDArray, start: NDArray,
                length: NDArray) -> tuple[int, int] | None:
    """Deal-file lines into row arrays: ``(lines scanned, bytes consumed)``, or None (no fast parser)."""
    return _backend.impl.parse_deals(block, pos, seats, csv, columns, ncolumns, max_rows, hands, live, pot, button,
                                     flags, start, length)


def read_stars(lines: list[str], i: int, start: int, scale: int, draws: int, hand_size: int,
               consts: tuple[object, ...]) -> tuple[Any, ...] | None:
    """A PokerStars hand's lines from its seats (``lines[i]``) on, read in C (csrc/cpython/stars.c): the
    hand builder's fields as a tuple (the last item None: the button is the table line's), or None where the Python reader
    (:func:`badacey_fast.histories.sites.pokerstars._play`) reads the hand (always on the Python twin)."""
    return _backend.impl.read_stars(lines, i, start, scale, draws, hand_size, consts)


def read_tilt(lines: list[str], i: int, start: int, scale: int, draws: int, hand_size: int,
              consts: tuple[object, ...]) -> tuple[Any, ...] | None:
    """:func:`read_stars` for a Full Tilt hand (the seats from ``lines[i]``; the Python reader:
    :func:`badacey_fast.histories.sites.fulltilt._play`); the tuple ends with the button's seat (or None)."""
    return _backend.impl.read_tilt(lines, i, start, scale, draws, hand_size, consts)


def read_kings(lines: list[str], i: int, start: int, scale: int, draws: int, hand_size: int,
               consts: tuple[object, ...]) -> tuple[Any, ...] | None:
    """A KingsClub hand's seats (``lines[i]`` on) and play up to its summary, in C (csrc/cpython/stars.c):
    :func:`read_stars`'s tuple, then the builder's street, drawing and round bets and the index of the line
    after ``*** SUMMARY ***``; or None where the Python reader (``kingsclub.parse``) reads the hand."""
    return _backend.impl.read_kings(lines, i, start, scale, draws, hand_size, consts)


def stars_first_line(line: str) -> tuple[str | None, ...] | None:
    """A PokerStars first line's groups as ``pokerstars._HEADER.match(line)`` gives them (id, tour, buyin,
    game, level, lvl, date, tz, date2, tz2), read in C (csrc/cpython/stars_head.c); None where the
    expression reads the line (always on the Python twin)."""
    return _backend.impl.stars_first_line(line)


def stars_table_line(line: str) -> tuple[str, int | None, int | None] | None:
    """A PokerStars table line's (table, max seats, button seat) as ``pokerstars._TABLE`` reads them, in C
    (csrc/cpython/stars_head.c); None where the expression reads the line (always on the Python twin)."""
    return _backend.impl.stars_table_line(line)


def xml_attributes(line: str) -> dict[str, str] | None:
    """An ASCII line's ``dict(re.findall(r'(\\w+)="([^"]*)"', line))`` (the XML rooms' attributes), in C
    (csrc/cpython/lines.c); None for any other line and on the Python twin (the expression reads it)."""
    return _backend.impl.xml_attributes(line)


def hand_starts(text: str, prefixes: tuple[str, ...]) -> list[int] | None:
    """The offsets of the line breaks in ``text`` that one of ``prefixes`` follows, in order, in C
    (csrc/cpython/lines.c); None on the Python twin (the reader's own scan, ``reader._firsts``)."""
    return _backend.impl.hand_starts(text, prefixes)


def split_lines(chunk: str) -> list[str] | None:
    """``chunk.split("\\n")``, every line ``rstrip()``-ed when the chunk has trailing blanks anywhere, in C
    (csrc/cpython/lines.c); None on the Python twin (``reader._lines``)."""
    return _backend.impl.split_lines(chunk)


def dealt_and_paid(seats: dict[str, Any], events: list[Any], held: dict[str, dict[int, tuple[int, ...]]],
                   behind: dict[str, int], collected: dict[str, int], seat_type: type) -> tuple[int, int] | None:
    """A complete hand's players dealt in (every player who acts or holds a card known; ``seats`` fixed in
    place) and ``(chips put in, chips paid out)``, in C (csrc/cpython/finish.c); or None, nothing changed,
    where the Python twin (``HandBuilder.finish``) decides (always on the Python twin)."""
    return _backend.impl.dealt_and_paid(seats, events, held, behind, collected, seat_type)


def holdings(seats: dict[str, Any], events: list[Any], held: dict[str, dict[int, tuple[int, ...]]],
             shown: dict[str, tuple[int, ...]], draws: int, hand_size: int,
             consts: tuple[object, ...]) -> dict[str, list[tuple[int, ...] | None]] | None:
    """A finished hand's holdings derived in C (csrc/cpython/finish.c): ``{name: [cards or None] * (draws
    + 1)}`` for every dealt player, the draws whose cards follow given them in ``events``; or None where the
    Python twin (``HandBuilder._holdings``) decides (always on the Python twin, and for any hand it would
    add a note to)."""
    return _backend.impl.holdings(seats, events, held, shown, draws, hand_size, consts)


def format_results(line: NDArray, chips: NDArray, low: NDArray,
                   badugi: NDArray, keep: NDArray | None, out: bytearray) -> int:
    """Payout CSV rows of the kept rows into ``out``: the bytes written, or -1 if ``out`` is too small."""
    return _backend.impl.format_results(line, chips, low, badugi, keep, out)


def simd_level() -> int:
    """The best vector path of this CPU (0 scalar, 1 AVX2, 2 AVX-512 VBMI); -1 on the Python twin."""
    return _backend.impl.simd_level()


def eval_many_level(cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
                    out_badugi: NDArray, level: int) -> int:
    """:func:`eval_many` on one vector path only (benchmarks, tests); C only."""
    return _backend.impl.eval_many_level(cards, ace_high, check, out_low, out_badugi, level)


#: Length of one observation vector (csrc/observe.h ``BD_OBS_SIZE``; layout in badacey_fast/envs/encoding.py).
OBS_SIZE = 223
#: The largest chip value an observation row may hold (csrc/observe.h ``BD_OBS_CHIPS_MAX``, 2**53: exact in
#: a double); both twins refuse a row with more.
OBS_CHIPS_MAX = 1 << 53


def observe_many(rows: Iterable[int], count: int, out: NDArray) -> int:
    """Observation vectors of ``count`` seats' views packed as int rows (csrc/observe.h) into ``out``.

    ``rows``: ints (best a list), the rows one after another (each: 12 header values, the per-seat values,
    the discard counts, the own cards; see csrc/observe.h).  ``out``: a C-contiguous float32 array of at
    least ``count * OBS_SIZE`` values; row i's vector goes to ``out.flat[i * OBS_SIZE:]``.  Returns -1
    when all is well, else the first bad row (a field out of range; the rows before it are written), or
    -2 for bad arguments (``out`` too small, ints left over after the last row).  A non-integer raises
    ``TypeError``, an int outside int64 ``OverflowError``, a wrong ``out`` ``TypeError``.

    >>> import numpy as np
    >>> out = np.empty((1, OBS_SIZE), np.float32)
    >>> row = [2, 0, 0, 0, 0, 0, 2, 1, 2, 2, 0, 2, 99, 98, 1, 2, 1, 2, 0, 0, 1, 1, 51, 0]
    >>> observe_many(row, 1, out), np.flatnonzero(out[0, :52]).tolist(), float(out[0, 155])  # pot 1.5 bb
    (-1, [0, 51], 1.5)
    >>> observe_many(row[:-1], 1, out)   # the row says 2 cards, only 1 is there: row 0 is bad
    0
    """
    return _backend.impl.observe_many(rows, count, out)  # each twin checks ``out`` (C: in the glue)


def row_encoder() -> Callable[[list[int], int, NDArray], int]:
    """The serving twin's :func:`observe_many` for rows given as a list, as a plain callable to keep: on the
    C twin the compiled call itself, with no Python call in front (an environment that encodes a row at
    every turn binds it once per hand; the dispatch's two calls were a third of an observation's cost).
    A later :func:`using` is seen by the next call of this function, not by a callable already handed out
    (both twins write the same floats).

    >>> import numpy as np
    >>> out = np.empty(OBS_SIZE, np.float32)
    >>> row = [2, 0, 0, 0, 0, 0, 2, 1, 2, 2, 0, 2, 99, 98, 1, 2, 1, 2, 0, 0, 1, 1, 51, 0]
    >>> encode = row_encoder()
    >>> encode(row, 1, out), float(out[155])     # pot 1.5 big blinds
    (-1, 1.5)
    >>> encode(row, 1, np.empty(OBS_SIZE, np.float64))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: out must be a writable C-contiguous float32 array, not ...
    """
    return _backend.impl.observe_list


#: What a :func:`seat_encoder` returns for a game it does not read (its caller then takes the plain path).
SEAT_NOT_SERVED = -3


def seat_encoder(cls: type, fields: tuple[object, ...], betting: str, drawing: str
                 ) -> Callable[[object, int, int, NDArray], int] | None:
    """On the C twin, ``encoder(game, seat, unit, out)``: one observation vector (:func:`observe_many`) of a
    row read straight from the slots of ``game`` (exactly of type ``cls``; ``fields`` its member
    descriptors in the order of ``csrc/cpython/speedups.c`` ``SeatRows``, the phase values ``betting``
    and ``drawing``), with no row list built in Python; it returns -1, the bad row (0), or
    :data:`SEAT_NOT_SERVED` (``out`` untouched) for a game it does not read.  None on the Python twin.
    For :func:`badacey_fast.envs.encoding.seat_encoder`, which knows the game's fields; the same floats as
    ``observe_many`` of that row.  ``ValueError`` when ``fields`` are not object slots of ``cls``.

    >>> class Hand:
    ...     __slots__ = ("n",)
    >>> try:
    ...     encoder = seat_encoder(Hand, (Hand.n,), "betting", "drawing")
    ... except ValueError as refused:    # the C twin: 15 fields, not 1 (the Python twin: None)
    ...     encoder = str(refused)
    >>> encoder in (None, "fields must be 15 member descriptors, not 1")
    True
    """
    return _backend.impl.seat_encoder(cls, fields, betting, drawing)


def engine_tables() -> type[EngineTables] | None:
    """The C twin of the hand loop (``csrc/engine.c``: :class:`badacey_fast.kernel._c.EngineTables`) when
    the C twin is active, else None (its Python twin is the rules engine, :mod:`badacey_fast.game`).

    >>> engine_tables() is None or engine_tables().__name__ == "EngineTables"
    True
    """
    if _backend.impl.NAME != "c":
        return None
    from badacey_fast.kernel._c import EngineTables as tables

    return tables


def simulator() -> type[Simulator] | None:
    """The C hand loop played by the built-in bots (``csrc/simulate.c``, ``csrc/bots.c``:
    :class:`badacey_fast.kernel._c.Simulator`) when the C twin is active, else None (its Python twin is
    :func:`badacey_fast.game.simulate` with :mod:`badacey_fast.game.bots`).

    >>> simulator() is None or simulator().__name__ == "Simulator"
    True
    """
    if _backend.impl.NAME != "c":
        return None
    from badacey_fast.kernel._c import Simulator as sim

    return sim


def solver() -> type[SolverCore] | None:
    """The C core of the exact solver (``csrc/solve.c``: :class:`badacey_fast.kernel._c.SolverCore`) when
    the C twin is active, else None (its Python twin is numpy code in :mod:`badacey_fast.solve`, a layer
    above this one).

    >>> solver() is None or solver().__name__ == "SolverCore"
    True
    """
    if _backend.impl.NAME != "c":
        return None
    from badacey_fast.kernel._c import SolverCore as core

    return core


def compact_solver() -> type[CompactCore] | None:
    """The compact exact path of ``csrc/solve.c`` (:class:`badacey_fast.kernel._c.CompactCore`: states
    merged by hand and dead cards, and by suit) when the C twin is active, else None (C only: it exists for
    the games too large for the numpy twin's full layers).

    >>> compact_solver() is None or compact_solver().__name__ == "CompactCore"
    True
    """
    if _backend.impl.NAME != "c":
        return None
    from badacey_fast.kernel._c import CompactCore as core

    return core


def play() -> ModuleType | None:
    """The C core of full-size play (``csrc/lbr.c``: the C twin's ``MCStore``, ``Abstraction``,
    ``bot_policy``, ``keep_mask``, ``draw_mask``, ``info_key``, ``lbr_run``, ``mccfr_run``) when the C twin
    is active, else None: local best response and MCCFR run on the C hand loop only (small games have the
    exact solver on both twins).

    >>> play() is None or callable(play().lbr_run)
    True
    """
    if _backend.impl.NAME != "c":
        return None
    from badacey_fast.kernel import _c as core

    return core


_MEMO: dict[str, dict[Hashable, object]] = {}


def memo(key: Hashable, compute: Callable[[], _T]) -> _T:
    """``compute()`` for the active twin, once per twin and ``key`` (later calls return the same object).

    For tables a feature module builds from the twin's answers (e.g. the ranks of every hand): kept per
    twin, so a switch with :func:`using` never serves one twin's table to the other's callers.
    """
    cache = _MEMO.setdefault(_backend.impl.NAME, {})
    found = cache.get(key)
    if found is None:
        found = cache[key] = compute()
    return cast("_T", found)  # each key is always given the same compute (one table): its type
