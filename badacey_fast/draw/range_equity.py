"""Equity against ranges: each seat's expected share of the pot, hero against one or more ranges.

A seat's share of one showdown is the mean over the game's halves (both for Badacey and Badeucy, one for
the single-pot games) of its share of that half, each half divided equally among its tied winners
(RULES.md §3; chips ignored).  Lower ranks are better.  Card removal: a villain combo holding one of
hero's or the dead cards is out, and the villains' combos never share a card.

``draws=0`` (showdown now)
  *heads-up*: exact, one pass over the villain's combos in the whole-deck rank table the kernel serves
  (no sampling);
  *multiway*: exact when the product of the ranges' sizes is at most ``exact_limit`` (1,000,000): every
  conflict-free tuple of combos, weighted by the product of their weights; otherwise seeded Monte Carlo.
``draws=1..3``
  seeded Monte Carlo: hero draws first, then the villains in the order given, for each of the draws;
  hero throws ``hero_discard`` in the first draw (None: the top choice of
  :func:`~badacey_fast.draw.outcomes.best_discards` by expected pot share against the villains' ranges
  standing pat -- both halves in Badacey and Badeucy, the low in A-5 and 2-7, the badugi in Badugi)
  and follows ``policy`` after; the result's ``hero_discard`` names that first discard
  (None when a policy chose).  Each villain combo draws by ``policy`` (default: the rule-of-thumb bot's
  :func:`~badacey_fast.draw.policy.keep_cards`: keep the badugi cards and distinct low cards up to 8,
  throw the rest).  Replacements come from the unseen cards (not hero's, the dead cards or any
  villain's) as RULES.md §4 deals them: the stub's last card is never dealt, and a stub that cannot
  finish a draw is shuffled with the earlier discards (not the served player's own) into a new one.
  Dead cards are out of play: never dealt, never reshuffled.

Monte Carlo samples the villains' combos jointly by rejection: each villain's combo is drawn
independently with probability proportional to its weight and a tuple whose combos share a card is
thrown away, so an accepted tuple has probability proportional to the product of its weights among all
conflict-free tuples — exactly the weighted joint distribution the exact enumeration averages over
(unbiased; only the acceptance rate depends on the overlap of the ranges).  Standard errors are those of
the per-sample shares.

>>> eq = range_equity("As 2h 3d 4c 5s", "any")
>>> eq.exact, round(eq.shares[0], 4), eq.outcomes
(True, 0.9999, 1533939)
>>> range_equity("As 2h 3d 4c 5s", "As2c3c4c5c")
Traceback (most recent call last):
...
badacey_fast.errors.BadaceyError: range 'As2c3c4c5c' has no hand left once hero's and the dead cards are removed
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from math import prod
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from badacey_fast import evaluator
from badacey_fast.bulk import badugi_rank_many, evaluate_many
from badacey_fast.cards import Cards, format_cards, parse_cards
from badacey_fast.draw.equities import Equity, check_seed, half_shares
from badacey_fast.draw.ranges import Range, hand_masks, hand_ranks, packed_hands
from badacey_fast.errors import BadaceyError, DuplicateCardError, IllegalActionError, MissingExtraError, ShowdownError
from badacey_fast.rules.games import BADUGI, LOW, Scoring, scoring
from badacey_fast.rules.stub import Stub

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["range_equity", "rule_policy", "equity_by_class", "ClassEquity", "CLASSES", "EXACT_LIMIT", "DEFAULT_SAMPLES",
           "DEFAULT_DRAW_SAMPLES"]

#: Multiway showdowns are enumerated exactly when the product of the ranges' sizes is at most this.
EXACT_LIMIT = 1_000_000
#: Monte Carlo samples at showdown (multiway beyond the exact limit) when ``samples`` is None.
DEFAULT_SAMPLES = 200_000
#: Monte Carlo samples with draws when ``samples`` is None.
DEFAULT_DRAW_SAMPLES = 10_000

Policy = Callable[[tuple[int, ...], int], Cards]
RangeLike = Union[str, Range]
#: (half name, the rank of every row of that half's table)
Halves = Sequence[tuple[str, np.ndarray[Any, Any]]]


def rule_policy(game: Scoring | str) -> Policy:
    """The rule-of-thumb bot's draw (:func:`badacey_fast.draw.policy.keep_cards`) as a policy
    ``(hand, draws_left) -> discards``: keep the badugi cards and distinct low cards up to 8.

    >>> from badacey_fast import format_cards, parse_cards
    >>> format_cards(rule_policy("badacey")(parse_cards("As 2h 3h Kd Ks"), 1))
    'Kd Ks'
    """
    from badacey_fast.draw.policy import keep_cards

    rules = scoring(game)
    cache: dict[tuple[int, ...], tuple[int, ...]] = {}

    def policy(hand: tuple[int, ...], draws_left: int) -> tuple[int, ...]:
        found = cache.get(hand)
        if found is None:
            keep = keep_cards(hand, rules)
            found = cache[hand] = tuple(c for c in hand if c not in keep)
        return found

    return policy


def range_equity(
    hero: Cards,
    villains: RangeLike | Sequence[RangeLike],
    dead: Cards = (),
    game: Scoring | str = "badacey",
    draws: int = 0,
    hero_discard: Cards | Policy | None = None,
    samples: int | None = None,
    seed: int | None = None,
    *,
    policy: Policy | None = None,
    exact_limit: int = EXACT_LIMIT,
    progress: Callable[[int, int], None] | None = None,
) -> Equity:
    """Each seat's expected pot share (hero first, then each villain) against one or more ranges.

    ``hero``: hero's hand (five cards; four for Badugi).  ``villains``: a :class:`Range` or range text
    (read in ``game``), or a sequence of them (1 to 5).  ``dead``: cards out of play.  ``draws``: 0 to
    3 draws before the showdown.  ``hero_discard``: hero's first-draw discard (cards), or a policy
    ``(hand, draws_left) -> discards`` for every draw.  ``samples``: Monte Carlo samples (given, the
    answer is always sampled); ``seed``: None or an int >= 0.  ``policy``: the villains' (and hero's
    later draws') policy, default :func:`rule_policy`.  Returns an
    :class:`~badacey_fast.draw.equities.Equity` (``low``/``badugi``: each half's share; for single-pot
    games the half not played is 0; ``stderr`` 0 when exact; ``outcomes``: combos, tuples or samples;
    ``hero_discard``: the cards hero threw in the first draw, given or chosen).

    >>> eq = range_equity("As 2h 3d 4c Kd", ["8low+", "9badugi+"], samples=20_000, seed=1)
    >>> eq.exact, len(eq.shares), abs(sum(eq.shares) - 1) < 1e-9
    (False, 3, True)
    >>> range_equity("As 2h 3d 4c Kd", "any", draws=4)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: draws must be 0 to 3, got 4
    """
    sc = scoring(game)
    size, ace_high = sc.hand_size, sc.ace_high
    hero_t = parse_cards(hero, count=size)
    dead_t = parse_cards(dead)
    for c in dead_t:
        if c in hero_t:
            raise DuplicateCardError(f"card {format_cards([c])!r} is both in hero's hand and dead")
    if isinstance(villains, (str, Range)):
        villains = [villains]
    if not isinstance(villains, Sequence) or not villains:
        raise TypeError("villains must be a range (text or Range) or a non-empty sequence of them")
    if len(villains) > 5:
        raise ShowdownError(f"at most 5 villains (6 seats), got {len(villains)}")
    rngs = [_as_range(v, sc) for v in villains]
    if isinstance(draws, bool) or not isinstance(draws, int):
        raise TypeError(f"draws must be an int, not {type(draws).__name__}")
    if not 0 <= draws <= 3:
        raise BadaceyError(f"draws must be 0 to 3, got {draws}")
    if draws == 0 and hero_discard is not None:
        raise BadaceyError("hero_discard needs draws=1 or more")
    if samples is not None:
        if isinstance(samples, bool) or not isinstance(samples, int):
            raise TypeError(f"samples must be an int, not {type(samples).__name__}")
        if samples < 1:
            raise BadaceyError(f"samples must be at least 1, got {samples}")
    seed = check_seed(seed)
    blocked = sum(1 << c for c in hero_t + dead_t)
    sel = [_Selection(r, blocked) for r in rngs]
    low_table, badugi_table = hand_ranks(size, ace_high)

    def half_table(half: str) -> np.ndarray[Any, Any]:
        if half != LOW:
            return badugi_table
        # LOW is a half only of five-card games, whose low table exists (None for four cards).
        if low_table is None:
            raise AssertionError(f"{sc.game} plays a low half on {size}-card hands")
        return low_table

    halves: Halves = [(h, half_table(h)) for h in sc.halves]
    hero_ranks: dict[str, int]
    if draws == 0:
        if size == 5:
            v = evaluator.evaluate(hero_t, sc)
            hero_ranks = {LOW: v.low, "badugi": v.badugi}
        else:
            hero_ranks = {"badugi": evaluator.badugi_rank(hero_t, ace_high)}
        if samples is None and len(sel) == 1:
            return _heads_up(sel[0], halves, hero_ranks, sc.halves)
        if samples is None and prod(len(s.idx) for s in sel) <= exact_limit:
            return _exact_multiway(sel, halves, hero_ranks, sc.halves, size)
        rng = np.random.default_rng(seed)
        n = DEFAULT_SAMPLES if samples is None else samples
        picks = _sample_joint(sel, n, rng, size)
        per_half: dict[str, np.ndarray[Any, Any]] = {}
        for name, table in halves:
            ranks = np.empty((n, 1 + len(sel)), dtype=np.int32)
            ranks[:, 0] = hero_ranks[name]
            for j, s in enumerate(sel):
                ranks[:, 1 + j] = table[s.idx[picks[:, j]]]
            per_half[name] = half_shares(ranks)
        return _sampled(per_half, sc.halves)
    rng = np.random.default_rng(seed)
    n = DEFAULT_DRAW_SAMPLES if samples is None else samples
    villain_policy = policy if policy is not None else rule_policy(sc)
    first, later, chosen = _hero_policies(hero_t, dead_t, sc, hero_discard, villain_policy, rngs)
    picks = _sample_joint(sel, n, rng, size)
    rows = [packed_hands(size)[s.idx[picks[:, j]]].view(np.uint8).reshape(n, 8)[:, :size]
            for j, s in enumerate(sel)]
    pool = [c for c in range(52) if not (blocked >> c) & 1]
    finals = np.empty((n, 1 + len(sel), size), dtype=np.uint8)
    vrows = [r.tolist() for r in rows]
    for i in range(n):
        held = [hero_t] + [tuple(vr[i]) for vr in vrows]
        taken = set().union(*held[1:])
        order = [c for c in pool if c not in taken]
        rng.shuffle(order)
        # The one dealer of the library (rules/stub.py): the engine's and policy_equity's RULES.md §4
        # reshuffle; a reshuffled stub is dealt at random from the same seeded generator.
        stub = Stub(order, rng=rng, check=False)
        for left in range(draws, 0, -1):
            for seat, hand in enumerate(held):
                if seat == 0:
                    pol = first if left == draws else later
                else:
                    pol = villain_policy
                thrown = _discards(hand, pol(hand, left), seat)
                held[seat] = tuple(c for c in hand if c not in thrown) + tuple(stub.draw(thrown))
        finals[i] = held
        if progress is not None and ((i + 1) % 512 == 0 or i + 1 == n):
            progress(i + 1, n)
    flat = finals.reshape(-1, size)
    if size == 5:
        low, bd = evaluate_many(flat, sc, check=False)
        got: dict[str, np.ndarray[Any, Any]] = {LOW: low, "badugi": bd}
    else:
        got = {"badugi": badugi_rank_many(flat, ace_high, check=False)}
    per_half = {name: half_shares(got[name].reshape(n, -1).astype(np.int32)) for name in sc.halves}
    return replace(_sampled(per_half, sc.halves), hero_discard=chosen)


def _discards(hand: tuple[int, ...], thrown: Cards, seat: int) -> tuple[int, ...]:
    got = parse_cards(thrown)
    for c in got:
        if c not in hand:
            who = "hero" if seat == 0 else f"villain {seat}"
            raise IllegalActionError(f"{who} cannot discard {format_cards([c])!r}: it is not in {format_cards(hand)!r}")
    return got


def _hero_policies(hero_t: tuple[int, ...], dead_t: tuple[int, ...], sc: Scoring, hero_discard: Policy | Cards | None,
                   villain_policy: Policy, villains: Sequence[Range]) -> tuple[Policy, Policy, tuple[int, ...] | None]:
    """Hero's policy for the first draw and for the later ones, and hero's first discard when it is one
    fixed set of cards (None when a policy decides)."""
    if callable(hero_discard):
        return hero_discard, hero_discard, None
    if hero_discard is not None:
        fixed = _discards(hero_t, hero_discard, 0)
        return (lambda hand, left: fixed), villain_policy, fixed
    from badacey_fast.draw.outcomes import best_discards

    # The pot share against the villains' ranges as they stand now: a split game's both halves, a
    # single-pot game's one (Badugi's four-card hands too).
    best = best_discards(hero_t, dead_t, sc, "share", against=villains)[0].discard
    return (lambda hand, left: best), villain_policy, best


def _as_range(v: object, rules: Scoring) -> Range:
    if isinstance(v, Range):
        if v.game != rules.game:
            raise BadaceyError(f"range {v.text!r} is a {v.game} range, not {rules.game}")
        return v
    if isinstance(v, str):
        return Range(v, rules)
    raise TypeError(f"a villain must be range text or a Range, not {type(v).__name__}")


class _Selection:
    """One villain's combos once hero's and the dead cards are removed: row indices and weights."""

    def __init__(self, r: Range, blocked: int) -> None:
        keep, v = r._select(blocked)
        self.range = r
        self.keep = keep
        self.idx = np.flatnonzero(keep) if keep is not None else np.arange(len(hand_masks(r.hand_size)))
        w: np.ndarray[Any, Any] | None
        if isinstance(v, float):
            w, self.total = None, float(len(self.idx) * v)
        else:
            w = v[self.idx].astype(np.float64)
            self.total = float(w.sum())
        self.const = w is None
        self.w = w  # None when every row weighs the same (const)
        if not len(self.idx) or self.total <= 0:
            raise BadaceyError(f"range {r.text!r} has no hand left once hero's and the dead cards are removed")
        self.masks = hand_masks(r.hand_size)[self.idx]


def _heads_up(s: _Selection, halves: Halves, hero_ranks: dict[str, int], names: Sequence[str]) -> Equity:
    """Exact heads-up: hero's share of each half is P(villain worse) + P(tie) / 2 over the weighted combos."""
    got: dict[str, tuple[float, ...]] = {}
    for name, table in halves:
        h = hero_ranks[name]
        share: float
        if s.w is None:
            assert s.keep is not None  # hero's cards are always blocked, so _select returns a row mask
            worse = np.count_nonzero(s.keep & (table > h))
            ties = np.count_nonzero(s.keep & (table == h))
            share = (worse + 0.5 * ties) / len(s.idx)
        else:
            ranks = table[s.idx]
            share = (float(s.w[ranks > h].sum()) + 0.5 * float(s.w[ranks == h].sum())) / s.total
        got[name] = (float(share), 1.0 - float(share))
    return _exact_result(got, names, 2, len(s.idx))


def _exact_multiway(sel: Sequence[_Selection], halves: Halves, hero_ranks: dict[str, int], names: Sequence[str],
                    size: int) -> Equity:
    """Every conflict-free tuple of combos, weighted by the product of the combos' weights."""
    rows: np.ndarray[Any, Any] = np.zeros(1, dtype=np.uint64)
    picks: np.ndarray[Any, Any] = np.zeros((1, 0), dtype=np.int64)
    weight = np.ones(1)
    for s in sel:
        ok = (rows[:, None] & s.masks[None, :]) == 0
        i, j = np.nonzero(ok)
        rows = rows[i] | s.masks[j]
        picks = np.concatenate([picks[i], j[:, None]], axis=1)
        weight = weight[i] * (1.0 if s.w is None else s.w[j])
    if not len(rows) or weight.sum() <= 0:
        raise BadaceyError("the ranges cannot all be held at once: every tuple of their hands shares a card")
    weight = weight / weight.sum()
    got: dict[str, tuple[float, ...]] = {}
    for name, table in halves:
        ranks = np.empty((len(rows), 1 + len(sel)), dtype=np.int32)
        ranks[:, 0] = hero_ranks[name]
        for k, s in enumerate(sel):
            ranks[:, 1 + k] = table[s.idx[picks[:, k]]]
        got[name] = tuple(float(x) for x in weight @ half_shares(ranks))
    return _exact_result(got, names, 1 + len(sel), len(rows))


def _exact_result(got: dict[str, tuple[float, ...]], names: Sequence[str], seats: int, outcomes: int) -> Equity:
    zero = (0.0,) * seats
    shares = tuple(sum(got[h][i] for h in names) / len(names) for i in range(seats))
    return Equity(shares, got.get(LOW, zero), got.get("badugi", zero), zero, True, outcomes)


def _sample_joint(sel: Sequence[_Selection], n: int, rng: np.random.Generator, size: int) -> np.ndarray[Any, Any]:
    """(n, villains) positions into each selection's ``idx``: combos drawn by weight, conflicts rejected."""
    cums = [None if s.w is None else np.cumsum(s.w) for s in sel]
    out: list[np.ndarray[Any, Any]] = []
    got = tried = 0
    while got < n:
        m = max(2 * (n - got), 4096)
        cols: list[np.ndarray[Any, Any]] = []
        for s, c in zip(sel, cums):
            if c is None:
                cols.append(rng.integers(0, len(s.idx), m))
            else:
                cols.append(np.minimum(np.searchsorted(c, rng.random(m) * c[-1], side="right"), len(c) - 1))
        ok = np.ones(m, dtype=bool)
        used = np.zeros(m, dtype=np.uint64)
        for s, col in zip(sel, cols):
            mk = s.masks[col]
            ok &= (used & mk) == 0
            used |= mk
        block = np.stack(cols, axis=1)[ok]
        out.append(block)
        got += len(block)
        tried += m
        if got == 0 and tried >= 1000 * max(n, 4096):
            raise BadaceyError("the ranges cannot all be held at once: no sampled tuple of hands is free of "
                               "shared cards")
    picks: np.ndarray[Any, Any] = np.concatenate(out)[:n]
    return picks


def _sampled(per_half: dict[str, np.ndarray[Any, Any]], names: Sequence[str]) -> Equity:
    """Mean shares and standard errors from (n, seats) per-half share arrays."""
    share = per_half[names[0]]
    for h in names[1:]:
        share = share + per_half[h]
    share = share / len(names)
    n, seats = share.shape
    mean = share.mean(axis=0)
    err = share.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(seats)
    zero = (0.0,) * seats

    def as_t(a: np.ndarray[Any, Any]) -> tuple[float, ...]:
        return tuple(float(x) for x in a)

    low = as_t(per_half[LOW].mean(axis=0)) if LOW in per_half else zero
    bd = as_t(per_half["badugi"].mean(axis=0)) if "badugi" in per_half else zero
    return Equity(as_t(mean), low, bd, as_t(err), False, n)


#: The classes :func:`equity_by_class` splits a villain's range into, as range terms, by the hand the
#: villain holds now: in a game with a badugi half its best badugi's size; in a low-only game its low.
CLASSES = {
    BADUGI: ("badugi", "3badugi", "2badugi", "1badugi"),
    LOW: ("7low+", "8low", "9low", "!9low+"),
}
#: How the command line and the plots name each class.
CLASS_NAMES = {"badugi": "4-card badugi", "3badugi": "3-card badugi", "2badugi": "2-card badugi",
               "1badugi": "1-card badugi", "7low+": "7-low or better", "8low": "8-low", "9low": "9-low",
               "!9low+": "worse than a 9-low"}


@dataclass(frozen=True)
class ClassEquity:
    """Hero's pot share against each class of one villain's range (:func:`equity_by_class`).

    ``classes``: the classes' range terms (:data:`CLASSES`), each kept only when the villain's range holds
    a hand of it once hero's and the dead cards are out; ``weights``: each class's share of the range's
    weight (0..1, summing to 1); ``shares`` / ``stderr``: hero's expected pot share against that part of
    the range and its standard error (0 when exact); ``hero_discard``: hero's first discard (with draws:
    the best against the whole range, the same against every class), None at showdown.
    """

    classes: tuple[str, ...]
    weights: tuple[float, ...]
    shares: tuple[float, ...]
    stderr: tuple[float, ...]
    exact: bool
    hero_discard: tuple[int, ...] | None = None

    @property
    def share(self) -> float:
        """Hero's share against the whole range: the classes' shares weighted by their weights."""
        return sum(w * s for w, s in zip(self.weights, self.shares))

    def plot(self, title: str | None = None) -> Figure:
        """Hero's share against each class (bars, with 95 % intervals when sampled), each bar labelled with
        the class's weight in the range.  Returns a matplotlib ``Figure`` (no pyplot: save it with
        ``fig.savefig("classes.png")``).  Needs matplotlib (``pip install "badacey_fast[plot]"``).

        >>> fig = equity_by_class("As 2h 3d 4c Kd", "8low+, 9badugi+").plot()
        >>> [t.get_text() for t in fig.axes[0].get_xticklabels()]
        ['4-card badugi\\n75.1% of the range', '3-card badugi\\n19.3% of the range', '2-card badugi\\n5.5% of the range', '1-card badugi\\n0.1% of the range']
        """
        MissingExtraError.require("matplotlib", "plot", "plots")
        from matplotlib.figure import Figure

        fig = Figure(figsize=(max(5.0, 1.5 * len(self.classes) + 2), 4), layout="constrained")
        ax = fig.subplots()
        labels = [f"{CLASS_NAMES.get(c, c)}\n{100 * w:.1f}% of the range" for c, w in zip(self.classes, self.weights)]
        ax.bar(labels, self.shares, yerr=None if self.exact else [1.96 * e for e in self.stderr], capsize=4,
               color="tab:blue")
        ax.axhline(self.share, color="tab:red", linestyle="--", label=f"against the whole range: {self.share:.3f}")
        ax.set_ylim(0, 1)
        ax.set_ylabel("hero's pot share")
        ax.set_title(title or "hero's share against each class of the villain's range")
        ax.legend(fontsize="small")
        return fig


def equity_by_class(
    hero: Cards,
    villain: RangeLike,
    dead: Cards = (),
    game: Scoring | str = "badacey",
    draws: int = 0,
    hero_discard: Cards | None = None,
    samples: int | None = None,
    seed: int | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> ClassEquity:
    """Hero's pot share against each class of one villain's range (heads-up): the range split by the hand
    the villain holds now (:data:`CLASSES`: the best badugi's size in a game with a badugi half, the low
    in A-5 and 2-7), each part's share by :func:`range_equity` with the same arguments.  With draws hero
    throws the same first discard against every class: ``hero_discard``, or the best against the whole
    range.  Classes the range does not hold (once hero's and the dead cards are out) are left out.

    >>> by = equity_by_class("As 2h 3d 4c Kd", "8low+, 9badugi+")
    >>> by.classes, [round(s, 3) for s in by.shares]
    (('badugi', '3badugi', '2badugi', '1badugi'), [0.694, 0.5, 0.5, 0.5])
    >>> round(by.share, 4) == round(range_equity("As 2h 3d 4c Kd", "8low+, 9badugi+").shares[0], 4)
    True
    """
    sc = scoring(game)
    whole = _as_range(villain, sc)
    hero_t = parse_cards(hero, count=sc.hand_size)
    dead_t = parse_cards(dead)
    if draws and hero_discard is None:  # one discard against every class: the best against the whole range
        for c in dead_t:
            if c in hero_t:
                raise DuplicateCardError(f"card {format_cards([c])!r} is both in hero's hand and dead")
        hero_discard = _hero_policies(hero_t, dead_t, sc, None, rule_policy(sc), [whole])[2]
    terms = CLASSES[BADUGI if BADUGI in sc.halves else LOW]
    parts = []
    for term in terms:
        part = Range(f"({whole.text}) & {term}", sc)
        weight = float(part.combos(dead=hero_t + dead_t)[1].sum())
        if weight > 0:
            parts.append((term, part, weight))
    if not parts:
        raise BadaceyError(f"range {whole.text!r} has no hand left once hero's and the dead cards are removed")
    total = sum(w for _, _, w in parts)
    shares, errs, exact = [], [], True
    for i, (_term, part, _w) in enumerate(parts):
        step = None if progress is None else (lambda k, n, i=i: progress(i * n + k, len(parts) * n))
        eq = range_equity(hero_t, part, dead_t, sc, draws, None if not draws else hero_discard, samples, seed,
                          progress=step)
        shares.append(eq.shares[0])
        errs.append(eq.stderr[0])
        exact = exact and eq.exact
    return ClassEquity(tuple(t for t, _, _ in parts), tuple(w / total for _, _, w in parts), tuple(shares),
                       tuple(errs), exact, parse_cards(hero_discard) if draws and hero_discard is not None else None)
