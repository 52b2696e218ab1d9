"""Deal lines of a scoring file: one line's layout, parsing and validation (the exact, slow path).

The C kernel's ``bd_parse_deals`` reads the strict forms of these lines in bulk; every line it does not
take, and every line it rejects, comes here so the error names the reason in words.  The formats are
described in :mod:`badacey_fast.files.score`; lower rank is better wherever a rank is involved downstream.

>>> parse_deal("As2h3d4c5s - 2c3h4d5c6s", 3).live
[True, False, True]
>>> parse_deal("As2h3d4c5s Zz2h3d4c5s", 2)
Traceback (most recent call last):
...
badacey_fast.errors.InvalidCardError: unknown card 'Zz' in 'Zz2h3d4c5s'
"""

from __future__ import annotations

import csv
import re
from typing import NamedTuple

from badacey_fast.bulk import showdown as scoring
from badacey_fast.cards import format_card, parse_cards
from badacey_fast.errors import BadaceyError, DuplicateCardError, FileFormatError, ShowdownError

__all__ = ["parse_deal"]

MAX_CHIPS = 2**63 - 1
_DIGITS = re.compile(r"[0-9]+\Z")
_POT_COL, _BUTTON_COL, _IGNORED_COL = 6, 7, -1  # column kinds shared with bd_parse_deals


class Layout(NamedTuple):
    seats: int
    columns: tuple[int, ...] | None  # CSV column kinds (None: plain text)


class ParsedDeal(NamedTuple):
    cards: list[list[int]]
    live: list[bool]
    pot: int | None
    button: int | None


def parse_deal(text: str, seats: int, columns: tuple[int, ...] | None = None) -> ParsedDeal:
    """Parse and validate one deal line (plain text, or CSV with ``columns`` kinds); the slow, exact path.

    Returns cards (P lists of 5 ids 0..51, zeros for folded seats), live flags, pot and button (None when
    not given).  Raises a ``BadaceyError`` naming the reason.

    >>> d = parse_deal("100 2 As2h3d4c5s - Kc9d7h6s2c", 3)
    >>> d.live, d.pot, d.button
    ([True, False, True], 100, 2)
    >>> parse_deal("As2h3d4c5s", 2)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: expected 2 hands, got 1
    """
    if columns is None:
        tokens = text.split()
        numbers: list[int] = []
        while tokens and _DIGITS.match(tokens[0]):
            numbers.append(_chips(tokens.pop(0), "pot" if not numbers else "button"))
        if len(numbers) > 2:
            raise ShowdownError(f"{len(numbers)} numbers before the hands: expected at most pot and button")
        if len(tokens) != seats:
            raise ShowdownError(f"expected {seats} hands, got {len(tokens)}")
        fields = tokens
        pot = numbers[0] if numbers else None
        button = numbers[1] if len(numbers) > 1 else None
    else:
        row = _csv_fields(text)
        if len(row) != len(columns):
            raise ShowdownError(f"expected {len(columns)} CSV fields, got {len(row)}")
        fields = [""] * seats
        pot = button = None
        for kind, field in zip(columns, row):
            field = field.strip()
            if 0 <= kind < seats:
                fields[kind] = field or "-"
            elif kind in (_POT_COL, _BUTTON_COL) and field:
                value = _chips(field, "pot" if kind == _POT_COL else "button")
                pot, button = (value, button) if kind == _POT_COL else (pot, value)
    cards: list[list[int]] = []
    live: list[bool] = []
    owner: dict[int, int] = {}
    for seat, field in enumerate(fields):
        if field == "-":
            cards.append([0] * 5)
            live.append(False)
            continue
        hand = parse_cards(field, count=5)
        for c in hand:
            if c in owner:
                raise DuplicateCardError(f"card {format_card(c)!r} is held twice (seat {owner[c]} and seat {seat})")
            owner[c] = seat
        cards.append(list(hand))
        live.append(True)
    if not any(live):
        raise ShowdownError("no live seat: every seat folded")
    if button is not None and button >= seats:
        raise ShowdownError(f"button {button} is not a seat 0..{seats - 1}")
    return ParsedDeal(cards, live, pot, button)


def _csv_fields(text: str) -> list[str]:
    try:
        return next(csv.reader([text]))
    except csv.Error as exc:  # e.g. a stray carriage return inside the line
        raise ShowdownError(f"not a CSV line: {exc}") from None


def _chips(text: str, what: str) -> int:
    if not _DIGITS.match(text):
        raise ShowdownError(f"{what} {text!r} is not a whole number >= 0")
    value = int(text)
    if value > MAX_CHIPS:
        raise ShowdownError(f"{what} {value} is too large (at most 2**63 - 1)")
    return value


def layout_of(first: str, fmt: str) -> tuple[Layout, bool]:
    """The layout from the first data line; True when that line is a CSV header (not a deal)."""
    if fmt == "csv" or (fmt == "auto" and "," in first):
        names = [name.strip().lower() for name in _csv_fields(first)]
        seats = sorted(int(n[4:]) for n in names if re.fullmatch(r"seat[0-9]", n))
        if not seats or seats != list(range(len(seats))) or len(set(names)) != len(names):
            raise ShowdownError(f"CSV header {first!r} must name the seats seat0, seat1, ... once each")
        if not scoring.MIN_SEATS <= len(seats) <= scoring.MAX_SEATS:
            raise ShowdownError(f"{len(seats)} seats: a showdown has 2 to 6 seats")
        kinds = {"pot": _POT_COL, "button": _BUTTON_COL}
        columns = tuple(int(n[4:]) if re.fullmatch(r"seat[0-9]", n) else kinds.get(n, _IGNORED_COL) for n in names)
        return Layout(len(seats), columns), True
    if fmt not in ("auto", "text"):
        raise FileFormatError(f"unknown deal file format {fmt!r}: expected 'auto', 'text' or 'csv'")
    hands = [t for t in first.split() if not _DIGITS.match(t)]
    if not scoring.MIN_SEATS <= len(hands) <= scoring.MAX_SEATS:
        raise ShowdownError(f"{len(hands)} hands: a showdown has 2 to 6 seats")
    return Layout(len(hands), None), False


# A line ends at "\r\n", "\n" or a lone "\r" (as universal newlines and bd_parse_deals read them): a file
# written with old Mac line ends is one deal a line, not one wide deal.
LINE_END = re.compile(rb"\r\n|\r|\n")


def split_lines(data: bytes) -> list[bytes]:
    """The lines of a block of whole lines, without their line ends."""
    lines = LINE_END.split(data)
    if not lines[-1]:  # the empty "line" after the last line end
        lines.pop()
    return lines


def is_skipped(raw: bytes) -> bool:
    """Blank (spaces and tabs only) or a '#' comment: the same rule as bd_parse_deals, on bytes."""
    rest = raw.lstrip(b" \t")
    return not rest or rest.startswith(b"#")


def decode_line(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ShowdownError("not UTF-8 text") from None


def with_line(exc: BadaceyError, line: int) -> BadaceyError:
    """The same kind of error, its message prefixed with the line number."""
    return type(exc)(f"line {line}: {exc}")

