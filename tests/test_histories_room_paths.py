"""The rooms' quick readings equal their general ones: each shortcut a room's reader takes on the lines it
usually meets (a Boss card line found by one look-up, a line's first word taken as the player's name) must
read every line as the general reading does, at each edge of its case.

The hands are the fixtures of tests/data/histories (written for these tests) and lines written here.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from badacey_fast.histories import parse
from badacey_fast.histories.text import ATTRIBUTE, attributes

DATA = Path(__file__).parent / "data" / "histories"


def _read(text: str) -> list[tuple[object, ...]]:
    return [(h.to_dict(), h.notes) for h in parse(text, on_bad_hand="error")]


ODD_LINES = [
    '<event type="CALL" player="3" amount="1.00"/>',
    '<x a="1" a="2">',  # a name twice: the last value, as dict() of the matches keeps it
    '<x a= "1" b="2">',  # a space before the quote: no value there, the quotes pair otherwise
    '<x "a" b="c">',  # a value with no name
    '<x a="1" b="2>',  # an odd quote
    'a="1"b="2"',  # a name right after a value
    'x "y="z"',  # a name inside what the split takes for a value
    '<é="ü" _1="" 2a="b">',  # word characters beyond ASCII, an empty value, a name starting with a digit
    '<x a-b="1" c.d="2">',  # names the expression cuts at their last word character
    "no quotes at all",
    '"',
    '=""',
    "",
]


def test_an_xml_lines_attributes_are_the_ones_the_expression_finds():
    """attributes() (in C for an ASCII line, the expression otherwise) equals dict(ATTRIBUTE.findall(line))
    on odd lines and on thousands of random lines of quotes, equal signs, word characters and others, ASCII
    or not."""
    for line in ODD_LINES:
        assert attributes(line) == dict(ATTRIBUTE.findall(line)), line
    rnd = random.Random(25)
    alphabet = ['"', '"', "=", "=", " ", "a", "B", "_", "1", "é", "-", "<", ">", "/", ".", "\t"]
    for _ in range(20000):
        line = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(16)))
        assert attributes(line) == dict(ATTRIBUTE.findall(line)), line


def test_boss_card_lines_found_by_look_up_equal_the_expressions_reading():
    """A Boss card line as the room writes it (``<CARD LINK="30"></CARD>``, the last with the element's
    closing tag) is found by one look-up; any other spelling of the same cards (indented, a link with a
    leading zero, two cards on a line, a space before the closing tag) takes the expression, and the hands
    read the same."""
    text = (DATA / "boss.xml").read_text(encoding="utf-8")
    plain = _read(text)
    assert plain and 'LINK="5"' in text and "\n<CARD " in text
    for spelled in (text.replace("\n<CARD ", "\n  <CARD "), text.replace('LINK="5"', 'LINK="05"'),
                    text.replace('</CARD>\n<CARD LINK="44">', '</CARD><CARD LINK="44">'),
                    text.replace("</CARD></ACTION>", "</CARD> </ACTION>")):
        assert spelled != text
        assert _read(spelled) == plain
    # A result's cards (face down: nothing revealed), the last card line closing the result.
    result = '<RESULT PLAYER="Bruno" WIN="7.75" HAND="$(STR_BY_DEFAULT)"></RESULT></SHOWDOWN></HISTORY>'
    assert result in text
    shown = result.replace("></RESULT>", ">" + '\n<CARD LINK="b"></CARD>' * 5 + "</RESULT>\n")
    for spelled in (shown, shown.replace("</CARD></RESULT>", "</CARD> </RESULT>")):
        assert _read(text.replace(result, spelled)) == plain


def test_a_boss_link_beyond_the_deck_is_refused_as_before():
    text = (DATA / "boss.xml").read_text(encoding="utf-8").replace('LINK="44"', 'LINK="52"', 1)
    problems: list[str] = []
    list(parse(text, on_bad_hand=lambda p: problems.append(str(p))))
    assert any("Boss card 52 is not 0..51" in p for p in problems)


@pytest.mark.parametrize("spelling", ["Al:ma", "Alma:", "Dealt"])
def test_kingsclub_names_with_a_colon_or_a_marked_lines_word_read_as_a_plain_name(spelling):
    """A KingsClub name holding ":" (where a post's line puts one) or spelled as a marked line's first word
    ("Dealt to ..") must be read as a plain name is: the same events and wins."""
    text = (DATA / "kingsclub.txt").read_text(encoding="utf-8")
    plain = list(parse(text, on_bad_hand="error"))
    renamed = list(parse(text.replace("Alma", spelling), on_bad_hand="error"))
    back = [tuple(e._replace(player="Alma") if e.player == spelling else e for e in h.actions) for h in renamed]
    assert back == [h.actions for h in plain] and len(plain) == 2
    for field in ("collected", "holdings"):
        assert [getattr(h, field) for h in plain] == [
            {("Alma" if k == spelling else k): v for k, v in getattr(h, field).items()} for h in renamed]


@pytest.mark.parametrize("fixture, players, spellings", [
    ("ongame.txt", ("Alma", "Cora"), ["Al ma", "Dealing", "New"]),
    ("winamax.txt", ("Alma", "Cora"), ["Al ma", "Dealt"]),
])
def test_ongame_and_winamax_names_the_one_partition_cannot_take_read_as_the_plain_name(fixture, players, spellings):
    """OnGame's and Winamax's readers take a line's first word as the player's name only where no name
    holds a space and none is a word their marked lines start with ("Dealing to ..", "New hand for ..",
    "Dealt to .."): with one such name every line takes the general reading (Names.split), which must read
    the hands as the one-partition reading reads plain names."""
    text = (DATA / fixture).read_text(encoding="utf-8")
    plain = list(parse(text, on_bad_hand="error"))
    assert plain
    for player in players:
        assert f"\n{player} " in text
        for spelling in spellings:
            renamed = list(parse(text.replace(player, spelling), on_bad_hand="error"))
            back = [tuple(e._replace(player=player) if e.player == spelling else e for e in h.actions)
                    for h in renamed]
            assert back == [h.actions for h in plain], (player, spelling)
            for field in ("collected", "holdings"):
                assert [getattr(h, field) for h in plain] == [
                    {(player if k == spelling else k): v for k, v in getattr(h, field).items()} for h in renamed]


def test_a_kingsclub_dead_small_blind_the_summary_shows_is_posted_and_the_nets_agree():
    """KingsClub leaves out a returning player's dead small blind; the summary's net shows it.  Alma's net
    made 0.25 lower (and the rake 0.25 higher, so the pot adds up) is read as a dead blind of 0.25 posted
    first, with the note, and the play's nets then equal the summary's (else the hand is refused)."""
    text = (DATA / "kingsclub.txt").read_text(encoding="utf-8")
    plain = next(parse(text, on_bad_hand="error"))
    dead = next(parse(text.replace("Seat 1: Alma (49.75) -0.25", "Seat 1: Alma (49.75) -0.50", 1)
                      .replace("Rake 0.45", "Rake 0.70", 1), on_bad_hand="error"))
    assert [(e.player, e.kind, e.amount) for e in dead.actions[:1]] == [("Alma", "dead blind", 25)]
    assert dead.actions[1:] == plain.actions and dead.rake == plain.rake + 25
    assert dead.nets() == {**plain.nets(), "Alma": plain.nets()["Alma"] - 25}
    assert dead.notes[-1].startswith("Alma pays 0.25 more than the play shows: a dead small blind")
    problems: list[str] = []
    list(parse(text.replace("Seat 1: Alma (49.75) -0.25", "Seat 1: Alma (49.75) -0.85", 1),
               on_bad_hand=lambda p: problems.append(str(p))))
    assert any("the summary gives Alma -0.85, the play -0.25" in p for p in problems)
