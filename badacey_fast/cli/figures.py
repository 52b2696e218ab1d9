"""The ``--plot FILE.png`` of the commands that draw (``draw``, ``equity``, ``simulate``, ``solve``): the
image's format checked before any work, and the figure written whole or not at all.

>>> check_plot_path("draw.xlsx")
Traceback (most recent call last):
...
badacey_fast.errors.FileFormatError: 'draw.xlsx': unknown extension '.xlsx' for a --plot image, expected ...
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
    format (its extension; else :class:`~badacey_fast.errors.FileFormatError`).  None: no plot asked for."""
    if path is None:
        return
    MissingExtraError.require("matplotlib", "plot", "plots")
    from matplotlib.backend_bases import FigureCanvasBase

    from badacey_fast.files.outputs import output_format

    output_format(path, {"." + k: k for k in sorted(FigureCanvasBase.get_supported_filetypes())}, "a --plot image")


def save_figure(fig: Figure, path: str) -> None:
    """Write ``fig`` to ``path`` whole or not at all (a temporary beside it, renamed when written)."""
    from badacey_fast.files.outputs import AtomicFile

    try:
        with AtomicFile(path) as out, out.open() as f:
            fig.savefig(f, format=os.path.splitext(path)[1].lstrip(".").lower())
    except OSError as exc:
        raise BadaceyError(f"{exc.filename or path}: {exc.strerror or exc}") from None
