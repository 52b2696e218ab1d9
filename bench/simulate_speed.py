"""simulate() hands per second, the C hand loop against the Python path, side by side.

Targets (issue 24, one core): >= 200,000 6-max hands a second for random bots and >= 100,000 for the
rule-of-thumb bot on the C loop.  Each round plays every case once, alternating (C random, Python random,
C rule, Python rule, ...), so a change of machine load touches all alike; the figure is hands per CPU
second of this process (``time.process_time``: on a shared machine wall time measures the neighbours),
min-max over the rounds.  The machine's load average is printed with the figures.

Run::

    python bench/simulate_speed.py [--rounds 5] [--seats 6] [--hands-c 200000] [--hands-py 2000]
"""

from __future__ import annotations

import argparse
import os
import time

from badacey_fast.game import simulate
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.kernel import backend


def rate(bot: type, seats: int, hands: int, engine: str, seed: int) -> float:
    bots = [bot() for _ in range(seats)]
    start = time.process_time()
    simulate(bots, hands=hands, seed=seed, engine=engine)
    return hands / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seats", type=int, default=6)
    ap.add_argument("--hands-c", type=int, default=200_000)
    ap.add_argument("--hands-py", type=int, default=2_000)
    args = ap.parse_args()
    cases = [(bot, engine) for bot in (RandomBot, RuleBot) for engine in ("c", "python")]
    got: dict[tuple[type, str], list[float]] = {case: [] for case in cases}
    with backend.using("c"):  # the Python path's showdowns are evaluated by the C twin too
        rate(RuleBot, args.seats, 1000, "c", 0)  # warm up: tables, imports
        for r in range(args.rounds):
            for bot, engine in cases:
                hands = args.hands_c if engine == "c" else args.hands_py
                got[bot, engine].append(rate(bot, args.seats, hands, engine, r))
    print(f"simulate(), {args.seats} seats, hands per CPU second, min-max over {args.rounds} rounds "
          f"(load average {os.getloadavg()[0]:.1f}):")
    for bot, engine in cases:
        xs = got[bot, engine]
        print(f"  {bot.name:<7}{engine:<8}{min(xs):>12,.0f} - {max(xs):>12,.0f}")
    for bot in (RandomBot, RuleBot):
        print(f"  {bot.name}: C / Python = {min(got[bot, 'c']) / max(got[bot, 'python']):.0f}x or more")


if __name__ == "__main__":
    main()
