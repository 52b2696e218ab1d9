"""Random deal files for :func:`~badacey_fast.files.score.score_file` (benchmarks, tests, ``badacey score``).

Whole-array numpy: each deal is a shuffled deck's first 5 * seats cards written as text, 100,000 at a time.
"""

from __future__ import annotations

import os
from typing import BinaryIO

import numpy as np

from badacey_fast.bulk import showdown as scoring
from badacey_fast.cards import format_card
from badacey_fast.files.streams import opened, stdout_bytes
from badacey_fast.errors import BadaceyError, FileFormatError, ShowdownError

__all__ = ["generate_deals"]

# two text characters per card id, so a whole deal array becomes text by one fancy index
_CARD_TEXT = np.frombuffer("".join(format_card(c) for c in range(52)).encode(), dtype=np.uint8).reshape(52, 2)


def generate_deals(
    n: int,
    out: str | os.PathLike[str] | BinaryIO | None = None,
    *,
    seats: int = 6,
    seed: int | None = None,
    fmt: str = "text",
) -> int:
    """Write ``n`` random deals (all seats live, pot 100..999 chips, random button) for
    :func:`~badacey_fast.files.score.score_file`.

    ``out``: a path or binary stream (None: standard output).
    ``fmt``: "text" (``POT BUTTON HAND ...``) or "csv" (header ``pot,button,seat0,...``).  Seeded with
    ``seed`` (numpy's default generator); built with whole-array numpy, 100,000 deals at a time.
    Returns the number of bytes written.

    >>> import io
    >>> buf = io.BytesIO()
    >>> generate_deals(2, buf, seats=2, seed=1) == len(buf.getvalue()) == 2 * 28
    True
    >>> generate_deals(1, io.BytesIO(), seats=7)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: 7 seats: a showdown has 2 to 6 seats
    """
    for value, what in ((n, "n"), (seats, "seats")):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if n < 0:
        raise BadaceyError(f"n must be >= 0, got {n}")
    if not scoring.MIN_SEATS <= seats <= scoring.MAX_SEATS:
        raise ShowdownError(f"{seats} seats: a showdown has 2 to 6 seats")
    if fmt not in ("text", "csv"):
        raise FileFormatError(f"unknown deal file format {fmt!r}: expected 'text' or 'csv'")
    sep = ord("," if fmt == "csv" else " ")
    rng = np.random.default_rng(seed)
    width = 6 + 11 * seats  # "PPP B " then 10 characters and a separator per hand
    written = 0
    with opened(stdout_bytes() if out is None else out, "wb") as fout:
        if fmt == "csv":
            header = ",".join(["pot", "button", *(f"seat{s}" for s in range(seats))]) + "\n"
            written += fout.write(header.encode())
        for lo in range(0, n, 100_000):
            m = min(100_000, n - lo)
            deck = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (m, 52)), axis=1)
            cards = deck[:, : 5 * seats]
            lines = np.full((m, width), sep, dtype=np.uint8)
            pot = rng.integers(100, 1000, m)
            for k, div in enumerate((100, 10, 1)):
                lines[:, k] = 48 + pot // div % 10
            lines[:, 4] = 48 + rng.integers(0, seats, m)
            text = _CARD_TEXT[cards].reshape(m, seats, 10)
            lines[:, 6:].reshape(m, seats, 11)[:, :, :10] = text
            lines[:, -1] = ord("\n")
            written += fout.write(lines.tobytes())
    return written
