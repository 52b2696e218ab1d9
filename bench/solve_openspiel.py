"""The exact solver side by side with OpenSpiel on the same tiny games (issue 26's targets):

- ``exploitability``: ``badacey_fast.solve.exploitability`` against OpenSpiel's Python
  ``exploitability.exploitability``, the uniform policy, on our OpenSpiel game (``deal="set"``);
- ``cfr``: one iteration of the C core's CFR+ against one of OpenSpiel's C++ ``pyspiel.CFRPlusSolver``
  through our OpenSpiel game (the same game, the same run: the two alternate).

Rounds alternate A and B; each figure is min-max over the rounds, and the load is printed (a shared
machine: compare within one run only).  Both run in this one thread, so the times are this process's
processor time (``time.process_time``): wall time on a loaded machine counts other people's work, and a
sub-millisecond call preempted once would swing the ratio a hundredfold.  Needs the ``[openspiel]`` extra::

    python bench/solve_openspiel.py exploitability --game micro-badugi --rounds 3
    python bench/solve_openspiel.py cfr --game micro-badugi --rounds 5 --iterations 20
"""

from __future__ import annotations

import argparse
import os
from time import process_time as clock

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import exploitability as os_exploitability

import badacey_fast.envs.openspiel  # noqa: F401  # registers the games
from badacey_fast import solve
from badacey_fast.game.small import SMALL_GAMES
from badacey_fast.solve.exploit import exact_of

import numpy as np


def _load(name: str) -> object:
    return pyspiel.load_game(f"python_{SMALL_GAMES[name].config.game}", SMALL_GAMES[name].openspiel_params("set"))


def exploitability(name: str, rounds: int) -> None:
    game = _load(name)
    solve.exploitability(game, "uniform")  # builds the tree once: the figure is the computation
    ours, theirs = [], []
    for _ in range(rounds):
        t = clock()
        a = os_exploitability.exploitability(game, policy.UniformRandomPolicy(game))
        theirs.append(clock() - t)
        t = clock()
        b = solve.exploitability(game, "uniform").big_blinds
        ours.append(clock() - t)
        assert abs(a - b) < 1e-9, (a, b)
    print(f"{name}: exploitability of the uniform policy {b:.9f} big blinds a hand (both)")
    print(f"  OpenSpiel exploitability.exploitability: {min(theirs):.3f}-{max(theirs):.3f} s")
    print(f"  badacey_fast.solve.exploitability:       {min(ours) * 1e3:.2f}-{max(ours) * 1e3:.2f} ms")
    print(f"  ratio (slowest of ours against fastest of theirs): {min(theirs) / max(ours):,.0f}x")


def cfr(name: str, rounds: int, iterations: int) -> None:
    game = _load(name)
    spec = solve.GameSpec.of(game)
    exact = exact_of(spec)
    size = exact.tree.strategy_size
    regret, average = np.zeros(size), np.zeros(size)
    cpp = pyspiel.CFRPlusSolver(game)  # builds its tables now: not timed
    exact.cfr(regret, average, 1, 1)
    done = 1
    ours, theirs = [], []
    for _ in range(rounds):
        t = clock()
        for _ in range(iterations):
            cpp.evaluate_and_update_policy()
        theirs.append((clock() - t) / iterations)
        t = clock()
        exact.cfr(regret, average, done + 1, iterations * 100)  # a hundred times as many: ours are short
        ours.append((clock() - t) / (iterations * 100))
        done += iterations * 100
    print(f"{name}: processor time per CFR+ iteration ({rounds} rounds of {iterations} of OpenSpiel's, "
          f"{iterations * 100} of ours, alternated)")
    print(f"  OpenSpiel pyspiel.CFRPlusSolver (C++) on our game: {min(theirs) * 1e3:.2f}-{max(theirs) * 1e3:.2f} ms")
    print(f"  badacey_fast C CFR+:                               {min(ours) * 1e3:.3f}-{max(ours) * 1e3:.3f} ms")
    print(f"  ratio (slowest of ours against fastest of theirs): {min(theirs) / max(ours):,.0f}x")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["exploitability", "cfr"])
    p.add_argument("--game", default="micro-badugi", choices=sorted(SMALL_GAMES))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iterations", type=int, default=10)
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (times: processor time of this process)")
    if args.what == "exploitability":
        exploitability(args.game, args.rounds)
    else:
        cfr(args.game, args.rounds, args.iterations)


if __name__ == "__main__":
    main()
