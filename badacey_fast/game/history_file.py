"""A file of hand histories, hand after hand: a PHH hand set (``.phhs``) or JSON lines (``.jsonl``).

:class:`HistoryFile` takes finished hands one at a time (``add(game)``) -- from
:func:`~badacey_fast.game.simulate.simulate` (``save=``), a :class:`~badacey_fast.game.table.Table`
(``save=``), ``badacey simulate --save`` and ``badacey play --save`` -- and writes them whole or not at
all: to a temporary beside the target, renamed over it when the block ends normally
(:class:`badacey_fast.files.outputs.AtomicFile`); an error or an interrupt leaves the old file as it was.
:func:`read_histories` replays such a file back to its games.

- ``.phhs``: each hand's PHH (:func:`~badacey_fast.game.phh.to_phh`) under ``[1]``, ``[2]``, ... -- the
  hand-set layout pokerkit reads with ``HandHistory.loads_all``;
  :func:`~badacey_fast.game.phh.replay_phhs` replays it.
- ``.jsonl``: one JSON history a line (:func:`~badacey_fast.game.history.history`, our complete format);
  :func:`~badacey_fast.game.history.replay` replays each.

>>> import os, tempfile
>>> from badacey_fast.game import Game
>>> path = os.path.join(tempfile.mkdtemp(), "hands.phhs")
>>> with HistoryFile(path) as out:
...     for seed in (1, 2, 3):
...         out.add(Game(stacks=[40, 40], seed=seed).apply("fold"))
>>> out.written, [g.stacks for g in read_histories(path)]
(3, [[39, 41], [39, 41], [39, 41]])
>>> HistoryFile("hands.txt")
Traceback (most recent call last):
...
badacey_fast.errors.FileFormatError: 'hands.txt': unknown extension '.txt' for hand histories, expected .phhs or .jsonl
"""

from __future__ import annotations

import json
import os
from types import TracebackType
from typing import IO

from badacey_fast.errors import BadaceyError, HandHistoryError
from badacey_fast.files.outputs import AtomicFile, output_format
from badacey_fast.game.history import from_json, history, replay
from badacey_fast.game.phh import phhs_entry, replay_phhs
from badacey_fast.game.state import Game

__all__ = ["HistoryFile", "FORMATS", "history_format", "read_histories"]

#: Hand-history file formats by extension.
FORMATS = {".phhs": "phhs", ".jsonl": "jsonl"}


def history_format(path: str | os.PathLike[str]) -> str:
    """``"phhs"`` (a PHH hand set) or ``"jsonl"`` (JSON lines) from a path's extension; an
    :class:`~badacey_fast.errors.FileFormatError` naming it and the allowed ones otherwise (checked before
    any hand is played).

    >>> history_format("run/hands.JSONL")
    'jsonl'
    """
    return output_format(path, FORMATS, "hand histories")


class HistoryFile:
    """Write finished hands to ``path`` (its format from the extension: ``.phhs`` or ``.jsonl``), whole or
    not at all (see the module docstring).  Use it as a context manager; ``written`` counts the hands.

    >>> import os, tempfile
    >>> with HistoryFile(os.path.join(tempfile.mkdtemp(), "h.jsonl")) as out:
    ...     out.add(Game(stacks=[40, 40], seed=1))               # a hand still running
    Traceback (most recent call last):
    ...
    badacey_fast.errors.HandHistoryError: only a finished hand is saved: this one is in its betting phase
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.format = history_format(self.path)
        self.written = 0
        self._out: AtomicFile | None = None
        self._file: IO[str] | None = None

    def __enter__(self) -> HistoryFile:
        self._out = AtomicFile(self.path)
        self._file = open(self._out.path, "a" if self._out.path == self._out.target else "x", encoding="utf-8",
                          newline="\n")
        return self

    def add(self, game: Game) -> None:
        """Write one finished hand (a :class:`~badacey_fast.game.state.Game` that is over)."""
        if not isinstance(game, Game):
            raise TypeError(f"expected a Game, not {type(game).__name__}")
        if not game.is_over:
            raise HandHistoryError(f"only a finished hand is saved: this one is in its {game.phase} phase")
        if self._file is None:
            raise BadaceyError("the history file is not open: use it in a with block")
        if self.format == "phhs":
            self._file.write(("\n" if self.written else "") + phhs_entry(self.written + 1, game))
        else:
            self._file.write(json.dumps(history(game)) + "\n")
        self.written += 1

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        out, file = self._out, self._file
        assert out is not None and file is not None  # __enter__ made them
        self._file = None
        try:
            file.close()
        except BaseException:
            out.discard()
            raise
        out.__exit__(kind)


def read_histories(path: str | os.PathLike[str]) -> list[Game]:
    """Replay every hand of a hand-history file (``.phhs`` or ``.jsonl``, as :class:`HistoryFile` writes
    them) to its final state, in order; each hand's recorded result is checked.

    >>> read_histories("hands.csv")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.FileFormatError: 'hands.csv': unknown extension '.csv' for hand histories, expected .phhs or .jsonl
    """
    fmt = history_format(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if fmt == "phhs":
        return replay_phhs(text)
    return [replay(from_json(line)) for line in text.splitlines() if line.strip()]
