"""Single-pot showdowns (RULES.md §3): seed 000's three showdowns, halves, ties, odd chips, bad input.

Expected payouts are worked by hand in the comments; the property tests check the twins against an
independent chip-by-chip model built on the pure-Python reference judge.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from badacey_fast.rules import reference as reference
from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import (
    BadaceyError,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    ShowdownError,
    UnknownGameError,
)
from badacey_fast.pots.settlement import UNSHOWN, scoring, showdown, showdown_detail

# The package re-exports the function ``showdown``, which hides the module of the same name.
from badacey_fast.kernel import backend as kernel_backend
ALMA, BRUNO = "As 2h 3d 4c 5s", "2c 3s 4h 5d 6c"  # Bruno: 5-4-3-2 badugi, 6-5-4-3-2 low
CORA, DMITRI = "2h 4h 6h 7h Ac", "Ks Qd 9c 5h 5s"
ANN, BEN = "As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"
LOSER = "Kc Kd Qc Qh Jc"  # two pair, 2-card badugi: loses both halves to Cora and Dmitri

HYPO = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# --- seed 000's worked examples ------------------------------------------------------------------------


def test_seed_scoop_alma_takes_everything(backend):
    result = showdown_detail([ALMA, BRUNO], 100)
    assert result.payouts == [100, 0]
    assert result.low_winners == (0,) and result.badugi_winners == (0,)
    assert result.scooper == 0 and not result.fold_win
    assert result.descriptions[0] == ("5-4-3-2-A low", "4-3-2-A badugi")
    assert result.descriptions[1] == ("6-5-4-3-2 low", "5-4-3-2 badugi")
    assert "Alma scoops the whole pot (100 chips)" in result.explain(["Alma", "Bruno"])


def test_seed_one_way_hand_cora_and_dmitri_split(backend):
    result = showdown_detail([CORA, DMITRI], 100)
    assert result.payouts == [50, 50]
    assert result.low_winners == (0,) and result.badugi_winners == (1,)
    assert result.scooper is None
    assert result.descriptions[0] == ("7-6-4-2-A low", "2-card 2-A")
    assert result.descriptions[1] == ("pair of fives", "K-Q-9-5 badugi")
    text = result.explain(["Cora", "Dmitri"])
    assert "Cora takes half (50 chips) · Dmitri takes half (50 chips)" in text
    assert "Low half: Cora wins with 7-6-4-2-A low" in text
    assert "Badugi half: Dmitri wins with K-Q-9-5 badugi" in text


def test_seed_quartered_ann_quarter_ben_three_quarters(backend):
    result = showdown_detail([ANN, BEN], 100)
    assert result.payouts == [25, 75]
    assert result.low_winners == (1,) and result.badugi_winners == (0, 1)
    assert result.pot.shares == (Fraction(1, 4), Fraction(3, 4))
    assert result.descriptions[0] == ("K-4-3-2-A low", "4-3-2-A badugi")
    text = result.explain(["Ann", "Ben"])
    assert "Ann takes a quarter (25 chips) · Ben takes three quarters (75 chips)" in text
    assert "Badugi half: Ann and Ben tie with 4-3-2-A badugi and split it" in text


def test_seat_order_does_not_change_who_wins(backend):
    # Mirror the seats (button moves with them, pot even so position plays no part).
    assert showdown([BEN, ANN], 100) == [75, 25]
    assert showdown([DMITRI, None, CORA], 100, button=1) == [50, None, 50]


def test_badeucy_judges_the_same_hands_with_aces_high(backend):
    # Badeucy: Bruno's 2-3-4-5-6 is a straight, which counts against a 2-7 low, so Alma's ace-high
    # A-5-4-3-2 (no straight with the ace high) wins the low.  With the ace high, both best badugis are
    # 2-3-4-5 in four suits (Alma: 2h 3d 4c 5s; Bruno: 2c 3s 4h 5d): a tie.  Alma 50 + 25, Bruno 25.
    result = showdown_detail([ALMA, BRUNO], 100, game="baduci")
    assert result.game == "badeucy"
    assert result.low_winners == (0,) and result.badugi_winners == (0, 1)
    assert result.payouts == [75, 25]
    assert result.descriptions[0] == ("A-5-4-3-2 low", "5-4-3-2 badugi")
    assert result.descriptions[1] == ("6-5-4-3-2 straight", "5-4-3-2 badugi")


# --- odd chips, worked by hand --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "button, odd_chip, expected",
    [
        # 101 = 50 + 50 + odd chip.  Low 50 -> Ben; badugi 50 split 25/25.
        (0, "position", [25, 76]),  # clockwise from button 0: seat 1 (Ben) is the first winner
        (1, "position", [26, 75]),  # clockwise from button 1: seat 0 (Ann) first
        (0, "low", [25, 76]),  # low half is 51, all Ben's
        (1, "low", [25, 76]),
    ],
)
def test_odd_chip_quartered_pot(backend, button, odd_chip, expected):
    assert showdown([ANN, BEN], 101, button=button, odd_chip=odd_chip) == expected


def test_odd_chip_skips_a_seat_that_won_nothing(backend):
    # Button 0; clockwise order 1, 2, 0.  Seat 1 wins nothing, so seat 2 (Dmitri, badugi) is the first
    # winner: 50 + 1.  Under "low" the odd chip rides with Cora's low half instead.
    assert showdown([CORA, LOSER, DMITRI], 101, button=0) == [50, 0, 51]
    assert showdown([CORA, LOSER, DMITRI], 101, button=0, odd_chip="low") == [51, 0, 50]
    # Button 2: clockwise order 0, 1, 2 -> Cora first.
    assert showdown([CORA, LOSER, DMITRI], 101, button=2) == [51, 0, 50]


def test_folded_seat_between_never_gets_the_odd_chip(backend):
    # Button 0; seat 1 folded; clockwise the winners are Dmitri (2) then Cora (0).
    result = showdown([CORA, None, DMITRI], 7, button=0)
    assert result == [3, None, 4]


THREE_WAY_NUTS = ["As 2h 3d 4c 5s", "Ac 2d 3h 4s 5c", "Ad 2s 3c 4h 5h"]  # all tie both halves


@pytest.mark.parametrize(
    "pot, button, odd_chip, expected",
    [
        # 10: halves of 5 among three: 1 each + 2 left over, to the first two clockwise from the button.
        (10, 0, "position", [2, 4, 4]),  # order 1, 2, 0: per half [1, 2, 2]
        (10, 2, "position", [4, 4, 2]),  # order 0, 1, 2: per half [2, 2, 1]
        # 11: odd chip first (seat 1 with button 0), then halves of 5 as above.
        (11, 0, "position", [2, 5, 4]),
        (11, 2, "position", [5, 4, 2]),
        # "low": low half 6 = 2 each; badugi 5 = [1, 2, 2] with button 0.
        (11, 0, "low", [3, 4, 4]),
        (1, 1, "position", [0, 0, 1]),  # one chip: to seat 2, first after button 1
        (0, 0, "position", [0, 0, 0]),
    ],
)
def test_three_way_tie_leftover_chips(backend, pot, button, odd_chip, expected):
    assert showdown(THREE_WAY_NUTS, pot, button=button, odd_chip=odd_chip) == expected


# --- single-pot games -----------------------------------------------------------------------------------


def test_badugi_game_whole_pot_to_best_badugi(backend):
    assert showdown(["As 2h 3d 4c", "2c 3s 4h 5d"], 30, game="badugi") == [30, 0]
    # Three-card 3-2-A beats two-card hands; ties split with the leftover clockwise from the button.
    tie = ["Ac 2d 3h 3s", "Ad 2h 3c 3d", "Kc Kd Ks Kh"]
    assert showdown(tie, 31, button=0, game="badugi") == [15, 16, 0]
    result = showdown_detail(["As 2h 3d 4c", "2c 3s 4h 5d"], 30, game="badugi")
    assert result.low_winners == () and result.badugi_winners == (0,)
    assert result.values[0] == (None, 1)
    assert "Best badugi: seat 0 with 4-3-2-A badugi" in result.explain()
    with pytest.raises(HandSizeError, match="seat 0"):
        showdown([ALMA, "2c 3s 4h 5d"], 30, game="badugi")


def test_a5_and_27_whole_pot_to_best_low(backend):
    # the wheel wins; 2-7: the wheel is ace-high, 7-5-4-3-2 wins.
    hands = ["As 2h 3d 4c 5s", "7c 5d 4h 3s 2c"]
    assert showdown(hands, 20, game="a5") == [20, 0]
    assert showdown(hands, 21, game="deuce-to-seven") == [0, 21]
    result = showdown_detail(hands, 20, game="27")
    assert result.low_winners == (1,) and result.badugi_winners == ()
    assert result.descriptions[1] == ("7-5-4-3-2 low", None)
    # A tie in a single-pot game: odd chip to the first winner clockwise (button 1 -> seat 0 first).
    assert showdown(["As 2h 3d 4c 5s", "Ac 2d 3h 4s 5c"], 21, button=1, game="a5") == [11, 10]


def test_scoring_table():
    assert scoring("Badacy") is scoring("badacey")
    assert (scoring("badugi").hand_size, scoring("badugi").halves) == (4, ("badugi",))
    assert scoring("A-5").halves == ("low",) and not scoring("a5").ace_high
    assert scoring("2-7 triple draw").ace_high
    with pytest.raises(UnknownGameError, match="'razz'"):
        scoring("razz")
    with pytest.raises(TypeError):
        scoring(5)


# --- fold wins ------------------------------------------------------------------------------------------


def test_fold_win_needs_no_cards(backend):
    assert showdown([None, UNSHOWN, None], 30, button=2) == [None, 30, None]
    assert showdown([None, ALMA], 31) == [None, 31]
    result = showdown_detail([UNSHOWN, None], 30)
    assert result.fold_win and result.scooper == 0
    assert result.values == (None, None)
    assert "Alma wins the whole pot (30 chips): everyone else folded" in result.explain(["Alma", "Bruno"])


def test_fold_win_does_not_evaluate(monkeypatch):
    class Exploding:
        def __getattr__(self, name):
            raise AssertionError(f"{name} called for a fold win")

    monkeypatch.setattr(kernel_backend, "impl", Exploding())
    assert showdown([None, ALMA, None], 12) == [None, 12, None]
    assert showdown_detail([UNSHOWN, None], 12, game="badeucy").payouts == [12, None]


# --- bad input ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(pot=-1), ShowdownError, "pot is negative: -1"),
        (dict(pot=True), TypeError, "bool"),
        (dict(pot=10.0), TypeError, "float"),
        (dict(pot="10"), TypeError, "str"),
        (dict(button=2), ShowdownError, "button 2 is outside the seats 0..1"),
        (dict(button=-1), ShowdownError, "button -1"),
        (dict(button=True), TypeError, "bool"),
        (dict(button=0.0), TypeError, "float"),
        (dict(game="razz"), UnknownGameError, "'razz'"),
        (dict(game=None), TypeError, "NoneType"),
        (dict(odd_chip="high"), ShowdownError, "'high'"),
        (dict(odd_chip=None), TypeError, "NoneType"),
    ],
)
def test_bad_arguments_name_the_value(kwargs, error, match):
    args = dict(hands=[ALMA, BRUNO], pot=100) | kwargs
    with pytest.raises(error, match=match):
        showdown(**args)
    with pytest.raises(error, match=match):
        showdown_detail(**args)


@pytest.mark.parametrize(
    "hands, error, match",
    [
        ([ALMA, "As 3s 4h 5d 6c"], DuplicateCardError, "'As' is in the hands of both seat 0 and seat 1"),
        ([(3, 3, 9, 12, 19), BRUNO], DuplicateCardError, "'As' is twice in the hand of seat 0"),
        ([ALMA, "2c 3s 4h 5d"], HandSizeError, "seat 1: expected 5 cards, got 4"),
        ([ALMA, "2c 3s 4h 5d 6c 7c"], HandSizeError, "seat 1"),
        ([ALMA, "2c 3s 4h 5d 1x"], InvalidCardError, "seat 1: unknown card '1x'"),
        ([ALMA, (0, 1, 2, 3, 52)], InvalidCardError, "seat 1: card id 52"),
        ([ALMA, (0, 1, 2, 3, True)], TypeError, "seat 1"),
        ([ALMA, 7], TypeError, "seat 1"),
        ([None, None, None], ShowdownError, "no live hand: all 3 seats folded"),
        ([], ShowdownError, "no seats"),
        ([UNSHOWN, BRUNO], ShowdownError, "seat 0 is UNSHOWN but 2 seats are live"),
        (ALMA, TypeError, "hands must be a sequence"),
        (None, TypeError, "hands must be a sequence"),
    ],
)
def test_bad_hands_name_the_value(hands, error, match):
    with pytest.raises(error, match=match):
        showdown(hands, 100)


def test_every_value_error_is_a_badacey_error():
    for bad in (dict(pot=-1), dict(button=9), dict(game="razz"), dict(odd_chip="x")):
        with pytest.raises(BadaceyError):
            showdown(**(dict(hands=[ALMA, BRUNO], pot=1) | bad))


def test_explain_names_must_fit_the_seats():
    result = showdown_detail([ALMA, BRUNO], 10)
    with pytest.raises(ShowdownError, match="3 names for 2 seats"):
        result.explain(["a", "b", "c"])
    with pytest.raises(TypeError):
        result.explain("Alma")
    assert result.explain().splitlines()[1].startswith("seat 0: As 2h 3d 4c 5s: low 5-4-3-2-A low (rank 1)")


# --- properties against an independent model ------------------------------------------------------------


def _model(hands, pot, button, game, odd_chip):
    """Chip-by-chip model from the reference judge: deal each half's chips round-robin clockwise."""
    rules = scoring(game)
    n = len(hands)
    live = [s for s in range(n) if hands[s] is not None]
    out = [None if h is None else 0 for h in hands]
    clockwise = [(button + 1 + i) % n for i in range(n)]
    if len(live) == 1:
        out[live[0]] = pot
        return out
    cards = {s: parse_cards(hands[s]) for s in live}
    low_game = "badeucy" if rules.ace_high else "badacey"
    judges = {
        "low": lambda c: reference.low_rank(c, low_game),
        "badugi": lambda c: reference.badugi_rank(c, rules.ace_high),
    }
    winners = {}
    for half in rules.halves:
        ranks = {s: judges[half](cards[s]) for s in live}
        winners[half] = [s for s in clockwise if s in ranks and ranks[s] == min(ranks.values())]
    if len(rules.halves) == 1:
        amounts = {rules.halves[0]: pot}
    else:
        amounts = {"low": pot // 2, "badugi": pot // 2}
        if pot % 2:
            if odd_chip == "low":
                amounts["low"] += 1
            else:
                first = next(s for s in clockwise if s in winners["low"] or s in winners["badugi"])
                out[first] += 1
    for half, amount in amounts.items():
        for i in range(amount):
            out[winners[half][i % len(winners[half])]] += 1
    return out


@st.composite
def tables(draw):
    game = draw(st.sampled_from(["badacey", "badeucy", "badugi", "a5", "27"]))
    size = scoring(game).hand_size
    n = draw(st.integers(2, 6))
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [tuple(deck[i * size : (i + 1) * size]) for i in range(n)]
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(folded):
        folded[draw(st.integers(0, n - 1))] = False
    hands = [None if f else h for f, h in zip(folded, hands)]
    if draw(st.booleans()):  # text hands as well as id tuples
        hands = [None if h is None else format_cards(h) for h in hands]
    pot = draw(st.integers(0, 10_000))
    button = draw(st.integers(0, n - 1))
    odd_chip = draw(st.sampled_from(["position", "low"]))
    return hands, pot, button, game, odd_chip


@HYPO
@given(table=tables())
def test_showdown_matches_chip_by_chip_model_and_conserves_chips(backend, table):
    hands, pot, button, game, odd_chip = table
    payouts = showdown(hands, pot, button=button, game=game, odd_chip=odd_chip)
    assert sum(p for p in payouts if p is not None) == pot
    assert [p is None for p in payouts] == [h is None for h in hands]
    assert payouts == _model(hands, pot, button, game, odd_chip)
    detail = showdown_detail(hands, pot, button=button, game=game, odd_chip=odd_chip)
    assert detail.payouts == payouts and sum(detail.pot.chips) == pot


def test_random_showdowns_give_quartered_and_split_pots_too(backend):
    # A fixed sample so that ties (the interesting case) certainly occur: pairs of hands that share the
    # badugi but differ in the fifth card.
    rng = random.Random(7)
    for _ in range(200):
        ranks = rng.sample(range(13), 4)
        suits = [0, 1, 2, 3]
        a = [4 * r + s for r, s in zip(ranks, suits)]
        b = [4 * r + s for r, s in zip(ranks, suits[1:] + suits[:1])]
        rest = [c for c in range(52) if c not in a and c not in b]
        fifth = rng.sample(rest, 2)
        hands = [tuple(a + [fifth[0]]), tuple(b + [fifth[1]])]
        pot = rng.randrange(0, 500)
        button = rng.randrange(2)
        assert showdown(hands, pot, button=button) == _model(hands, pot, button, "badacey", "position")
