"""What the OnGame, Winamax and KingsClub readers read once a session (OnGame's table line, Winamax's game
words) or skip (the search for a small blind nobody posted) gives each hand what reading it alone gives:
hands written here in each room's shape, at the edges of the readers' paths (a name with a space, a player
called like a line of the room's own, amounts with a comma, all-in), several to a text."""

from __future__ import annotations

from badacey_fast.histories import parse


def _play(text: str) -> list[tuple[object, ...]]:
    (hand,) = parse(text, dedupe=False, on_bad_hand="error")
    return [(e.street, e.player, e.kind, e.amount, e.to, e.all_in, e.drawn) for e in hand.actions]


def _ongame(hero: str, small: str, big: str, hand_id: str) -> str:
    return f"""***** History for hand {hand_id} *****
Start hand: Fri Nov 18 12:48:10 GMT+0100 2011
Table: Testtisch [1] (POT_LIMIT FIVE_CARD_DRAW $5/$10, Real money)
User: {hero}
Button: seat 1
Players in round: 3
Seat 1: {hero} ($1,500)
Seat 3: {small} ($800)
Seat 6: {big} ($2,000)
{small} posts small blind ($5)
{big} posts big blind ($10)
---
Dealing pocket cards
Dealing to {hero}: [Qs, 8c, 5h, Th, 5s]
{hero} raises $30 to $30
{small} calls $25
{big} folds
{hero} changed 2 cards
New hand for {hero}: [Qs, 8c, 5h, 2d, 3c]
{small} changed 3 cards
{small} bets $770 [all in]
{hero} calls $770
---
Summary:
Main pot: $1,610 won by {hero} ($1,600)
Rake taken: $10
Seat 1: {hero} ($2,300), net: +$800 [Qs, 8c, 5h, 2d, 3c]
Seat 3: {small} ($0), net: -$800 [Ah, Kh, Qh, Jh, 9d]
Seat 6: {big} ($1,990), net: -$10
***** End of hand {hand_id} *****
"""


def _ongame_play(hero: str, small: str, big: str) -> list[tuple[object, ...]]:
    return [(0, small, "small blind", 500, None, False, None), (0, big, "big blind", 1000, None, False, None),
            (0, hero, "raise", 3000, 3000, False, None), (0, small, "call", 2500, None, False, None),
            (0, big, "fold", None, None, False, None), (1, hero, "draw", None, None, False, 2),
            (1, small, "draw", None, None, False, 3), (1, small, "bet", 77000, 77000, True, None),
            (1, hero, "call", 77000, None, False, None), (1, hero, "collect", 160000, None, False, None)]


def test_ongame_players_named_like_the_rooms_own_lines_act():
    # "New" and "Dealing" begin lines of the room's own ("New hand for", "Dealing to"): their actions are
    # read all the same, by the plain path
    text = _ongame("Hero", "New", "Dealing", "R5-1-1")
    assert _play(text) == _ongame_play("Hero", "New", "Dealing")
    (hand,) = parse(text, dedupe=False)
    assert hand.rake == 1000 and hand.blinds == (500, 1000) and hand.table == "Testtisch"
    assert hand.started.isoformat() == "2011-11-18T12:48:10+01:00"


def test_ongame_names_with_a_space_and_a_shared_table_line():
    text = _ongame("nl pokerr", "nl", "Bob", "R5-1-2") + "\n" + _ongame("Hero", "Ann", "Bob", "R5-1-3")
    first, second = parse(text, dedupe=False, on_bad_hand="error")
    assert [(e.street, e.player, e.kind, e.amount, e.to, e.all_in, e.drawn) for e in first.actions] == \
        _ongame_play("nl pokerr", "nl", "Bob")
    assert [(e.street, e.player, e.kind, e.amount, e.to, e.all_in, e.drawn) for e in second.actions] == \
        _ongame_play("Hero", "Ann", "Bob")
    assert first.currency == second.currency == "USD" and first.betting == second.betting == "pot"


def _winamax(hero: str, small: str, big: str, hand_id: str) -> str:
    return f"""Winamax Poker - CashGame - HandId: #{hand_id} - 2-7 Triple Draw fixed limit (1,000€/2,000€) - 2016/11/12 22:24:21 UTC
Table: 'Testville' 6-max (real money) Seat #1 is the button
Seat 1: {hero} (20,000€)
Seat 2: {small} (3,000€)
Seat 3: {big} (9,000€)
*** ANTE/BLINDS ***
{small} posts small blind 500€
{big} posts big blind 1,000€
*** FIRST-BET ***
Dealt to {hero} [2h Td 8c 7c 3s]
{hero} raises 1,000€ to 2,000€
{small} calls 1,500€
{big} folds
*** FIRST-DRAW ***
{hero} discard 1 card [Td]
{small} discard 2 cards
*** SECOND-BET ***
{small} bets 1,000€ and is all-in
{hero} calls 1,000€
*** SECOND-DRAW ***
{hero} stands pat [2h 4d 8c 7c 3s]
{small} stands pat [X X X X X]
*** THIRD-BET ***
*** THIRD-DRAW ***
{hero} stands pat
{small} discard 0 cards
*** FOURTH-BET ***
{hero} shows [2h 4d 8c 7c 3s] (8-7 low)
{small} shows [9h 6d 5c 4s 2d] (9-6 low)
{hero} collected 7,000€ from pot
*** SUMMARY ***
Total pot 7,000€ | Rake 0€
Seat 1: {hero} won 7,000€
"""


def test_winamax_a_player_named_dealt_and_names_with_a_space():
    plain = _winamax("Hero", "Dealt", "Bob", "1-1-1")
    spaced = _winamax("nl pokerr", "nl", "Bob", "1-1-2")
    got = {}
    for text in (plain, spaced):
        (hand,) = parse(text, dedupe=False, on_bad_hand="error")
        got[text] = [(e.street, e.kind, e.amount, e.to, e.all_in, e.drawn, e.cards) for e in hand.actions]
        assert hand.blinds == (50000, 100000) and hand.limits == (100000, 200000) and hand.pot == 700000
        assert hand.ante == 0 and hand.rake == 0
    assert got[plain] == got[spaced] == [
        (0, "small blind", 50000, None, False, None, None), (0, "big blind", 100000, None, False, None, None),
        (0, "raise", 200000, 200000, False, None, None), (0, "call", 150000, None, False, None, None),
        (0, "fold", None, None, False, None, None), (1, "draw", None, None, False, 1, (37,)),
        (1, "draw", None, None, False, 2, None), (1, "bet", 100000, 100000, True, None, None),
        (1, "call", 100000, None, False, None, None), (2, "draw", None, None, False, 0, ()),
        (2, "draw", None, None, False, 0, ()), (3, "draw", None, None, False, 0, ()),
        (3, "draw", None, None, False, 0, ()), (3, "show", None, None, False, None, (6, 13, 28, 24, 11)),
        (3, "show", None, None, False, None, (34, 21, 16, 15, 5)), (3, "collect", 700000, None, False, None, None)]
    (hand,) = parse(plain, dedupe=False)
    assert [(e.player, e.kind) for e in hand.actions][:4] == [("Dealt", "small blind"), ("Bob", "big blind"),
                                                               ("Hero", "raise"), ("Dealt", "call")]


def _kings(hero: str, small: str, big: str, hand_id: str) -> str:
    return f"""#{hand_id}: Limit Badacey - 22/44
2021-01-10 12:00:00
Table 'Test' Seat 1 is the button
Seat 1: {hero} (1,000)
Seat 2: {small} (500)
Seat 3: {big} (2,000)
*** 1ST BETTING ROUND ***
{hero}: posts ante 1
{small}: posts ante 1
{big}: posts ante 1
{small}: posts the small blind 11
{big}: posts the big blind 22
Dealt to {hero}: [Ah 2d 3c 4s 5h]
Dealt to {small}: [X X X X X]
Dealt to {big}: [X X X X X]
{hero} raises to 44
{small} calls 44
{big} folds
*** 1ST DRAW ***
{small} draws 2
{hero} discards [5h] draws [6s]
*** 2ND BETTING ROUND ***
{small} bets 22
{hero} calls 22
*** 2ND DRAW ***
{small} stands pat
{hero} stands pat
*** 3RD BETTING ROUND ***
{small} checks
{hero} checks
*** 3RD DRAW ***
{small} stands pat
{hero} stands pat
*** 4TH BETTING ROUND ***
{small} checks
{hero} checks
{small} shows [Kh Qd Jc Ts 9h]
{hero} shows [Ah 2d 3c 4s 6s]
*** SUMMARY ***
Seat 1: {hero} (1,086) +86
Seat 2: {small} ({500 - 67}) -67
Seat 3: {big} (1,977) -23
Rake 4
{hero} wins (153) from pot
"""


def test_kingsclub_players_named_like_the_rooms_own_lines_and_names_with_a_space():
    # "Dealt" begins lines of the room's own ("Dealt to Hero: [..]"); "a:b" holds a colon
    plays = []
    for names in (("Hero", "Dealt", "Bob"), ("nl pokerr", "nl", "a:b"), ("Hero", "a:b", "Bob")):
        (hand,) = parse(_kings(*names, "40201390"), dedupe=False, on_bad_hand="error")
        assert hand.ante == 100 and hand.blinds == (1100, 2200) and hand.rake == 400
        assert [e.player for e in hand.actions[:5]] == [names[0], names[1], names[2], names[1], names[2]]
        plays.append([(e.street, e.kind, e.amount, e.to, e.all_in, e.drawn, e.cards, e.new) for e in hand.actions])
    assert plays[0] == plays[1] == plays[2] == [
        (0, "ante", 100, None, False, None, None, None), (0, "ante", 100, None, False, None, None, None),
        (0, "ante", 100, None, False, None, None, None), (0, "small blind", 1100, None, False, None, None, None),
        (0, "big blind", 2200, None, False, None, None, None), (0, "raise", 4400, 4400, False, None, None, None),
        (0, "call", 3300, None, False, None, None, None), (0, "fold", None, None, False, None, None, None),
        (1, "draw", None, None, False, 2, None, None), (1, "draw", None, None, False, 1, (18,), (23,)),
        (1, "bet", 2200, 2200, False, None, None, None), (1, "call", 2200, None, False, None, None, None),
        (2, "draw", None, None, False, 0, (), ()), (2, "draw", None, None, False, 0, (), ()),
        (2, "check", None, None, False, None, None, None), (2, "check", None, None, False, None, None, None),
        (3, "draw", None, None, False, 0, (), ()), (3, "draw", None, None, False, 0, (), ()),
        (3, "check", None, None, False, None, None, None), (3, "check", None, None, False, None, None, None),
        (3, "show", None, None, False, None, (50, 45, 40, 39, 34), None),
        (3, "show", None, None, False, None, (2, 5, 8, 15, 23), None),
        (3, "collect", 15300, None, False, None, None, None)]


def test_ongame_each_hand_its_own_table_line():
    real = _ongame("Hero", "Ann", "Bob", "R5-2-1")
    play = real.replace("R5-2-1", "R5-2-2").replace("(POT_LIMIT FIVE_CARD_DRAW $5/$10, Real money)",
                                                    "(LIMIT FIVE_CARD_DRAW 5/10, Play money)")
    euros = real.replace("R5-2-1", "R5-2-3").replace("$5/$10", "€5/€10")
    hands = list(parse(real + "\n" + play + "\n" + euros + "\n" + real.replace("R5-2-1", "R5-2-4"),
                       dedupe=False, on_bad_hand="error"))
    assert [(h.currency, h.betting, h.limits, h.blinds) for h in hands] == [
        ("USD", "pot", None, (500, 1000)), ("play", "fixed", (500, 1000), (500, 500)),
        ("EUR", "pot", None, (500, 1000)), ("USD", "pot", None, (500, 1000))]
    alone = [next(parse(t, dedupe=False)) for t in (real, play)]
    assert [(h.variant, h.game, h.draws, h.hand_size, h.table) for h in hands[:2]] == \
        [(h.variant, h.game, h.draws, h.hand_size, h.table) for h in alone]


def test_winamax_each_hand_its_own_game_words():
    fixed = _winamax("Hero", "Ann", "Bob", "1-2-1")
    pot = fixed.replace("1-2-1", "1-2-2").replace("2-7 Triple Draw fixed limit", "2-7 Triple Draw pot limit")
    hands = list(parse(fixed + "\n" + pot + "\n" + fixed.replace("1-2-1", "1-2-3"), dedupe=False,
                       on_bad_hand="error"))
    assert [(h.hand_id, h.variant, h.betting, h.draws, h.limits, h.blinds) for h in hands] == [
        ("1-2-1", "2-7 Triple Draw", "fixed", 3, (100000, 200000), (50000, 100000)),
        ("1-2-2", "2-7 Triple Draw", "pot", 3, None, (100000, 200000)),
        ("1-2-3", "2-7 Triple Draw", "fixed", 3, (100000, 200000), (50000, 100000))]
