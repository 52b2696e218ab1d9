"""Local best response throughput: evaluated hands per minute on one core, full-size heads-up games, with
the lower bound and its standard error (issue 26's target: >= 10,000 hands a minute on Badugi).

    python bench/solve_lbr.py --game badugi --bot rule --hands 20000 --rounds 3

Each round is one run of ``hands`` hands (fresh seed); the figure is min-max over the rounds, with the
machine's load (shared: compare within one run).  The C hand loop, so the C twin.
"""

from __future__ import annotations

import argparse
import os

from badacey_fast import solve


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="badugi")
    p.add_argument("--bot", default="rule")
    p.add_argument("--hands", type=int, default=20_000)
    p.add_argument("--particles", type=int, default=512)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    rates = []
    for r in range(args.rounds):
        result = solve.lbr(args.game, args.bot, hands=args.hands, particles=args.particles, seed=r)
        rates.append(result.hands_per_minute)
        print(result)
    print(f"hands per minute (one core): {min(rates):,.0f}-{max(rates):,.0f}")


if __name__ == "__main__":
    main()
