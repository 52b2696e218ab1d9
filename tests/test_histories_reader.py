"""Reading real hand histories: every room's fields, encodings, mixed files, sources, streaming.

The hands in tests/data/histories were written for these tests in each room's format (no room's file is
copied); the numbers below were worked by hand from them.
"""

from __future__ import annotations

import codecs
import gc
import io
import os
import random
import tracemalloc
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import pytest

from badacey_fast.cards import parse_cards
from badacey_fast.errors import ConfigError
from badacey_fast.histories import Event, RealHand, parse, reader
from badacey_fast.histories.model import EXAMPLE
from badacey_fast.histories.sources import decode, paths_of, sources

# Not backend_independent: a PokerStars hand is read in C on the C twin (csrc/cpython/stars.c), in Python on
# the Python twin; each test runs on both.

DATA = Path(__file__).parent / "data" / "histories"


def _hands(name: str) -> list[RealHand]:
    return list(parse(DATA / name, on_bad_hand="error"))


def _ids(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def _events(hand: RealHand, player: str) -> list[tuple[int, str, int | None, int | None]]:
    return [(e.street, e.kind, e.amount, e.to) for e in hand.actions if e.player == player]


def test_pokerstars_cash_hand_fields():
    h = _hands("pokerstars.txt")[0]
    assert (h.site, h.hand_id, h.variant, h.game, h.betting, h.draws, h.hand_size) == (
        "PokerStars", "900000001", "Badugi", "badugi", "fixed", 3, 4)
    assert h.started == datetime(2024, 3, 5, 15, 14, 3, tzinfo=h.started.tzinfo)
    assert h.started.utcoffset() == timedelta(hours=-5)  # the ET time in brackets: New York, winter
    assert (h.table, h.max_seats, h.button, h.currency, h.scale) == ("Fixture I", 6, 3, "USD", 2)
    assert (h.limits, h.blinds, h.ante) == ((25, 50), (10, 25), 0)
    assert [(s.number, s.name, s.stack, s.dealt) for s in h.seats] == [
        (1, "Alma", 1240, True), (2, "Bruno", 800, True), (3, "Cora", 1510, True), (5, "Dmitri", 2000, False)]
    assert h.players == ["Alma", "Bruno", "Cora"]
    # Raise "$0.25 to $0.50" from nothing in: 50 chips added, a round total of 50; "calls $0.40" adds 40.
    assert _events(h, "Cora")[:2] == [(0, "raise", 50, 50), (1, "draw", None, None)]
    assert _events(h, "Alma")[:2] == [(0, "small blind", 10, None), (0, "call", 40, None)]
    assert (h.collected, h.rake, h.pot) == ({"Bruno": 405}, 20, 425)
    assert h.put_in() == {"Alma": 175, "Bruno": 175, "Cora": 75, "Dmitri": 0}
    assert h.nets() == {"Alma": -175, "Bruno": 230, "Cora": -75, "Dmitri": 0}
    assert h.money(h.collected["Bruno"]) == Decimal("4.05")
    # Alma's cards after the deal and after each draw; Bruno's only at the showdown (after his last draw).
    assert h.holdings["Alma"] == [_ids("Kd 4s 7h 2c"), _ids("4s 7h 2c 9d"), _ids("4s 7h 2c 9d"), _ids("4s 7h 2c 9d")]
    assert h.holdings["Bruno"] == [None, None, None, _ids("3h 5c 8d As")]
    assert h.holdings["Cora"] == [None, None, None, None]
    first_draw = next(e for e in h.actions if e.kind == "draw" and e.player == "Alma")
    assert (first_draw.drawn, first_draw.cards, first_draw.new) == (1, _ids("Kd"), _ids("9d"))
    assert h.shown() == {"Alma": _ids("4s 7h 2c 9d"), "Bruno": _ids("3h 5c 8d As")}


def test_pokerstars_dead_blind_live_post_and_tournament_chips():
    hands = _hands("pokerstars.txt")
    dead = hands[2]
    assert _events(dead, "Elif")[:2] == [(0, "dead blind", 50, None), (0, "post", 100, None)]
    assert [e for e in dead.actions if e.kind == "uncalled"] == [
        Event(0, "Alma", "uncalled", 100, line=e.line) for e in dead.actions if e.kind == "uncalled"]
    assert dead.put_in()["Alma"] == 100 and dead.collected == {"Alma": 400} and dead.rake == 0
    tour = hands[4]
    assert (tour.tournament, tour.currency, tour.scale, tour.limits, tour.blinds) == ("3000001", "chips", 0, (60, 120), (30, 60))
    cora_raise = next(e for e in tour.actions if e.player == "Cora" and e.kind == "raise")
    assert (cora_raise.amount, cora_raise.to, cora_raise.all_in) == (90, 150, True)


def test_other_games_are_read_and_named():
    holdem = _hands("pokerstars.txt")[3]
    assert (holdem.variant, holdem.game, holdem.betting, holdem.draws) == ("Hold'em", None, "no", 0)
    assert holdem.blinds == (1, 2) and holdem.limits is None
    boss, = _hands("boss.xml")
    ongame, = _hands("ongame.txt")
    assert (boss.site, boss.variant, boss.game, boss.rake, boss.collected) == ("Boss", "5 Card Draw", None, 25, {"Bruno": 775})
    assert boss.holdings["Alma"][0] == _ids("5h 6s 6d 9s Jd")  # Boss card numbers: quarters d, c, h, s
    assert (ongame.site, ongame.variant, ongame.currency, ongame.collected, ongame.rake) == (
        "OnGame", "5 Card Draw", "USD", {"Alma": 21}, 1)
    assert ongame.started == datetime(2010, 9, 13, 0, 21, 2, tzinfo=timezone(timedelta(hours=1)))


def test_fulltilt_kingsclub_winamax_merge_fields():
    a5, td = _hands("fulltilt.txt")
    assert (a5.site, a5.game, a5.button, a5.blinds, a5.limits) == ("Full Tilt", "a5", 1, (25, 50), (50, 100))
    assert [s.name for s in td.seats if not s.dealt] == ["Steve Z"]  # a name with a space, sitting out
    assert _events(td, "Alma")[-3:] == [(1, "uncalled", 50, None), (1, "muck", None, None), (1, "collect", 410, None)]
    badacey, badeucy = _hands("kingsclub.txt")
    assert (badacey.game, badacey.ante, badacey.blinds, badacey.limits, badacey.started) == (
        "badacey", 25, (50, 100), (100, 200), datetime(2024, 3, 8, 20, 10))
    # KingsClub's "calls 2" is the round total: the small blind of 0.50 adds 1.50.
    assert _events(badacey, "Cora")[2] == (0, "call", 150, None)
    assert badeucy.game == "badeucy" and len(badeucy.players) == 7 and badeucy.collected == {"Bruno": 1300, "Elif": 1300}
    first, second = _hands("winamax.txt")
    assert (first.currency, first.rake, first.pot, first.collected) == ("EUR", 90, 1700, {"Bruno": 1610})
    # Winamax writes no uncalled bet: it pays it inside "collected"; the reader returns it as one.
    assert sorted(_events(second, "Cora")[-2:]) == [(0, "collect", 250, None), (0, "uncalled", 100, None)]
    assert second.collected == {"Cora": 250} and second.put_in()["Cora"] == 100
    # Winamax shows the hero's cards only at a stand pat: the first draw follows from them.
    assert first.holdings["Alma"][:2] == [_ids("2s 4d 6c 8h Qd"), _ids("2s 4d 6c 8h 3c")]
    merged, cancelled = _hands("merge.xml")
    assert (merged.site, merged.hand_id, merged.variant, merged.game, merged.button) == ("Merge", "70000001-1", "2-7 Lowball", "27", 2)
    all_in = next(e for e in merged.actions if e.player == "Bruno" and e.all_in)
    assert (all_in.kind, all_in.amount, all_in.to) == ("call", 100, None)  # ALL_IN: his last dollar, a call
    assert merged.collected == {"Alma": 2500} and merged.rake == 100 and cancelled.status == "cancelled"


ENCODINGS = [
    ("utf-8", b"", "\n"), ("utf-8", codecs.BOM_UTF8, "\n"), ("utf-8", codecs.BOM_UTF8, "\r\n"),
    ("utf-16-le", codecs.BOM_UTF16_LE, "\r\n"), ("utf-16-be", codecs.BOM_UTF16_BE, "\n"), ("utf-8", b"", "\r"),
]


@pytest.mark.parametrize("encoding, bom, newline", ENCODINGS)
def test_every_encoding_and_line_end_reads_the_same_hands(tmp_path, encoding, bom, newline):
    text = (DATA / "fulltilt.txt").read_text(encoding="utf-8") + (DATA / "pokerstars.txt").read_text(encoding="utf-8")
    path = tmp_path / "hands.txt"
    path.write_bytes(bom + text.replace("\n", newline).encode(encoding))
    want = [h.to_dict() for h in parse(text)]
    got = [h.to_dict() for h in parse(path, on_bad_hand="error")]
    for d in want + got:
        d.pop("file")
    assert got == want and len(got) == 7


def test_a_byte_that_is_not_utf8_is_read_as_windows_1252():
    raw = EXAMPLE.replace("Villain", "Jos\u00e9").encode("cp1252")  # é is one byte, 0xE9: not UTF-8
    hand = next(parse(raw))
    assert hand.players == ["Hero", "Jos\u00e9"]
    assert decode(b"\xff\xfe" + "5€".encode("utf-16-le")) == "5€"


def test_one_file_mixing_rooms_is_read_hand_by_hand_and_site_picks_one_room():
    names = ["pokerstars.txt", "fulltilt.txt", "kingsclub.txt", "winamax.txt", "merge.xml", "ongame.txt", "boss.xml"]
    mixed = "\n".join((DATA / n).read_text(encoding="utf-8") for n in names)
    sites = [h.site for h in parse(mixed, on_bad_hand="error")]
    assert sites == ["PokerStars"] * 5 + ["Full Tilt"] * 2 + ["KingsClub"] * 2 + ["Winamax"] * 2 + ["Merge"] * 2 + [
        "OnGame", "Boss"]
    problems = []
    only = [h.site for h in parse(mixed, site="kings club", on_bad_hand=problems.append)]
    assert only == ["KingsClub", "KingsClub"]
    assert problems and all(p.kind == "garbage" for p in problems)  # the other rooms' text, named, not read
    with pytest.raises(ConfigError, match="unknown site 'Party'"):
        next(parse(mixed, site="Party"))


def test_sources_folders_globs_file_objects_bytes_and_lists(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.txt").write_text(EXAMPLE)
    (tmp_path / "a" / ".hidden.txt").write_text(EXAMPLE.replace("#1:", "#9:"))
    (tmp_path / "two.txt").write_text(EXAMPLE.replace("#1:", "#2:"))
    assert [h.hand_id for h in parse(tmp_path)] == ["1", "2"]  # sorted, recursive, hidden files left out
    assert paths_of(str(tmp_path / "*.txt")) == [str(tmp_path / "two.txt")]
    assert [h.hand_id for h in parse(str(tmp_path / "**" / "*.txt"))] == ["1", "2"]
    assert [h.hand_id for h in parse(io.StringIO(EXAMPLE))] == ["1"]
    assert [h.hand_id for h in parse(io.BytesIO(b"\xef\xbb\xbf" + EXAMPLE.encode()))] == ["1"]
    assert [h.hand_id for h in parse([EXAMPLE.encode(), tmp_path / "two.txt"])] == ["1", "2"]
    assert [name for name, _ in sources([EXAMPLE, str(tmp_path / "two.txt")])] == ["<text>", str(tmp_path / "two.txt")]
    with pytest.raises(FileNotFoundError, match="no hand histories at"):
        list(parse(tmp_path / "missing.txt"))
    with pytest.raises(TypeError, match="hand histories must be a path, text, bytes"):
        list(parse(42))


def _big_file(path: Path, hands: int) -> None:
    with open(path, "w") as f:
        for k in range(hands):
            f.write(EXAMPLE.replace("#1:", f"#{k}:") + "\n")


def _peak(path: Path) -> tuple[int, int]:
    """(hands read, the peak of the memory allocated while reading above what stays allocated after it).
    What stays are bounded caches (CPython keeps up to 2000 freed tuples of each size for reuse, the
    reader's amounts): a reader holding the file, or its hands, would show in the peak alone."""
    gc.collect()
    tracemalloc.start()
    count = sum(1 for _ in parse(path, dedupe=False))
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return count, peak - current


@pytest.mark.exhaustive
def test_memory_is_flat_in_the_file_size(tmp_path, monkeypatch):
    # Blocks of 32 Ki characters (instead of 1 Mi) keep the files small and the test quick; the reader
    # holds a block and the hand being read, whatever the file's size.
    monkeypatch.setattr(reader, "BLOCK", 1 << 15)
    small, large = tmp_path / "small.txt", tmp_path / "large.txt"
    _big_file(small, 400)   # ~0.3 MB: 9 blocks
    _big_file(large, 3200)  # 8x the text
    n_small, peak_small = _peak(small)
    n_large, peak_large = _peak(large)
    assert (n_small, n_large) == (400, 3200)
    assert os.path.getsize(large) > 7 * os.path.getsize(small)
    # Measured ~0.2 MB both; reading the large file whole would hold at least its 2.2 MB.
    assert peak_large < 1.3 * peak_small + (64 << 10)
    assert peak_large < os.path.getsize(large) / 4


def test_every_first_line_begins_with_its_rooms_prefix():
    """The reader tries a room's first-line expression only on lines beginning with one of the room's
    ``prefixes``: every line the expression takes must begin so (else hands would be lost), in every
    fixture and in first lines written for this test; and lines the prefixes let through but the
    expression refuses stay inside the hand before them."""
    import re

    from badacey_fast.histories.sites import SITES

    lines = [t for f in sorted(DATA.iterdir()) for t in decode(f.read_bytes()).split("\n")]
    lines += ["PokerStars Zoom Hand #1: Badugi Limit", "PokerStars Home Game #2:", "FullTilt Poker Game #3",
              "Full Tilt Poker Game #4", "#40201390: Limit Badacey - 22/44", "<description type='x'>",
              "***** History for hand R5-1 *****", "Winamax Poker - CashGame - HandId: #1", "<HISTORY ID='1'>"]
    taken = {s.name: 0 for s in SITES}
    for site in SITES:
        assert site.prefixes, site.name
        for t in lines:
            if re.compile(site.start, re.M).match(t):
                assert t.startswith(site.prefixes), (site.name, t)
                taken[site.name] += 1
    assert all(taken.values()), taken  # every room's expression was tried on first lines it takes
    # "Full" lets "Full house" through to the expression, which refuses it: the line stays in its hand.
    text = EXAMPLE.replace("Villain: folds\n", "Villain: folds\nFull house talk\n")
    problems: list[object] = []
    assert [h.hand_id for h in parse(text, on_bad_hand=problems.append)] == ["1"] and problems == []


def test_first_lines_found_by_the_prefix_scan_are_the_ones_finditer_finds():
    """The reader looks for the rooms' first lines only where a line break and one of their prefixes are
    (one scan for all prefixes); it must find exactly what the first-line expression finds at every line:
    in every fixture, and in text where first lines follow each other, open the text, or come as a prefix
    without the rest of the first line."""
    texts = ["\n" + decode(f.read_bytes()) for f in sorted(DATA.iterdir())]
    texts.append("\nPokerStars Hand #1: \nPokerStars Hand #2: x\n#40201390: Limit Badacey - 22/44\n#4: no"
                 "\nFull house\n<game id=\n<HISTORY ID='1'>\nWinamax Poker - \nFullTilt Poker Game #3\n")
    for buf in texts:
        found = [(m.start(), m.lastgroup) for m in reader._firsts(buf)]
        assert found == [(m.start(), m.lastgroup) for m in reader._STARTS.finditer(buf)]
    assert [g for _, g in ((m.start(), m.lastgroup) for m in reader._firsts(texts[-1]))] == [
        "s0", "s0", "s3", "s4", "s6", "s2", "s1"]


def test_every_hand_and_problem_is_at_the_line_a_plain_count_of_line_breaks_gives():
    """The reader counts a hand's lines from the split it reads them with (no second pass over the text):
    every hand's line, every event's line and every problem's line must be where counting the line breaks
    of the text puts them -- in a text mixing every room, with trailing blanks and tabs on some lines (the
    hands whose lines are stripped), garbage, a hand cut short, and a room not asked for."""
    names = ["pokerstars.txt", "fulltilt.txt", "kingsclub.txt", "winamax.txt", "merge.xml", "ongame.txt", "boss.xml"]
    parts = [(DATA / n).read_text(encoding="utf-8") for n in names]
    parts[0] = parts[0].replace(" folds\n", " folds \n", 1)  # a trailing blank
    parts[2] = parts[2].replace("\n", "\t\n", 3)  # tabs at the ends of the first lines
    cut = EXAMPLE.split("*** SUMMARY ***")[0]
    text = "junk\n\n" + "\n".join(parts) + "stray line\n" + cut + EXAMPLE.replace("#1:", "#9:")
    lines = text.split("\n")
    for site in ("auto", "kingsclub"):
        problems: list[object] = []
        hands = list(parse(text, site=site, on_bad_hand=problems.append))
        assert hands and problems
        for h, after in zip(hands, [h.line for h in hands[1:]] + [len(lines) + 1]):
            first = lines[h.line - 1]
            assert h.hand_id in first, (h.site, h.hand_id, h.line, first)
            assert all(h.line < e.line < after for e in h.actions), h.hand_id  # its events among its lines
            if h.site not in ("Merge", "Boss"):  # (the XML rooms name players by seat)
                assert all(e.player in lines[e.line - 1] for e in h.actions if e.kind == "fold"), h.hand_id
        for p in problems:
            assert 1 <= p.line <= len(lines)
        if site == "auto":
            assert [p.line for p in problems if p.kind == "garbage"][0] == 1
            truncated = [p for p in problems if p.kind == "malformed"]
            assert [p.line for p in truncated] == [text[: text.index(cut) + len(cut)].count("\n")]


@pytest.mark.parametrize("spelling", ["Al ma", "Alma Bee"])
def test_kingsclub_lines_read_by_one_partition_equal_the_names_split_path(spelling):
    """KingsClub's reader finds a name by one partition when no name holds a space or ": " (Names.split
    inlined); a name with one takes Names.split.  Both must read the same hands: the fixture with Alma
    renamed must give the same events, with the name mapped back."""
    text = (DATA / "kingsclub.txt").read_text(encoding="utf-8")
    plain = list(parse(text, on_bad_hand="error"))
    spaced = list(parse(text.replace("Alma", spelling), on_bad_hand="error"))
    back = [tuple(e._replace(player="Alma") if e.player == spelling else e for e in h.actions) for h in spaced]
    assert back == [h.actions for h in plain] and len(plain) == 2
    assert [h.collected for h in plain] == [{("Alma" if k == spelling else k): v for k, v in h.collected.items()}
                                            for h in spaced]


def test_a_name_is_split_from_its_line_as_the_longest_name_that_fits():
    """Names.split, with and without a player whose name has a space (the fast path takes the first
    word when no name has one): the longest seated name followed by the separator, or None."""
    from badacey_fast.histories.sites.words import Names

    def longest(names: list[str], line: str, sep: str) -> tuple[str, str] | None:
        fits = [n for n in names if line.startswith(n + sep)]
        if not fits:
            return None
        n = max(fits, key=len)
        return n, line[len(n) + len(sep):]

    lines = ["Hero calls 2", "Hero: calls 2", "Hero", "Hero ", "Her calls", "Heroes bets 4", "Villain folds",
             "nl pokerr folds", "nl folds", "nl: checks", "a:b raises to 4", " leading space", "Dealt to Hero [Ah]"]
    for names in (["Hero", "Heroes", "Villain", "a:b"], ["Hero", "nl pokerr", "nl", "Heroes"]):
        seated = Names(names)
        assert seated.spaced == any(" " in n for n in names)
        for line in lines:
            for sep in (" ", ": "):
                assert seated.split(line, sep) == longest(names, line, sep), (names, line, sep)
    assert Names(["Hero", "Heroes"]).split("Heroes bets 4") == ("Heroes", "bets 4")
    assert Names(["nl", "nl pokerr"]).split("nl pokerr folds") == ("nl pokerr", "folds")


def test_an_amount_read_once_is_read_again_in_another_unit():
    """Amounts are cached by their text per unit: the same text in cents and in chips gives each its own
    value, and an amount refused in one unit is refused again (not taken from the other unit's cache)."""
    from badacey_fast.histories.text import amount

    assert (amount("15", 2), amount("15", 0), amount("15", 2)) == (1500, 15, 1500)
    assert amount("1.5", 2) == 150
    for _ in range(2):
        with pytest.raises(ValueError, match="more than 0 decimals"):
            amount("1.5", 0)
    assert amount("$1,234.5", 2) == 123450


def test_a_date_and_time_read_with_the_digit_lookup_is_the_one_int_reads():
    # when() looks up two ASCII digits; int() takes more (" 8", "+8", other scripts' digits): every
    # shape either way gives the datetime (or the error) int() gives.
    from badacey_fast.errors import BadaceyError
    from badacey_fast.histories.sites.words import when, zone

    def by_int(text: str, tz: str | None) -> object:
        try:
            return datetime(int(text[:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]), int(text[14:16]),
                            int(text[17:19]), tzinfo=zone(tz))
        except ValueError:
            return "refused"

    def by_when(text: str, tz: str | None) -> object:
        try:
            return when(text, tz)
        except BadaceyError as err:
            assert repr(text) in str(err)
            return "refused"

    rng = random.Random(5)
    pieces = [f"{k:02d}" for k in range(100)] + [" 8", "+8", "-1", "\u0668\u0660", "1\u0668", "x1", "  "]
    for _ in range(3000):
        h, m, s = (rng.choice(pieces) for _ in range(3))
        text = f"{rng.choice(['2011', '2024'])}/{rng.choice(['01', '06', '12', '13'])}/{rng.choice(['01', '26', '31'])} {h}:{m}:{s}"
        tz = rng.choice([None, "ET", "UTC", "CET"])
        assert by_when(text, tz) == by_int(text, tz), text


@pytest.mark.parametrize("room", ["pokerstars", "fulltilt"])
def test_a_session_s_first_lines_read_once_give_every_hand_what_reading_each_gives(room, monkeypatch):
    # PokerStars and Full Tilt keep what a first line's game and stakes words give (pokerstars._TABLES,
    # fulltilt._BODIES): every hand read with the words kept is the hand read with them read afresh.
    from badacey_fast.histories.sites import fulltilt, pokerstars

    kept = pokerstars._TABLES if room == "pokerstars" else fulltilt._BODIES
    text = (DATA / f"{room}.txt").read_text(encoding="utf-8-sig")
    chunks = (text, text.replace("#", "#9"))
    kept.clear()
    warm = [h.to_dict() for chunk in chunks for h in parse(chunk, dedupe=False)]
    assert len(kept) >= 1
    cold = []
    for chunk in chunks:
        for h in parse(chunk, dedupe=False):
            cold.append(h.to_dict())
            kept.clear()
    assert warm == cold and len(warm) >= 4
