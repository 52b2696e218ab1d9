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
badacey_fast.errors.RankError: packed entry 0 holds no hand (low rank 0, badugi rank 0)
"""

from __future__ import annotations

from operator import itemgetter

from badacey_fast.errors import RankError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name the same)

__all__ = ["Value", "VALUES", "from_entry"]

_new = tuple.__new__  # Value((low, badugi)) without a Python-level __new__


class Value(tuple[int, int]):
    """The two halves of a hand as dense ranks; lower is better in both.

    ``low``: 1..6175 (Badacey, A-5) or 1..7462 (Badeucy, 2-7).  ``badugi``: 1..1092.  A named tuple
    ``(low, badugi)`` written out rather than made by ``typing.NamedTuple``, whose import (``typing``, and
    the class it compiles) would be most of the import time of the package (docs/import.md); it has the
    same behaviour: tuple equality and unpacking, ``_fields``, ``_make``, ``_replace``, ``_asdict``.

    >>> v = Value(low=785, badugi=1)
    >>> v, v == (785, 1), v._replace(badugi=2), v._asdict(), Value._make([3, 4])
    (Value(low=785, badugi=1), True, Value(low=785, badugi=2), {'low': 785, 'badugi': 1}, Value(low=3, badugi=4))
    >>> import pickle; pickle.loads(pickle.dumps(v)) == v
    True
    """

    __slots__ = ()
    _fields = ("low", "badugi")
    __match_args__ = ("low", "badugi")

    def __new__(cls, low: int, badugi: int) -> Value:
        return _new(cls, (low, badugi))

    if TYPE_CHECKING:
        @property
        def low(self) -> int:
            """Dense low rank, lower is better."""

        @property
        def badugi(self) -> int:
            """Dense badugi rank, lower is better."""
    else:  # read by C (itemgetter), as a namedtuple's fields are
        low = property(itemgetter(0), doc="Dense low rank, lower is better.")
        badugi = property(itemgetter(1), doc="Dense badugi rank, lower is better.")

    @classmethod
    def _make(cls, iterable: tuple[int, int] | list[int]) -> Value:
        low, badugi = iterable
        return _new(cls, (low, badugi))

    def _replace(self, *, low: int | None = None, badugi: int | None = None) -> Value:
        return _new(Value, (self[0] if low is None else low, self[1] if badugi is None else badugi))

    def _asdict(self) -> dict[str, int]:
        return {"low": self[0], "badugi": self[1]}

    def __getnewargs__(self) -> tuple[int, int]:
        return self[0], self[1]

    def __repr__(self) -> str:
        return f"Value(low={self[0]!r}, badugi={self[1]!r})"


#: Values by packed kernel entry (``low | badugi << 16``), shared by every single-hand fast path.
VALUES: dict[int, Value] = {}


def from_entry(entry: int) -> Value:
    """The Value of a packed kernel entry ``low | badugi << 16`` (both ranks >= 1, lower is better).

    Not cached here: the single-hand call stores the result in :data:`VALUES` itself.
    """
    low, badugi = entry & 0xFFFF, entry >> 16
    if not (low and badugi):
        raise RankError(f"packed entry {entry} holds no hand (low rank {low}, badugi rank {badugi})")
    return _new(Value, (low, badugi))
