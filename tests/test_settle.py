"""Settlement from contributions (RULES.md §3): main and side pots, folded contributors, conservation.

Every expected figure is worked by hand in the comments.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from badacey_fast.cards import parse_cards
from badacey_fast.errors import DuplicateCardError, HandSizeError, ShowdownError, UnknownGameError
from badacey_fast.pots.settlement import UNSHOWN, scoring, settle, showdown

ALMA = "As 2h 3d 4c 5s"  # the nuts both halves
BRUNO = "2c 3s 4h 5d 6c"  # 6-5-4-3-2 low, 5-4-3-2 badugi: second best both halves here
CORA = "Ad 2d 4s 6h 7h"  # 7-6-4-2-A low, 3-card 6-4-A badugi
DMITRI = "Ks Qd 9c 5h 5c"  # pair of fives, K-Q-9-5 badugi
ANN, BEN = "As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"

HYPO = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_all_ins_at_three_levels(backend):
    # Contributions 10, 30, 50, 50.  Main pot 4 x 10 = 40 (all four): Alma scoops.
    # Side pot 1: 3 x 20 = 60 (Bruno, Cora, Dmitri): Bruno has the best low and the best badugi.
    # Side pot 2: 2 x 20 = 40 (Cora, Dmitri): Cora's low, Dmitri's badugi, 20 each.
    s = settle([10, 30, 50, 50], [ALMA, BRUNO, CORA, DMITRI])
    assert s.payouts == [40, 60, 20, 20]
    assert [p.amount for p in s.pots] == [40, 60, 40]
    assert [p.eligible for p in s.pots] == [(0, 1, 2, 3), (1, 2, 3), (2, 3)]
    assert [p.scooper for p in s.pots] == [0, 1, None]
    assert (s.pots[2].low_winners, s.pots[2].badugi_winners) == ((2,), (3,))
    text = s.explain(["Alma", "Bruno", "Cora", "Dmitri"])
    assert "Main pot: 40 chips, for Alma, Bruno, Cora and Dmitri" in text
    assert "Side pot 2: 40 chips, for Cora and Dmitri" in text
    assert "  Cora takes half (20 chips) · Dmitri takes half (20 chips)" in text


def test_folded_contributors_feed_pots_but_win_none(backend):
    # Seat 1 folded after putting in 50, seat 2 folded after 10.  Live: Ann (30), Ben (50).
    # Main pot: 30 + 30 + 10 + 30 = 100 for Ann and Ben: Ann a quarter (25), Ben three quarters (75).
    # Side pot: 20 (seat 1) + 20 (Ben) = 40, only Ben is eligible.  Ben 115.
    s = settle([30, 50, 10, 50], [ANN, None, None, BEN])
    assert s.payouts == [25, 0, 0, 115]
    assert [(p.amount, p.eligible, p.uncontested) for p in s.pots] == [(100, (0, 3), False), (40, (3,), True)]
    assert "Ben takes it uncontested (40 chips)" in s.explain(["Ann", "Bo", "Cy", "Ben"])


def test_folded_seat_that_put_in_more_than_every_live_seat(backend):
    # Seat 1 folded with 40 in; the live seats put in 10 (Cora) and 25 (Dmitri).
    # Main pot 3 x 10 = 30 (Cora, Dmitri): 15 each (Cora low, Dmitri badugi).
    # Side pot 15 (seat 1) + 15 (Dmitri) = 30, plus the 15 of seat 1's chips above 25 that nobody live
    # matched: 45, to Dmitri alone.  Dmitri 60, total 75 = 10 + 40 + 25.
    s = settle([10, 40, 25], [CORA, None, DMITRI])
    assert s.payouts == [15, 0, 60]
    assert [p.amount for p in s.pots] == [30, 45]


def test_odd_chips_in_a_side_pot_follow_the_button(backend):
    # Side pot of 161 (40 + 40 + 40 + seat 3's dead 41) between Cora (low) and Dmitri (badugi):
    # 80 each plus the odd chip to the first winner clockwise from the button.
    hands = [ALMA, CORA, DMITRI, None]
    assert settle([20, 60, 60, 101], hands, button=0).payouts == [80, 81, 80, 0]  # order 1, 2, 3, 0
    assert settle([20, 60, 60, 101], hands, button=1).payouts == [80, 80, 81, 0]  # order 2, 3, 0, 1
    assert settle([20, 60, 60, 101], hands, button=1, odd_chip="low").payouts == [80, 81, 80, 0]


def test_odd_main_pot_and_three_way_split(backend):
    # Three nut hands tie both halves; main pot 3 x 7 = 21: halves of 10 + the odd chip.
    # Button 0, clockwise 1, 2, 0: odd chip to seat 1; each half 10 = 3 each + 1 to seat 1.
    nuts = ["As 2h 3d 4c 5s", "Ac 2d 3h 4s 5c", "Ad 2s 3c 4h 5h"]
    s = settle([7, 7, 7], nuts, button=0)
    assert s.payouts == [6, 9, 6]
    assert len(s.pots) == 1 and s.pots[0].low_winners == (0, 1, 2)


def test_lone_live_seat_takes_everything(backend):
    assert settle([5, 10, 0], [None, UNSHOWN, None]).payouts == [0, 15, 0]
    # The live seat put in less than the folded one: the folded chips above it are dead money, still its.
    assert settle([10, 3], [None, BEN]).payouts == [0, 13]
    # A live seat that put in nothing still collects the dead chips (no one else can).
    assert settle([0, 7], [UNSHOWN, None]).payouts == [7, 0]


def test_no_chips_no_pots(backend):
    s = settle([0, 0, 0], [ANN, BEN, None])
    assert s.payouts == [0, 0, 0] and s.pots == ()


def test_single_pot_games_settle_whole_pots(backend):
    # Badugi: 4-card hands; A-2-3-4 rainbow takes the main pot, 5-4-3-2 the side pot.
    s = settle([10, 20, 20], ["As 2h 3d 4c", "2c 3s 4h 5d", "Kc Kd Qh Js"], game="badugi")
    assert s.payouts == [30, 20, 0]
    s = settle([10, 20, 20], [BEN, "7c 5d 4h 3s 2s", "Kc Kd Qh Js Ts"], game="27")
    assert s.payouts == [0, 50, 0]  # 7-5-4-3-2 is the 2-7 nuts; Ben's A-5 wheel is ace-high there
    assert s.pots[0].badugi_winners == ()


@pytest.mark.parametrize(
    "contributions, hands, kwargs, error, match",
    [
        ([10, -5], [ANN, BEN], {}, ShowdownError, "contribution of seat 1 is negative: -5"),
        ([10, True], [ANN, BEN], {}, TypeError, "contribution of seat 1 must be an int.*bool"),
        ([10, 2.5], [ANN, BEN], {}, TypeError, "float"),
        ([10, 10, 10], [ANN, BEN], {}, ShowdownError, "3 contributions for 2 seats"),
        ([10], [ANN, BEN], {}, ShowdownError, "1 contributions for 2 seats"),
        ("10 10", [ANN, BEN], {}, TypeError, "contributions must be a sequence"),
        (10, [ANN, BEN], {}, TypeError, "contributions must be a sequence"),
        ([10, 10], [None, None], {}, ShowdownError, "no live hand"),
        ([10, 10], [ANN, "As 3s 4h 5d 6c"], {}, DuplicateCardError, "'As'"),
        ([10, 10], [ANN, "2c 3s 4h 5d"], {}, HandSizeError, "seat 1"),
        ([10, 10], [ANN, BEN], dict(button=2), ShowdownError, "button 2"),
        ([10, 10], [ANN, BEN], dict(game="stud"), UnknownGameError, "'stud'"),
        ([10, 10], [ANN, BEN], dict(odd_chip="high"), ShowdownError, "'high'"),
    ],
)
def test_bad_input_names_the_value(contributions, hands, kwargs, error, match):
    with pytest.raises(error, match=match):
        settle(contributions, hands, **kwargs)


@st.composite
def hands_and_contributions(draw):
    game = draw(st.sampled_from(["badacey", "badeucy", "badugi", "a5", "27"]))
    size = scoring(game).hand_size
    n = draw(st.integers(1, 6))
    deck = list(range(52))
    random.Random(draw(st.integers(0, 2**32))).shuffle(deck)
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(folded):
        folded[draw(st.integers(0, n - 1))] = False
    hands = [None if f else tuple(deck[i * size : (i + 1) * size]) for i, f in enumerate(folded)]
    # Few distinct levels make ties between all-in amounts (shared pot levels) likely.
    levels = draw(st.lists(st.integers(0, 300), min_size=1, max_size=4))
    contributions = draw(st.lists(st.sampled_from(levels) | st.integers(0, 300), min_size=n, max_size=n))
    button = draw(st.integers(0, n - 1))
    odd_chip = draw(st.sampled_from(["position", "low"]))
    return contributions, hands, button, game, odd_chip


@HYPO
@given(case=hands_and_contributions())
def test_every_chip_is_paid_out_and_no_seat_wins_more_than_it_matched(backend, case):
    contributions, hands, button, game, odd_chip = case
    s = settle(contributions, hands, button=button, game=game, odd_chip=odd_chip)
    live = [i for i, h in enumerate(hands) if h is not None]
    assert sum(s.payouts) == sum(contributions)
    assert sum(p.amount for p in s.pots) == sum(contributions)
    assert all(s.payouts[i] == 0 for i, h in enumerate(hands) if h is None)
    assert all(p.amount > 0 and set(p.eligible) <= set(live) for p in s.pots)
    top = max(contributions[i] for i in live)
    dead = sum(c - top for c in contributions if c > top)
    for seat in live:
        # A live seat can win at most what every seat put in up to its own level (plus, at the top
        # level, the dead chips nobody live matched).
        cap = sum(min(c, contributions[seat]) for c in contributions)
        cap += dead if contributions[seat] == top else 0
        assert s.payouts[seat] <= cap
    # Each pot is a showdown among its eligible seats: settle agrees with showdown pot by pot.
    for pot in s.pots:
        only = [h if i in pot.eligible else None for i, h in enumerate(hands)]
        paid = showdown(only, pot.amount, button=button, game=game, odd_chip=odd_chip)
        assert [p or 0 for p in paid] == list(pot.chips)


@HYPO
@given(case=hands_and_contributions())
def test_equal_contributions_are_one_showdown(backend, case):
    _, hands, button, game, odd_chip = case
    n = len(hands)
    s = settle([12] * n, hands, button=button, game=game, odd_chip=odd_chip)
    expected = showdown(hands, 12 * n, button=button, game=game, odd_chip=odd_chip)
    assert s.payouts == [p or 0 for p in expected]
    assert len(s.pots) == 1


class CountingTwin:
    """Wraps a twin and counts the hands it evaluates."""

    def __init__(self, twin):
        self.twin, self.calls = twin, []

    def __getattr__(self, name):
        fn = getattr(self.twin, name)

        def counted(cards, *args):
            self.calls.append(tuple(cards))
            return fn(cards, *args)

        return counted


def test_each_live_hand_is_evaluated_once(backend, monkeypatch):
    # Three pots over four live hands: still exactly one evaluation per live hand (the engine's hot path).
    from badacey_fast.kernel import backend as _backend

    counting = CountingTwin(_backend.impl)
    monkeypatch.setattr(_backend, "impl", counting)
    hands = [ALMA, BRUNO, CORA, DMITRI, None]
    s = settle([10, 30, 50, 50, 60], hands)
    assert sorted(counting.calls) == sorted(tuple(parse_cards(h)) for h in hands if h is not None)
    counting.calls.clear()
    showdown(hands, 100)
    assert len(counting.calls) == 4 and len(set(counting.calls)) == 4
    assert sum(s.payouts) == 200


def test_numpy_chips_and_hands_are_accepted(backend):
    hands = [np.array(parse_cards(ANN)), None, np.array(parse_cards(BEN))]
    s = settle(np.array([30, 50, 50]), hands, button=np.int64(0))
    # Main 90 (Ann, Ben): low 45 to Ben; badugi 45 = 22 + 23, the leftover chip to Ben (clockwise from
    # button 0, seat 2 comes before seat 0).  Side pot 40: Ben alone.  Ben 45 + 23 + 40 = 108.
    assert s.payouts == [22, 0, 108]
    assert showdown(hands, np.int32(10)) == [2, None, 8]
