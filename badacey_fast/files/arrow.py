"""Deal datasets in Apache Arrow / Parquet: the columnar twin of the text deal files, scored in bulk.

**Deal schema** (version 1, written in the schema metadata under ``badacey_fast``):

=========  ==========================  ======================================================================
column     type                        meaning
=========  ==========================  ======================================================================
``cards``  ``fixed_size_binary(5·P)``  card ids 0..51 (``4*rank + suit``), five per seat, seat 0 first
                                       (clockwise); P = 2..6 seats.  Readers also take plain ``binary`` /
                                       ``large_binary`` (what Spark writes for fixed-size binary) and
                                       ``fixed_size_list<uint8>``.
``pot``    ``int64``                   chips (>= 0); any integer type is read, plain or dictionary-encoded.
                                       Null or absent: ``pot=`` (default 120, as the text path)
``button`` ``uint8``                   the button seat 0..P-1; any integer type (so too ``live``).  Null or
                                       absent: ``button=``
``live``   ``uint8`` (optional)        bit i set = seat i live (a folded seat's cards are ignored);
                                       absent or null = every seat live
``id``     any (optional)              passed through to the output
=========  ==========================  ======================================================================

**Payout schema** (what :func:`score_table` / :func:`score_parquet` write, and every payout file of
``badacey score``, whatever the input's format): ``id`` (the input's ``id`` column) or ``row`` (where
the deal is in the input: its 1-based row, or its line number in a text or CSV deal file, int64),
``payout_0 .. payout_{P-1}`` (int64 chips, odd chips by the ``odd_chip`` policy, RULES.md §3),
``low_winners`` and ``badugi_winners`` (uint8 bitmasks: bit i = seat i won that half; lower rank is
better; a lone live seat wins both halves).  Payouts written as CSV have the same columns, the winners as
seat numbers separated by spaces (``0 1``), as the text path writes them.

**Bad rows** (a card id outside 0..51, a card held twice, no live seat, a negative pot, a button that is
not a seat, a null or wrong-length ``cards`` value) raise the text path's errors with ``row N`` where the
text path says ``line N``: N counts the data rows of the file from 1 (the first row is row 1, as the first
line is line 1).  The first bad row stops the run: an output path then keeps its old file (outputs are
written whole or not at all, :mod:`badacey_fast.files.outputs`), an output stream the good rows before
it; ``skip_bad=True`` counts and skips them (the first 100 kept in the
:class:`~badacey_fast.files.score.ScoreReport`), nothing is dropped silently.

Files are streamed by record batch (Parquet: row group by row group; Arrow IPC: memory-mapped), so memory
stays flat in the file size (bounded by the row group size: 1 Mi rows in files written here).  A file
that is not readable Parquet or Arrow (damaged, truncated, another format) raises a
:class:`~badacey_fast.errors.BadaceyError` naming it, wherever the damage is found.

pyarrow is an optional dependency: ``pip install "badacey_fast[parquet]"``.

>>> import numpy as np
>>> from badacey_fast.cards import parse_cards
>>> cards = np.array([[parse_cards("As2h3d4c5s"), parse_cards("2c3h4d5c6s")],
...                   [parse_cards("As2h3d4cKc"), parse_cards("Ac2d3h4s5s")]], dtype=np.uint8)
>>> t = deals_table(cards, pot=[120, 101], button=[0, 1])
>>> t.schema.field("cards").type
FixedSizeBinaryType(fixed_size_binary[10])
>>> score_table(t).to_pylist()[1]
{'row': 2, 'payout_0': 26, 'payout_1': 75, 'low_winners': 2, 'badugi_winners': 3}
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np

from badacey_fast.bulk import showdown as scoring
from badacey_fast.cards import format_card
from badacey_fast.errors import BadaceyError, DuplicateCardError, FileFormatError, InvalidCardError, MissingExtraError, ShowdownError
from badacey_fast.files.score import DEFAULT_POT, ScoreReport, chip_totals
from badacey_fast.files.outputs import AtomicFile, check_not_input
from badacey_fast.rules.games import is_ace_high
from badacey_fast.rules.odd_chips import check_odd_chip

if TYPE_CHECKING:  # pyarrow is imported on first use (the [parquet] extra); typed by pyarrow-stubs
    import pyarrow as pa
    from pyarrow.csv import CSVWriter
    from pyarrow.ipc import RecordBatchFileWriter
    from pyarrow.parquet import ParquetFile, ParquetWriter

__all__ = ["SCHEMA_VERSION", "METADATA_KEY", "deal_schema", "deals_table", "score_table", "ScoreRun", "PayoutWriter",
           "payout_schema", "payout_batch",
           "score_parquet", "generate_parquet", "file_format", "require_pyarrow", "open_parquet", "deal_layout"]

#: Version of the deal / payout schemas, written in the schema metadata.
SCHEMA_VERSION = 1
#: Schema metadata key holding ``{"schema": "deals"|"payouts", "version": 1, "seats": P}`` (JSON).
METADATA_KEY = b"badacey_fast"
#: Rows per row group in deal files written here: ~30 MB of 6-seat cards.
ROW_GROUP = 1 << 20
#: Rows per record batch scored (and per row group of the payout files): big enough that per-batch Python
#: costs nothing (~30 ms of kernel work a batch), small enough that the few batches in flight between
#: the reader, kernel and writer threads hold ~60 MB.
BATCH_ROWS = 1 << 18
_MAX_ERRORS_KEPT = 100
_EXPECTED = "fixed_size_binary(5*P) (or binary, fixed_size_list<uint8>) with P = 2..6 seats"


def require_pyarrow() -> ModuleType:
    """``pyarrow``, or a :class:`~badacey_fast.errors.MissingExtraError` (an ImportError) in one line naming
    the extra that installs it.  (Typed code here imports ``pyarrow as pa`` after calling this, so that
    pyarrow-stubs types what it makes.)"""
    try:
        import pyarrow
    except ImportError:
        raise MissingExtraError('Parquet/Arrow support needs pyarrow: pip install "badacey_fast[parquet]"',
                                "parquet") from None
    return pyarrow


def payout_schema(seats: int, id_type: pa.DataType | None = None) -> pa.Schema:
    """The payout schema of ``seats`` seats (see the module docstring): ``id`` of ``id_type``, or ``row``.

    >>> payout_schema(2).names
    ['row', 'payout_0', 'payout_1', 'low_winners', 'badugi_winners']
    """
    require_pyarrow()
    import pyarrow as pa

    fields: list[pa.Field[Any]] = [pa.field("id", id_type) if id_type is not None
                                   else pa.field("row", pa.int64(), nullable=False)]
    fields += [pa.field(f"payout_{s}", pa.int64(), nullable=False) for s in range(seats)]
    fields += [pa.field("low_winners", pa.uint8(), nullable=False),
               pa.field("badugi_winners", pa.uint8(), nullable=False)]
    return pa.schema(fields, metadata=_metadata("payouts", seats))


def payout_batch(rows: Any, chips: Any, low: Any, badugi: Any) -> pa.RecordBatch:
    """One payout batch of the payout schema from row arrays: ``rows`` (N,) the deals' row (or line)
    numbers, ``chips`` (N, P) int64, ``low`` / ``badugi`` (N, P) the winners of each half (bool or 0/1).

    >>> payout_batch([3], [[26, 75]], [[0, 1]], [[1, 1]]).to_pylist()
    [{'row': 3, 'payout_0': 26, 'payout_1': 75, 'low_winners': 2, 'badugi_winners': 3}]
    """
    require_pyarrow()
    import pyarrow as pa

    chips = np.asarray(chips, dtype=np.int64)
    seats = chips.shape[1]
    weights = (1 << np.arange(seats)).astype(np.uint8)  # bit i = seat i

    def mask(won: Any) -> np.ndarray[Any, Any]:
        return (np.asarray(won).astype(bool) @ weights.astype(np.int64)).astype(np.uint8)

    cols = [pa.array(np.asarray(rows, dtype=np.int64)), *(pa.array(chips[:, s]) for s in range(seats)),
            pa.array(mask(low)), pa.array(mask(badugi))]
    return pa.RecordBatch.from_arrays(cols, schema=payout_schema(seats))


#: Each winner bitmask of up to 6 seats as the CSV writes it: the seat numbers separated by spaces.
_SEAT_LISTS = np.array([" ".join(str(s) for s in range(6) if m >> s & 1) for m in range(64)], dtype=object)


def _csv_batch(batch: pa.RecordBatch) -> pa.RecordBatch:
    """A payout batch as CSV writes it: the winner bitmasks as seat lists (``0 1``), as the text path."""
    import pyarrow as pa

    cols = list(batch.columns)
    for name in ("low_winners", "badugi_winners"):
        i = batch.schema.get_field_index(name)
        cols[i] = pa.array(_SEAT_LISTS[cols[i].to_numpy(zero_copy_only=False) & 63], type=pa.string())
    names = batch.schema.names
    return pa.RecordBatch.from_arrays(cols, names=names)


def file_format(path: object, fmt: str | None = None) -> str:
    """The deal-file format of ``path``: ``fmt`` when given, else from the extension ("parquet" for
    .parquet/.pq or a directory, "arrow" for .arrow/.feather/.ipc, "csv" for .csv, else "text").

    >>> file_format("deals.parquet"), file_format("x.arrow"), file_format("a.csv"), file_format("a.txt")
    ('parquet', 'arrow', 'csv', 'text')
    """
    if fmt not in (None, "auto"):
        if fmt not in ("text", "csv", "parquet", "arrow"):
            raise FileFormatError(f"unknown format {fmt!r}: expected text, csv, parquet or arrow")
        return fmt
    name = os.fspath(path).lower() if isinstance(path, (str, os.PathLike)) else ""
    if name.endswith((".parquet", ".pq")) or (name and os.path.isdir(name)):
        return "parquet"
    if name.endswith((".arrow", ".feather", ".ipc", ".arrows")):
        return "arrow"
    return "csv" if name.endswith(".csv") else "text"


def _metadata(kind: str, seats: int) -> dict[bytes | str, bytes | str]:
    return {METADATA_KEY: json.dumps({"schema": kind, "version": SCHEMA_VERSION, "seats": seats}).encode()}


def deal_schema(seats: int, *, live: bool = False, id_type: pa.DataType | None = None) -> pa.Schema:
    """The deal schema for ``seats`` seats (see the module docstring), with its metadata.

    >>> deal_schema(2, live=True).names
    ['cards', 'pot', 'button', 'live']
    """
    require_pyarrow()
    import pyarrow as pa

    if not scoring.MIN_SEATS <= seats <= scoring.MAX_SEATS:
        raise ShowdownError(f"{seats} seats: a showdown has 2 to 6 seats")
    fields: list[pa.Field[Any]] = [pa.field("cards", pa.binary(5 * seats), nullable=False),
                                   pa.field("pot", pa.int64()), pa.field("button", pa.uint8())]
    if live:
        fields.append(pa.field("live", pa.uint8()))
    if id_type is not None:
        fields.append(pa.field("id", id_type))
    return pa.schema(fields, metadata=_metadata("deals", seats))


def deals_table(cards: object, pot: object = DEFAULT_POT, button: object = 0, live: object = None,
                id: object = None) -> pa.Table:
    """A deal table from arrays: ``cards`` (N, P, 5) card ids, ``pot`` / ``button`` scalars or (N,),
    ``live`` an optional (N, P) bool mask (stored as a bitmask), ``id`` an optional (N,) column."""
    require_pyarrow()
    import pyarrow as pa

    arr = np.ascontiguousarray(np.asarray(cards), dtype=np.uint8)
    if arr.ndim != 3 or arr.shape[2] != 5:
        raise ShowdownError(f"cards must have shape (N, P, 5), got {arr.shape}")
    n, p = arr.shape[:2]
    schema = deal_schema(p, live=live is not None,
                         id_type=None if id is None else pa.array(np.asarray(id)[:0]).type)
    # Annotated: with numpy 2.2's stubs mypy joins these pyarrow overloads to object (Python 3.10 CI).
    cols: list[pa.Array[Any] | pa.ChunkedArray[Any]] = [pa.FixedSizeBinaryArray.from_buffers(pa.binary(5 * p), n, [None, pa.py_buffer(arr.data)]),
            pa.array(np.broadcast_to(np.asarray(pot, dtype=np.int64), (n,))),
            pa.array(np.broadcast_to(np.asarray(button), (n,)).astype(np.uint8))]
    if live is not None:
        mask = np.asarray(live, dtype=bool).reshape(n, p)
        cols.append(pa.array(np.packbits(mask, axis=1, bitorder="little")[:, 0]))
    if id is not None:
        cols.append(pa.array(np.asarray(id)))
    return pa.Table.from_arrays(cols, schema=schema)


# ------------------------------------------------------------------------------------------------------
# Reading: one record batch into numpy arrays, with every bad row named.


class _Deals:
    """One record batch as numpy: cards (n, P, 5) uint8, pot/button int64, live (n, P) bool or None,
    and ``bad``: {row index in the batch: error} for rows found bad while decoding."""

    def __init__(self, cards: np.ndarray[Any, Any], pot: np.ndarray[Any, Any], button: np.ndarray[Any, Any],
                 live: np.ndarray[Any, Any] | None, bad: dict[int, BadaceyError],
                 ids: pa.Array[Any] | None) -> None:
        self.cards, self.pot, self.button, self.live, self.bad, self.ids = cards, pot, button, live, bad, ids


def _seats_of_metadata(schema: pa.Schema) -> int | None:
    meta = (schema.metadata or {}).get(METADATA_KEY)
    if meta is None:
        return None
    try:
        info = json.loads(meta)
        version, seats = int(info.get("version", 1)), info.get("seats")
    except (ValueError, TypeError, AttributeError):
        raise ShowdownError(f"schema metadata {METADATA_KEY.decode()!r} is not valid JSON: {meta[:80]!r}") from None
    if version > SCHEMA_VERSION:
        raise ShowdownError(f"deal schema version {version} is newer than this badacey_fast reads "
                            f"(version {SCHEMA_VERSION}): upgrade badacey_fast")
    return int(seats) if isinstance(seats, int) else None


def _cards_type(schema: pa.Schema) -> tuple[str, int | None]:
    """The cards column's kind ("fixed", "binary", "list") and width in bytes (None: from the data)."""
    import pyarrow as pa

    if "cards" not in schema.names:
        raise ShowdownError(f"no 'cards' column: a deal table has cards: {_EXPECTED}")
    t = schema.field("cards").type
    width: int | None
    if pa.types.is_fixed_size_binary(t):
        kind, width = "fixed", t.byte_width
    elif pa.types.is_binary(t) or pa.types.is_large_binary(t):
        seats = _seats_of_metadata(schema)
        kind, width = "binary", None if seats is None else 5 * seats
    elif pa.types.is_fixed_size_list(t) and t.value_type == pa.uint8():
        kind, width = "list", t.list_size
    else:
        raise ShowdownError(f"column 'cards' has type {t}; expected {_EXPECTED}")
    if width is not None and (width % 5 or not scoring.MIN_SEATS <= width // 5 <= scoring.MAX_SEATS):
        raise ShowdownError(f"column 'cards' holds {width} bytes a row; expected {_EXPECTED}")
    for name in ("pot", "button", "live"):
        if name in schema.names and not _integers(schema.field(name).type):
            raise ShowdownError(f"column {name!r} has type {schema.field(name).type}; expected an integer type "
                                f"({'int64' if name == 'pot' else 'uint8'})")
    return kind, width


def _integers(t: pa.DataType) -> bool:
    """Whether a column of type ``t`` holds integers: any integer type, plain or dictionary-encoded (as
    pandas' categoricals and some writers store a column of few distinct values)."""
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = cast("pa.DictionaryType[Any, Any]", t).value_type
    return pa.types.is_integer(t)


def _ints(batch: pa.RecordBatch, name: str, default: int, n: int) -> np.ndarray[Any, Any]:
    """An integer column (plain or dictionary-encoded) as int64 (default where null or absent; an int64
    column without nulls is not copied, another is converted into pool memory: :func:`_pooled`).  A uint64
    value above 2**63 - 1 wraps to a negative number, which the checks reject as they reject a negative one
    (the error quotes the column's own value)."""
    import pyarrow as pa

    if name not in batch.schema.names:
        values = _pooled((n,), np.int64)
        values.fill(default)
        return values
    col = batch.column(name)
    if isinstance(col, pa.DictionaryArray):  # integers by index into a dictionary: the integers themselves
        col = col.dictionary_decode()
    if col.null_count:
        col = col.fill_null(default)
    got: np.ndarray[Any, Any] = col.to_numpy()
    if got.dtype == np.int64:
        return got
    values = _pooled((n,), np.int64)
    np.copyto(values, got, casting="unsafe")  # uint64 wraps, as the docstring says
    return values


def _pooled(shape: tuple[int, ...], dtype: type[np.generic]) -> np.ndarray[Any, Any]:
    """A new uninitialised array in pyarrow's memory pool (64-byte aligned), the memory every batch's
    columns here come from.  Why not numpy's: the pool keeps memory it is given back and hands it out
    again, whatever glibc is told; numpy's ``malloc`` maps and faults in fresh pages for each batch where
    the allocator's mmap threshold was pinned low, as Dask's nanny does for its workers
    (``MALLOC_TRIM_THRESHOLD_``: 19.4-19.8 k page faults per 4 M deals against 0.5-0.6 k, 87-91 against
    71-76 ns a deal; ``python bench/batch_costs.py faults``)."""
    import pyarrow as pa

    count = int(np.prod(shape))
    # memoryview(): numpy reads an Arrow buffer through the buffer protocol; its stubs name only the built-in types
    buffer = pa.allocate_buffer(max(count * np.dtype(dtype).itemsize, 1))
    return np.frombuffer(memoryview(buffer), dtype=dtype, count=count).reshape(shape)


def _decode(batch: pa.RecordBatch, kind: str, width: int | None, pot: int, button: int) -> tuple[_Deals, int]:
    import pyarrow as pa

    n = batch.num_rows
    col = batch.column("cards")
    bad: dict[int, BadaceyError] = {}
    null = col.is_null().to_numpy(zero_copy_only=False) if col.null_count else None
    flat: np.ndarray[Any, Any]  # (N * width,) or (N, width) uint8 card bytes, whichever way they came
    if kind == "fixed":
        assert width is not None
        buf = col.buffers()[1]
        # memoryview(): numpy reads an Arrow buffer through the buffer protocol either way; its stubs
        # name only the built-in buffer types.
        flat = np.frombuffer(memoryview(buf), dtype=np.uint8, count=n * width, offset=col.offset * width) \
            if n and buf is not None else np.zeros(0, np.uint8)
    elif kind == "list":
        assert width is not None
        # the cards column of this kind is a fixed_size_list<uint8> (_cards_type): its values are uint8
        values: pa.Array[Any] = cast("pa.FixedSizeListArray[Any]", col).values.slice(col.offset * width, n * width)
        if values.null_count:
            values = values.fill_null(255)
        flat = values.to_numpy(zero_copy_only=False)
    else:
        offsets: np.ndarray[Any, Any]
        offsets_buf = col.buffers()[1]
        assert offsets_buf is not None  # a binary array always has its offsets
        offsets = np.frombuffer(memoryview(offsets_buf),
                                dtype=np.int64 if pa.types.is_large_binary(col.type) else np.int32, count=n + 1, offset=col.offset * (8 if pa.types.is_large_binary(col.type) else 4))
        lengths = np.diff(offsets)
        if width is None:  # from the first non-null row (ScoreRun.score passes on batches without one)
            present = np.flatnonzero(~null) if null is not None else np.arange(min(n, 1))
            width = int(lengths[present[0]])
            if width % 5 or not scoring.MIN_SEATS <= width // 5 <= scoring.MAX_SEATS:
                raise ShowdownError(f"column 'cards' holds {width} bytes in its first row; expected {_EXPECTED}")
        data_buf = col.buffers()[2]
        data = np.frombuffer(memoryview(data_buf), dtype=np.uint8) if data_buf is not None else \
            np.zeros(0, np.uint8)
        wrong = (lengths != width) & ~null if null is not None else lengths != width
        if not wrong.any() and offsets[-1] - offsets[0] == n * width:
            flat = data[offsets[0]: offsets[0] + n * width]
        else:
            flat = np.full(n * width, 255, dtype=np.uint8).reshape(n, width)
            ok = np.flatnonzero(~wrong)
            idx = offsets[ok, None] + np.arange(width)[None, :]
            flat[ok] = data[np.minimum(idx, max(len(data) - 1, 0))] if len(data) else 255
            for r in np.flatnonzero(wrong).tolist():
                got = int(lengths[r])
                bad[r] = ShowdownError(f"expected {width // 5} hands ({width} card bytes), got {got} bytes")
            flat = flat.reshape(-1)
    assert width is not None
    seats = width // 5
    cards = flat.reshape(n, seats, 5)
    if null is not None:
        for r in np.flatnonzero(null).tolist():
            bad.setdefault(r, ShowdownError("cards is null: expected a hand for every seat"))
    # Pots and buttons are checked by the kernel, in the pass that settles the rows (a code per row):
    # only the rows it rejects are looked at again, to word their errors (_row_problem).
    pots = _ints(batch, "pot", pot, n)
    buttons = _ints(batch, "button", button, n)
    live = None
    if "live" in batch.schema.names:
        bits = _ints(batch, "live", (1 << seats) - 1, n)
        live = ((bits[:, None] >> np.arange(seats)) & 1).astype(bool)
        for r in np.flatnonzero((bits >> seats) != 0).tolist():
            bad.setdefault(r, ShowdownError(f"live bitmask {batch.column('live')[r].as_py():#x} names seats "
                                            f"beyond 0..{seats - 1}"))
    ids = batch.column("id") if "id" in batch.schema.names else None
    return _Deals(cards, pots, buttons, live, bad, ids), seats


def _row_problem(batch: pa.RecordBatch, deals: _Deals, r: int, seats: int) -> BadaceyError | None:
    """The pot or button error of row ``r`` (batch index) in the text path's words, or None (the row's
    problem is then in its cards: :func:`_card_problems`)."""
    if deals.pot[r] < 0:  # negative, or a uint64 above 2**63 - 1 (wrapped by _ints)
        value = int(batch.column("pot")[r].as_py())
        return ShowdownError(f"pot {value} is not a whole number >= 0" if value < 0 else
                             f"pot {value} is too large (at most 2**63 - 1)")
    if not 0 <= deals.button[r] < seats:
        return ShowdownError(f"button {batch.column('button')[r].as_py()} is not a seat 0..{seats - 1}")
    return None


def _card_problems(cards: np.ndarray[Any, Any], live: np.ndarray[Any, Any] | None, rows: np.ndarray[Any, Any]) -> dict[int, BadaceyError]:
    """The card errors of ``rows`` (batch indices), in the text path's words (lowest row first)."""
    out: dict[int, BadaceyError] = {}
    seats = cards.shape[1]
    for r in rows.tolist():
        alive = np.ones(seats, bool) if live is None else live[r]
        if not alive.any():
            out[r] = ShowdownError("no live seat: every seat folded")
            continue
        owner: dict[int, int] = {}
        for s in np.flatnonzero(alive).tolist():
            hand = cards[r, s].tolist()
            problem = None
            for c in hand:
                if not 0 <= c <= 51:
                    problem = InvalidCardError(f"seat {s}: card id {c} is outside 0..51")
                elif c in owner and owner[c] == s:  # as parse_cards words it for one hand
                    problem = DuplicateCardError(f"seat {s}: card {format_card(c)!r} is given twice")
                elif c in owner:
                    problem = DuplicateCardError(f"card {format_card(c)!r} is held twice (seat {owner[c]} and seat {s})")
                if problem is not None:
                    break
                owner[c] = s
            if problem is not None:
                out[r] = problem
                break
    return out


# ------------------------------------------------------------------------------------------------------
# Scoring


class ScoreRun:
    """One scoring run over a stream of record batches: defaults, tallies and the bad-row policy."""

    def __init__(self, game: str, odd_chip: str, pot: int, button: int, skip_bad: bool) -> None:
        is_ace_high(game)
        check_odd_chip(odd_chip)
        for value, what in ((pot, "pot"), (button, "button")):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{what} must be an int, not {type(value).__name__}")
        if pot < 0:
            raise ShowdownError(f"pot {pot} is not a number of chips 0..2**63-1")
        self.game, self.odd_chip, self.pot, self.button, self.skip_bad = game, odd_chip, pot, button, skip_bad
        self.rows = self.deals = self.bad = 0
        self.errors: list[tuple[int, str]] = []
        self.kind: str | None = None
        self.width: int | None = None
        self.seats: int | None = None
        self.totals: list[int] | None = None  # each seat's total payout so far: exact ints (chip_totals)
        self._count: np.ndarray[Any, Any] = np.zeros(0, dtype=np.int64)

    def report(self) -> ScoreReport:
        return ScoreReport(self.rows, self.deals, self.bad, self.errors)

    def start(self, schema: pa.Schema) -> None:
        self.kind, self.width = _cards_type(schema)
        _seats_of_metadata(schema)

    def output_schema(self, seats: int, id_type: pa.DataType | None) -> pa.Schema:
        return payout_schema(seats, id_type)

    def score(self, batch: pa.RecordBatch) -> tuple[pa.RecordBatch | None, BadaceyError | None]:
        """The payout batch of one deal batch (None: nothing to write yet), and the error that stops the
        run (None: go on)."""
        import pyarrow as pa

        assert self.kind is not None
        if self.width is None and batch.column("cards").null_count == batch.num_rows:
            return None, self._no_cards(batch)
        deals, seats = _decode(batch, self.kind, self.width, self.pot, self.button)
        if self.seats is None:
            self.seats, self.width = seats, 5 * seats
            self.totals = [0] * seats
        n = batch.num_rows
        first = self.rows + 1  # the row number of this batch's row 0
        keep = None
        bad = deals.bad
        # One kernel pass checks and settles every row: it writes each seat's payout column and the winner
        # bitmasks in place (the output columns below wrap those arrays: no transpose, no packing, no
        # copy) and each row's code into status (a bad row pays nothing), so a good batch costs no
        # validation pass of its own.
        status = _pooled((n,), np.uint8)
        masks = _pooled((2, n), np.uint8)
        into = scoring.ColumnShowdown(_pooled((seats, n), np.int64), masks[0], masks[1])
        result = scoring.score_columns(deals.cards, deals.live, self.game, pot=deals.pot, button=deals.button,
                                       odd_chip=self.odd_chip, status=status, out=into)
        chips, low, badugi = result
        if bad or status.any():  # word every bad row of the batch, then keep the others
            rejected = [r for r in np.flatnonzero(status).tolist() if r not in bad]
            problems = {r: _row_problem(batch, deals, r, seats) for r in rejected}
            cards_wrong = np.array([r for r, e in problems.items() if e is None], dtype=np.int64)
            worded = _card_problems(deals.cards, deals.live, cards_wrong)
            bad = {**{r: e or worded.get(r) or ShowdownError(f"rejected by the kernel (code {int(status[r])})")
                      for r, e in problems.items()}, **bad}
            keep = np.ones(n, dtype=bool)
            keep[list(bad)] = False
            if not self.skip_bad:
                keep[min(bad):] = False
            chips, low, badugi = chips[:, keep], low[keep], badugi[keep]
        k = chips.shape[1]
        if deals.ids is not None:
            ids = deals.ids if keep is None else deals.ids.take(np.flatnonzero(keep))
            id_type = deals.ids.type
        else:
            if self._count.size < n:  # 0, 1, 2, ... once per run (a batch's row numbers add its first)
                self._count = np.arange(n, dtype=np.int64)
            rownum = np.add(self._count[:n], first, out=_pooled((n,), np.int64))
            ids = pa.array(rownum if keep is None else rownum[keep])
            id_type = None
        cols = [ids, *(pa.array(c) for c in chips), pa.array(low), pa.array(badugi)]
        out = pa.RecordBatch.from_arrays(cols, schema=self.output_schema(seats, id_type))
        assert self.totals is not None
        if k:  # the largest pot bounds every payout: an int64 sum when it cannot wrap, else an exact one
            more = chip_totals(chips, axis=1, bound=max(0, int(deals.pot.max())))
            self.totals = [a + b for a, b in zip(self.totals, more, strict=True)]
        self.deals += k
        if bad and not self.skip_bad:
            r = min(bad)
            self.rows += r
            exc = bad[r]
            return out, type(exc)(f"row {first + r}: {exc}")
        for r in sorted(bad):
            self.bad += 1
            if len(self.errors) < _MAX_ERRORS_KEPT:
                self.errors.append((first + r, str(bad[r])))
        self.rows += n
        return out, None


    def _no_cards(self, batch: pa.RecordBatch) -> BadaceyError | None:
        """A batch without one cards value (empty, or every row null) while the seat count is still unknown
        (``binary`` cards, no seat count in the metadata): it cannot tell the width, and the first batch
        that can does (an Arrow stream may well begin with an empty batch).  Its rows are bad rows."""
        first, n = self.rows + 1, batch.num_rows
        if n and not self.skip_bad:
            return ShowdownError(f"row {first}: cards is null: expected a hand for every seat")
        for r in range(n):
            self.bad += 1
            if len(self.errors) < _MAX_ERRORS_KEPT:
                self.errors.append((first + r, "cards is null: expected a hand for every seat"))
        self.rows += n
        return None


def score_table(table: pa.Table | pa.RecordBatch, *, game: str = "badacey", odd_chip: str = "position",
                pot: int = DEFAULT_POT, button: int = 0, skip_bad: bool = False) -> pa.Table:
    """Score a deal table (``pyarrow.Table`` or ``RecordBatch``, schema in the module docstring) and return
    the payout table: ``id`` or ``row``, ``payout_0..`` int64 chips, ``low_winners`` / ``badugi_winners``
    bitmasks.  A bad row raises its error (``row N``, 1-based) unless ``skip_bad``.

    >>> import pyarrow as pa
    >>> t = pa.table({"cards": pa.array([bytes([0, 1, 2, 3, 4, 0, 5, 6, 7, 8])], pa.binary()), "pot": [7]})
    >>> score_table(t)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.DuplicateCardError: row 1: card 'Ac' is held twice (seat 0 and seat 1)
    """
    require_pyarrow()
    import pyarrow as pa

    run = ScoreRun(game, odd_chip, pot, button, skip_bad)
    run.start(table.schema)
    batches = table.to_batches(max_chunksize=ROW_GROUP) if isinstance(table, pa.Table) else [table]
    outs = []
    for batch in batches:
        out, failure = run.score(batch)
        if failure is not None:
            raise failure
        if out is not None:
            outs.append(out)
    if not outs:
        seats = (run.width or 10) // 5
        id_type = table.schema.field("id").type if "id" in table.schema.names else None
        return run.output_schema(seats, id_type).empty_table()
    return pa.Table.from_batches(outs)


def _name(source: Any) -> str:
    return os.fsdecode(source) if isinstance(source, (str, bytes, os.PathLike)) else repr(source)


@contextlib.contextmanager
def _reading(source: Any, kind: str) -> Iterator[None]:
    """pyarrow's errors for a damaged or foreign file (``ArrowInvalid``; an ``OSError`` without an errno,
    such as "Couldn't deserialize thrift"; a ``UnicodeDecodeError`` for a column name that is not UTF-8)
    become one BadaceyError naming the file, as the command's error line does for an unreadable one.  A
    real I/O error (missing, not readable, a disk error) stays an OSError, given the file's name."""
    import pyarrow as pa

    try:
        yield
    except (OSError, pa.ArrowException, UnicodeDecodeError) as exc:
        if isinstance(exc, OSError) and exc.errno is not None:
            if exc.filename is None:
                exc.filename = _name(source)
            raise
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if "Expected all lists to be of size" in detail:  # apache/arrow#35692, fixed in pyarrow 26
            detail += (" (a null fixed_size_list row, which Parquet readers before pyarrow 26 cannot read: "
                       "upgrade pyarrow, or write the cards as fixed_size_binary)")
        raise BadaceyError(f"{_name(source)}: not a readable {kind} file: {detail}") from None


@contextlib.contextmanager
def _naming_errors(source: Any) -> Iterator[None]:
    """A file's schema errors (a column of the wrong type, metadata that is not JSON, a cards width that
    fits no seat count) name the file, as its damage does; a bad row's error names the row instead (it is
    returned, not raised, by :func:`score_batches`)."""
    if not isinstance(source, (str, bytes, os.PathLike)):
        yield
        return
    try:
        yield
    except BadaceyError as exc:
        name = _name(source)
        if str(exc).startswith(f"{name}: ") or type(exc).__init__ is not BadaceyError.__init__:
            raise
        raise type(exc)(f"{name}: {exc}") from None


def open_parquet(path: Any) -> ParquetFile:
    """``pyarrow.parquet.ParquetFile(path)``; a file that is not readable Parquet (damaged, truncated,
    empty, another format) raises a :class:`~badacey_fast.errors.BadaceyError` naming it.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "deals.parquet")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(b"not parquet at all")
    >>> open_parquet(path)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: ...deals.parquet: not a readable Parquet file: Parquet magic bytes not found in footer...
    """
    require_pyarrow()
    import pyarrow.parquet as pq

    with _reading(path, "Parquet"):
        return pq.ParquetFile(path)


def deal_layout(f: ParquetFile, name: Any) -> tuple[int | None, pa.DataType | None]:
    """How the payouts of the open Parquet deal file ``f`` (named ``name`` in errors) are laid out:
    ``(seats, id type)``.  Seats come from the cards column's type or the schema's metadata, else from the
    first row that holds cards (None: no row does, and the file fits any seat count); the id type is the
    ``id`` column's (None: payouts numbered by ``row``).  A schema the scorer would refuse raises its
    error, naming the file.  (:mod:`badacey_fast.dask` checks that a dataset's files agree before it
    writes anything.)"""
    schema = f.schema_arrow
    try:
        kind, width = _cards_type(schema)
    except BadaceyError as exc:
        raise type(exc)(f"{_name(name)}: {exc}") from None
    if width is None:  # binary cards and no seat count: the first value that is there
        with _reading(name, "Parquet"):
            for batch in f.iter_batches(batch_size=4096, columns=["cards"], use_threads=False):
                col = batch.column(0)
                if col.null_count < len(col):
                    first = next(i for i in range(len(col)) if col[i].is_valid)
                    width = len(col[first].as_py())
                    break
        if width is not None and (width % 5 or not scoring.MIN_SEATS <= width // 5 <= scoring.MAX_SEATS):
            raise ShowdownError(f"{_name(name)}: column 'cards' holds {width} bytes in its first row; "
                                f"expected {_EXPECTED}")
    return (None if width is None else width // 5), (schema.field("id").type if "id" in schema.names else None)


def parquet_batches(f: ParquetFile, batch_rows: int, row_groups: Sequence[int] | None = None,
                    name: Any = None) -> Iterator[pa.RecordBatch]:
    """The record batches of the row groups ``row_groups`` (all: None) of the open ``pyarrow.parquet.
    ParquetFile`` ``f``, at most ``batch_rows`` rows each, one row group at a time.  A damaged page raises
    a :class:`~badacey_fast.errors.BadaceyError` naming the file ``name``.

    Why one at a time: pyarrow's reader decodes whole row groups and, given them all, reads ahead several
    (139 MB of pool for 1 Mi-row groups of 6-seat deals, against 51 MB one group at a time), so memory is
    bounded by the row group size, whatever the file size."""
    groups = range(f.num_row_groups) if row_groups is None else row_groups
    with _reading(name if name is not None else "the Parquet file", "Parquet"):
        for g in groups:
            # use_threads=False: no pyarrow pool threads beside the caller's (the reader helper thread already
            # overlaps decoding with the kernel, and on two cores a pool thread only competes with the kernel;
            # it also cost more CPU to read: 0.067-0.098 s against 0.065-0.070 s per 2 M deals, measured).
            yield from f.iter_batches(batch_size=batch_rows, row_groups=[g], use_threads=False)


def _arrow_batches(reader: Any, source: Any, stream: bool) -> Iterator[pa.RecordBatch]:
    with _reading(source, "Arrow IPC"):
        if stream:
            yield from reader
        else:
            for i in range(reader.num_record_batches):
                yield reader.get_batch(i)


def _batches(source: Any, fmt: str, batch_rows: int) -> tuple[pa.Schema, Iterator[pa.RecordBatch], int | None]:
    """(schema, record batches, total rows or None) of a Parquet or Arrow IPC file or a table."""
    import pyarrow as pa

    if isinstance(source, pa.Table):
        return source.schema, iter(source.to_batches(max_chunksize=batch_rows)), source.num_rows
    if fmt == "parquet":
        f = open_parquet(source)
        return f.schema_arrow, parquet_batches(f, batch_rows, name=source), f.metadata.num_rows
    import pyarrow.ipc as ipc

    with _reading(source, "Arrow IPC"):
        handle = pa.memory_map(os.fspath(source)) if isinstance(source, (str, os.PathLike)) else source
        try:
            reader = ipc.open_file(handle)
            return reader.schema, _arrow_batches(reader, source, False), None
        except pa.ArrowInvalid:
            handle.seek(0)
            stream = ipc.open_stream(handle)
            return stream.schema, _arrow_batches(stream, source, True), None


#: A Parquet compression codec pyarrow writes (``compression=``).
Codec = Literal["none", "snappy", "lz4", "zstd", "gzip", "brotli"]

#: Compression of the payout files written here (``compression=`` of :func:`score_parquet`, ``--compression``).
#: None (uncompressed) by default: writing is then a copy of the columns the kernel filled, while zstd
#: cost more CPU than the kernel itself (measured 0.28 s against 0.19-0.25 s per 2 M 6-seat deals) and
#: lz4/snappy about 2.5x the uncompressed write; every Parquet reader reads it.  64 bytes a 6-seat
#: deal on disk (zstd: ~7, lz4/snappy: ~16).
PAYOUT_COMPRESSION: Codec = "none"


@contextlib.contextmanager
def _named(target: Any) -> Iterator[None]:
    """pyarrow's write errors (a full disk, a closed pipe) name no file: give them the output's path, which
    the command's one error line shows."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None and isinstance(target, (str, os.PathLike)):
            exc.filename = os.fspath(target)
        raise


class PayoutWriter:
    """Writes payout batches as Parquet, Arrow IPC or CSV (pyarrow.csv) to a path or stream.

    Parquet payouts are written for speed and for any reader: PLAIN encoding (no dictionary: payouts are
    mostly distinct or zero, and dictionary attempts are wasted work), no column statistics, ``compression``
    (``"none"``, ``"snappy"``, ``"lz4"``, ``"zstd"``, ``"gzip"``, ``"brotli"``) and one row group per
    batch written.

    A path is written whole or not at all (:class:`~badacey_fast.files.outputs.AtomicFile`): pyarrow writes
    a temporary beside it, which :meth:`close` puts in its place, or removes when the run failed."""

    def __init__(self, dst: Any, fmt: str, compression: Codec = PAYOUT_COMPRESSION) -> None:
        self.dst, self.fmt, self.compression = dst, fmt, compression
        self._atomic = AtomicFile(dst) if isinstance(dst, (str, os.PathLike)) else None
        # pyarrow's writer of fmt, made on first write: Parquet's (it takes a row group size), or the other.
        self._parquet: ParquetWriter | None = None
        self._other: RecordBatchFileWriter | CSVWriter | None = None
        self._own: Any = None  # a file this writer opened itself (CSV: the header is ours)

    @property
    def started(self) -> bool:
        """Whether the first batch was written (the file begun)."""
        return self._parquet is not None or self._other is not None

    def write(self, batch: pa.RecordBatch) -> None:
        with _named(self.dst):
            self._write(batch)

    def _write(self, batch: pa.RecordBatch) -> None:
        import pyarrow as pa

        if not self.started:
            where = self.dst if self._atomic is None else self._atomic.path  # pyarrow creates the temporary
            if self.fmt == "parquet":
                import pyarrow.parquet as pq

                # write_batch_size: the column writer's inner loop takes a whole batch at a time rather
                # than 1024 values (8-13% less CPU to write a payout batch, measured).
                self._parquet = pq.ParquetWriter(where, batch.schema, compression=self.compression,
                                                 use_dictionary=False, write_statistics=False,
                                                 write_batch_size=BATCH_ROWS)
            elif self.fmt == "arrow":
                self._other = pa.ipc.new_file(where, batch.schema)
            elif self.fmt == "csv":
                import pyarrow.csv as pcsv

                # As the text path writes CSV: the same header, no quotes (unless an id column holds text,
                # which may need them: then pyarrow quotes as it must).
                batch = _csv_batch(batch)
                t = batch.schema.types[0]
                if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t):
                    self._other = pcsv.CSVWriter(where, batch.schema)
                else:
                    sink = open(where, "wb") if isinstance(where, (str, os.PathLike)) else where
                    if sink is not where:
                        self._own = sink
                    sink.write((",".join(batch.schema.names) + "\n").encode())
                    self._other = pcsv.CSVWriter(sink, batch.schema, write_options=pcsv.WriteOptions(
                        include_header=False, quoting_style="none"))
            else:
                raise FileFormatError(f"cannot write payouts as {self.fmt!r}: expected parquet, arrow or csv")
        if self._parquet is not None:
            self._parquet.write_batch(batch, row_group_size=ROW_GROUP)
        elif self._other is not None:
            self._other.write_batch(_csv_batch(batch) if self.fmt == "csv" and
                                    batch.schema.field("low_winners").type == pa.uint8() else batch)

    def close(self, keep: bool = True) -> None:
        """Finish the file.  ``keep=False`` (a failed or interrupted run): a path keeps its old file and the
        temporary is removed; a stream keeps what was written to it, which cannot be taken back."""
        writers, self._parquet, self._other = (self._parquet, self._other), None, None
        try:
            with _named(self.dst):
                for w in writers:
                    if w is not None:
                        w.close()
                own, self._own = self._own, None
                if own is not None:
                    own.close()
        except BaseException:
            if self._atomic is not None:
                self._atomic.discard()
            raise
        if self._atomic is not None:
            if keep and any(w is not None for w in writers):
                self._atomic.commit()
            else:
                self._atomic.discard()


def score_parquet(
    src: Any,
    dst: Any = None,
    *,
    game: str = "badacey",
    odd_chip: str = "position",
    pot: int = DEFAULT_POT,
    button: int = 0,
    skip_bad: bool = False,
    fmt: str | None = None,
    out_fmt: str | None = None,
    batch_rows: int = BATCH_ROWS,
    progress: Callable[[int], object] | None = None,
    totals: list[int] | None = None,
    threads: bool = True,
    compression: Codec = PAYOUT_COMPRESSION,
) -> ScoreReport:
    """Score a Parquet or Arrow IPC deal file (or a ``pyarrow.Table``) batch by batch and write the payouts.

    ``src``: a path (format from ``fmt`` or the extension: .parquet/.pq, .arrow/.feather/.ipc) or a table.
    ``dst``: a path or writable stream for the payouts (format ``out_fmt`` or from its extension; CSV to
    standard output when None); a ``dst`` that is ``src`` (by any path or link) is refused before anything
    is written.  ``progress(rows)`` is called after each batch.  ``totals``: an optional
    list that receives each seat's total payout (exact ints, never wrapped; when a row stops the run, over
    the rows before it).  ``threads``: read and write in helper threads, overlapping
    the kernel (False: all in the calling thread).  ``compression``: of Parquet payouts (see
    :class:`PayoutWriter`; uncompressed by default).  Returns a :class:`ScoreReport` (``lines`` = rows
    read); without ``skip_bad`` the first bad row raises its error, and a ``dst`` path keeps its old
    file (a stream keeps the good rows before it).  Memory: a few batches of ``batch_rows`` rows and one row group of the input at a time.

    >>> import io, pyarrow.parquet as pq
    >>> from badacey_fast.cards import parse_cards
    >>> table = deals_table(np.array([[parse_cards("As2h3d4cKc"), parse_cards("Ac2d3h4s5s")]]), pot=101, button=1)
    >>> out = io.BytesIO()
    >>> score_parquet(table, out).deals
    1
    >>> pq.read_table(out).to_pylist()
    [{'row': 1, 'payout_0': 26, 'payout_1': 75, 'low_winners': 2, 'badugi_winners': 3}]
    """
    require_pyarrow()
    import pyarrow as pa

    in_fmt = "table" if isinstance(src, pa.Table) else file_format(src, fmt)
    if in_fmt in ("text", "csv"):
        raise FileFormatError(f"{os.fspath(src)!r} is not a Parquet or Arrow file (use score_file for text deals)")
    if dst is None:
        import sys

        dst, out_fmt = sys.stdout.buffer, out_fmt or "csv"
    out_fmt = out_fmt or ("parquet" if not isinstance(dst, (str, os.PathLike)) else file_format(dst))
    if out_fmt == "text":
        out_fmt = "csv"
    if type(batch_rows) is not int or batch_rows < 1:
        raise BadaceyError(f"batch_rows must be at least 1 row, got {batch_rows!r}")
    check_not_input(dst, [src])  # before anything is opened for writing
    run = ScoreRun(game, odd_chip, pot, button, skip_bad)
    with _naming_errors(src):
        schema, batches, _ = _batches(src, in_fmt, batch_rows)
        run.start(schema)
        failure = score_batches(run, schema, batches, PayoutWriter(dst, out_fmt, compression), threads=threads,
                                progress=progress)
    if totals is not None:
        totals[:] = [] if run.totals is None else run.totals
    if failure is not None:
        raise failure
    return run.report()


def score_batches(run: ScoreRun, schema: pa.Schema, batches: Iterator[pa.RecordBatch],
                  writer: PayoutWriter | None, *, threads: bool = True,
                  progress: Callable[[int], object] | None = None) -> BadaceyError | None:
    """Score the record ``batches`` (of ``schema``, already given to ``run.start``) and write each payout
    batch with ``writer`` (None: nothing written), closing it at the end; an empty input still gets a
    payout file with its schema.  Returns the error of the first bad row that stops the run, or None.
    When the run stops (a bad row, an error, an interrupt) a path keeps its old file; a stream keeps the
    good rows written before it.  The one scoring loop of :func:`score_parquet` and of each Dask
    partition (:mod:`badacey_fast.dask`).

    ``threads``: reading (pyarrow decodes without the GIL) and writing run in their own helper threads, a
    batch ahead and a batch behind the kernel (which also runs without the GIL), so on two cores the
    end-to-end rate approaches the kernel's own; the queues hold one batch each, which bounds memory.
    """
    require_pyarrow()
    import pyarrow as pa

    reader = _Ahead(batches, depth=1) if threads else batches
    back = _Behind(writer.write, depth=1) if threads and writer is not None else None
    write = back.put if back is not None else writer.write if writer is not None else None
    failure = None
    whole = False  # the output is kept only when every batch was scored and written
    try:
        for batch in reader:
            out, failure = run.score(batch)
            if write is not None and out is not None:
                write(out)
            if failure is not None:
                break
            if progress is not None:
                progress(batch.num_rows)
        if back is not None:
            back.join()
        if writer is not None and not writer.started:  # an empty file still gets a payout file with its schema
            seats = (run.width or 10) // 5
            id_type = schema.field("id").type if "id" in schema.names else None
            writer.write(pa.RecordBatch.from_pylist([], schema=run.output_schema(seats, id_type)))
        whole = failure is None
    finally:
        if back is not None:
            back.join(raise_error=False)
        if isinstance(reader, _Ahead):
            reader.close()
        if writer is not None:
            writer.close(keep=whole)
    return failure


def _offer(q: Any, item: Any, stop: Any) -> bool:
    """Put ``item`` in the queue ``q`` unless the event ``stop`` is set first; returns whether it was put.

    Why every wait here has a timeout: a KeyboardInterrupt lands in the main thread between any two of its
    bytecodes, also inside ``queue.Queue``'s own code, where it can skip the notify that wakes the other
    thread.  A blocking wait on either side could then wait for ever (an interrupted ``badacey score``
    hung so); a wait of 0.1 s at a time looks again and goes on."""
    while not stop.is_set():
        try:
            q.put(item, timeout=0.1)
            return True
        except Exception:  # queue.Full
            continue
    return False


class _Ahead:
    """Iterate ``items`` in a helper thread, ``depth`` items ahead of the consumer."""

    _END = object()

    def __init__(self, items: Any, depth: int) -> None:
        import queue
        import threading

        self.q: Any = queue.Queue(maxsize=depth)
        self.stop = threading.Event()
        self.t = threading.Thread(target=self._run, args=(items,), daemon=True, name="badacey-read")
        self.t.start()

    def _run(self, items: Any) -> None:
        try:
            for item in items:
                if not _offer(self.q, (item, None), self.stop):
                    return
            _offer(self.q, (self._END, None), self.stop)
        except BaseException as exc:  # handed to the consumer
            _offer(self.q, (self._END, exc), self.stop)

    def __iter__(self) -> Iterator[Any]:
        import queue

        while True:
            try:
                item, exc = self.q.get(timeout=0.1)
            except queue.Empty:
                if not self.t.is_alive() and self.q.empty():  # pragma: no cover - the reader always ends with _END
                    return
                continue
            if exc is not None:
                raise exc
            if item is self._END:
                return
            yield item

    def close(self) -> None:
        import queue

        self.stop.set()
        while self.t.is_alive():
            try:
                self.q.get(timeout=0.1)
            except queue.Empty:
                pass


class _Behind:
    """Call ``write(item)`` in a helper thread for each item put, at most ``depth`` items behind."""

    def __init__(self, write: Callable[[Any], object], depth: int) -> None:
        import queue
        import threading

        self.write = write
        self.error: BaseException | None = None
        self.q: queue.Queue[Any] = queue.Queue(maxsize=depth)
        self.done = threading.Event()  # no more items: write what is queued, then end
        self.drop = threading.Event()  # the run failed: end without writing what is queued
        self.t = threading.Thread(target=self._run, daemon=True, name="badacey-write")
        self.t.start()

    def _run(self) -> None:
        import queue

        while not self.drop.is_set():
            try:
                item = self.q.get(timeout=0.1)
            except queue.Empty:
                if self.done.is_set():
                    return
                continue
            if self.error is None:
                try:
                    self.write(item)
                except BaseException as exc:  # raised in the consumer at its next put or join
                    self.error = exc

    def put(self, item: Any) -> None:
        if self.error is not None:
            raise self.error
        _offer(self.q, item, self.drop)

    def join(self, raise_error: bool = True) -> None:
        """Wait for the writer to end: after writing every queued item, or (``raise_error=False``, a run
        that failed) at once, dropping them."""
        (self.done if raise_error else self.drop).set()
        while self.t.is_alive():
            self.t.join(0.1)
        if raise_error and self.error is not None:
            raise self.error


def count_rows(src: Any, fmt: str | None = None) -> int | None:
    """Rows of a Parquet file from its footer (None for other formats)."""
    if file_format(src, fmt) != "parquet" or os.path.isdir(os.fspath(src)):
        return None
    return open_parquet(src).metadata.num_rows


# ------------------------------------------------------------------------------------------------------
# Generating


def generate_parquet(n: int, dst: Any, *, seats: int = 6, seed: int | None = None, fmt: str | None = None,
                     row_group: int = ROW_GROUP, compression: Codec = "zstd") -> int:
    """Write ``n`` random deals (the same deals as :func:`~badacey_fast.files.generate.generate_deals` with
    the same seed: all seats live, pot 100..999, random button) as Parquet or Arrow IPC (``fmt`` or the
    extension).  A path is written whole or not at all (:class:`~badacey_fast.files.outputs.AtomicFile`).
    Returns the number of rows written."""
    require_pyarrow()

    for value, what in ((n, "n"), (seats, "seats"), (row_group, "row_group")):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if n < 0:
        raise BadaceyError(f"n must be >= 0, got {n}")
    if row_group < 1:
        raise BadaceyError(f"row_group must be at least 1 row, got {row_group}")
    schema = deal_schema(seats)
    kind = fmt or (file_format(dst) if isinstance(dst, (str, os.PathLike)) else "parquet")
    if kind not in ("parquet", "arrow"):
        raise FileFormatError(f"generate_parquet writes parquet or arrow, not {kind!r}")
    rng = np.random.default_rng(seed)
    atomic = AtomicFile(dst) if isinstance(dst, (str, os.PathLike)) else None  # whole or not at all
    try:
        with _named(dst):
            _write_deals(n, dst if atomic is None else atomic.path, kind, schema, seats, rng, row_group, compression)
    except BaseException:
        if atomic is not None:
            atomic.discard()
        raise
    if atomic is not None:
        atomic.commit()
    return n


def _write_deals(n: int, where: Any, kind: str, schema: pa.Schema, seats: int, rng: np.random.Generator,
                 row_group: int, compression: Codec) -> None:
    """The body of :func:`generate_parquet`: ``n`` random deals written to ``where`` (a path or stream)."""
    import pyarrow as pa

    if kind == "parquet":
        import pyarrow.parquet as pq

        # compression: any codec name pyarrow knows (it refuses the others, naming them)
        parquet = pq.ParquetWriter(where, schema, compression=compression)
        writer: ParquetWriter | RecordBatchFileWriter = parquet
        write: Callable[[pa.Table], None] = \
            lambda t: parquet.write_table(t, row_group_size=row_group)  # noqa: E731
    else:
        ipc_file = writer = pa.ipc.new_file(where, schema)
        write = lambda t: ipc_file.write_table(t, max_chunksize=row_group)  # noqa: E731
    pending: list[pa.Table] = []
    held = 0
    try:
        for lo in range(0, n, 100_000):  # the same draws, in the same order, as generate_deals
            m = min(100_000, n - lo)
            deck = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (m, 52)), axis=1)
            cards = np.ascontiguousarray(deck[:, : 5 * seats])
            pot = rng.integers(100, 1000, m)
            button = rng.integers(0, seats, m)
            pending.append(deals_table(cards.reshape(m, seats, 5), pot, button).replace_schema_metadata(schema.metadata))
            held += m
            if held >= row_group:
                t = pa.concat_tables(pending)
                write(t.slice(0, held - held % row_group))
                pending, held = ([t.slice(held - held % row_group)], held % row_group) if held % row_group else ([], 0)
        if held or n == 0:
            write(pa.concat_tables(pending) if pending else schema.empty_table())
    finally:
        writer.close()


def dataset_files(src: Any) -> list[str]:
    """The Parquet files of a dataset: a file, a directory (its ``*.parquet`` / ``*.pq`` files, recursively,
    sorted) or a glob pattern (sorted)."""
    path = os.fspath(src)
    if os.path.isdir(path):
        files = sorted(os.path.join(d, f) for d, _, names in os.walk(path) for f in names
                       if f.endswith((".parquet", ".pq")) and not f.startswith((".", "_")))
    elif any(ch in path for ch in "*?["):
        files = sorted(glob.glob(path, recursive=True))
    else:
        files = [path] if os.path.exists(path) else []
    if not files:
        raise BadaceyError(f"no Parquet files in {path!r}")
    return files
