"""Engine fuzzing: random legal and illegal actions over many hands of every preset and option.

- every illegal action (or one from the wrong seat) is refused with a ``BadaceyError`` and leaves the
  state identical (``Game.snapshot()``, RNG state included);
- every finished hand replays from its JSON and PHH histories to the same final state;
- chips are conserved: stacks after the hand sum to the stacks before, payouts are what the pot held.

CI plays a bounded number of hands; the standing soak (README, "Reliability") plays a million:

    ENGINE_FUZZ_HANDS=1000000 .venv/bin/pytest -q tests/test_engine_fuzz.py
"""

from __future__ import annotations

import os
import random

import pytest

import badacey_fast as bf
from badacey_fast.game import Action, Game, GameConfig, PRESETS
from badacey_fast.game.history import from_json, replay, to_json
from badacey_fast.game.phh import replay_phh, to_phh

HANDS = int(os.environ.get("ENGINE_FUZZ_HANDS", "5000"))
KINDS = ("fold", "check", "call", "bet", "raise", "draw")


def random_config(rng: random.Random) -> GameConfig:
    small_blind = rng.choice([1, 1, 2, 5])
    big_blind = small_blind * rng.choice([1, 2, 2, 3])
    small_bet = rng.choice([big_blind, big_blind, 2 * big_blind])
    return GameConfig(
        game=rng.choice(sorted(PRESETS)), small_blind=small_blind, big_blind=big_blind,
        ante=rng.choice([0, 0, 0, 1]), small_bet=small_bet, big_bet=2 * small_bet, cap=rng.choice([3, 4, 5]),
        heads_up_uncapped=rng.random() < 0.3, burn=rng.random() < 0.3,
        odd_chip=rng.choice(["position", "low"]),
    )


def random_illegal(rng: random.Random, g: Game) -> tuple[object, int | None]:
    """An action that is probably illegal here (some turn out legal: apply judges, not this)."""
    n = len(g.stacks)
    roll = rng.random()
    if roll < 0.2:  # the right action from the wrong seat
        legal = g.legal_actions()
        wrong = rng.choice([s for s in range(n) if s != g.to_act] or [n])
        return (rng.choice(legal) if legal else "check"), wrong
    if roll < 0.3:  # a seat that does not exist, or not an int
        return "call", rng.choice([-1, n, 99, "0", 1.0, None if n else 0])
    if roll < 0.4:  # not an action at all
        return rng.choice(["shove", "", "CALL ", 7, None, ("call",), b"call"]), None
    kind = rng.choice(KINDS)
    amount = rng.choice([None, 0, -2, 1, 3, 4, 7, 10**9, True, 2.0])
    cards = rng.choice([None, (), (0,), (0, 0), (52,), (-1,), tuple(range(6)),
                        tuple(g.hands[g.to_act][:2]) if g.to_act is not None and g.to_act >= 0 and g.hands[g.to_act] else (0,)])
    try:
        return Action(kind, amount, cards), None
    except bf.BadaceyError:
        return kind, None


def play(rng: random.Random, illegal_rate: float, check_history: bool) -> int:
    """One hand of random actions; returns the number of illegal attempts refused."""
    n = rng.randint(2, 6)
    stacks = [rng.choice([rng.randint(1, 12), rng.randint(1, 400)]) for _ in range(n)]
    g = Game(random_config(rng), stacks=stacks, button=rng.randrange(n), seed=rng.randrange(2**32))
    total = sum(stacks)
    refused = 0
    while not g.is_over:
        if rng.random() < illegal_rate:
            action, seat = random_illegal(rng, g)
            before = g.snapshot()
            try:
                g.apply(action, seat)
            except (bf.BadaceyError, TypeError, ValueError):
                refused += 1
                assert g.snapshot() == before, (action, seat)
            continue
        legal = g.legal_actions()
        action = rng.choice(legal)
        if action.kind == "draw":  # any subset of the cards held
            action = Action("draw", None, tuple(c for c in action.cards if rng.random() < 0.5))
        g.apply(action)
        if not g.is_over:  # a finished hand's pot still reports what it held
            assert sum(g.stacks) + g.pot == total
    assert sum(g.stacks) == total, (stacks, g.stacks)
    assert all(s >= 0 for s in g.stacks)
    assert sum(g.winnings) == 0
    if check_history:
        for again in (replay(from_json(to_json(g))), replay_phh(to_phh(g))):
            assert again.stacks == g.stacks and again.payouts == g.payouts and again.hands == g.hands
            assert again.log == g.log and again.folded == g.folded
    return refused


@pytest.mark.parametrize("twin", ["python", "c"])
def test_illegal_actions_leave_the_state_identical(twin):
    from badacey_fast.kernel import using

    rng = random.Random(f"engine-{twin}")
    refused = 0
    with using(twin):
        for _ in range(max(1, HANDS // 5)):
            refused += play(rng, illegal_rate=0.3, check_history=False)
    assert refused > 0  # the fuzzer did try illegal actions


@pytest.mark.parametrize("twin", ["python", "c"])
def test_legal_random_hands_replay_from_json_and_phh(twin):
    from badacey_fast.kernel import using

    rng = random.Random(f"replay-{twin}")
    with using(twin):
        for _ in range(max(1, HANDS // 10)):
            play(rng, illegal_rate=0.0, check_history=True)


def test_hands_with_stray_actions_replay_from_json_and_phh():
    rng = random.Random("replay-stray")
    for _ in range(max(1, HANDS // 10)):
        play(rng, illegal_rate=0.3, check_history=True)


def test_a_draw_with_an_amount_is_refused():
    # Found by this fuzzer: Action("draw", 4, cards) was applied and logged with amount 4, which a JSON or
    # PHH replay (amount None) could never reproduce.
    g = Game(stacks=[20, 20], seed=1)
    while g.phase != "drawing":
        g.apply("check" if g.to_call() == 0 else "call")
    cards = g.legal_actions()[0].cards[:1]
    before = g.snapshot()
    with pytest.raises(bf.IllegalActionError, match="a draw takes no amount, got 4"):
        g.apply(Action("draw", 4, cards))
    assert g.snapshot() == before
    with pytest.raises(bf.IllegalActionError, match="a draw takes no amount"):
        g.apply(Action("draw", 0, cards), seat=g.to_act)  # the checked path too
    assert g.snapshot() == before


def test_chips_conserved_over_many_hands():
    rng = random.Random("conservation")
    for _ in range(HANDS):
        play(rng, illegal_rate=0.02, check_history=False)
