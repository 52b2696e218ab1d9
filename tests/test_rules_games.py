"""One spelling table (RULES.md §5, badacey_fast.rules.games): every spelling accepted anywhere is accepted
everywhere, with the same meaning.

Each accepted spelling (and its upper-case, padded form) goes through every entry point that takes a game;
the answer must equal the canonical name's.  The meaning of each canonical game is pinned separately, from
hands worked by hand, so that "equal to the canonical answer" cannot hide a wrong canonical answer.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

import badacey_fast as bf
from badacey_fast.cli import main
from badacey_fast.errors import UnknownGameError
from badacey_fast.game import Game, GameConfig
from badacey_fast.rules.games import GAMES, PRESETS, SCORINGS, SPELLINGS

# Every spelling in three dresses: as listed, shouted, padded and title-cased.
FORMS = sorted({form for s in SPELLINGS for form in (s, s.upper(), f"  {s.title()} ")})

# Seed 000's quartered pot: Ann's A-2-3-4-K (4-card badugi A-2-3-4) against Ben's wheel (A-2-3-4 badugi).
ANN, BEN = "As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"
# Four-card Badugi hands: a 4-card A-2-3-4 badugi against a 3-card hand (two clubs).
BADUGI_HANDS = ("As 2h 3d 4c", "Ac 2c 3h 4s")


def canonical(form: str) -> str:
    return SPELLINGS[form.strip().lower()]


def family(form: str) -> str:
    """The split game whose scales a game ranks on (the meaning of a game for the evaluators)."""
    return GAMES[SCORINGS[canonical(form)].ace_high]


def hands_of(form: str) -> tuple[str, str]:
    return BADUGI_HANDS if SCORINGS[canonical(form)].hand_size == 4 else (ANN, BEN)


def test_the_table_is_the_rules() -> None:
    # RULES.md §5 and the presets: each spelling names the game the rules say it does.
    assert {s for s, c in SPELLINGS.items() if c == "badacey"} >= {"badacey", "badacy", "badaci"}
    assert {s for s, c in SPELLINGS.items() if c == "badeucy"} >= {"badeucy", "badeucey", "baduci"}
    assert set(SPELLINGS.values()) == set(PRESETS)
    assert [SCORINGS[g].ace_high for g in PRESETS] == [False, True, False, False, True]
    assert [SCORINGS[g].halves for g in PRESETS] == [("low", "badugi"), ("low", "badugi"), ("badugi",),
                                                     ("low",), ("low",)]


def test_each_game_means_what_the_rules_say() -> None:
    # Worked by hand (seed 000): Ben's wheel wins the A-5 low, the badugi halves tie (A-2-3-4 both).
    assert bf.showdown([ANN, BEN], 100, game="badacey") == [25, 75]
    # Badeucy: both hands are ace-high lows (A-2-3-4-5 is no straight), and K-4-3-2-A loses to 5-4-3-2-A
    # at the second card; ace-high badugi: Ben's 5c 4s 3h 2d is the nuts, Ann must keep her only spade, the
    # ace, which now plays high.  Ben scoops.
    assert bf.evaluate(BEN, "badeucy").badugi == 1 < bf.evaluate(ANN, "badeucy").badugi
    assert bf.evaluate(BEN, "badeucy").low < bf.evaluate(ANN, "badeucy").low
    assert bf.showdown([ANN, BEN], 100, game="badeucy") == [0, 100]
    # Single-pot games: the whole pot to one half's winner.
    assert bf.showdown([ANN, BEN], 100, game="a5") == [0, 100]
    assert bf.showdown([ANN, BEN], 100, game="27") == [0, 100]
    assert bf.showdown(list(BADUGI_HANDS), 100, game="badugi") == [100, 0]


@pytest.mark.parametrize("form", FORMS)
def test_every_spelling_everywhere_one_hand(form: str) -> None:
    name, fam = canonical(form), family(form)
    assert bf.normalize_game(form) == name
    assert bf.evaluate(ANN, form) == bf.evaluate(ANN, fam)
    assert bf.low_rank(ANN, form) == bf.low_rank(ANN, fam)
    assert bf.badugi_rank("As 2h 3d", game=form) == bf.badugi_rank("As 2h 3d", game=fam)
    assert bf.describe(BEN, form) == bf.describe(BEN, fam)
    assert bf.compare(ANN, BEN, form) == bf.compare(ANN, BEN, fam)
    hands = list(hands_of(form))
    assert bf.showdown(hands, 101, 1, form) == bf.showdown(hands, 101, 1, name)
    detail = bf.showdown_detail(hands, 101, 1, form)
    assert detail.game == name and detail.payouts == bf.showdown_detail(hands, 101, 1, name).payouts
    assert bf.settle([50, 51], hands, 0, form).payouts == bf.settle([50, 51], hands, 0, name).payouts


@pytest.mark.parametrize("form", FORMS)
def test_every_spelling_everywhere_draws_and_bulk(form: str) -> None:
    # Draws and equities are the game's own (its hand size and halves), whatever its spelling; the
    # evaluators rank on the game's family scales.
    fam, name = family(form), canonical(form)
    hands = hands_of(form)
    hand, discard = hands[0], hands[0].split()[-1]
    assert bf.draw_outcomes(hand, discard, game=form) == bf.draw_outcomes(hand, discard, game=name)
    a = bf.equity(list(hands), game=form)
    b = bf.equity(list(hands), game=name)
    assert (a.shares, a.outcomes) == (b.shares, b.outcomes)
    cards = np.array([bf.parse_cards(ANN), bf.parse_cards(BEN)], dtype=np.uint8)
    for x, y in zip(bf.evaluate_many(cards, form), bf.evaluate_many(cards, fam)):
        np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(bf.badugi_rank_many(cards, game=form), bf.badugi_rank_many(cards, game=fam))


@pytest.mark.parametrize("form", FORMS)
def test_every_spelling_everywhere_bulk_showdowns_and_files(form: str) -> None:
    name = canonical(form)
    batch = np.array([[bf.parse_cards(h) for h in hands_of(form)]] * 3, dtype=np.uint8)
    live = np.array([[True, True], [True, False], [False, True]])
    pots, buttons = np.array([101, 7, 0]), np.array([1, 0, 1])
    chips = bf.showdown_many(batch, live, form, pot=pots, button=buttons)
    np.testing.assert_array_equal(chips, bf.showdown_many(batch, live, name, pot=pots, button=buttons))
    for row, alive in enumerate(live):  # the meaning: the single showdown of the same game, row by row
        seat_hands = [h if a else None for h, a in zip(hands_of(form), alive)]
        assert chips[row].tolist() == [x or 0 for x in bf.showdown(seat_hands, int(pots[row]), int(buttons[row]),
                                                                   name)]
    for x, y in zip(bf.score_many(batch, live, form, pot=pots, button=buttons),
                    bf.score_many(batch, live, name, pot=pots, button=buttons)):
        np.testing.assert_array_equal(x, y)
    for x, y in zip(bf.winners_many(batch, live, form), bf.winners_many(batch, live, name)):
        np.testing.assert_array_equal(x, y)
    deals = "".join(f"{p} {b} " + " ".join(h.replace(" ", "") if a else "-" for h, a in zip(hands_of(form), alive))
                    + "\n" for p, b, alive in zip(pots, buttons, live)).encode()
    if SCORINGS[name].hand_size == 5:
        out_form, out_name = io.BytesIO(), io.BytesIO()
        bf.score_file(io.BytesIO(deals), out_form, game=form)
        bf.score_file(io.BytesIO(deals), out_name, game=name)
        assert out_form.getvalue() == out_name.getvalue()
        paid = [[int(x) for x in row.split(",")[1:3]] for row in out_form.getvalue().decode().splitlines()[1:]]
        assert paid == chips.tolist()
    else:  # deal files hold five-card hands: Badugi is refused by name, whatever its spelling
        with pytest.raises(bf.ShowdownError, match="deal files hold five-card hands"):
            bf.score_file(io.BytesIO(deals), io.BytesIO(), game=form)


@pytest.mark.parametrize("form", FORMS)
def test_every_spelling_everywhere_engine(form: str) -> None:
    name = canonical(form)
    assert GameConfig(game=form).game == name
    game = Game(form, stacks=(50, 50), seed=7)
    reference = Game(name, stacks=(50, 50), seed=7)
    assert game.config == reference.config
    assert game.legal_actions() == reference.legal_actions()


@pytest.mark.parametrize("form", FORMS)
def test_every_spelling_everywhere_cli(form: str, capsys: pytest.CaptureFixture[str]) -> None:
    name = canonical(form)
    hands = [h.replace(" ", "") for h in hands_of(form)]
    for argv in (["eval", "--game", form, hands_of(form)[0]], ["showdown", "--game", form, "--pot", "101", *hands],
                 ["simulate", "--game", form, "--hands", "20", "--seed", "3", "--no-progress"]):
        assert main(argv) == 0, capsys.readouterr().err
        got = capsys.readouterr().out
        assert main([*argv[:2], name, *argv[3:]]) == 0
        assert got == capsys.readouterr().out


def test_an_unknown_game_is_refused_alike_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    message = "unknown game 'razz': expected one of badacey, badeucy, badugi, a5, 27"
    calls = [lambda: bf.evaluate(ANN, "razz"), lambda: bf.showdown([ANN, BEN], 10, game="razz"),
             lambda: bf.settle([5, 5], [ANN, BEN], game="razz"), lambda: GameConfig(game="razz"),
             lambda: Game("razz"), lambda: bf.draw_outcomes(ANN, "Kd", game="razz"),
             lambda: bf.evaluate_many(np.zeros((1, 5), dtype=np.uint8), "razz"),
             lambda: bf.score_file(io.BytesIO(b""), io.BytesIO(), game="razz")]
    for call in calls:
        with pytest.raises(UnknownGameError) as info:
            call()
        assert message in str(info.value)
    assert main(["eval", "--game", "razz", ANN]) == 2
    assert message in capsys.readouterr().err
