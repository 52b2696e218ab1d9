"""What a room's reader is (:class:`Site`): the one definition every room module fills in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from badacey_fast.histories.model import RealHand

__all__ = ["Site"]


@dataclass(frozen=True)
class Site:
    """A room's reader: its ``name`` (and ``aliases`` a user may type), ``start`` (a regular expression for
    its hands' first lines: the reader cuts the text there), ``parse`` (one hand's lines, its first line
    number, the file's name and context, to ``(RealHand, garbage lines)``, or None for a chunk that only
    sets the file's context), ``between`` (whether a line outside hands is one the room writes there) and
    ``prefixes`` (the literal beginnings of ``start``: a first look at C speed before the expression)."""

    name: str
    start: str  #: a regular expression matching its hands' first lines, from the start of the line
    parse: Callable[[list[str], int, str, dict[str, object]], "tuple[RealHand, list[tuple[int, str]]] | None"]
    between: Callable[[str, dict[str, object]], bool]
    aliases: tuple[str, ...] = ()
    #: The literal text every first line starts with (one of them): the reader tries ``start`` only on the
    #: lines that begin so (empty: on every line).
    prefixes: tuple[str, ...] = ()
