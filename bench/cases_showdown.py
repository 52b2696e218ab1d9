"""Bulk showdowns and deal files, side by side (``python bench/side_by_side.py``): groups
``showdown-vs-hands`` and ``showdown-vs-hands-new`` (issue 13's ratio: a 6-seat showdown row against
evaluating its six hands), ``showdown-many``, ``showdown-many-chips``, ``score-file``.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from badacey_fast import kernel
from badacey_fast.bulk.evaluate import evaluate_many
from badacey_fast.bulk.showdown import showdown_many
from badacey_fast.files.score import generate_deals, score_file
from side_by_side import Case, InterleavedCase, Setup, Timed, path_name

__all__ = ["bench_cases"]


def bench_cases(quick: bool) -> list[Case]:
    """Side-by-side cases: bulk showdowns (shares, chips) and scoring a deal file.

    Each group times the active twin on a big batch, then the numpy/Python reference on a small one
    (items/s are comparable, times are not).  ``quick`` shrinks the inputs for CI.  Inputs are prepared
    in the (untimed) setup.  Groups: ``showdown-vs-hands`` and ``showdown-vs-hands-new`` (a 6-seat row
    against evaluating its six hands on the active code path, interleaved; into preallocated outputs, then
    into new arrays; C only), ``showdown-many``, ``showdown-many-chips``, ``score-file``.

    >>> cases = bench_cases(quick=True)
    >>> sorted({c.group for c in cases if not c.group.startswith("showdown-vs")})
    ['score-file', 'showdown-many', 'showdown-many-chips']
    >>> [c for c in cases if c.group == "showdown-many"][0].setup()().shape
    (20000, 6)
    """
    big = 20_000 if quick else 1_000_000
    small = 200 if quick else 2_000

    def hands(n: int) -> np.ndarray[Any, Any]:
        rng = np.random.default_rng(2026)
        deck = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52)), axis=1)
        return np.ascontiguousarray(deck[:, :30].reshape(n, 6, 5))

    def reference(fn: Timed) -> Timed:
        def timed() -> object:
            with kernel.using("python"):
                return fn()

        return timed

    def shares(n: int, ref: bool = False) -> Setup:
        def setup() -> Timed:
            h = hands(n)
            call = lambda: showdown_many(h)  # noqa: E731
            return reference(call) if ref else call

        return setup

    def shares_out(n: int) -> Setup:
        def setup() -> Timed:
            h, out = hands(n), np.empty((n, 6))
            return lambda: showdown_many(h, out=out)

        return setup

    def chips(n: int, ref: bool = False) -> Setup:
        def setup() -> Timed:
            h, pots = hands(n), np.full(n, 1001, dtype=np.int64)
            call = lambda: showdown_many(h, pot=pots, button=3)  # noqa: E731
            return reference(call) if ref else call

        return setup

    def score(n: int, ref: bool = False) -> Setup:
        def setup() -> Timed:
            buf = io.BytesIO()
            generate_deals(n, buf, seats=6, seed=2026)
            data = buf.getvalue()
            call = lambda: score_file(io.BytesIO(data), io.BytesIO())  # noqa: E731
            return reference(call) if ref else call

        return setup

    def six_hands(n: int, into: bool) -> Setup:
        """evaluate_many on the 6 n hands of n showdown rows (the yardstick of issue 13's ``<= 2x``)."""

        def setup() -> Timed:
            flat = hands(n).reshape(-1, 5)
            if not into:
                return lambda: evaluate_many(flat)
            low, badugi = np.empty(6 * n, np.uint16), np.empty(6 * n, np.uint16)
            return lambda: evaluate_many(flat, out=(low, badugi))

        return setup

    def showdown(n: int, into: bool, chips: bool) -> Setup:
        def setup() -> Timed:
            h = hands(n)
            pot: dict[str, Any] = {"pot": np.full(n, 1001, dtype=np.int64), "button": 3} if chips else {}
            if not into:
                return lambda: showdown_many(h, **pot)
            out = np.empty((n, 6), np.int64 if chips else np.float64)
            return lambda: showdown_many(h, out=out, **pot)

        return setup

    active = kernel.name
    path = path_name()
    # Issue 13's ratio, timed interleaved so machine noise hits both sides: a 6-seat showdown row against
    # evaluating its six hands (target: ratio >= 0.5x, i.e. at most 2x the time), on the path
    # BADACEY_FAST_ISA selects; once with preallocated outputs, once allocating them as a plain call does.
    ratio_cases: list[Case] = []
    if kernel.simd_level() >= 0:
        for into, group in ((True, "showdown-vs-hands"), (False, "showdown-vs-hands-new")):
            where = "into out=" if into else "new arrays"
            ratio_cases += [
                InterleavedCase(group, f"evaluate_many of each row's 6 hands, {where} ({path})",
                                six_hands(big, into), big, interleave=group),
                InterleavedCase(group, f"showdown_many 6 seats, shares, {where} ({path})",
                                showdown(big, into, False), big, interleave=group),
                InterleavedCase(group, f"showdown_many 6 seats, chips, {where} ({path})",
                                showdown(big, into, True), big, interleave=group),
            ]
    return ratio_cases + [
        Case("showdown-many", f"showdown_many 6 seats, shares ({active})", shares(big), big),
        Case("showdown-many", f"showdown_many 6 seats, shares into out= ({active})", shares_out(big), big),
        Case("showdown-many", "showdown_many 6 seats, shares (python reference)", shares(small, True), small),
        Case("showdown-many-chips", f"showdown_many 6 seats, chips ({active})", chips(big), big),
        Case("showdown-many-chips", "showdown_many 6 seats, chips (python reference)", chips(small, True), small),
        Case("score-file", f"score_file 6-seat text deals in memory ({active})", score(big), big),
        Case("score-file", "score_file 6-seat text deals (python reference)", score(small, True), small),
    ]
