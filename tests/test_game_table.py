"""A running table (badacey_fast.game.table, RULES.md §4): the moving button, blinds order, joiners who
wait for or post the big blind, stacks carried over, chip conservation with joins and leaves, bad input.

Expected seats are worked out by hand from the rules in table.py's docstring (stated in each comment).
"""

from __future__ import annotations

import random

import pytest

from badacey_fast.errors import BadaceyError
from badacey_fast.game import Action, Game, GameConfig, Table, draw
from badacey_fast.game.audit import audit
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.errors import ConfigError
from badacey_fast.game.simulate import play_hand
from badacey_fast.errors import SeatError

_PAT = draw()


def passive(view) -> Action:
    """Check or call, stand pat: nobody folds, so every dealt-in seat reaches the showdown."""
    if view.phase == "drawing":
        return _PAT
    kinds = {a.kind: a for a in view.legal_actions()}
    return kinds.get("check") or kinds["call"]


PASSIVE = {s: passive for s in range(6)}


def table_seat(t: Table, game_seat: int) -> int:
    return t.dealt_in[game_seat]


def seat_players(t: Table, seats, stack: int = 1000, join: str = "wait") -> None:
    for s in seats:
        t.sit_down(s, stack, join=join)


# ------------------------------------------------------------------------------ button and blinds
def test_button_moves_clockwise_over_occupied_seats_and_blinds_follow() -> None:
    t = Table(seed=1)
    seat_players(t, [0, 2, 3, 5])
    occupied = [0, 2, 3, 5]
    for h in range(24):
        g = t.play_hand(PASSIVE)
        # Moving button: seats 0, 2, 3, 5, 0, ... (empty seats 1 and 4 skipped); the small blind is the next
        # occupied seat clockwise, the big blind the one after.
        k = h % 4
        assert t.button == occupied[k]
        assert table_seat(t, g.sb_seat) == occupied[(k + 1) % 4]
        assert table_seat(t, g.bb_seat) == occupied[(k + 2) % 4]
        # The first to act before the draw is left of the big blind (the log's first entry).
        assert table_seat(t, g.log[0][0]) == occupied[(k + 3) % 4]
        assert g.contrib[g.sb_seat] >= 1 and g.contrib[g.bb_seat] >= 2
    assert t.hands_played == 24


def test_heads_up_button_posts_the_small_blind() -> None:
    t = Table(seats=6, seed=2, button=3)
    seat_players(t, [1, 4])
    buttons = []
    for _ in range(6):
        g = t.play_hand(PASSIVE)
        buttons.append(t.button)
        # Heads-up: the button is the small blind and acts first before the draw.
        assert table_seat(t, g.sb_seat) == t.button
        assert table_seat(t, g.log[0][0]) == t.button
    # the first button is the first occupied seat at or after seat 3, then it alternates
    assert buttons == [4, 1, 4, 1, 4, 1]


def test_stacks_carry_over_from_hand_to_hand() -> None:
    t = Table(seed=3)
    seat_players(t, [0, 1, 4], stack=60)
    bots = {s: RandomBot(seed=s) for s in range(6)}
    before = t.stacks
    for _ in range(30):
        if sum(1 for v in before.values() if v > 0) < 2:
            break
        g = t.play_hand(bots)
        # every dealt-in seat started with its table stack and ends with the game's final stack
        assert list(g.starting_stacks) == [before[s] for s in t.dealt_in]
        after = t.stacks
        for i, s in enumerate(t.dealt_in):
            assert after[s] == before[s] + g.winnings[i]
        for s in set(before) - set(t.dealt_in):
            assert after[s] == before[s]
        assert sum(after.values()) == 180
        before = after


# ----------------------------------------------------------------------------------------- joiners
def test_joiner_waits_until_the_big_blind_reaches_them() -> None:
    t = Table(seed=4)
    seat_players(t, [0, 2, 4])
    t.play_hand(PASSIVE)  # button 0, small blind 2, big blind 4
    t.sit_down(1, 500, join="wait")
    assert t.waiting() == (1,)
    # Hand 2: button 2; counting seat 1 the blinds would be 4 and 0: the big blind is not on seat 1.
    g = t.play_hand(PASSIVE)
    assert t.button == 2 and t.dealt_in == (0, 2, 4)
    assert t.stacks[1] == 500 and t.waiting() == (1,)
    # Hand 3: button 4; counting seat 1 the blinds are 0 and 1: seat 1 comes in as the big blind.
    g = t.next_hand()
    assert t.button == 4 and t.dealt_in == (0, 1, 2, 4) and t.posted == ()
    assert table_seat(t, g.bb_seat) == 1 and table_seat(t, g.sb_seat) == 0
    assert g.contrib == [1, 2, 0, 0] and g.pot == 3  # only the normal blinds, no extra post
    play_hand(g, [passive] * g.n)
    assert t.waiting() == ()
    assert sum(t.stacks.values()) == 3500


def test_joiner_posting_is_dealt_in_at_once_and_the_post_is_live_and_counted() -> None:
    t = Table(seed=5)
    seat_players(t, [0, 2, 4])
    t.play_hand(PASSIVE)  # button 0
    t.sit_down(1, 300, join="post")
    # Hand 2: button 2, small blind 4, big blind 0; seat 1 (under the gun) posts a big blind of its own.
    g = t.next_hand()
    assert t.button == 2 and t.dealt_in == (0, 1, 2, 4) and t.posted == (1,)
    i = t.dealt_in.index(1)
    assert g.contrib[i] == 2 and g.stacks[i] == 298 and g.pot == 1 + 2 + 2
    # Live: the poster acts first (left of the big blind) and, unraised, may check.
    assert g.to_act == i and [a.kind for a in g.legal_actions()] == ["check", "raise"]
    total = sum(t.stacks.values())  # the table's view during the hand: stacks before it
    play_hand(g, [passive] * g.n)
    audit(g)
    assert sum(g.contrib) == 4 * 2  # everybody put in the big blind; nobody bet more
    assert sum(t.stacks.values()) == total == 3300


def test_poster_on_the_big_blind_posts_nothing_extra() -> None:
    t = Table(seed=6)
    seat_players(t, [0, 2, 4])
    t.play_hand(PASSIVE)  # button 0
    t.sit_down(5, 300, join="post")
    g = t.next_hand()  # button 2: small blind 4, big blind 5
    assert t.posted == () and table_seat(t, g.bb_seat) == 5 and g.pot == 3


def test_poster_in_the_small_blind_seat_sits_out_until_the_button_passes() -> None:
    t = Table(seed=7)
    seat_players(t, [0, 2, 4])
    t.play_hand(PASSIVE)  # button 0
    t.sit_down(3, 300, join="post")
    t.play_hand(PASSIVE)  # button 2: seat 3 would be the small blind, so it is not dealt in
    assert t.dealt_in == (0, 2, 4) and t.waiting() == (3,)
    g = t.next_hand()  # button 4: small blind 0, big blind 2, seat 3 posts
    assert t.button == 4 and t.dealt_in == (0, 2, 3, 4) and t.posted == (3,)
    assert g.contrib == [1, 2, 2, 0]


def test_engine_extra_post_scripted() -> None:
    # Four seats, button 0: small blind 1, big blind 2, seat 3 posts 2 live.  Seat 3 checks its option,
    # the button calls 2, the small blind completes with 1, the big blind checks: 8 in the pot.
    g = Game(stacks=[50] * 4, button=0, seed=9, posts=[3])
    for a in ("check", "call", "call", "check"):
        g.apply(a)
        audit(g)
    assert g.phase == "drawing" and g.pot == 8 and g.stacks == [48] * 4
    # a short poster posts what it has and is all-in
    g = Game(stacks=[50, 50, 50, 1], button=0, seed=9, posts=[3])
    assert g.contrib == [0, 1, 2, 1] and g.stacks[3] == 0 and g.to_act == 0


def test_ante_game_deals_joiners_in_at_once() -> None:
    t = Table(GameConfig(small_blind=0, big_blind=0, ante=1), seed=8)
    seat_players(t, [0, 1])
    t.play_hand(PASSIVE)
    t.sit_down(3, 100)
    t.play_hand(PASSIVE)
    assert t.dealt_in == (0, 1, 3)


def test_busted_player_sits_out() -> None:
    for seed in range(40):
        t = Table(seed=seed)
        t.sit_down(0, 100)
        t.sit_down(1, 100)
        t.sit_down(2, 2)  # the first big blind is all-in
        t.play_hand(PASSIVE)
        if t.stacks[2] == 0:
            break
    else:
        pytest.fail("seat 2 never lost its all-in big blind in 40 seeded hands")
    t.play_hand(PASSIVE)
    assert t.dealt_in == (0, 1) and t.stacks[2] == 0 and sum(t.stacks.values()) == 202
    assert t.stand_up(2) == 0


def test_same_seed_same_session() -> None:
    def session(seed: int) -> list[tuple]:
        t = Table(seed=seed)
        seat_players(t, [0, 3, 5], stack=80)
        bots = {s: RandomBot(seed=s) for s in range(6)}
        out = []
        for h in range(15):
            if h == 5:
                t.sit_down(1, 80, join="post")
            g = t.play_hand(bots)
            out.append((t.button, t.dealt_in, tuple(g.dealt), tuple(sorted(t.stacks.items()))))
        return out

    assert session(11) == session(11)
    assert session(11) != session(12)


# ------------------------------------------------------------------- conservation under churn
def test_chips_conserved_over_hundreds_of_hands_with_joins_and_leaves() -> None:
    rnd = random.Random(2026)
    t = Table(seed=99)
    bots = {s: RandomBot(seed=100 + s) for s in range(6)}
    brought = taken = 0
    hands = 0
    seen = {"post": 0, "wait": 0, "sit out": 0}  # the churn must exercise every rule, not just run
    for _ in range(600):
        seated = t.stacks
        r = rnd.random()
        busted = [s for s, v in seated.items() if v == 0]
        if busted and rnd.random() < 0.3:
            taken += t.stand_up(busted[0])
        elif r < 0.1 and seated:
            taken += t.stand_up(rnd.choice(sorted(seated)))
        elif r < 0.3 and len(seated) < 6:
            seat = rnd.choice([s for s in range(6) if s not in seated])
            chips = rnd.randint(1, 200)
            t.sit_down(seat, chips, join=rnd.choice(["wait", "post"]))
            brought += chips
        live = [s for s, v in t.stacks.items() if v > 0]
        if len(live) < 2:
            with pytest.raises(SeatError):
                t.next_hand()
            continue
        before = t.stacks
        newcomers = set(t.waiting())
        prev_button = t.button
        g = t.next_hand()
        hands += 1
        audit(g)
        dealt = t.dealt_in
        assert all(before[s] > 0 for s in dealt)  # busted players sit out
        assert list(g.starting_stacks) == [before[s] for s in dealt]
        small, big = table_seat(t, g.sb_seat), table_seat(t, g.bb_seat)
        live_before = sorted(s for s, v in before.items() if v > 0)
        established = [s for s in live_before if s not in newcomers]
        if len(established) < 2:  # a new game starts: everyone with chips is dealt in, nobody posts
            assert dealt == tuple(live_before) and t.posted == ()
        else:
            # a running table: the button moves to the next established seat, no newcomer is the small
            # blind, a waiter comes in only as the big blind (one at most), a poster posts min(bb, stack)
            assert set(established) <= set(dealt)
            if prev_button is not None:
                ring = [(prev_button + k) % 6 for k in range(1, 7)]
                assert t.button == next(s for s in ring if s in established)
            assert small not in newcomers
            entered = newcomers & set(dealt)
            assert len(entered - set(t.posted) - {big}) == 0
            seen["post"] += len(t.posted)
            seen["wait"] += len(entered - set(t.posted))
            seen["sit out"] += len(live_before) - len(dealt)
            for s in t.posted:
                i = dealt.index(s)
                assert g.sbet[i] == g.contrib[i] == min(2, before[s])
        play_hand(g, [bots[s] for s in dealt])
        audit(g)
        assert sum(t.stacks.values()) == brought - taken
    assert hands > 300 and min(seen.values()) >= 5, (hands, seen)


# ---------------------------------------------------------------------------------------- bad input
def test_bad_input_is_refused_with_clear_errors() -> None:
    t = Table(seats=6, seed=1)
    for s in range(6):
        t.sit_down(s, 10)
    with pytest.raises(SeatError, match="seat 3 is occupied"):
        t.sit_down(3, 10)
    with pytest.raises(SeatError, match="seat 6 is not at this table"):  # a 7th player on a 6-max table
        t.sit_down(6, 10)
    with pytest.raises(ConfigError, match="2 to 6 seats, got 7"):
        Table(seats=7)
    with pytest.raises(ConfigError, match="2 to 6 seats, got 1"):
        Table(seats=1)
    t.stand_up(5)
    with pytest.raises(ConfigError, match="positive int of chips, got -5"):
        t.sit_down(5, -5)
    with pytest.raises(ConfigError, match="got 0"):
        t.sit_down(5, 0)
    with pytest.raises(TypeError, match="stack must be an int"):
        t.sit_down(5, True)
    with pytest.raises(ConfigError, match="unknown join 'later'"):
        t.sit_down(5, 10, join="later")
    with pytest.raises(SeatError, match="seat 5 is empty"):
        t.stand_up(5)
    with pytest.raises(TypeError):
        t.sit_down("1", 10)
    g = t.next_hand()
    with pytest.raises(SeatError, match="while a hand is running"):
        t.sit_down(5, 10)
    with pytest.raises(SeatError, match="while a hand is running"):
        t.stand_up(0)
    with pytest.raises(SeatError, match="while a hand is running"):
        t.next_hand()
    play_hand(g, [passive] * g.n)
    t.sit_down(5, 10)  # allowed again once the hand is over
    lone = Table(seats=2)
    lone.sit_down(0, 5)
    with pytest.raises(SeatError, match="2 players with chips, the table has 1"):
        lone.next_hand()
    assert issubclass(SeatError, BadaceyError) and issubclass(SeatError, ValueError)


def test_engine_rejects_bad_posts() -> None:
    with pytest.raises(ConfigError, match="post seat 2"):
        Game(stacks=[10] * 4, button=0, seed=1, posts=[2])  # seat 2 is the big blind
    with pytest.raises(ConfigError, match="post seat 3"):
        Game(stacks=[10] * 4, button=0, seed=1, posts=[3, 3])
    with pytest.raises(ConfigError, match="post seat 9"):
        Game(stacks=[10] * 4, button=0, seed=1, posts=[9])
    with pytest.raises(ConfigError, match="ante game"):
        Game(GameConfig(small_blind=0, big_blind=0, ante=1), stacks=[10] * 4, seed=1, posts=[3])


def test_hand_with_a_joiners_post_replays_from_json_and_phh() -> None:
    from badacey_fast.game.history import from_json, replay, to_json
    from badacey_fast.game.phh import replay_phh, to_phh

    t = Table(seed=5)
    seat_players(t, [0, 2, 4])
    t.play_hand(PASSIVE)
    t.sit_down(1, 300, join="post")
    g = t.next_hand()
    assert t.posted == (1,)
    play_hand(g, [RandomBot(seed=3)] * g.n)
    again = replay(from_json(to_json(g)))
    assert again.posts == g.posts and again.stacks == g.stacks and again.payouts == g.payouts
    assert replay_phh(to_phh(g)).stacks == g.stacks


@pytest.mark.parametrize("name", ["table.phhs", "table.jsonl"])
def test_a_table_saves_every_hand_it_plays(tmp_path, name) -> None:
    from badacey_fast.game.history_file import HistoryFile, read_histories

    with HistoryFile(tmp_path / name) as out:
        t = Table(seed=9, save=out)
        seat_players(t, [0, 2, 4])
        played = [t.play_hand({s: RuleBot(seed=s) for s in (0, 1, 2, 3, 4)}) for _ in range(6)]
        t.sit_down(1, 300)                                   # a joiner: the hands' seats change
        played += [t.play_hand({s: RandomBot(seed=s) for s in (0, 1, 2, 3, 4)}) for _ in range(6)]
        g = t.next_hand()                                    # driven by hand: saved when the table takes it back
        play_hand(g, [RandomBot(seed=1)] * g.n)
        assert out.written == 12
        t.stacks
        played.append(g)
    again = read_histories(tmp_path / name)
    assert out.written == 13 and len(again) == 13
    assert [a.stacks for a in again] == [g.stacks for g in played] and [a.log for a in again] == [g.log for g in played]
