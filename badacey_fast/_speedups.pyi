# Type stub of the compiled CPython extension badacey_fast._speedups (csrc/cpython/speedups.c, where the
# contract is written down): the single-hand call of evaluate().  Generic here only (the runtime class
# takes no subscript): _V is the value type the caller's `make` builds (evaluate()'s Value).
from collections.abc import Callable
from typing import Generic, TypeVar, final

from _cffi_backend import buffer

_V = TypeVar("_V")

@final
class HandEvaluator(Generic[_V]):
    # table: one game's uint32 table (BD_TABLE_ENTRIES entries); values: {packed entry: value}, shared and
    # filled on first sight; make(entry) -> value, called once per new entry.
    def __init__(self, table: buffer, values: dict[int, _V], make: Callable[[int], _V], /) -> None: ...
    # The value of `cards` when it is a tuple or list of five exact ints that are distinct card ids, else None.
    def __call__(self, cards: object, /) -> _V | None: ...
