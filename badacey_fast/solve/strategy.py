"""Strategies of a small heads-up draw game: a probability for every action at every information state,
one float64 array in the layout of :class:`~badacey_fast.solve.tree.Tree` (what the exact computations
read), with conversions from what people hold -- ``"uniform"``, a table keyed by information state, a
callable -- and a file format (``.npz`` or Arrow IPC: the game's fields and the array).

An **information state** (:class:`InfoState`) is what the seat to act knows: its seat, the public
history (betting tokens ``f k c b r``, ``d<k>`` for a draw of k cards), its hands -- the deal, then the
hand after each of its draws, card ids -- and the legal actions: ``fold``/``check``/``call``/``bet``/
``raise`` at a bet, at a draw every set of cards it may throw (tuples of card ids, by discard mask: bit
j = its j-th lowest card, as OpenSpiel's draw actions).

>>> from badacey_fast.solve.spec import GameSpec
>>> s = Strategy.uniform(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1))
>>> info = next(iter(s.info_states()))
>>> info.seat, info.history, info.actions, s.probabilities(info)
(0, (), ('fold', 'call'), (0.5, 0.5))
>>> Strategy.uniform(s.game).probabilities(info._replace(history=("x",)))
Traceback (most recent call last):
...
badacey_fast.errors.InformationStateError: no information state seat 0 [Ac] x in badugi R3 S2 H1 D1 cap1: no public node x
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from badacey_fast import kernel
from badacey_fast.errors import InformationStateError, MissingExtraError, SolveError
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.tree import BET, DRAW, Tree, state_index

__all__ = ["InfoState", "Strategy", "as_strategy", "tree_of", "FORMAT", "info_state_index", "info_state"]

#: The ``format`` field of a saved strategy.
FORMAT = "badacey_fast.solve.strategy/1"


class InfoState(NamedTuple):
    """What the seat to act knows (see the module docstring); hashable: a key of strategy tables."""

    seat: int
    history: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]
    actions: tuple[Any, ...]

    def __str__(self) -> str:
        from badacey_fast.cards import format_cards

        hands = " > ".join(format_cards(h) for h in self.hands)
        return f"seat {self.seat} [{hands}] {' '.join(self.history) or '-'}"


def tree_of(spec: GameSpec) -> Tree:
    """The tree of ``spec``, built once per twin (the last two games are kept: trees can be large)."""
    return _tree(kernel.name, spec)


@functools.lru_cache(maxsize=2)  # the last two games: a tree can be large
def _tree(twin: str, spec: GameSpec) -> Tree:
    return Tree(spec)


class Strategy:
    """A strategy of both seats of ``game`` (the array ``probs``, the layout of the game's tree).

    ``probs`` rows are probability distributions (checked by :meth:`check`).  Use :meth:`uniform`,
    :func:`as_strategy`, :func:`~badacey_fast.solve.cfr` or :meth:`load` to make one.
    """

    def __init__(self, game: GameSpec, probs: np.ndarray[Any, Any]) -> None:
        self.game = game
        self.tree = tree_of(game)
        if probs.shape != (self.tree.strategy_size,):
            raise SolveError(f"a strategy of {game.label()} has {self.tree.strategy_size} entries, not {probs.size}")
        self.probs = np.ascontiguousarray(probs, np.float64)

    @classmethod
    def uniform(cls, game: object) -> "Strategy":
        """Every legal action alike (every discard set at a draw)."""
        spec = GameSpec.of(game)
        tree = tree_of(spec)
        out = np.empty(tree.strategy_size, np.float64)
        for i, node in enumerate(tree.nodes):
            if node.kind in (BET, DRAW):
                size = tree.layer_sizes[tree.layer(i, node.player)] * tree.columns(i)
                out[tree.offset[i]:tree.offset[i] + size] = 1.0 / tree.columns(i)
        return cls(spec, out)

    # -------------------------------------------------------------------------------- reading
    def rows(self, node: int) -> np.ndarray[Any, Any]:
        """The rows (states x actions) of decision ``node``: a view."""
        t = self.tree
        m = t.layer_sizes[t.layer(node, t.nodes[node].player)]
        c = t.columns(node)
        return self.probs[t.offset[node]:t.offset[node] + m * c].reshape(m, c)

    def locate(self, info: InfoState) -> tuple[int, int]:
        """The (node, state index) of an information state (:class:`~badacey_fast.errors.InformationStateError`,
        a ``ValueError``, naming the state when the game has none)."""
        t = self.tree

        def unknown(why: str) -> InformationStateError:
            return InformationStateError(f"no information state {info} in {self.game.label()}: {why}")

        try:
            node = t.find(info.history)
        except KeyError:
            raise unknown(f"no public node {' '.join(info.history) or '(root)'}") from None
        nd = t.nodes[node]
        if nd.kind not in (BET, DRAW) or nd.player != info.seat:
            raise unknown(f"seat {info.seat} does not act at {' '.join(info.history) or '(root)'}")
        pos = {c: i for i, c in enumerate(self.game.deck)}
        try:
            hands = tuple(tuple(sorted(pos[c] for c in h)) for h in info.hands)
        except (KeyError, TypeError):
            bad = next((c for h in info.hands for c in h if c not in pos), info.hands)
            raise unknown(f"card {bad!r} is not in the deck") from None
        counts = nd.counts[info.seat]
        if (len(hands) != len(counts) + 1 or any(len(h) != self.game.hand_size or len(set(h)) != len(h)
                                                 for h in hands)):
            raise unknown(f"seat {info.seat} there holds {len(counts) + 1} hand(s) of {self.game.hand_size} "
                          f"cards, not {[len(h) for h in hands]}")
        thrown = tuple(len(set(a) - set(b)) for a, b in zip(hands, hands[1:]))
        if thrown != tuple(counts):
            raise unknown(f"the hands throw {list(thrown)} card(s), the public draws {list(counts)}")
        try:
            return node, state_index(self.game, hands)
        except ValueError:  # a card held twice over the draws, a kept card not from the hand before
            raise unknown(f"hands {info.hands} are not one seat's hands through its draws") from None

    def probabilities(self, info: InfoState) -> tuple[float, ...]:
        """The probability of each of ``info.actions`` (in their order)."""
        node, idx = self.locate(info)
        return tuple(float(x) for x in self.rows(node)[idx])

    def info_states(self, seat: int | None = None) -> Iterator[InfoState]:
        """Every information state of the game (of ``seat`` only, when given), node by node."""
        t = self.tree
        deck = self.game.deck
        for i, nd in enumerate(t.nodes):
            if nd.kind not in (BET, DRAW) or (seat is not None and nd.player != seat):
                continue
            layer = t.layer(i, nd.player)
            for idx in range(t.layer_sizes[layer]):
                hands = t.hands_of(layer, idx)
                cards = tuple(tuple(deck[p] for p in h) for h in hands)
                yield InfoState(nd.player, nd.history, cards, self._actions(i, cards[-1]))

    def _actions(self, node: int, hand: tuple[int, ...]) -> tuple[Any, ...]:
        nd = self.tree.nodes[node]
        if nd.kind == BET:
            return nd.actions
        return tuple(tuple(c for j, c in enumerate(hand) if m >> j & 1) for m in range(1 << len(hand)))

    def check(self, tol: float = 1e-9) -> None:
        """Refuse rows that are not probability distributions (``SolveError`` naming the first)."""
        t = self.tree
        for i, nd in enumerate(t.nodes):
            if nd.kind not in (BET, DRAW):
                continue
            rows = self.rows(i)
            bad = np.flatnonzero((rows < 0).any(axis=1) | (np.abs(rows.sum(axis=1) - 1.0) > tol)
                                 | ~np.isfinite(rows).all(axis=1))
            if bad.size:
                r = rows[bad[0]]
                raise SolveError(f"the strategy at {' '.join(nd.history) or '(root)'} (seat {nd.player}, state "
                                 f"{bad[0]}) is not a probability distribution: {r.tolist()}")

    # ----------------------------------------------------------------------------------- files
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write to ``path`` -- an ``.npz`` (the game's fields as JSON and the array), or an Arrow IPC file
        when its name ends in ``.arrow``, ``.feather`` or ``.ipc`` (the ``[parquet]`` extra: pyarrow) --
        through a temporary file beside it renamed when whole: an interrupted save leaves the old file.

        >>> import os, tempfile
        >>> s = Strategy.uniform(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1))
        >>> path = os.path.join(tempfile.mkdtemp(), "uniform.arrow")
        >>> s.save(path); Strategy.load(path).probs.tolist() == s.probs.tolist()
        True
        """
        save_arrays(path, {"probs": self.probs}, {"format": FORMAT, "game": asdict(self.game)})

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Strategy":
        """Read a strategy written by :meth:`save`, npz or Arrow whatever its name (``SolveError`` if it is
        not one, or does not fit)."""
        arrays, meta = load_arrays(path)
        if meta.get("format") != FORMAT or "probs" not in arrays:
            raise SolveError(f"{path} is not a saved strategy ({FORMAT})")
        strat = cls(GameSpec.of(None, **meta["game"]), arrays["probs"])
        strat.check()
        return strat


#: File suffixes written as an Arrow IPC file (the ``[parquet]`` extra's pyarrow); any other is ``.npz``.
ARROW_SUFFIXES = (".arrow", ".feather", ".ipc")
_ARROW_MAGIC = b"ARROW1"
_META_KEY = b"badacey_fast.solve"


def save_arrays(path: str | os.PathLike[str], arrays: Mapping[str, np.ndarray[Any, Any]], meta: Mapping[str, Any]) -> None:
    """Arrays and a JSON header into one file, atomically (a temporary beside it, renamed when whole): an
    Arrow IPC file when the name ends in ``.arrow``, ``.feather`` or ``.ipc`` (one row, one list column per
    array, the header in the schema's metadata; needs the ``[parquet]`` extra), else an ``.npz``."""
    from badacey_fast.files.outputs import AtomicFile

    arrow = Path(path).suffix.lower() in ARROW_SUFFIXES
    pa = MissingExtraError.require("pyarrow", "parquet", "Arrow strategy files") if arrow else None
    with AtomicFile(path) as out:
        if pa is None:
            with out.open() as f:
                payload: dict[str, Any] = {"__meta__": np.frombuffer(json.dumps(meta).encode(), np.uint8), **arrays}
                np.savez(f, **payload)
            return
        shapes = {name: list(a.shape) for name, a in arrays.items()}
        header = json.dumps({"meta": meta, "shapes": shapes}).encode()
        columns = [pa.LargeListArray.from_arrays(pa.array([0, a.size], pa.int64()), pa.array(a.reshape(-1)))
                   for a in arrays.values()]
        table = pa.Table.from_arrays(columns, names=list(arrays)).replace_schema_metadata({_META_KEY: header})
        with pa.OSFile(out.path, "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
            writer.write_table(table)


def load_arrays(path: str | os.PathLike[str]) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
    """The arrays and the JSON header of a file written by :func:`save_arrays` (``.npz`` or Arrow, told
    apart by their first bytes whatever the name)."""
    try:
        with open(path, "rb") as f:
            magic = f.read(len(_ARROW_MAGIC))
    except OSError as e:
        raise SolveError(f"cannot read {path}: {e}") from None
    if magic == _ARROW_MAGIC:
        return _load_arrow(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError) as e:
        raise SolveError(f"cannot read {path}: {e}") from None
    raw = arrays.pop("__meta__", None)
    if raw is None:
        raise SolveError(f"{path} has no header: not written by badacey_fast.solve")
    return arrays, json.loads(raw.tobytes().decode())


def _load_arrow(path: str | os.PathLike[str]) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
    pa = MissingExtraError.require("pyarrow", "parquet", "Arrow strategy files")
    try:
        with pa.memory_map(os.fspath(path), "r") as source:
            table = pa.ipc.open_file(source).read_all()
        raw = (table.schema.metadata or {}).get(_META_KEY)
        if raw is None:
            raise SolveError(f"{path} has no header: not written by badacey_fast.solve")
        header = json.loads(raw.decode())
        arrays: dict[str, np.ndarray[Any, Any]] = {}
        for name, shape in header["shapes"].items():
            column = table.column(name)
            if column.num_chunks != 1 or len(column) != 1:
                raise SolveError(f"{path}: its {name} is not one array")
            flat = column.chunk(0).values.to_numpy(zero_copy_only=False)
            arrays[name] = np.array(flat).reshape(shape)  # a copy: the map closes with the file
    except (OSError, ValueError, KeyError, TypeError, pa.ArrowException) as e:
        if isinstance(e, SolveError):
            raise
        raise SolveError(f"cannot read {path}: {type(e).__name__}: {e}") from None
    return arrays, header["meta"]


def info_state_index(game: object, info: InfoState, canonical: bool = True) -> tuple[int, int]:
    """The index of an information state of a small game: (public node, state in the seat's layer) --
    with ``canonical`` (default), of its suit-canonical form (:func:`badacey_fast.solve.iso.canonical_sequence`),
    so that isomorphic information states share it.  :func:`info_state` is the inverse.

    >>> from badacey_fast.solve.spec import GameSpec
    >>> g = GameSpec.of("badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1)
    >>> a = InfoState(0, ("c", "k", "d0", "d0", "k"), ((0,), (0,)), ())   # Ac, stood pat
    >>> b = InfoState(0, ("c", "k", "d0", "d0", "k"), ((1,), (1,)), ())   # Ad, stood pat
    >>> info_state_index(g, a) == info_state_index(g, b), info_state_index(g, a, canonical=False) == info_state_index(g, b, canonical=False)
    (True, False)
    >>> info_state(g, *info_state_index(g, b)).hands
    ((0,), (0,))
    """
    from badacey_fast.solve.iso import canonical_sequence

    strat = Strategy.uniform(GameSpec.of(game))
    if canonical:
        info = info._replace(hands=canonical_sequence([list(h) for h in info.hands]))
    return strat.locate(info)


def info_state(game: object, node: int, index: int) -> InfoState:
    """The information state of (public node, state index): the inverse of :func:`info_state_index`
    (:class:`~badacey_fast.errors.InformationStateError` for a node or index the game has not).

    >>> from badacey_fast.solve.spec import GameSpec
    >>> info_state(GameSpec.of("badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1), 0, 99)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InformationStateError: state 99 is outside 0..8 at node 0 of badugi R3 S3 H1 D1 cap1
    """
    spec = GameSpec.of(game)
    tree = tree_of(spec)
    if not 0 <= node < tree.n_nodes:
        raise InformationStateError(f"node {node} is outside 0..{tree.n_nodes - 1} in {spec.label()}")
    nd = tree.nodes[node]
    if nd.kind not in (BET, DRAW):
        raise InformationStateError(f"node {node} of {spec.label()} is not a decision")
    layer = tree.layer(node, nd.player)
    if not 0 <= index < tree.layer_sizes[layer]:
        raise InformationStateError(f"state {index} is outside 0..{tree.layer_sizes[layer] - 1} at node {node} of "
                                    f"{spec.label()}")
    hands = tuple(tuple(spec.deck[p] for p in h) for h in tree.hands_of(layer, index))
    return InfoState(nd.player, nd.history, hands, Strategy(spec, np.zeros(tree.strategy_size))._actions(node, hands[-1]))


Table = Mapping[Any, Any]


def as_strategy(game: GameSpec, strategy: object) -> Strategy:
    """A :class:`Strategy` of ``game`` from ``"uniform"``, a Strategy of the same game, a strategy-shaped
    array, a table keyed by :class:`InfoState` (or by its ``str``) giving each state's probabilities (a
    sequence in ``actions`` order, or a mapping action -> probability), or a callable ``f(info) -> the
    same``.  Every row is checked to be a probability distribution.

    >>> from badacey_fast.solve.spec import GameSpec
    >>> g = GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1)
    >>> s = as_strategy(g, lambda info: {info.actions[0]: 1.0})     # always the first action
    >>> s.probabilities(next(iter(s.info_states())))
    (1.0, 0.0)
    >>> as_strategy(g, {})
    Traceback (most recent call last):
    ...
    badacey_fast.errors.SolveError: the table has no entry for seat 0 [Ac] - (and 317 more information states)
    """
    if isinstance(strategy, str):
        if strategy != "uniform":
            raise SolveError(f"unknown strategy {strategy!r}: give 'uniform', a table, a callable or a Strategy")
        return Strategy.uniform(game)
    if isinstance(strategy, Strategy):
        if strategy.game != game:
            raise SolveError(f"the strategy is of {strategy.game.label()}, not {game.label()}")
        return strategy
    if isinstance(strategy, np.ndarray):
        out = Strategy(game, strategy.astype(np.float64, copy=True))
        out.check()
        return out
    if isinstance(strategy, Mapping):
        return _from_function(game, _table_lookup(strategy), "the table")
    if callable(strategy):
        return _from_function(game, strategy, "the callable")
    raise TypeError(f"a strategy must be 'uniform', a Strategy, an array, a table or a callable, not "
                    f"{type(strategy).__name__}")


#: What a table's lookup returns for an information state it lacks (a value no caller's table holds).
_MISSING = object()


def _table_lookup(table: Table) -> Callable[[InfoState], Any]:
    def look(info: InfoState) -> Any:
        if info in table:
            return table[info]
        key = str(info)
        if key in table:
            return table[key]
        return _MISSING

    return look


def _from_function(game: GameSpec, f: Callable[[InfoState], Any], what: str) -> Strategy:
    strat = Strategy.uniform(game)
    missing: list[InfoState] = []
    for info in strat.info_states():
        got = f(info)
        if got is _MISSING:
            missing.append(info)
            continue
        row = _row(info, got, what)
        node, idx = strat.locate(info)
        strat.rows(node)[idx] = row
    if missing:
        more = f" (and {len(missing) - 1} more information states)" if len(missing) > 1 else ""
        raise SolveError(f"{what} has no entry for {missing[0]}{more}")
    strat.check()
    return strat


def _row(info: InfoState, got: Any, what: str) -> np.ndarray[Any, Any]:
    n = len(info.actions)
    if isinstance(got, Mapping):
        row = np.zeros(n)
        index = {a: i for i, a in enumerate(info.actions)}
        for a, p in got.items():
            if a not in index:
                raise SolveError(f"{what} gives {a!r} at {info}, not one of its actions {info.actions}")
            row[index[a]] = float(p)
        return row
    if isinstance(got, Sequence) or isinstance(got, np.ndarray):
        row = np.asarray(got, np.float64).reshape(-1)
        if row.size != n:
            raise SolveError(f"{what} gives {row.size} probabilities at {info}, which has {n} actions")
        return row
    raise TypeError(f"{what} must give a sequence or a mapping of probabilities, not {type(got).__name__}")
