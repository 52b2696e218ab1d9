"""The C scan for hands and split into lines (csrc/cpython/lines.c, ``kernel.hand_starts`` and
``split_lines``) held equal to the reader's Python twins (``reader._firsts``' expression and ``reader._lines``)
on random texts of every string kind: line breaks at the ends, blanks, tabs, carriage returns, other
whitespace (which a stripped hand loses too), the rooms' first words everywhere.  Under the sanitizer job
they also show that no text makes either read past its end."""

from __future__ import annotations

import random

import pytest

from badacey_fast import _speedups, kernel
from badacey_fast.histories import reader

pytestmark = pytest.mark.backend_independent  # each test runs both twins itself

PIECES = ["\n", "\n", " ", " \n", "\t", "\r", "\r\n", "\x0b", "\x1c", "\x85", "\xa0", "\u3000", "\U0001F0A1",
          "é", "a", "Seat 1: Ann (10)", "PokerStars ", "Poker", "Full", "Fu", "#", "<game ", "<HISTORY ",
          "***** History for hand ", "Winamax Poker - ", "PokerStars Hand #", "Full Tilt Poker Game #", "x" * 40]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30)))


def _twin_lines(chunk: str) -> list[str]:
    with kernel.using("python"):
        return reader._lines(chunk)


def _twin_starts(text: str) -> list[int]:
    assert reader._NEWLINE_PREFIXES is not None
    return [m.start() for m in reader._NEWLINE_PREFIXES.finditer(text)]


@pytest.mark.parametrize("seed", range(3))
def test_hands_are_found_and_split_as_the_python_reader_does(seed):
    rng = random.Random(seed)
    stripped = found = 0
    for _ in range(3000):
        text = _text(rng)
        lines = _speedups.split_lines(text)
        assert lines == _twin_lines(text), repr(text)
        stripped += lines != text.split("\n")
        assert _speedups.hand_starts(text, reader._PREFIXES) == _twin_starts(text), repr(text)
        with kernel.using("c"):  # the reader's scan with the C offsets: finditer's matches
            firsts = [m.span() for m in reader._firsts(text)]
        assert firsts == [m.span() for m in reader._STARTS.finditer(text)], repr(text)
        found += len(firsts)
    assert stripped > 300 and found > 300  # the strip and the first lines are exercised


def test_the_cut_of_edge_texts_and_bad_arguments():
    assert _speedups.split_lines("") == [""]
    assert _speedups.split_lines("\n") == ["", ""]
    assert _speedups.split_lines("a \nb") == ["a", "b"]
    assert _speedups.split_lines("a\xa0\nb") == ["a\xa0", "b"]  # no blank before a break: nothing stripped
    assert _speedups.split_lines("a\xa0\nb ") == ["a", "b"]  # a last blank: every line stripped
    assert _speedups.hand_starts("\nPokerStars Hand #1", ("PokerStars ",)) == [0]
    assert _speedups.hand_starts("\nPokerStars", ("PokerStars ",)) == []  # the prefix runs past the end
    assert _speedups.hand_starts("x\n\n#", ("#", "##")) == [2]
    with kernel.using("python"):
        assert kernel.split_lines("a") is None and kernel.hand_starts("a", ("a",)) is None
    for bad in ((b"a",), ("a", "b")):
        with pytest.raises(TypeError, match="split_lines|hand_starts"):
            (_speedups.split_lines if len(bad) == 1 else _speedups.hand_starts)(*bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="non-empty str"):
        _speedups.hand_starts("a", ("",))
    with pytest.raises(TypeError, match="hand_starts"):
        _speedups.hand_starts("a", tuple("a" for _ in range(33)))


ATTRIBUTE_PIECES = ['<event ', 'sequence="3"', ' ', 'type="CALL"', 'a="', '"', '=', '="', 'x', 'x_1', '-', 'é', '\t',
                    '/>', 'nickname="Ann Lee"', 'amount="0.50"', 'a="1"', 'a="2"', '==""', '""', '<', '>', '9']


@pytest.mark.parametrize("seed", range(3))
def test_xml_attributes_are_read_as_the_expression_reads_them(seed):
    from badacey_fast.histories.text import ATTRIBUTE, attributes

    rng = random.Random(seed)
    read = 0
    for _ in range(4000):
        line = "".join(rng.choice(ATTRIBUTE_PIECES) for _ in range(rng.randint(0, 12)))
        expected = dict(ATTRIBUTE.findall(line))
        got = _speedups.xml_attributes(line)
        if got is None:
            assert not line.isascii(), line  # only a line beyond ASCII is left to the expression
        else:
            read += 1
            assert list(got.items()) == list(expected.items()), line  # the order too (dict's first place)
        with kernel.using("python"):
            assert attributes(line) == expected
        with kernel.using("c"):
            assert attributes(line) == expected
    assert read > 2000
    with pytest.raises(TypeError, match="xml_attributes"):
        _speedups.xml_attributes(b'a="1"')  # type: ignore[arg-type]
