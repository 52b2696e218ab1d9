"""Exact best response and exploitability for the small games too large for the full layers -- mini Badugi
first -- on the **compact** exact path of the C core (``csrc/solve.c``, ``bd_cs_*``; C only).

The full layers (:mod:`badacey_fast.solve.tree`) keep a row for every sequence of hands a seat may hold:
4.9 billion strategy entries in mini Badugi.  The compact path merges them twice, losing nothing
(Gilpin & Sandholm 2007, "Lossless abstraction of imperfect information games"):

* by what is left of a sequence -- the hand held now and the cards thrown (its **dead cards**): two
  sequences that end there face the same opponents (card removal depends on every card held) with the same
  cards to come, so every strategy gives them equal counterfactual values;
* by suit renaming: one canonical state per class of isomorphic states.

Sizes of mini Badugi (20 cards, 4-card hands, one draw, cap 2), per seat: 4,845 deals in 330 canonical
classes; after a draw of k cards C(20, 4) C(16, k) states (hand, dead cards) -- 8.8 million for k = 4,
in 384,420 canonical ones (12.2 million in 537,170 over all k); 75 betting subtrees after the draw (3
lines to the draw times 5 x 5 draw counts) of 6 decisions, 5 showdowns and 4 folds; 112,903,710 strategy
entries (0.9 GB as float64) where the full layers had 4.9 billion.  A terminal sums the opponent's reach
exactly, without inclusion-exclusion: gathered per canonical set of the cards it held (per rank class of
its hand), summed up the lattice of canonical card sets (52,360 of them) to the complement of each set of
mine, read in rank order -- about 10 million additions a showdown.

A compact strategy (:class:`CompactStrategy`) is one float64 array: per decision, a row per canonical
state of the actor, a column per action or discard mask (bit j = the j-th lowest card of the canonical
hand).  Isomorphic states play alike by construction.

The compact path runs on the C twin only (on the Python twin it raises SolveError):

>>> from badacey_fast.solve.spec import GameSpec
>>> g = GameSpec.of("badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1)
>>> [round(v, 6) for v in values(g, "uniform")[0]]
[1.363095, 1.25]
"""

from __future__ import annotations

from itertools import permutations
from math import comb
from typing import Any

import numpy as np

from badacey_fast import kernel
from badacey_fast.errors import SolveError
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.tree import BET, DRAW, Tree, hand_ranks

__all__ = ["Compact", "CompactStrategy", "compact_of", "values", "sizes"]

Vec = np.ndarray[Any, Any]

_COMPACT: dict[GameSpec, "Compact"] = {}


class Compact:
    """The compact tables of one game (built once by the C core; see the module docstring)."""

    def __init__(self, spec: GameSpec) -> None:
        core = kernel.compact_solver()
        if core is None:
            raise SolveError("the compact exact path runs on the C twin only (BADACEY_FAST_BACKEND=c); the "
                             "Python twin solves the games whose full layers fit (solve.exploitability)")
        self.spec = spec
        self.tree = tree = Tree(spec, layers=False)
        n = tree.n_nodes
        thrown = np.array([[sum(v.counts[s]) for v in tree.nodes] for s in (0, 1)], np.int32).reshape(-1)
        classes = [np.unique(r, return_inverse=True) for r in hand_ranks(spec)]
        arrays: dict[str, Vec] = {"kind": tree.kind, "player": tree.player, "child": tree.child, "n_child": tree.n_child,
                  "thrown": np.ascontiguousarray(thrown), "payoff": np.ascontiguousarray(tree.payoff.reshape(-1)),
                  "chance": tree.chance, "n_classes": np.array([len(u) for u, _ in classes], np.int32),
                  "hand_class": np.ascontiguousarray(np.concatenate([inv.reshape(-1) for _, inv in classes])
                                                     .astype(np.uint16))}
        try:
            self.core = core(arrays, spec.ranks, spec.suits, spec.hand_size)
        except ValueError as e:
            raise SolveError(f"{spec.label()}: {e}") from None
        self.thrown = thrown.reshape(2, n)
        self.strategy_size = self.core.strategy_size
        self.offset = self.core.offset

    def space_size(self, seat: int, node: int) -> int:
        """Canonical states of ``seat`` at ``node``."""
        return self.core.space_size(int(self.thrown[seat, node]))

    def columns(self, node: int) -> int:
        """Columns of a decision's rows: its actions, or every discard mask."""
        return self.tree.columns(node)

    def rows(self, arr: Vec, node: int) -> Vec:
        """A view of ``arr``'s rows at decision ``node`` (canonical states x columns)."""
        m = self.space_size(self.tree.nodes[node].player, node)
        c = self.columns(node)
        return arr[self.offset[node]:self.offset[node] + m * c].reshape(m, c)

    def uniform(self) -> Vec:
        """The uniform compact strategy."""
        out = np.empty(self.strategy_size, np.float64)
        for i, v in enumerate(self.tree.nodes):
            if v.kind in (BET, DRAW):
                self.rows(out, i)[:] = 1.0 / self.columns(i)
        return out

    def value(self, strategy: Vec | None, seat: int, follow: bool = False) -> float:
        """Chips per hand of ``seat``: its best response to ``strategy`` (None: uniform), or its value when
        it plays ``strategy`` too (``follow``)."""
        return self.core.value(strategy, seat, follow)

    def full_strategy(self, compact: Vec) -> Vec:
        """The full-layer strategy (:mod:`badacey_fast.solve.tree` layout) that plays ``compact`` at every
        sequence of hands: its class's row, masks renamed to the sequence's own cards (for the games whose
        full layers fit: the tests hold the two paths to each other)."""
        full = Tree(self.spec)
        out = np.empty(full.strategy_size, np.float64)
        S = self.spec.suits
        for i, v in enumerate(full.nodes):
            if v.kind not in (BET, DRAW):
                continue
            layer = full.layer(i, v.player)
            cols = full.columns(i)
            src = self.rows(compact, i)
            dst = out[full.offset[i]:full.offset[i] + full.layer_sizes[layer] * cols].reshape(-1, cols)
            a, b = full.layer_start[layer], full.layer_start[layer + 1]
            for j, (hand, seen) in enumerate(zip(full.hand[a:b].tolist(), full.seen[a:b].tolist())):
                idx, perm = self.core.index(hand, seen & ~hand)
                if v.kind == BET:
                    dst[j] = src[idx]
                    continue
                mine = [p for p in range(self.spec.n_cards) if hand >> p & 1]
                canon = sorted((p // S) * S + perm[p % S] for p in mine)
                where = [canon.index((p // S) * S + perm[p % S]) for p in mine]
                for m in range(cols):
                    dst[j, m] = src[idx, sum(1 << where[t] for t in range(len(mine)) if m >> t & 1)]
        return out

    def symmetric(self, compact: Vec) -> Vec:
        """``compact`` with each draw row averaged over the renamings of suits that fix its state (a row
        that plays two isomorphic discards of one hand differently is not a strategy of the class)."""
        out: Vec = np.array(compact, np.float64)
        S, n = self.spec.suits, self.spec.n_cards
        for i, v in enumerate(self.tree.nodes):
            if v.kind != DRAW:
                continue
            d = int(self.thrown[v.player, i])
            rows = self.rows(out, i)
            for idx in range(rows.shape[0]):
                hand, dead, orbit = self.core.state(d, idx)
                if orbit == float(np.prod(range(1, S + 1))):
                    continue  # no renaming fixes it
                mine = [p for p in range(n) if hand >> p & 1]
                maps = []
                for perm in permutations(range(S)):
                    ren = sum(1 << ((p // S) * S + perm[p % S]) for p in range(n) if (hand | dead) >> p & 1)
                    ren_h = sum(1 << ((p // S) * S + perm[p % S]) for p in mine)
                    if ren == hand | dead and ren_h == hand:
                        where = [mine.index((p // S) * S + perm[p % S]) for p in mine]
                        maps.append([sum(1 << where[t] for t in range(len(mine)) if m >> t & 1)
                                     for m in range(rows.shape[1])])
                row = rows[idx].copy()
                rows[idx] = np.mean([row[mp] for mp in maps], axis=0)
        return out


def compact_of(game: object) -> Compact:
    """The compact tables of ``game`` (kept: the last two games)."""
    spec = GameSpec.of(game)
    found = _COMPACT.get(spec)
    if found is None:
        found = Compact(spec)
        while len(_COMPACT) >= 2:
            _COMPACT.pop(next(iter(_COMPACT)))
        _COMPACT[spec] = found
    return found


class CompactStrategy:
    """A strategy of both seats of ``game`` in the compact layout (``probs``: see the module docstring)."""

    def __init__(self, game: object, probs: Vec) -> None:
        self.compact = compact_of(game)
        self.game = self.compact.spec
        if probs.shape != (self.compact.strategy_size,):
            raise SolveError(f"a compact strategy of {self.game.label()} has {self.compact.strategy_size} entries, "
                             f"not {probs.size}")
        self.probs = np.ascontiguousarray(probs, np.float64)

    @classmethod
    def uniform(cls, game: object) -> "CompactStrategy":
        """Every legal action alike."""
        return cls(game, compact_of(game).uniform())


def values(game: object, strategy: object = "uniform") -> tuple[tuple[float, float], float]:
    """Each seat's best-response value to ``strategy`` (``"uniform"`` or a :class:`CompactStrategy`) and
    seat 0's value when it plays itself, chips per hand, on the compact path (C twin only).
    :func:`badacey_fast.solve.exploitability` calls this for a CompactStrategy, and for ``"uniform"`` in a
    game too large for the full layers.

    >>> values(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1), "raise")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.SolveError: the compact path takes 'uniform' or a CompactStrategy, not 'raise'
    """
    spec = GameSpec.of(game)
    if isinstance(strategy, CompactStrategy):
        if strategy.game != spec:
            raise SolveError(f"the strategy is of {strategy.game.label()}, not {spec.label()}")
        probs: Vec | None = strategy.probs
    elif isinstance(strategy, str) and strategy == "uniform":
        probs = None
    else:
        raise SolveError(f"the compact path takes 'uniform' or a CompactStrategy, not {strategy!r}")
    c = compact_of(spec)
    return (c.value(probs, 0), c.value(probs, 1)), c.value(probs, 0, follow=True)


def sizes(game: object) -> dict[str, int]:
    """The compact path's sizes of ``game``: canonical states per cards thrown, strategy entries."""
    c = compact_of(game)
    spec = c.spec
    out = {f"states thrown {d}": c.core.space_size(d) for d in range(spec.draws * spec.hand_size + 1)
           if c.core.space_size(d) >= 0}
    out["strategy entries"] = c.strategy_size
    out["full deals"] = comb(spec.n_cards, spec.hand_size)
    return out
