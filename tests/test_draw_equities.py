"""equity and policy_equity: pot shares worked by hand, symmetry, exact against an independent
enumeration, Monte Carlo within 4 standard errors of the exact answer, and bad input."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from badacey_fast.kernel import backend as _backend

from badacey_fast.rules import reference as reference
from badacey_fast.cards import parse_cards
from badacey_fast.draw import equities
from badacey_fast.draw.equities import equity, policy_equity
from badacey_fast.errors import (
    BadaceyError,
    DuplicateCardError,
    HandSizeError,
    IllegalActionError,
    ShowdownError,
)

# Most of the deck dead, so that the exact answers below are small enumerations.
SMALL_DEAD = parse_cards("Ks Kd Kc Kh Qs Qd Qc Qh Js Jd Jc Jh Ts Td Tc Th 9s 9d 9c 9h 8s 8d 8c 8h 7s 7d 7c 7h")


def share_of(finals, game):
    """Independent pot shares of one showdown from the reference: each half split among tied winners."""
    lows = [reference.low_rank(h, game) for h in finals]
    bds = [reference.badugi_rank(h, game == "badeucy") for h in finals]
    out = []
    for lo, bd in zip(lows, bds):
        s = Fraction(0)
        if lo == min(lows):
            s += Fraction(1, 2 * lows.count(lo))
        if bd == min(bds):
            s += Fraction(1, 2 * bds.count(bd))
        out.append(s)
    return out


def test_seed_examples_standing_pat(backend):
    assert equity(["As 2h 3d 4c 5s", "2c 3h 4d 5c 6s"]).shares == (1.0, 0.0)  # Alma scoops Bruno
    eq = equity(["2h 4h 6h 7h Ac", "Ks Qd 9c 5h 5s"])  # Cora wins the low, Dmitri the badugi
    assert eq.shares == (0.5, 0.5) and eq.low == (1.0, 0.0) and eq.badugi == (0.0, 1.0) and eq.exact
    # Ann ties the badugi and loses the low: quartered.
    assert equity(["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"]).shares == (0.25, 0.75)


def test_one_card_draw_against_a_pat_hand_by_hand(backend):
    # Seat 0 keeps the A-2-3-4 badugi (A♠2♥3♦4♣), which no hand beats: the badugi half is certain.  The low
    # X-4-3-2-A beats 6-5-4-3-2 only for X = 5 or 6: 3 fives and 3 sixes of the 42 unseen cards.
    eq = equity(["As 2h 3d 4c Kd", "2c 3h 4d 5c 6s"], ["Kd", None])
    assert eq.exact and eq.outcomes == 42
    assert eq.badugi[0] == 1.0
    assert eq.low[0] == pytest.approx(6 / 42, abs=1e-15)
    assert eq.shares[0] == pytest.approx(0.5 + 0.5 * 6 / 42, abs=1e-15)


def test_identical_hands_split_evenly(backend):
    # Swapping spades with clubs and diamonds with hearts maps each seat's hand onto the other's, and the
    # unseen cards onto themselves: whatever the order of drawing, each seat has half the pot.
    eq = equity(["As 2h 3d 4c Kd", "Ac 2d 3h 4s Kh"], ["Kd", "Kh"])
    assert eq.exact and eq.outcomes == 42 * 41
    assert eq.shares[0] == pytest.approx(0.5, abs=1e-12) and eq.shares[1] == pytest.approx(0.5, abs=1e-12)
    three = equity(["As 2h 3d 4c 5s", "Ac 2d 3h 4s 5c", "Ah 2s 3c 4d 5d"])  # three nut hands
    assert three.shares == pytest.approx((1 / 3, 1 / 3, 1 / 3))


@pytest.mark.parametrize("game", ["badacey", "badeucy"])
def test_exact_matches_an_independent_enumeration(backend, game):
    # Two seats drawing (one of them the unknown hand), against the reference judging every outcome.
    hands = ["As 2h 3d 6c 6d", None, "2c 4d 5h 5s 6s"]
    discards = ["6d", None, "5s"]
    dead = SMALL_DEAD + parse_cards("4s 4c 4h 3s")  # 10 unseen cards: 5,040 outcomes
    eq = equity(hands, discards, dead, game)
    assert eq.exact
    known = [parse_cards(h) for h in hands if h]
    pool = [c for c in range(52) if c not in dead and all(c not in h for h in known)]
    kept0 = parse_cards("As 2h 3d 6c")
    kept2 = parse_cards("2c 4d 5h 5s 6s".replace("5s ", ""))
    totals = [Fraction(0)] * 3
    count = 0
    for a in pool:  # seat 0 draws one, seat 1 gets five, seat 2 draws one
        rest = [c for c in pool if c != a]
        for unknown in combinations(rest, 5):
            for b in (c for c in rest if c not in unknown):
                shares = share_of([kept0 + (a,), unknown, kept2 + (b,)], game)
                totals = [t + s for t, s in zip(totals, shares)]
                count += 1
    assert eq.outcomes == count
    assert eq.shares == pytest.approx([float(t / count) for t in totals], abs=1e-12)
    assert sum(eq.shares) == pytest.approx(1.0)


def test_monte_carlo_within_four_standard_errors(backend):
    hands, discards = ["As 2h 3d 4c Kd", "2c 3h 4d 8c 9s"], ["Kd", "8c 9s"]
    exact = equity(hands, discards)
    assert exact.exact
    mc = equity(hands, discards, samples=4000, seed=7)
    assert not mc.exact and mc.outcomes == 4000
    for seat in range(2):
        assert mc.stderr[seat] > 0
        assert abs(mc.shares[seat] - exact.shares[seat]) < 4 * mc.stderr[seat]
    assert equity(hands, discards, samples=4000, seed=7) == mc  # seeded: repeatable


def test_monte_carlo_in_several_chunks(backend, monkeypatch):
    # Samples are dealt in chunks; a last partial chunk must count exactly its own samples.
    import importlib

    monkeypatch.setattr(equities, "MC_CHUNK", 1000)
    hands, discards = ["As 2h 3d 4c Kd", "2c 3h 4d 8c 9s"], ["Kd", "8c 9s"]
    exact = equity(hands, discards)
    mc = equity(hands, discards, samples=2500, seed=9)
    assert mc.outcomes == 2500 and sum(mc.shares) == pytest.approx(1.0)
    for seat in range(2):
        assert abs(mc.shares[seat] - exact.shares[seat]) < 4 * mc.stderr[seat]
        assert mc.shares[seat] == pytest.approx(0.5 * mc.low[seat] + 0.5 * mc.badugi[seat])


def test_monte_carlo_is_the_same_on_both_twins(backend):
    args = (["As 2h 3d 4c Kd", None], ["Kd", None])
    got = equity(*args, samples=500, seed=3)
    with _backend.using("python"):
        assert equity(*args, samples=500, seed=3) == got


def test_big_spaces_fall_back_to_monte_carlo(backend):
    eq = equity(["As 2h 3d 4c Kd", "2c 3h 4d 8c 9s"], ["Kd", "8c 9s"], exact_limit=10, samples=None, seed=1,
                fallback_samples=2_000)
    assert not eq.exact and eq.outcomes == 2_000 and sum(eq.shares) == pytest.approx(1.0)


def test_policy_equity_pat_matches_equity(backend):
    pat = lambda hand, left: ()  # noqa: E731
    got = policy_equity(["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"], pat, samples=20, seed=0)
    assert got.shares == (0.25, 0.75)


def test_policy_one_draw_matches_exact_equity_within_four_standard_errors(backend):
    throw_kings = lambda hand, left: [c for c in hand if c >> 2 == 12]  # noqa: E731
    hands = ["As 2h 3d 6c Kd", "2c 4d 5h 6s Kh"]
    exact = equity(hands, ["Kd", "Kh"], SMALL_DEAD[4:])
    assert exact.exact
    mc = policy_equity(hands, throw_kings, draws=1, dead=SMALL_DEAD[4:], samples=3000, seed=11)
    for seat in range(2):
        assert abs(mc.shares[seat] - exact.shares[seat]) < 4 * mc.stderr[seat]


def test_policy_reshuffles_without_ever_dealing_a_card_twice():
    # Six seats throwing five cards three times run the stub out again and again (RULES.md §4).
    seen: list[list[tuple[int, ...]]] = [[] for _ in range(6)]

    def thrower(seat):
        def policy(hand, left):
            assert len(set(hand)) == 5 and all(0 <= c <= 51 for c in hand)
            seen[seat].append(hand)
            return hand
        return policy

    eq = policy_equity([None] * 6, [thrower(s) for s in range(6)], draws=3, samples=40, seed=5)
    assert sum(eq.shares) == pytest.approx(1.0)
    # Seats draw in order: within one draw of one sample, seat s sees its hand after the seats before it
    # have drawn, and every hand held at the same moment is disjoint from the others.
    for i in range(len(seen[0])):
        cards = [c for seat in range(6) for c in seen[seat][i]]
        assert len(set(cards)) == 30


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: equity(["As 2h 3d 4c 5s"]), ShowdownError, "got 1"),
        (lambda: equity(["As 2h 3d 4c 5s", None, None, None, None, None, None]), ShowdownError, "got 7"),
        (lambda: equity(["As 2h 3d 4c 5s", "As 3h 4d 5c 6s"]), DuplicateCardError, "'As'.*seat 0 and seat 1"),
        (lambda: equity(["As 2h 3d 4c 5s", "2c 3h 4d 5c 6s"], dead="6s"), DuplicateCardError, "'6s'.*dead"),
        (lambda: equity(["As 2h 3d 4c 5s", "2c 3h 4d 5c 6s"], ["Kd", None]), IllegalActionError, "'Kd'"),
        (lambda: equity(["As 2h 3d 4c", "2c 3h 4d 5c 6s"]), HandSizeError, "expected 5"),
        (lambda: equity(["As 2h 3d 4c 5s", None], [None, "Kd"]), IllegalActionError, "unknown"),
        (lambda: equity(["As 2h 3d 4c 5s", None], [None]), ShowdownError, "1 discards for 2 seats"),
        (lambda: equity(["As 2h 3d 4c 5s", None], samples=0), BadaceyError, "samples"),
        (lambda: equity("As 2h 3d 4c 5s"), TypeError, "sequence"),
        (lambda: policy_equity(["As 2h 3d 4c 5s", None], lambda h, n: "Kd", samples=2), IllegalActionError, "'Kd'"),
        (lambda: policy_equity(["As 2h 3d 4c 5s", None], "pat"), TypeError, "callable"),
    ],
)
def test_bad_input(backend, call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_bad_seeds_are_named_by_our_errors(backend):
    import numpy as np

    hands = ["As 2h 3d 4c Kd", "2c 3h 4d 8c 9s"]
    pat = lambda hand, left: ()  # noqa: E731
    calls = [
        lambda seed: equity(hands, ["Kd", "8c 9s"], samples=50, seed=seed),   # Monte Carlo
        lambda seed: equity(hands, seed=seed),                                  # exact: the seed is still checked
        lambda seed: policy_equity(hands, pat, samples=5, seed=seed),
    ]
    for call in calls:
        for bad in (-1, np.int64(-7)):
            with pytest.raises(BadaceyError, match=rf"seed {int(bad)} is negative: expected None or an integer 0 or more"):
                call(bad)
        for wrong in (True, 1.5, "1"):
            with pytest.raises(TypeError, match=rf"seed must be None or an int, not {type(wrong).__name__}"):
                call(wrong)
    # numpy integers are seeds like ints: the same samples.
    assert calls[0](np.int64(3)) == calls[0](3)
    assert calls[2](np.uint8(3)) == calls[2](3)


def one_pot_share(finals, game):
    """Independent pot shares of a single-pot game's showdown from the reference: the one half it plays
    (A-5 and 2-7 the low, Badugi the badugi) is the whole pot, split among tied winners."""
    if game == "badugi":
        ranks = [reference.badugi_rank(h, False) for h in finals]
    else:
        ranks = [reference.low_rank(h, game) for h in finals]
    best = min(ranks)
    return [Fraction(1, ranks.count(best)) if r == best else Fraction(0) for r in ranks]


@pytest.mark.parametrize("game, hands, discards", [
    ("a5", ["As 2h 3d 6c 6d", "2c 4d 5h 5s 6s"], ["6d", "5s"]),
    ("27", ["2h 3d 4c 6c 6d", "2c 4d 5h 5s 6s"], ["6d", "5s"]),
    ("badugi", ["As 2h 3d 6d", "2c 4d 5h 5s"], ["6d", "5s"]),  # four-card hands
])
def test_single_pot_games_are_played_for_their_one_half(backend, game, hands, discards):
    # equity() once split every pot in two halves whatever the game: A-5 and 2-7 gave the low hand half
    # the pot, not all of it.  Against the reference judging every outcome of both draws:
    dead = SMALL_DEAD + parse_cards("4s 4h 3s")
    eq = equity(hands, discards, dead, game)
    assert eq.exact
    held = [parse_cards(h) for h in hands]
    kept = [tuple(c for c in h if c not in parse_cards(d)) for h, d in zip(held, discards)]
    pool = [c for c in range(52) if c not in dead and all(c not in h for h in held)]
    totals, count = [Fraction(0)] * 2, 0
    for a in pool:
        for b in (c for c in pool if c != a):
            shares = one_pot_share([kept[0] + (a,), kept[1] + (b,)], game)
            totals = [t + s for t, s in zip(totals, shares)]
            count += 1
    assert eq.outcomes == count
    assert eq.shares == pytest.approx([float(t / count) for t in totals], abs=1e-12)
    played = eq.badugi if game == "badugi" else eq.low
    assert played == pytest.approx(eq.shares, abs=1e-12)
    assert (eq.low if game == "badugi" else eq.badugi) == (0.0, 0.0)  # the half it does not play
    sampled = equity(hands, discards, dead, game, samples=4000, seed=3)
    assert all(abs(s - e) <= 4 * err + 1e-9 for s, e, err in zip(sampled.shares, eq.shares, sampled.stderr))


def test_badugi_equity_takes_four_card_hands_and_refuses_five(backend):
    with pytest.raises(HandSizeError, match="expected 4 cards"):
        equity(["As 2h 3d 4c 5s", "2c 3h 4d 5c 6s"], game="badugi")
    eq = equity(["As 2h 3d 4c", None], game="badugi", samples=2000, seed=1)  # the nuts against a random hand
    assert eq.shares[0] > 0.99
