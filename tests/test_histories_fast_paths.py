"""The replay's and the check's fast paths give what their plain paths give, on every fixture hand: the
replay settled without a Game (engine._ledger) against the hand played in the engine, on every fixture hand,
on crafted hands at each edge of its plain case and on hundreds of mutated hands; the engine's own legal
actions taken as they are (and its draws of held cards) against every action through the engine's checked
path; the engine's settlement of a showdown reused against the check settling it again."""

from __future__ import annotations

import random

import pytest

from badacey_fast.errors import ReplayError
from badacey_fast.game import UNKNOWN, Action, Game
from badacey_fast.histories import audit, check, engine, parse
from badacey_fast.histories.kinds import RESHUFFLE
from badacey_fast.histories.model import EXAMPLE
from crafted_hands import DATA, DECK_RUNS_OUT, FREE_FOLD, ROOM_FOLDS_ALL_IN, UNCAPPED_HEADS_UP, mutants, stars

HANDS = [h for f in sorted(DATA.iterdir()) for h in parse(f, on_bad_hand="error")] + list(parse(EXAMPLE))


class _Checked(Game):
    """A Game that offers no legal action to take as is and validates every action on the checked path
    (verify_action), as a server passing the seat does."""

    __slots__ = ()

    def legal_actions(self) -> tuple[Action, ...]:
        return ()

    def apply(self, action: Action | str, seat: int | None = None) -> Game:
        return Game.apply(self, action, self.to_act if seat is None else seat)


def _game(g: Game) -> tuple[object, ...]:
    pots = g.settlement.pots if g.settlement is not None else ()
    return (g.log, list(g.dealt), g.reshuffles, g.payouts, g.stacks, g.contrib, g.returned, g.hands, g.folded,
            g.phase, g.street, g.discard_counts, [(p.amount, p.eligible, p.low_winners, p.badugi_winners)
                                                  for p in pots])


def _outcome(hand: object, fast: bool = False, monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[object, ...]:
    """Everything the check says of a hand, what the replay says, and the engine's state it replayed to (or
    the refusal); ``fast``: the replay's fast path allowed (the check's too, through ``monkeypatch``)."""
    try:
        r = engine.replay(hand, fast=fast)
    except ReplayError as exc:
        replayed: tuple[object, ...] = ("refused", str(exc), exc.kind, exc.line)
    else:
        replayed = (r.names, r.button, r.dead, r.dropped, r.notes, r.contrib, r.folded, r.final, r.reshuffles,
                    _game(r.game))
    if monkeypatch is not None:
        monkeypatch.setattr(audit, "replay", lambda h: engine.replay(h, fast=fast))
    c = check(hand)
    return replayed + (c.status, c.skipped, c.showdown, c.ours, c.room, c.nets, c.nets_equal,
                       [(d.reason, d.detail, d.line) for d in c.disagreements], c.notes)


def test_the_fixtures_hold_hands_of_every_kind_the_fast_paths_take():
    outcomes = [check(h) for h in HANDS]
    assert {c.showdown for c in outcomes} >= {"judged", "none"}
    assert {c.status for c in outcomes} == {"agree", "disagree", "skipped"}
    # a refusal worded by the checked path, and showdowns the engine settled itself
    assert any(d.reason == "rule difference" for c in outcomes for d in c.disagreements)
    replays = [engine.replay(h, fast=False) for h in HANDS if engine.why_not_replayed(h) is None and
               not any(d.reason != "odd chip" for d in check(h).disagreements)]
    assert any(r.settlement is not None for r in replays)


@pytest.mark.parametrize("k", range(len(HANDS)))
def test_the_replay_equals_the_engine_checked_path(k, monkeypatch):
    fast = _outcome(HANDS[k], False, monkeypatch)
    monkeypatch.setattr(engine, "Game", _Checked)
    assert _outcome(HANDS[k], False, monkeypatch) == fast


@pytest.mark.parametrize("k", range(len(HANDS)))
def test_the_check_equals_settling_every_showdown_again(k, monkeypatch):
    fast = _outcome(HANDS[k], False, monkeypatch)

    def without_the_engines_settlement(hand: object) -> engine.Replay:
        r = engine.replay(hand, fast=False)
        r.settlement = None
        return r

    monkeypatch.setattr(audit, "replay", without_the_engines_settlement)
    plain = _outcome(HANDS[k])
    assert plain[-9:] == fast[-9:]  # the check's findings (the engine's own state differs by its settlement)


def test_a_replayed_game_holds_seed_0s_random_source_as_a_seeded_replay_does():
    # The replay sets Random(0)'s state rather than seeding a Random for every hand: the game is the one
    # game.history.replay makes with seed 0 (its random source read through the slot copy() reads).
    for hand in HANDS:
        try:
            g = engine.replay(hand).game
        except ReplayError:
            continue
        assert g.seed == 0
        assert g._rng.getstate() == random.Random(0).getstate()


# ---------------------------------------------------------------------------------------------------------
# The replay settled without a Game (engine._ledger) against the hand played in the engine.


def _heads_up(pot: str, *lines: str, stacks: tuple[str, str] = ("$10", "$10")) -> str:
    """EXAMPLE's table (Hero on the button and small blind, blinds $0.25/$0.50, bets $0.50/$1) with these
    lines of play after the deal, and the total ``pot``."""
    head = EXAMPLE[: EXAMPLE.index("Hero: raises")].replace("Hero ($10", f"Hero ({stacks[0]}").replace(
        "Villain ($10", f"Villain ({stacks[1]}")
    if stacks[1] < "$0.50":  # a big blind short of the blind: all in
        head = head.replace("posts big blind $0.50", f"posts big blind {stacks[1]} and is all-in")
    return head + "\n".join(lines) + f"\n*** SUMMARY ***\nTotal pot {pot} | Rake $0\n"


_PAT = ("Villain: stands pat", "Hero: stands pat")
CRAFTED = {
    "the example": EXAMPLE,
    "called down to a showdown": _heads_up(
        "$3", "Hero: calls $0.25", "Villain: checks", "*** FIRST DRAW ***", "Villain: discards 1 card",
        "Hero: stands pat", "Villain: checks", "Hero: checks", "*** SECOND DRAW ***", *_PAT, "Villain: bets $1",
        "Hero: calls $1", "*** THIRD DRAW ***", *_PAT, "Villain: checks", "Hero: checks", "*** SHOW DOWN ***",
        "Villain: shows [Ad 2d 3h 5s]", "Hero: shows [As 2h 3s 4c]", "Hero collected $3 from pot"),
    "capped before the draw": _heads_up(
        "$4", "Hero: raises $0.50 to $1", "Villain: raises $0.50 to $1.50", "Hero: raises $0.50 to $2",
        "Villain: calls $0.50", "*** FIRST DRAW ***", *_PAT, "Villain: bets $0.50", "Hero: folds",
        "Uncalled bet ($0.50) returned to Villain", "Villain collected $4 from pot"),
    "raised past the cap": _heads_up(
        "$5", "Hero: raises $0.50 to $1", "Villain: raises $0.50 to $1.50", "Hero: raises $0.50 to $2",
        "Villain: raises $0.50 to $2.50", "Hero: calls $0.50", "*** FIRST DRAW ***", *_PAT, "Villain: bets $0.50",
        "Hero: folds", "Uncalled bet ($0.50) returned to Villain", "Villain collected $5 from pot"),
    "uncapped heads-up": UNCAPPED_HEADS_UP,
    "an all-in call": _heads_up("$2", "Hero: raises $0.50 to $1", "Villain: calls $0.50 and is all-in",
                                "*** FIRST DRAW ***", *_PAT, "*** SECOND DRAW ***", *_PAT, "*** THIRD DRAW ***",
                                *_PAT, "Hero collected $2 from pot", stacks=("$10", "$1")),
    "a short big blind": _heads_up("$0.80", "Hero: calls $0.15", "*** FIRST DRAW ***", *_PAT, "*** SECOND DRAW ***",
                                   *_PAT, "*** THIRD DRAW ***", *_PAT, "Hero collected $0.80 from pot",
                                   stacks=("$10", "$0.40")),
    "a blind all in": _heads_up("$1", "Hero: calls $0.25", "*** FIRST DRAW ***", *_PAT, "*** SECOND DRAW ***",
                                *_PAT, "*** THIRD DRAW ***", *_PAT, "Villain collected $1 from pot",
                                stacks=("$10", "$0.50")),
    "a free fold": FREE_FOLD,
    "a call short of the bet": _heads_up("$1.75", "Hero: raises $0.50 to $1", "Villain: calls $0.25"),
    "a call for nothing to call": _heads_up("$1.25", "Hero: calls $0.25", "Villain: calls $0.25"),
    "a check facing a bet": _heads_up("$0.75", "Hero: checks"),
    "a bet where the engine raises": _heads_up("$1.50", "Hero: bets $0.75"),
    "a raise of two bets": _heads_up("$1", "Hero: raises $1 to $1.50", "Villain: folds",
                                     "Uncalled bet ($1) returned to Hero", "Hero collected $1 from pot"),
    "out of turn": _heads_up("$0.75", "Villain: raises $0.50 to $1", "Hero: folds",
                             "Uncalled bet ($0.50) returned to Villain", "Villain collected $0.75 from pot"),
    "a hand the text leaves unfinished": _heads_up("$1", "Hero: calls $0.25", "Villain: checks"),
    "a draw the text does not give": _heads_up("$1.50", "Hero: calls $0.25", "Villain: checks", "*** FIRST DRAW ***",
                                               "Villain: discards 1 card", "Villain: bets $0.50"),
    "a betting line during the draw": _heads_up("$1.50", "Hero: calls $0.25", "Villain: checks",
                                                "*** FIRST DRAW ***", "Hero: bets $0.50", "Villain: discards 1 card"),
    "an action after the hand is over": _heads_up("$0.75", "Hero: folds", "Villain: checks",
                                                  "Villain collected $0.75 from pot"),
    "a card shown for two players": _heads_up(
        "$1", "Hero: calls $0.25", "Villain: checks", "*** FIRST DRAW ***", *_PAT, "Villain: checks",
        "Hero: checks", "*** SECOND DRAW ***", *_PAT, "Villain: checks", "Hero: checks", "*** THIRD DRAW ***",
        *_PAT, "Villain: checks", "Hero: checks", "*** SHOW DOWN ***", "Villain: shows [As 2c 3h 5s]",
        "Hero: shows [As 2h 3s 4c]", "Hero collected $1 from pot"),
    "a short all-in raise that does not reopen": _heads_up(
        "$2.40", "Hero: raises $0.50 to $1", "Villain: raises $0.20 to $1.20 and is all-in", "Hero: calls $0.20",
        "*** FIRST DRAW ***", *_PAT, "*** SECOND DRAW ***", *_PAT, "*** THIRD DRAW ***", *_PAT,
        "Hero collected $2.40 from pot", stacks=("$10", "$1.20")),
    "a raise at a short stack's level": _heads_up(
        "$2", "Hero: raises $0.50 to $1", "Villain: calls $0.50 and is all-in", "*** FIRST DRAW ***", *_PAT,
        "*** SECOND DRAW ***", *_PAT, "*** THIRD DRAW ***", *_PAT, "Villain collected $2 from pot",
        stacks=("$10", "$1")),
    "a raise nobody can call": _heads_up("$1.50", "Hero: raises $0.50 to $1", stacks=("$10", "$0.50")),
    "an all-in hand the room folds": ROOM_FOLDS_ALL_IN,
    "the deck runs out": DECK_RUNS_OUT,
    "a dead blind and a live post": stars(2),
    "a completed short all-in raise": stars(4),
}


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_the_replay_without_a_game_equals_the_engine_on_crafted_hands(name, monkeypatch):
    for hand in parse(CRAFTED[name], on_bad_hand="skip"):
        assert _outcome(hand, True, monkeypatch) == _outcome(hand, False, monkeypatch)


@pytest.mark.parametrize("k", range(len(HANDS)))
def test_the_replay_without_a_game_equals_the_engine_on_every_fixture_hand(k, monkeypatch):
    assert _outcome(HANDS[k], True, monkeypatch) == _outcome(HANDS[k], False, monkeypatch)


def test_the_replay_without_a_game_equals_the_engine_on_mutated_hands(monkeypatch):
    texts = [p.read_text() for p in sorted(DATA.iterdir())] + list(CRAFTED.values())
    taken = 0
    for text in mutants(texts, 2525, 400, 0.4, ["", "1", "5", "9", "$", " ", "[", "X"]):
        for hand in parse(text, on_bad_hand="skip"):
            assert _outcome(hand, True, monkeypatch) == _outcome(hand, False, monkeypatch)
            _the_rooms_account_is_the_hands(hand)
            try:
                taken += engine.replay(hand)._game is None
            except ReplayError:
                pass
    assert taken > 50  # the mutants the fast path took, compared above with the engine's path


def test_the_fixtures_and_crafted_hands_take_both_paths():
    hands = HANDS + [h for text in CRAFTED.values() for h in parse(text, on_bad_hand="skip")]
    paths = []
    for hand in hands:
        try:
            paths.append("fast" if engine.replay(hand)._game is None else "engine")
        except ReplayError as exc:
            paths.append(exc.kind)
    assert paths.count("fast") >= 20 and paths.count("engine") >= 3, paths


def _the_rooms_account_is_the_hands(hand: object) -> None:
    try:
        r = engine.replay(hand)
    except ReplayError:
        return
    assert r.room_paid == hand.put_in() and list(r.room_paid) == list(hand.put_in())
    assert r.room_folded == hand.folded()
    assert r.room_reshuffled == any(e.kind == RESHUFFLE for e in hand.actions)


def test_the_replays_account_of_the_room_is_the_hands_own():
    # The replay's one pass over the events reads what the check needs of the room (HandRecord.put_in,
    # folded, the room's reshuffle) for it.
    hands = HANDS + [h for text in CRAFTED.values() for h in parse(text, on_bad_hand="skip")]
    for hand in hands:
        _the_rooms_account_is_the_hands(hand)
    (runs_out,) = parse(CRAFTED["the deck runs out"])  # a room that says it reshuffled
    assert engine.replay(runs_out).room_reshuffled


def test_the_cards_the_ledger_counts_are_the_ones_the_engine_deals(monkeypatch):
    # _ledger is given the number of cards the script deals and the cards it names, counted from the plan
    # rather than from the script: the engine's game, built on its path, deals exactly those.
    seen: list[tuple[int, list[int]]] = []
    ledger = engine._ledger

    def counting(*args: object) -> engine.Replay | None:
        seen.append((args[-2], args[-1]))  # type: ignore[arg-type]
        return ledger(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "_ledger", counting)
    hands = HANDS + [h for text in CRAFTED.values() for h in parse(text, on_bad_hand="skip")]
    fast = 0
    for hand in hands:
        seen.clear()
        try:
            r = engine.replay(hand)
        except ReplayError:
            continue
        if r._game is None:
            fast += 1
            ((dealt, named),) = seen
            g = r.game
            assert dealt == len(g.dealt) and sorted(named) == sorted(c for c in g.dealt if c < UNKNOWN)
    assert fast >= 15
