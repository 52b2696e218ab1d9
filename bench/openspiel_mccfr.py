"""OpenSpiel's external-sampling MCCFR on heads-up Badugi: seconds per iteration and microseconds per node.

A plain script (not a pytest-benchmark suite: one iteration takes about a second, and the figure that
matters is per node).  Needs the ``[openspiel]`` extra.  The docs' Performance page ("OpenSpiel MCCFR") quotes it::

    python bench/openspiel_mccfr.py --solver cpp --iterations 6 --count
    python bench/openspiel_mccfr.py --solver python --iterations 6 --count

``--count`` counts the nodes (every child the solver makes) by wrapping the state's ``_apply_action``,
which adds ~0.3 us a node; without it the timing is bare.  The seed is fixed, so two checkouts walk the
same nodes: compare them side by side, interleaved, on a shared machine.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import external_sampling_mccfr

from badacey_fast.envs import openspiel


def run(solver: str, iterations: int, stack: int, count: bool, seed: int = 12) -> dict[str, float]:
    """Run ``iterations`` of the chosen solver ("cpp": ``pyspiel.ExternalSamplingMCCFRSolver``, "python":
    ``external_sampling_mccfr.ExternalSamplingSolver``) on ``python_badugi`` with ``stack`` chips a seat.

    Returns wall and CPU seconds per iteration, and with ``count`` the nodes per iteration.

    >>> r = run("cpp", 1, 2, True)
    >>> r["nodes"] > 10_000 and r["cpu"] > 0
    True
    """
    game = pyspiel.load_game("python_badugi", {"players": 2, "stack": stack})
    nodes = [0]
    original = openspiel.BadaceyState._apply_action
    if count:
        def counting(state: openspiel.BadaceyState, action: int) -> None:
            nodes[0] += 1
            original(state, action)

        openspiel.BadaceyState._apply_action = counting  # type: ignore[method-assign,assignment]
    step: Callable[[], None]
    if solver == "cpp":
        cpp = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)
        step = cpp.run_iteration
    elif solver == "python":
        np.random.seed(seed)  # the Python solver samples with numpy's global generator
        py = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
        step = py.iteration
    else:
        raise ValueError(f"solver must be 'cpp' or 'python', not {solver!r}")
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(iterations):
            step()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        openspiel.BadaceyState._apply_action = original  # type: ignore[method-assign]
    out = {"wall": wall / iterations, "cpu": cpu / iterations}
    if count:
        out["nodes"] = nodes[0] / iterations
    return out


def main() -> None:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solver", choices=["cpp", "python"], default="cpp")
    parser.add_argument("--iterations", type=int, default=6)
    parser.add_argument("--stack", type=int, default=2, help="chips a seat (2: one big blind)")
    parser.add_argument("--count", action="store_true", help="count the nodes (adds ~0.3 us a node)")
    args = parser.parse_args()
    r = run(args.solver, args.iterations, args.stack, args.count)
    line = f"{args.solver}: {args.iterations} iterations, wall {r['wall']:.3f} s/it, CPU {r['cpu']:.3f} s/it"
    if args.count:
        line += f", {r['nodes']:.0f} nodes/it, CPU {r['cpu'] / r['nodes'] * 1e6:.1f} us/node"
    print(line)


if __name__ == "__main__":
    main()
