"""The C derivation of a finished hand's holdings (csrc/cpython/finish.c, ``kernel.holdings``) held equal
to its Python twin (``HandBuilder._holdings``): on every fixture hand of every room, and on thousands of
random builder states (consistent deals, draws with and without their cards shown, folds, cards shown that
contradict the deal, cards in any order).  Where the twin adds a note the C derivation must leave the hand
to it (None) and change nothing; where it answers, the holdings and the events it fills in are the twin's.
Under the sanitizer job these states also show that no input makes it read or write past an array."""

from __future__ import annotations

import io
import random

import pytest

from badacey_fast import _speedups, kernel
from badacey_fast.errors import HandHistoryError
from badacey_fast.histories import build, parse
from badacey_fast.histories.build import HandBuilder
from badacey_fast.histories.model import BET, CALL, CHECK, DRAW, FOLD, SHOW, Event, RealHand, Seat
from crafted_hands import DATA, mutants

pytestmark = pytest.mark.backend_independent  # each test runs both twins itself

CONSTS = (Event, DRAW, FOLD)


def _state(b: HandBuilder) -> tuple[object, ...]:
    return list(b.events), [type(e) for e in b.events], list(b.hand.notes)


def _both(b: HandBuilder) -> tuple[object, ...]:
    """(C's holdings or None, C's events after), (the twin's holdings, events and notes), on copies."""
    events = list(b.events)
    got = _speedups.holdings(b.seats, events, b.held, b.shown, b.hand.draws, b.hand.hand_size, CONSTS)
    c_events = events
    twin = HandBuilder(b.hand)
    twin.seats, twin.events, twin.held, twin.shown = b.seats, list(b.events), b.held, b.shown
    notes_before = len(b.hand.notes)
    py = twin._holdings()
    notes = b.hand.notes[notes_before:]
    del b.hand.notes[notes_before:]
    return got, c_events, py, twin.events, notes


def _assert_same(b: HandBuilder) -> bool:
    """The C answer equals the twin's (True), or C left the hand to the twin unchanged (False)."""
    events_before = list(b.events)
    got, c_events, py, py_events, notes = _both(b)
    if got is None:
        assert c_events == events_before  # nothing changed before it gave up
        return False
    assert not notes, notes  # C never answers a hand the twin adds a note to
    assert list(got.items()) == list(py.items())
    assert c_events == py_events
    assert [type(e) for e in c_events] == [type(e) for e in py_events]
    return True


def _hands(text: str, twin: str) -> list[tuple[object, ...]]:
    with kernel.using(twin):
        return [(h.site, h.hand_id, list(h.holdings.items()), h.actions, h.notes)
                for h in parse(io.StringIO(text), on_bad_hand="skip")]


# The fixture hands of every room, and mutants of them: a card changed in a "Dealt to" or "shows" line
# makes the cards contradict (the twin's notes), a line deleted drops a draw.
TEXTS = [p.read_text(encoding="utf-8-sig") for p in sorted(DATA.iterdir()) if p.is_file()]
CARD_CHARS = ["2", "5", "9", "T", "K", "A", "c", "d", "h", "s", " "]


def test_every_fixture_hand_of_every_room_derives_the_same_holdings_on_both_twins():
    served = total = 0
    orig = build.c_holdings

    def spy(*args: object) -> object:
        nonlocal served, total
        got = orig(*args)  # type: ignore[arg-type]
        served += got is not None
        total += 1
        return got

    for text in TEXTS:
        build.c_holdings = spy
        try:
            c = _hands(text, "c")
        finally:
            build.c_holdings = orig
        assert c == _hands(text, "python")
    # every fixture hand but the ones whose cards contradict is served in C
    assert total >= 15 and served >= total - 1, (served, total)


@pytest.mark.parametrize("seed", range(3))
def test_mutated_hands_of_every_room_derive_the_same_holdings_on_both_twins(seed):
    for text in mutants(TEXTS, seed, 60, 0.3, CARD_CHARS):
        assert _hands(text, "c") == _hands(text, "python")


NAMES = ["Hero", "Ann Lee", "Bo", "Cy:x", "Dee", "Eve"]


def _random_builder(rng: random.Random) -> HandBuilder:
    """A hand dealt from a shuffled deck and drawn to its end, told with gaps and sometimes with lies: each
    player's hands and draws known or not, cards in any order, a card changed, a count off by one."""
    hand = RealHand("Test", str(rng.randrange(10**6)))
    hand.draws = rng.choice([0, 1, 3, 3, 3])
    hand.hand_size = rng.choice([4, 4, 5])
    size = hand.hand_size
    b = HandBuilder(hand)
    deck = list(range(52))
    rng.shuffle(deck)
    players = rng.sample(NAMES, rng.randint(2, 5))
    for k, name in enumerate(players):
        b.seat(k + 1, name, 1000, dealt=rng.random() > 0.1)
    dealt = [n for n in players if b.seats[n].dealt]
    cards = {n: [deck.pop() for _ in range(size)] for n in dealt}
    truth = {n: [tuple(cards[n])] for n in dealt}
    folded: set[str] = set()
    line = 10

    def lie(t: tuple[int, ...]) -> tuple[int, ...]:
        r = rng.random() if t else 1.0
        if r < 0.04:  # a card changed
            t = t[:-1] + ((t[-1] + 1 + rng.randrange(50)) % 52,)
        elif r < 0.06:  # one card short
            t = t[:-1]
        out = list(t)
        rng.shuffle(out)  # the order is the text's, not the deal's
        return tuple(out)

    for street in range(hand.draws + 1):
        if street:
            for n in dealt:
                if n in folded:
                    continue
                now = list(truth[n][-1])
                k = min(rng.choice([0, 0, 1, 1, 2, 3, size]), len(deck))  # (a deck run out: the reshuffle's)
                gone = rng.sample(now, k)
                came = [deck.pop() for _ in range(k)]
                after = tuple([c for c in now if c not in gone] + came)
                truth[n].append(after)
                count = k if rng.random() > 0.03 else k + 1
                shown_cards = lie(tuple(gone)) if rng.random() < 0.3 else None
                new_cards = lie(tuple(came)) if rng.random() < 0.3 else None
                b.events.append(Event(street, n, DRAW, None, None, False, count, shown_cards, new_cards, None, line))
                line += 1
                if rng.random() < 0.3:
                    b.hold(n, lie(after), street)
        for n in dealt:
            if n in folded:
                continue
            r = rng.random()
            if r < 0.12 and len(folded) < len(dealt) - 1:
                folded.add(n)
                b.events.append(Event(street, n, FOLD, line=line))
            else:
                kind = rng.choice([CHECK, CALL, BET])
                b.events.append(Event(street, n, kind, 1 if kind != CHECK else None, line=line))
            line += 1
        for n in dealt:
            if street == 0 and rng.random() < 0.5:
                b.hold(n, lie(truth[n][0]), 0)
    for n in dealt:
        if n not in folded and rng.random() < 0.5:
            final = lie(truth[n][-1])
            b.shown[n] = final
            b.events.append(Event(hand.draws, n, SHOW, cards=final, line=line))
            line += 1
    return b


@pytest.mark.parametrize("seed", range(4))
def test_random_deals_derive_the_same_holdings_on_both_twins_or_go_to_the_twin(seed):
    rng = random.Random(seed)
    served = noted = 0
    for _ in range(600):
        b = _random_builder(rng)
        got, _, _, _, notes = _both(b)
        noted += bool(notes)
        served += _assert_same(b)
    # both sides of the seam are exercised: most states answered in C, some left to the twin's notes
    assert served > 300 and noted > 20, (served, noted)


def test_what_the_c_derivation_does_not_know_goes_to_the_twin_and_bad_arguments_are_type_errors():
    b = HandBuilder(RealHand("Test", "1"))
    b.hand.draws, b.hand.hand_size = 1, 4
    b.seat(1, "Hero", 100)
    b.seat(2, "Bo", 100)
    b.hold("Hero", (0, 1, 2, 3), 0)
    b.events.append(Event(1, "Hero", DRAW, None, None, False, 1, (3,), (9,), None, 5))
    assert _assert_same(b)
    held = _speedups.holdings(b.seats, list(b.events), b.held, b.shown, 1, 4, CONSTS)
    assert held == {"Hero": [(0, 1, 2, 3), (0, 1, 2, 9)], "Bo": [None, None]}
    odd = [
        ({"Hero": {0: (0, 1, 2, "3")}}, {}),  # a card that is not an int
        ({"Hero": {0: (0, 1, 2, 2**70)}}, {}),  # an int beyond any card
        ({"Hero": {0: (0, 1, 2, -1)}}, {}),
        ({"Hero": {0: tuple(range(9))}}, {}),  # more cards than a hand holds here
        ({"Hero": {"0": (0, 1, 2, 3)}}, {}),  # a street that is not an int
        ({"Hero": [(0, 1, 2, 3)]}, {}),  # not a dict of streets
        ({}, {"Hero": [0, 1, 2, 3]}),  # shown cards that are not a tuple
    ]
    for held_by, shown in odd:
        assert _speedups.holdings(b.seats, list(b.events), held_by, shown, 1, 4, CONSTS) is None
    seats_odd = {"Hero": Seat(1, "Hero", 100, 1)}  # dealt as an int, not a bool
    assert _speedups.holdings(seats_odd, [], {"Hero": {0: (0, 1, 2, 3)}}, {}, 1, 4, CONSTS) is None
    assert _speedups.holdings(b.seats, list(b.events), b.held, b.shown, 4, 4, CONSTS) is None  # four draws
    assert _speedups.holdings(b.seats, list(b.events), b.held, b.shown, 1, 9, CONSTS) is None  # nine cards
    junk_events = [Event(1, 7, DRAW, None, None, False, 1, (3,), (9,), None, 5)]  # a player that is not a str
    assert _speedups.holdings(b.seats, junk_events, b.held, b.shown, 1, 4, CONSTS) is None
    junk_events = [("not", "an", "event")]
    assert _speedups.holdings(b.seats, junk_events, b.held, b.shown, 1, 4, CONSTS) is None
    with kernel.using("python"):
        assert kernel.holdings(b.seats, list(b.events), b.held, b.shown, 1, 4, CONSTS) is None
    with pytest.raises(TypeError, match="holdings"):
        _speedups.holdings(b.seats, tuple(b.events), b.held, b.shown, 1, 4, CONSTS)
    with pytest.raises(TypeError, match="holdings"):
        _speedups.holdings(b.seats, list(b.events), b.held, b.shown, 1, 4, CONSTS[:2])
    with pytest.raises(TypeError, match="7 arguments"):
        _speedups.holdings(b.seats)  # type: ignore[call-arg]


def _twin_dealt_and_paid(b: HandBuilder) -> tuple[dict[str, Seat], tuple[int, int] | str]:
    """The twin's part of ``finish`` on a copy: the seats after it, and the sums (or the refusal's words)."""
    twin = HandBuilder(b.hand)
    twin.seats, twin.events, twin.held, twin.behind, twin.collected = (dict(b.seats), b.events, b.held,
                                                                      b.behind, b.collected)
    acted = {e.player for e in twin.events} | set(twin.held)
    for name, seat in twin.seats.items():
        if seat.dealt != (name in acted):
            twin.seats[name] = seat._replace(dealt=name in acted)
    try:
        return twin.seats, twin._paid()
    except HandHistoryError as err:
        return twin.seats, str(err)


@pytest.mark.parametrize("seed", range(3))
def test_who_is_dealt_in_and_the_chips_put_in_are_the_twins(seed):
    rng = random.Random(seed)
    served = refused = 0
    for _ in range(500):
        b = _random_builder(rng)
        for name in b.seats:  # chips put in, some returned, now and then more returned than put in
            b.behind[name] = b.seats[name].stack - rng.choice([0, 5, 40, 300, 1000, -1 if rng.random() < 0.05 else 0])
        winners = rng.sample(list(b.seats), rng.randint(0, 2))
        b.collected = {n: rng.randrange(0, 2000) for n in winners}
        if rng.random() < 0.2:  # a player listed as sitting out who acts, one dealt who does nothing
            b.seats[next(iter(b.seats))] = b.seats[next(iter(b.seats))]._replace(dealt=False)
        seats_after, expected = _twin_dealt_and_paid(b)
        seats = dict(b.seats)
        got = _speedups.dealt_and_paid(seats, b.events, b.held, b.behind, b.collected, Seat)
        if got is None:
            assert seats == b.seats  # nothing changed
            refused += isinstance(expected, str)
            continue
        served += 1
        assert list(seats.items()) == list(seats_after.items())
        assert [type(s) for s in seats.values()] == [Seat] * len(seats)
        assert got == expected
    assert served > 400 and refused > 5, (served, refused)


def test_dealt_and_paid_leaves_what_it_does_not_know_to_the_twin():
    seats = {"Hero": Seat(1, "Hero", 100, True), "Bo": Seat(2, "Bo", 100, True)}
    events = [Event(0, "Hero", BET, 10, line=3)]
    behind = {"Hero": 90, "Bo": 100}
    got = _speedups.dealt_and_paid(seats, events, {}, behind, {"Hero": 10}, Seat)
    assert got == (10, 10) and seats["Bo"] == Seat(2, "Bo", 100, False) and seats["Hero"].dealt is True
    for odd in (
        dict(behind={"Hero": 90}),  # a seat with no chips behind: the twin's KeyError
        dict(behind={"Hero": 90, "Bo": 2**70}),  # an amount beyond int64
        dict(behind={"Hero": 90, "Bo": 101}),  # more returned than put in: the twin's message
        dict(collected={"Hero": 1.5}),  # an amount that is not an int
        dict(events=[Event(0, 7, BET, 10, line=3)]),  # a player that is not a str
        dict(seats={"Hero": (1, "Hero", 100, True)}),  # a plain tuple, not a Seat
        dict(seats={"Hero": Seat(1, "Hero", 100, 1)}),  # dealt as an int
        dict(seats={f"P{k}": Seat(k, f"P{k}", 100, True) for k in range(40)}),  # more seats than kept
    ):
        args = dict(seats=dict(seats), events=events, held={}, behind=behind, collected={"Hero": 10}) | odd
        before = dict(args["seats"])
        assert _speedups.dealt_and_paid(args["seats"], args["events"], args["held"], args["behind"],
                                        args["collected"], Seat) is None
        assert args["seats"] == before
    with kernel.using("python"):
        assert kernel.dealt_and_paid(seats, events, {}, behind, {}, Seat) is None
    with pytest.raises(TypeError, match="dealt_and_paid"):
        _speedups.dealt_and_paid(list(seats.items()), events, {}, behind, {}, Seat)
    with pytest.raises(TypeError, match="6 arguments"):
        _speedups.dealt_and_paid(seats)  # type: ignore[call-arg]
