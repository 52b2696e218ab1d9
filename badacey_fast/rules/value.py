"""The value of a five-card hand: its two dense ranks, lower is better in both.

:class:`Value` is what :func:`badacey_fast.evaluate` returns.  It lives in this small module, below the
kernel, because the C twin's single-hand call (``csrc/cpython/speedups.c``) hands out cached Values
itself: :data:`VALUES` maps a packed kernel entry (``low | badugi << 16``) to its Value, filled on first
sight by :func:`from_entry` (at most 38,064 distinct pairs per game).

>>> from_entry(1 | 1 << 16)
Value(low=1, badugi=1)
>>> Value(low=785, badugi=1).low
785
>>> from_entry(0)
Traceback (most recent call last):
...
ValueError: packed entry 0 holds no hand (low rank 0, badugi rank 0)
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Value", "VALUES", "from_entry"]


class Value(NamedTuple):
    """The two halves of a hand as dense ranks; lower is better in both.

    ``low``: 1..6175 (Badacey, A-5) or 1..7462 (Badeucy, 2-7).  ``badugi``: 1..1092.
    """

    low: int
    badugi: int


#: Values by packed kernel entry (``low | badugi << 16``), shared by every single-hand fast path.
VALUES: dict[int, Value] = {}
_new = tuple.__new__  # Value((low, badugi)) without namedtuple's Python-level __new__


def from_entry(entry: int) -> Value:
    """The Value of a packed kernel entry ``low | badugi << 16`` (both ranks >= 1, lower is better).

    Not cached here: the single-hand call stores the result in :data:`VALUES` itself.
    """
    low, badugi = entry & 0xFFFF, entry >> 16
    if not (low and badugi):
        raise ValueError(f"packed entry {entry} holds no hand (low rank {low}, badugi rank {badugi})")
    return _new(Value, (low, badugi))
