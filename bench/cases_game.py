"""The rules engine against pokerkit, side by side (``python bench/side_by_side.py``): group
``game-random-hands``."""

from __future__ import annotations

from side_by_side import Case, Timed
from workloads import badacey_hands, pokerkit_available, pokerkit_hands

__all__ = ["bench_cases"]


def bench_cases(quick: bool) -> list[Case]:
    """Side-by-side cases (``Case`` of ``side_by_side``: group, name, a setup that returns the zero-argument callable to time, items per call).

    One group, ``game-random-hands``: complete random 6-max Badacey hands through the Python API (random
    bots, showdowns included) and, with pokerkit installed, pokerkit playing the same kind of random
    hands of 2-7 triple draw, side by side; items are hands.

    >>> [case[1] for case in bench_cases(quick=True)][0]
    'badacey_fast: 200 random 6-max Badacey hands'
    """
    k = 200 if quick else 2000
    kp = 5 if quick else 30

    def ours() -> Timed:
        badacey_hands(10)  # warm the caches outside the timing
        return lambda: badacey_hands(k)

    def theirs() -> Timed:
        return lambda: pokerkit_hands(kp)

    cases = [Case("game-random-hands", f"badacey_fast: {k} random 6-max Badacey hands", ours, k)]
    if pokerkit_available():
        cases.append(Case("game-random-hands", f"pokerkit: {kp} random 6-max 2-7 triple draw hands", theirs, kp))
    return cases
