"""The reference best response: a plain walk over every history of the game, cards and all (pure Python,
slow: for the smallest games only), which the vector computations of :mod:`badacey_fast.solve.exact`
(C and numpy) are tested against.

It shares nothing with them but the public tree's betting: every deal and every replacement is a chance
event over the actual stub (the cards never dealt), a history carries both seats' cards, and a best
response is found the textbook way -- per information set of the responder, the action whose value,
summed over the set's histories weighted by the opponent's and chance's reach, is highest (recursively:
values below use the best responses below).  Strategies are read through :func:`state_index`, an
independent encoding of the layers' order.

>>> from badacey_fast.solve.spec import GameSpec
>>> from badacey_fast.solve.tree import Tree
>>> from badacey_fast.solve.exact import Exact
>>> tree = Tree(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1))
>>> u = Exact(tree).uniform()
>>> abs(best_response(tree, u, 0) - Exact(tree).best_response(u, 0)) < 1e-12
True
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any

from badacey_fast.solve.tree import BET, DRAW, FOLD, SHOWDOWN, Tree, state_index

__all__ = ["best_response", "profile_value", "histories"]

Hands = tuple[tuple[int, ...], ...]


class _Walk:
    def __init__(self, tree: Tree, strategy: Any) -> None:
        self.tree = tree
        self.spec = tree.spec
        self.strategy = strategy
        self.n = tree.spec.n_cards
        self.h = tree.spec.hand_size
        ranks = tree_ranks(tree)
        self.ranks = ranks
        from badacey_fast.rules.games import scoring

        self.settle = tree.spec.hand_size == scoring(tree.spec.game).hand_size

    def probs(self, node: int, hands: Hands) -> list[float]:
        """The strategy's row at ``node`` for the actor holding ``hands``."""
        t = self.tree
        idx = state_index(self.spec, hands)
        cols = t.columns(node)
        off = int(t.offset[node]) + idx * cols
        return [float(x) for x in self.strategy[off:off + cols]]

    def utility(self, node: int, hands: tuple[Hands, Hands]) -> float:
        """Seat 0's chips at a terminal: a fold loses what the folder put in; a showdown is settled by
        :func:`badacey_fast.pots.settle` on the cards (the one rule of pots, ties and odd chips) when it
        takes this hand size, else by the ranks of the tree's deal layer and its payoff table."""
        nd = self.tree.nodes[node]
        c0, c1 = nd.contrib
        if nd.kind == FOLD:
            return -c0 if nd.player == 0 else c1
        if self.settle:
            from badacey_fast.pots import settle

            deck = self.spec.deck
            cards = [tuple(deck[p] for p in hands[s][-1]) for s in (0, 1)]
            got = settle([c0, c1], cards, button=0, game=self.spec.game, odd_chip=self.spec.odd_chip)
            return float(got.payouts[0] - c0)
        pay = self.tree.payoff[node]
        total = float(pay[0])
        for h, table in enumerate(self.ranks):
            r0, r1 = table[hands[0][-1]], table[hands[1][-1]]
            total += float(pay[1 + 3 * h] if r0 < r1 else pay[2 + 3 * h] if r0 == r1 else pay[3 + 3 * h])
        return total


def tree_ranks(tree: Tree) -> list[dict[tuple[int, ...], int]]:
    """Per half, the rank of every hand (tuple of deck positions): from the tree's own rank arrays of the
    deal layer (the evaluators are tested elsewhere; this module tests the traversal)."""
    t = tree
    start, end = int(t.layer_start[0]), int(t.layer_start[1])
    out = []
    for h in range(t.rank.shape[0]):
        table = {}
        for i in range(start, end):
            bits = int(t.hand[i])
            table[tuple(p for p in range(t.spec.n_cards) if bits >> p & 1)] = int(t.rank[h, i])
        out.append(table)
    return out


def histories(tree: Tree) -> int:
    """The number of terminal histories (cards included): how big the reference walk is."""
    spec = tree.spec
    n, h = spec.n_cards, spec.hand_size

    def count(node: int, stub: int) -> int:
        nd = tree.nodes[node]
        if nd.kind in (FOLD, SHOWDOWN):
            return 1
        if nd.kind == BET:
            return sum(count(c, stub) for c in tree.children(node))
        return sum(comb(h, k) * comb(stub, k) * count(c, stub - k) for k, c in enumerate(tree.children(node)))

    return comb(n, h) * comb(n - h, h) * count(0, n - 2 * h)


def _walk(w: _Walk, node: int, hands: tuple[Hands, Hands], stub: frozenset[int], reach: float, me: int | None,
          visit: Any) -> None:
    """Call visit(node, hands, reach) at every node of every history; ``reach`` is chance's and, when
    ``me`` is given, the other seat's (the responder's own actions are all followed)."""
    t = w.tree
    nd = t.nodes[node]
    visit(node, hands, stub, reach)
    if nd.kind in (FOLD, SHOWDOWN):
        return
    p = nd.player
    kids = list(t.children(node))
    if nd.kind == BET:
        probs = w.probs(node, hands[p])
        for a, c in enumerate(kids):
            r = reach if (me == p) else reach * probs[a]
            if r:
                _walk(w, c, hands, stub, r, me, visit)
        return
    probs = w.probs(node, hands[p])
    hand = hands[p][-1]
    for m in range(1 << w.h):
        k = bin(m).count("1")
        r = reach if (me == p) else reach * probs[m]
        if not r:
            continue
        kept = [c for j, c in enumerate(hand) if not m >> j & 1]
        ways = comb(len(stub), k)
        for new in combinations(sorted(stub), k):
            nh = tuple(sorted(kept + list(new)))
            seq = list(hands)
            seq[p] = hands[p] + (nh,)
            _walk(w, kids[k], (seq[0], seq[1]), stub - set(new), r / ways, me, visit)


def _deals(w: _Walk) -> list[tuple[Hands, Hands]]:
    n, h = w.n, w.h
    out: list[tuple[Hands, Hands]] = []
    for a in combinations(range(n), h):
        rest = [c for c in range(n) if c not in a]
        for b in combinations(rest, h):
            out.append(((a,), (b,)))
    return out


def profile_value(tree: Tree, strategy: Any) -> float:
    """Seat 0's expected chips per hand when both seats play ``strategy``: the sum over every terminal
    history of its probability times its payoff."""
    w = _Walk(tree, strategy)
    total = [0.0]
    deals = _deals(w)

    def visit(node: int, hands: tuple[Hands, Hands], stub: frozenset[int], reach: float) -> None:
        if tree.nodes[node].kind in (FOLD, SHOWDOWN):
            total[0] += reach * w.utility(node, hands)

    for d in deals:
        stub = frozenset(range(w.n)) - set(d[0][0]) - set(d[1][0])
        _walk(w, 0, d, stub, 1.0 / len(deals), None, visit)
    return total[0]


def best_response(tree: Tree, strategy: Any, seat: int) -> float:
    """The expected chips of ``seat``'s best response to ``strategy`` (the other seat's rows)."""
    w = _Walk(tree, strategy)
    deals = _deals(w)
    # Every history at the responder's decisions, by information set (node, its hands), with the reach of
    # chance and the opponent.
    infosets: dict[tuple[int, Hands], list[tuple[tuple[Hands, Hands], frozenset[int], float]]] = {}

    def visit(node: int, hands: tuple[Hands, Hands], stub: frozenset[int], reach: float) -> None:
        nd = tree.nodes[node]
        if nd.kind in (BET, DRAW) and nd.player == seat:
            infosets.setdefault((node, hands[seat]), []).append((hands, stub, reach))

    for d in deals:
        stub = frozenset(range(w.n)) - set(d[0][0]) - set(d[1][0])
        _walk(w, 0, d, stub, 1.0 / len(deals), seat, visit)
    choice: dict[tuple[int, Hands], int] = {}
    sign = 1.0 if seat == 0 else -1.0

    def value(node: int, hands: tuple[Hands, Hands], stub: frozenset[int]) -> float:
        """The responder's expected chips from this history on (chance and the opponent as they play)."""
        nd = tree.nodes[node]
        if nd.kind in (FOLD, SHOWDOWN):
            return sign * w.utility(node, hands)
        p = nd.player
        if p == seat:
            return action_value(node, hands, stub, best(node, hands[seat]))
        probs = w.probs(node, hands[p])
        total = 0.0
        for a in range(len(probs)):
            if probs[a]:
                total += probs[a] * action_value(node, hands, stub, a)
        return total

    def action_value(node: int, hands: tuple[Hands, Hands], stub: frozenset[int], a: int) -> float:
        nd = tree.nodes[node]
        kids = list(tree.children(node))
        if nd.kind == BET:
            return value(kids[a], hands, stub)
        p = nd.player
        hand = hands[p][-1]
        kept = [c for j, c in enumerate(hand) if not a >> j & 1]
        k = bin(a).count("1")
        outs = list(combinations(sorted(stub), k))
        total = 0.0
        for new in outs:
            seq = list(hands)
            seq[p] = hands[p] + (tuple(sorted(kept + list(new))),)
            total += value(kids[k], (seq[0], seq[1]), stub - set(new))
        return total / len(outs)

    def best(node: int, mine: Hands) -> int:
        key = (node, mine)
        found = choice.get(key)
        if found is None:
            cols = tree.columns(node)
            scores = [0.0] * cols
            for hands, stub, reach in infosets.get(key, ()):
                for a in range(cols):
                    scores[a] += reach * action_value(node, hands, stub, a)
            found = choice[key] = max(range(cols), key=lambda a: (scores[a], -a))
        return found

    total = 0.0
    for d in deals:
        stub = frozenset(range(w.n)) - set(d[0][0]) - set(d[1][0])
        total += value(0, d, stub) / len(deals)
    return total

