"""The exploitability curve of a CFR run as an image (matplotlib: the ``[plot]`` extra).

>>> from badacey_fast.solve import cfr, GameSpec
>>> import tempfile, os
>>> r = cfr(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1), iterations=20)
>>> path = os.path.join(tempfile.mkdtemp(), "curve.png")
>>> plot_curve([(p.iteration, p.mbb) for p in r.curve], "cfr+ on a one-card game", path)
>>> os.path.getsize(path) > 1000
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from badacey_fast.errors import MissingExtraError
from badacey_fast.files.outputs import AtomicFile

__all__ = ["plot_curve"]


def plot_curve(points: Sequence[tuple[int, float]], title: str, path: str | os.PathLike[str]) -> None:
    """Draw a CFR run's curve -- ``points`` of (iterations, exploitability in mbb/hand), log-log, under
    ``title`` -- into ``path`` (the format by its suffix), written through a temporary beside it renamed
    when whole (:meth:`badacey_fast.solve.CFRResult.plot` calls it with its own curve)."""
    matplotlib = MissingExtraError.require("matplotlib", "plot", "plots")
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    target = Path(path)
    xs = [int(x) for x, _ in points]
    ys = [max(float(y), 1e-6) for _, y in points]  # a log scale: an exact 0 drawn at 1e-6
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    try:
        ax.loglog(xs, ys, marker="o", markersize=3)
        ax.set_xlabel("iterations")
        ax.set_ylabel("exploitability (mbb/hand)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        # Whole or not at all, like every output (files.outputs); the format from the target's suffix.
        with AtomicFile(target) as out, out.open() as f:
            fig.savefig(f, format=target.suffix.lstrip(".").lower() or "png")
    finally:
        plt.close(fig)
