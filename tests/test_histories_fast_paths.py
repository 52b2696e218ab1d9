"""The replay's and the check's fast paths give what their plain paths give, on every fixture hand: the
engine's own legal actions taken as they are (and its draws of held cards) against every action through
the engine's checked path; the engine's settlement of a showdown reused against the check settling it
again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from badacey_fast.errors import ReplayError
from badacey_fast.game import Action, Game
from badacey_fast.histories import audit, check, engine, parse
from badacey_fast.histories.model import EXAMPLE

DATA = Path(__file__).parent / "data" / "histories"
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


def _outcome(hand: object) -> tuple[object, ...]:
    """Everything the check says of a hand, and the engine's state it replayed to (or the refusal)."""
    try:
        r = engine.replay(hand)
    except ReplayError as exc:
        replayed: tuple[object, ...] = ("refused", str(exc), exc.kind, exc.line)
    else:
        replayed = (r.names, r.button, r.dead, r.dropped, r.notes, _game(r.game))
    c = check(hand)
    return replayed + (c.status, c.skipped, c.showdown, c.ours, c.room, c.nets, c.nets_equal,
                       [(d.reason, d.detail, d.line) for d in c.disagreements], c.notes)


def test_the_fixtures_hold_hands_of_every_kind_the_fast_paths_take():
    outcomes = [check(h) for h in HANDS]
    assert {c.showdown for c in outcomes} >= {"judged", "none"}
    assert {c.status for c in outcomes} == {"agree", "disagree", "skipped"}
    # a refusal worded by the checked path, and showdowns the engine settled itself
    assert any(d.reason == "rule difference" for c in outcomes for d in c.disagreements)
    assert any(c.replay is not None and c.replay.game.settlement is not None for c in outcomes)


@pytest.mark.parametrize("k", range(len(HANDS)))
def test_the_replay_equals_the_engine_checked_path(k, monkeypatch):
    fast = _outcome(HANDS[k])
    monkeypatch.setattr(engine, "Game", _Checked)
    assert _outcome(HANDS[k]) == fast


@pytest.mark.parametrize("k", range(len(HANDS)))
def test_the_check_equals_settling_every_showdown_again(k, monkeypatch):
    fast = _outcome(HANDS[k])
    replay = audit.replay

    def without_the_engines_settlement(hand: object) -> engine.Replay:
        r = replay(hand)
        r.game.settlement = None
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
