"""The C reader of PokerStars and Full Tilt hands (csrc/cpython/stars.c, ``kernel.read_stars`` and
``read_tilt``) held equal to its Python twins (``pokerstars._play``, ``fulltilt._play``): on every fixture
hand and hand-written edge hands it reads, field for field the builder's state the twin leaves; on hundreds of mutated, truncated and garbled hands every RealHand field and
every error message is the same on both twins (the C reader reads a hand exactly as the twin does, or leaves
it to the twin).  Under the sanitizer job these hands also prove that no input makes it read past a line."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from badacey_fast import kernel
from badacey_fast.errors import HandHistoryError
from badacey_fast.histories import parse
from badacey_fast.histories.build import HandBuilder
from badacey_fast.histories.model import EXAMPLE, RealHand
from badacey_fast.histories.sites import fulltilt, kingsclub, pokerstars
from badacey_fast.histories.sites.words import CONSTS

pytestmark = pytest.mark.backend_independent  # each test reads with both twins itself

DATA = Path(__file__).parent / "data" / "histories"

# Hand-written hands at the edges of what the C reader takes (and a few it leaves to the twin).
CRAFTED = [
    # a tournament: antes, chips with commas, an all-in call and raise, side pots, names with spaces
    """PokerStars Hand #910000001: Tournament #55, $3+$0.30 USD Badugi Limit - Level IV (40/80) - 2024/04/01 10:00:00 ET
Table '55 1' 9-max Seat #2 is the button
Seat 1: nl pokerr (1,500 in chips)
Seat 2: nl (800 in chips)
Seat 3: Edda (1,200 in chips) is sitting out
Seat 4: Finn (2,000 in chips)
nl pokerr: posts the ante 5
nl: posts the ante 5
Finn: posts the ante 5
Edda: is sitting out
nl pokerr: posts small blind 20
Finn: posts big blind 40
*** DEALING HANDS ***
Dealt to nl pokerr [Ah 2c 3d 4s]
nl: raises 755 to 795 and is all-in
nl pokerr: raises 680 to 1,475 and is all-in
Finn: calls 1,435
*** FIRST DRAW ***
nl: stands pat
nl pokerr: stands pat on [Ah 2c 3d 4s]
Finn: discards 1 card
*** SECOND DRAW ***
nl: discards 1 card
nl pokerr: stands pat
Finn: discards 2 cards
*** THIRD DRAW ***
nl: stands pat
nl pokerr: stands pat
Finn: stands pat
*** SHOW DOWN ***
nl pokerr: shows [Ah 2c 3d 4s] (Badugi: 4,3,2,A)
Finn: mucks hand
nl: shows [5h 6c 7d 8s] (Badugi: 8,7,6,5)
nl pokerr collected 1,360 from side pot-1
nl pokerr collected 2,400 from main pot
Finn said, "nh"
*** SUMMARY ***
Total pot 3,760 Main pot 2,400. Side pot-1 1,360. | Rake 0
Seat 1: nl pokerr (small blind) showed [Ah 2c 3d 4s] and won (3,760)
Seat 2: nl (button) showed [5h 6c 7d 8s] and lost
Seat 4: Finn (big blind) mucked [9h Tc Jd Qs]
""",
    # cash: an uncalled bet, a reshuffle, three groups dealt, a quiet verb, a board line in the summary
    """PokerStars Hand #910000002:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2024/04/01 10:05:00 ET
Table 'Edge II' 6-max Seat #1 is the button
Seat 1: Hero ($5 in chips)
Seat 2: Ola ($4.20 in chips)
Hero: posts small blind $0.05
Ola: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Hero [2h 3c 4d 5s Kh]
Hero: raises $0.10 to $0.20
Ola: calls $0.10
*** FIRST DRAW ***
Ola: discards 2 cards
Hero: discards 1 card [Kh]
Dealt to Hero [2h 3c 4d 5s] [8c]
Ola: checks
Hero: bets $0.10
Ola: calls $0.10
*** SECOND DRAW ***
The deck is reshuffled
Ola: discards 1 card
Hero: discards 1 card [8c]
Dealt to Hero [2h 3c 4d] [5s] [7d]
Ola: bets $0.20
Hero: raises $0.20 to $0.40
Ola: doesn't show hand
Ola: folds
Uncalled bet ($0.20) returned to Hero
Hero collected $0.95 from pot
*** SUMMARY ***
Total pot $1 | Rake $0.05
Board [2c]
Seat 1: Hero (button) (small blind) collected ($0.95)
Seat 2: Ola (big blind) folded on the 2nd Draw
""",
    # left to the twin: small & big blinds, a verb nobody knows, euros
    """PokerStars Hand #910000003:  Badugi Limit (€0.10/€0.20 EUR) - 2024/04/01 10:10:00 CET
Table 'Edge III' 6-max Seat #1 is the button
Seat 1: Ann (€5 in chips)
Seat 2: Bo (€5 in chips)
Seat 3: Cy (€5 in chips)
Ann: posts small blind €0.05
Bo: posts big blind €0.10
Cy: posts small & big blinds €0.15
Cy: dances
*** DEALING HANDS ***
Ann: folds
Bo: checks
Cy: checks
*** FIRST DRAW ***
Bo: stands pat
Cy: stands pat
Bo: checks
Cy: checks
*** SUMMARY ***
Total pot €0.35 | Rake €0
""",
]

TILT_CRAFTED = [
    # a tournament: antes, a dead post, an all-in raise, a tie, side pots, a name with a space, three groups
    """Full Tilt Poker Game #42000000001: $10 + $1 Sit & Go (123456789), Table 1 - 25/50 Ante 5 - Limit Badugi - 10:00:00 ET - 2011/04/11
Seat 1: Steve Z (1,500)
Seat 2: Steve (700)
Seat 3: Ola (2,000), is sitting out
Seat 4: Pim (1,200)
Steve Z antes 5
Steve antes 5
Pim antes 5
Ola is sitting out
Steve Z posts the small blind of 25
Steve posts the big blind of 50
Pim posts a dead small blind of 25
The button is in seat #4
*** HOLE CARDS ***
Dealt to Steve Z [Ah 2c 3d 4s]
Pim calls 50
Steve Z raises to 100
Steve raises to 695, and is all in
Pim calls 645
Steve Z calls 595
*** FIRST DRAW ***
Steve Z stands pat on [Ah 2c 3d 4s]
Steve discards 1 card
Pim discards 2 cards
Pim has 15 seconds left to act
*** SECOND DRAW ***
Steve Z discards 1 card [4s]
Dealt to Steve Z [Ah 2c 3d] [4s] [4h]
Pim stands pat
Steve Z bets 100
Pim folds
Uncalled bet of 100 returned to Steve Z
*** THIRD DRAW ***
Steve Z stands pat
*** SHOW DOWN ***
Steve Z shows [Ah 2c 3d 4h]
Steve shows [Ad 2h 3c 4s]
Steve Z ties for the pot (1,055)
Steve ties for the side pot #1 (1,050)
*** SUMMARY ***
Total pot 2,125 | Rake 20
Seat 1: Steve Z showed [Ah 2c 3d 4h] and won (1,055)
Seat 2: Steve showed [Ad 2h 3c 4s] and won (1,050)
Seat 4: Pim (button) mucked [Kh Qc Jd Ts]
Duration 3m
""",
]

# KingsClub (kernel.read_kings, the twin kingsclub._play): an all-in, a live post, a raise capped by the chips
# behind, draws shown and not, a muck, an unknown verb and a chat line passed over, a name with a colon
# (read in C) and, left to the twin, a name with a space, run it twice and a Drawmaha board.
KINGS_CRAFTED = [
    """#60000001: Limit Badacey - 2/4
2024-05-01 12:00:00
Table 'Edge Mix' Seat 3 is the button
Seat 1: Ivo (30)
Seat 2: Jo:y (12.50)
Seat 3: Kit (1,040.75)
*** 1ST BETTING ROUND ***
Ivo: posts ante 0.50
Jo:y: posts ante 0.50
Kit: posts ante 0.50
Ivo: posts the small blind 1
Jo:y: posts the big blind 2
Kit: posts blind 2
Dealt to Ivo: [X X X X X]
Dealt to Jo:y: [Ah 2c 3d 4s 9h]
Dealt to Kit: [X X X X X]
Kit raises to 4
Ivo calls 4
Jo:y raises to 12 and is all-in
Kit calls 12
Ivo folds
Kit says hi
*** 1ST DRAW ***
Jo:y discards [9h] draws [5h]
Kit draws 2
*** 2ND BETTING ROUND ***
Kit checks
*** 2ND DRAW ***
Jo:y stands pat
Kit discards [X X] draws [X X]
*** 3RD BETTING ROUND ***
*** 3RD DRAW ***
Jo:y stands pat
Kit stands pat
*** 4TH BETTING ROUND ***
Jo:y shows [Ah 2c 3d 4s 5h]
Kit mucks [Kh Kd Qc Qs 7h]
*** SUMMARY ***
Seat 1: Ivo (25.50) -4.50
Seat 2: Jo:y (23.50) +11
Seat 3: Kit (1,028.25) -12.50
Rake 0.50
Jo:y wins (23.50) from pot
""",
    """#60000002: Limit Badeucey - 2/4
2024-05-01 12:05:00
Table 'Edge Mix' Seat 1 is the button
Seat 1: Lu Ma (40)
Seat 2: Mo (40)
*** 1ST BETTING ROUND ***
Lu Ma: posts the small blind 1
Mo: posts the big blind 2
Dealt to Mo: [2h 3c 4d 5s 7h]
Lu Ma folds
*** SUMMARY ***
Seat 1: Lu Ma (39) -1
Seat 2: Mo (41) +1
Rake 0
Mo wins (3) from pot
""",
    """#60000003: No Limit 2-7 Single Draw - 25/50
2024-05-01 12:10:00
Table 'Edge NL' Seat 2 is the button
Seat 1: Ned (500)
Seat 2: Oz (500)
*** 1ST BETTING ROUND ***
Oz: posts the small blind 25
Ned: posts the big blind 50
Dealt to Ned: [2h 3c 4d 5s 8h]
Dealt to Oz: [X X X X X]
Oz raises to 500 and is all-in
Ned calls 500
*** 1ST DRAW ***
Ned stands pat
Oz draws 1
Run 1: Ned shows [2h 3c 4d 5s 8h]
Run 2: Oz shows [2c 3d 4h 6s 7c]
*** SUMMARY ***
Seat 1: Ned (500) +0
Seat 2: Oz (500) +0
Rake 0
Ned wins (500) from pot
Oz wins (500) from pot
""",
]

STARS_FIXTURES = (DATA / "pokerstars.txt").read_text(encoding="utf-8")
TILT_FIXTURES = (DATA / "fulltilt.txt").read_text(encoding="utf-8")
KINGS_FIXTURES = (DATA / "kingsclub.txt").read_text(encoding="utf-8")
TEXTS = [STARS_FIXTURES, EXAMPLE] + CRAFTED + [TILT_FIXTURES] + TILT_CRAFTED + [KINGS_FIXTURES] + KINGS_CRAFTED


def _hands_of(text: str) -> list[str]:
    marks = [k for k in range(len(text)) if (text.startswith(("PokerStars ", "Full Tilt Poker ", "FullTiltPoker "), k)
                                             or (text.startswith("#", k) and text[k + 1:k + 2].isdigit()))
             and (k == 0 or text[k - 1] == "\n")]
    return [text[a:b] for a, b in zip(marks, marks[1:] + [len(text)])]


HANDS = [h for t in TEXTS for h in _hands_of(t)]


def _error(e: HandHistoryError) -> tuple[object, ...]:
    return (str(e), type(e).__name__, e.file, e.line, e.site, e.hand_id, e.variant, getattr(e, "kind", None))


def _hand(h: RealHand) -> tuple[object, ...]:
    # Every field, types included (an Event/Seat is the NamedTuple, ints are ints, dict order kept).
    fields = tuple((slot, getattr(h, slot)) for slot in RealHand.__mro__[1].__slots__)
    kinds = tuple((type(e).__name__, tuple(type(v).__name__ for v in e)) for e in h.actions)
    seat_kinds = tuple((type(s).__name__, tuple(type(v).__name__ for v in s)) for s in h.seats)
    return fields, kinds, seat_kinds, list(h.collected.items()), h.to_dict()


def _read(text: str, twin: str) -> tuple[list[object], list[object]]:
    errors: list[HandHistoryError] = []
    with kernel.using(twin):
        # a file object: a mutant of one line is text, not a path
        hands = [_hand(h) for h in parse(io.StringIO(text), on_bad_hand=errors.append)]
    return hands, [_error(e) for e in errors]


def _builder_state(text: str, reader: str) -> tuple[object, ...] | None:
    """The builder's fields after the seats, the play, the summary and ``finish``: read by the C reader, or
    by the twin (None when the C reader leaves the hand, or the twin refuses it)."""
    lines = [t.rstrip() for t in text.split("\n")]
    if text.startswith("#"):
        return _kings_state(lines, reader)
    tilt = not text.startswith("PokerStars")
    room = fulltilt if tilt else pokerstars
    hand = RealHand("Full Tilt" if tilt else "PokerStars", "", "<text>", 1)
    stakes = room._header(lines[0], hand)
    i = 1
    while not tilt and i < len(lines) and not lines[i]:
        i += 1
    if not tilt and i < len(lines) and lines[i].startswith("Table '"):
        i += 1
    b = HandBuilder(hand)
    if reader == "c":
        with kernel.using("c"):
            got = (kernel.read_tilt if tilt else kernel.read_stars)(lines, i, 1, hand.scale, hand.draws,
                                                                    hand.hand_size, CONSTS)
        if got is None:
            return None
        b.seats, b.behind, b.events, b.held, b.collected, b.shown, b.posted, hand.pot, hand.rake, garbage, button = got
        if button is not None:
            hand.button = button
        if tilt:
            fulltilt._end(b, stakes)  # as parse() does: the twin's _play ends with it
        else:
            pokerstars._stakes(hand, b.events, stakes, "ante" in b.posted)
            b.finish()
    else:
        try:
            _, garbage = room._play(b, lines, i, 1, stakes)
        except (HandHistoryError, ValueError, IndexError, KeyError):
            return None
    return (list(b.seats.items()), b.behind, b.events, b.held, list(b.collected.items()), b.shown, b.posted,
            hand.pot, hand.rake, garbage, hand.blinds, hand.limits, hand.ante, hand.button, hand.status)


def _kings_state(lines: list[str], reader: str) -> tuple[object, ...] | None:
    """A KingsClub hand's builder fields where its summary starts (kingsclub.parse's state there)."""
    hand = RealHand("KingsClub", "", "<text>", 1)
    hand.draws, hand.hand_size, hand.scale = 3, 5, 2
    i = 1 + (len(lines) > 1 and lines[1][:1].isdigit())
    i += i < len(lines) and lines[i].startswith("Table '")
    b = HandBuilder(hand)
    if reader == "c":
        with kernel.using("c"):
            got = kernel.read_kings(lines, i, 1, 2, 3, 5, CONSTS)
        if got is None:
            return None
        (b.seats, b.behind, b.events, b.held, _, b.shown, b.posted, _, _, _, _, b.street, b.drawing, b.round_bet,
         summary) = got
    else:
        try:
            _, summary = kingsclub._play(b, lines, i, 1)
        except (HandHistoryError, ValueError, IndexError, KeyError):
            return None
        if summary < 0:
            return None
    bets = {name: v for name, v in b.round_bet.items() if v}  # a bet back to 0 and none: the same to the hand
    return (list(b.seats.items()), b.behind, b.events, b.held, b.shown, b.posted, b.street, b.drawing, bets,
            summary)


def test_the_c_reader_leaves_the_builder_as_the_twin_does_on_every_hand_it_reads():
    served = 0
    for text in HANDS:
        c = _builder_state(text, "c")
        if c is None:
            continue
        served += 1
        py = _builder_state(text, "python")
        assert py is not None, text[:80]
        # events compared item by item: the kinds are the same strings, the cards tuples of ints
        assert c[2] == py[2] and [type(e) for e in c[2]] == [type(e) for e in py[2]], text[:80]
        assert c == py, text[:80]
    # Every fixture hand and every crafted hand it is meant for are read in C (the euro hand, the KingsClub
    # name with a space and run it twice are the twin's).
    assert served == len(HANDS) - 3


def test_the_c_reader_leaves_to_the_twin_what_it_does_not_know():
    from badacey_fast import _speedups

    assert _builder_state(CRAFTED[2], "c") is None  # euros, small & big blinds, a verb nobody knows
    assert _builder_state(KINGS_CRAFTED[1], "c") is None  # a name with a space
    assert _builder_state(KINGS_CRAFTED[2], "c") is None  # run it twice
    lines = HANDS[0].split("\n")
    with kernel.using("python"):
        assert kernel.read_stars(lines, 2, 1, 2, 3, 4, CONSTS) is None
    with pytest.raises(TypeError):
        _speedups.read_stars("not a list", 2, 1, 2, 3, 4, CONSTS)
    with pytest.raises(TypeError):
        _speedups.read_stars(lines, 2, 1, 2, 3, 4, CONSTS[:4])


@pytest.mark.parametrize("k", range(len(TEXTS)))
def test_every_field_and_error_is_the_same_on_both_twins(k):
    assert _read(TEXTS[k], "c") == _read(TEXTS[k], "python")


_JUNK = [" wins the pot (", " ties for ", " antes ", " posts a dead ", "Uncalled bet of ", " returned to ",
         "The button is in seat #", "Duration ", "\ufffd", "€", "£", " ", ":", ": ", "[", "]", "] [", "0", "9", ",", ".", "x", "X", "é", "\u0663", "\t", "(", ")",
         "all-in", " and is all-in", "$", "-", "pot", "\ud800", "10", "Ah", "SUMMARY", "*** ", " to ", "collected ",
         " from ", "Dealt to ", "Seat 9: ", "Uncalled bet (", ") returned to "]


_CHARS = "0123456789,.$€£()[] :-#xXAhKdTs\t\u00e9\u0663\ufffd"


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(10)
        k = rng.randrange(len(lines))
        if op == 0 and len(lines) > 2:
            del lines[k]
        elif op == 1:
            lines.insert(k, lines[rng.randrange(len(lines))])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        elif op == 3 and lines[k]:
            p = rng.randrange(len(lines[k]) + 1)
            lines[k] = lines[k][:p] + rng.choice(_JUNK) + lines[k][p:]
        elif op == 4 and lines[k]:
            p = rng.randrange(len(lines[k]))
            lines[k] = lines[k][:p] + rng.choice(_JUNK) + lines[k][p + 1:]
        elif op == 5:
            lines = lines[:k + 1]  # the hand cut off
        elif op == 6 and lines[k]:
            lines[k] = lines[k][: rng.randrange(len(lines[k]))]  # a line cut off
        elif op == 7:
            words = [w for ln in lines for w in ln.split(" ") if w]
            a, b = rng.choice(words), rng.choice(words)
            lines[k] = lines[k].replace(a, b, 1)
        elif op == 8:  # random characters, up to a few hundred (longer than any buffer the reader keeps)
            p = rng.randrange(len(lines[k]) + 1)
            junk = "".join(rng.choice(_CHARS) for _ in range(rng.randrange(1, 300)))
            lines[k] = lines[k][:p] + junk + lines[k][p:]
        elif op == 9 and lines[k]:  # a piece of the line repeated: huge amounts, endless names and brackets
            a = rng.randrange(len(lines[k]))
            b = rng.randrange(a, min(len(lines[k]), a + 8)) + 1
            lines[k] = lines[k][:a] + lines[k][a:b] * rng.randrange(2, 60) + lines[k][b:]
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(6))
def test_fuzz_mutated_truncated_and_garbled_hands_read_the_same_on_both_twins(seed):
    rng = random.Random(2500 + seed)
    for _ in range(60):
        text = _mutate(rng.choice(HANDS), rng)
        assert _read(text, "c") == _read(text, "python"), text


def test_amounts_beyond_int64_bounds_go_to_the_twin():
    # 10**15 units is the C reader's largest amount (sums of them stay inside int64); Python's ints have no
    # bound, so a larger stack is read by the twin, with the same fields.
    huge = HANDS[0].replace("Seat 1: Alma ($12.40 in chips)", "Seat 1: Alma ($99999999999999.40 in chips)", 1)
    assert huge != HANDS[0]
    assert _builder_state(huge, "c") is None
    assert _builder_state(HANDS[0], "c") is not None
    many = HANDS[0].replace("Bruno collected $4.05 from pot\n", "Bruno collected $4.05 from pot\n" * 3, 1)
    assert _read(huge, "c") == _read(huge, "python")
    assert _read(many, "c") == _read(many, "python")


KINGS_HANDS = [h for h in HANDS if h.startswith("#")]


@pytest.mark.parametrize("seed", range(4))
def test_fuzz_kingsclub_hands_read_the_same_on_both_twins(seed):
    rng = random.Random(2600 + seed)
    served = 0
    for _ in range(80):
        text = _mutate(rng.choice(KINGS_HANDS), rng)
        lines = [t.rstrip() for t in text.split("\n")]
        c = _kings_state(lines, "c")
        if c is not None:
            served += 1
            assert c == _kings_state(lines, "python"), text
        assert _read(text, "c") == _read(text, "python"), text
    assert served > 10  # the C reader reads many of them, not none
