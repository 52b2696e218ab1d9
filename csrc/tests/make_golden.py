"""Write csrc/tests/golden.txt: hands and showdowns with their results from the Python reference.

Run once (and again only if the rules change: tests/test_c_golden.py fails when the file and the
reference disagree)::

    python csrc/tests/make_golden.py > csrc/tests/golden.txt

Lines (cards are ids 0..51 = 4 * rank + suit; game 0 = Badacey, 1 = Badeucy):

    h GAME c0 c1 c2 c3 c4 LOW BADUGI        five cards: low and badugi rank (lower is better)
    b GAME K c0 .. c(K-1) BADUGI              badugi rank of K = 1..4 cards
    s GAME SEATS POT BUTTON ODD LIVE CARDS.. CHIPS..
                                              a showdown row: ODD 0 = odd chip by position, 1 = to the low
                                              half; LIVE one 0/1 digit per seat; SEATS * 5 cards; the
                                              chips paid to each seat

The test data is the reference's answers, not generated tables: csrc/tests/golden_test.c checks a build's
tables and kernel against it with no Python present.
"""

from __future__ import annotations

import os
import random
import sys

GAMES = ("badacey", "badeucy")


def lines(seed: int = 2024) -> list[str]:
    """The golden file's lines, every answer from the reference twin (numpy only for the showdowns)."""
    from badacey_fast.kernel import backend

    with backend.using("python"):
        return _lines(seed)


def _lines(seed: int) -> list[str]:
    import numpy as np

    from badacey_fast import bulk
    from badacey_fast.rules import reference

    rng = random.Random(seed)
    out = [f"# written by csrc/tests/make_golden.py (seed {seed}) from the Python reference; do not edit"]
    for g, game in enumerate(GAMES):
        hands = [tuple(rng.sample(range(52), 5)) for _ in range(500)]
        # Extremes: every rank's four cards, wheels, the best and worst of each scale.
        hands += [(0, 4, 8, 12, 16), (1, 5, 9, 13, 17), (0, 1, 2, 3, 4), (48, 49, 50, 51, 47),
                  (20, 16, 12, 8, 4), (51, 47, 43, 39, 35), (3, 6, 9, 12, 19), (7, 8, 13, 18, 51)]
        for h in hands:
            low = reference.low_rank(h, game)
            bad = reference.badugi_rank(h, g == 1)
            out.append(f"h {g} {' '.join(map(str, h))} {low} {bad}")
        for k in (1, 2, 3, 4):
            for _ in range(40):
                cards = tuple(rng.sample(range(52), k))
                out.append(f"b {g} {k} {' '.join(map(str, cards))} {reference.badugi_rank(cards, g == 1)}")
        for seats in (2, 6):
            rows, lives, pots, buttons = [], [], [], []
            for r in range(48):
                deck = list(range(52))
                rng.shuffle(deck)
                if r % 2:  # seats 0 and 1 hold the same ranks in other suits: tied halves
                    ranks = rng.sample(range(13), 5)
                    pair = [rng.sample(range(4), 2) for _ in ranks]
                    first = [4 * rk + s[0] for rk, s in zip(ranks, pair)]
                    second = [4 * rk + s[1] for rk, s in zip(ranks, pair)]
                    rest = [c for c in deck if c not in first and c not in second]
                    deck = first + second + rest
                rows.append([deck[5 * s:5 * s + 5] for s in range(seats)])
                live = [1] * seats
                if r % 3 == 2:  # fold some seats (not all)
                    for s in rng.sample(range(seats), rng.randint(1, seats - 1)):
                        live[s] = 0
                lives.append(live)
                pots.append(rng.choice([0, 1, 2, 3, 7, 100, 101, 1001, 2**40 + 5]))
                buttons.append(rng.randrange(seats))
            for odd in (0, 1):
                chips = bulk.showdown_many(np.array(rows), np.array(lives, dtype=bool), game,
                                           pot=np.array(pots), button=np.array(buttons),
                                           odd_chip="low" if odd else "position")
                for row, live, pot, button, paid in zip(rows, lives, pots, buttons, chips.tolist()):
                    cards = " ".join(str(c) for hand in row for c in hand)
                    out.append(f"s {g} {seats} {pot} {button} {odd} {''.join(map(str, live))} {cards} "
                               f"{' '.join(map(str, paid))}")
    return out


if __name__ == "__main__":
    os.environ["BADACEY_FAST_BACKEND"] = "python"  # no kernel needed (nor wanted) to write the answers
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    sys.stdout.write("\n".join(lines()) + "\n")
