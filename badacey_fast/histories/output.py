"""Writing real hands to a file, whole or not at all: JSON lines (``.jsonl``), PHH hand-history sets
(``.phhs``) or Parquet (``.parquet``: the rows of :func:`badacey_fast.histories.table.to_table`).

The hands go to a temporary file beside the target, renamed over it once every hand is written: an
interrupted or failed run leaves the old file as it was (and no half file).  Parquet is written in row
groups as the hands come, so memory does not grow with their number.

>>> import os, tempfile
>>> from badacey_fast.histories import parse
>>> from badacey_fast.histories.model import EXAMPLE
>>> path = os.path.join(tempfile.mkdtemp(), "hands.jsonl")
>>> with HandWriter(path) as out:
...     for hand in parse(EXAMPLE):
...         _ = out.add(hand)
>>> with open(path) as f:
...     lines = f.read().splitlines()
>>> out.written, len(lines), sorted(os.listdir(os.path.dirname(path)))
(1, 1, ['hands.jsonl'])
>>> HandWriter(os.path.join(os.path.dirname(path), "hands.csv"))
Traceback (most recent call last):
...
badacey_fast.errors.FileFormatError: '...hands.csv': unknown extension '.csv' for hand histories, expected .jsonl, .json, .phhs, .parquet or .pq
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import IO, Any

from badacey_fast.errors import HandHistoryError
from badacey_fast.files.outputs import AtomicFile, output_format as _format_of
from badacey_fast.histories.export import to_dict, to_phh
from badacey_fast.histories.model import RealHand
from badacey_fast.histories.engine import Replay

__all__ = ["HandWriter", "FORMATS", "output_format"]

#: Output formats by file extension.
FORMATS = {".jsonl": "jsonl", ".json": "jsonl", ".phhs": "phhs", ".parquet": "parquet", ".pq": "parquet"}
_ROW_GROUP = 65536  # Parquet rows buffered before a row group is written


def output_format(path: str) -> str:
    """``"jsonl"``, ``"phhs"`` or ``"parquet"`` from a path's extension; an
    :class:`~badacey_fast.errors.FileFormatError` naming it otherwise."""
    return _format_of(path, FORMATS, "hand histories")


class HandWriter:
    """Write hands to ``path`` (the format from its extension), atomically (see the module docstring).
    ``add`` returns False for a hand the format cannot hold (PHH has no code for 5 Card Draw): ``skipped``
    counts them by reason; ``written`` counts the others."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.format = output_format(self.path)
        self.written = 0
        self.skipped: dict[str, int] = {}
        self._out: AtomicFile | None = None
        self._file: IO[str] | None = None
        self._rows: list[dict[str, Any]] = []
        self._parquet: Any = None

    def __enter__(self) -> HandWriter:
        # Whole or not at all through the one mechanism every output uses (files.outputs.AtomicFile).
        self._out = AtomicFile(self.path)
        if self.format == "parquet":
            from badacey_fast.files.arrow import require_pyarrow
            from badacey_fast.histories.table import schema

            pa = require_pyarrow()
            import pyarrow.parquet as pq

            self._schema = schema(pa)
            self._parquet = pq.ParquetWriter(self._out.path, self._schema)
        else:
            self._file = open(self._out.path, "w", encoding="utf-8", newline="\n")
        return self

    def add(self, hand: RealHand, replayed: Replay | None = None) -> bool:
        """Write one hand (``replayed``: its replay, when the caller has it, for the JSON engine history)."""
        if self.format == "jsonl":
            import json

            assert self._file is not None
            self._file.write(json.dumps(to_dict(hand, replayed), ensure_ascii=False) + "\n")
        elif self.format == "phhs":
            assert self._file is not None
            try:
                text = to_phh(hand)
            except HandHistoryError as exc:
                reason = str(exc).split(" (PHH codes")[0]
                self.skipped[reason] = self.skipped.get(reason, 0) + 1
                return False
            self._file.write(f"{'' if not self.written else chr(10)}[{self.written + 1}]\n{text}")
        else:
            from badacey_fast.histories.table import player_rows

            self._rows.extend(player_rows(hand))
            if len(self._rows) >= _ROW_GROUP:
                self._flush()
        self.written += 1
        return True

    def _flush(self) -> None:
        if self._rows:
            columns = {name: [row[name] for row in self._rows] for name in self._schema.names}
            import pyarrow as pa

            self._parquet.write_table(pa.Table.from_pydict(columns, schema=self._schema))
            self._rows = []

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        out = self._out
        assert out is not None  # __enter__ made it
        try:
            if self._parquet is not None:
                if kind is None:
                    self._flush()
                self._parquet.close()
            if self._file is not None:
                self._file.close()
        except BaseException:
            out.discard()
            raise
        out.__exit__(kind)
