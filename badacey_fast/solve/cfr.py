"""Counterfactual regret minimisation of small heads-up draw games, over the whole game at each iteration
(the C core of :mod:`badacey_fast.solve.exact`, or its numpy twin): CFR+ (Tammelin 2014: regret matching
plus, linear averaging, alternating updates; the default), discounted CFR (Brown & Sandholm 2019,
alpha 1.5, beta 0, gamma 2) and vanilla CFR.  The **average strategy** converges to a Nash equilibrium;
its exact exploitability is measured along the way (the curve) and at the end.

Runs stop at ``iterations``, at ``target_mbb`` (checked at each point of the curve) or after
``time_limit`` seconds, whichever comes first; a ``checkpoint`` file keeps the regrets and averages
(written whole at each point of the curve, so a killed run resumes from it with ``resume``).

>>> from badacey_fast.solve.spec import GameSpec
>>> r = cfr(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1), iterations=200)
>>> r.iterations, r.exploitability_mbb < 5, r.curve[0].mbb > r.curve[-1].mbb
(200, True, True)
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

import numpy as np

from badacey_fast.errors import SolveError
from badacey_fast.solve.exact import CFR, CFR_PLUS, DCFR, Exact
from badacey_fast.solve.compact import Compact, CompactStrategy, compact_of
from badacey_fast.solve.exploit import exact_of, too_large_for_layers
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.strategy import Strategy, load_arrays, save_arrays

__all__ = ["cfr", "CFRResult", "CurvePoint", "METHODS", "average_strategy"]

#: The exact methods by name.
METHODS = {"cfr+": CFR_PLUS, "dcfr": DCFR, "cfr": CFR}
CHECKPOINT = "badacey_fast.solve.cfr-checkpoint/1"


class CurvePoint(NamedTuple):
    """The exploitability (mbb/hand) of the average strategy after ``iteration`` iterations, ``seconds``
    of solving (measuring excluded) into the run."""

    iteration: int
    seconds: float
    mbb: float


@dataclass
class CFRResult:
    """A finished run: the average ``strategy`` (a :class:`~badacey_fast.solve.compact.CompactStrategy` when
    solved on the compact layout), its ``exploitability_mbb`` (exact), the ``iterations``
    done, the solving ``seconds`` (measurements excluded), the ``curve`` and why it stopped."""

    game: GameSpec
    method: str
    strategy: Strategy | CompactStrategy
    iterations: int
    seconds: float
    exploitability_mbb: float
    curve: list[CurvePoint] = field(default_factory=list)
    stopped: str = "iterations"

    def __str__(self) -> str:
        return (f"{self.method} on {self.game.label()}: {self.iterations} iterations in {self.seconds:.2f} s, "
                f"exploitability {self.exploitability_mbb:.4f} mbb/hand (stopped: {self.stopped})")

    def curve_table(self) -> str:
        """The curve as text: one line per point."""
        lines = [f"{'iteration':>10} {'seconds':>10} {'mbb/hand':>14}"]
        lines += [f"{p.iteration:>10} {p.seconds:>10.2f} {p.mbb:>14.4f}" for p in self.curve]
        return "\n".join(lines)

    def plot(self, path: str | os.PathLike[str]) -> None:
        """The curve (log-log) as an image (PNG, SVG... by the suffix): needs the ``[plot]`` extra."""
        from badacey_fast.solve.plot import plot_curve

        plot_curve([(p.iteration, p.mbb) for p in self.curve], f"{self.method} on {self.game.label()}", path)


def average_strategy(exact: Exact, average: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The average strategy of accumulated ``average`` rows: each row normalised (uniform where a state
    was never reached)."""
    out = np.empty_like(average)
    tree = exact.tree
    for i, nd in enumerate(tree.nodes):
        if nd.kind not in ("bet", "draw"):
            continue
        a = exact.rows(average, i)
        s = a.sum(axis=1, keepdims=True)
        exact.rows(out, i)[:] = np.where(s > 0, a / np.where(s > 0, s, 1.0), 1.0 / a.shape[1])
    return out


def _schedule(done: int, every: int | None) -> int:
    """The next iteration count at which to measure: every ``every``, else about 12 points per factor of
    ten (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20 ...)."""
    if every:
        return (done // every + 1) * every
    nxt = max(done + 1, int(math.floor(done * 1.2)) + 1) if done else 1
    return nxt


def cfr(game: object, iterations: int | None = None, target_mbb: float | None = None, time_limit: float | None = None,
        *, method: str = "cfr+", every: int | None = None, checkpoint: str | os.PathLike[str] | None = None,
        resume: str | os.PathLike[str] | None = None, progress: bool | None = None,
        compact: bool | None = None) -> CFRResult:
    """Solve ``game`` (a GameConfig, one of our OpenSpiel games, a GameSpec or a preset name; small
    enough for the exact path) with ``method`` (``"cfr+"``, ``"dcfr"``, ``"cfr"``) until ``iterations``
    (>= 1), ``target_mbb`` (> 0, exploitability in milli-big-bets per hand) or ``time_limit`` (seconds)
    -- at least one of them.  ``every``: measure the exploitability every so many iterations (default:
    about 12 points per factor of ten).  ``checkpoint``: a file written whole at each measurement;
    ``resume``: a checkpoint to continue from (its method and game must match).  ``progress``: a tqdm
    bar on stderr (None: only on a terminal).  ``compact``: solve over the compact layout
    (:mod:`badacey_fast.solve.compact`: states merged by hand, dead cards and suits; C twin only; the
    result's strategy a :class:`~badacey_fast.solve.compact.CompactStrategy`) -- None: when the full
    layers are too large (mini Badugi), False: never, True: always.

    >>> cfr("badugi")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.SolveError: give iterations, target_mbb or time_limit: a run needs a stop
    """
    if method not in METHODS:
        raise SolveError(f"unknown method {method!r}: expected one of {', '.join(METHODS)} (solve.mccfr for "
                         "sampling)")
    if iterations is None and target_mbb is None and time_limit is None:
        raise SolveError("give iterations, target_mbb or time_limit: a run needs a stop")
    for name, v in (("iterations", iterations), ("every", every)):
        if v is not None and (type(v) is not int or v < 1):
            raise SolveError(f"{name} must be a positive int, got {v!r}")
    for name, x in (("target_mbb", target_mbb), ("time_limit", time_limit)):
        if x is not None and not (isinstance(x, (int, float)) and x > 0 and math.isfinite(x)):
            raise SolveError(f"{name} must be a positive number, got {x!r}")
    if compact not in (None, True, False):
        raise TypeError(f"compact must be None, True or False, not {compact!r}")
    spec = GameSpec.of(game)
    on_compact = too_large_for_layers(spec) if compact is None else compact
    solver: Exact | Compact = compact_of(spec) if on_compact else exact_of(spec)
    size = solver.strategy_size if isinstance(solver, Compact) else solver.tree.strategy_size
    regret, average = np.zeros(size), np.zeros(size)
    done, elapsed = 0, 0.0
    curve: list[CurvePoint] = []
    if resume is not None:
        done, elapsed, curve = _load(resume, spec, method, regret, average, on_compact)
    variant = METHODS[method]

    def strategy() -> Strategy | CompactStrategy:
        if isinstance(solver, Compact):
            return CompactStrategy(spec, solver.normalise(average))
        return Strategy(spec, average_strategy(solver, average))

    def measure() -> float:
        strat = strategy()
        if isinstance(strat, CompactStrategy):  # the two best responses (not the profile's value: a third pass)
            br = strat.compact.value(strat.probs, 0) + strat.compact.value(strat.probs, 1)
        else:
            exact = exact_of(spec)
            br = exact.best_response(strat.probs, 0) + exact.best_response(strat.probs, 1)
        return br / 2 * 1000.0 / spec.big_bet

    from tqdm import tqdm

    bar = tqdm(total=iterations, initial=done, unit="it", disable=None if progress is None else not progress,
               desc=f"{method} {spec.label()}")
    stopped = "iterations"
    try:
        while True:
            if iterations is not None and done >= iterations:
                stopped = "iterations"
                break
            if time_limit is not None and elapsed >= time_limit:
                stopped = "time_limit"
                break
            goal = _schedule(done, every)
            if iterations is not None:
                goal = min(goal, iterations)
            # Iterate towards the next measurement, in chunks so that a time limit is honoured.
            while done < goal:
                # On the compact layout an iteration takes seconds: one per call, so that Ctrl-C and a time
                # limit are heard between iterations (a signal waits for the C call to return).
                chunk = 1 if on_compact else goal - done
                if time_limit is not None and done > 0:
                    per = elapsed / done
                    chunk = max(1, min(chunk, int((time_limit - elapsed) / per) if per > 0 else chunk))
                t0 = time.perf_counter()
                solver.cfr(regret, average, done + 1, chunk, variant)
                elapsed += time.perf_counter() - t0
                done += chunk
                bar.update(chunk)
                if time_limit is not None and elapsed >= time_limit:
                    break
            mbb = measure()
            curve.append(CurvePoint(done, elapsed, mbb))
            bar.set_postfix(mbb=f"{mbb:.3g}")
            if checkpoint is not None:
                _save(checkpoint, spec, method, regret, average, done, elapsed, curve, on_compact)
            if target_mbb is not None and mbb <= target_mbb:
                stopped = "target_mbb"
                break
    finally:
        bar.close()
    if not curve or curve[-1].iteration != done:
        curve.append(CurvePoint(done, elapsed, measure()))
    del regret  # the average strategy is made from the averages alone: a mini game's regrets are 0.9 GB
    return CFRResult(spec, method, strategy(), done, elapsed, curve[-1].mbb, curve, stopped)


def _save(path: str | os.PathLike[str], spec: GameSpec, method: str, regret: np.ndarray[Any, Any],
          average: np.ndarray[Any, Any], done: int, elapsed: float, curve: list[CurvePoint], on_compact: bool) -> None:
    meta = {"format": CHECKPOINT, "game": asdict(spec), "method": method, "iterations": done, "seconds": elapsed,
            "curve": [list(p) for p in curve], "layout": "compact" if on_compact else "full"}
    save_arrays(path, {"regret": regret, "average": average}, meta)


def _load(path: str | os.PathLike[str], spec: GameSpec, method: str, regret: np.ndarray[Any, Any],
          average: np.ndarray[Any, Any], on_compact: bool) -> tuple[int, float, list[CurvePoint]]:
    arrays, meta = load_arrays(path)
    if meta.get("format") != CHECKPOINT:
        raise SolveError(f"{path} is not a CFR checkpoint")
    saved = GameSpec.of(None, **meta["game"])
    if saved != spec:
        raise SolveError(f"{path} is a checkpoint of {saved.label()}, not {spec.label()}")
    if meta["method"] != method:
        raise SolveError(f"{path} is a checkpoint of {meta['method']}, not {method}")
    layout, want = meta.get("layout", "full"), "compact" if on_compact else "full"
    if layout != want:
        raise SolveError(f"{path} is a checkpoint of the {layout} layout, this run solves on the {want} one "
                         f"(compact={on_compact})")
    for name, arr in (("regret", regret), ("average", average)):
        got = arrays.get(name)
        if got is None or got.shape != arr.shape:
            raise SolveError(f"{path}: its {name} does not fit {spec.label()}")
        arr[:] = got
    return int(meta["iterations"]), float(meta["seconds"]), [CurvePoint(*p) for p in meta["curve"]]
