"""What a twin of the kernel provides: the :class:`Twin` protocol both ``_c`` and ``_py`` satisfy, and the
types of their arguments.  Its own module, imported by the twins and by :mod:`.backend` alike, so that
neither twin needs :mod:`.backend` (which imports them): no import cycle, not even for type checking.

Read by type checkers only: the package imports it under ``TYPE_CHECKING`` (``typing.Protocol`` and
numpy's types cost import time that ``import badacey_fast`` does not need).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

if TYPE_CHECKING:
    import numpy as np

    from badacey_fast.rules.value import Value

__all__ = ["NDArray", "Progress", "Single", "Twin"]

#: a numpy array of any shape and dtype (the dtypes each function takes: see ``_c.py``)
NDArray: TypeAlias = "np.ndarray[Any, Any]"
#: ``progress(done, total)`` of the draw enumerations (outcomes counted so far, of all).
Progress: TypeAlias = Callable[[int, int], object]
#: evaluate()'s single-hand call per ace_high: ``f(cards) -> Value``, or None when ``cards`` is not five
#: exact distinct card ids (the caller's general path words the error); the entry is None on the Python
#: twin and before the C twin's table loads.
Single: TypeAlias = Sequence["Callable[[object], Value | None] | None"]


class Twin(Protocol):
    """What a twin module (``_c`` or ``_py``) provides: checked by mypy against both modules (``load``
    returns either), so the twins cannot drift apart in signature.  Contracts: see ``_c.py``."""

    NAME: str

    def evaluate5(self, cards: tuple[int, ...], ace_high: bool) -> tuple[int, int]: ...
    def low_rank5(self, cards: tuple[int, ...], ace_high: bool) -> int: ...
    def badugi_rank(self, cards: tuple[int, ...], ace_high: bool) -> int: ...
    def eval_many(self, cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
                  out_badugi: NDArray, threads: int = 1) -> int: ...
    def badugi_rank_many(self, cards: NDArray, ace_high: bool, check: bool, out: NDArray,
                         threads: int = 1) -> int: ...
    def all_entries(self, ace_high: bool) -> NDArray: ...
    def showdown_many(self, hands: NDArray, live: NDArray | None, ace_high: bool, pots: NDArray | None,
                      buttons: NDArray | None, odd_low: bool, shares: NDArray | None,
                      chips: NDArray | None, low: NDArray | None, badugi: NDArray | None,
                      status: NDArray | None = None) -> tuple[int, int]: ...
    def showdown_columns(self, hands: NDArray, live: NDArray | None, ace_high: bool, pots: NDArray,
                         buttons: NDArray, odd_low: bool, chips: NDArray, low_bits: NDArray | None,
                         badugi_bits: NDArray | None, status: NDArray | None = None) -> tuple[int, int]: ...
    def split_many(self, pots: NDArray, buttons: NDArray, low_bits: NDArray | None, badugi_bits: NDArray | None,
                   odd_low: bool, chips: NDArray, columns: bool) -> int: ...
    def draw_histograms(self, kept: tuple[int, ...], unseen: tuple[int, ...], k: int, ace_high: bool,
                        progress: Progress | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
    def draw_all_discards(self, hand: tuple[int, ...], unseen: tuple[int, ...], ace_high: bool,
                          progress: Progress | None = None) -> tuple[NDArray, NDArray]: ...
    def parse_deals(self, block: bytes, pos: int, seats: int, csv: bool, columns: NDArray | None,
                    ncolumns: int, max_rows: int, hands: NDArray, live: NDArray, pot: NDArray,
                    button: NDArray, flags: NDArray, start: NDArray, length: NDArray
                    ) -> tuple[int, int] | None: ...
    def read_stars(self, lines: list[str], i: int, start: int, scale: int, draws: int, hand_size: int,
                   consts: tuple[object, ...]) -> tuple[Any, ...] | None: ...
    def read_tilt(self, lines: list[str], i: int, start: int, scale: int, draws: int, hand_size: int,
                  consts: tuple[object, ...]) -> tuple[Any, ...] | None: ...
    def hand_starts(self, text: str, prefixes: tuple[str, ...]) -> list[int] | None: ...
    def split_lines(self, chunk: str) -> list[str] | None: ...
    def dealt_and_paid(self, seats: dict[str, Any], events: list[Any], held: dict[str, dict[int, tuple[int, ...]]],
                       behind: dict[str, int], collected: dict[str, int], seat_type: type) -> tuple[int, int] | None: ...
    def holdings(self, seats: dict[str, Any], events: list[Any], held: dict[str, dict[int, tuple[int, ...]]],
                 shown: dict[str, tuple[int, ...]], draws: int, hand_size: int,
                 consts: tuple[object, ...]) -> dict[str, list[tuple[int, ...] | None]] | None: ...
    def format_results(self, line: NDArray, chips: NDArray, low: NDArray, badugi: NDArray,
                       keep: NDArray | None, out: bytearray) -> int: ...
    def simd_level(self) -> int: ...
    def eval_many_level(self, cards: NDArray, ace_high: bool, check: bool, out_low: NDArray,
                        out_badugi: NDArray, level: int) -> int: ...
    def observe_many(self, rows: Iterable[int], count: int, out: NDArray) -> int: ...
    @property
    def observe_list(self) -> Callable[[list[int], int, NDArray], int]: ...
    def seat_encoder(self, cls: type, fields: tuple[object, ...], betting: str, drawing: str
                     ) -> Callable[[object, int, int, NDArray], int] | None: ...
