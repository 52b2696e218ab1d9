"""A PokerStars hand's first line and table line read in C (csrc/cpython/stars_head.c,
``kernel.stars_first_line`` and ``stars_table_line``) held equal to the expressions they stand for
(``pokerstars._HEADER``, ``_TABLE``): on the lines of every shape the room writes and on tens of thousands
of lines built from their pieces, shuffled and damaged, the C reading either gives exactly the expression's
groups or leaves the line to it (None); and it does read the room's ordinary lines.  Under the sanitizer job
these lines also show that no line makes it read past its end."""

from __future__ import annotations

import random

import pytest

from badacey_fast import _speedups, kernel
from badacey_fast.histories.sites import pokerstars

pytestmark = pytest.mark.backend_independent  # each test compares the C reading with the expression itself

FIRST_LINES = [
    "PokerStars Hand #53398223914: Tournament #409573325, $2.00+$0.20 USD Badugi Limit - Level I (10/20) - "
    "2011/01/16 17:56:47 ET",
    "PokerStars Hand #63113316929:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2011/06/26 18:34:02 CET "
    "[2011/06/26 12:34:02 ET]",
    "PokerStars Game #27853316929: Badugi Limit ($0.10/$0.20) - 2009/06/26 8:34:02 ET",
    "PokerStars Zoom Hand #1: 5 Card Draw No Limit ($0.02/$0.05) - 2014/2/3 1:02:03 ET",
    "PokerStars Hand #2: Tournament #3, Freeroll  Badugi Limit - Level XV (400/800) - 2012/12/01 23:59:59 ET",
    "PokerStars Hand #4: Tournament #5, 250+25 Badugi Limit - Match Round I, Level I (10/20) - 2012/12/01 "
    "23:59:59 ET",
    "PokerStars Home Game Hand #6: Tournament #7, 8-Game (Badugi Limit, 10/20) - 2013/01/01 00:00:00 ET",
    "PokerStars Rush Hand #8: Tournament #9, €1.50+€0.10 EUR Triple Draw 2-7 Lowball Limit - Level II (15/30) - "
    "2013/01/01 00:00:00 CET [2012/12/31 18:00:00 ET]",
]
TABLE_LINES = [
    "Table 'Aase III' 6-max Seat #4 is the button",
    "Table '409573325 1' 9-max Seat #1 is the button",
    "Table 'Play' (Play Money) Seat #2 is the button",
    "Table 'It's a table' 2-max (Play Money) Seat #10 is the button",
    "Table 'x' 6-max",
    "Table '' 6-max",
]
PIECES = [" ", "  ", " - ", "-", " -", "- ", "Level ", "I", "XV", "(", ")", "(10/20)", " (", ") - ", "Match Round ",
          ", ", "Tournament #", "12", "9", "$2.00+$0.20", "USD", " USD", "Freeroll", "Badugi Limit",
          "2011/01/16 17:56:47", "2011/1/6 7:56:47", "201/01/16", " ET", " CET", " [", "]", "ET]", ":", "#", "'",
          "' ", "6-max ", "Seat #", "4 is the button", "(Play Money) ", "é", "\t", "\u0663", "Hand #", "Game #",
          "Zoom ", "PokerStars "]


def _expected_first(line: str) -> tuple[str | None, ...] | None:
    m = pokerstars._HEADER.match(line)
    return None if m is None else m.group(*pokerstars._GROUPS)


def _expected_table(line: str) -> tuple[str, int | None, int | None] | None:
    t = pokerstars._TABLE.match(line)
    if t is None:
        return None
    return t["table"], int(t["max"]) if t["max"] else None, int(t["button"]) if t["button"] else None


def _damaged(rng: random.Random, base: list[str]) -> str:
    line = rng.choice(base)
    for _ in range(rng.randint(0, 3)):
        k = rng.randrange(len(line) + 1)
        r = rng.random()
        if r < 0.4:
            line = line[:k] + rng.choice(PIECES) + line[k:]
        elif r < 0.7:
            line = line[:k] + line[k + rng.randint(1, 8):]
        else:
            line = line[:k] + rng.choice("0123456789 -ABZaz,/:[]()#'") + line[k + 1:]
    return line


def test_the_room_s_lines_are_read_in_c_as_the_expressions_read_them():
    for line in FIRST_LINES:
        if line.isascii():
            assert _speedups.stars_first_line(line) == _expected_first(line) != None, line  # noqa: E711
    for line in TABLE_LINES:
        assert _speedups.stars_table_line(line) == _expected_table(line) != None, line  # noqa: E711
    with kernel.using("python"):
        assert kernel.stars_first_line(FIRST_LINES[0]) is None and kernel.stars_table_line(TABLE_LINES[0]) is None
    with pytest.raises(TypeError, match="stars_first_line"):
        _speedups.stars_first_line(b"PokerStars")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="stars_table_line"):
        _speedups.stars_table_line(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(3))
def test_damaged_and_rebuilt_lines_read_the_same_or_go_to_the_expression(seed):
    rng = random.Random(seed)
    served = matched = 0
    for _ in range(6000):
        line = _damaged(rng, FIRST_LINES)
        got = _speedups.stars_first_line(line)
        expected = _expected_first(line)
        matched += expected is not None
        if got is not None:
            served += 1
            assert got == expected, line
        table = _damaged(rng, TABLE_LINES)
        got_table = _speedups.stars_table_line(table)
        if got_table is not None:
            assert got_table == _expected_table(table), table
    # most lines the expression reads are read in C (the rest: non-ASCII, a tab, a shape it leaves)
    assert served > 0.7 * matched and matched > 3000, (served, matched)
