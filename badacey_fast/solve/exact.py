"""Exact best response, profile values and CFR iterations over a :class:`~badacey_fast.solve.tree.Tree`:
the C core (``csrc/solve.c``) when the C twin is active, else its numpy twin here (the same traversal of
the public tree with vectors over the layers; card removal by a dense compatibility matrix per pair of
layers, where the C core sums by inclusion-exclusion over card subsets).

A **strategy** is one float64 array over every decision of both seats (:attr:`Tree.strategy_size`
entries): at a decision node, one row per private state of the actor, a probability per action (bet
nodes) or per discard mask (draw nodes).  Values are chips to the seat named, per hand.

>>> from badacey_fast.solve.spec import GameSpec
>>> from badacey_fast.solve.tree import Tree
>>> exact = Exact(Tree(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1)))
>>> u = exact.uniform()
>>> round(exact.profile_value(u), 12) == round(-exact.profile_value_seat1(u), 12)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from badacey_fast import kernel
from badacey_fast.solve.tree import BET, DRAW, FOLD, SHOWDOWN, Tree

__all__ = ["Exact", "CFR", "CFR_PLUS", "DCFR"]

#: CFR variants (BD_SV_CFR, BD_SV_CFR_PLUS, BD_SV_DCFR).
CFR, CFR_PLUS, DCFR = 0, 1, 2
#: Relative rounding below which a sum is zero (SV_CANCEL of csrc/solve.c).
CANCEL = 1e-12

Vec = np.ndarray[Any, Any]


class Exact:
    """The exact computations of one tree (see the module docstring)."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        core = kernel.solver()
        self.core = None if core is None else core(self.arrays(), tree.spec.n_cards, tree.spec.hand_size,
                                                    len(tree.spec.halves), tree.strategy_size)
        self._pairs: dict[tuple[int, int], tuple[Vec, list[tuple[Vec, Vec]]]] = {}
        h = tree.spec.hand_size
        self._masks = [np.array([m for m in range(1 << h) if bin(m).count("1") == k], np.int64) for k in range(h + 1)]

    def arrays(self) -> dict[str, Vec]:
        """The C description's arrays (field names of ``bd_sv_game``)."""
        t = self.tree
        return {"kind": t.kind, "player": t.player, "child": t.child, "n_child": t.n_child,
                "layer": np.ascontiguousarray(t.layer_ids.reshape(-1)), "offset": t.offset,
                "payoff": np.ascontiguousarray(t.payoff.reshape(-1)), "chance": t.chance,
                "layer_start": t.layer_start, "layer_parent": t.layer_parent, "layer_draw": t.layer_draw,
                "layer_seen": t.layer_seen, "hand": t.hand, "seen": t.seen,
                "rank": np.ascontiguousarray(t.rank.reshape(-1)), "order": np.ascontiguousarray(t.order.reshape(-1))}

    # --------------------------------------------------------------------------------- strategies
    def uniform(self) -> Vec:
        """The uniform strategy: every legal action (every discard mask) alike."""
        t = self.tree
        out = np.empty(t.strategy_size, np.float64)
        for i, node in enumerate(t.nodes):
            if node.kind in (BET, DRAW):
                size = t.layer_sizes[t.layer(i, node.player)] * t.columns(i)
                out[t.offset[i]:t.offset[i] + size] = 1.0 / t.columns(i)
        return out

    def rows(self, arr: Vec, node: int) -> Vec:
        """A view of ``arr``'s rows at decision ``node`` (states x columns)."""
        t = self.tree
        m = t.layer_sizes[t.layer(node, t.nodes[node].player)]
        c = t.columns(node)
        return arr[t.offset[node]:t.offset[node] + m * c].reshape(m, c)

    # ------------------------------------------------------------------------------------- public
    def best_response(self, strategy: Vec, seat: int, best: Vec | None = None) -> float:
        """The expected chips of ``seat``'s best response to ``strategy`` (the other seat's rows); its pure
        strategy is written into ``best``'s rows of ``seat`` when given."""
        if self.core is not None:
            return self.core.best_response(strategy, seat, best)
        t = self.tree
        op = np.ones(t.layer_sizes[t.layer(0, 1 - seat)])
        return float(self._br(0, seat, op, strategy, best).sum())

    def profile_value(self, strategy: Vec) -> float:
        """Seat 0's expected chips per hand when both seats play ``strategy``."""
        if self.core is not None:
            return self.core.profile_value(strategy)
        return self._root(0, strategy, None, None, 0, None)

    def profile_value_seat1(self, strategy: Vec) -> float:
        """Seat 1's expected chips per hand (``-profile_value``, computed from seat 1's side: a check)."""
        return self._root(1, strategy, None, None, 0, None)

    def cfr(self, regret: Vec, average: Vec, first: int, iterations: int, variant: int = CFR_PLUS,
            alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0) -> None:
        """``iterations`` iterations of CFR from iteration ``first`` (1-based), alternating seats, updating
        ``regret`` and ``average`` in place (strategy-shaped; start both at zero)."""
        if self.core is not None:
            self.core.cfr(regret, average, first, iterations, variant, alpha, beta, gamma)
            return
        for it in range(first, first + iterations):
            params = (variant, float(it), alpha, beta, gamma)
            for seat in (0, 1):
                self._root(seat, None, regret, average, 0, params)

    # ------------------------------------------------------------------------------ numpy twin
    def _root(self, me: int, fixed: Vec | None, regret: Vec | None, average: Vec | None, _: int,
              params: tuple[int, float, float, float, float] | None) -> float:
        t = self.tree
        mr = np.ones(t.layer_sizes[t.layer(0, me)])
        op = np.ones(t.layer_sizes[t.layer(0, 1 - me)])
        return float(self._cfr(0, me, mr, op, fixed, regret, average, params).sum())

    def _pair(self, lm: int, lo: int) -> tuple[Vec, list[tuple[Vec, Vec]]]:
        """Compatibility (cards never shared) of layer lm's states with lo's, and per half the matrices of
        'the opponent's rank is worse' and 'equal' (lower ranks win), as float64 (exact 0/1)."""
        key = (lm, lo)
        found = self._pairs.get(key)
        if found is None:
            t = self.tree
            sm = slice(t.layer_start[lm], t.layer_start[lm + 1])
            so = slice(t.layer_start[lo], t.layer_start[lo + 1])
            compat = (t.seen[sm][:, None] & t.seen[so][None, :]) == 0
            halves = []
            for h in range(t.rank.shape[0]):
                rm = t.rank[h, sm].astype(np.int64)[:, None]
                ro = t.rank[h, so].astype(np.int64)[None, :]
                halves.append(((compat & (ro > rm)).astype(np.float64), (compat & (ro == rm)).astype(np.float64)))
            found = self._pairs[key] = (compat.astype(np.float64), halves)
        return found

    def _terminal(self, node: int, me: int, op: Vec) -> Vec:
        t = self.tree
        compat, halves = self._pair(t.layer(node, me), t.layer(node, 1 - me))
        sign = 1.0 if me == 0 else -1.0
        pay = t.payoff[node]
        chance = t.chance[node]
        total = compat @ op
        if t.nodes[node].kind == FOLD:
            fold: Vec = chance * sign * pay[0] * total
            return fold
        v = sign * pay[0] * total
        for h, (worse, equal) in enumerate(halves):
            win, tie, lose = pay[1 + 3 * h], pay[2 + 3 * h], pay[3 + 3 * h]
            if me == 1:
                win, tie, lose = -lose, -tie, -win
            w = worse @ op
            e = equal @ op
            v = v + win * w + tie * e + lose * (total - w - e)
        out: Vec = chance * v
        return out

    def _spread(self, reach: Vec, probs: Vec, node: int, seat: int, k: int) -> Vec:
        """Reach over the child layer after a draw of k cards: each parent state's reach times the
        probability of each k-card discard mask, repeated over the cards it may receive."""
        t = self.tree
        spec = t.spec
        parent = t.layer(node, seat)
        n_new = _comb(spec.n_cards - int(t.layer_seen[parent]), k)
        part = reach[:, None] * probs[:, self._masks[k]]
        return np.repeat(part.reshape(-1), n_new)

    def _gather(self, values: Vec, node: int, seat: int, k: int, m: int) -> Vec:
        """Per parent state and k-card mask (states x masks), the sum of the child layer's values."""
        t = self.tree
        parent = t.layer(node, seat)
        n_new = _comb(t.spec.n_cards - int(t.layer_seen[parent]), k)
        out: Vec = values.reshape(m, len(self._masks[k]), n_new).sum(axis=2)
        return out

    def _br(self, node: int, me: int, op: Vec, strat: Vec, best: Vec | None) -> Vec:
        t = self.tree
        nd = t.nodes[node]
        if nd.kind in (FOLD, SHOWDOWN):
            return self._terminal(node, me, op)
        kids = t.children(node)
        mm = t.layer_sizes[t.layer(node, me)]
        if nd.player != me:
            rows = self.rows(strat, node)
            v = np.zeros(mm)
            for a, c in enumerate(kids):
                rc = op * rows[:, a] if nd.kind == BET else self._spread(op, rows, node, nd.player, a)
                if not rc.any():
                    if best is not None:
                        self._fill_default(c, me, best)
                    continue
                v += self._br(c, me, rc, strat, best)
            return v
        cols = t.columns(node)
        act = np.zeros((mm, cols))
        for a, c in enumerate(kids):
            cv = self._br(c, me, op, strat, best)
            if nd.kind == BET:
                act[:, a] = cv
            else:
                act[:, self._masks[a]] = self._gather(cv, node, me, a, mm)
        arg = act.argmax(axis=1)  # the first maximum, as the C core
        if best is not None:
            rows = self.rows(best, node)
            rows[:] = 0.0
            rows[np.arange(mm), arg] = 1.0
        best_values: Vec = act[np.arange(mm), arg]
        return best_values

    def _fill_default(self, node: int, me: int, best: Vec) -> None:
        t = self.tree
        nd = t.nodes[node]
        if nd.kind not in (BET, DRAW):
            return
        if nd.player == me:
            rows = self.rows(best, node)
            rows[:] = 0.0
            rows[:, 0] = 1.0
        for c in t.children(node):
            self._fill_default(c, me, best)

    def _sigma(self, node: int, fixed: Vec | None, regret: Vec | None) -> Vec:
        if fixed is not None:
            return self.rows(fixed, node)
        assert regret is not None
        r = np.maximum(self.rows(regret, node), 0.0)
        s = r.sum(axis=1, keepdims=True)
        cols = r.shape[1]
        return np.where(s > 0, r / np.where(s > 0, s, 1.0), 1.0 / cols)

    def _cfr(self, node: int, me: int, mr: Vec, op: Vec, fixed: Vec | None, regret: Vec | None,
             average: Vec | None, params: tuple[int, float, float, float, float] | None) -> Vec:
        t = self.tree
        nd = t.nodes[node]
        if nd.kind in (FOLD, SHOWDOWN):
            return self._terminal(node, me, op)
        kids = t.children(node)
        mm = t.layer_sizes[t.layer(node, me)]
        sigma = self._sigma(node, fixed, regret)
        if nd.player != me:
            v = np.zeros(mm)
            for a, c in enumerate(kids):
                rc = op * sigma[:, a] if nd.kind == BET else self._spread(op, sigma, node, nd.player, a)
                if not rc.any():
                    if params is not None:
                        self._skip(c, me, mr, regret, average, params)
                    continue
                v += self._cfr(c, me, mr, rc, fixed, regret, average, params)
            return v
        cols = t.columns(node)
        act = np.zeros((mm, cols))
        for a, c in enumerate(kids):
            if nd.kind == BET:
                act[:, a] = self._cfr(c, me, mr * sigma[:, a], op, fixed, regret, average, params)
            else:
                rc = self._spread(mr, sigma, node, me, a)
                cv = self._cfr(c, me, rc, op, fixed, regret, average, params)
                act[:, self._masks[a]] = self._gather(cv, node, me, a, mm)
        value: Vec = (sigma * act).sum(axis=1)
        if params is not None:
            self._update(node, sigma, act, value, mr, regret, average, params)
        return value

    def _skip(self, node: int, me: int, mr: Vec, regret: Vec | None, average: Vec | None,
              params: tuple[int, float, float, float, float]) -> None:
        """A subtree the opponent never reaches this iteration: its values are all 0, but ``me``'s rows in
        it still take their average contribution and regret discount (the C core's sv_cfr_skip)."""
        t = self.tree
        nd = t.nodes[node]
        if nd.kind in (FOLD, SHOWDOWN):
            return
        kids = t.children(node)
        if nd.player != me:
            for c in kids:
                self._skip(c, me, mr, regret, average, params)
            return
        sigma = self._sigma(node, None, regret)
        for a, c in enumerate(kids):
            rc = mr * sigma[:, a] if nd.kind == BET else self._spread(mr, sigma, node, me, a)
            self._skip(c, me, rc, regret, average, params)
        zero = np.zeros_like(sigma)
        self._update(node, sigma, zero, zero[:, 0], mr, regret, average, params)

    def _update(self, node: int, sigma: Vec, act: Vec, value: Vec, mr: Vec, regret: Vec | None, average: Vec | None,
                params: tuple[int, float, float, float, float]) -> None:
        if True:
            assert regret is not None and average is not None
            variant, it, alpha, beta, gamma = params
            r = self.rows(regret, node)
            avg = self.rows(average, node)
            # An action's regret within rounding of zero is zero (the C core's rule: see sv_update).
            scale = np.maximum(np.abs(value), np.abs(act).max(axis=1))[:, None]
            inst = act - value[:, None]
            x = r + np.where(np.abs(inst) <= CANCEL * scale, 0.0, inst)
            if variant == CFR_PLUS:
                r[:] = np.maximum(x, 0.0)
                avg += it * mr[:, None] * sigma
            elif variant == DCFR:
                pa, pb = it ** alpha, it ** beta
                r[:] = np.where(x > 0, x * (pa / (pa + 1.0)), x * (pb / (pb + 1.0)))
                avg += it ** gamma * mr[:, None] * sigma
            else:
                r[:] = x
                avg += mr[:, None] * sigma


def _comb(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)
