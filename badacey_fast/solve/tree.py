"""The public tree of a heads-up draw game and the layers of private states each seat may hold.

**Public tree.**  What both seats see: the betting (RULES.md §4: fixed limit, the cap, the big blind as
the first bet before the draw, the button first before the draw and last after it) and how many cards
each seat draws (the big blind draws first).  A node is a decision (a bet, or a draw whose public outcome
is the number of cards thrown) or a terminal (a fold, or the showdown).  Each node also says, per seat,
its **layer**: the private states the seat may be in there, which depend only on how many cards it drew
at each draw so far.

**Layers.**  A state is the sequence of the seat's hands: the deal (every ``hand_size``-subset of the
deck, colex order), then for each draw of k cards every discard mask of k cards (bit j = its j-th lowest
card; in increasing order) and every k-set of the cards it never held (colex), children of a state
contiguous.  Cards are deck positions (indices into :attr:`GameSpec.deck`).  The number of states is the
number of information sets of a seat at a node: the whole reason small games are small.

**Chance.**  Every pair of states (one per seat) whose cards never overlap is equally likely at a given
public node: the deal and each replacement are uniform over the cards left, whatever they are.  A
terminal stores that one probability, ``1 / (C(n, h) C(n - h, h) prod C(stub, k))``.  A burn card
changes no probability (it is an unseen card like the rest of the stub), only how far the stub reaches.

>>> from badacey_fast.solve.spec import GameSpec
>>> tree = Tree(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1))
>>> tree.n_nodes, tree.layer_sizes, tree.nodes[0].actions
(42, (6, 6, 30), ('fold', 'call'))
>>> tree.nodes[tree.find(("c", "k", "d1", "d0", "b", "c"))].kind
'showdown'
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from badacey_fast import kernel
from badacey_fast.errors import SolveError
from badacey_fast.rules.odd_chips import OddChip, split_pot
from badacey_fast.solve.spec import GameSpec

__all__ = ["Node", "Tree", "FOLD", "SHOWDOWN", "BET", "DRAW", "KINDS", "MAX_STATES", "MAX_ENTRIES", "OPENSPIEL_ACTION"]

FOLD, SHOWDOWN, BET, DRAW = "fold", "showdown", "bet", "draw"
#: Node kinds in the C description's order (BD_SV_FOLD ... BD_SV_DRAW).
KINDS = (FOLD, SHOWDOWN, BET, DRAW)
#: The OpenSpiel action index of each betting action (badacey_fast.envs.encoding): fold 0, check/call 1,
#: bet/raise 2; a draw of mask m is 3 + m.
OPENSPIEL_ACTION = {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}
#: History tokens of the betting actions.
TOKEN = {"fold": "f", "check": "k", "call": "c", "bet": "b", "raise": "r"}
#: The most private states (all layers) the exact path builds: beyond this a game is not small.
MAX_STATES = 40_000_000
#: The most strategy entries (one probability per action of every information state) the exact path
#: takes: 100 million float64 is 0.8 GB an array, and CFR holds three (regrets, averages, the current one).
MAX_ENTRIES = 100_000_000


@dataclass(frozen=True)
class Node:
    """One public node.  ``history``: the tokens so far (``f k c b r`` betting, ``d<k>`` a draw of k
    cards); ``player``: the seat to act (the folder at a fold); ``actions``: a bet node's legal actions
    (``fold``, ``check``, ``call``, ``bet``, ``raise``), a draw node's counts ``d0 .. d<hand_size>``;
    ``counts``: each seat's draw counts so far; ``contrib``: each seat's chips in the pot."""

    kind: str
    player: int
    history: tuple[str, ...]
    actions: tuple[str, ...]
    street: int
    counts: tuple[tuple[int, ...], tuple[int, ...]]
    contrib: tuple[int, int]
    child: int = -1


@dataclass
class _Betting:
    """A betting round in progress, heads-up (the engine's fields, RULES.md §4; button = seat 0)."""

    street: int
    contrib: list[int]
    sbet: list[int]
    stacks: list[int]  # chips behind
    level: int
    full_level: int
    nbets: int
    pending: list[bool]
    can_raise: list[bool]
    to_act: int

    def copy(self) -> "_Betting":
        return _Betting(self.street, self.contrib[:], self.sbet[:], self.stacks[:], self.level, self.full_level,
                        self.nbets, self.pending[:], self.can_raise[:], self.to_act)

    @property
    def nactive(self) -> int:
        return (self.stacks[0] > 0) + (self.stacks[1] > 0)


class Tree:
    """The public tree and layers of ``spec`` (see the module docstring); arrays ready for the C core."""

    def __init__(self, spec: GameSpec, max_states: int = MAX_STATES, max_entries: int = MAX_ENTRIES,
                 layers: bool = True) -> None:
        self.spec = spec
        self.nodes: list[Node] = []
        self._by_history: dict[tuple[str, ...], int] = {}
        self.layer_counts: list[tuple[int, ...]] = []  # the draw counts of each layer
        self._layer_of: dict[tuple[int, ...], int] = {}
        self._build()
        self._node_arrays()
        if not layers:  # the public tree alone (the compact path builds its own states)
            return
        sizes = [self.layer_size(c) for c in self.layer_counts]
        total = sum(sizes)
        if total > max_states:
            raise SolveError(f"{spec.label()} has {total:,} private states over its layers (largest "
                             f"{max(sizes):,}): more than the exact solver's {max_states:,}; use a smaller deck, "
                             "fewer cards or draws, or the sampling solvers (solve.mccfr, solve.lbr)")
        self.layer_sizes = tuple(sizes)
        # Refused before any array is made: mini Badugi's 23 million states pass the first bound, but its
        # 4.9 billion entries would ask for 37 GB an array (a MemoryError after seconds of work).
        entries = sum(sizes[self.layer(i, v.player)] * self.columns(i) for i, v in enumerate(self.nodes)
                      if v.kind in (BET, DRAW))
        if entries > max_entries:
            raise SolveError(f"{spec.label()} has {entries:,} strategy entries (one per action of each information "
                             f"state): more than the exact solver's {max_entries:,} ({8 * entries / 2**30:,.1f} GiB "
                             "an array); use a smaller deck, fewer cards or draws, or the sampling solvers "
                             "(solve.mccfr, solve.lbr)")
        self._arrays()

    # ------------------------------------------------------------------------------------ building
    def layer_size(self, counts: tuple[int, ...]) -> int:
        """States of the layer of a seat that drew ``counts`` cards at its draws so far."""
        n, h = self.spec.n_cards, self.spec.hand_size
        size, seen = comb(n, h), h
        for k in counts:
            size *= comb(h, k) * comb(n - seen, k)
            seen += k
        return size

    def _layer(self, counts: tuple[int, ...]) -> int:
        found = self._layer_of.get(counts)
        if found is None:
            if counts:
                self._layer(counts[:-1])  # parents first: a layer's parent has a smaller id
            found = self._layer_of[counts] = len(self.layer_counts)
            self.layer_counts.append(counts)
        return found

    def _build(self) -> None:
        spec = self.spec
        self._layer(())
        stack = spec.stack if spec.stack is not None else 1 << 60
        posted = [min(spec.small_blind, stack), min(spec.big_blind, stack)]
        first = _Betting(0, posted[:], posted[:], [stack - posted[0], stack - posted[1]], 0, 0, 0, [False, False],
                         [False, False], -1)
        pending: deque[tuple[int, Any]] = deque()
        self.nodes.append(self._make((), ((), ()), self._start_round(first, 0)))
        pending.append((0, self._start_round(first, 0)))
        while pending:
            index, state = pending.popleft()
            node = self.nodes[index]
            kids = self._children(node, state)
            if not kids:
                continue
            self.nodes[index] = Node(node.kind, node.player, node.history, node.actions, node.street, node.counts,
                                     node.contrib, child=len(self.nodes))
            for history, counts, child_state in kids:
                pending.append((len(self.nodes), child_state))
                self.nodes.append(self._make(history, counts, child_state))
        for i, node in enumerate(self.nodes):
            self._by_history[node.history] = i

    def _start_round(self, s: _Betting, street: int) -> Any:
        """The first decision of betting round ``street`` (or what follows it when nobody can bet):
        the engine's _start_round and _next_actor, heads-up."""
        s = s.copy()
        s.street = street
        active = [s.stacks[0] > 0, s.stacks[1] > 0]
        s.pending, s.can_raise = active[:], active[:]
        if street == 0:
            s.level = s.full_level = self.spec.big_blind
            s.nbets = 1
            first = 0  # left of the big blind: the button, heads-up
        else:
            s.sbet = [0, 0]
            s.level = s.full_level = s.nbets = 0
            first = 1  # left of the button
        if s.nactive > 1:
            s.to_act = first
            return s
        return self._next_actor(s, first)

    def _next_actor(self, s: _Betting, start: int) -> Any:
        alone = s.nactive <= 1
        for j in (start, 1 - start):
            if s.pending[j]:
                if alone and s.sbet[j] >= s.level:
                    s.pending[j] = False  # alone with chips and nothing to call: nothing to decide
                    continue
                s.to_act = j
                return s
        return self._end_round(s)

    def _end_round(self, s: _Betting) -> Any:
        contrib = (s.contrib[0], s.contrib[1])
        if s.street < self.spec.draws:  # the draw, the big blind first; then the next round
            return (DRAW, 1, s.street, contrib, s)
        return (SHOWDOWN, 0, s.street, contrib, s)

    def _legal(self, s: _Betting) -> tuple[list[str], int, int]:
        """The legal actions of the seat to act, the chips a call adds, the total a bet/raise makes."""
        i, o = s.to_act, 1 - s.to_act
        to_call = s.level - s.sbet[i]
        stack = s.stacks[i]
        call = min(to_call, stack)
        acts = ["fold", "call"] if call > 0 else ["check"]
        target = 0
        if (s.can_raise[i] and stack > to_call and s.nactive > 1 and s.nbets < self.spec.cap
                and s.stacks[o] + s.sbet[o] > s.level):  # no raise that nobody can call
            target = min(s.full_level + self.spec.bet_size(s.street), s.sbet[i] + stack)
            acts.append("raise" if s.level > 0 else "bet")
        return acts, call, target

    def _make(self, history: tuple[str, ...], counts: tuple[tuple[int, ...], tuple[int, ...]], state: Any) -> Node:
        spec = self.spec
        if isinstance(state, _Betting):
            acts, _, _ = self._legal(state)
            c = (state.contrib[0], state.contrib[1])
            return Node(BET, state.to_act, history, tuple(acts), state.street, counts, c)
        kind, player, street, contrib, _ = state
        if kind == DRAW:
            counts_ = tuple(f"d{k}" for k in range(spec.hand_size + 1))
            return Node(DRAW, player, history, counts_, street, counts, contrib)
        return Node(kind, player, history, (), street, counts, contrib)

    def _children(self, node: Node, state: Any) -> list[tuple[tuple[str, ...], Any, Any]]:
        spec = self.spec
        out: list[tuple[tuple[str, ...], Any, Any]] = []
        if node.kind == BET:
            for act in node.actions:
                out.append((node.history + (TOKEN[act],), node.counts, self._bet(state, act)))
        elif node.kind == DRAW:
            p = node.player
            s = state[4]
            for k in range(spec.hand_size + 1):
                counts = list(node.counts)
                counts[p] = counts[p] + (k,)
                self._layer(counts[p])
                c2: tuple[tuple[int, ...], tuple[int, ...]] = (counts[0], counts[1])
                history = node.history + (f"d{k}",)
                if p == 1:  # the big blind drew: the button draws next
                    nxt: Any = (DRAW, 0, node.street, node.contrib, s)
                else:  # both drew: the next betting round
                    nxt = self._start_round(s, node.street + 1)
                out.append((history, c2, nxt))
        return out

    def _bet(self, s: _Betting, act: str) -> Any:
        i, o = s.to_act, 1 - s.to_act
        if act == "fold":
            return (FOLD, i, s.street, (s.contrib[0], s.contrib[1]), s)
        _, call, target = self._legal(s)
        s = s.copy()
        if act != "check":
            pay = call if act == "call" else target - s.sbet[i]
            s.stacks[i] -= pay
            s.sbet[i] += pay
            s.contrib[i] += pay
            new = s.sbet[i]
            if new > s.level:
                if (new - s.full_level) * 2 >= self.spec.bet_size(s.street):
                    # A full raise (or an all-in of at least half a bet): reopens and counts to the cap.
                    s.nbets += 1
                    s.full_level = new
                    if s.stacks[o] > 0:
                        s.can_raise[o] = True
                        if s.sbet[o] < new:
                            s.pending[o] = True
                elif s.stacks[o] > 0 and s.sbet[o] < new:
                    s.pending[o] = True
                s.level = new
        s.pending[i] = False
        s.can_raise[i] = False
        return self._next_actor(s, o)

    # ------------------------------------------------------------------------------------- queries
    @property
    def n_nodes(self) -> int:
        """Nodes of the public tree."""
        return len(self.nodes)

    def find(self, history: tuple[str, ...]) -> int:
        """The node index of a public history (``KeyError`` naming it if there is none)."""
        try:
            return self._by_history[tuple(history)]
        except KeyError:
            raise KeyError(f"no public node {' '.join(history) or '(root)'} in {self.spec.label()}") from None

    def children(self, index: int) -> range:
        """Indices of a node's children (one per action or draw count, in order)."""
        node = self.nodes[index]
        return range(node.child, node.child + len(node.actions)) if node.child >= 0 else range(0)

    def layer(self, index: int, seat: int) -> int:
        """The layer of ``seat`` at node ``index``."""
        return self._layer_of[self.nodes[index].counts[seat]]

    def hands_of(self, layer: int, index: int) -> tuple[tuple[int, ...], ...]:
        """The hands (deck positions) of state ``index`` of ``layer``: the deal, then after each draw
        (read from the layers' arrays; :func:`state_hands` decodes the same without them)."""
        out = []
        while True:
            bits = int(self.hand[self.layer_start[layer] + index])
            out.append(tuple(p for p in range(self.spec.n_cards) if bits >> p & 1))
            parent = int(self.layer_parent[layer])
            if parent < 0:
                break
            index //= self.layer_sizes[layer] // self.layer_sizes[parent]
            layer = parent
        return tuple(reversed(out))

    def columns(self, index: int) -> int:
        """Columns of a decision node's strategy rows: its actions, or every discard mask."""
        node = self.nodes[index]
        return len(node.actions) if node.kind == BET else 1 << self.spec.hand_size

    # ------------------------------------------------------------------------------------- arrays
    def _node_arrays(self) -> None:
        """Per node: kind, player, first child, children, payoff and chance (what needs no layer)."""
        spec, nodes = self.spec, self.nodes
        n = len(nodes)
        kinds = {k: i for i, k in enumerate(KINDS)}
        self.kind = np.array([kinds[v.kind] for v in nodes], np.int32)
        self.player = np.array([v.player for v in nodes], np.int32)
        self.child = np.array([v.child for v in nodes], np.int32)
        self.n_child = np.array([len(v.actions) if v.child >= 0 else 0 for v in nodes], np.int32)
        self.payoff = np.zeros((n, 8), np.float64)
        self.chance = np.zeros(n, np.float64)
        table = _showdown_table(spec)
        deal = comb(spec.n_cards, spec.hand_size) * comb(spec.n_cards - spec.hand_size, spec.hand_size)
        for i, v in enumerate(nodes):
            if v.kind == FOLD:
                c0, c1 = v.contrib
                # The folder loses what it put in; the winner's uncalled chips come back to it.
                self.payoff[i, 0] = -c0 if v.player == 0 else c1
            elif v.kind == SHOWDOWN:
                # Uncalled chips go back before the showdown: each seat has min(contrib) in the pot.
                self.payoff[i, :7] = table(min(v.contrib))
            if v.kind in (FOLD, SHOWDOWN):
                ways = deal
                stub = spec.n_cards - 2 * spec.hand_size
                for k1, k0 in zip(v.counts[1], v.counts[0]):  # the big blind draws first each time
                    ways *= comb(stub, k1)
                    stub -= k1
                    ways *= comb(stub, k0)
                    stub -= k0
                self.chance[i] = 1.0 / ways

    def _arrays(self) -> None:
        spec, nodes = self.spec, self.nodes
        n = len(nodes)
        self.layer_ids = np.array([[self.layer(i, 0) for i in range(n)], [self.layer(i, 1) for i in range(n)]],
                                  np.int32)
        offsets = np.zeros(n, np.int64)
        total = 0
        for i, v in enumerate(nodes):
            if v.kind in (BET, DRAW):
                offsets[i] = total
                total += self.layer_sizes[self.layer(i, v.player)] * self.columns(i)
        self.offset = offsets
        self.strategy_size = total
        # Layers.
        self.layer_parent = np.array([self._layer_of[c[:-1]] if c else -1 for c in self.layer_counts], np.int32)
        self.layer_draw = np.array([c[-1] if c else 0 for c in self.layer_counts], np.int32)
        self.layer_seen = np.array([spec.hand_size + sum(c) for c in self.layer_counts], np.int32)
        starts = np.zeros(len(self.layer_counts) + 1, np.int64)
        starts[1:] = np.cumsum(self.layer_sizes)
        self.layer_start = starts
        hands: list[np.ndarray[Any, Any]] = []
        seens: list[np.ndarray[Any, Any]] = []
        for L, counts in enumerate(self.layer_counts):
            if not counts:
                h, s = deal_layer(spec.n_cards, spec.hand_size)
            else:
                p = int(self.layer_parent[L])
                h, s = draw_layer(spec.n_cards, spec.hand_size, hands[p], seens[p], counts[-1])
            hands.append(h)
            seens.append(s)
        self.hand = np.concatenate(hands)
        self.seen = np.concatenate(seens)
        ranks = hand_ranks(spec)  # per half, by colex index of the hand
        idx = colex_index(self.hand, spec.n_cards)
        self.rank = np.stack([r[idx] for r in ranks]).astype(np.uint16)
        order = np.empty_like(self.rank, dtype=np.uint32)
        for half in range(len(ranks)):
            for L in range(len(self.layer_counts)):
                a, b = starts[L], starts[L + 1]
                order[half, a:b] = np.argsort(self.rank[half, a:b], kind="stable")
        self.order = order


def _showdown_table(spec: GameSpec) -> Any:
    """The payoff to seat 0 at a showdown where each seat put in ``x`` chips: [constant, then per half
    the chips of a win, a tie, a loss], from the one split rule (:func:`badacey_fast.rules.odd_chips.split_pot`,
    the button on seat 0: winners in order from its left, seat 1 then seat 0)."""
    halves = spec.halves
    odd_chip = OddChip(spec.odd_chip)
    outcomes = ((0,), (1, 0), (1,))  # seat 0 wins, both tie, seat 1 wins -- winners in clockwise order

    def net(x: int, low: tuple[int, ...], bad: tuple[int, ...]) -> float:
        chips = [0, 0]
        split_pot(2 * x, 0, low, bad, odd_chip, chips)
        return float(chips[0] - x)

    def table(x: int) -> list[float]:
        if len(halves) == 1:
            row = [net(x, o, ()) if halves[0] == "low" else net(x, (), o) for o in outcomes]
            return [0.0, *row, 0.0, 0.0, 0.0]
        u = [[net(x, a, b) for b in outcomes] for a in outcomes]
        c = u[1][1]
        f = [u[a][1] - c for a in range(3)]
        g = [u[1][b] - c for b in range(3)]
        for a in range(3):
            for b in range(3):
                if u[a][b] != c + f[a] + g[b]:  # cannot happen heads-up (the pot is even), but never guess
                    raise SolveError(f"the showdown payoff of a {2 * x}-chip pot is not a sum of its halves")
        return [c, *f, *g]

    return table


# ---------------------------------------------------------------------------------------- layers
def deal_layer(n_cards: int, hand_size: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Every hand (bits over deck positions) in colex order: (hands, seen), both uint64.

    >>> [bin(int(x)) for x in deal_layer(3, 2)[0]]
    ['0b11', '0b101', '0b110']
    """
    core = kernel.solver()
    if core is not None:
        return core.deal_layer(n_cards, hand_size)
    from itertools import combinations

    # Colex order over subsets is the numeric order of their bit masks.
    masks = sorted(sum(1 << p for p in c) for c in combinations(range(n_cards), hand_size))
    arr = np.array(masks, np.uint64)
    return arr, arr.copy()


def draw_layer(n_cards: int, hand_size: int, hand: np.ndarray[Any, Any], seen: np.ndarray[Any, Any],
               k: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The layer after a draw of ``k`` cards from the states (hand, seen): see the module docstring.

    >>> h, s = deal_layer(3, 1)
    >>> [bin(int(x)) for x in draw_layer(3, 1, h[:1], s[:1], 1)[0]]     # throw card 0, get 1 or 2
    ['0b10', '0b100']
    """
    core = kernel.solver()
    if core is not None:
        return core.draw_layer(n_cards, hand_size, hand, seen, k)
    from itertools import combinations

    out_h: list[int] = []
    out_s: list[int] = []
    masks = [m for m in range(1 << hand_size) if bin(m).count("1") == k]
    for hb, sb in zip(hand.tolist(), seen.tolist()):
        pos = [p for p in range(n_cards) if hb >> p & 1]
        avail = [p for p in range(n_cards) if not sb >> p & 1]
        # Colex order of the received sets: numeric order of their masks over the available cards.
        news = sorted(sum(1 << i for i in c) for c in combinations(range(len(avail)), k))
        for m in masks:
            kept = hb & ~sum(1 << pos[j] for j in range(hand_size) if m >> j & 1)
            for y in news:
                add = sum(1 << avail[i] for i in range(len(avail)) if y >> i & 1)
                out_h.append(kept | add)
                out_s.append(sb | add)
    return np.array(out_h, np.uint64), np.array(out_s, np.uint64)


def colex_index(bits: np.ndarray[Any, Any], n_cards: int) -> np.ndarray[Any, Any]:
    """The colex index of each set of deck positions (uint64 bits): sum over its i-th lowest position p
    (i from 1) of C(p, i).

    >>> colex_index(np.array([0b11, 0b101, 0b110], np.uint64), 3).tolist()
    [0, 1, 2]
    """
    table = np.array([[comb(p, i) for i in range(n_cards + 2)] for p in range(n_cards)], np.int64)
    idx = np.zeros(bits.shape, np.int64)
    count = np.zeros(bits.shape, np.int64)
    for p in range(n_cards):
        bit = ((bits >> np.uint64(p)) & np.uint64(1)).astype(bool)
        idx[bit] += table[p][count[bit] + 1]
        count += bit
    return idx


def hand_ranks(spec: GameSpec) -> list[np.ndarray[Any, Any]]:
    """Per half (``spec.halves``), the rank (lower is better) of every hand of the deck by its colex
    index: on the full game's scale (RULES.md §6), from the active evaluator."""
    from badacey_fast.bulk import badugi_rank_many, evaluate_many

    def compute() -> list[np.ndarray[Any, Any]]:
        hands, _ = deal_layer(spec.n_cards, spec.hand_size)  # colex order: row i has index i
        deck = np.array(spec.deck, np.uint8)
        cards = np.empty((hands.size, spec.hand_size), np.uint8)
        for j in range(spec.hand_size):  # the j-th lowest position of each hand
            low = hands & (~hands + np.uint64(1))
            cards[:, j] = deck[np.log2(low.astype(np.float64)).astype(np.int64)]
            hands = hands & ~low
        out = []
        for half in spec.halves:
            if half == "low":
                out.append(evaluate_many(cards, "badeucy" if spec.ace_high else "badacey", check=False)[0])
            else:
                out.append(badugi_rank_many(cards, spec.ace_high, check=False))
        return out

    return kernel.memo(("solve.hand_ranks", spec.game, spec.ranks, spec.suits, spec.hand_size), compute)


# ------------------------------------------------------------------------------ states by their cards
def state_index(spec: GameSpec, hands: tuple[tuple[int, ...], ...]) -> int:
    """The index, within its layer, of the private state whose hands (deck positions, each sorted) are
    ``hands``: the deal, then the hand after each draw.  The inverse of :func:`state_hands`.

    >>> spec = GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1)
    >>> state_index(spec, ((2,),)), state_index(spec, ((0,), (5,)))
    (2, 4)
    """
    n, h = spec.n_cards, spec.hand_size
    first = hands[0]
    idx = sum(comb(p, i + 1) for i, p in enumerate(sorted(first)))
    held = set(first)
    prev = tuple(sorted(first))
    for nxt in hands[1:]:
        nxt = tuple(sorted(nxt))
        thrown = [j for j, c in enumerate(prev) if c not in nxt]
        new = sorted(set(nxt) - set(prev))
        k = len(thrown)
        masks = [m for m in range(1 << h) if bin(m).count("1") == k]
        mask = sum(1 << j for j in thrown)
        avail = [p for p in range(n) if p not in held]
        y = sum(1 << avail.index(c) for c in new)
        news = sorted(sum(1 << i for i in c) for c in _combinations(len(avail), k))
        idx = (idx * len(masks) + masks.index(mask)) * len(news) + news.index(y)
        held |= set(new)
        prev = nxt
    return idx


def state_hands(spec: GameSpec, counts: tuple[int, ...], index: int) -> tuple[tuple[int, ...], ...]:
    """The hands (deck positions) of state ``index`` of the layer of draw ``counts``.

    >>> spec = GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1)
    >>> state_hands(spec, (1,), 4)
    ((0,), (5,))
    """
    n, h = spec.n_cards, spec.hand_size
    digits = []
    # Decode from the last draw back: each draw's (mask rank, new-card rank) over its radix.
    radices = []
    seen = h
    for k in counts:
        radices.append((comb(h, k), comb(n - seen, k)))
        seen += k
    for nm, nc in reversed(radices):
        index, c = divmod(index, nc)
        index, r = divmod(index, nm)
        digits.append((r, c))
    digits.reverse()
    deal = sorted((sum(1 << p for p in c) for c in _combinations(n, h)))[index]
    hand = tuple(p for p in range(n) if deal >> p & 1)
    out = [hand]
    held = set(hand)
    for k, (r, c) in zip(counts, digits):
        masks = [m for m in range(1 << h) if bin(m).count("1") == k]
        mask = masks[r]
        avail = [p for p in range(n) if p not in held]
        y = sorted(sum(1 << i for i in comb_) for comb_ in _combinations(len(avail), k))[c]
        new = [avail[i] for i in range(len(avail)) if y >> i & 1]
        hand = tuple(sorted([x for j, x in enumerate(hand) if not mask >> j & 1] + new))
        held |= set(new)
        out.append(hand)
    return tuple(out)


def _combinations(n: int, k: int) -> list[tuple[int, ...]]:
    from itertools import combinations

    return list(combinations(range(n), k))
