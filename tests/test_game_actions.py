"""The engine takes its own words (issue 24, item 5): every string format_action prints is an action
apply() accepts, checked against the state like any other; and Game takes game= like every entry point."""

from __future__ import annotations

import random

import pytest

from badacey_fast.errors import IllegalActionError, InvalidCardError
from badacey_fast.game import Action, Game, GameConfig, Table, draw, format_action, parse_action, simulate
from badacey_fast.game.bots import RandomBot
from badacey_fast.errors import ConfigError

pytestmark = pytest.mark.backend_independent  # no evaluation: the words of actions and the config


def test_format_action_round_trips_through_parse_action():
    for a in (Action("fold"), Action("check"), Action("call"), Action("call", 2), Action("bet"),
              Action("bet", 4), Action("raise"), Action("raise", 8), draw(), draw("7h Kd"),
              draw("As 2h 3d 4c 5s")):
        assert parse_action(format_action(a)) == a, a


def test_every_printed_action_of_random_hands_is_accepted():
    # Whatever the engine offers, printed and read back, is what it applies: the hands end alike.
    rng = random.Random(24)
    for k in range(60):
        seats = 2 + k % 5
        a = Game(stacks=[rng.choice([7, 30, 100])] * seats, seed=k)
        b = Game(stacks=list(a.starting_stacks), seed=k)
        while not a.is_over:
            move = rng.choice(a.legal_actions())
            if move.kind == "draw":
                held = a.hands[a.to_act]
                move = draw(rng.sample(held, rng.randint(0, len(held))))
            a.apply(move)
            b.apply(format_action(move))
        assert a.log == b.log and a.stacks == b.stacks


def test_call_and_raise_text_must_match_the_state():
    g = Game(stacks=[100, 100, 100], seed=7)  # seat 0 faces the big blind of 2: calls 2, raises to 4
    with pytest.raises(IllegalActionError, match="calls 2, not 3"):
        g.apply("call 3")
    with pytest.raises(IllegalActionError, match="raise to 4.*not 6"):
        g.apply("raise to 6")
    g.apply("raise to 4").apply("call 3")  # the small blind has 1 in: 3 more
    assert g.log[-2:] == [(0, Action("raise", 4)), (1, Action("call", 3))] or g.sbet[1] == 4


@pytest.mark.parametrize("text, words", [
    ("raise 8", "ambiguous: say 'raise to 8'"),
    ("shove", "unknown action kind 'shove'"),
    ("", "unknown action kind ''"),
    ("call to 2", "only a raise is 'to'"),
    ("fold 2", "fold takes no amount"),
    ("draw 2 (7h)", "2 cards announced, 1 named"),
    ("draw 2", "name the 2 cards"),
    ("bet 4 (7h)", "only a draw names cards"),
])
def test_bad_action_text_names_the_problem(text, words):
    with pytest.raises(IllegalActionError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_action(text)
    with pytest.raises(TypeError):
        parse_action(3)  # type: ignore[arg-type]


def test_a_bad_card_in_a_draw_is_named():
    with pytest.raises(InvalidCardError, match="'7x'"):
        parse_action("draw 1 (7x)")
    with pytest.raises(InvalidCardError, match="'7x'"):
        Game(stacks=[50, 50], seed=1).apply("call").apply("check").apply("draw 1 (7x)")


def test_game_takes_game_like_every_entry_point():
    assert Game(game="badeucy", stacks=[50, 50], seed=1).config.game == "badeucy"
    assert Game(game="Baduci", stacks=[50, 50], seed=1).config == GameConfig(game="badeucy")
    cfg = GameConfig(game="badeucy", cap=3)
    assert Game(cfg, [50, 50], seed=1, game="badeucy").config is cfg  # agreeing: the config as given
    with pytest.raises(ConfigError, match="game='badeucy' but config= plays badacey"):
        Game(GameConfig(), [50, 50], game="badeucy")
    with pytest.raises(ConfigError, match="game='27' but config= plays badugi"):
        Game("badugi", [50, 50], game="27")
    assert Table(game="a5", seats=2).config.game == "a5"
    with pytest.raises(ConfigError):
        Table(GameConfig(), game="27")
    r = simulate([RandomBot(), RandomBot()], hands=50, seed=1, game="badugi")
    assert r == simulate([RandomBot(), RandomBot()], hands=50, seed=1, config="badugi")
    assert r != simulate([RandomBot(), RandomBot()], hands=50, seed=1)
    with pytest.raises(ConfigError):
        simulate([RandomBot(), RandomBot()], hands=5, config="badacey", game="badugi")
