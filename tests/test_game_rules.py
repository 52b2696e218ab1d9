"""Scripted hands for every rule of RULES.md §4: order of blinds and action, cap, all-in for less, side
pots, fold wins, antes, burns, the reshuffle, and the seeds' worked examples played to showdown.

Expected chip counts are worked out by hand from the rules in each test's comment.
"""

from __future__ import annotations

import pytest

from badacey_fast import parse_cards
from badacey_fast.errors import IllegalActionError
from badacey_fast.game import Action, Game, GameConfig, draw
from badacey_fast.game.audit import audit


def deck_for(n: int, button: int, hands: dict[int, str], extra: str = "", hand_size: int = 5) -> list[int]:
    """A 52-card deck that deals ``hands`` (one at a time from left of the button), then ``extra``."""
    want = {seat: list(parse_cards(text)) for seat, text in hands.items()}
    used = [c for cards in want.values() for c in cards] + list(parse_cards(extra) if extra else ())
    rest = [c for c in range(52) if c not in used]
    deck, filler = [], iter(rest)
    for _ in range(hand_size):
        for k in range(1, n + 1):
            seat = (button + k) % n
            deck.append(want[seat].pop(0) if seat in want else next(filler))
    deck += list(parse_cards(extra)) if extra else []
    deck += [c for c in rest if c not in deck]
    assert sorted(deck) == list(range(52))
    return deck


def play(g: Game, *moves: object) -> Game:
    for m in moves:
        g.apply(m)
        audit(g)
    return g


def check_down(g: Game) -> Game:
    """Everyone stands pat and checks (or calls) to the end."""
    while not g.is_over:
        if g.phase == "drawing":
            g.apply(draw())
        else:
            g.apply("check" if g.to_call() == 0 else "call")
        audit(g)
    return g


def kinds(g: Game) -> list[str]:
    return [a.kind for a in g.legal_actions()]


# ------------------------------------------------------------------------------------------ order

def test_blinds_button_and_first_to_act_six_handed(backend):
    g = Game(stacks=[50] * 6, button=2, seed=1)
    assert g.contrib == [0, 0, 0, 1, 2, 0]        # SB left of the button (3), BB next (4)
    assert g.to_act == 5                          # left of the big blind
    play(g, "call", "call", "call", "call", "call")  # 5, 0, 1, 2 (button), 3 (SB completes)
    assert g.to_act == 4 and kinds(g) == ["check", "raise"]   # the big blind's option
    play(g, "check")
    assert g.phase == "drawing" and g.to_act == 3  # draws start left of the button
    for seat in (3, 4, 5, 0, 1, 2):
        assert g.to_act == seat
        g.apply(draw())
    assert g.phase == "betting" and g.to_act == 3  # betting after the draw: first live left of button


def test_cards_dealt_one_at_a_time_from_left_of_the_button():
    deck = list(range(52))
    g = Game(stacks=[50] * 3, button=1, deck=deck)
    # Dealing order: seat 2, seat 0, seat 1, seat 2, ...
    assert g.hands[2] == [0, 3, 6, 9, 12]
    assert g.hands[0] == [1, 4, 7, 10, 13]
    assert g.hands[1] == [2, 5, 8, 11, 14]


def test_heads_up_button_posts_small_blind_acts_first_then_last(backend):
    g = Game(stacks=[50, 50], button=1, seed=3)
    assert g.contrib == [2, 1]                     # the button (1) posts the small blind
    assert g.to_act == 1                           # and acts first before the draw
    play(g, "call", "check")
    assert g.to_act == 0                           # the big blind draws first ...
    play(g, draw(), draw())
    assert g.to_act == 0                           # ... and bets first: the button acts last
    play(g, "check")
    assert g.to_act == 1


def test_after_the_draw_first_live_seat_left_of_button_skips_folded():
    g = Game(stacks=[50] * 4, button=0, seed=5)
    # SB 1, BB 2, first to act 3; seat 1 (SB) folds.
    play(g, "call", "call", "fold", "check")
    assert g.folded == [False, True, False, False]
    assert g.to_act == 2                           # draw: seat 1 folded, so seat 2 first
    play(g, draw(), draw(), draw())
    assert g.to_act == 2 and g.phase == "betting"


# ------------------------------------------------------------------------------------------ cap

def test_cap_pre_draw_is_four_times_the_big_blind(backend):
    g = Game(stacks=[100] * 3, button=0, seed=2)
    # seat 0 (button) acts first: raise to 4, 6, 8 — the big blind was the first bet.
    play(g, Action("raise", 4), Action("raise", 6), Action("raise", 8))
    assert kinds(g) == ["fold", "call"]             # capped at 4 bets = 8 chips
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match="capped at 4 bets"):
        g.apply(Action("raise", 10))
    assert g.snapshot() == before


def test_cap_after_draws_bet_and_three_raises_with_big_bets():
    g = Game(stacks=[200] * 2, button=0, seed=4)
    play(g, "call", "check", draw(), draw(), "check", "check", draw(), draw())
    assert g.street == 2 and g.bet_size == 4       # big bet after the second draw
    play(g, Action("bet", 4), Action("raise", 8), Action("raise", 12), Action("raise", 16))
    assert kinds(g) == ["fold", "call"]


def test_heads_up_uncapped_only_with_two_players_in_the_hand():
    cfg = GameConfig(heads_up_uncapped=True)
    g = Game(cfg, stacks=[100] * 2, button=0, seed=2)
    play(g, Action("raise", 4), Action("raise", 6), Action("raise", 8))
    assert "raise" in kinds(g)                     # two players: the cap is lifted
    play(g, Action("raise", 10))
    g3 = Game(cfg, stacks=[100] * 3, button=0, seed=2)
    play(g3, Action("raise", 4), Action("raise", 6), Action("raise", 8))
    assert kinds(g3) == ["fold", "call"]           # three in the hand: capped


def test_check_raise_is_allowed():
    g = Game(stacks=[50] * 2, button=0, seed=6)
    play(g, "call", "check", draw(), draw())
    play(g, "check", Action("bet", 2))             # big blind checks, button bets
    assert kinds(g) == ["fold", "call", "raise"]
    play(g, Action("raise", 4))                    # check-raise
    assert g.sbet == [2, 4]


# ------------------------------------------------------------------------------------------ all-in for less

def test_all_in_raise_under_half_a_bet_does_not_reopen_for_those_who_acted():
    # Blinds 2/4, bet 4 (half a bet = 2).  Seat 0 raises to 8; SB (seat 1, 9 chips) is all-in to 9:
    # 1 chip over the full level -> not a full raise.
    cfg = GameConfig(small_blind=2, big_blind=4, small_bet=4, big_bet=8)
    g = Game(cfg, stacks=[100, 9, 100], button=0, seed=7)
    play(g, Action("raise", 8))
    assert g.legal_actions()[-1] == Action("raise", 9)   # all-in for less
    play(g, Action("raise", 9))
    assert g.nbets == 2                            # the short raise did not count toward the cap
    assert g.to_act == 2 and kinds(g) == ["fold", "call", "raise"]   # BB has not acted: may raise
    assert g.legal_actions()[-1] == Action("raise", 12)              # a full bet over the last full level
    play(g, "call")
    assert g.to_act == 0 and kinds(g) == ["fold", "call"]            # seat 0 already acted: call/fold only
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match="not reopened"):
        g.apply(Action("raise", 12))
    assert g.snapshot() == before
    play(g, "call")
    assert g.phase == "drawing" and g.contrib == [9, 9, 9]


def test_all_in_raise_of_half_a_bet_counts_as_a_full_raise():
    cfg = GameConfig(small_blind=2, big_blind=4, small_bet=4, big_bet=8)
    g = Game(cfg, stacks=[100, 10, 100], button=0, seed=7)
    play(g, Action("raise", 8), Action("raise", 10))  # 2 chips over 8 = half a bet: a full raise
    assert g.nbets == 3 and g.full_level == 10
    play(g, "call")                                    # BB calls 10
    assert g.to_act == 0 and g.legal_actions()[-1] == Action("raise", 14)   # reopened for seat 0
    play(g, Action("raise", 14))
    assert g.nbets == 4 and "raise" not in kinds(g)    # and it counted toward the cap of 4


def test_call_all_in_for_less_and_side_pot_settled():
    # Seat 1 (SB) has only 5 chips; seats 0 and 2 go on to bet more.  Seat 1 holds the wheel and the
    # A-2-3-4 badugi: it scoops the main pot (3 x 5 = 15).  Seat 0 beats seat 2 in both halves and
    # scoops the side pot.
    hands = {1: "As 2h 3d 4c 5s", 0: "2c 3h 4d 5c 6s", 2: "Kc Kd Kh Qs Qc"}
    g = Game(stacks=[50, 5, 50], button=0, deck=deck_for(3, 0, hands))
    # Seat 0 raises to 4; SB is all-in to 5 (one chip = half a small bet: a full raise); BB raises to 7.
    play(g, Action("raise", 4), Action("raise", 5), Action("raise", 7), "call")
    assert g.stacks == [43, 0, 43]
    check_down(g)
    # contributions 7, 5, 7: main pot 15 -> seat 1; side pot 4 -> seat 0.
    assert g.payouts == [4, 15, 0]
    assert g.stacks == [47, 15, 43]


def test_short_big_blind_posts_what_it_has_others_call_the_full_blind():
    g = Game(stacks=[50, 50, 1], button=0, seed=9)
    assert g.contrib == [0, 1, 1] and g.stacks[2] == 0
    assert g.to_call() == 2                         # seat 0 still calls the full big blind
    play(g, "call", "call")
    assert g.phase == "drawing"                     # the all-in big blind has no option
    check_down(g)
    audit(g)


# ------------------------------------------------------------------------------------------ fold wins

def test_everyone_folds_to_the_big_blind():
    g = Game(stacks=[30] * 3, button=0, seed=1)
    play(g, "fold", "fold")
    assert g.is_over and not g.showdown
    assert g.stacks == [30, 29, 31]                 # BB wins the small blind; its own blind comes back
    assert g.legal_actions() == ()


def test_uncalled_bet_goes_back_before_the_pot_is_awarded():
    g = Game(stacks=[30] * 3, button=0, seed=1)
    play(g, "call", "call", "check", draw(), draw(), draw(), Action("bet", 2), "fold", "fold")
    assert g.returned == [0, 2, 0]                  # seat 1's bet was never called
    assert g.stacks == [28, 34, 28]


def test_acting_after_the_hand_ended_is_refused():
    g = Game(stacks=[30] * 2, button=0, seed=1)
    play(g, "fold")
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match="hand is over"):
        g.apply("check")
    assert g.snapshot() == before


# ------------------------------------------------------------------------------------------ antes, burns

def test_ante_game_has_no_blinds_and_opens_with_a_bet():
    cfg = GameConfig(small_blind=0, big_blind=0, ante=1)
    g = Game(cfg, stacks=[20] * 3, button=0, seed=2)
    assert g.contrib == [1, 1, 1] and g.sbet == [0, 0, 0]
    assert g.to_act == 1 and kinds(g) == ["check", "bet"]
    play(g, Action("bet", 2), "fold", "fold")
    assert g.stacks == [19, 22, 19]


def test_burn_one_card_before_each_draws_replacements():
    g = Game(GameConfig(burn=True), stacks=[40] * 2, button=0, seed=8)
    play(g, "call", "check")
    assert len(g.burned) == 1 and g.burned[0] in g.muck
    play(g, draw(g.hands[1][:2]))
    assert g.dealt[-3] == g.burned[0]               # the burn came before the replacements
    check_down(g)
    assert len(g.burned) == 3


# ------------------------------------------------------------------------------------------ reshuffle

def _draw_all(g: Game) -> tuple[list[int], list[int], list[int], int]:
    """Seat to act discards its whole hand; returns (stub, muck, discards, dealt-before) seen before."""
    stub, muck, hand, n_dealt = g.stub[:], g.muck[:], g.hands[g.to_act][:], len(g.dealt)
    g.apply(draw(hand))
    return stub, muck, hand, n_dealt


def test_reshuffle_excludes_the_served_players_own_discards_and_can_repeat():
    g = Game(stacks=[100] * 6, button=0, seed=12)
    play(g, "call", "call", "call", "call", "call", "check")
    seen = 0
    while not g.is_over and len(g.reshuffles) < 3:
        if g.phase == "betting":
            g.apply("check")
            continue
        stub0, muck0, discards, n0 = _draw_all(g)
        audit(g)
        cuts = [r for r in g.reshuffles if r > n0]
        if not cuts:
            continue
        seen += 1
        r = cuts[0]
        before, after = g.dealt[n0:r], g.dealt[r:]
        assert len(stub0) - len(before) == 1         # dealt down to the last card, never the last card
        (last,) = set(stub0) - set(before)
        new_stub = set(g.stub) | set(after)
        if len(cuts) == 1:
            assert new_stub == {last} | set(muck0)   # the last card + everything mucked so far ...
        assert not set(discards) & new_stub          # ... except this player's own discards
        assert set(discards) <= set(g.muck)          # which go to the muck after the player is served
    assert seen >= 2 and len(g.reshuffles) >= 2      # more than one reshuffle in one hand


def test_given_deck_runs_out_then_reshuffles_randomly_but_reproducibly():
    a = Game(stacks=[100] * 6, button=0, seed=5, deck=list(range(52)))
    b = Game(stacks=[100] * 6, button=0, seed=5, deck=list(range(52)))
    for g in (a, b):
        play(g, "call", "call", "call", "call", "call", "check")
        while g.phase == "drawing":
            g.apply(draw(g.hands[g.to_act]))
    assert a.reshuffles and a.dealt == b.dealt


# ------------------------------------------------------------------------------------------ seeds' examples

@pytest.mark.parametrize(
    "a, b, expect",
    [
        ("As 2h 3d 4c 5s", "2c 3s 4h 5d 6c", [8, 0]),     # Alma scoops Bruno
        ("2h 4h 6h 7h Ac", "Ks Qd 9c 5h 5d", [4, 4]),     # Cora low, Dmitri badugi: half each
        ("As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c", [2, 6]),     # Ann quartered by Ben
    ],
)
def test_seed_000_worked_examples_played_to_showdown(backend, a, b, expect):
    # Heads-up, button 0: raise to 4, call; both stand pat and check down.  Pot 8.
    g = Game(stacks=[50, 50], button=0, deck=deck_for(2, 0, {0: a, 1: b}))
    play(g, Action("raise", 4), "call")
    check_down(g)
    assert g.showdown and g.payouts == expect
    assert g.stacks == [46 + expect[0], 46 + expect[1]]


def test_single_pot_presets_award_the_whole_pot():
    # 2-7: 7-5-4-3-2 beats A-2-3-4-5 (ace-high, no straight); A-5 the reverse; Badugi: 4 cards.
    for game, a, b, winner in (
        ("27", "7c 5d 4h 3s 2c", "As 2h 3d 4c 5s", 0),
        ("a5", "7c 5d 4h 3s 2c", "As 2h 3d 4c 5s", 1),
        ("badugi", "Kc Qd Jh Ts", "As 2s 3d 4h", 0),
    ):
        size = 4 if game == "badugi" else 5
        g = Game(game, stacks=[20, 20], button=0, deck=deck_for(2, 0, {0: a, 1: b}, hand_size=size))
        check_down(g)
        assert g.payouts[winner] == 4 and g.payouts[1 - winner] == 0, game


@pytest.mark.parametrize("policy, expect", [("position", [2, 0, 3]), ("low", [3, 0, 2])])
def test_odd_chip_policy_reaches_the_settlement(policy, expect):
    # Button (0) calls, SB (1) folds, BB (2) checks: pot 5 = 2 + 2 + one odd chip.  The button wins the
    # low half, the big blind the badugi half.  "position": the odd chip to the first winner clockwise
    # from the button (seat 2); "low": to the low half's winner (seat 0).
    hands = {0: "As 2s 3d 4d 5c", 2: "Ac 2d 3h 4s Kd", 1: "Qc Qd Qh Js Jc"}
    g = Game(GameConfig(odd_chip=policy), stacks=[20, 20, 20], button=0, deck=deck_for(3, 0, hands))
    play(g, "call", "fold", "check")
    check_down(g)
    assert g.payouts == expect


def test_bad_table_input_is_refused_with_the_value_named():
    from badacey_fast.errors import DuplicateCardError, HandSizeError
    from badacey_fast.game import ConfigError

    with pytest.raises(ConfigError, match="2 to 6 seats, got 7"):
        Game(stacks=[10] * 7)
    with pytest.raises(ConfigError, match="stack 0"):
        Game(stacks=[10, 0])
    with pytest.raises(ConfigError, match="button 3"):
        Game(stacks=[10, 10], button=3)
    with pytest.raises(TypeError, match="stacks must be ints"):
        Game(stacks=[10, "10"])
    with pytest.raises(HandSizeError):
        Game(stacks=[10, 10], deck=list(range(51)))
    with pytest.raises(DuplicateCardError):
        Game(stacks=[10, 10], deck=[0] + list(range(51)))
    with pytest.raises(TypeError, match="seed or rng"):
        import random

        Game(stacks=[10, 10], seed=1, rng=random.Random(1))


def test_unfinished_hand_replays_to_the_same_state():
    from badacey_fast.game.history import from_json, replay, to_json

    g = Game(stacks=[30] * 4, button=2, seed=8)
    play(g, "call", "call", "call", "check", draw(g.hands[3][:3]))
    again = replay(from_json(to_json(g)))

    def state(x: Game) -> tuple:
        # Everything a hand is, except how the dealer holds the stub (scripted in the replay).
        return (x.stacks, x.contrib, x.sbet, x.folded, x.hands, x.dealt, sorted(x.stub), sorted(x.muck),
                x.log, x.street, x.phase, x.to_act, x.level, x.full_level, x.nbets, x.pending, x.can_raise,
                x.discard_counts, x.legal_actions())

    assert state(again) == state(g)


# ------------------------------------------------------------------------------------------ no raise nobody can call

def _stand_pat_to_first_bet(g: Game) -> Game:
    while g.phase == "drawing":
        play(g, draw())
    return g


def test_no_raise_when_every_other_live_seat_is_or_would_be_all_in():
    # The hand: stacks 100/3/4, blinds 1/2.  Everyone calls, stands pat; after the draw seat 1
    # (1 chip left) checks, seat 2 bets its last 2 chips.  Seat 1 would be all-in calling 2 and seat 2
    # is all-in: nobody could call a raise, so seat 0 may only call or fold.
    g = Game(stacks=[100, 3, 4], button=0, seed=1)
    _stand_pat_to_first_bet(play(g, "call", "call", "check"))
    play(g, "check", "bet")
    assert g.stacks == [98, 1, 0] and g.to_act == 0
    assert kinds(g) == ["fold", "call"]
    before = g.snapshot()
    for bad in (Action("raise"), Action("raise", 4), "raise"):
        with pytest.raises(IllegalActionError, match="seat 0 cannot raise: no other live seat could call it"):
            g.apply(bad)
        assert g.snapshot() == before
    play(g, "call", "call")                  # seat 1 calls all-in for 1: the round ends, the hand goes on
    assert g.phase == "drawing" and g.contrib == [4, 3, 4]


def test_no_raise_pre_draw_when_both_blinds_are_short():
    # Seat 1 posts 1 of its 2 chips (calling the big blind puts it all-in), seat 2 posts its only 2.
    g = Game(stacks=[100, 2, 2], button=0, seed=1)
    assert kinds(g) == ["fold", "call"]
    with pytest.raises(IllegalActionError, match="no other live seat could call it"):
        g.apply(Action("raise", 4))


def test_raise_allowed_when_a_seat_yet_to_act_has_chips_beyond_the_call():
    # Seat 1 would be all-in calling the big blind, but the big blind (2 chips behind, not acted yet)
    # could still put in more: seat 0 may raise, and the big blind may call the raise all-in.
    g = Game(stacks=[100, 2, 4], button=0, seed=1)
    assert g.legal_actions()[-1] == Action("raise", 4)
    play(g, Action("raise", 4), "call")
    assert g.to_act == 2 and kinds(g) == ["fold", "call"]   # nobody left who could call a re-raise
    play(g, "call")
    assert g.phase == "drawing" and g.contrib == [4, 2, 4]


def test_raise_allowed_when_one_other_live_seat_has_chips_left():
    # Four seats: after the draw seat 1 (1 chip) checks and seat 2 bets all-in; seat 3 and seat 0 have
    # chips, so each may still raise: someone could call it.
    g = Game(stacks=[100, 3, 4, 100], button=0, seed=1)
    _stand_pat_to_first_bet(play(g, "call", "call", "call", "check"))
    play(g, "check", "bet")
    assert g.to_act == 3 and g.legal_actions()[-1] == Action("raise", 4)
    play(g, "call")
    assert g.to_act == 0 and g.legal_actions()[-1] == Action("raise", 4)
    play(g, Action("raise", 4))
    assert g.to_act == 1 and kinds(g) == ["fold", "call"]    # seat 1 has 1 chip: all-in to call
    play(g, "call")
    assert g.to_act == 3 and kinds(g) == ["fold", "call", "raise"]   # seat 0 could call a re-raise


def test_heads_up_raise_allowed_with_one_chip_behind_refused_against_all_in():
    # Heads-up the big blind keeps 1 chip behind: a raise to 4 can be called (all-in for 1) -> allowed.
    g = Game(stacks=[100, 3], button=0, seed=1)
    assert g.legal_actions()[-1] == Action("raise", 4)
    # The big blind posted its whole stack: nobody can call a raise.
    g = Game(stacks=[100, 2], button=0, seed=1)
    assert kinds(g) == ["fold", "call"]
    with pytest.raises(IllegalActionError, match="cannot raise"):
        g.apply(Action("raise", 4))


# ------------------------------------------------------------------------------------------ draws

def test_discarding_a_card_twice_is_the_same_error_in_every_form():
    from badacey_fast.cards import format_card

    g = Game(stacks=[30, 30], seed=1).apply("call").apply("check")
    i = g.to_act
    c, d = g.hands[i][0], g.hands[i][1]
    text = f"{format_card(c)} {format_card(d)} {format_card(c)}"
    forms = [(c, d, c), [c, d, c], text, text.split(), tuple(text.split()), [format_card(c), d, c]]
    before = g.snapshot()
    messages = set()
    for cards in forms:
        for seat in (None, i):  # the unchecked fast path and the checked path
            with pytest.raises(IllegalActionError) as exc:
                g.apply(Action("draw", cards=cards), seat=seat)
            assert type(exc.value) is IllegalActionError, (cards, type(exc.value))
            assert format_card(c) in str(exc.value)
            messages.add(str(exc.value))
            assert g.snapshot() == before
    assert messages == {f"seat {i} discards {format_card(c)} twice"}
