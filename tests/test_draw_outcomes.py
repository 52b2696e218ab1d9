"""draw_outcomes and best_discards: counts worked by hand, both twins against a brute force over the
reference evaluators, and bad input.  Ranks are dense, lower is better."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from badacey_fast.kernel import backend as _backend

from badacey_fast.rules import reference as reference
from badacey_fast.cards import parse_cards
from badacey_fast.draw.outcomes import DrawOutcomes, best_discards, draw_outcomes
from badacey_fast.draw.equities import equity
from badacey_fast.errors import (
    BadaceyError,
    DuplicateCardError,
    HandSizeError,
    IllegalActionError,
    InvalidCardError,
    RankError,
    UnknownGameError,
)


def brute(hand, discard, dead, game):
    """Independent histogram: every replacement set, judged by the reference evaluators directly."""
    hand, discard, dead = parse_cards(hand), parse_cards(discard), parse_cards(dead)
    kept = tuple(c for c in hand if c not in discard)
    unseen = [c for c in range(52) if c not in hand and c not in dead]
    low, bd = Counter(), Counter()
    for drawn in combinations(unseen, len(discard)):
        cards = kept + drawn
        low[reference.low_rank(cards, game)] += 1
        bd[reference.badugi_rank(cards, game == "badeucy")] += 1
    return low, bd


def as_counter(counts):
    return Counter({r: c for r, c in enumerate(counts, 1) if c})


def frac(p: float, total: int) -> Fraction:
    return Fraction(p).limit_denominator(total)


# ---- counts worked out by hand from the rules -------------------------------------------------------

def test_one_card_to_a_four_low_counts_the_outs(backend):
    # Kept A-2-3-4 (As 2h 3d 4c); 47 unseen.  A 5..Q (4 each) or one of the 3 other kings makes a
    # no-pair low topped by that card; the 12 other aces, deuces, treys, fours pair the hand.
    out = draw_outcomes("As 2h 3d 4c Kd", discard="Kd")
    assert out.total == 47
    highs = {h: frac(p, 47) for h, p in out.low_high_cards().items()}
    assert highs == {**{h: Fraction(4, 47) for h in "56789TJQ"}, "K": Fraction(3, 47)}
    cats = {c: frac(p, 47) for c, p in out.low_categories().items() if p}
    assert cats == {"no pair": Fraction(35, 47), "one pair": Fraction(12, 47)}
    seven_low = reference.low_rank(parse_cards("7c 4d 3h 2s Ac"))
    assert frac(out.p_low(seven_low), 47) == Fraction(12, 47)  # a 5, 6 or 7
    assert frac(out.p_low(1), 47) == Fraction(4, 47)  # the wheel: four fives


def test_one_card_badugi_outs(backend):
    # Kept As 2h 3d Kd: a club whose rank is not A, 2, 3 makes A-2-3-X (4c..Qc: 9 cards; Kc is the
    # discard, so not unseen) and 3c makes As 2h 3c Kd: 10 outs of 47.  Every other card leaves 3 cards.
    out = draw_outcomes("As 2h 3d Kd Kc", discard="Kc", game="badacey")
    sizes = out.badugi_sizes()
    assert frac(sizes[4], 47) == Fraction(10, 47)
    assert frac(sizes[3], 47) == Fraction(37, 47)
    assert sizes[2] == sizes[1] == 0


@pytest.mark.parametrize("game", ["badacey", "badeucy"])
def test_one_card_to_the_nut_badugi(backend, game):
    # Kept 2c 3d 4h 9d, throwing 9h: only a spade can complete the badugi: the 10 spades not 2, 3, 4
    # (9s with 9d dropped), and 3s with the 9d as the diamond (2c 3s 4h 9d); 2s and 4s pair a rank the
    # badugi needs.  Exactly one card gives rank 1: As (ace low) or 5s (ace high).
    out = draw_outcomes("2c 3d 4h 9h 9d", discard="9h", game=game)
    assert frac(out.p_badugi(715), 47) == Fraction(11, 47)
    assert frac(out.p_badugi(1), 47) == Fraction(1, 47)


def test_badeucy_straight_and_flush_count_against_the_hand(backend):
    # Kept 7c 5d 4h 3s: a deuce makes 7-5-4-3-2 (rank 1, the nuts), a six makes the 7-high straight.
    out = draw_outcomes("7c 5d 4h 3s Kd", discard="Kd", game="badeucy")
    assert frac(out.p_low(1), 47) == Fraction(4, 47)
    assert frac(out.low_categories()["straight"], 47) == Fraction(4, 47)
    # Four clubs: each of the 9 other clubs left makes a flush (one of them, 6c, a straight flush).
    flush = draw_outcomes("2c 4c 8c 9c Kd", discard="Kd", game="badeucy").low_categories()
    assert frac(flush["flush"], 47) == Fraction(9, 47)


def test_standing_pat_is_certain(backend):
    out = draw_outcomes("Ac 2d 3h 4s 5s", discard="")
    assert out.total == 1 and out.low_counts[0] == 1 and out.badugi_counts[0] == 1
    assert out.pat_share(low=1, badugi=1) == 0.5 and out.pat_share(low=2, badugi=2) == 1.0


# ---- both twins against the brute force -------------------------------------------------------------

def random_case(rng: random.Random, max_draw: int):
    deck = list(range(52))
    rng.shuffle(deck)
    hand = tuple(deck[:5])
    discard = tuple(rng.sample(hand, rng.randint(0, max_draw)))
    dead = tuple(deck[5 : 5 + rng.randint(0, 12)])
    return hand, discard, dead


@pytest.mark.parametrize("game", ["badacey", "badeucy"])
def test_random_draws_match_the_brute_force(backend, game):
    rng = random.Random(f"draw-{game}")
    for _ in range(6):
        hand, discard, dead = random_case(rng, max_draw=2)
        out = draw_outcomes(hand, discard, dead, game)
        low, bd = brute(hand, discard, dead, game)
        assert out.total == comb(52 - 5 - len(dead), len(discard)) == sum(low.values())
        assert as_counter(out.low_counts) == low
        assert as_counter(out.badugi_counts) == bd


@pytest.mark.parametrize("game", ["badacey", "badeucy"])
def test_random_big_draws_from_a_small_deck_match_the_brute_force(backend, game):
    # Up to five cards drawn, with 30 to 36 cards dead so that the brute force stays quick.
    rng = random.Random(f"big-{game}")
    for _ in range(4):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = tuple(deck[:5])
        discard = tuple(rng.sample(hand, rng.randint(3, 5)))
        dead = tuple(deck[5 : 5 + rng.randint(30, 36)])
        out = draw_outcomes(hand, discard, dead, game)
        low, bd = brute(hand, discard, dead, game)
        assert (as_counter(out.low_counts), as_counter(out.badugi_counts)) == (low, bd)


def test_three_card_draw_matches_the_brute_force(backend):
    hand, discard, dead = "2h 4h 6h 7h Ac", "2h 4h 6h", "Ks Qd 9c 5h 5s"
    out = draw_outcomes(hand, discard, dead, "badeucy")
    low, bd = brute(hand, discard, dead, "badeucy")
    assert (as_counter(out.low_counts), as_counter(out.badugi_counts)) == (low, bd)


@pytest.mark.backend_independent  # it serves itself from the C twin: once, not once a twin
def test_c_five_card_draw_matches_the_reference_histogram_totals():
    # The whole fresh hand of five: the C enumeration must count every five-card set of the 47 exactly
    # once; its histogram must equal the number of hands of each rank among those sets, which the
    # reference counts from the rank-class sizes of the 47-card deck below (too slow to enumerate here).
    with _backend.using("c"):
        out = draw_outcomes("As 2h 3d 4c 5s", "As 2h 3d 4c 5s")
    assert out.total == sum(out.low_counts) == sum(out.badugi_counts) == comb(47, 5)
    # Five distinct ranks from the 47 cards with no A..5 of those suits: the wheel needs A, 2, 3, 4, 5
    # from the 3 remaining of each rank: 3**5 ways.
    assert out.low_counts[0] == 3**5


def test_c_draw_kernel_rejects_bad_input_and_damaged_tables():
    # The C entry points validate what they are given: no read or write past a buffer, whatever the input.
    kern = _backend.kernel()
    ffi, lib = kern.ffi, kern.lib
    table = kern.table(False)
    low, bd = ffi.new("uint64_t[]", 6176), ffi.new("uint64_t[]", 1093)
    unseen = ffi.new("uint8_t[]", list(range(5, 52)))
    kept = ffi.new("uint8_t[]", [0, 1, 2, 3])

    def hist(kept_, n_kept, unseen_=unseen, n_unseen=47, table_=table, low_len=6176):
        return lib.bd_draw_histograms(table_, kept_, n_kept, unseen_, n_unseen, low, low_len, bd, 1093)

    assert hist(kept, 4) == 47
    assert hist(kept, 6) == lib.BD_DRAW_BAD_ARGS
    assert hist(kept, 4, n_unseen=53) == lib.BD_DRAW_BAD_ARGS
    assert hist(ffi.NULL, 4) == lib.BD_DRAW_BAD_ARGS
    assert hist(ffi.new("uint8_t[]", [0, 1, 2, 52]), 4) == lib.BD_DRAW_BAD_CARD
    assert hist(ffi.new("uint8_t[]", [0, 1, 2, 5]), 4) == lib.BD_DRAW_DUP_CARD  # 5 is also unseen
    assert hist(kept, 4, unseen_=ffi.new("uint8_t[]", [9, 9]), n_unseen=2) == lib.BD_DRAW_DUP_CARD
    zeros = ffi.new("uint32_t[]", 2607152)  # a table of zeros: rank 0 never fits
    assert hist(kept, 4, table_=zeros) == lib.BD_DRAW_BAD_TABLE
    assert hist(kept, 4, low_len=10) == lib.BD_DRAW_BAD_TABLE  # a rank past the histogram is refused
    hand = ffi.new("uint8_t[]", [0, 1, 2, 3, 3])
    big_low, big_bd = ffi.new("uint64_t[]", 32 * 6176), ffi.new("uint64_t[]", 32 * 1093)
    assert lib.bd_draw_all_discards(table, hand, unseen, 47, big_low, 6176, big_bd, 1093) == lib.BD_DRAW_DUP_CARD


def test_best_discards_all_32_match_one_by_one_and_the_brute_force(backend):
    rng = random.Random("best")
    deck = list(range(52))
    rng.shuffle(deck)
    hand, dead = tuple(deck[:5]), tuple(deck[5:35])  # 17 unseen: the 32 discards are 26,334 outcomes
    choices = best_discards(hand, dead, "badacey", "badugi")
    assert len(choices) == 32 and len({ch.discard for ch in choices}) == 32
    assert sum(ch.outcomes.total for ch in choices) == comb(22, 5)
    scores = [ch.score for ch in choices]
    assert scores == sorted(scores, reverse=True)
    for ch in choices:
        if len(ch.discard) <= 2:
            low, bd = brute(hand, ch.discard, dead, "badacey")
            assert as_counter(ch.outcomes.low_counts) == low and as_counter(ch.outcomes.badugi_counts) == bd
        assert ch.score == ch.outcomes.p_badugi(715)


@pytest.mark.exhaustive("python")
def test_best_discards_one_way_hand_with_dead_cards(backend):
    # Seed 000's one-way hand with most of the deck dead (keeps the Python twin quick): standing pat never
    # makes a badugi, yet it is certain to keep the hand's own low, so it leads the low objective.
    dead = parse_cards("Ks Kd Kc Qs Qd Qc Js Jd Jc Ts Td Tc 9s 9d 9c 8s 8d 8c 3c 3d 3h 3s 5c 5d 5h 7s 7d 7c 6s 6d")
    choices = best_discards("2h 4h 6h 7h Ac", dead, objective="badugi")
    pat = {ch.discard: ch for ch in choices}[()]
    assert pat.score == 0.0 and pat.outcomes.total == 1
    low_first = best_discards("2h 4h 6h 7h Ac", dead, objective="low")[0]
    assert low_first.discard == () and low_first.score == 1.0


@pytest.mark.backend_independent  # it serves itself from the C twin: once, not once a twin
def test_best_discards_one_way_hand_full_deck_in_c():
    # The whole deck (the C twin only: 2.6 million outcomes).  Keeping Ac and one heart and drawing three
    # is the best badugi draw; the four such choices tie (relabelling the heart ranks maps one onto
    # another) and the tie goes to the better expected badugi rank, keeping the lowest heart, the 2h.
    with _backend.using("c"):
        choices = best_discards("2h 4h 6h 7h Ac", objective="badugi")
    hearts = parse_cards("2h 4h 6h 7h")
    top = choices[:4]
    assert {frozenset(ch.discard) for ch in top} == {frozenset(d) for d in combinations(hearts, 3)}
    assert len({ch.score for ch in top}) == 1 and top[0].score > choices[4].score
    assert set(top[0].discard) == set(parse_cards("4h 6h 7h"))


@pytest.mark.exhaustive("python")
def test_best_discards_share_against_a_pat_opponent(backend):
    # Cora (one-way) against Dmitri standing pat with a badugi: standing pat wins exactly the low half.
    dead = parse_cards("Kc Kd Qs Qd Qc Js Jd Jc Ts Td Tc 9s 9d 8s 8d 8c 3c 3d 3h 3s 5c 5d")
    choices = best_discards("2h 4h 6h 7h Ac", dead, objective="share", opponent="Ks Qh 9c 5h 5s")
    by = {ch.discard: ch for ch in choices}
    assert by[()].score == 0.5
    assert all(0.0 <= ch.score <= 1.0 for ch in choices)
    assert choices[0].score == max(ch.score for ch in choices)


def test_best_discards_share_against_a_drawing_opponent(backend):
    # Eight unseen cards: every (our replacement, the opponent's replacement) pair judged by the reference.
    hand, opp, opp_throw = "As 2h 3d 6c Kd", "2c 4d 5h 9s Kh", "Kh"
    dead = [c for c in range(52) if c not in parse_cards(hand + " " + opp)][:34]
    unseen = [c for c in range(52) if c not in dead and c not in parse_cards(hand + " " + opp)]
    assert len(unseen) == 8
    choices = best_discards(hand, dead, objective="share", opponent=opp, opponent_discard=opp_throw)
    assert len(choices) == 32
    opp_kept = parse_cards("2c 4d 5h 9s")
    for ch in choices:
        kept = tuple(c for c in parse_cards(hand) if c not in ch.discard)
        total, n = Fraction(0), 0
        for mine in combinations(unseen, len(ch.discard)):
            for b in (c for c in unseen if c not in mine):
                lows = [reference.low_rank(kept + mine), reference.low_rank(opp_kept + (b,))]
                bds = [reference.badugi_rank(kept + mine), reference.badugi_rank(opp_kept + (b,))]
                total += Fraction(1 + (lows[0] < lows[1]) - (lows[0] > lows[1]), 4)
                total += Fraction(1 + (bds[0] < bds[1]) - (bds[0] > bds[1]), 4)
                n += 1
        assert ch.score == pytest.approx(float(total / n), abs=1e-12) and ch.stderr == 0.0


@pytest.mark.exhaustive("python")  # whole-deck draws on the reference: the Python twin's run in CI's exhaustive step
def test_callable_objective_and_probabilities_are_consistent(backend):
    choices = best_discards("As 2h 3d Kc Kd", objective=lambda o: -o.expected_low_rank,
                            dead=parse_cards("Qs Qd Qc Js Jd Jc Ts Td Tc 9s 9d 9c 8s 8d 8c 7s 7d 7c 6s 6d 6c 5s 5d 5c 4s 4d"))
    o: DrawOutcomes = choices[0].outcomes
    assert choices[0].score == -o.expected_low_rank == max(-ch.outcomes.expected_low_rank for ch in choices)
    assert sum(o.badugi_sizes().values()) == pytest.approx(1.0)
    assert sum(o.low_categories().values()) == pytest.approx(1.0)
    assert o.p_low(len(o.low_counts)) == 1.0 and o.p_badugi(1092) == 1.0


# ---- bad input -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(hand="As 2h 3d Kc Kd", discard="Qs"), IllegalActionError, "'Qs'"),
        (dict(hand="As 2h 3d Kc Kd", discard="Kc", dead="2h"), DuplicateCardError, "'2h'"),
        (dict(hand="As 2h 3d Kc", discard="Kc"), HandSizeError, "expected 5 cards"),
        (dict(hand="As 2h 3d Kc Kd", discard="Kc Kc"), DuplicateCardError, "'Kc'"),
        (dict(hand="As 2h 3d Kc Kx"), InvalidCardError, "'Kx'"),
        (dict(hand="As 2h 3d Kc Kd", game="razz"), UnknownGameError, "'razz'"),
        (dict(hand="As 2h 3d Kc Kd", discard="As 2h 3d Kc Kd",
              dead=[c for c in range(52) if c not in parse_cards("As 2h 3d Kc Kd")][:44]), BadaceyError, "cannot draw 5"),
    ],
)
def test_draw_outcomes_bad_input(backend, kwargs, error, words):
    with pytest.raises(error, match=words):
        draw_outcomes(**kwargs)


def test_bad_ranks_objectives_and_types(backend):
    out = draw_outcomes("As 2h 3d 4c Kd", "Kd")
    with pytest.raises(RankError, match="6176"):
        out.p_low(6176)
    with pytest.raises(TypeError):
        out.p_badugi("1")  # type: ignore[arg-type]
    with pytest.raises(BadaceyError, match="'best'"):
        best_discards("As 2h 3d 4c Kd", objective="best")
    with pytest.raises(DuplicateCardError, match="'As'"):
        best_discards("As 2h 3d 4c Kd", objective="share", opponent="As 3h 4d 5c 6s")
    with pytest.raises(TypeError):
        draw_outcomes(12345)  # type: ignore[arg-type]


# ---- the command line -------------------------------------------------------------------------------

@pytest.fixture
def run(monkeypatch, capsys):
    """Run ``badacey`` with only this module's commands registered; returns (status, stdout, stderr)."""
    from badacey_fast.cli import command as cli

    monkeypatch.setattr(cli, "COMMAND_MODULES", ("badacey_fast.cli.draw",))

    def go(*argv: str):
        status = cli.main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return go


def test_cli_draw_prints_the_exact_figures(backend, run):
    status, out, err = run("draw", "As 2h 3d 4c Kd", "--discard", "Kd", "--low-target", "7c 4d 3h 2s Ac")
    assert status == 0 and err == ""
    assert "47 equally likely outcomes" in out
    assert "4-card 100.00%" in out  # A-2-3-4 in four suits is kept
    assert "P(low rank <= " in out and "25.53%" in out  # 12 of 47: a 5, 6 or 7


@pytest.mark.backend_independent  # it serves itself from the C twin: once, not once a twin
def test_cli_best_discard_prints_all_32_choices(run):
    with _backend.using("c"):  # the whole deck: 2.6 million outcomes
        status, out, err = run("best-discard", "2h 4h 6h 7h Ac")
    assert status == 0
    rows = [line for line in out.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 32 and [int(r.split()[0]) for r in rows] == list(range(1, 33))
    assert rows[0].split()[1:4] == ["4h", "6h", "7h"]
    assert any(r.split()[1] == "pat" for r in rows)


def test_cli_equity_exact_and_monte_carlo(backend, run):
    status, out, _ = run("equity", "As 2h 3d 4c Kd", "2c 3h 4d 5c 6s", "--discard", "Kd", "--discard", "-")
    assert status == 0 and "42 outcomes (exact;" in out and "share 0.5714" in out
    status, out, _ = run("equity", "As 2h 3d 4c 5s", "?", "--samples", "200", "--seed", "1")
    assert status == 0 and "Monte Carlo, seed 1" in out and "+/-" in out and "unknown" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (("draw", "As 2h 3d 4c Kd", "--discard", "Qs"), "'Qs'"),
        (("best-discard", "As 2h 3d 4c", "--dead", "Kd"), "expected 5 cards"),
        (("equity", "As 2h 3d 4c 5s"), "2 to 6 seats"),
        (("equity", "As 2h 3d 4c 5s", "As 3h 4d 5c 6s"), "'As'"),
        (("draw", "As 2h 3d 4c Kd", "--game", "razz"), "'razz'"),
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(run, argv, words):
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


@pytest.mark.parametrize("discard", ["", "Kd", "Kc Kd", "3d Kc Kd"])
def test_draw_outcomes_reports_progress_on_both_backends(backend, discard):
    # The contract of the Python enumerator, now the C one's too: progress(done, total) with the
    # outcome counts, done never decreasing, and a last call (total, total) once every outcome is counted.
    calls = []
    out = draw_outcomes("As 2h 3d Kc Kd", discard, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (out.total, out.total) == (comb(47, len(parse_cards(discard))),) * 2
    assert all(total == out.total and 0 < done <= total for done, total in calls)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_best_discards_reports_progress_on_both_backends(backend):
    hand = parse_cards("As 2h 3d Kc Kd")
    dead = [c for c in range(52) if c not in hand][:40]  # 7 unseen cards: quick on the Python twin too
    calls = []
    best_discards(hand, dead, progress=lambda done, total: calls.append((done, total)))
    need = sum(comb(5, k) * comb(7, k) for k in range(6))  # every replacement of every discard
    assert calls and calls[-1] == (need, need)
    assert all(total == need and 0 < done <= total for done, total in calls)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


@pytest.mark.parametrize("objective", ["share", "badugi"])
def test_best_discards_names_a_card_shared_with_the_opponent(backend, objective):
    # A card in both hands is a duplicate between the two hands, not a "dead" card of ours.
    with pytest.raises(DuplicateCardError, match=r"card 'As' is in our hand and in the opponent's hand"):
        best_discards("As 2h 3d 4c Kd", objective=objective, opponent="As 3h 4d 5c 6s")
    with pytest.raises(DuplicateCardError, match=r"card '6s' is in the opponent's hand and dead"):
        best_discards("As 2h 3d 4c Kd", dead="Qc 6s", objective=objective, opponent="Ks 3h 4d 5c 6s")
    with pytest.raises(DuplicateCardError, match=r"card 'Qc' is both in the hand and dead"):  # unchanged
        best_discards("As 2h 3d 4c Qc", dead="Qc 6s", objective=objective, opponent="Ks 3h 4d 5c 6s")


# ---- the default objective: the whole pot ---------------------------------------------------------

@pytest.mark.backend_independent  # it serves itself from the C twin: once, not once a twin
def test_default_objective_throws_the_king_from_a_wheel_badugi():
    # As 2h 3d 4c is already the best badugi, so P(badugi) ties stand pat, [Kd] and [3d]; the pot share
    # (both halves) sees that only the king's throw helps the low half.  The whole deck: the C twin.
    with _backend.using("c"):
        choices = best_discards("As 2h 3d 4c Kd")
        assert choices[0].discard == parse_cards("Kd")
        by = {ch.discard: ch.score for ch in choices}
        assert by[parse_cards("Kd")] > by[()] > by[parse_cards("3d")]
        # On P(badugi) the three tie; the split game's other half breaks the tie for the king too.
        assert best_discards("As 2h 3d 4c Kd", objective="badugi")[0].discard == parse_cards("Kd")


def _share_brute(hand, discard, dead, halves, game="badacey"):
    """Pot share against one random pat hand of the unseen cards, drawn independently of our
    replacements (the objective's definition), by the reference evaluators and exact fractions."""
    hand, discard, dead = parse_cards(hand), parse_cards(discard), parse_cards(dead)
    kept = tuple(c for c in hand if c not in discard)
    unseen = [c for c in range(52) if c not in hand and c not in dead]
    ace_high = game == "badeucy"

    def ranks(cards):
        return {"low": reference.low_rank(cards, game), "badugi": reference.badugi_rank(cards, ace_high)}

    villains = [ranks(v) for v in combinations(unseen, 5)]
    total, n = Fraction(0), 0
    for drawn in combinations(unseen, len(discard)):
        mine = ranks(kept + drawn)
        for v in villains:
            for h in halves:
                total += Fraction(1 + (mine[h] < v[h]) - (mine[h] > v[h]), 2 * len(halves))
            n += 1
    return total / n


@pytest.mark.parametrize("game, halves", [("badacey", ("low", "badugi")), ("badeucy", ("low", "badugi")),
                                          ("a5", ("low",)), ("27", ("low",))])
def test_share_against_a_random_hand_matches_the_brute_force(backend, game, halves):
    hand = "As 2h 3d 6c Kd" if game != "27" else "2s 3h 4d 7c Kd"
    rng = random.Random(game)
    rest = [c for c in range(52) if c not in parse_cards(hand)]
    rng.shuffle(rest)
    dead = rest[:38]  # 9 unseen cards: 126 random hands
    choices = best_discards(hand, dead, game)
    assert choices[0].score == max(ch.score for ch in choices)
    for ch in choices:
        if len(ch.discard) in (0, 1, 3):
            fam = "badeucy" if game in ("badeucy", "27") else "badacey"
            assert ch.score == pytest.approx(float(_share_brute(hand, ch.discard, dead, halves, fam)), abs=1e-12)


@pytest.mark.backend_independent  # it serves itself from the C twin: once, not once a twin
def test_share_against_a_random_hand_is_close_to_the_true_equity():
    # The objective leaves out the card removal between our replacements and the random hand: against
    # the real thing (equity, Monte Carlo, a random hand) it is off by a few thousandths at most.
    from badacey_fast.draw.equities import equity

    with _backend.using("c"):
        for hand in ("As 2h 3d 4c Kd", "2h 4h 6h 7h Ac"):
            choices = best_discards(hand)
            for ch in choices[:3]:
                eq = equity([hand, None], [ch.discard, None], samples=100_000, seed=7)
                assert abs(ch.score - eq.shares[0]) < 0.006 + 4 * eq.stderr[0], (ch, eq)


@pytest.mark.parametrize("game, hand, villain", [
    ("badacey", "As 2h 3d 4c Kd", "8low+, 9badugi+"),
    ("badeucy", "7s 5h 4d 3c Kd", "9low+, 0.5*9badugi+"),
    ("a5", "As 2h 3d 4c Kd", "7low+"),
])
@pytest.mark.exhaustive("python")  # whole-deck draws on the reference: the Python twin's run in CI's exhaustive step
def test_share_against_a_range_standing_pat_is_range_equity(backend, game, hand, villain):
    # Standing pat there is no replacement to remove cards: the objective is then exact, equal to the
    # showdown equity against the range (computed by range_equity its own way).
    from badacey_fast.draw.range_equity import range_equity

    dead = "Qs Qh Jc Jd Js 9c 9d"
    rest = [c for c in range(52) if c not in parse_cards(hand) and c not in parse_cards(dead)]
    # The highest cards of the game's order dead too, 17 cards left unseen: keeps the Python twin quick,
    # and the range alive.
    rest.sort(key=lambda c: (c // 4 - 1) % 13 if game == "badeucy" else c // 4)
    dead = parse_cards(dead) + tuple(rest[17:])
    pat = {ch.discard: ch for ch in best_discards(hand, dead, game, against=villain)}[()]
    assert pat.score == pytest.approx(range_equity(hand, villain, dead, game).shares[0], abs=1e-12)
    anyone = {ch.discard: ch for ch in best_discards(hand, dead, game)}[()]
    assert anyone.score == pytest.approx(range_equity(hand, "any", dead, game).shares[0], abs=1e-12)


@pytest.mark.exhaustive("python")
def test_share_against_two_ranges_counts_ties_among_three(backend):
    # Two villains who both hold a wheel, as we do, split the low three ways.
    hand = "As 2h 3d 4c 5s"
    dead = [c for c in range(52) if c // 4 > 4]  # left: the other 15 aces to fives (243 wheels among them)
    one = {ch.discard: ch.score for ch in best_discards(hand, dead, "a5", against="5432Alow")}
    two = {ch.discard: ch.score for ch in best_discards(hand, dead, "a5", against=["5432Alow", "5432Alow"])}
    assert one[()] == pytest.approx(1 / 2) and two[()] == pytest.approx(1 / 3)
    with pytest.raises(BadaceyError, match="no hand left"):
        best_discards(hand, dead, "a5", against="6543Alow")  # every one of them needs a dead six


def test_default_objectives_per_game(backend):
    from badacey_fast.draw.outcomes import DEFAULT_OBJECTIVES

    assert DEFAULT_OBJECTIVES == {"badacey": "share", "badeucy": "share", "a5": "share", "27": "share",
                                  "badugi": "badugi"}
    dead = [c for c in range(52) if c not in parse_cards("As 2h 3d 4c Kd")][-36:]
    for game, hand in (("badugi", "As 2h 3d Kd"), ("a5", "As 2h 3d 4c Kd")):  # Badugi hands: four cards
        got = [(ch.discard, ch.score) for ch in best_discards(hand, dead, game)]
        want = [(ch.discard, ch.score) for ch in best_discards(hand, dead, game, DEFAULT_OBJECTIVES[game])]
        assert got == want
    # A-5 plays the low alone: its share is the low half's, not the mean of both.
    a5 = {ch.discard: ch.score for ch in best_discards("As 2h 3d 4c Kd", dead, "a5")}
    both = {ch.discard: ch.score for ch in best_discards("As 2h 3d 4c Kd", dead, "badacey")}
    assert a5[()] != both[()]


def test_pat_share_over_one_half(backend):
    out = draw_outcomes("Ac 2d 3h 4s 5s", discard="")
    assert out.pat_share(low=1, badugi=1) == 0.5
    assert out.pat_share(low=2, badugi=1, halves=("low",)) == 1.0
    assert out.pat_share(low=1, badugi=1, halves=("badugi",)) == 0.5
    with pytest.raises(BadaceyError, match="'high'"):
        out.pat_share(low=1, badugi=1, halves=("high",))


def test_share_objective_bad_arguments(backend):
    with pytest.raises(BadaceyError, match="not both"):
        best_discards("As 2h 3d 4c Kd", opponent="Ks 3h 4d 5c 6s", against="any")
    with pytest.raises(BadaceyError, match="against= is for objective 'share'"):
        best_discards("As 2h 3d 4c Kd", objective="badugi", against="any")
    with pytest.raises(BadaceyError, match="opponent_discard needs opponent"):
        best_discards("As 2h 3d 4c Kd", opponent_discard="Kd")
    with pytest.raises(TypeError, match="int"):
        best_discards("As 2h 3d 4c Kd", against=[7])
    with pytest.raises(BadaceyError, match="1 to 5 ranges"):
        best_discards("As 2h 3d 4c Kd", against=[])
    dead = [c for c in range(52) if c not in parse_cards("As 2h 3d 4c Kd")][:44]
    with pytest.raises(BadaceyError, match="only 3 unseen cards"):
        best_discards("As 2h 3d 4c Kd", dead)


@pytest.mark.exhaustive("python")  # whole-deck draws on the reference: the Python twin's run in CI's exhaustive step
def test_a_single_pot_game_against_a_drawing_opponent_is_played_for_its_one_half(backend):
    # Refused before (equity() split every pot in two); now each score is equity()'s for the one pot.
    dead = "Qs Qd Qc Qh Js Jd Jc Jh Ts Td Tc Th 9s 9d 9c 9h 8s 8d 8c 8h"
    choices = best_discards("As 2h 3d 4c Kd", dead, "a5", "share", opponent="Ks 3h 4d 5c 6s", opponent_discard="Ks")
    for ch in choices[:3]:
        eq = equity(["As 2h 3d 4c Kd", "Ks 3h 4d 5c 6s"], [ch.discard, "Ks"], dead, "a5")
        assert ch.score == pytest.approx(eq.shares[0], abs=1e-12) == pytest.approx(eq.low[0], abs=1e-12)


def test_badugi_hands_have_four_cards(backend):
    # The hand size comes from the game: a Badugi hand is four cards, counted against the reference.
    dead = parse_cards("Ks Kd Kc Kh Qs Qd Qc Qh Js Jd Jc Jh Ts Td Tc Th 9s 9d 9c 9h 8s 8d 8c 8h 7s 7d")
    hand = parse_cards("As 2h 3d 6c")
    unseen = [c for c in range(52) if c not in dead and c not in hand]
    out = draw_outcomes(hand, "3d 6c", dead, "badugi")
    assert out.halves == ("badugi",) and out.low_counts == () and out.total == len(list(combinations(unseen, 2)))
    want = [0] * len(out.badugi_counts)
    for drawn in combinations(unseen, 2):
        want[reference.badugi_rank(parse_cards("As 2h") + drawn, False) - 1] += 1
    assert list(out.badugi_counts) == want
    assert out.low_categories() == {} and out.low_high_cards() == {}
    with pytest.raises(BadaceyError, match="4-card hand has no low"):
        out.p_low(100)
    with pytest.raises(HandSizeError, match="expected 4 cards"):
        draw_outcomes("As 2h 3d 6c 7s", "7s", game="badugi")
    best = best_discards(hand, dead, "badugi")
    assert len(best) == 16 and len({ch.discard for ch in best}) == 16
    by_discard = {ch.discard: ch for ch in best}
    assert by_discard[parse_cards("3d 6c")].score == pytest.approx(out.p_badugi())
    assert best == sorted(best, key=lambda ch: -ch.score)
    with pytest.raises(BadaceyError, match="plays no low"):
        best_discards(hand, dead, "badugi", "low")


def test_a_game_without_a_badugi_half_says_so(backend):
    out = draw_outcomes("As 2h 3d 4c Kd", "Kd", game="27")
    assert out.halves == ("low",) and draw_outcomes("As 2h 3d 4c Kd", "Kd").halves == ("low", "badugi")
