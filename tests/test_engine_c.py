"""The C twin of the hand loop (csrc/engine.c) against the Python ``Game``, in lockstep on the same cards
and actions: every preset x 2-6 seats, short and uneven stacks, antes,
burn cards, no cap, heads-up uncapped, odd chips to the low half, heavy drawing that forces reshuffles."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from badacey_fast._kernel import ffi, lib
from badacey_fast.envs.encoding import mask_code, obs_row
from badacey_fast.game import Action, Game, GameConfig
from badacey_fast.kernel._c import KERNEL
from badacey_fast.rules.games import PRESETS, scoring

pytestmark = pytest.mark.backend_independent

# The harness: the C table deals (its own generator) and plays the actions the test chooses; the Python game
# is a scripted replay of exactly the cards C dealt (``Game(_script=...)`` takes each card from wherever it is
# in the stub and refuses one that is not there, so a C reshuffle that put the wrong cards back is caught) fed
# the same actions.  After every action both are compared: whose turn, phase, street, the mask code and the
# amounts of the legal actions, every seat's observation row (stacks, bets, pot, folds, still to act, discard
# counts, cards in hand order); at the end the payouts, stacks, uncalled chips and every card dealt.

PHASES = {0: "betting", 1: "drawing", 2: "complete"}


def c_config(config: GameConfig, stacks: list[int], learner: int = 0) -> Any:
    cfg = ffi.new("bd_eng_config *")
    cfg.small_blind, cfg.big_blind, cfg.ante = config.small_blind, config.big_blind, config.ante
    cfg.small_bet, cfg.big_bet = config.small_bet, config.big_bet
    cfg.cap = lib.BD_ENG_NO_CAP if config.cap is None else config.cap
    for i, s in enumerate(stacks):
        cfg.stacks[i] = s
    cfg.game = PRESETS.index(config.game)
    cfg.seats = len(stacks)
    cfg.learner = learner
    cfg.heads_up_uncapped, cfg.burn = int(config.heads_up_uncapped), int(config.burn)
    cfg.odd_low = int(config.odd_chip == "low")
    return cfg


def c_table(config: GameConfig, stacks: list[int], seed: int, learner: int = 0) -> Any:
    t = ffi.new("bd_eng_table *")
    rc = lib.bd_eng_init(t, c_config(config, stacks, learner), seed)
    assert rc == lib.BD_ENG_OK, rc
    return t


def eval_table(config: GameConfig) -> Any:
    return KERNEL.table(scoring(config.game).ace_high)


def c_row(t: Any, seat: int) -> list[int]:
    row = ffi.new("int64_t[]", 65)
    k = lib.bd_eng_obs_row(t, seat, row, 65)
    assert k > 0
    return list(row[0:k])


def c_legal(t: Any) -> tuple[int, int, int]:
    call, target = ffi.new("int64_t *"), ffi.new("int64_t *")
    code = lib.bd_eng_legal(t, call, target)
    return code, call[0], target[0]


def py_legal(g: Game) -> tuple[int, int, int]:
    code = mask_code(g)
    call = target = 0
    if g.phase == "betting":
        for a in g.legal_actions():
            if a.kind == "call":
                call = a.amount
            elif a.kind in ("bet", "raise"):
                target = a.amount
    return code, call, target


@dataclass
class Step:
    """The C table's state after one action (or the deal): what the Python game must show then."""

    to_act: int
    phase: str
    street: int
    legal: tuple[int, int, int]
    rows: list[list[int]]


@dataclass
class Hand:
    button: int
    dealt: list[int]
    actions: list[tuple[int, int, int]]  # (seat, kind, discards by hand position)
    steps: list[Step]
    payouts: list[int]
    stacks: list[int]
    returned: list[int]
    reshuffles: int
    extra: dict[str, Any] = field(default_factory=dict)


def snapshot(t: Any, n: int) -> Step:
    return Step(t.to_act, PHASES[t.phase], t.street, c_legal(t), [c_row(t, s) for s in range(n)])


def play_c(t: Any, config: GameConfig, n: int, button: int, rnd: random.Random, heavy: float = 0.0) -> Hand:
    """One hand of the C table with actions chosen by ``rnd`` (uniform legal betting kinds; each card
    discarded with probability 1/2, or every card with probability ``heavy``, then with no folds), every
    state recorded."""
    table = eval_table(config)
    rc = lib.bd_eng_deal(t, button)
    assert rc == lib.BD_ENG_OK, rc
    steps = [snapshot(t, n)]
    actions = []
    while t.phase != 2:
        code, _, _ = c_legal(t)
        seat = t.to_act
        if t.phase == 1:
            k = t.hand_len[seat]
            discards = (1 << k) - 1 if rnd.random() < heavy else rnd.getrandbits(k)
            kind = 3
        else:
            # Heavy drawing keeps every seat in (no folds), so that every hand reaches its draws.
            kind = rnd.choice([b for b in range(3) if code >> b & 1 and not (heavy and b == 0)])
            discards = 0
        rc = lib.bd_eng_act(t, table, kind, discards)
        assert rc == lib.BD_ENG_OK, (rc, kind, discards)
        actions.append((seat, kind, discards))
        steps.append(snapshot(t, n))
    assert t.nlog == len(actions)
    for (seat, kind, discards), entry in zip(actions, t.log):
        assert entry == seat << 8 | kind << 5 | discards
    return Hand(button, list(t.dealt[0:t.ndealt]), actions, steps, list(t.payouts[0:n]), list(t.stacks[0:n]),
                list(t.returned[0:n]), t.nreshuffles)


def py_action(g: Game, kind: int, discards: int) -> Action:
    """The Python action of a C (kind, discards): the legal action of that betting index, or the draw
    of the cards at those hand positions."""
    if kind == 3:
        hand = g.hands[g.to_act]
        return Action("draw", cards=tuple(c for j, c in enumerate(hand) if discards >> j & 1))
    legal = g.legal_actions()
    kinds = {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}
    (a,) = [a for a in legal if kinds[a.kind] == kind]
    return a


def compare(g: Game, step: Step, where: str) -> None:
    n = g.n
    assert (g.to_act, g.phase, g.street) == (step.to_act, step.phase, step.street), where
    assert py_legal(g) == step.legal, where
    for s in range(n):
        assert obs_row(g, s) == step.rows[s], f"{where}: seat {s}"


def replay_python(config: GameConfig, stacks: list[int], hand: Hand) -> Game:
    """The Python game fed the C hand's cards and actions, compared with it after every action."""
    g = Game(config, stacks, button=hand.button, _script=hand.dealt, seed=0)
    compare(g, hand.steps[0], "after the deal")
    for k, (seat, kind, discards) in enumerate(hand.actions):
        g.apply(py_action(g, kind, discards), seat)
        compare(g, hand.steps[k + 1], f"after action {k} {(seat, kind, discards)}")
    assert g.phase == "complete"
    assert g.payouts == hand.payouts
    assert g.stacks == hand.stacks
    assert g.returned == hand.returned
    assert g.dealt == hand.dealt
    assert len(g.reshuffles) == hand.reshuffles
    return g


# ----------------------------------------------------------------------------------------------------
# the tests


SEATS = (2, 3, 4, 5, 6)


def run(config: GameConfig, stacks_of, seats: int, hands: int, seed: int, heavy: float = 0.0) -> dict[str, int]:
    """``hands`` hands at one C table (uneven stacks redrawn per table), each replayed in Python."""
    rnd = random.Random(seed)
    seen = {"hands": 0, "reshuffles": 0, "showdowns": 0, "side_pots": 0, "all_in": 0}
    per_table = 10
    for start in range(0, hands, per_table):
        stacks = stacks_of(rnd, seats)
        t = c_table(config, stacks, rnd.getrandbits(64))
        for h in range(min(per_table, hands - start)):
            hand = play_c(t, config, seats, h % seats, rnd, heavy)
            g = replay_python(config, stacks, hand)
            seen["hands"] += 1
            seen["reshuffles"] += hand.reshuffles > 0
            seen["showdowns"] += g.showdown
            seen["all_in"] += 0 in g.stacks[:] or any(s == 0 for s in hand.steps[-2].rows[0][12:12 + seats])
            if g.settlement is not None:
                seen["side_pots"] += len(g.settlement.pots) > 1
    return seen


def deep(rnd: random.Random, seats: int) -> list[int]:
    return [100] * seats


def short(rnd: random.Random, seats: int) -> list[int]:
    return [rnd.randint(1, 30) for _ in range(seats)]


@pytest.mark.parametrize("game", PRESETS)
@pytest.mark.parametrize("seats", SEATS)
def test_presets_deep_stacks(game: str, seats: int) -> None:
    seen = run(GameConfig(game=game), deep, seats, 60, seed=seats * 31 + len(game))
    assert seen["showdowns"] > 0


@pytest.mark.parametrize("game", PRESETS)
@pytest.mark.parametrize("seats", SEATS)
def test_presets_short_uneven_stacks(game: str, seats: int) -> None:
    seen = run(GameConfig(game=game, small_bet=3, big_bet=6, small_blind=1, big_blind=3), short, seats, 60,
               seed=seats * 17 + len(game))
    assert seen["showdowns"] > 0
    if seats >= 3:
        assert seen["side_pots"] > 0


OPTIONS = {
    "ante only": GameConfig(small_blind=0, big_blind=0, ante=1),
    "ante and blinds": GameConfig(ante=1),
    "burn": GameConfig(burn=True),
    "no cap": GameConfig(cap=None),
    "heads-up uncapped": GameConfig(heads_up_uncapped=True, cap=2),
    "odd chip low": GameConfig(odd_chip="low", small_blind=1, big_blind=3, small_bet=3, big_bet=5),
    "small blind 0": GameConfig(small_blind=0, big_blind=2),
    "cap 1": GameConfig(cap=1),
}


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("game", PRESETS)
def test_options(option: str, game: str) -> None:
    base = OPTIONS[option]
    config = GameConfig(**{**base.to_dict(), "game": game})
    total = {"hands": 0, "showdowns": 0}
    for seats in SEATS:
        for stacks_of in (deep, short):
            seen = run(config, stacks_of, seats, 20, seed=seats + len(option) * 7 + len(game))
            total["hands"] += seen["hands"]
            total["showdowns"] += seen["showdowns"]
    assert total["showdowns"] > 0


@pytest.mark.parametrize("game", PRESETS)
@pytest.mark.parametrize("burn", (False, True))
def test_heavy_drawing_reshuffles(game: str, burn: bool) -> None:
    # Six seats discarding everything: the stub runs out in the second or third draw, every hand.
    config = GameConfig(game=game, burn=burn, small_bet=1, big_bet=1, small_blind=1, big_blind=1)
    seen = run(config, lambda rnd, seats: [1000] * seats, 6, 40, seed=5 + burn, heavy=0.9)
    assert seen["reshuffles"] >= 30


def test_refusals_change_nothing() -> None:
    config = GameConfig()
    t = c_table(config, [50, 50, 50], 9)
    table = eval_table(config)
    assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_ILLEGAL  # no hand dealt yet
    assert lib.bd_eng_deal(t, 3) == lib.BD_ENG_BAD_ARGS
    assert lib.bd_eng_deal(t, 0) == lib.BD_ENG_OK
    before = bytes(ffi.buffer(t))
    assert lib.bd_eng_act(t, table, 3, 0) == lib.BD_ENG_ILLEGAL  # a draw while betting
    assert lib.bd_eng_act(t, table, 7, 0) == lib.BD_ENG_ILLEGAL
    assert lib.bd_eng_act(t, table, -1, 0) == lib.BD_ENG_ILLEGAL
    assert bytes(ffi.buffer(t)) == before


def test_damaged_state_is_refused() -> None:
    config = GameConfig()
    table = eval_table(config)
    for field, bad in (("to_act", 9), ("nstub", 60), ("nmuck", -1), ("ndraws", 4), ("nqueue", 7),
                       ("hand_size", 6), ("ndealt", 129)):
        t = c_table(config, [50, 50], 1)
        assert lib.bd_eng_deal(t, 0) == lib.BD_ENG_OK
        setattr(t, field, bad)
        assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_BAD_STATE, field
        assert lib.bd_eng_legal(t, ffi.new("int64_t *"), ffi.new("int64_t *")) == -1, field
        assert lib.bd_eng_obs_row(t, 0, ffi.new("int64_t[]", 65), 65) == -1, field
    t = c_table(config, [50, 50], 1)
    assert lib.bd_eng_deal(t, 0) == lib.BD_ENG_OK
    t.hands[0][0] = t.hands[1][0]  # a card in two hands
    assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_BAD_STATE


def test_bad_config_is_refused() -> None:
    t = ffi.new("bd_eng_table *")
    for field, bad in (("seats", 7), ("seats", 1), ("game", 5), ("small_bet", 0), ("cap", 0), ("learner", 2),
                       ("burn", 2), ("big_blind", 0)):
        cfg = c_config(GameConfig(), [50, 50])
        setattr(cfg, field, bad)
        assert lib.bd_eng_init(t, cfg, 1) == lib.BD_ENG_BAD_ARGS, field
    cfg = c_config(GameConfig(), [50, 0])
    assert lib.bd_eng_init(t, cfg, 1) == lib.BD_ENG_BAD_ARGS
