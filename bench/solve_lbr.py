"""Local best response throughput and figures: evaluated hands per minute on one core, full-size heads-up
games, with the lower bound and its standard error (issue 26's target: >= 10,000 hands a minute on Badugi).

    python bench/solve_lbr.py --game badugi --bot rule --hands 20000 --rounds 3
    python bench/solve_lbr.py --game badugi 27 badacey --bot rule random --hands 50000 --rounds 1 --table

Each round is one run of ``hands`` hands (fresh seed) per game and bot; the rate is min-max over the
rounds, with the machine's load (shared: compare within one run).  ``--table`` ends with the figures as a
Markdown table (the last round's).  The C hand loop, so the C twin.
"""

from __future__ import annotations

import argparse
import os

from badacey_fast import solve

NAMES = {"badugi": "Badugi", "27": "2-7 Triple Draw", "badacey": "Badacey", "badeucy": "Badeucy", "a5": "A-5 Triple Draw"}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", nargs="+", default=["badugi"])
    p.add_argument("--bot", nargs="+", default=["rule"])
    p.add_argument("--hands", type=int, default=20_000)
    p.add_argument("--particles", type=int, default=512)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--table", action="store_true", help="end with a Markdown table of the figures")
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    rows = []
    for game in args.game:
        for bot in args.bot:
            rates = []
            for r in range(args.rounds):
                result = solve.lbr(game, bot, hands=args.hands, particles=args.particles, seed=r)
                rates.append(result.hands_per_minute)
                print(result, flush=True)
            print(f"{game} vs {bot}: hands per minute (one core): {min(rates):,.0f}-{max(rates):,.0f}", flush=True)
            rows.append((game, bot, result, min(rates), max(rates)))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    if args.table:
        print("\n| game | bot | LBR lower bound (mbb/hand) | button | big blind | hands | hands/min (one core) |")
        print("|---|---|--:|--:|--:|--:|--:|")
        for game, bot, res, lo, hi in rows:
            rate = f"{lo:,.0f}" if args.rounds == 1 else f"{lo:,.0f}-{hi:,.0f}"
            print(f"| {NAMES.get(game, game)} | {bot} | {res.mbb:,.0f} ± {res.se_mbb:,.0f} | "
                  f"{res.by_seat[0]:,.0f} | {res.by_seat[1]:,.0f} | {res.hands:,} | {rate} |")


if __name__ == "__main__":
    main()
