"""Equity: each seat's expected share of the pot after the draw(s); shares are 0..1 and sum to 1.

A seat's share of one showdown is the mean of its shares of the halves the game plays (Badacey and Badeucy:
``0.5 * low_share + 0.5 * badugi_share``; A-5 and 2-7: the low's, Badugi: the badugi's), each half divided
equally among its tied winners (RULES.md §3; chips and odd chips are ignored: shares are exact fractions).
Hands have the game's size: five cards, four for Badugi.

How :func:`equity` enumerates: the seats draw in order (seat 0 first) from the unseen cards, each
taking a *set* of replacements disjoint from the earlier seats'.  Every such sequence of sets is equally
likely, and the order of dealing does not change the joint distribution, so the mean over the
enumeration is exact.  An unknown hand (``None``) is dealt from the unseen cards, drawn the same way.

>>> eq = equity(["As 2h 3d 4c 5s", "2c 3h 4d 5c 6s"])
>>> eq.shares, eq.exact
((1.0, 0.0), True)
>>> equity(["As 2h 3d 4c 5s", "As 3h 4d 5c 6s"])
Traceback (most recent call last):
...
badacey_fast.errors.DuplicateCardError: card 'As' is in two places: seat 0 and seat 1
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb, prod
from typing import Any, TYPE_CHECKING, Union

from badacey_fast import kernel
from badacey_fast.draw.discards import Progress, check_draw
from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import (BadaceyError, DuplicateCardError, IllegalActionError, MissingExtraError,
                                 ShapeError, ShowdownError)
from badacey_fast.rules.games import BADACEY, BADUGI, LOW, Scoring, scoring
from badacey_fast.rules.stub import Stub

if TYPE_CHECKING:
    import numpy as np
    from matplotlib.figure import Figure

__all__ = ["Equity", "equity", "policy_equity", "deal_draws", "check_seed", "half_shares", "EXACT_LIMIT", "DEFAULT_SAMPLES"]

Cards = Union[str, Iterable[Union[str, int]]]
#: policy(hand, draws_left) -> the cards to discard; draws_left counts the draw being made (3, 2, 1).
Policy = Callable[[tuple[int, ...], int], Cards]
#: Exact enumeration when the number of joint outcomes is at most this (else Monte Carlo).
EXACT_LIMIT = 2_000_000
#: ... and the number of single-seat hands to evaluate is at most this.
EVAL_LIMIT = 200_000
#: Monte Carlo samples when the space is too big and ``samples`` is not given.
DEFAULT_SAMPLES = 50_000
#: Monte Carlo samples dealt and evaluated at a time (bounds memory; progress is reported per chunk).
MC_CHUNK = 16_384


@dataclass(frozen=True)
class Equity:
    """Expected pot shares per seat (0..1, summing to 1), with each half's share and standard errors.

    ``stderr`` is the Monte Carlo standard error of each share (0.0 when ``exact``); ``outcomes`` is
    the number of outcomes enumerated or samples drawn; ``hero_discard`` the cards hero (seat 0) threw
    in the first draw, given or chosen, in :func:`~badacey_fast.draw.range_equity.range_equity` with
    draws (None elsewhere, and when a policy callable decided).
    """

    shares: tuple[float, ...]
    low: tuple[float, ...]
    badugi: tuple[float, ...]
    stderr: tuple[float, ...]
    exact: bool
    outcomes: int
    hero_discard: tuple[int, ...] | None = None

    def plot(self, names: Sequence[str] | None = None) -> Figure:
        """Each seat's pot share with its 95 % interval (1.96 standard errors; none when exact), beside
        its share of each half, as grouped bars.  ``names``: one label per seat (default "seat 0", ...).
        Returns a matplotlib ``Figure`` (no pyplot: save it with ``fig.savefig("equity.png")``).  Needs
        matplotlib (``pip install "badacey_fast[plot]"``).

        >>> fig = equity(["As 2h 3d Kc Kd", "2c 3s 4h 5d 6c"], discards=["Kc Kd", None]).plot()
        >>> [round(float(b.get_height()), 4) for b in fig.axes[0].containers[0]]      # the pot shares
        [0.0645, 0.9355]
        """
        MissingExtraError.require("matplotlib", "plot", "plots")
        import numpy as np
        from matplotlib.figure import Figure

        n = len(self.shares)
        labels = list(names) if names is not None else [f"seat {i}" for i in range(n)]
        if len(labels) != n:
            raise ShapeError(f"{len(labels)} names for {n} seats")
        fig = Figure(figsize=(max(5.0, 1.6 * n + 2), 4), layout="constrained")
        ax = fig.subplots()
        x = np.arange(n)
        halves = [(h, v) for h, v in (("low half", self.low), ("badugi half", self.badugi)) if any(v)]
        width = 0.8 / (1 + len(halves))
        ax.bar(x, self.shares, width, yerr=None if self.exact else [1.96 * e for e in self.stderr],
               capsize=4, label="pot share", color="tab:blue")
        for j, (name, values) in enumerate(halves, 1):
            ax.bar(x + j * width, values, width, label=name, alpha=0.7)
        ax.set_xticks(x + width * len(halves) / 2, labels)
        ax.set_ylim(0, 1)
        ax.set_ylabel("share")
        how = "exact" if self.exact else f"{self.outcomes:,} samples, 95 % intervals"
        ax.set_title(f"equity ({how})")
        ax.legend(fontsize="small")
        return fig


def equity(
    hands: Sequence[Cards | None],
    discards: Sequence[Cards | None] | None = None,
    dead: Cards = (),
    game: Scoring | str = BADACEY,
    samples: int | None = None,
    seed: int | None = None,
    *,
    exact_limit: int = EXACT_LIMIT,
    fallback_samples: int = DEFAULT_SAMPLES,
    progress: Progress | None = None,
) -> Equity:
    """Each seat's expected pot share (0..1) when every seat makes one draw with the given discards.

    ``hands``: 2 to 6 hands of the game's size (five cards; four for Badugi), ``None`` for a hand unknown to us (dealt from the unseen cards;
    its discards must be ``None``: a random hand after a random draw is still a random hand).
    ``discards``: per seat the cards thrown, ``None`` = stand pat.  ``dead``: cards out of play.
    With ``samples=None`` the answer is exact when at most ``exact_limit`` joint outcomes exist, else
    Monte Carlo with ``fallback_samples``; a given ``samples`` always means Monte Carlo, seeded by ``seed``
    (None or an integer >= 0, numpy's too; a negative one is a :class:`~badacey_fast.errors.BadaceyError`,
    checked even when the answer is exact).
    ``progress(done, total)`` is called after each chunk of Monte Carlo samples.

    >>> equity(["2h 4h 6h 7h Ac", "Ks Qd 9c 5h 5s"]).shares    # seed 000: Cora wins low, Dmitri badugi
    (0.5, 0.5)
    >>> equity(["2h 4h 6h 7h Ac", "Ks Qd 9c 5h 5s"], game="a5").shares   # one pot, played for the low
    (1.0, 0.0)
    >>> [round(x, 4) for x in equity(["As 2h 3d Kc", "2c 3s 4h 5d"], ["Kc", None], game="badugi").shares]
    [0.0455, 0.9545]
    >>> equity(["2h 4h 6h 7h Ac"])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: equity needs 2 to 6 seats, got 1
    """
    import numpy as np

    sc = scoring(game)
    ace_high = sc.ace_high
    seed = check_seed(seed)
    _, kept, draws, pool = _setup(hands, discards, dead, sc.hand_size)
    n = len(pool)
    joint = prod(comb(n - sum(draws[:i]), d) for i, d in enumerate(draws))
    singles = sum(comb(n, d) for d in draws if d)
    if samples is None and joint <= exact_limit and singles <= EVAL_LIMIT:
        low, bd = _exact(kept, draws, pool, ace_high, sc.hand_size)
        return _summarise(low, bd, sc.halves, exact=True)
    samples = _positive(fallback_samples if samples is None else samples, "samples")
    return _monte_carlo(kept, draws, pool, sc, samples, np.random.default_rng(seed), progress)


def policy_equity(
    hands: Sequence[Cards | None],
    policy: Policy | Sequence[Policy],
    draws: int = 3,
    dead: Cards = (),
    game: Scoring | str = BADACEY,
    samples: int = 10_000,
    seed: int | None = None,
    progress: Progress | None = None,
) -> Equity:
    """Monte Carlo pot shares (0..1) when every seat draws ``draws`` times following a policy.

    ``policy(hand, draws_left)`` returns the cards to discard (draws_left = 3, 2, 1 for the three draws);
    one callable for every seat or one per seat.  Seats draw in the order given (seat 0 first, as the
    seat left of the button).  Each sample deals the unseen cards, shuffled, through a
    :class:`~badacey_fast.rules.stub.Stub` by :func:`deal_draws`, as the engine deals (RULES.md §4): the
    stub's last card is never dealt; when only it is left and a seat is still owed cards, it is shuffled
    with everything mucked so far (not the drawing seat's own discards of this draw) into a new stub.
    ``seed``: as in :func:`equity`.  ``progress(done, total)`` is called now and then with the number of
    samples dealt.

    >>> pat = lambda hand, left: ()
    >>> policy_equity(["As 2h 3d 4c 5s", "2c 3h 4d 5c 6s"], pat, samples=10, seed=1).shares
    (1.0, 0.0)
    >>> policy_equity(["As 2h 3d 4c 5s", None], pat, draws=-1)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: draws must be 0 or more, got -1
    """
    import numpy as np

    sc = scoring(game)
    known, _, _, pool = _setup(hands, None, dead, sc.hand_size)
    policies = list(policy) if isinstance(policy, Sequence) else [policy] * len(known)
    if len(policies) != len(known) or not all(callable(p) for p in policies):
        raise TypeError(f"policy must be a callable or a sequence of {len(known)} callables")
    if isinstance(draws, bool) or not isinstance(draws, int):
        raise TypeError(f"draws must be an int, not {type(draws).__name__}")
    if draws < 0:
        raise BadaceyError(f"draws must be 0 or more, got {draws}")
    samples = _positive(samples, "samples")
    rng = np.random.default_rng(check_seed(seed))
    finals = np.empty((samples, len(known), sc.hand_size), dtype=np.int64)
    for s in range(samples):
        # The unseen cards in a random order, dealt from the top; reshuffles draw from the same generator.
        finals[s] = deal_draws(Stub(rng.permutation(pool).tolist(), rng=rng, check=False), known, policies, draws,
                               size=sc.hand_size)
        if progress is not None and (s + 1) % 256 == 0:
            progress(s + 1, samples)
    low, bd = _evaluate_seats(finals, sc.ace_high)
    return _summarise(low, bd, sc.halves, exact=False)


def deal_draws(
    stub: Stub,
    hands: Sequence[tuple[int, ...] | None],
    policies: Sequence[Policy],
    draws: int = 3,
    size: int = 5,
) -> list[tuple[int, ...]]:
    """Deal one simulated hand through ``stub`` exactly as the engine deals it (RULES.md §4): the unknown
    hands (``None``) first, one card at a time around in seat order; then ``draws`` draws, in each of
    which every seat in seat order discards what ``policies[seat](hand, draws_left)`` returns and is
    served by :meth:`Stub.draw <badacey_fast.rules.stub.Stub.draw>` before the next seat chooses.  Returns
    the final hands (kept cards first, then the replacements in the order dealt); ``size``: cards per hand.  Seat 0 plays the seat
    left of the button: with every hand unknown, a :class:`~badacey_fast.game.Game` dealt the same deck
    with the same random source and the same discards gives every seat the same cards.
    :func:`policy_equity` deals each sample with it.

    >>> import random
    >>> from badacey_fast.cards import format_cards as fc
    >>> from badacey_fast.rules.stub import Stub
    >>> deck = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2h 3h 4h"     # 16 cards: the stub runs out
    >>> throw_all = lambda hand, left: hand
    >>> stub = Stub(deck, rng=random.Random(1))
    >>> [fc(h) for h in deal_draws(stub, [None, None], [throw_all] * 2, draws=1)]
    ['Js Qs Ks 2h 3h', '4h 7s 5s 9s 3s']
    >>> stub.reshuffles    # 4h was the last card: seat 1 drew from it and seat 0's discards, not its own
    [15]
    >>> deal_draws(Stub(deck[:-3], rng=random.Random(1)), [None, None], [throw_all] * 2, draws=1)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.IllegalActionError: the deck ran out: 5 cards are owed, 4 can be dealt (the stub's 5 but its last card, and the muck's 0)
    """
    unknown = sum(hand is None for hand in hands)
    # The unknown hands, dealt in one round, go to the unknown seats in seat order.
    dealt = iter(stub.deal_round(unknown, size) if unknown else ())
    held = [tuple(next(dealt)) if hand is None else hand for hand in hands]
    validate = check_draw
    for left in range(draws, 0, -1):
        for seat, hand in enumerate(held):
            thrown = validate(hand, policies[seat](hand, left), (), len(hand))[1]
            if thrown:
                held[seat] = tuple(c for c in hand if c not in thrown) + tuple(stub.draw(thrown))
    return held


def _setup(hands: object, discards: object, dead: Cards, size: int = 5
           ) -> tuple[list[tuple[int, ...] | None], list[tuple[int, ...]], list[int], tuple[int, ...]]:
    """Validate seats (hands of ``size`` cards), discards and dead cards; returns (hands, kept, draw
    counts, unseen pool)."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise TypeError(f"hands must be a sequence of hands, not {type(hands).__name__}")
    if not 2 <= len(hands) <= 6:
        raise ShowdownError(f"equity needs 2 to 6 seats, got {len(hands)}")
    if discards is None:
        discards = [None] * len(hands)
    if isinstance(discards, (str, bytes)) or not isinstance(discards, Sequence):
        raise TypeError(f"discards must be a sequence with one entry per seat, not {type(discards).__name__}")
    if len(discards) != len(hands):
        raise ShowdownError(f"got {len(discards)} discards for {len(hands)} seats")
    owner: dict[int, str] = {}

    def claim(cards: tuple[int, ...], where: str) -> None:
        for c in cards:
            if c in owner:
                raise DuplicateCardError(f"card {format_cards([c])!r} is in two places: {owner[c]} and {where}")
            owner[c] = where

    known: list[tuple[int, ...] | None] = []
    kept: list[tuple[int, ...]] = []
    draws: list[int] = []
    for seat, (hand, thrown) in enumerate(zip(hands, discards)):
        if hand is None:
            if thrown is not None and parse_cards(thrown):
                raise IllegalActionError(f"seat {seat}'s hand is unknown: it cannot discard known cards")
            known.append(None)
            kept.append(())
            draws.append(size)
            continue
        hand_t, thrown_t, _ = check_draw(hand, () if thrown is None else thrown, (), size)
        claim(hand_t, f"seat {seat}")
        known.append(hand_t)
        kept.append(tuple(c for c in hand_t if c not in thrown_t))
        draws.append(len(thrown_t))
    claim(parse_cards(dead), "the dead cards")
    pool = tuple(c for c in range(52) if c not in owner)
    if sum(draws) > len(pool):
        raise BadaceyError(f"the seats need {sum(draws)} cards but only {len(pool)} are unseen")
    return known, kept, draws, pool


def _positive(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < 1:
        raise BadaceyError(f"{what} must be at least 1, got {value}")
    return value


def check_seed(seed: object) -> int | None:
    """None or an integer >= 0 (numpy's too, not bool): the seeds numpy's generator takes, checked here so
    that a bad one is named by our error rather than by numpy's bare "expected non-negative integer".

    >>> check_seed(None), check_seed(7)
    (None, 7)
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: seed -1 is negative: expected None or an integer 0 or more
    """
    import numpy as np

    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not hasattr(seed, "__index__"):
        raise TypeError(f"seed must be None or an int, not {type(seed).__name__}")
    value = operator.index(seed)
    if value < 0:
        raise BadaceyError(f"seed {value} is negative: expected None or an integer 0 or more")
    return value


def _exact(kept: Sequence[tuple[int, ...]], draws: Sequence[int], pool: tuple[int, ...], ace_high: bool,
           size: int = 5) -> tuple[np.ndarray[Any, Any] | None, np.ndarray[Any, Any]]:
    """(outcomes, seats) low and badugi ranks over every sequence of disjoint replacement sets."""
    import numpy as np

    # the cards taken so far in each partial outcome, as bitmasks; per outcome, each seat's combination index
    rows: np.ndarray[Any, Any] = np.zeros(1, dtype=np.uint64)
    picks: np.ndarray[Any, Any] = np.zeros((1, 0), dtype=np.int64)
    lows: list[np.ndarray[Any, Any] | None] = []
    bds: list[np.ndarray[Any, Any]] = []
    for k, d in zip(kept, draws):
        combos = list(combinations(pool, d))
        masks = np.array([sum(1 << c for c in cb) for cb in combos], dtype=np.uint64)
        hands = np.array([k + cb for cb in combos], dtype=np.int64).reshape(len(combos), size)
        lo, bd = _evaluate_seats(hands[:, None, :], ace_high)
        lows.append(None if lo is None else lo[:, 0])
        bds.append(bd[:, 0])
        ok = (rows[:, None] & masks[None, :]) == 0  # a card goes to one seat at most
        i, j = np.nonzero(ok)
        rows = rows[i] | masks[j]
        picks = np.concatenate([picks[i], j[:, None]], axis=1)
    made = [x for x in lows if x is not None]  # every seat's lows, or none (four-card hands)
    low = np.stack([made[s][picks[:, s]] for s in range(len(kept))], axis=1) if len(made) == len(kept) else None
    bd = np.stack([bds[s][picks[:, s]] for s in range(len(kept))], axis=1)
    return low, bd


def _evaluate_seats(hands: np.ndarray[Any, Any], ace_high: bool
                    ) -> tuple[np.ndarray[Any, Any] | None, np.ndarray[Any, Any]]:
    """Low and badugi ranks of an (N, P, k) array of hands, each (N, P); lower is better.  Four-card
    (Badugi) hands have no low: None."""
    import numpy as np

    size = hands.shape[-1]
    flat = np.ascontiguousarray(np.asarray(hands).reshape(-1, size), dtype=np.uint8)  # valid ids: no wrap
    low, bd = np.empty(len(flat), dtype=np.uint16), np.empty(len(flat), dtype=np.uint16)
    if size != 5:
        bad = kernel.badugi_rank_many(flat, ace_high, True, bd)
        if bad != -1:
            raise RuntimeError(f"badugi_rank_many rejected row {bad}: {flat[bad].tolist()!r}")
        return None, bd.reshape(hands.shape[:2])
    bad = kernel.eval_many(flat, ace_high, True, low, bd)
    if bad != -1:  # the hands were dealt from validated cards
        raise RuntimeError(f"eval_many rejected row {bad}: {flat[bad].tolist()!r}")
    return low.reshape(hands.shape[:2]), bd.reshape(hands.shape[:2])


def half_shares(ranks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """(N, P) ranks -> (N, P) share of that half: 1/k to each of the k seats holding the lowest rank
    (lower is better).

    >>> import numpy as np
    >>> half_shares(np.array([[3, 1, 1], [2, 5, 9]])).tolist()
    [[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]]
    """
    win = ranks == ranks.min(axis=1, keepdims=True)
    shares: np.ndarray[Any, Any] = win / win.sum(axis=1, keepdims=True)
    return shares


def _monte_carlo(kept: Sequence[tuple[int, ...]], draws: Sequence[int], pool: tuple[int, ...], sc: Scoring,
                 samples: int, rng: np.random.Generator, progress: Progress | None) -> Equity:
    """Seeded Monte Carlo in chunks (memory stays flat in ``samples``): every sample shuffles the unseen
    cards and deals each seat's replacements in seat order."""
    import numpy as np

    seats = len(kept)
    sums = np.zeros((4, seats))  # share, share squared, low half, badugi half
    done = 0
    while done < samples:
        n = min(MC_CHUNK, samples - done)
        deals = rng.permuted(np.tile(np.asarray(pool, dtype=np.uint8), (n, 1)), axis=1)
        finals, at = np.empty((n, seats, sc.hand_size), dtype=np.uint8), 0
        for seat, (k, d) in enumerate(zip(kept, draws)):
            finals[:, seat, : len(k)] = k
            finals[:, seat, len(k) :] = deals[:, at : at + d]
            at += d
        low, bd = _evaluate_seats(finals, sc.ace_high)
        lo, bdg, share = _half_and_pot_shares(low, bd, sc.halves)
        sums += np.stack([share.sum(0), (share * share).sum(0), lo.sum(0), bdg.sum(0)])
        done += n
        if progress is not None:
            progress(done, samples)
    mean = sums[0] / samples
    if samples > 1:  # sample variance from the running sums, clamped against rounding below zero
        var = np.maximum(sums[1] - samples * mean * mean, 0.0) / (samples - 1)
        err = tuple(float(x) for x in np.sqrt(var / samples))
    else:
        err = (0.0,) * seats

    def as_floats(a: np.ndarray[Any, Any]) -> tuple[float, ...]:
        return tuple(float(x) for x in a)

    return Equity(as_floats(mean), as_floats(sums[2] / samples), as_floats(sums[3] / samples), err, False, samples)


def _half_and_pot_shares(low: np.ndarray[Any, Any] | None, bd: np.ndarray[Any, Any], halves: Sequence[str]
                         ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """(N, P) shares of the low half, of the badugi half (zeros for a half the game does not play) and of
    the pot: the mean over the halves played."""
    import numpy as np

    zero = np.zeros(bd.shape)
    lo = half_shares(low) if LOW in halves and low is not None else zero
    bdg = half_shares(bd) if BADUGI in halves else zero
    share = (lo + bdg) / len(halves)
    return lo, bdg, share


def _summarise(low: np.ndarray[Any, Any] | None, bd: np.ndarray[Any, Any], halves: Sequence[str],
               exact: bool) -> Equity:
    lo, bdg, share = _half_and_pot_shares(low, bd, halves)
    n = share.shape[0]
    if exact or n < 2:
        err = (0.0,) * share.shape[1]
    else:
        err = tuple(float(x) for x in share.std(axis=0, ddof=1) / n**0.5)

    def mean(a: np.ndarray[Any, Any]) -> tuple[float, ...]:
        return tuple(float(x) for x in a.mean(axis=0))

    return Equity(mean(share), mean(lo), mean(bdg), err, exact, n)
