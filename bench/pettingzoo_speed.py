"""The PettingZoo AEC environment under PettingZoo's own ``agent_iter()`` loop, against a bare ``Game``
loop with the same random policy, side by side.

Target (issue 24): the AEC loop at >= 50 % of the bare loop's hands per second, heads-up and 6-max.  Both
loops pick a uniformly random legal action (the bare loop: :class:`~badacey_fast.game.bots.RandomBot`
over ``Game.legal_actions()``; the AEC loop: a random index of ``action_mask``, the observation built by
``last()`` every turn as PettingZoo's loop asks).  Hands per CPU second (``time.process_time``), each round
both loops alternately, min-max over the rounds; the ratio of the medians.

Run::

    python bench/pettingzoo_speed.py [--rounds 5] [--hands 2000]

Instructions, repeatable under load: ``--only LOOP --seats N`` plays that loop once (``bare``, ``raw`` or
``wrapped``), printing nothing, under callgrind; the difference of two hand counts is the loop's own::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/pettingzoo_speed.py --only wrapped --seats 6 --hands 100
    (again with --hands 300: (Ir(300) - Ir(100)) / 200 instructions a hand)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from badacey_fast.envs.pettingzoo import env as aec_env
from badacey_fast.envs.pettingzoo import raw_env
from badacey_fast.game import Game
from badacey_fast.game.bots import RandomBot
from badacey_fast.game.simulate import play_hand


def bare(hands: int, seats: int) -> float:
    bots = [RandomBot(seed=i) for i in range(seats)]
    start = time.process_time()
    for h in range(hands):
        play_hand(Game(stacks=[200] * seats, seed=h), bots)
    return hands / (time.process_time() - start)


def aec(hands: int, seats: int, wrapped: bool) -> float:
    e = aec_env("badacey", seats, stacks=200) if wrapped else raw_env("badacey", seats, stacks=200)
    rnd = random.Random(1).random
    start = time.process_time()
    e.reset(seed=1)
    for h in range(hands):
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]
                action = legal[int(rnd() * len(legal))]
            e.step(action)
        e.reset()
    return hands / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--only", choices=["bare", "raw", "wrapped"], help="play this loop once, print nothing")
    ap.add_argument("--seats", type=int, default=6, help="with --only: the seats at the table")
    args = ap.parse_args()
    if args.only:
        if args.only == "bare":
            bare(args.hands, args.seats)
        else:
            aec(args.hands, args.seats, args.only == "wrapped")
        return
    print(f"hands per CPU second, min-max over {args.rounds} rounds (load average {os.getloadavg()[0]:.1f}):")
    for seats in (2, 6):
        got: dict[str, list[float]] = {"bare Game": [], "AEC raw_env": [], "AEC env (wrapped)": []}
        for _ in range(args.rounds):
            got["bare Game"].append(bare(args.hands, seats))
            got["AEC raw_env"].append(aec(args.hands, seats, False))
            got["AEC env (wrapped)"].append(aec(args.hands, seats, True))
        base = statistics.median(got["bare Game"])
        for name, xs in got.items():
            print(f"  {seats} seats  {name:<18}{min(xs):>10,.0f} - {max(xs):>10,.0f}"
                  f"   {statistics.median(xs) / base:6.0%} of bare")


if __name__ == "__main__":
    main()
