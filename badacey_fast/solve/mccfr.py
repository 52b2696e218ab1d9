"""External-sampling MCCFR (Lanctot et al. 2009) for full-size heads-up draw games, in C over the hand loop
(csrc/lbr.c), with a documented abstraction; its average strategy plays as a bot
(:class:`~badacey_fast.solve.bot.StrategyBot`) and is measured by local best response
(:func:`~badacey_fast.solve.lbr.lbr`).

**Abstraction** (imperfect recall: an information state forgets the cards its seat held before):

- cards: the suit-isomorphism class of the hand held now (:mod:`badacey_fast.solve.iso`: 16,432 classes of
  four cards, 134,459 of five) -- lossless about the current hand; optionally coarsened to ``buckets``
  equity buckets: the hand's showdown equity against a random hand (its pot share: win 1, tie 1/2, per
  half), cut into ``buckets`` equal ranges;
- public: the betting round, the pot (the bets of the rounds before it), each seat's draw count at the
  last draw, and the current round's actions in order;
- draws: three -- stand pat, the rule of thumb's discard (draw/policy.py keep_cards), one card more (the
  highest kept card) -- where the real game has one per subset of the hand.

Suit classes alone (``buckets=None``) forget nothing of the current hand, but multiply the information
states by 16,432 (Badugi) or 134,459: the default cuts them into 64 equity buckets.

Each iteration deals a fresh hand for each seat in turn and traverses it: every action of the traversing
seat, one sampled action of the other, chance sampled by the hand loop.  Linear weighting: iteration t
weighs t in the regrets and the averages.

>>> s = mccfr("badugi", iterations=200, seed=1)
>>> s.iterations, s.information_states > 100
(200, True)
"""

from __future__ import annotations


import os
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from badacey_fast import kernel
from badacey_fast.errors import SolveError
from badacey_fast.rules.games import PRESETS, scoring
from badacey_fast.solve.spec import play_rules
from badacey_fast.solve.strategy import load_arrays, save_arrays

__all__ = ["MCCFRStrategy", "mccfr", "equity_buckets", "FORMAT"]

FORMAT = "badacey_fast.solve.mccfr/1"


def _hand_size(game: str) -> int:
    return scoring(game).hand_size


def equity_buckets(game: str, buckets: int, hand_size: int | None = None) -> np.ndarray[Any, Any]:
    """The bucket (0 .. buckets-1) of every suit-isomorphism class of the game's hands: its showdown equity
    against a uniformly random hand of the rest of the deck -- approximated over all hands of the deck,
    per half 1 for a win, 1/2 for a tie -- cut into ``buckets`` equal ranges.

    >>> b = equity_buckets("badugi", 10)
    >>> b.size, int(b.min()), int(b.max())
    (16432, 0, 9)
    """
    from badacey_fast.bulk import badugi_rank_many, evaluate_many
    from badacey_fast.solve.iso import class_table, colex_rows

    if type(buckets) is not int or buckets < 1:
        raise SolveError(f"buckets must be a positive int, got {buckets!r}")
    size = _hand_size(game) if hand_size is None else hand_size
    rules = scoring(game)
    _, first = class_table(size)
    hands = colex_rows(52, size)
    reps = hands[first.astype(np.int64)].astype(np.uint8)
    every = hands.astype(np.uint8)
    equity = np.zeros(first.size)
    for half in rules.halves:
        if half == "low":
            ranks = evaluate_many(every, "badeucy" if rules.ace_high else "badacey", check=False)[0]
            mine = evaluate_many(reps, "badeucy" if rules.ace_high else "badacey", check=False)[0]
        else:
            ranks = badugi_rank_many(every, rules.ace_high, check=False)
            mine = badugi_rank_many(reps, rules.ace_high, check=False)
        counts = np.bincount(ranks.astype(np.int64), minlength=int(ranks.max()) + 2).astype(np.float64)
        worse = counts[::-1].cumsum()[::-1]  # worse[r]: hands of rank >= r
        m = mine.astype(np.int64)
        equity += ((worse[m] - counts[m]) + 0.5 * counts[m]) / ranks.size
    equity /= len(rules.halves)
    return np.minimum((equity * buckets).astype(np.int64), buckets - 1).astype(np.uint32)


@dataclass
class MCCFRStrategy:
    """The average strategy of an MCCFR run: its store (keys, offsets, action counts, averages), the game
    and the abstraction (``buckets``: None for suit classes alone)."""

    game: str
    buckets: int | None
    iterations: int
    seconds: float
    arrays: dict[str, np.ndarray[Any, Any]]
    size: tuple[int, int, int, int] = (13, 4, 5, 3)  #: (ranks, suits, hand size, draws)

    @property
    def information_states(self) -> int:
        """Information states the run visited."""
        return int(self.arrays["used"][0])

    def core(self) -> tuple[Any, Any]:
        """The C store and abstraction of this strategy (the C kernel's objects)."""
        from badacey_fast.solve.iso import class_table

        _c = kernel.play()
        if _c is None:
            raise SolveError("an MCCFR strategy's table is read by the C hand loop (BADACEY_FAST_BACKEND=c)")
        a = self.arrays
        store = _c.MCStore(a["keys"].size, a["regret"].size)
        for name in ("keys", "offset", "n_actions", "regret", "average"):
            getattr(store, name)[:] = a[name]
        store.restore(int(a["used"][0]), int(a["used"][1]))
        class_of, _ = class_table(self.size[2])
        bucket_of = None if self.buckets is None else equity_buckets(self.game, self.buckets, self.size[2])
        return store, _c.Abstraction(np.ascontiguousarray(class_of), bucket_of)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the strategy (``.npz``, atomically: a temporary renamed when whole)."""
        meta = {"format": FORMAT, "game": self.game, "buckets": self.buckets, "iterations": self.iterations,
                "seconds": self.seconds, "size": list(self.size)}
        save_arrays(path, self.arrays, meta)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "MCCFRStrategy":
        """Read a strategy written by :meth:`save`."""
        arrays, meta = load_arrays(path)
        if meta.get("format") != FORMAT:
            raise SolveError(f"{path} is not an MCCFR strategy ({FORMAT})")
        return cls(meta["game"], meta["buckets"], int(meta["iterations"]), float(meta["seconds"]), arrays,
                   tuple(meta["size"]))

    def __str__(self) -> str:
        abstraction = "suit classes" if self.buckets is None else f"{self.buckets} equity buckets"
        return (f"MCCFR on heads-up {self.game} ({abstraction}): {self.iterations} iterations in {self.seconds:.1f} s, "
                f"{self.information_states:,} information states")


def mccfr(game: object = "badugi", iterations: int | None = None, time_limit: float | None = None, *,
          buckets: int | None = 64, seed: int = 0, resume: MCCFRStrategy | None = None,
          checkpoint: str | os.PathLike[str] | None = None, progress: bool | None = None,
          small_bet: int = 2, big_bet: int = 4, small_blind: int = 1, big_blind: int = 2, cap: int = 4) -> MCCFRStrategy:
    """External-sampling MCCFR on heads-up ``game`` (a preset name: the full game with the given limits; a
    GameConfig or GameSpec, small games too; stacks deep) until ``iterations`` or
    ``time_limit`` seconds (at least one).  ``buckets``: the number of equity buckets (None: suit classes).
    ``resume``: a strategy to continue; ``checkpoint``: a file written (whole) after each chunk.

    >>> mccfr("badugi")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.SolveError: give iterations or time_limit: a run needs a stop
    """
    name, blinds, bets, cap, size = play_rules(game, small_blind, big_blind, small_bet, big_bet, cap)
    if iterations is None and time_limit is None:
        raise SolveError("give iterations or time_limit: a run needs a stop")
    if iterations is not None and (type(iterations) is not int or iterations < 1):
        raise SolveError(f"iterations must be a positive int, got {iterations!r}")
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise SolveError(f"time_limit must be a positive number, got {time_limit!r}")
    _c = kernel.play()
    if _c is None:
        raise SolveError("MCCFR runs on the C hand loop (BADACEY_FAST_BACKEND=c); small games are solved "
                         "exactly by badacey_fast.solve.cfr on either twin")
    from badacey_fast.solve.iso import class_table

    if resume is not None:
        if resume.game != name or resume.buckets != buckets or tuple(resume.size) != size:
            raise SolveError(f"the strategy to resume is of {resume.game} {resume.size} with buckets={resume.buckets}")
        store, abstraction = resume.core()
        done, seconds = resume.iterations, resume.seconds
    else:
        store = _c.MCStore(1 << 16, 1 << 19)
        class_of, _ = class_table(size[2])
        abstraction = _c.Abstraction(np.ascontiguousarray(class_of),
                                     None if buckets is None else equity_buckets(name, buckets, size[2]))
        done, seconds = 0, 0.0
    target = None if iterations is None else done + iterations
    ace_high = scoring(name).ace_high
    stack = 1000 * max(blinds[1], bets[1])
    from tqdm import tqdm

    bar = tqdm(total=iterations, unit="it", disable=None if progress is None else not progress, desc=f"mccfr {name}")
    start = time.perf_counter()
    chunk = 64
    try:
        while (target is None or done < target) and (time_limit is None or time.perf_counter() - start < time_limit):
            n = chunk if target is None else min(chunk, target - done)
            t0 = time.perf_counter()
            while _c.mccfr_run(PRESETS.index(name), blinds, bets, cap, stack, False, ace_high, store, abstraction,
                               done + 1, n, seed * 1_000_003 + done, size) < 0:
                store = store.grown()  # the store filled mid-chunk: grow it and play the chunk again
            spent = time.perf_counter() - t0
            done += n
            bar.update(n)
            if spent < 0.5:
                chunk = min(chunk * 2, 1 << 16)
            if checkpoint is not None:
                _strategy(name, buckets, done, seconds + time.perf_counter() - start, store, size).save(checkpoint)
    finally:
        bar.close()
    return _strategy(name, buckets, done, seconds + time.perf_counter() - start, store, size)


def _strategy(name: str, buckets: int | None, done: int, seconds: float, store: Any,
              size: tuple[int, int, int, int]) -> MCCFRStrategy:
    arrays = {k: getattr(store, k).copy() for k in ("keys", "offset", "n_actions", "regret", "average")}
    arrays["used"] = np.array([store.used, store.pool_used], np.int64)
    return MCCFRStrategy(name, buckets, done, seconds, arrays, size)



