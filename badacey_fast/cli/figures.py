"""The ``--plot FILE.png`` of ``badacey draw`` and ``badacey equity``: the image's format checked before
any work, and the figure written whole or not at all.

>>> check_plot_path("draw.xlsx")
Traceback (most recent call last):
...
badacey_fast.errors.BadaceyError: --plot 'draw.xlsx': give an image file ending in one of ...
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from badacey_fast.errors import BadaceyError, MissingExtraError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["check_plot_path", "save_figure"]


def check_plot_path(path: str | None) -> None:
    """Before any work: matplotlib is there (else :class:`MissingExtraError`) and it can write ``path``'s
    format (its extension).  None: no plot asked for."""
    if path is None:
        return
    MissingExtraError.require("matplotlib", "plot", "plots")
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = FigureCanvasBase.get_supported_filetypes()
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    if ext not in kinds:
        raise BadaceyError(f"--plot {path!r}: give an image file ending in one of "
                           f"{', '.join('.' + k for k in sorted(kinds))}")


def save_figure(fig: Figure, path: str) -> None:
    """Write ``fig`` to ``path`` whole or not at all (a temporary beside it, renamed when written)."""
    from badacey_fast.files.outputs import AtomicFile

    try:
        with AtomicFile(path) as out, out.open() as f:
            fig.savefig(f, format=os.path.splitext(path)[1].lstrip(".").lower())
    except OSError as exc:
        raise BadaceyError(f"{exc.filename or path}: {exc.strerror or exc}") from None
