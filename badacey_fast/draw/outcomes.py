"""Draw analysis: what one draw can bring, exactly, and which discard is best.

Every possible replacement is enumerated from the *unseen* cards (52 - hand - dead): each set of
replacement cards is equally likely whatever order the cards are dealt in, so counting sets is exact.
Hands have the game's size: five cards, four for Badugi (whose hands have no low: only badugi counts).
Ranks are dense and **lower is better** (A-5 low 1..6175, 2-7 low 1..7462, badugi 1..1092); badugi
ranks 1..715 are the four-card badugis.

The active twin of :mod:`badacey_fast.kernel` enumerates: the C kernel, or the Python twin with the
reference evaluators (slow for big draws: about 15 microseconds per outcome).

>>> out = draw_outcomes("As 2h 3d Kc Kd", discard="Kc Kd")
>>> out.total                                # C(47, 2) two-card replacements
1081
>>> draw_outcomes("As 2h 3d Kc Kd", discard="Qs")
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: cannot discard 'Qs': it is not in the hand 'As 2h 3d Kc Kd'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import chain, combinations
from math import comb
from operator import mul
from typing import TYPE_CHECKING, Any, Union

from badacey_fast import kernel
from badacey_fast.rules import reference
from badacey_fast.cards import RANK_CHARS, format_cards, parse_cards
from badacey_fast.errors import BadaceyError, DuplicateCardError, MissingExtraError, RankError
from badacey_fast.draw.discards import Progress, check_draw
from badacey_fast.draw.equities import DEFAULT_SAMPLES, equity  # the opponent-draws objective of best_discards
from badacey_fast.rules.games import BADACEY, BADUGI, LOW, SCORINGS, Scoring, scoring

if TYPE_CHECKING:
    import numpy as np
    from matplotlib.figure import Figure

    from badacey_fast.draw.ranges import Range

    NDArray = np.ndarray[Any, Any]
    #: A villain's range: range text (read in the game) or a Range.
    RangeLike = Union[str, Range]

__all__ = ["DrawOutcomes", "DiscardChoice", "draw_outcomes", "best_discards", "OBJECTIVES", "DEFAULT_OBJECTIVES"]

Cards = Union[str, Iterable[Union[str, int]]]
#: progress(done, total) is called now and then during a long enumeration (counts of outcomes, done
#: never decreasing) and always last with (total, total).  The C twin enumerates in one kernel call,
#: so it makes only that last call.
#: Objectives :func:`best_discards` knows by name (a callable on :class:`DrawOutcomes` also works).
OBJECTIVES = ("badugi", "low", "share")
#: Each game's objective when :func:`best_discards` is given none: the expected pot share (against a
#: random hand, or the ranges given) wherever a low half is played -- a split pot's advice must weigh
#: both halves -- and P(four-card badugi) for Badugi, whose one half is all that P(badugi) is about.
DEFAULT_OBJECTIVES = {"badacey": "share", "badeucy": "share", "a5": "share", "27": "share", "badugi": "badugi"}
#: Badugi ranks 1..715 are four-card badugis (715 sets of four ranks), 716..1001 three cards, ...
_BADUGI_SIZE_FIRST = {4: 1, 3: 716, 2: 1002, 1: 1080}
_BADUGI_CLASSES = reference.BADUGI_CLASS_COUNT


@dataclass(frozen=True)
class DrawOutcomes:
    """Exact distribution of the hand after one draw: integer counts over every replacement.

    ``low_counts[r - 1]`` is how many replacements make low rank ``r``; ``badugi_counts[r - 1]`` the
    same for badugi rank ``r`` (lower is better); both sum to ``total``.  Probabilities are counts / total.
    ``game`` is the scale family (``"badacey"``: A-5 low and ace-low badugi; ``"badeucy"``: 2-7 and
    ace-high); ``halves`` the halves the game plays (``("low",)`` for A-5 and 2-7, ``("badugi",)`` for
    Badugi): what :meth:`plot` shows and the command line prints.  A four-card (Badugi) hand has no low:
    ``low_counts`` is empty, and the low's figures raise :class:`~badacey_fast.errors.BadaceyError`.
    """

    game: str
    hand: tuple[int, ...]
    discard: tuple[int, ...]
    dead: tuple[int, ...]
    total: int
    # Thousands of counts: left out of the repr so that printing a result stays readable.
    low_counts: tuple[int, ...] = field(repr=False)
    badugi_counts: tuple[int, ...] = field(repr=False)
    halves: tuple[str, ...] = (LOW, BADUGI)

    def _need_low(self) -> None:
        if not self.low_counts:
            raise BadaceyError(f"a {len(self.hand)}-card hand has no low: only its badugi is counted")

    def p_low(self, at_most: int) -> float:
        """P(low rank <= ``at_most``): the chance of a low at least as good as rank ``at_most`` (1 = best).

        >>> draw_outcomes("As 2h 3d 4c Kd", discard="Kd").p_low(1)    # 4 fives of 47 unseen make the wheel
        0.0851063829787234
        >>> draw_outcomes("As 2h 3d 4c Kd", discard="Kd").p_low(0)
        Traceback (most recent call last):
        ...
        badacey_fast.errors.RankError: low rank 0 is outside 1..6175
        """
        self._need_low()
        _check_rank(at_most, len(self.low_counts), "low")
        return sum(self.low_counts[:at_most]) / self.total

    def p_badugi(self, at_most: int = 715) -> float:
        """P(badugi rank <= ``at_most``), 1..1092; the default 715 is P(any four-card badugi).

        >>> draw_outcomes("As 2h 3d Kd Kc", discard="Kc").p_badugi()    # outs: 4c..Qc, and 3c (As 2h 3c Kd)
        0.2127659574468085
        """
        _check_rank(at_most, _BADUGI_CLASSES, "badugi")
        return sum(self.badugi_counts[:at_most]) / self.total

    def badugi_sizes(self) -> dict[int, float]:
        """P(the best badugi has 4, 3, 2, 1 cards), keyed by size.

        >>> draw_outcomes("Ac 2d 3h 4s 5s", discard="").badugi_sizes()[4]
        1.0
        """
        return {size: count / self.total for size, count in self.badugi_size_counts().items()}

    def badugi_size_counts(self) -> dict[int, int]:
        """How many replacements make a best badugi of 4, 3, 2, 1 cards (exact counts, summing to ``total``).

        >>> draw_outcomes("As 2h 3d Kd Kc", discard="Kc").badugi_size_counts()    # 10 outs: 4c..Qc, 3c
        {4: 10, 3: 37, 2: 0, 1: 0}
        """
        edges = [*_BADUGI_SIZE_FIRST.values(), _BADUGI_CLASSES + 1]
        return {size: sum(self.badugi_counts[edges[i] - 1 : edges[i + 1] - 1])
                for i, size in enumerate(_BADUGI_SIZE_FIRST)}

    def plot(self) -> Figure:
        """The distribution after the draw, as bars: the low (a no-pair low by its top card, then each
        pair category) and the badugi (by its size).  Returns a matplotlib ``Figure`` (no pyplot: save it
        with ``fig.savefig("draw.png")``).  Needs matplotlib (``pip install "badacey_fast[plot]"``).

        >>> fig = draw_outcomes("As 2h 3d 4c Kd", discard="Kd").plot()
        >>> [ax.get_title() for ax in fig.axes]
        ['low after the draw', 'badugi after the draw']
        >>> [ax.get_title() for ax in draw_outcomes("As 2h 3d 4c Kd", discard="Kd", game="27").plot().axes]
        ['low after the draw']
        """
        MissingExtraError.require("matplotlib", "plot", "plots")
        from matplotlib.figure import Figure

        shown = [h for h in (LOW, BADUGI) if h in self.halves and (h != LOW or self.low_counts)]
        fig = Figure(figsize=(9 if len(shown) == 2 else 6, 4), layout="constrained")
        axes = fig.subplots(1, len(shown), width_ratios=[3, 1] if len(shown) == 2 else None, squeeze=False)[0]
        for ax, half in zip(axes, shown):
            if half == LOW:
                highs = self.low_high_cards()
                rest = {c: p for c, p in self.low_categories().items() if c != "no pair" and p > 0}
                labels = [f"{h}-low" for h in highs] + list(rest)
                ax.bar(labels, [*highs.values(), *rest.values()], color="tab:blue")
                ax.set_title("low after the draw")
                ax.tick_params(axis="x", labelrotation=45)
            else:
                sizes = self.badugi_sizes()
                ax.bar([f"{k} cards" for k in sizes], list(sizes.values()), color="tab:green")
                ax.set_title("badugi after the draw")
        axes[0].set_ylabel("probability")
        fig.suptitle(f"{format_cards(self.hand)}, throwing {format_cards(self.discard) or 'nothing'}: "
                     f"{self.total:,} outcomes")
        return fig

    def low_categories(self) -> dict[str, float]:
        """P(each low category): ``'no pair'``, ``'one pair'``, ... (2-7 adds straights and flushes).

        >>> draw_outcomes("Ac 2d 3h 4s 5s", discard="").low_categories()["no pair"]
        1.0
        """
        return {category: count / self.total for category, count in self.low_category_counts().items()}

    def low_category_counts(self) -> dict[str, int]:
        """How many replacements make each low category (exact counts; empty for a four-card hand).

        >>> draw_outcomes("As 2h 3d 4c Kd", discard="Kd").low_category_counts()
        {'no pair': 35, 'one pair': 12, 'two pair': 0, 'three of a kind': 0, 'full house': 0, 'four of a kind': 0}
        """
        counts: dict[str, int] = {}
        if not self.low_counts:  # a four-card hand: no low
            return counts
        for (category, _high), count in zip(_low_classes(self.game), self.low_counts):
            counts[category] = counts.get(category, 0) + count
        return counts

    def low_high_cards(self) -> dict[str, float]:
        """P(a no-pair low topped by each card), keyed ``'5'``..``'K'`` (``'A'`` too in 2-7): ``'7'`` = a 7-low.

        >>> draw_outcomes("As 2h 3d 4c 7d", discard="").low_high_cards()
        {'7': 1.0}
        """
        return {high: count / self.total for high, count in self.low_high_card_counts().items()}

    def low_high_card_counts(self) -> dict[str, int]:
        """How many replacements make a no-pair low topped by each card (exact counts; only the tops made).

        >>> draw_outcomes("As 2h 3d 4c Kd", discard="Kd").low_high_card_counts()
        {'5': 4, '6': 4, '7': 4, '8': 4, '9': 4, 'T': 4, 'J': 4, 'Q': 4, 'K': 3}
        """
        counts: dict[str, int] = {}
        if not self.low_counts:
            return counts
        for (category, high), count in zip(_low_classes(self.game), self.low_counts):
            if category == "no pair" and count:
                counts[high] = counts.get(high, 0) + count
        return counts

    @cached_property
    def expected_low_rank(self) -> float:
        """Mean low rank over every replacement (lower is better); a four-card hand has none (an error)."""
        self._need_low()
        weighted: int = sum(map(mul, range(1, len(self.low_counts) + 1), self.low_counts))
        return weighted / self.total

    @cached_property
    def expected_badugi_rank(self) -> float:
        """Mean badugi rank over every replacement (lower is better)."""
        weighted: int = sum(map(mul, range(1, _BADUGI_CLASSES + 1), self.badugi_counts))
        return weighted / self.total

    def pat_share(self, low: int, badugi: int, *, halves: Sequence[str] = (LOW, BADUGI)) -> float:
        """Expected pot share, 0..1, against an opponent who stands pat with these ranks (lower is better),
        over ``halves`` (default both: Badacey, Badeucy; ``("low",)`` for A-5 or 2-7, ``("badugi",)``
        for Badugi: the half given for the other is then not used, but still checked).

        Each half is split equally on a tie, so a half is worth 1 if we are lower, 1/2 if equal.

        >>> draw_outcomes("Ac 2d 3h 4s 5s", discard="").pat_share(low=1, badugi=1)   # tie both halves
        0.5
        >>> draw_outcomes("Ac 2d 3h 4s 5s", discard="").pat_share(low=2, badugi=1, halves=("low",))
        1.0
        """
        if not halves or any(h not in (LOW, BADUGI) for h in halves):
            raise BadaceyError(f"halves must name 'low' and/or 'badugi', got {tuple(halves)!r}")
        _check_rank(badugi, _BADUGI_CLASSES, "badugi")
        got = {BADUGI: sum(self.badugi_counts[: badugi - 1]) + 0.5 * self.badugi_counts[badugi - 1]}
        if LOW in halves:
            self._need_low()
        if self.low_counts:
            _check_rank(low, len(self.low_counts), "low")
            got[LOW] = sum(self.low_counts[: low - 1]) + 0.5 * self.low_counts[low - 1]
        return sum(got[h] for h in halves) / len(halves) / self.total


@dataclass(frozen=True)
class DiscardChoice:
    """One of the 32 discards: the cards thrown, its score under the objective, and its full outcomes."""

    discard: tuple[int, ...]
    score: float
    outcomes: DrawOutcomes = field(repr=False)
    #: Monte Carlo standard error of ``score`` (0.0 when it is exact).
    stderr: float = 0.0

    def __str__(self) -> str:
        return f"discard [{format_cards(self.discard)}] score {self.score:.6f}"


def draw_outcomes(
    hand: Cards,
    discard: Cards = (),
    dead: Cards = (),
    game: Scoring | str = BADACEY,
    progress: Progress | None = None,
) -> DrawOutcomes:
    """Exact distribution of a hand (five cards; four for Badugi: the hand size comes from ``game``)
    after discarding ``discard`` and drawing replacements.

    ``dead`` are cards known to be out of the deck (other players' hands, seen discards).  Every set of
    replacements from the 52 - 5 - len(dead) unseen cards is counted once: C(unseen, len(discard))
    outcomes, up to C(47, 5) = 1,533,939 (C(48, 4) = 194,580 for Badugi).  Ranks in the result are
    dense, lower is better.
    ``progress(done, total)``: called with outcome counts as they are enumerated (the Python twin every
    4096 outcomes) and always last with ``(total, total)`` -- on the C twin, which enumerates in one
    kernel call, only that last time.

    >>> out = draw_outcomes("As 2h 3d 4c Kd", discard="Kd")
    >>> out.total, out.low_counts[0]                  # 47 cards, four fives make the wheel
    (47, 4)
    >>> bd = draw_outcomes("As 2h 3d Kc", discard="Kc", game="badugi")   # a Badugi hand: four cards
    >>> bd.total, bd.badugi_counts[0], bd.halves      # 48 cards, the 4c makes the nuts
    (48, 1, ('badugi',))
    >>> draw_outcomes("As 2h 3d 4c Kd", discard="Kd", dead="As")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.DuplicateCardError: card 'As' is both in the hand and dead
    """
    rules = scoring(game)
    hand_t, discard_t, dead_t = check_draw(hand, discard, dead, rules.hand_size)
    kept = tuple(c for c in hand_t if c not in discard_t)
    unseen = _unseen(hand_t, dead_t)
    if len(discard_t) > len(unseen):
        raise BadaceyError(f"cannot draw {len(discard_t)} cards: only {len(unseen)} unseen cards remain")
    low, badugi = _enumerate(kept, unseen, len(discard_t), rules.ace_high, progress)
    return DrawOutcomes(rules.family, hand_t, discard_t, dead_t, comb(len(unseen), len(discard_t)), low, badugi,
                        rules.halves)


def best_discards(
    hand: Cards,
    dead: Cards = (),
    game: Scoring | str = BADACEY,
    objective: str | Callable[[DrawOutcomes], float] | None = None,
    *,
    target: Cards | int | None = None,
    opponent: Cards | None = None,
    opponent_discard: Cards | None = None,
    against: RangeLike | Sequence[RangeLike] | None = None,
    samples: int | None = None,
    seed: int | None = None,
    progress: Progress | None = None,
) -> list[DiscardChoice]:
    """All 32 discards of a five-card hand (all 16 of a four-card Badugi hand), best first by ``objective``
    (a probability or share, higher wins).

    Objectives: ``"share"`` = expected pot share 0..1 over the halves ``game`` plays (both for Badacey and
    Badeucy, the low for A-5 and 2-7, the badugi for Badugi), each half split equally on a tie, against
    ``opponent`` -- a known five-card hand standing pat (its cards are dead to us; one that is also in
    our hand or dead is a :class:`~badacey_fast.errors.DuplicateCardError` saying so) -- or against
    ``against``, one range or a sequence of ranges (text or :class:`~badacey_fast.draw.ranges.Range`,
    one per villain, each standing pat with a hand of its range), or, with neither, against one random
    hand dealt from the unseen cards, standing pat.  Against ranges or a random hand the villains' hands
    are taken as independent of our replacements (the card removal between them is left out: a few
    thousandths of a share) and the score is otherwise exact.
    ``"badugi"`` = P(four-card badugi); ``"low"`` = P(low at least as good as ``target``, a five-card
    hand or a low rank, default the hand's own low).  A callable receives each :class:`DrawOutcomes`
    and returns the score.

    ``objective=None`` is the game's default (:data:`DEFAULT_OBJECTIVES`): ``"share"`` for Badacey,
    Badeucy, A-5 and 2-7 (the whole pot: a split game's advice must weigh both halves), ``"badugi"``
    for Badugi.  Ties: for ``"low"`` and ``"badugi"`` the better expected rank of that half, then (in a
    split game) of the other half; then, for every objective, fewer cards thrown.

    With ``opponent_discard`` the opponent draws too (after us; the order changes nothing): each share
    is :func:`badacey_fast.draw.equities.equity`'s, exact when the joint outcomes are few enough, else Monte
    Carlo with ``samples`` (default ``equity.DEFAULT_SAMPLES``) and ``seed``; the standard error is in
    ``DiscardChoice.stderr``.  ``progress(done, total)`` as in :func:`draw_outcomes`, counting the
    replacements of all 32 discards together.

    >>> nines_up = "9c 9d 9h 9s Tc Td Th Ts Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks"  # dead: a quicker example
    >>> best = best_discards("2h 4h 6h 7h Ac", nines_up, objective="badugi")   # seed 000's one-way hand
    >>> len(best), format_cards(best[0].discard)
    (32, '4h 6h 7h')
    >>> [(format_cards(ch.discard), round(ch.score, 4)) for ch in best_discards("As 2h 3d 4c 4d", nines_up)[:2]]
    [('4d', 0.9183), ('4c', 0.8418)]
    >>> best_discards("2h 4h 6h 7h Ac", objective="share", opponent_discard="Ac")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: opponent_discard needs opponent= (the opponent's five cards)
    """
    sc = scoring(game)
    family = sc.family
    if objective is None:
        objective = DEFAULT_OBJECTIVES[sc.game]
    size = sc.hand_size
    hand_t, _, dead_t = check_draw(hand, (), dead, size)
    if objective == "low" and LOW not in sc.halves:
        raise BadaceyError(f"{sc.game} plays no low: objective 'low' is for the games with a low half")
    if opponent_discard is not None and opponent is None:
        raise BadaceyError("opponent_discard needs opponent= (the opponent's five cards)")
    if against is not None and opponent is not None:
        raise BadaceyError("give opponent= (a known hand) or against= (ranges), not both")
    if against is not None and objective != "share":
        raise BadaceyError(f"against= is for objective 'share', not {objective!r}")
    score = _objective(objective, hand_t, dead_t, sc, target, opponent)
    ranges = None if against is None else _ranges_of(against, sc)
    if opponent is not None:
        dead_t = dead_t + _opponent_cards(hand_t, dead_t, opponent, size)  # its cards are dead to us
    unseen = _unseen(hand_t, dead_t)
    discards = [d for k in range(size + 1) for d in combinations(hand_t, k)]
    need = sum(comb(len(unseen), len(d)) for d in discards)
    done = 0

    def step(d: tuple[int, ...]) -> DrawOutcomes:
        nonlocal done
        if len(d) > len(unseen):
            raise BadaceyError(f"cannot draw {len(d)} cards: only {len(unseen)} unseen cards remain")
        kept = tuple(c for c in hand_t if c not in d)
        sub = None if progress is None else (lambda k, _n: progress(done + k, need))
        low, badugi = _enumerate(kept, unseen, len(d), sc.ace_high, sub)
        done += comb(len(unseen), len(d))
        return DrawOutcomes(family, hand_t, d, dead_t, comb(len(unseen), len(d)), low, badugi, sc.halves)

    masks = [sum(1 << i for i, c in enumerate(hand_t) if c in d) for d in discards]
    arrays = None
    if len(unseen) < size:  # some discards cannot be drawn to: step() says which, in order
        outcomes = [step(d) for d in discards]
    elif size != 5:  # a four-card hand: no kernel call for all discards at once (and no low)
        import numpy as np

        outcomes = [step(d) for d in discards]
        arrays = (np.zeros((len(outcomes), 0), np.int64), np.array([o.badugi_counts for o in outcomes], np.int64))
    else:  # all 32 at once (one kernel call on the C twin), each found by its discard mask
        lows, bds = kernel.draw_all_discards(hand_t, unseen, sc.ace_high, progress)
        arrays = lows[masks], bds[masks]
        outcomes = [DrawOutcomes(family, hand_t, d, dead_t, comb(len(unseen), len(d)),
                                 tuple(lows[m].tolist()), tuple(bds[m].tolist()), sc.halves)
                    for d, m in zip(discards, masks)]
    if opponent_discard is not None and parse_cards(opponent_discard):
        choices = _share_vs_drawing(hand_t, dead, sc, opponent, opponent_discard, outcomes, samples, seed)
    elif objective == "share" and opponent is None:
        if arrays is None:
            raise BadaceyError(f"cannot deal a hand against ours: only {len(unseen)} unseen cards remain")
        # The random hand is any five unseen cards: the histogram of throwing all five.
        villains = _villains(ranges, arrays, dead_t + hand_t, sc.halves)
        scores = _pot_share(arrays, villains, sc.halves)
        choices = [DiscardChoice(o.discard, float(x), o) for o, x in zip(outcomes, scores)]
    else:
        choices = [DiscardChoice(o.discard, float(score(o)), o) for o in outcomes]
    # Equal scores are common (throwing 7h or 6h gives the same badugi odds): the better expected rank
    # of the half the objective is about breaks the tie, then in a split game the other half's (As 2h 3d
    # 4c Kd keeps its wheel badugi whether it throws the Kd or not, but only the throw helps its low),
    # then fewer cards thrown (the sort is stable and the discards come fewest first).
    split = len(sc.halves) == 2
    if objective == "low":
        return sorted(choices, key=lambda ch: (-ch.score, ch.outcomes.expected_low_rank,
                                               ch.outcomes.expected_badugi_rank if split else 0.0))
    if objective == "badugi":
        return sorted(choices, key=lambda ch: (-ch.score, ch.outcomes.expected_badugi_rank,
                                               ch.outcomes.expected_low_rank if split else 0.0))
    return sorted(choices, key=lambda ch: -ch.score)


def _ranges_of(against: RangeLike | Sequence[RangeLike], sc: Scoring) -> list[Range]:
    """``against`` as 1 to 5 :class:`Range` objects of the game's scales, checked before any enumeration."""
    from badacey_fast.draw.ranges import Range

    items = [against] if isinstance(against, (str, Range)) else list(against)
    if not items or len(items) > 5:
        raise BadaceyError(f"against= takes 1 to 5 ranges (one per villain), got {len(items)}")
    ranges = []
    for r in items:
        if isinstance(r, str):
            r = Range(r, sc.game)
        elif not isinstance(r, Range):
            raise TypeError(f"a villain must be range text or a Range, not {type(r).__name__}")
        elif scoring(r.game).ace_high != sc.ace_high:
            raise BadaceyError(f"range {r.text!r} is a {r.game} range, ranked on other scales than {sc.game}")
        if LOW in sc.halves and r.hand_size != 5:
            raise BadaceyError(f"range {r.text!r} holds {r.hand_size}-card hands: no low to compare")
        ranges.append(r)
    return ranges


def _villains(ranges: Sequence[Range] | None, arrays: tuple[NDArray, NDArray],
              out: tuple[int, ...], halves: Sequence[str]) -> list[dict[str, NDArray]]:
    """Each villain's distribution of ranks, per half (probabilities indexed by rank - 1): a random hand
    of the unseen cards (the last row of ``arrays``: all five thrown), or each range with the cards of
    ``out`` (our hand and the dead cards) removed."""
    if ranges is None:
        low, bd = arrays[0][-1], arrays[1][-1]
        got = {BADUGI: bd / bd.sum()}
        if LOW in halves:
            got[LOW] = low / low.sum()
        return [got]
    dists = []
    for r in ranges:
        low_w, bd_w = r.rank_weights(dead=out)
        total = float(bd_w.sum())
        if total <= 0:
            raise BadaceyError(f"range {r.text!r} has no hand left once our hand and the dead cards are removed")
        dist = {BADUGI: bd_w / total}
        if low_w is not None:
            dist[LOW] = low_w / total
        dists.append(dist)
    return dists


def _pot_share(arrays: tuple[NDArray, NDArray], villains: Sequence[dict[str, NDArray]],
               halves: Sequence[str]) -> NDArray:
    """Expected pot share of each row of ``arrays`` (hero's rank counts per half) against independent
    villains standing pat with the given rank distributions: per half, the chance-weighted share of a
    hand of rank r is E[1 / (1 + ties)] over the villains none of whom is better -- the coefficients of
    prod_j (P(V_j worse) + P(V_j tied) x), the k-th divided by k + 1."""
    import numpy as np

    total = arrays[1].sum(axis=1).astype(np.float64)
    score = np.zeros(len(total))
    for half in halves:
        counts = arrays[0] if half == LOW else arrays[1]
        poly = [np.ones(counts.shape[1])]
        for v in villains:
            p = v[half]
            worse = np.maximum(1.0 - np.cumsum(p), 0.0)  # P(V > r): rank r is at index r - 1
            nxt = [np.zeros_like(poly[0]) for _ in range(len(poly) + 1)]
            for k, c in enumerate(poly):
                nxt[k] += c * worse
                nxt[k + 1] += c * p
            poly = nxt
        value = sum(c / (k + 1) for k, c in enumerate(poly))
        score += counts @ value / total
    out: NDArray = score / len(halves)
    return out


def _share_vs_drawing(hand: tuple[int, ...], dead: Cards, rules: Scoring, opponent: Cards | None,
                      opponent_discard: Cards, outcomes: Sequence[DrawOutcomes], samples: int | None,
                      seed: int | None) -> list[DiscardChoice]:

    choices = []
    for o in outcomes:
        eq = equity([hand, opponent], [o.discard, opponent_discard], dead, rules, seed=seed,
                    fallback_samples=DEFAULT_SAMPLES if samples is None else samples)
        choices.append(DiscardChoice(o.discard, eq.shares[0], o, eq.stderr[0]))
    return choices


def _objective(objective: str | Callable[[DrawOutcomes], float], hand: tuple[int, ...], dead: tuple[int, ...],
               sc: Scoring, target: Cards | int | None, opponent: Cards | None) -> Callable[[DrawOutcomes], float]:
    if callable(objective):
        return objective
    if not isinstance(objective, str):
        raise TypeError(f"objective must be a name or a callable, not {type(objective).__name__}")
    family = sc.family
    if objective == "badugi":
        return lambda o: o.p_badugi(715)
    if objective == "low":
        if target is None:
            target = hand
        if isinstance(target, int):
            rank = target
            _check_rank(rank, reference.LOW_CLASS_COUNTS[family], "low")  # (refuses a bool: TypeError)
        else:
            rank = reference.low_rank(parse_cards(target, count=5), sc)
        return lambda o: o.p_low(rank)
    if objective == "share":
        if opponent is None:  # against ranges or a random hand: scored on all 32 at once (_pot_share)
            return lambda o: 0.0
        opp = _opponent_cards(hand, dead, opponent, sc.hand_size)
        lo = reference.low_rank(opp, sc) if LOW in sc.halves else 1  # (a Badugi hand has no low)
        bd = reference.badugi_rank(opp, sc.ace_high)
        return lambda o: o.pat_share(lo, bd, halves=sc.halves)
    raise BadaceyError(f"unknown objective {objective!r}: expected one of {', '.join(OBJECTIVES)} or a callable")


def _opponent_cards(hand: tuple[int, ...], dead: tuple[int, ...], opponent: Cards, size: int = 5) -> tuple[int, ...]:
    """The opponent's ``size`` cards, none of them in our hand or dead (the error says which it is in)."""
    opp = parse_cards(opponent, count=size)
    for c in opp:
        # Named for where it is: the opponent's cards become dead to us only once they are checked.
        if c in hand:
            raise DuplicateCardError(f"card {format_cards([c])!r} is in our hand and in the opponent's hand")
        if c in dead:
            raise DuplicateCardError(f"card {format_cards([c])!r} is in the opponent's hand and dead")
    return opp


def _unseen(hand: Sequence[int], dead: Sequence[int]) -> tuple[int, ...]:
    out = set(hand) | set(dead)
    return tuple(c for c in range(52) if c not in out)


def _check_rank(rank: int, count: int, what: str) -> None:
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise TypeError(f"{what} rank must be an int, not {type(rank).__name__}")
    if not 1 <= rank <= count:
        raise RankError(f"{what} rank {rank} is outside 1..{count}")


@lru_cache(maxsize=None)
def _low_classes(family: str) -> tuple[tuple[str, str], ...]:
    """(category, top card) of every low rank of a scale family (``DrawOutcomes.game``), best first;
    derived from the reference's value classes."""
    rules = SCORINGS[family]
    return tuple(
        (v.category, RANK_CHARS[v.ranks[0]])
        for v in (reference.low_value(r, rules) for r in range(1, reference.LOW_CLASS_COUNTS[family] + 1))
    )


def _enumerate(
    kept: tuple[int, ...], unseen: tuple[int, ...], k: int, ace_high: bool, progress: Progress | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Histograms (low, badugi) over every k-card replacement, by the serving twin; a four-card hand (a
    Badugi hand: ``len(kept) + k == 4``) has no low, and an empty low histogram."""
    if len(kept) + k == 5:
        return kernel.draw_histograms(kept, unseen, k, ace_high, progress)
    # Four cards: at most C(48, 4) = 194,580 hands, badugi-ranked in one bulk call.
    import numpy as np

    n = comb(len(unseen), k)
    hands = np.empty((n, len(kept) + k), np.uint8)
    hands[:, : len(kept)] = kept
    if k:
        hands[:, len(kept) :] = np.fromiter(chain.from_iterable(combinations(unseen, k)), np.uint8,
                                            count=n * k).reshape(n, k)
    ranks = np.empty(n, np.uint16)
    bad = kernel.badugi_rank_many(hands, ace_high, True, ranks)
    if bad != -1:  # the cards were checked before: only a damaged table gets here
        raise RuntimeError(f"badugi_rank_many rejected row {bad}: {hands[bad].tolist()!r}")
    counts = np.bincount(ranks, minlength=_BADUGI_CLASSES + 1)[1:]
    if progress is not None:
        progress(n, n)
    return (), tuple(counts.tolist())
