"""Per-hand records of a simulation (:func:`~badacey_fast.game.simulate.simulate` with ``records=True``):
one row a hand, out to numpy, pandas and Arrow.

>>> from badacey_fast.game import simulate
>>> from badacey_fast.game.bots import RandomBot, RuleBot
>>> r = simulate([RuleBot(), RandomBot()], hands=100, seed=1, records=True)
>>> rec = r.records
>>> len(rec), rec.net.shape, rec.cards.shape, rec.net.sum(axis=0).tolist() == list(r.totals)
(100, (100, 2), (100, 2, 5), True)
>>> rec.to_arrow().column_names[:4]
['hand', 'button', 'showdown', 'pot']
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from badacey_fast.errors import BadaceyError, FileFormatError, MissingExtraError, SeatError, ShapeError
from badacey_fast.files.outputs import AtomicFile, output_format

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa
    from matplotlib.figure import Figure

__all__ = ["HandRecords", "CARD_FORMS", "FILE_FORMATS", "records_format"]

#: The forms the cards go out in: ``"text"`` (``"As 2h 3d 4c 5s"`` per seat) or ``"array"`` (card ids).
CARD_FORMS = ("text", "array")
#: The files :meth:`HandRecords.write` writes, by extension.
FILE_FORMATS = {".parquet": "parquet", ".csv": "csv", ".jsonl": "jsonl"}
_ROW_GROUP = 65536  # hands a Parquet row group holds (HandRecords.write)


def records_format(path: str | os.PathLike[str]) -> str:
    """``"parquet"``, ``"csv"`` or ``"jsonl"`` from a path's extension; an
    :class:`~badacey_fast.errors.FileFormatError` naming it and the allowed ones otherwise (a command
    checks it before playing a hand).

    >>> records_format("hands.parquet")
    'parquet'
    >>> records_format("hands.xlsx")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.FileFormatError: 'hands.xlsx': unknown extension '.xlsx' for hand records, expected .parquet, .csv or .jsonl
    """
    return output_format(path, FILE_FORMATS, "hand records")


def _arrow_text(pa: Any, text: np.ndarray[Any, Any]) -> Any:
    """An Arrow string array of fixed-width card text (every hand of a game is ``3 * H - 1`` characters),
    built on one byte a character rather than through Python strings."""
    n, width = len(text), text.dtype.itemsize // 4
    if n * width >= 2**31 or width == 0:
        return pa.array(text.tolist(), type=pa.large_string())
    data = np.ascontiguousarray(text.astype(f"S{width}"))
    offsets = np.arange(0, (n + 1) * width, width, dtype=np.int32)
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))


class HandRecords:
    """One row a hand played: ``net`` ``(N, P)`` int64, each seat's chips at the end minus at the start;
    ``cards`` ``(N, P, H)`` uint8 card ids (H the game's hand size), each seat's hand at the end (a folded
    seat's as it folded); ``folded`` ``(N, P)`` bool; ``button`` ``(N,)`` the button's seat; ``showdown``
    ``(N,)`` bool, two or more seats live at the end; ``pot`` ``(N,)`` int64, the chips paid out (every
    contribution but uncalled chips returned).  ``names``: each seat's bot."""

    __slots__ = ("names", "net", "cards", "folded", "button", "showdown", "pot")

    def __init__(self, names: tuple[str, ...], net: Any, cards: Any, folded: Any, button: Any, showdown: Any,
                 pot: Any) -> None:
        self.names = names
        self.net = np.asarray(net, dtype=np.int64)
        self.cards = np.asarray(cards, dtype=np.uint8)
        self.folded = np.asarray(folded, dtype=bool)
        self.button = np.asarray(button, dtype=np.uint8)
        self.showdown = np.asarray(showdown, dtype=bool)
        self.pot = np.asarray(pot, dtype=np.int64)
        n, p = self.net.shape
        if self.cards.shape[:2] != (n, p) or self.folded.shape != (n, p) or self.button.shape != (n,) \
                or self.showdown.shape != (n,) or self.pot.shape != (n,) or len(names) != p:
            raise ShapeError(f"records of {n} hands and {p} seats need every array that long: cards "
                             f"{self.cards.shape}, folded {self.folded.shape}, button {self.button.shape}, "
                             f"showdown {self.showdown.shape}, pot {self.pot.shape}, {len(names)} names")

    def __len__(self) -> int:
        return len(self.net)

    def __repr__(self) -> str:
        return f"<HandRecords: {len(self)} hands of {len(self.names)} seats>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandRecords):
            return NotImplemented
        return self.names == other.names and all(
            np.array_equal(getattr(self, k), getattr(other, k)) for k in self.__slots__[1:])

    __hash__ = None  # type: ignore[assignment]  # arrays: equal by value, not hashable

    @classmethod
    def concat(cls, parts: Sequence[HandRecords]) -> HandRecords:
        """The records of several runs of the same seats, one after another (the partitions of
        :func:`badacey_fast.dask.simulate`, in order).

        >>> from badacey_fast.game import simulate
        >>> from badacey_fast.game.bots import RandomBot
        >>> a, b = (simulate([RandomBot(), RandomBot()], hands=k, seed=k, records=True).records for k in (3, 4))
        >>> len(HandRecords.concat([a, b]))
        7
        >>> HandRecords.concat([])
        Traceback (most recent call last):
        ...
        badacey_fast.errors.ShapeError: no records to join
        """
        if not parts:
            raise ShapeError("no records to join")
        names = parts[0].names
        if any(p.names != names for p in parts):
            raise SeatError(f"records of different seats cannot be joined: {[p.names for p in parts]}")
        return cls(names, *(np.concatenate([getattr(p, k) for p in parts]) for k in cls.__slots__[1:]))

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the records to ``path``, one row a hand with the columns of :meth:`to_pandas` (cards as
        text, ``"As 2h 3d 4c 5s"``): Parquet (``.parquet``, needs pyarrow: the ``[parquet]`` extra; the bots'
        names in the schema's metadata), CSV (``.csv``) or JSON lines (``.jsonl``).  Written whole or not at
        all (a temporary beside the target, renamed when whole).

        >>> import csv, os, tempfile
        >>> from badacey_fast.game import simulate
        >>> from badacey_fast.game.bots import RandomBot
        >>> rec = simulate([RandomBot(), RandomBot()], hands=5, seed=1, records=True).records
        >>> path = os.path.join(tempfile.mkdtemp(), "hands.csv")
        >>> rec.write(path)
        >>> with open(path, newline="") as f:
        ...     rows = list(csv.DictReader(f))
        >>> len(rows), len(rows[0]["cards_0"].split())
        (5, 5)
        """
        fmt = records_format(path)
        if fmt == "parquet":
            MissingExtraError.require("pyarrow", "parquet", "Parquet files")
            import pyarrow as pa
            import pyarrow.parquet as pq

            meta = {"bots": ",".join(self.names)}
            with AtomicFile(path) as out:
                # In row groups: the text and Arrow buffers of one group at a time, whatever the hands.
                schema = pa.table(self._columns("text", pa, slice(0, 0)), metadata=meta).schema
                with pq.ParquetWriter(out.path, schema) as writer:
                    for lo in range(0, len(self), _ROW_GROUP):
                        rows = slice(lo, lo + _ROW_GROUP)
                        writer.write_table(pa.table(self._columns("text", pa, rows), schema=schema))
            return
        import csv
        import json

        names = list(self._columns("text", rows=slice(0, 0)))
        with AtomicFile(path) as out, open(out.path, "a" if out.path == out.target else "x", encoding="utf-8",
                                           newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            if fmt == "csv":
                w.writerow(names)
            for lo in range(0, len(self), _ROW_GROUP):  # Python values of one group of hands at a time
                cols = self._columns("text", rows=slice(lo, lo + _ROW_GROUP))
                lines = zip(*(v.tolist() for v in cols.values()))
                if fmt == "csv":
                    w.writerows(lines)
                else:
                    f.writelines(json.dumps(dict(zip(names, line))) + "\n" for line in lines)

    def _columns(self, cards: str, pa: Any = None, rows: slice = slice(None)) -> dict[str, Any]:
        """The columns of ``rows`` (hands), seat by seat (one seat's card text at a time: memory stays
        near the records' own); ``pa``: pyarrow, for Arrow arrays of the cards."""
        if cards not in CARD_FORMS:
            raise FileFormatError(f"cards must be one of {', '.join(CARD_FORMS)}, not {cards!r}")
        from badacey_fast.files.deals import cards_text

        first, last, _ = rows.indices(len(self))
        cols: dict[str, Any] = {"hand": np.arange(first, max(first, last), dtype=np.int64),
                                "button": self.button[rows], "showdown": self.showdown[rows], "pot": self.pot[rows]}
        for s in range(len(self.names)):
            cols[f"net_{s}"] = self.net[rows, s]
            cols[f"folded_{s}"] = self.folded[rows, s]
            seat = self.cards[rows, s]
            if cards == "text":
                text = cards_text(seat)
                cols[f"cards_{s}"] = text if pa is None else _arrow_text(pa, text)
            elif pa is not None:
                cols[f"cards_{s}"] = pa.FixedSizeListArray.from_arrays(pa.array(seat.reshape(-1)), seat.shape[1])
            else:
                cols[f"cards_{s}"] = list(seat)
        return cols

    def to_pandas(self, cards: str = "text") -> pd.DataFrame:
        """A DataFrame, one row a hand: ``hand`` (0, 1, ...), ``button``, ``showdown``, ``pot``, then per
        seat ``net_<seat>``, ``folded_<seat>`` and ``cards_<seat>`` (text, or an array of ids with
        ``cards="array"``).  Needs pandas (``pip install "badacey_fast[pandas]"``)."""
        pandas = MissingExtraError.require("pandas", "pandas", "DataFrames")
        frame: pd.DataFrame = pandas.DataFrame(self._columns(cards))
        return frame

    def to_arrow(self, cards: str = "text") -> pa.Table:
        """A pyarrow Table of the columns of :meth:`to_pandas` (cards as text, or as lists of ids), with
        the bots' names in the schema's metadata (``bots``, comma-separated).  Write it with
        ``pyarrow.parquet.write_table``.  Needs pyarrow (``pip install "badacey_fast[parquet]"``)."""
        MissingExtraError.require("pyarrow", "parquet", "Arrow tables")
        import pyarrow as pa

        table: pa.Table = pa.table(self._columns(cards, pa), metadata={"bots": ",".join(self.names)})
        return table

    def plot(self, unit: int = 1, title: str | None = None) -> Figure:
        """Each seat's running net over the hands (in chips / ``unit``, e.g. the big blind), with a 95 %
        band: the running net +- 1.96 x the seat's standard deviation a hand x sqrt(hands) -- where the
        line could lie for the same edge by luck.  Returns a matplotlib ``Figure`` (no pyplot: save it with
        ``fig.savefig("net.png")``).  Needs matplotlib (``pip install "badacey_fast[plot]"``).
        """
        MissingExtraError.require("matplotlib", "plot", "plots")
        from matplotlib.figure import Figure

        if type(unit) is not int or unit < 1:
            raise BadaceyError(f"unit must be a positive int (chips), not {unit!r}")
        fig = Figure(figsize=(8, 4.5), layout="constrained")
        ax = fig.subplots()
        k = np.arange(1, len(self) + 1)
        for s, name in enumerate(self.names):
            run = np.cumsum(self.net[:, s]) / unit
            sd = float(self.net[:, s].std(ddof=1)) / unit if len(self) > 1 else 0.0
            band = 1.96 * sd * np.sqrt(k)
            (line,) = ax.plot(k, run, label=f"seat {s} ({name})", linewidth=1.2)
            ax.fill_between(k, run - band, run + band, color=line.get_color(), alpha=0.12, linewidth=0)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xlabel("hands")
        ax.set_ylabel("net (big blinds)" if unit > 1 else "net (chips)")
        ax.set_title(title or f"{len(self):,} hands: each seat's net, with a 95 % band")
        ax.legend(loc="upper left", fontsize="small")
        return fig

