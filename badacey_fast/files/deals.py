"""Deals in memory and their cards as people read them: pandas and Arrow out.

A deal dataset (:mod:`badacey_fast.files.arrow`'s deal schema) keeps each deal's cards as raw bytes, card
ids 0..51 five per seat (``fixed_size_binary(5·P)``): compact and fast to score, but pandas shows them as
``b'\\x03\\x06...'``.  :func:`decode_cards` turns such a column into card text (``"As 2h 3d 4c 5s"`` per
seat) or an ``(N, P, 5)`` array of ids; :class:`Deals` holds a whole dataset in memory with ``to_pandas()``
and ``to_arrow()``, the cards as text or as arrays.

pandas and pyarrow are optional: ``pip install "badacey_fast[pandas]"`` (pandas and pyarrow) or
``"badacey_fast[parquet]"`` (pyarrow alone); a missing one is a
:class:`~badacey_fast.errors.MissingExtraError` naming the extra.

>>> import numpy as np
>>> column = [bytes([3, 5, 10, 15, 19, 4, 9, 14, 17, 23])]   # one deal of two seats, as pandas shows it
>>> decode_cards(column)
array([['As 2d 3h 4s 5s', '2c 3d 4h 5d 6s']], dtype='<U14')
>>> decode_cards(column, form="array").shape
(1, 2, 5)
>>> decode_cards([bytes([3, 60, 4, 5, 6, 7, 8, 9, 10, 11])])
Traceback (most recent call last):
...
badacey_fast.errors.InvalidCardError: row 1, seat 0: card id 60 is not a card (0..51)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from badacey_fast.cards import format_card
from badacey_fast.errors import BadaceyError, FileFormatError, InvalidCardError, MissingExtraError, ShowdownError

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = ["decode_cards", "cards_text", "Deals", "CARD_FORMS"]

#: The forms :func:`decode_cards` and the ``to_pandas`` / ``to_arrow`` methods give cards in.
CARD_FORMS = ("text", "array")

# Two text characters per card id: a whole array of ids becomes text by one fancy index.
_TEXT = np.frombuffer("".join(format_card(c) for c in range(52)).encode(), dtype=np.uint8).reshape(52, 2)


def cards_text(cards: Any) -> np.ndarray[Any, Any]:
    """An array of card ids ``(..., k)`` (uint8, 0..51) as text, one string per hand: ``"As 2h 3d 4c 5s"``.

    >>> cards_text(np.array([[12, 5, 10, 15, 19]], dtype=np.uint8))
    array(['4c 2d 3h 4s 5s'], dtype='<U14')
    """
    arr = np.asarray(cards)
    if arr.dtype != np.uint8:
        raise TypeError(f"cards must be a uint8 array of card ids, not {arr.dtype}")
    if arr.ndim < 1 or arr.shape[-1] < 1:
        raise ShowdownError(f"cards must have shape (..., k) with k >= 1, got {arr.shape}")
    bad = np.flatnonzero(arr.reshape(-1) > 51)
    if len(bad):
        raise InvalidCardError(f"card id {int(arr.reshape(-1)[bad[0]])} is not a card (0..51)")
    k = arr.shape[-1]
    out = np.full(arr.shape[:-1] + (3 * k - 1,), ord(" "), dtype=np.uint8)
    pairs = _TEXT[arr]  # (..., k, 2)
    out[..., 0::3] = pairs[..., 0]
    out[..., 1::3] = pairs[..., 1]
    text: np.ndarray[Any, Any] = np.ascontiguousarray(out).view(f"S{3 * k - 1}")[..., 0].astype(f"U{3 * k - 1}")
    return text


def decode_cards(column: Any, form: str = "text") -> np.ndarray[Any, Any]:
    """A deal dataset's ``cards`` column as card text or card ids.

    ``column``: a pyarrow array or chunked array (``fixed_size_binary(5·P)``, ``binary``/``large_binary``,
    ``fixed_size_list<uint8>``), a pandas Series or any sequence of ``bytes`` (what ``to_pandas()`` of such
    a column gives), or a uint8 array ``(N, 5·P)`` / ``(N, P, 5)``.  Every row must hold the same number
    of cards, five per seat, 2 to 6 seats.  ``form="text"``: an ``(N, P)`` array of str, each seat's five
    cards as ``"As 2h 3d 4c 5s"``; ``form="array"``: an ``(N, P, 5)`` uint8 array of card ids (seat 0
    first).  Errors name the 1-based row: a null, a row of another length, an id outside 0..51.

    >>> decode_cards([bytes([3, 5, 10, 15, 19, 4, 9, 14, 17, 23])]).tolist()
    [['As 2d 3h 4s 5s', '2c 3d 4h 5d 6s']]
    >>> decode_cards([bytes(range(10)), bytes(range(15))])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: row 2 holds 15 card ids, row 1 holds 10: every row must hold the same seats
    """
    if form not in CARD_FORMS:
        raise FileFormatError(f"form must be one of {', '.join(CARD_FORMS)}, not {form!r}")
    arr = _as_ids(column)
    n = arr.shape[0]
    width = arr.shape[1] * (arr.shape[2] if arr.ndim == 3 else 1)
    if width % 5 or not 2 <= width // 5 <= 6:
        raise ShowdownError(f"the cards hold {width} card ids a row; expected 5 per seat, 2 to 6 seats")
    ids = np.ascontiguousarray(arr, dtype=np.uint8).reshape(n, width // 5, 5)
    bad = np.argwhere(ids > 51)
    if len(bad):
        r, s, c = (int(x) for x in bad[0])
        raise InvalidCardError(f"row {r + 1}, seat {s}: card id {int(ids[r, s, c])} is not a card (0..51)")
    return ids if form == "array" else cards_text(ids)


def _as_ids(column: Any) -> np.ndarray[Any, Any]:
    """Any accepted column as a uint8 array (N, width) or (N, P, 5), nothing validated but its shape."""
    if isinstance(column, np.ndarray) and column.dtype == np.uint8:
        if column.ndim not in (2, 3) or (column.ndim == 3 and column.shape[2] != 5):
            raise ShowdownError(f"a card id array must have shape (N, 5*P) or (N, P, 5), got {column.shape}")
        return column
    if isinstance(column, np.ndarray) and column.dtype.kind == "S":  # fixed-width bytes
        return np.ascontiguousarray(column).view(np.uint8).reshape(len(column), column.dtype.itemsize)
    mod = type(column).__module__
    if mod.startswith("pyarrow"):
        return _arrow_ids(column)
    if mod.startswith("pandas"):
        column = column.tolist()
    if isinstance(column, (str, bytes)) or not isinstance(column, (Sequence, np.ndarray)):
        raise TypeError(f"expected a cards column (pyarrow array, pandas Series, sequence of bytes or uint8 "
                        f"array), not {type(column).__name__}")
    return _rows_of_bytes(list(column))


def _rows_of_bytes(rows: list[Any]) -> np.ndarray[Any, Any]:
    if not rows:
        return np.zeros((0, 10), dtype=np.uint8)
    width = None
    for i, row in enumerate(rows):
        if row is None:
            raise ShowdownError(f"row {i + 1}: the cards are null")
        if not isinstance(row, (bytes, bytearray, memoryview)):
            raise TypeError(f"row {i + 1}: cards must be bytes, not {type(row).__name__}")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise ShowdownError(f"row {i + 1} holds {len(row)} card ids, row 1 holds {width}: every row must "
                                "hold the same seats")
    assert width is not None
    return np.frombuffer(b"".join(bytes(r) for r in rows), dtype=np.uint8).reshape(len(rows), width)


def _arrow_ids(column: Any) -> np.ndarray[Any, Any]:
    import pyarrow as pa

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    if not isinstance(column, pa.Array):
        raise TypeError(f"expected a pyarrow array of cards, not {type(column).__name__}")
    if column.null_count:
        first = column.is_null().to_numpy(zero_copy_only=False).argmax()
        raise ShowdownError(f"row {first + 1}: the cards are null")
    t = column.type
    if pa.types.is_fixed_size_binary(t):
        width = t.byte_width
        data = column.buffers()[1]
        assert data is not None
        flat = np.frombuffer(memoryview(data), dtype=np.uint8)
        start = column.offset * width
        return flat[start:start + len(column) * width].reshape(len(column), width)
    if pa.types.is_fixed_size_list(t) and t.value_type == pa.uint8():
        values = cast(Any, column).flatten().to_numpy(zero_copy_only=False)  # (pyarrow-stubs: Array has none)
        return np.asarray(values, dtype=np.uint8).reshape(len(column), t.list_size)
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return _rows_of_bytes(column.to_pylist())
    raise ShowdownError(f"a cards column has type {t}; expected fixed_size_binary(5*P), binary or "
                        "fixed_size_list<uint8>")


class Deals:
    """A deal dataset in memory: ``cards`` ``(N, P, 5)`` uint8 card ids (seat 0 first), ``pot`` ``(N,)``
    int64 chips, ``button`` ``(N,)`` seats, ``live`` ``(N, P)`` bool (None: every seat live), ``id`` (None
    or an ``(N,)`` array).  Read from a Parquet or Arrow deal file (:meth:`read`) or a deal table
    (:meth:`from_arrow`), or made at random (:meth:`generate`); out as pandas or Arrow, the cards as text
    (one ``cards_<seat>`` column of ``"As 2h 3d 4c 5s"`` each) or as arrays (one ``cards`` column of
    ``(P, 5)`` id arrays).

    >>> d = Deals.generate(3, seats=2, seed=1)
    >>> len(d), d.cards.shape, d.to_arrow(cards="text").column_names
    (3, (3, 2, 5), ['cards_0', 'cards_1', 'pot', 'button'])
    >>> Deals.from_arrow(d.to_arrow()) == d
    True
    """

    def __init__(self, cards: Any, pot: Any = 120, button: Any = 0, live: Any = None, id: Any = None) -> None:
        ids = np.ascontiguousarray(np.asarray(cards), dtype=np.uint8) if not isinstance(cards, np.ndarray) \
            or cards.dtype != np.uint8 else np.ascontiguousarray(cards)
        if ids.ndim != 3 or ids.shape[2] != 5 or not 2 <= ids.shape[1] <= 6:
            raise ShowdownError(f"cards must have shape (N, P, 5) with P = 2..6 seats, got {ids.shape}")
        self.cards = decode_cards(ids, form="array")  # checks every id
        n, p = ids.shape[:2]
        self.pot = np.broadcast_to(np.asarray(pot, dtype=np.int64), (n,)).copy()
        self.button = np.broadcast_to(np.asarray(button, dtype=np.uint8), (n,)).copy()
        if np.any(self.pot < 0):
            raise ShowdownError(f"pot {int(self.pot[self.pot < 0][0])} is negative")
        if np.any(self.button >= p):
            raise ShowdownError(f"button {int(self.button[self.button >= p][0])} is not a seat 0..{p - 1}")
        self.live = None if live is None else np.asarray(live, dtype=bool).reshape(n, p).copy()
        self.id = None if id is None else np.asarray(id)

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def seats(self) -> int:
        """Seats per deal (2..6)."""
        return int(self.cards.shape[1])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deals):
            return NotImplemented
        same_live = (self.live is None and other.live is None) or (
            self.live is not None and other.live is not None and np.array_equal(self.live, other.live))
        same_id = (self.id is None and other.id is None) or (
            self.id is not None and other.id is not None and np.array_equal(self.id, other.id))
        return (np.array_equal(self.cards, other.cards) and np.array_equal(self.pot, other.pot)
                and np.array_equal(self.button, other.button) and same_live and same_id)

    __hash__ = None  # type: ignore[assignment]  # mutable arrays: equal by value, not hashable

    def __repr__(self) -> str:
        return f"<Deals: {len(self)} deals of {self.seats} seats>"

    @classmethod
    def generate(cls, n: int, seats: int = 6, seed: int | None = None) -> "Deals":
        """``n`` random deals as :func:`~badacey_fast.files.generate.generate_deals` makes them: a shuffled
        deck's first 5·seats cards, pot 100..999, a random button (numpy's generator seeded by ``seed``)."""
        for value, what in ((n, "n"), (seats, "seats")):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{what} must be an int, not {type(value).__name__}")
        if n < 0:
            raise BadaceyError(f"n must be >= 0, got {n}")
        if not 2 <= seats <= 6:
            raise ShowdownError(f"{seats} seats: a showdown has 2 to 6 seats")
        rng = np.random.default_rng(seed)
        deck = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52)), axis=1)
        cards = deck[:, : 5 * seats].reshape(n, seats, 5)
        return cls(cards, rng.integers(100, 1000, n), rng.integers(0, seats, n))

    @classmethod
    def from_arrow(cls, table: pa.Table | pa.RecordBatch) -> "Deals":
        """A deal table (the deal schema: ``cards``, and ``pot``, ``button``, ``live``, ``id`` when there)."""
        import pyarrow as pa  # a table was given: pyarrow is there

        names = table.schema.names
        if "cards" not in names:
            raise ShowdownError("no 'cards' column: a deal table has cards (fixed_size_binary(5*P))")
        cards = decode_cards(table.column("cards"), form="array")
        n, p = cards.shape[:2]

        def ints(name: str, default: int) -> np.ndarray[Any, Any]:
            if name not in names:
                return np.full(n, default, dtype=np.int64)
            col = table.column(name)
            got: np.ndarray[Any, Any] = np.asarray(col.fill_null(pa.scalar(default)).to_numpy(zero_copy_only=False),
                                                   dtype=np.int64)
            return got

        live = None
        if "live" in names:
            bits = ints("live", (1 << p) - 1)
            live = (bits[:, None] >> np.arange(p)) & 1 == 1
        ids = table.column("id").to_numpy(zero_copy_only=False) if "id" in names else None
        return cls(cards, ints("pot", 120), ints("button", 0), live, ids)

    @classmethod
    def read(cls, path: Any) -> "Deals":
        """A Parquet (``.parquet``, ``.pq``, a directory of them) or Arrow IPC (``.arrow``, ``.feather``)
        deal file, read whole into memory.  Text and CSV deal files are scored as they stream
        (:func:`~badacey_fast.files.score.score_file`); write one as Parquet to load it here."""
        from badacey_fast.files.arrow import file_format

        fmt = file_format(path)
        if fmt not in ("parquet", "arrow"):
            raise BadaceyError(f"Deals.read takes Parquet or Arrow deal files, not {fmt}: {path!s}")
        MissingExtraError.require("pyarrow", "parquet", "Parquet and Arrow files")
        import pyarrow as pa
        import pyarrow.parquet as pq

        if fmt == "parquet":
            return cls.from_arrow(pq.read_table(path))
        with pa.memory_map(str(path)) as source:
            return cls.from_arrow(pa.ipc.open_file(source).read_all())

    def to_arrow(self, cards: str = "binary") -> pa.Table:
        """The deals as a pyarrow Table.  ``cards="binary"``: the deal schema itself (``cards``
        ``fixed_size_binary(5·P)``, which :func:`~badacey_fast.files.arrow.score_table` scores);
        ``"text"``: one string column ``cards_<seat>`` per seat; ``"array"``: one ``cards`` column of
        ``P`` lists of 5 ids (``fixed_size_list``).  Then ``pot``, ``button``, ``live`` (a seat bitmask)
        and ``id`` when present."""
        if cards not in ("binary",) + CARD_FORMS:
            raise FileFormatError(f"cards must be one of binary, {', '.join(CARD_FORMS)}, not {cards!r}")
        MissingExtraError.require("pyarrow", "parquet", "Arrow tables")
        import pyarrow as pa

        from badacey_fast.files.arrow import deals_table

        if cards == "binary":
            return deals_table(self.cards, self.pot, self.button, self.live, self.id)
        n, p = self.cards.shape[:2]
        names: list[str] = []
        cols: list[Any] = []
        if cards == "text":
            text = cards_text(self.cards)
            for s in range(p):
                names.append(f"cards_{s}")
                cols.append(pa.array(text[:, s]))
        else:
            inner = pa.FixedSizeListArray.from_arrays(pa.array(self.cards.reshape(-1)), 5)
            names.append("cards")
            cols.append(pa.FixedSizeListArray.from_arrays(inner, p))
        names += ["pot", "button"]
        cols += [pa.array(self.pot), pa.array(self.button)]
        if self.live is not None:
            names.append("live")
            cols.append(pa.array(np.packbits(self.live, axis=1, bitorder="little")[:, 0]))
        if self.id is not None:
            names.append("id")
            cols.append(pa.array(self.id))
        return pa.Table.from_arrays(cols, names=names)

    def to_pandas(self, cards: str = "text") -> pd.DataFrame:
        """The deals as a pandas DataFrame: ``cards="text"`` one ``cards_<seat>`` column per seat
        (``"As 2h 3d 4c 5s"``), ``"array"`` one ``cards`` column holding each deal's ``(P, 5)`` id array;
        then ``pot``, ``button``, ``live_<seat>`` (bool) when live flags are set, ``id`` when present."""
        if cards not in CARD_FORMS:
            raise FileFormatError(f"cards must be one of {', '.join(CARD_FORMS)}, not {cards!r}")
        pandas = MissingExtraError.require("pandas", "pandas", "DataFrames")
        data: dict[str, Any] = {}
        if cards == "text":
            text = cards_text(self.cards)
            for s in range(self.seats):
                data[f"cards_{s}"] = text[:, s]
        else:
            data["cards"] = list(self.cards)
        data["pot"] = self.pot
        data["button"] = self.button
        if self.live is not None:
            for s in range(self.seats):
                data[f"live_{s}"] = self.live[:, s]
        if self.id is not None:
            data["id"] = self.id
        frame: pd.DataFrame = pandas.DataFrame(data)
        return frame
