"""The compact exact path against the full layers, side by side in one run (process time, min-max over
alternated rounds), and the compact path alone on mini Badugi, which the full layers refuse.

    python bench/solve_compact.py --rounds 3
    python bench/solve_compact.py --rounds 1 --cfr 3   # and the bots' exploitability, CFR+ iterations

Each round times both seats' best responses to the uniform strategy (the exploitability: what
``solve.exploitability`` adds, the profile's value, is one more pass of the same cost), the tables
built before the clock starts (``compact_of``/``exact_of`` keep them).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from badacey_fast import kernel, solve
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.solve.exact import CFR_PLUS
from badacey_fast.game.small import SMALL_GAMES
from badacey_fast.solve.compact import compact_of
from badacey_fast.solve.exploit import exact_of

GAMES = {
    "tiny-badugi": solve.GameSpec.of(SMALL_GAMES["tiny-badugi"]),
    "badugi R4 S4 H2 D1 cap2": solve.GameSpec.of("badugi", ranks=4, suits=4, hand_size=2, draws=1, cap=2),
    "badugi R5 S4 H2 D1 cap2": solve.GameSpec.of("badugi", ranks=5, suits=4, hand_size=2, draws=1, cap=2),
}


def clock(f) -> float:
    start = time.process_time()
    f()
    return time.process_time() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--no-mini", action="store_true", help="leave mini Badugi out")
    p.add_argument("--cfr", type=int, default=0, metavar="N",
                   help="also time N CFR+ iterations of mini Badugi on the compact layout, one at a time, and "
                   "the exploitability of the random and rule-of-thumb bots there")
    args = p.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}, {args.rounds} rounds, process seconds min-max")
    with kernel.using("c"):
        for name, spec in GAMES.items():
            exact, comp = exact_of(spec), compact_of(spec)
            uniform = exact.uniform()
            full_t, comp_t = [], []
            for _ in range(args.rounds):  # alternated: the machine's load falls on both alike
                full_t.append(clock(lambda: (exact.best_response(uniform, 0), exact.best_response(uniform, 1))))
                comp_t.append(clock(lambda: (comp.value(None, 0), comp.value(None, 1))))
            ratio = (min(full_t) / max(comp_t), max(full_t) / min(comp_t))
            print(f"{name:26s} full layers {min(full_t):8.4f}-{max(full_t):8.4f} s   compact "
                  f"{min(comp_t):8.4f}-{max(comp_t):8.4f} s   x{ratio[0]:.1f}-{ratio[1]:.1f}")
        if not args.no_mini:
            spec = solve.GameSpec.of(SMALL_GAMES["mini-badugi"])
            build = clock(lambda: compact_of(spec))
            comp = compact_of(spec)
            times = [clock(lambda: (comp.value(None, 0), comp.value(None, 1))) for _ in range(args.rounds)]
            e = solve.exploitability(spec, "uniform")
            print(f"mini-badugi (full layers: refused)   tables {build:.2f} s   exploitability of uniform "
                  f"{min(times):.2f}-{max(times):.2f} s: {e.mbb:.3f} mbb/hand (with the profile value: {e.seconds:.2f} s wall)")
            if args.cfr:
                for bot in (RandomBot(), RuleBot()):
                    got: list[solve.Exploitability] = []
                    t = clock(lambda: got.append(solve.exploitability(spec, bot)))
                    print(f"  {bot.name} bot: {got[0].mbb:.3f} mbb/hand (best responses {got[0].values[0]:+.6f}, "
                          f"{got[0].values[1]:+.6f} chips; {t:.2f} s with reading the bot)")
                regret, average = np.zeros(comp.strategy_size), np.zeros(comp.strategy_size)
                its = [clock(lambda: comp.cfr(regret, average, i + 1, 1, CFR_PLUS)) for i in range(args.cfr)]
                print(f"  CFR+ iteration (both seats) {min(its):.2f}-{max(its):.2f} s over {args.cfr}")


if __name__ == "__main__":
    main()
