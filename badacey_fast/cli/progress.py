"""The progress bar of every long ``badacey`` run: one tqdm bar, on stderr, off when stderr is not a terminal.

One flag turns it off everywhere (``--no-progress``, added by :func:`add_progress_option`); nothing of
the bar ever reaches stdout, a pipe or a file (tqdm's ``disable=None`` draws it only on a terminal), so
``badacey simulate ... > results.txt`` holds the results and nothing else.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_progress_option(parser)
>>> args = parser.parse_args(["--no-progress"])
>>> with progress_bar(args, total=3, desc="demo") as bar:
...     _ = bar.update(3)
>>> bar.disable
True
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["add_progress_option", "progress_bar", "progress_callback"]


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-progress`` (the one flag of every command that draws a bar) to ``parser``."""
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar (the bar is drawn on stderr, and only when stderr is a terminal)")


def progress_bar(args: argparse.Namespace | bool, total: float | None = None, desc: str = "",
                 unit: str = "it", *, delay: float = 1.0, **options: Any) -> tqdm[Any]:
    """A tqdm bar on stderr for ``total`` units (``None``: unknown), drawn after ``delay`` seconds.

    ``args`` is the parsed command line (its ``no_progress``) or a bool: ``False`` for no bar.  The bar is
    off whenever stderr is not a terminal (``disable=None``); ``options`` go to tqdm as they are.
    """
    from tqdm import tqdm

    wanted = args if isinstance(args, bool) else not getattr(args, "no_progress", False)
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, delay=delay,
                disable=None if wanted else True, dynamic_ncols=True, **options)


def progress_callback(bar: tqdm[Any]) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback (the library's long calls take one) that moves ``bar``.

    >>> import io
    >>> from tqdm import tqdm
    >>> bar = tqdm(file=io.StringIO())
    >>> step = progress_callback(bar)
    >>> step(5, 10); step(10, 10)
    >>> bar.n, bar.total
    (10, 10)
    """

    def step(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
        bar.update(done - bar.n)

    return step
