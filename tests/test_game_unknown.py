"""Unknown cards in a replay (a real hand history): the stub's UNKNOWN script entry, the engine's unjudged
showdown, the JSON history's ``??`` and the pots of an unjudged hand (RULES.md §4, §7)."""

from __future__ import annotations

import random

import pytest

from badacey_fast.cards import parse_cards
from badacey_fast.errors import IllegalActionError, ShowdownError
from badacey_fast.game import Action, Game, GameConfig
from badacey_fast.errors import HandHistoryError
from badacey_fast.game.history import from_json, history, replay, to_json
from badacey_fast.pots import settle, side_pots
from badacey_fast.rules.stub import UNKNOWN, Stub, is_unknown

U = UNKNOWN


def _ids(text: str) -> list[int]:
    return list(parse_cards(text))


def test_unknown_entries_deal_distinct_placeholders_and_never_a_named_card():
    named = _ids("As Ks Qs Jd 2c")
    script = [named[0], U, U, named[1], U, named[2], U, named[3], U, named[4]]
    s = Stub(script=script, rng=random.Random(3))
    dealt = s.deal(len(script))
    unknown = [c for c in dealt if is_unknown(c)]
    assert [c for c in dealt if not is_unknown(c)] == named  # the named cards, in script order
    assert len(unknown) == 5 and len(set(unknown)) == 5 and all(52 <= c < 104 for c in unknown)
    stand_ins = {c - U for c in unknown}
    assert not stand_ins & set(named)  # a stand-in is never a card the script names
    assert len(s) == 52 - len(script)  # every unknown card took a real card out of the stub
    assert not stand_ins & set(s.cards) and not set(named) & set(s.cards)


def test_unknown_cards_keep_the_reshuffle_where_the_known_deal_has_it():
    # The same deal twice: all cards known, then every card but the drawing seat's replaced by UNKNOWN.
    rng = random.Random(11)
    order = list(range(52))
    rng.shuffle(order)
    known = order  # the whole deck in dealing order: the 52nd card comes after the reshuffle
    seat_cards = set(known[::3])  # the cards "seen": every third one
    masked = [c if c in seat_cards else U for c in known]
    a = Stub(script=known, rng=random.Random(1))
    b = Stub(script=masked, rng=random.Random(1))
    a.deal(44)
    b.deal(44)
    a.add_to_muck(a.dealt[:10])
    b.add_to_muck(b.dealt[:10])
    got_a, got_b = a.draw((), 8), b.draw((), 8)  # 8 owed, 8 in the stub: 7, the reshuffle, then 1 more
    assert a.reshuffles == b.reshuffles == [51]
    assert [c for c in got_a if c in seat_cards] == [c for c in got_b if not is_unknown(c)]
    assert len(a) == len(b) and len(a.muck) == len(b.muck)


def test_with_every_stub_card_named_an_unknown_card_is_the_one_named_furthest_ahead_and_comes_back_as_it():
    # 3 then an unknown card, then every other card: each is named, 2h (id 2) last of all.
    s = Stub(script=[3, U] + list(range(4, 52)) + [0, 1, 2], rng=random.Random(1))
    assert s.deal(2) == [3, 2 + U]                  # the stand-in is 2h, dealt as its placeholder
    s.add_to_muck([3, 2 + U])                       # thrown: it comes back with the reshuffle
    assert s.deal(48) == list(range(4, 52))
    assert s.draw((), 3) == [0, 1, 2]               # 0, then 1 is the last card: reshuffle; 2h is named now
    assert s.reshuffles == [51]


def test_a_named_card_still_held_as_an_unknown_one_is_refused_and_changes_nothing():
    s = Stub(script=[U] + list(range(52)), rng=random.Random(1))
    assert s.deal(1) == [51 + U]                    # Ks (named last) stands in, and stays in that hand
    s.deal(45)
    s.add_to_muck([0, 1, 2])
    assert s.draw((), 6) == [45, 46, 47, 48, 49, 50]  # 5, then 50 is the last card: reshuffled with the muck
    before = s.state()
    with pytest.raises(IllegalActionError, match="scripted card Ks is not in the stub"):
        s.draw((), 1)
    assert s.state() == before


def _heads_up(final_known: bool):
    """Seat 1 (the big blind, the hero) is known throughout; seat 0's cards are unknown until a shown
    final hand (``final_known``), which the script deals in its last five slots."""
    hero = _ids("As 2d 3h 4c Ks")
    villain_final = _ids("7c 8c 9d Th Jh")
    script = []
    for k in range(5):  # one card at a time from the seat left of the button: seat 1 first
        script += [hero[k], U]
    # Draw 1: seat 1 throws Ks for 5s; seat 0 throws 3 unknown cards for 3 cards (the first 3 of its final)
    script += _ids("5s") + (villain_final[:3] if final_known else [U] * 3)
    # Draw 2: seat 1 pat; seat 0 throws its 2 last unknown cards for the last 2 of its final hand
    script += villain_final[3:] if final_known else [U] * 2
    return Game("badacey", stacks=[100, 100], button=0, _script=script), hero


def _play(g: Game, hero: list[int]) -> Game:
    g.apply("call").apply("check")
    g.apply(Action("draw", cards=(hero[4],)))                    # seat 1 first after the button
    g.apply(Action("draw", cards=tuple(g.hands[0][:3])))         # three of seat 0's unknown cards
    g.apply("bet").apply("call")
    g.apply(Action("draw", cards=()))
    g.apply(Action("draw", cards=tuple(c for c in g.hands[0] if is_unknown(c))))  # its last two unknown
    for _ in range(2):
        g.apply("check").apply("check")
        if not g.is_over:
            g.apply(Action("draw", cards=())).apply(Action("draw", cards=()))
    return g


def test_a_showdown_with_an_unknown_live_hand_ends_unjudged_with_the_pot_built():
    g = _play(*_heads_up(final_known=False))
    assert g.is_over and g.payouts is None and g.settlement is None
    assert g.contrib == [4, 4] and g.stacks == [96, 96]  # the pot is built, unpaid: the caller awards it
    assert any(is_unknown(c) for c in g.hands[0]) and not any(is_unknown(c) for c in g.hands[1])


def test_a_showdown_of_shown_hands_is_judged_although_unknown_cards_were_dealt_and_thrown():
    g = _play(*_heads_up(final_known=True))
    assert sorted(g.hands[0]) == sorted(_ids("7c 8c 9d Th Jh"))
    expected = settle([4, 4], [tuple(g.hands[0]), tuple(g.hands[1])], button=0, game="badacey")
    assert g.payouts == expected.payouts == [0, 8]  # 5-4-3-2-A; badugi A-2-3-4 against T-9-8-7
    assert any(is_unknown(c) for c in g.dealt)


def test_a_fold_win_with_unknown_cards_is_paid():
    g, _ = _heads_up(final_known=False)
    g.apply("raise").apply("fold")
    assert g.payouts == [4, 0] and g.returned == [2, 0]


def test_json_history_writes_unknown_cards_as_question_marks_and_replays_them():
    g = _play(*_heads_up(final_known=False))
    data = history(g)
    assert "??" in data["dealt"] and data["dealt"].split()[:2] == ["As", "??"]
    draws = [a for a in data["actions"] if a[1] == "draw" and a[0] == 0]
    assert draws[0][2] == "?? ?? ??"
    again = replay(from_json(to_json(g)))
    assert again.hands == g.hands and again.stacks == g.stacks and again.payouts is None
    assert again.dealt == g.dealt and again.log == g.log


def test_a_json_draw_throwing_more_unknown_cards_than_held_is_refused():
    g = _play(*_heads_up(final_known=False))
    data = history(g)
    seat0_draw = next(k for k, a in enumerate(data["actions"]) if a[1] == "draw" and a[0] == 0)
    data["actions"][seat0_draw][2] = "?? ?? ?? ?? ?? ??"
    with pytest.raises(HandHistoryError, match="throws more unknown cards than seat 0 holds"):
        replay(data)


def test_side_pots_are_the_pots_settle_pays():
    paid, hands = [20, 60, 60, 101], ["As 2h 3d 4c 5s", "2c 4h 6h 7h Ac", "Ks Qd 9c 5h 5d", None]
    s = settle(paid, hands)
    assert side_pots(paid, [0, 1, 2]) == [(p.amount, list(p.eligible)) for p in s.pots] == [(80, [0, 1, 2]),
                                                                                              (161, [1, 2])]
    assert side_pots([5, 5, 0], [1]) == [(10, [1])]
    with pytest.raises(ShowdownError, match="live seat 3 is not a seat 0..2"):
        side_pots([5, 5, 0], [3])
    with pytest.raises(ShowdownError, match="no live seat"):
        side_pots([5, 5], [])


def test_a_config_default_game_is_unchanged_by_the_unknown_support():
    # No UNKNOWN in the script: no placeholder, the stub reports none.
    g = Game(GameConfig(), stacks=[50, 50], seed=4)
    assert max(g.dealt) < 52 and not Stub(script=[3, 4]).has_unknown and Stub(script=[3, U]).has_unknown


def test_replay_takes_a_config_object_and_card_ids_and_refuses_other_dealt_values():
    g = _play(*_heads_up(final_known=True))
    data = history(g)
    data["config"] = g.config
    data["dealt"] = list(g.dealt)  # ids, placeholders included
    again = replay(data)
    assert again.stacks == g.stacks and again.payouts == g.payouts and again.dealt == g.dealt
    data["dealt"] = ["As", 5]
    with pytest.raises(HandHistoryError, match="dealt must be card text or card ids"):
        replay(data)
