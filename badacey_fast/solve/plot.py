"""The exploitability curve of a CFR run as an image (matplotlib: the ``[plot]`` extra).

>>> from badacey_fast.solve import cfr, GameSpec
>>> import tempfile, os
>>> r = cfr(GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1), iterations=20)
>>> path = os.path.join(tempfile.mkdtemp(), "curve.png")
>>> plot_curve(r, path); os.path.getsize(path) > 1000
True
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from badacey_fast.solve.cfr import CFRResult

__all__ = ["plot_curve", "EXTRA_MESSAGE"]

#: The one line a missing extra prints.
EXTRA_MESSAGE = 'plotting needs matplotlib: pip install "badacey_fast[plot]"'


def plot_curve(result: CFRResult, path: str | os.PathLike[str]) -> None:
    """Draw ``result``'s curve (exploitability in mbb/hand against iterations, log-log) into ``path``
    (the format by its suffix), written through a temporary beside it renamed when whole."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(EXTRA_MESSAGE) from None
    target = Path(path)
    xs = [p.iteration for p in result.curve]
    ys = [max(p.mbb, 1e-6) for p in result.curve]
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    try:
        ax.loglog(xs, ys, marker="o", markersize=3)
        ax.set_xlabel("iterations")
        ax.set_ylabel("exploitability (mbb/hand)")
        ax.set_title(f"{result.method} on {result.game.label()}")
        ax.grid(True, which="both", alpha=0.3)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp{target.suffix}")
        try:
            fig.savefig(tmp)
            os.replace(tmp, target)
        finally:
            if tmp.exists():
                tmp.unlink()
    finally:
        plt.close(fig)
