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

import functools
from collections.abc import Sequence
from dataclasses import asdict
from itertools import permutations
import os
from math import comb
from typing import Any

import numpy as np

from badacey_fast import kernel
from badacey_fast.errors import SolveError
from badacey_fast.errors import InformationStateError
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.strategy import FORMAT as STRATEGY_FORMAT
from badacey_fast.solve.strategy import InfoState, load_arrays, save_arrays
from badacey_fast.solve.tree import BET, DRAW, Tree, hand_ranks

__all__ = ["Compact", "CompactStrategy", "compact_of", "values", "sizes", "bot_strategy", "FORMAT"]

Vec = np.ndarray[Any, Any]


#: The ``format`` field of a saved compact strategy.
FORMAT = "badacey_fast.solve.compact-strategy/1"


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

    def normalise(self, average: Vec) -> Vec:
        """The strategy of accumulated ``average`` rows (CFR's average strategy): each row normalised, uniform
        where a state was never reached."""
        out = np.empty_like(average)
        for i, v in enumerate(self.tree.nodes):
            if v.kind in (BET, DRAW):
                a = self.rows(average, i)
                s = a.sum(axis=1, keepdims=True)
                np.divide(a, np.where(s > 0, s, 1.0), out=self.rows(out, i))
                self.rows(out, i)[(s <= 0).reshape(-1)] = 1.0 / a.shape[1]
        return out

    def cfr(self, regret: Vec, average: Vec, first: int, iterations: int, variant: int, alpha: float = 1.5,
            beta: float = 0.0, gamma: float = 2.0) -> None:
        """``iterations`` iterations of CFR (:data:`badacey_fast.solve.exact.CFR_PLUS` ...) over the compact
        layout from iteration ``first``, updating ``regret`` and ``average`` in place."""
        self.core.cfr(regret, average, first, iterations, variant, alpha, beta, gamma)

    def state_of(self, node: int, hands: Sequence[Sequence[int]]) -> tuple[int, list[int]]:
        """The canonical state of a seat at decision ``node`` holding ``hands`` (deck positions: the deal,
        then the hand after each draw): its row, and per column of the row the column of the seat's own
        hand (a draw's masks are in the canonical hand's order; a bet's columns are its own)."""
        hand = sum(1 << p for p in hands[-1])
        held = 0
        for h in hands:
            held |= sum(1 << p for p in h)
        idx, perm = self.core.index(hand, held & ~hand)
        nd = self.tree.nodes[node]
        if nd.kind != DRAW:
            return idx, list(range(self.columns(node)))
        S = self.spec.suits
        mine = sorted(hands[-1])
        canon = sorted((p // S) * S + perm[p % S] for p in mine)
        where = [canon.index((p // S) * S + perm[p % S]) for p in mine]
        return idx, [sum(1 << where[t] for t in range(len(mine)) if m >> t & 1) for m in range(self.columns(node))]

    def symmetric(self, compact: Vec, copy: bool = True) -> Vec:
        """``compact`` with each draw row averaged over the renamings of suits that fix its state (a row
        that plays two isomorphic discards of one hand differently is not a strategy of the class);
        ``copy=False`` averages ``compact``'s own rows (a mini game's strategy is 0.9 GB)."""
        out: Vec = np.array(compact, np.float64) if copy else compact
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
    """The compact tables of ``game``, built once per twin (kept: the last two games)."""
    return _compact(kernel.name, GameSpec.of(game))


@functools.lru_cache(maxsize=2)  # the last two games: the tables can be large
def _compact(twin: str, spec: GameSpec) -> Compact:
    return Compact(spec)


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

    def probabilities(self, info: InfoState) -> tuple[float, ...]:
        """The probability of each action of ``info`` (a bet's actions; at a draw every discard mask of the
        hand held, bit j = its j-th lowest card), as :meth:`Strategy.probabilities
        <badacey_fast.solve.strategy.Strategy.probabilities>`.

        >>> g = GameSpec.of("badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1)
        >>> s = CompactStrategy.uniform(g)
        >>> s.probabilities(InfoState(0, (), ((0,),), ()))
        (0.5, 0.5)
        >>> s.probabilities(InfoState(1, (), ((0,),), ()))
        Traceback (most recent call last):
        ...
        badacey_fast.errors.InformationStateError: no information state seat 1 [Ac] - in badugi R3 S3 H1 D1 cap1: seat 1 does not act at (root)
        """
        node, idx, cols = self.locate(info)
        row = self.compact.rows(self.probs, node)[idx]
        return tuple(float(row[c]) for c in cols)

    def locate(self, info: InfoState) -> tuple[int, int, list[int]]:
        """(node, canonical row, the row's column of each of the seat's own columns) of an information state
        (:class:`~badacey_fast.errors.InformationStateError` naming it when the game has none)."""
        tree, spec = self.compact.tree, self.game

        def unknown(why: str) -> InformationStateError:
            return InformationStateError(f"no information state {info} in {spec.label()}: {why}")

        try:
            node = tree.find(info.history)
        except KeyError:
            raise unknown(f"no public node {' '.join(info.history) or '(root)'}") from None
        nd = tree.nodes[node]
        if nd.kind not in (BET, DRAW) or nd.player != info.seat:
            raise unknown(f"seat {info.seat} does not act at {' '.join(info.history) or '(root)'}")
        pos = {c: i for i, c in enumerate(spec.deck)}
        try:
            hands = [sorted(pos[c] for c in h) for h in info.hands]
        except (KeyError, TypeError):
            raise unknown("a card is not in the deck") from None
        counts = nd.counts[info.seat]
        if len(hands) != len(counts) + 1 or any(len(h) != spec.hand_size or len(set(h)) != len(h) for h in hands):
            raise unknown(f"seat {info.seat} there holds {len(counts) + 1} hand(s) of {spec.hand_size} cards")
        held: set[int] = set()
        for before, after, k in zip(hands, hands[1:], counts):
            held.update(before)
            kept = set(before) & set(after)
            if len(kept) != spec.hand_size - k or set(after) - kept & held:
                raise unknown(f"hands {info.hands} are not one seat's hands through draws of {list(counts)}")
        idx, cols = self.compact.state_of(node, hands)
        return node, idx, cols

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write to ``path`` (``.npz``, or Arrow IPC by the suffix ``.arrow``/``.feather``/``.ipc``: the
        ``[parquet]`` extra), whole or not at all, as :meth:`Strategy.save
        <badacey_fast.solve.strategy.Strategy.save>`.

        >>> import tempfile
        >>> g = GameSpec.of("badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1)
        >>> path = os.path.join(tempfile.mkdtemp(), "uniform.npz")
        >>> CompactStrategy.uniform(g).save(path); CompactStrategy.load(path).game == g
        True
        """
        save_arrays(path, {"probs": self.probs}, {"format": FORMAT, "game": asdict(self.game)})

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "CompactStrategy":
        """Read a strategy written by :meth:`save` (``SolveError`` if it is not one, or its rows are not
        probability distributions)."""
        arrays, meta = load_arrays(path)
        if meta.get("format") != FORMAT or "probs" not in arrays:
            hint = " (a full-layer strategy: Strategy.load)" if meta.get("format") == STRATEGY_FORMAT else ""
            raise SolveError(f"{path} is not a saved compact strategy ({FORMAT}){hint}")
        out = cls(GameSpec.of(None, **meta["game"]), arrays["probs"])
        out.check()
        return out

    def check(self, tol: float = 1e-9) -> None:
        """Refuse rows that are not probability distributions (``SolveError`` naming the first)."""
        c = self.compact
        for i, nd in enumerate(c.tree.nodes):
            if nd.kind not in (BET, DRAW):
                continue
            rows = c.rows(self.probs, i)
            bad = np.flatnonzero((rows < 0).any(axis=1) | (np.abs(rows.sum(axis=1) - 1.0) > tol)
                                 | ~np.isfinite(rows).all(axis=1))
            if bad.size:
                raise SolveError(f"the compact strategy at {' '.join(nd.history) or '(root)'} (seat {nd.player}, "
                                 f"canonical state {bad[0]}) is not a probability distribution: {rows[bad[0]].tolist()}")


def bot_strategy(game: object, bot: object) -> CompactStrategy:
    """The compact strategy of a built-in bot (C twin only): the random bot plays every legal action and
    every discard alike (the uniform strategy); the rule-of-thumb bot
    (:class:`~badacey_fast.game.bots.RuleBot`) keeps its :func:`~badacey_fast.draw.policy.keep_cards` at a
    draw and bets by :func:`~badacey_fast.game.bots.rule_betting` (a weak hand facing a bet calls
    :data:`~badacey_fast.game.bots.RULE_FLOAT` of the time, else folds).  Both see only the hand held now
    and the public actions, so one row of each canonical state holds them -- but for one thing: where two
    discards are the same up to suits (throw one of As Ah), the rule keeps the card that comes first and a
    canonical row cannot tell which that is; here such ties are broken at random
    (:meth:`Compact.symmetric`).  So the rule's figure is exact for that **symmetrised** rule, and a lower
    bound for the bot itself (exploitability is convex: the symmetrised rule is the mean of the bot's
    renamings, each as exploitable as the bot).  The random bot's is exact.

    >>> g = GameSpec.of("badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=2)
    >>> from badacey_fast.game.bots import RuleBot
    >>> s = bot_strategy(g, RuleBot())
    >>> s.probabilities(InfoState(0, (), ((0, 5),), ()))     # Ac 2d, a two-card badugi: fold, call, raise
    (0.0, 0.0, 1.0)
    >>> bot_strategy(g, "rule")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.SolveError: the compact path reads the random and rule-of-thumb bots (RandomBot, RuleBot), not 'rule'
    """
    from badacey_fast.game.bots import RULE_FLOAT, RandomBot, RuleBot, rule_betting

    c = compact_of(game)
    spec = c.spec
    if isinstance(bot, RandomBot):
        return CompactStrategy(spec, c.uniform())
    if not isinstance(bot, RuleBot):
        raise SolveError(f"the compact path reads the random and rule-of-thumb bots (RandomBot, RuleBot), not {bot!r}")
    plans: dict[int, tuple[int, int]] = {}
    spaces: dict[int, tuple[Vec, Vec]] = {}

    def space(d: int) -> tuple[Vec, Vec]:
        """Per canonical state of space d: its discard mask and how many cards it wants."""
        found = spaces.get(d)
        if found is None:
            n = c.core.space_size(d)
            masks, missing = np.empty(n, np.int64), np.empty(n, np.int64)
            for i in range(n):
                hand = c.core.state(d, i)[0]
                got = plans.get(hand)
                if got is None:
                    got = plans[hand] = _rule_plan(spec, hand)
                masks[i], missing[i] = got
            found = spaces[d] = (masks, missing)
        return found

    out = np.zeros(c.strategy_size, np.float64)
    names = ("aggressive", "passive", "weak")
    for i, nd in enumerate(c.tree.nodes):
        if nd.kind not in (BET, DRAW):
            continue
        masks, missing = space(int(c.thrown[nd.player, i]))
        rows = c.rows(out, i)
        if nd.kind == DRAW:
            rows[np.arange(rows.shape[0]), masks] = 1.0
            continue
        acts = nd.actions
        templates = np.zeros((3, len(acts)))
        passive = acts.index("check") if "check" in acts else acts.index("call")
        aggressive = next((acts.index(a) for a in ("raise", "bet") if a in acts), passive)
        templates[0, aggressive] = templates[1, passive] = 1.0
        if "check" in acts:
            templates[2, passive] = 1.0
        else:
            templates[2, acts.index("fold")], templates[2, passive] = 1.0 - RULE_FLOAT, RULE_FLOAT
        how = np.array([names.index(rule_betting(m, spec.draws - nd.street)) for m in range(spec.hand_size + 1)])
        rows[:] = templates[how[missing]]
    return CompactStrategy(spec, c.symmetric(out, copy=False))


def _rule_plan(spec: GameSpec, hand: int) -> tuple[int, int]:
    """The rule of thumb's (discard mask over the hand's positions in order, cards wanted) of ``hand``."""
    from badacey_fast.draw.policy import keep_cards

    positions = [p for p in range(spec.n_cards) if hand >> p & 1]
    cards = tuple(spec.deck[p] for p in positions)
    keep = set(keep_cards(tuple(sorted(cards)), spec.game))
    return sum(1 << j for j, card in enumerate(cards) if card not in keep), len(cards) - len(keep)


def values(game: object, strategy: object = "uniform") -> tuple[tuple[float, float], float]:
    """Each seat's best-response value to ``strategy`` (``"uniform"``, a :class:`CompactStrategy`, or the
    random or rule-of-thumb bot: :func:`bot_strategy`) and
    seat 0's value when it plays itself, chips per hand, on the compact path (C twin only).
    :func:`badacey_fast.solve.exploitability` calls this for a CompactStrategy, and for ``"uniform"`` in a
    game too large for the full layers.

    >>> values(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1), "raise")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.SolveError: the compact path takes 'uniform', a CompactStrategy or a built-in bot (RandomBot, RuleBot), not 'raise'
    """
    spec = GameSpec.of(game)
    if isinstance(strategy, CompactStrategy):
        if strategy.game != spec:
            raise SolveError(f"the strategy is of {strategy.game.label()}, not {spec.label()}")
        probs: Vec | None = strategy.probs
    elif isinstance(strategy, str) and strategy == "uniform":
        probs = None
    elif _is_builtin_bot(strategy):
        probs = bot_strategy(spec, strategy).probs
    else:
        raise SolveError(f"the compact path takes 'uniform', a CompactStrategy or a built-in bot (RandomBot, "
                         f"RuleBot), not {strategy!r}")
    c = compact_of(spec)
    return (c.value(probs, 0), c.value(probs, 1)), c.value(probs, 0, follow=True)


def _is_builtin_bot(obj: object) -> bool:
    from badacey_fast.game.bots import RandomBot, RuleBot

    return isinstance(obj, (RandomBot, RuleBot))


def sizes(game: object) -> dict[str, int]:
    """The compact path's sizes of ``game``: canonical states per cards thrown, strategy entries."""
    c = compact_of(game)
    spec = c.spec
    out = {f"states thrown {d}": c.core.space_size(d) for d in range(spec.draws * spec.hand_size + 1)
           if c.core.space_size(d) >= 0}
    out["strategy entries"] = c.strategy_size
    out["full deals"] = comb(spec.n_cards, spec.hand_size)
    return out
