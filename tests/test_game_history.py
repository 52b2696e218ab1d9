"""Hand histories: JSON and PHH round trips (history -> text -> parsed -> replay -> same final state).
pokerkit loading our PHH is in test_pokerkit_crosscheck.py, with every check against pokerkit."""

from __future__ import annotations

import random

import pytest

from badacey_fast.errors import IllegalActionError
from badacey_fast.cards import parse_card, parse_cards
from badacey_fast.game import Action, Game, GameConfig
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.errors import HandHistoryError, HistoryError
from badacey_fast.game.history import from_json, replay, to_json
from badacey_fast.game.phh import from_phh, replay_phh, to_phh
from badacey_fast.game.simulate import play_hand

GAMES = ("badacey", "badeucy", "badugi", "a5", "27")


def random_hand(rng: random.Random, game: str | None = None, deep: bool = False) -> Game:
    cfg = GameConfig(game=game or rng.choice(GAMES), burn=not deep and rng.random() < 0.3,
                     ante=0 if deep else rng.choice([0, 1]), cap=rng.choice([4, None]) if not deep else 4)
    n = rng.randint(2, 6)
    stacks = [200] * n if deep else [rng.randint(1, 60) for _ in range(n)]
    bots = [RuleBot(seed=rng.randrange(99)) if rng.random() < 0.3 else RandomBot(seed=rng.randrange(99))
            for _ in range(n)]
    return play_hand(Game(cfg, stacks, button=rng.randrange(n), seed=rng.randrange(10**6)), bots)


def same_final_state(a: Game, b: Game) -> bool:
    return (a.stacks == b.stacks and a.payouts == b.payouts and a.hands == b.hands and a.log == b.log
            and a.dealt == b.dealt and a.folded == b.folded and a.reshuffles == b.reshuffles)


def test_json_round_trip_every_preset_and_option(backend):
    rng = random.Random(1)
    for _ in range(400):
        g = random_hand(rng)
        assert same_final_state(replay(from_json(to_json(g))), g)


def test_phh_round_trip_including_reshuffles_and_burns(backend):
    rng = random.Random(2)
    reshuffled = burned = 0
    for _ in range(600):
        g = random_hand(rng)
        text = to_phh(g)
        assert same_final_state(replay_phh(text), g)
        reshuffled += bool(g.reshuffles)
        burned += bool(g.burned)
    assert reshuffled > 20 and burned > 50     # the hard cases were really exercised


def test_replay_refuses_a_tampered_history():
    g = random_hand(random.Random(3), deep=True)
    data = from_json(to_json(g))
    data["result"]["stacks"][0] += 1
    with pytest.raises(HandHistoryError, match="replay reached"):
        replay(data)
    data = from_json(to_json(g))
    data["actions"].insert(0, [(data["button"] + 3) % len(data["stacks"]), "raise", 99])
    with pytest.raises(IllegalActionError):
        replay(data)


def test_phh_fields_and_variant_codes():
    g = Game("badugi", stacks=[50, 60, 70], button=1, seed=4).apply("fold").apply("fold")
    text = to_phh(g)
    assert "variant = 'FB'" in text and "_game = 'badugi'" in text
    # p1 is left of the button (seat 2), the button (seat 1) is last.
    assert "starting_stacks = [70, 50, 60]" in text and "seats = [3, 1, 2]" in text
    assert "variant = 'F2L3D'" in to_phh(Game(stacks=[10, 10], seed=1))
    with pytest.raises(HandHistoryError, match="variant 'NT'"):
        from_phh(text.replace("'FB'", "'NT'"))
    with pytest.raises(HandHistoryError, match="unknown cards"):
        from_phh(text.replace(text.split("d dh p1 ")[1][:8], "????????"))


def test_a_refused_draw_in_a_scripted_replay_changes_nothing():
    # Tamper with a recorded hand: the first replacement card becomes one a player holds.  Replaying,
    # that draw is refused (the scripted card is not in the stub) and the hand is exactly as before it.
    g = Game(stacks=[30, 30], seed=4)
    g.apply("call").apply("check")
    while g.phase == "drawing":
        g.apply(Action("draw", cards=tuple(g.hands[g.to_act][:2])))
    data = from_json(to_json(g))
    dealt = data["dealt"].split()
    dealt[10] = dealt[0]  # cards 0..9 are the deal; 10 is the first replacement
    data["dealt"] = " ".join(dealt)
    r = Game(GameConfig(**data["config"]), data["stacks"], button=data["button"],
             _script=[parse_card(t) for t in dealt])
    seat_actions = [(e[0], Action(e[1], None, parse_cards(e[2])) if e[1] == "draw" else Action(e[1], *e[2:]))
                    for e in data["actions"]]
    for seat, action in seat_actions[:2]:
        r.apply(action, seat=seat)
    draw_seat, draw_action = seat_actions[2]
    for seat in (draw_seat, None):  # the checked path (as replay) and the fast path
        before, state = r.snapshot(), to_json(r)
        with pytest.raises(IllegalActionError, match=f"scripted card {dealt[0]} is not in the stub"):
            r.apply(draw_action, seat=seat)
        assert r.snapshot() == before and to_json(r) == state
    with pytest.raises(IllegalActionError, match="not in the stub"):
        replay(data)


def test_a_refused_burn_in_a_scripted_replay_changes_nothing():
    # With burn cards, the burn is dealt when a betting round ends: inside the betting action that ends
    # it.  Tamper with the recorded burn card (make it one a player holds): replaying, that betting action
    # is refused and the hand is exactly as before it (the check's chips, log and phase included).
    g = Game(GameConfig(burn=True), stacks=[30, 30], seed=4)
    g.apply("call").apply("check")
    data = from_json(to_json(g))
    dealt = data["dealt"].split()
    assert len(dealt) == 11  # the 10-card deal, then the burn
    dealt[10] = dealt[0]
    r = Game(GameConfig(**data["config"]), data["stacks"], button=data["button"],
             _script=[parse_card(t) for t in dealt])
    r.apply("call")
    for seat in (r.to_act, None):  # the checked path (as replay) and the fast path
        r.legal_actions()
        before, state = r.snapshot(), to_json(r)
        with pytest.raises(IllegalActionError, match=f"scripted card {dealt[0]} is not in the stub"):
            r.apply("check", seat=seat)
        assert r.snapshot() == before and to_json(r) == state


# ------------------------------------------------------------------------------------------------------
# Several hands in one file: PHH hand sets (.phhs) and JSON lines (issue 24)


def test_a_phh_hand_set_round_trips_every_hand(backend):
    from badacey_fast.game.phh import from_phhs, replay_phhs, to_phhs

    rng = random.Random(5)
    games = [random_hand(rng) for _ in range(120)]
    text = to_phhs(games)
    import re

    headers = re.findall(r"^\[(\d+)\]\nvariant = ", text, re.M)             # every hand under its own table
    assert headers == [str(k) for k in range(1, 121)] and text.count("variant = ") == 120
    again = replay_phhs(text)
    assert len(again) == 120 and all(same_final_state(a, g) for a, g in zip(again, games))
    assert len(from_phhs(text)) == 120
    # One hand's PHH is a set of one; a set is not one hand.
    assert same_final_state(replay_phhs(to_phh(games[0]))[0], games[0])
    with pytest.raises(HandHistoryError, match="hand set of 120 hands .*replay_phhs"):
        replay_phh(text)


def test_a_broken_hand_in_a_set_is_named_by_its_number():
    from badacey_fast.game.phh import replay_phhs, to_phhs

    games = [random_hand(random.Random(s), deep=True) for s in range(3)]
    text = to_phhs(games)
    second = text.index("[2]")
    tampered = text[:second] + text[second:].replace("finishing_stacks = [", "finishing_stacks = [1", 1)
    with pytest.raises(HandHistoryError, match="hand 2 of the PHH hand set: PHH replay reached"):
        replay_phhs(tampered)


@pytest.mark.parametrize("name", ["hands.phhs", "hands.jsonl"])
def test_a_history_file_holds_every_hand_and_is_written_whole(tmp_path, name):
    from badacey_fast.game.history_file import HistoryFile, read_histories

    rng = random.Random(7)
    games = [random_hand(rng) for _ in range(40)]
    target = tmp_path / name
    with HistoryFile(target) as out:
        for g in games:
            out.add(g)
    again = read_histories(target)
    assert out.written == 40 and all(same_final_state(a, g) for a, g in zip(again, games)) and len(again) == 40
    before = target.read_bytes()
    with pytest.raises(KeyboardInterrupt):
        with HistoryFile(target) as out:
            out.add(games[0])
            raise KeyboardInterrupt
    assert target.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_the_engine_and_the_room_readers_raise_one_hand_history_error():
    # One concept, one class: HistoryError is its deprecated old name; a history of ours has no file:line.
    assert HistoryError is HandHistoryError
    with pytest.raises(HandHistoryError) as caught:
        replay_phh('variant = "NT"\nstarting_stacks = [10, 10]\nactions = []\n')
    assert str(caught.value) == caught.value.reason and caught.value.file == "" and caught.value.line == 0
    assert str(HandHistoryError("truncated hand", "hands.txt", 19)) == "hands.txt:19: truncated hand"
