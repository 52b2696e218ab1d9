"""Bad hand histories: truncated hands, a hand cut off by the next, garbage between hands, hand ids given
twice, amounts that do not add up, rooms nobody knows.  Each is named ``file:line: reason``; the other
hands of the file still come through; nothing is taken as a different hand."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from badacey_fast.errors import ConfigError, HandHistoryError
from badacey_fast.errors import HistoryWarning
from badacey_fast.histories import parse
from badacey_fast.histories.model import EXAMPLE

# Not backend_independent: a PokerStars hand is read in C on the C twin (csrc/cpython/stars.c), in Python on
# the Python twin; each test runs on both.

DATA = Path(__file__).parent / "data" / "histories"


def _read(text: str) -> tuple[list[str], list[HandHistoryError]]:
    problems: list[HandHistoryError] = []
    ids = [h.hand_id for h in parse(text, on_bad_hand=problems.append)]
    return ids, problems


def _hand(k: int, text: str = EXAMPLE) -> str:
    return text.replace("#1:", f"#{k}:")


def test_a_truncated_hand_is_named_and_the_next_hand_still_read():
    cut = _hand(1).split("*** SUMMARY ***")[0]  # no summary: the rest of the hand is lost
    ids, problems = _read(cut + _hand(2))
    assert ids == ["2"]
    (p,) = problems
    assert (p.file, p.line, p.kind, p.site) == ("<text>", 19, "malformed", "PokerStars")  # its last line
    assert str(p) == "<text>:19: truncated hand: no *** SUMMARY ***"


def test_a_hand_cut_mid_line_at_the_end_of_a_file_is_named(tmp_path):
    path = tmp_path / "cut.txt"
    text = _hand(1) + _hand(2)
    path.write_text(text[: text.rindex("Villain: folds") + 11])  # the second hand stops mid-line: "Villain: fo"
    problems: list[HandHistoryError] = []
    assert [h.hand_id for h in parse(path, on_bad_hand=problems.append)] == ["1"]
    assert [p.kind for p in problems] == ["malformed"] and str(problems[0]).startswith(f"{path}:")
    assert "truncated hand" in problems[0].reason


def test_garbage_before_between_and_after_hands_is_named_and_skipped():
    text = "not a hand\nnor this\n" + _hand(1) + "!!! a stray line\n" + _hand(2) + "\ntrailing junk\n"
    ids, problems = _read(text)
    assert ids == ["1", "2"]
    assert [(p.kind, p.line) for p in problems] == [("garbage", 1), ("garbage", 26), ("garbage", 51)]
    assert str(problems[0]) == "<text>:1: 2 lines that no room writes (garbage, or a room this reader does not know)"
    assert problems[1].hand_id == "1" and "'!!! a stray line'" in problems[1].reason


def test_a_hand_id_given_twice_is_read_once_and_named():
    ids, problems = _read(_hand(1) + _hand(2) + _hand(1))
    assert ids == ["1", "2"]
    (p,) = problems
    assert (p.kind, p.line, p.hand_id) == ("duplicate", 47, "1")
    assert p.reason == "hand PokerStars #1 is given twice (first at <text>:1)"
    assert [h.hand_id for h in parse(_hand(1) + _hand(1), dedupe=False)] == ["1", "1"]


@pytest.mark.parametrize("before, after, reason", [
    ("Hero collected $1.90 from pot", "Hero collected $1.95 from pot",
     "the amounts do not add up: the players put in 2.00, the room paid 1.95 and raked 0.10"),
    ("Total pot $2 | Rake $0.10", "Total pot $2.20 | Rake $0.10",
     "the amounts do not add up: the players put in 2.00, the room states a total pot of 2.20"),
    ("Villain: calls $0.50", "Villain: calls $50",
     "Villain puts in 5000 with 950 behind: the amounts do not add up"),
    ("Hero: raises $0.50 to $1", "Herb: raises $0.50 to $1",  # a raise by nobody seated: its chips are missing
     "the amounts do not add up: the players put in 1.25, the room states a total pot of 2.00"),
    ("Dealt to Hero [As 2h 3s 4c]", "Dealt to Hero [As 2h 3s Zz]", "'Zz' is not a card"),
    ("Villain: discards 2 cards", "Villain: discards 6 cards", "Villain draws 6 cards of 4"),
])
def test_amounts_and_cards_that_do_not_add_up_are_named(before, after, reason):
    assert before in EXAMPLE
    ids, problems = _read(_hand(1, EXAMPLE.replace(before, after)) + _hand(2))
    assert ids == ["2"]
    (p,) = problems
    assert p.kind == "malformed" and reason in str(p) and str(p).startswith("<text>:")


def test_a_room_nobody_knows_is_garbage_not_a_hand():
    party = "***** Hand History for Game 1111111111 *****\n$2 USD NL Texas Hold'em\nTable Sham VI (Real Money)\n"
    ids, problems = _read(party + _hand(1))
    assert ids == ["1"]
    assert [(p.kind, p.line) for p in problems] == [("garbage", 1)]


def test_kingsclub_summary_nets_are_checked_against_the_play():
    text = (DATA / "kingsclub.txt").read_text().replace("Seat 3: Cora (48.52) +0.52", "Seat 3: Cora (48.62) +0.62")
    ids, problems = _read(text)
    assert ids == ["50000002"]
    assert "the summary gives Cora 0.62, the play 0.52" in str(problems[0])


def test_on_bad_hand_error_warn_skip_and_a_bad_choice():
    bad = _hand(1).replace("Hero collected $1.90", "Hero collected $1.95") + _hand(2)
    with pytest.raises(HandHistoryError, match=r"^<text>:1: the amounts do not add up"):
        list(parse(bad, on_bad_hand="error"))
    with pytest.warns(HistoryWarning, match=r"<text>:1: the amounts do not add up"):
        assert [h.hand_id for h in parse(bad)] == ["2"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert [h.hand_id for h in parse(bad, on_bad_hand="skip")] == ["2"]
    with pytest.raises(ConfigError, match="on_bad_hand must be one of warn, skip, error or a callable, not 'ignore'"):
        next(parse(bad, on_bad_hand="ignore"))


def test_a_merge_game_without_its_description_and_an_unknown_merge_tag():
    text = (DATA / "merge.xml").read_text()
    no_description = text.split("\n", 1)[1]
    ids, problems = _read(no_description)
    assert ids == [] and [p.kind for p in problems] == ["malformed", "malformed"]
    assert "without the <description> that names its game" in str(problems[0])
    odd = text.replace('<event sequence="15" type="CHAT"', '<oddity sequence="15" type="CHAT"')
    ids, problems = _read(odd)
    assert ids == ["70000001-1", "70000001-2"] and [p.kind for p in problems] == ["garbage"]


@pytest.mark.parametrize("room, date", [("kingsclub", "2024-03-08 20:10:00"), ("pokerstars", "2024/03/05 21:14:03")])
def test_a_date_with_numbers_beyond_any_clock_is_named_not_a_crash(room, date):
    # int() reads any length of digits; datetime then raised OverflowError (not a ValueError), which went out
    # of parse() as a crash.  Now the hand is named and the other hands come through.
    text = (DATA / f"{room}.txt").read_text(encoding="utf-8")
    assert date in text, date
    broken = text.replace(date, date[:-2] + "9" * 30, 1)
    problems: list[HandHistoryError] = []
    hands = list(parse(broken, on_bad_hand=problems.append))
    assert len(hands) == len(list(parse(text))) - 1
    assert len(problems) == 1 and "is not a date and time" in str(problems[0]) and problems[0].line >= 1
