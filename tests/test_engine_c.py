"""The C twin of the hand loop (csrc/engine.c) against the Python ``Game``, in lockstep on the same cards
and actions: every preset x 2-6 seats, short and uneven stacks, antes,
burn cards, no cap, heads-up uncapped, odd chips to the low half, heavy drawing that forces reshuffles, and
the small games of RULES.md §6 (fewer ranks, suits, cards and draws)."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from badacey_fast._kernel import ffi, lib
from badacey_fast.envs.encoding import mask_code, obs_row
from badacey_fast.errors import ConfigError, ShapeError
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
    cfg.ranks, cfg.suits, cfg.hand_size, cfg.draws = config.ranks, config.suits, config.hand_size, config.draws
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


#: Small games (RULES.md §6): every preset on a small deck, Badugi with fewer suits and cards, 0-3 draws.
SMALL = {
    "tiny badugi": GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=1),
    "badugi 2 suits 1 card burn": GameConfig(game="badugi", ranks=4, suits=2, hand_size=1, burn=True),
    "badugi 3 suits 3 cards": GameConfig(game="badugi", ranks=6, suits=3, hand_size=3, draws=2),
    "mini badugi": GameConfig(game="badugi", ranks=5, draws=1, cap=2),
    "badacey 6 ranks": GameConfig(game="badacey", ranks=6, draws=2),
    "badeucy 7 ranks odd low": GameConfig(game="badeucy", ranks=7, odd_chip="low", small_blind=1, big_blind=3,
                                          small_bet=3, big_bet=5),
    "a5 no draw": GameConfig(game="a5", ranks=4, draws=0),
    "27 6 ranks burn": GameConfig(game="27", ranks=6, burn=True),
    "27 13 ranks one draw": GameConfig(game="27", draws=1),
}


@pytest.mark.parametrize("name", SMALL)
def test_small_games(name: str) -> None:
    # Every seat count the deck allows, deep and short stacks, and heavy drawing (the small stub reshuffles
    # often); the Python replay refuses any card C dealt from outside the small deck.
    config = SMALL[name]
    total = {"hands": 0, "showdowns": 0, "reshuffles": 0}
    for seats in SEATS:
        if len(config.deck) < (seats + (config.draws > 0)) * config.hand_size + 1:
            continue
        for stacks_of, heavy in ((deep, 0.0), (short, 0.0), (deep, 0.9)):
            seen = run(config, stacks_of, seats, 20, seed=seats + len(name), heavy=heavy)
            for key in total:
                total[key] += seen[key]
    assert total["showdowns"] > 20
    if config.draws:
        assert total["reshuffles"] > 0


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
                       ("hand_size", 6), ("ndealt", 129), ("level", 1 << 60), ("street", 2)):
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
    t = c_table(config, [50, 50], 1)
    assert lib.bd_eng_deal(t, 0) == lib.BD_ENG_OK
    t.stacks[1] = 1 << 62  # chips that could overflow a sum
    assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_BAD_STATE


def test_damaged_small_game_state_is_refused() -> None:
    # A small game's table: a card outside its deck (held, in the stub, in the muck), a street or a draw past
    # its last, a hand longer than its hand size -- each refused by bd_eng_check.
    config = GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=1)
    table = eval_table(config)
    outside = 3  # As: rank A in the 4th suit, which a 3-suit deck lacks

    def damaged(change: Any) -> None:
        t = c_table(config, [50, 50], 4)
        assert lib.bd_eng_deal(t, 0) == lib.BD_ENG_OK
        assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_OK  # the button calls
        change(t)
        assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_BAD_STATE
        assert lib.bd_eng_legal(t, ffi.new("int64_t *"), ffi.new("int64_t *")) == -1

    damaged(lambda t: t.hands[0].__setitem__(0, outside))
    damaged(lambda t: t.hands[1].__setitem__(1, 12))  # 4c: rank 4 is not among 3 ranks
    damaged(lambda t: t.stub.__setitem__(0, outside))
    damaged(lambda t: (t.muck.__setitem__(0, outside), setattr(t, "nmuck", 1)))
    damaged(lambda t: setattr(t, "street", 2))
    damaged(lambda t: setattr(t, "ndraws", 2))
    damaged(lambda t: t.hand_len.__setitem__(0, 3))
    damaged(lambda t: setattr(t, "hand_size", 4))


def test_inconsistent_flags_and_counts_are_refused() -> None:
    # The state: every seat folded but nlive 2.  bd_end_round then built an empty draw queue and
    # read queue[-1] (UBSan); bd_eng_check must refuse it, and every other state whose flags and counts
    # disagree, before any of it is used.
    config = GameConfig()
    table = eval_table(config)
    t = c_table(config, [50, 50], 1)
    assert lib.bd_eng_deal(t, 0) == lib.BD_ENG_OK
    t.folded[0] = t.folded[1] = 1
    assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_BAD_STATE  # was OK, then the check read queue[-1]
    assert lib.bd_eng_legal(t, ffi.new("int64_t *"), ffi.new("int64_t *")) == -1


@pytest.mark.parametrize("where", ["stub", "muck"])
def test_a_card_in_two_places_is_refused(where: str) -> None:
    # A damaged stub or muck holding a card a live hand holds (or a card twice) was accepted: the next draw
    # could deal that card again -- a hand with a repeated card, ranked at the showdown within the same call
    # (bd_eng_step_one runs the bots to the end).  Every card is in one place: a live hand, the stub or the
    # muck.
    config = GameConfig(burn=True)
    table = eval_table(config)
    for damage in ("a live card", "a stub card twice", "a card lost"):
        t = c_table(config, [50, 50, 50], 4)
        assert lib.bd_eng_deal(t, 0) == lib.BD_ENG_OK
        while t.phase == 0:  # to the first draw: the burn is in the muck
            assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_OK
        assert t.phase == 1 and t.nmuck == 1 and t.nstub == 52 - 15 - 1
        cards = getattr(t, where)
        if damage == "a live card":
            cards[0] = t.hands[t.to_act][0]
        elif damage == "a stub card twice":
            cards[0] = t.stub[1]
        else:
            setattr(t, "n" + where, getattr(t, "n" + where) - 1)
        before = bytes(ffi.buffer(t))
        assert lib.bd_eng_legal(t, ffi.new("int64_t *"), ffi.new("int64_t *")) == -1, damage
        assert lib.bd_eng_act(t, table, 3, 1) == lib.BD_ENG_BAD_STATE, damage
        assert lib.bd_eng_step_one(t, table, 4, ffi.new("uint8_t *")) == lib.BD_ENG_BAD_STATE, damage
        assert bytes(ffi.buffer(t)) == before, damage


def test_counters_saturate_rather_than_overflow() -> None:
    # nlog and nreshuffles are counters bd_eng_check bounds only below: a damaged (or, for nlog, an endless
    # heads-up uncapped) hand at INT32_MAX must not overflow the int32 (undefined behaviour; in practice it
    # wrapped negative and the next call refused a state the engine itself had made).
    config = GameConfig(burn=False)
    table = eval_table(config)
    top = 2**31 - 1
    t = c_table(config, [50, 50], 3)
    assert lib.bd_eng_deal(t, 0) == lib.BD_ENG_OK
    t.nlog = top
    assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_OK
    assert t.nlog == top
    while t.phase == 0:  # to the first draw
        assert lib.bd_eng_act(t, table, 1, 0) == lib.BD_ENG_OK
    assert t.phase == 1
    # One card left on the stub, the rest in the muck: a one-card draw reshuffles them.
    assert t.nmuck == 0
    t.muck[0:t.nstub - 1] = t.stub[1:t.nstub]
    t.nstub, t.nmuck, t.nreshuffles = 1, t.nstub - 1, top
    assert lib.bd_eng_act(t, table, 3, 1) == lib.BD_ENG_OK
    assert (t.nstub, t.nmuck) == (41, 1)  # reshuffled: 42 cards, one dealt; the discard mucked
    assert t.nreshuffles == top and t.nlog == top
    assert lib.bd_eng_legal(t, ffi.new("int64_t *"), ffi.new("int64_t *")) >= 0


def _damages(t: Any, n: int) -> list[tuple[str, Any]]:
    """Ways to make a dealt table's fields disagree with each other (each a function damaging a copy)."""
    live = [s for s in range(n) if not t.folded[s]]
    other = [s for s in live if s != t.to_act]
    folded = [s for s in range(n) if t.folded[s]]

    def set_(name: str, value: int) -> Any:
        return lambda c: setattr(c, name, value)

    out: list[tuple[str, Any]] = [
        ("every seat folded", lambda c: [c.folded.__setitem__(s, 1) for s in range(n)]),
        ("a live seat folded, nlive kept", lambda c: c.folded.__setitem__(other[0], 1)),
        ("nlive one too many" if t.nlive < n else "nlive one too few", set_("nlive", t.nlive + (1 if t.nlive < n else -1))),
        ("nactive off by one", set_("nactive", t.nactive + (1 if t.nactive < n else -1))),
        ("a folded flag of 2", lambda c: c.folded.__setitem__(other[0], 2)),
        ("chips not conserved", lambda c: c.stacks.__setitem__(0, c.stacks[0] + 1)),
        ("the seat to act holds a card short", lambda c: c.hand_len.__setitem__(c.to_act, c.hand_len[c.to_act] - 1)),
        ("a pending flag of 2", lambda c: c.pending.__setitem__(t.to_act, 2)),
    ]
    if len(live) >= 3:  # to_act folded with the counts kept consistent
        out.append(("the seat to act folded", lambda c: (c.folded.__setitem__(c.to_act, 1),
                                                         setattr(c, "nlive", c.nlive - 1),
                                                         setattr(c, "nactive", c.nactive - 1))))
    if t.phase == 0 and folded:
        out.append(("a folded seat still to act", lambda c: c.pending.__setitem__(folded[0], 1)))
    all_in = [s for s in live if t.stacks[s] == 0]
    if t.phase == 0 and all_in:
        out.append(("an all-in seat still to act", lambda c: c.pending.__setitem__(all_in[0], 1)))
    if t.phase == 1:
        out.append(("a seat still to act while drawing", lambda c: c.pending.__setitem__(other[0], 1)))
    if t.phase == 0:
        out.append(("the seat to act not still to act", lambda c: c.pending.__setitem__(c.to_act, 0)))
        out.append(("a bet above the level", lambda c: (c.sbet.__setitem__(other[0], c.level + 1),
                                                        c.contrib.__setitem__(other[0], c.contrib[other[0]] + 1),
                                                        c.stacks.__setitem__(other[0], c.stacks[other[0]] - 1))))
    out.append(("a bet above the chips in the pot", lambda c: c.sbet.__setitem__(other[0], c.contrib[other[0]] + 1)))
    if t.phase == 1 and t.nqueue > 0:
        out.append(("the seat drawing queued again", lambda c: c.queue.__setitem__(0, c.to_act)))
        if folded:
            out.append(("a folded seat queued to draw", lambda c: c.queue.__setitem__(0, folded[0])))
    return out


@pytest.mark.parametrize("seats", SEATS)
def test_every_inconsistent_state_of_a_played_hand_is_refused(seats: int) -> None:
    # At every decision of random hands, each damage of a copy of the table is refused by every entry point
    # (the copy as it was is accepted: the check refuses only what is inconsistent).
    config = GameConfig(game="badacey" if seats % 2 else "badugi")
    table = eval_table(config)
    rnd = random.Random(seats)
    t = c_table(config, short(rnd, seats), rnd.getrandbits(64))
    kinds: set[str] = set()
    for button in range(2 * seats):
        assert lib.bd_eng_deal(t, button % seats) == lib.BD_ENG_OK
        while t.phase != 2:
            for name, damage in _damages(t, seats):
                c = copy_table(t)
                assert lib.bd_eng_legal(c, ffi.new("int64_t *"), ffi.new("int64_t *")) >= 0
                damage(c)
                assert lib.bd_eng_legal(c, ffi.new("int64_t *"), ffi.new("int64_t *")) == -1, name
                assert lib.bd_eng_obs_row(c, 0, ffi.new("int64_t[]", 65), 65) == -1, name
                before = bytes(ffi.buffer(c))
                assert lib.bd_eng_act(c, table, 1 if t.phase == 0 else 3, 0) == lib.BD_ENG_BAD_STATE, name
                assert bytes(ffi.buffer(c)) == before, name
                kinds.add(name)
            code, _, _ = c_legal(t)
            if t.phase == 1:
                rc = lib.bd_eng_act(t, table, 3, rnd.getrandbits(t.hand_len[t.to_act]))
            else:
                rc = lib.bd_eng_act(t, table, rnd.choice([b for b in range(3) if code >> b & 1]), 0)
            assert rc == lib.BD_ENG_OK
    assert {"every seat folded", "a live seat folded, nlive kept", "the seat drawing queued again",
            "a seat still to act while drawing"} <= kinds
    if seats > 2:
        assert "an all-in seat still to act" in kinds


# Random damage: any field of a played table set to any value of its type (the campaign of issue 22 damaged
# 586 k states; under the sanitizers -- .ci/sanitize tests/test_engine_c.py -- a read or write out of bounds
# aborts).  Every entry point either refuses the state (BAD_STATE, nothing written) or plays it with one of
# its documented codes; an action refused as illegal changes nothing.  The standing soak (README,
# "Reliability") damages a million states: ENGINE_DAMAGE_STATES=1000000.
DAMAGE_STATES = int(os.environ.get("ENGINE_DAMAGE_STATES", "1500"))
_INT = {"uint64_t": -64, "int64_t": 64, "int32_t": 32, "int8_t": 8, "uint8_t": -8, "uint16_t": -16}


def _fields(ctype: Any, inside: str = "") -> list[tuple[str, str, int, tuple[int, ...]]]:
    """(struct, field, bits (negative: unsigned), array dimensions) of every integer field, depth first."""
    out: list[tuple[str, str, int, tuple[int, ...]]] = []
    for name, f in ctype.fields:
        t, dims = f.type, ()
        if t.kind == "struct":
            out += _fields(t, name)
            continue
        while t.kind == "array":
            t, dims = t.item, dims + (t.length,)
        out.append((inside, name, _INT[t.cname], dims))
    return out


FIELDS = _fields(ffi.typeof("bd_eng_table"))


def _value(rnd: random.Random, bits: int, now: int) -> int:
    lo, hi = (0, 2 ** -bits - 1) if bits < 0 else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    pick = rnd.random()
    if pick < 0.4:
        v = now + rnd.choice([-2, -1, 1, 2])
    elif pick < 0.8:
        v = rnd.choice([-1, 0, 1, 2, 3, 4, 5, 6, 7, 51, 52, 53, 63, 64, 127, 128, 255, 1023, 1024, 2**31 - 1,
                        2**40, 2**40 + 1, 2**50, 2**50 + 1, 2**53, 2**62, lo, hi])
    else:
        v = rnd.randint(lo, hi)
    return min(max(v, lo), hi)


def _damage(rnd: random.Random, c: Any) -> list[str]:
    """Set 1 to 3 random fields (or array entries) of table ``c`` to random values of their types."""
    done = []
    for _ in range(rnd.choice([1, 1, 2, 3])):
        inside, name, bits, dims = rnd.choice(FIELDS)
        owner = getattr(c, inside) if inside else c
        if not dims:
            setattr(owner, name, _value(rnd, bits, getattr(owner, name)))
            done.append(f"{inside}.{name}")
            continue
        index = [rnd.randrange(d) for d in dims]
        array = getattr(owner, name)
        for i in index[:-1]:
            array = array[i]
        array[index[-1]] = _value(rnd, bits, array[index[-1]])
        done.append(f"{inside}.{name}{index}")
    return done


def _entry_points(rnd: random.Random, table: Any) -> list[tuple[str, Any, set[int]]]:
    """(name, call on a table, the codes it may return on a state it accepts) for every exported function;
    each refuses a state it does not accept with BAD_STATE (-1 for legal and obs_row, 0 for the batches)."""
    kind, discards, action = rnd.randint(-1, 4), rnd.randint(-1, 40), rnd.randint(-2, 40)
    obs = ffi.new("float[]", lib.BD_OBS_SIZE)
    final = ffi.new("float[]", lib.BD_OBS_SIZE)
    codes, rewards = ffi.new("int64_t[1]"), ffi.new("double[1]")
    term, illegal = ffi.new("uint8_t[1]"), ffi.new("uint8_t[1]")
    acts = ffi.new("int64_t[1]", [action])
    ok = {lib.BD_ENG_OK, lib.BD_ENG_ILLEGAL, lib.BD_ENG_RAN_OUT}
    return [
        ("act", lambda c: lib.bd_eng_act(c, table, kind, discards), ok),
        ("step_one", lambda c: lib.bd_eng_step_one(c, table, action, illegal), ok),
        ("next_hand", lambda c: lib.bd_eng_next_hand(c, table), ok),
        ("deal", lambda c: lib.bd_eng_deal(c, rnd.randint(-1, 6)), {lib.BD_ENG_OK, lib.BD_ENG_BAD_ARGS}),
        ("reset_many", lambda c: lib.bd_eng_reset_many(c, 1, table, obs, lib.BD_OBS_SIZE, codes), {-1, 0}),
        ("step_many", lambda c: lib.bd_eng_step_many(c, 1, table, acts, obs, final, lib.BD_OBS_SIZE, rewards, term,
                                                     illegal, codes), {-1, 0}),
    ]


def test_random_damage_is_refused_or_played_within_bounds() -> None:
    rnd = random.Random(2022)
    configs = [(GameConfig(game=g, burn=b), SEATS) for g in PRESETS for b in (False, True)]
    configs += [(GameConfig(game="badugi", ranks=r, suits=3, hand_size=2, draws=1, cap=1, burn=b), (2, 3))
                for r in (3, 5) for b in (False, True)]  # small decks: their cards each in one place too
    refused = accepted = 0
    while refused + accepted < DAMAGE_STATES:
        (config, seat_counts), seats = (pair := rnd.choice(configs)), rnd.choice(pair[1])
        table = eval_table(config)
        t = c_table(config, short(rnd, seats), rnd.getrandbits(64), learner=rnd.randrange(seats))
        assert lib.bd_eng_deal(t, rnd.randrange(seats)) == lib.BD_ENG_OK
        while refused + accepted < DAMAGE_STATES:
            c = copy_table(t)
            what = _damage(rnd, c)
            damaged = bytes(ffi.buffer(c))
            code = lib.bd_eng_legal(c, ffi.new("int64_t *"), ffi.new("int64_t *"))
            row = ffi.new("int64_t[]", 65)
            length = lib.bd_eng_obs_row(c, rnd.randint(-1, seats), row, 65)
            assert bytes(ffi.buffer(c)) == damaged, what
            if code == -1:
                refused += 1
                assert length == -1, what
                for name, call, _ in _entry_points(rnd, table):
                    rc = call(c)
                    assert rc == (0 if name.endswith("_many") else lib.BD_ENG_BAD_STATE), (name, what, rc)
                    assert bytes(ffi.buffer(c)) == damaged, (name, what)
            else:
                accepted += 1
                assert 0 <= code < 16 and -1 <= length <= 65, what
                for name, call, codes in _entry_points(rnd, table):
                    c = copy_table(t)
                    ffi.buffer(c)[:] = damaged
                    rc = call(c)
                    assert rc in codes, (name, what, rc)
                    if rc == lib.BD_ENG_ILLEGAL:
                        assert bytes(ffi.buffer(c)) == damaged, (name, what)
                    if rc == lib.BD_ENG_OK and name in ("act", "step_one", "next_hand", "deal"):
                        assert lib.bd_eng_legal(c, ffi.new("int64_t *"), ffi.new("int64_t *")) >= 0, (name, what)
            # the undamaged table plays on: a random legal action, or the next hand
            if t.phase == 2:
                break
            code, _, _ = c_legal(t)
            if t.phase == 1:
                rc = lib.bd_eng_act(t, table, 3, rnd.getrandbits(t.hand_len[t.to_act]))
            else:
                rc = lib.bd_eng_act(t, table, rnd.choice([b for b in range(3) if code >> b & 1]), 0)
            assert rc == lib.BD_ENG_OK
    assert refused > DAMAGE_STATES // 4 and accepted > DAMAGE_STATES // 10, (refused, accepted)


def test_bad_config_is_refused() -> None:
    t = ffi.new("bd_eng_table *")
    for field, bad in (("seats", 7), ("seats", 1), ("game", 5), ("small_bet", 0), ("cap", 0), ("learner", 2),
                       ("burn", 2), ("big_blind", 0), ("ranks", 0), ("ranks", 14), ("suits", 3), ("hand_size", 4),
                       ("draws", 4), ("draws", -1)):
        cfg = c_config(GameConfig(), [50, 50])
        setattr(cfg, field, bad)
        assert lib.bd_eng_init(t, cfg, 1) == lib.BD_ENG_BAD_ARGS, field
    for field, bad in (("hand_size", 5), ("hand_size", 0), ("suits", 1), ("suits", 5)):  # Badugi's own ranges
        cfg = c_config(GameConfig(game="badugi"), [50, 50])
        setattr(cfg, field, bad)
        assert lib.bd_eng_init(t, cfg, 1) == lib.BD_ENG_BAD_ARGS, field
    cfg = c_config(GameConfig(), [50, 0])
    assert lib.bd_eng_init(t, cfg, 1) == lib.BD_ENG_BAD_ARGS


# ---------------------------------------------------------------------------------------------------------
# The vectorised environment on the C path (BadaceyVectorEnv(engine="c")) against Python replays of its own
# tables: before each step every table's state is copied; bd_eng_step_one on the copy (the step without the
# autoreset) must leave the finished hand, which Game replays from its log and cards -- the learner's action
# decoded as encoding.decode decodes it, the reward its winnings, final_obs its observation -- then
# bd_eng_next_hand on the copy must deal the hands the env dealt (each skipped hand replayed too, its chips
# in the reward) and arrive at the env's table byte for byte, whose hand in play replays to the observation
# and mask returned.

import numpy as np

from badacey_fast.envs.encoding import decode, encode, mask_table, n_actions
from badacey_fast.envs.gymnasium import BadaceyVectorEnv
from badacey_fast.game.bots import RandomBot

SIZE = ffi.sizeof("bd_eng_table")


def replay_table(config: GameConfig, stacks: list[int], t: Any) -> Game:
    """The hand in play at C table ``t`` as a Python game (its cards and logged actions), checked equal."""
    assert t.nlog <= lib.BD_ENG_LOG_MAX
    g = Game(config, stacks, button=t.button, _script=list(t.dealt[0:t.ndealt]), seed=0)
    for entry in t.log[0:t.nlog]:
        seat, kind, discards = entry >> 8, entry >> 5 & 7, entry & 31
        g.apply(py_action(g, kind, discards), seat)
    compare(g, snapshot(t, g.n), "replayed table")
    return g


def copy_table(t: Any) -> Any:
    c = ffi.new("bd_eng_table *")
    ffi.buffer(c)[:] = ffi.buffer(t, SIZE)[:]
    return c


def same_action(a: Action, b: Action) -> bool:
    if a.kind == "draw":
        return b.kind == "draw" and sorted(a.cards or ()) == sorted(b.cards or ())
    return a == b


@pytest.mark.parametrize("preset,seats,seat", [("badacey", 2, 0), ("badeucy", 3, 2), ("badugi", 4, 1),
                                               ("a5", 5, 3), ("27", 6, 5), ("badacey", 2, 1), ("tiny badugi", 2, 1),
                                               ("badugi 3 suits 3 cards", 3, 0), ("27 6 ranks burn", 3, 2)])
def test_vector_env_c_path_replays_in_python(preset: str, seats: int, seat: int) -> None:
    n, stacks = 5, [30] * seats
    config = SMALL.get(preset) or GameConfig(game=preset)
    v = BadaceyVectorEnv(n, config, seats=seats, seat=seat, stacks=30, engine="c")
    assert v.engine == "c" and v._c is not None
    tables, evals = v._c.tables, v._c.table
    masks = mask_table(config.hand_size)
    obs, info = v.reset(seed=11)
    for k in range(n):
        g = replay_table(config, stacks, tables + k)
        assert g.to_act == seat and (obs[k] == encode(g, seat)).all()
        assert (info["action_mask"][k] == masks[mask_code(g)]).all()
    rng = np.random.default_rng(5)
    ended = skipped_hands = illegal = 0
    for _ in range(250):
        acts = rng.integers(0, n_actions(config.hand_size), n)
        before = [copy_table(tables + k) for k in range(n)]
        obs, rew, term, trunc, info = v.step(acts)
        assert not trunc.any()
        for k in range(n):
            t = before[k]
            g = replay_table(config, stacks, t)
            want, legal = decode(g, int(acts[k]))
            first = t.nlog
            flag = ffi.new("uint8_t *")
            assert lib.bd_eng_step_one(t, evals, int(acts[k]), flag) == lib.BD_ENG_OK
            assert bool(flag[0]) == (not legal) == bool(info["illegal"][k])
            illegal += not legal
            entry = t.log[first]
            assert entry >> 8 == seat
            assert same_action(py_action(g, entry >> 5 & 7, entry & 31), want)
            done = replay_table(config, stacks, t)
            assert bool(term[k]) == (done.phase == "complete")
            if not term[k]:
                assert rew[k] == 0.0
                assert bytes(ffi.buffer(t, SIZE)) == bytes(ffi.buffer(tables + k, SIZE))
            else:
                ended += 1
                assert (info["final_obs"][k] == encode(done, seat)).all()
                reward = done.winnings[seat] * (1.0 / config.big_blind)
                skipped = 0.0
                while True:
                    assert lib.bd_eng_next_hand(t, evals) == lib.BD_ENG_OK
                    h = replay_table(config, stacks, t)
                    if h.phase != "complete":
                        break
                    skipped += h.winnings[seat] * (1.0 / config.big_blind)
                    skipped_hands += 1
                assert rew[k] == reward + skipped
                assert bytes(ffi.buffer(t, SIZE)) == bytes(ffi.buffer(tables + k, SIZE))
            g = replay_table(config, stacks, tables + k)
            assert g.to_act == seat and (obs[k] == encode(g, seat)).all()
            assert (info["action_mask"][k] == masks[mask_code(g)]).all()
        if "final_obs" in info:
            assert (info["final_obs"][~term] == 0).all()
        else:
            assert not term.any()
    assert ended > 40 and illegal > 100
    if seats == 2 and seat == 1:
        assert skipped_hands > 0  # the learner's big blind, folded to


def test_vector_env_c_path_is_deterministic_per_seed() -> None:
    def run(seed: int) -> list[np.ndarray[Any, Any]]:
        v = BadaceyVectorEnv(8, "badeucy", seats=3, engine="c")
        obs, info = v.reset(seed=seed)
        out = [obs]
        rng = np.random.default_rng(0)
        for _ in range(50):
            m = info["action_mask"]
            obs, r, term, _, info = v.step((rng.random(m.shape) * m).argmax(1))
            out += [obs, r, term]
        return out

    a, b, c = run(4), run(4), run(5)
    assert all((x == y).all() for x, y in zip(a, b))
    assert not all((x == y).all() for x, y in zip(a, c))


def test_vector_env_engine_choice_and_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    v = BadaceyVectorEnv(3, "badacey", engine="c")
    with pytest.raises(RuntimeError, match="reset"):
        v.step([1, 1, 1])
    v.reset(seed=1)
    with pytest.raises(ShapeError, match="2 actions for 3 tables"):
        v.step([1, 1])
    with pytest.raises(ValueError, match="action index 35 of table 1 is not in 0..34"):
        v.step([1, 35, 1])
    with pytest.raises(ValueError, match="action index -1 of table 2"):
        v.step(np.array([1, 1, -1]))
    with pytest.raises(TypeError, match="integers, not an array of float64"):
        v.step(np.array([1.0, 1.0, 1.0]))
    with pytest.raises(TypeError, match="must be ints, not str"):
        v.step([1, "1", 1])
    with pytest.raises(ValueError, match="6 actions for 3 tables"):
        v.step(np.ones((3, 2), np.int64))
    v.step(np.array([1, 2, 0], np.uint8))  # any integer dtype
    with pytest.raises(ValueError, match="engine='c' is unavailable: custom opponents"):
        BadaceyVectorEnv(2, opponents=lambda: [RandomBot(seed=1)], engine="c")
    assert BadaceyVectorEnv(2, opponents=lambda: [RandomBot(seed=1)]).engine == "python"
    with pytest.raises(ConfigError, match="engine must be one of"):
        BadaceyVectorEnv(2, engine="C")
    with pytest.raises(ConfigError, match="refuses these rules"):
        BadaceyVectorEnv(2, stacks=1 << 41, engine="c")
    assert BadaceyVectorEnv(2, stacks=1 << 41).engine == "python"
    from badacey_fast import kernel

    with kernel.using("python"):
        assert BadaceyVectorEnv(2).engine == "python"
        with pytest.raises(ValueError, match="the C kernel is not active"):
            BadaceyVectorEnv(2, engine="c")
    # The C side refuses rather than trusts: a damaged table is refused before it is stepped.
    v.reset(seed=2)
    assert v._c is not None
    v._c.tables[1].nstub = 99
    with pytest.raises(RuntimeError, match="refused"):
        v.step([1, 1, 1])


def test_seeding_checks_the_kernel_accepts_each_table() -> None:
    # bd_eng_init re-checks the config at every seeding: a config changed since the tables were made (the
    # struct is reachable as .config) is refused by name, not started; a wrong seed count never writes.
    from badacey_fast.kernel._c import EngineTables

    t = EngineTables(3, 0, 0, [100, 100], 1, 2, 0, 2, 4, 4, True, False, True, False, (13, 4, 5, 3))
    t.seed([1, 2, 3])
    with pytest.raises(ShapeError, match="4 seeds for 3 tables"):
        t.seed([1, 2, 3, 4])
    with pytest.raises(ValueError, match="2 seeds for 3 tables"):
        t.seed([1, 2])
    for field_name, bad in (("seats", 7), ("learner", 2), ("small_bet", 0)):
        good = getattr(t.config, field_name)
        setattr(t.config, field_name, bad)
        with pytest.raises(RuntimeError, match="refused to start table 0: its config is out of range"):
            t.seed([1, 2, 3])
        setattr(t.config, field_name, good)
    t.seed([1, 2, 3])  # restored: accepted again


@pytest.mark.parametrize("seats", (2, 4))
def test_random_bots_match_random_bot_distribution(seats: int) -> None:
    # The C bots play every seat but the learner's; the learner never folds.  Each bot decision is seen in
    # the table's log with the legal set it faced (replayed in Python): uniform over that set (RandomBot:
    # acts[floor(random() * len(acts))]) and each card discarded with probability 1/2.  A chi-square test
    # at a threshold far in the tail (the statistic of a fair die stays under it but for p < 1e-6), so it
    # fails on a biased choice, not by chance.
    config = GameConfig(cap=None)
    n = 16
    v = BadaceyVectorEnv(n, config, seats=seats, seat=0, stacks=200, engine="c")
    assert v._c is not None
    obs, info = v.reset(seed=21)
    counts: dict[int, list[int]] = {}
    per_card = [0, 0]
    draws_by_size = [0] * 6
    rng = np.random.default_rng(1)
    for _ in range(400):
        before = [copy_table(v._c.tables + k) for k in range(n)]
        # The learner checks, calls, bets or raises (never folds), so the bots face every legal set.
        m = info["action_mask"]
        acts = np.where(m[:, 1] == 1, np.where((m[:, 2] == 1) & (rng.random(n) < 0.5), 2, 1),
                        3 + rng.integers(0, 32, n))
        obs, _, term, _, info = v.step(acts)
        for k in range(n):
            t = before[k]
            flag = ffi.new("uint8_t *")
            g = replay_table(config, [200] * seats, t)
            start = t.nlog
            assert lib.bd_eng_step_one(t, v._c.table, int(acts[k]), flag) == lib.BD_ENG_OK
            g.apply(decode(g, int(acts[k]))[0])
            for entry in t.log[start + 1:t.nlog]:
                seat, kind, discards = entry >> 8, entry >> 5 & 7, entry & 31
                code = mask_code(g)
                if kind == 3:
                    k_cards = len(g.hands[seat])
                    per_card[0] += bin(discards).count("1")
                    per_card[1] += k_cards
                    draws_by_size[bin(discards).count("1")] += 1
                else:
                    counts.setdefault(code, [0, 0, 0])[kind] += 1
                g.apply(py_action(g, kind, discards), seat)
    chi2_limit = {2: 24.0, 3: 28.0}  # chi-square with 1 and 2 degrees of freedom, p ~ 1e-6
    tested = 0
    for code, got in counts.items():
        kinds = [b for b in range(3) if code >> b & 1]
        assert all(got[b] == 0 for b in range(3) if b not in kinds), (code, got)
        total = sum(got)
        if len(kinds) < 2 or total < 200:
            continue
        expect = total / len(kinds)
        chi2 = sum((got[b] - expect) ** 2 / expect for b in kinds)
        assert chi2 < chi2_limit[len(kinds)], (code, got)
        tested += 1
    assert tested >= 2, counts
    # Each card discarded with probability 1/2: the count over many cards within 6 standard deviations.
    discarded, cards = per_card
    assert cards > 2000
    assert abs(discarded - cards / 2) < 6 * (cards / 4) ** 0.5
    # Discard counts binomial(5, 1/2): 1, 5, 10, 10, 5, 1 in 32.
    total = sum(draws_by_size)
    expect = [total * c / 32 for c in (1, 5, 10, 10, 5, 1)]
    chi2 = sum((g_ - e) ** 2 / e for g_, e in zip(draws_by_size, expect))
    assert chi2 < 40.0, draws_by_size  # 5 degrees of freedom, p ~ 1e-7


@pytest.mark.parametrize("preset,seats", [("badacey", 2), pytest.param("badugi", 6, marks=pytest.mark.exhaustive)])
def test_vector_env_c_and_python_paths_play_the_same_game_in_distribution(preset: str, seats: int) -> None:
    # The two paths deal from different random streams, so their trajectories differ; what they must share is
    # the game: the same rules, the same random opponents, the same deals in distribution.  The same random
    # learner on both, over ~50 k hands each: the steps a hand, the learner's net, the pot at its first
    # decision (one sample a hand, so independent) and its position then agree within four standard
    # errors.  A bot that never folds, a button that stuck or a skipped hand miscounted moves
    # one of them by far more.
    def play(engine: str, seed: int) -> dict[str, list[float]]:
        v = BadaceyVectorEnv(64, preset, seats=seats, seat=seats - 1, stacks=40, engine=engine)
        assert v.engine == engine
        obs, info = v.reset(seed=seed)
        rng = np.random.default_rng(seed)
        first = np.ones(64, np.bool_)
        steps = np.zeros(64, np.int64)
        out: dict[str, list[float]] = {"steps": [], "net": [], "pot": [], "position": []}
        for _ in range(800):
            out["pot"] += obs[first, 155].tolist()
            out["position"] += obs[first, 142:148].argmax(1).tolist()  # seats after the button
            m = info["action_mask"]
            obs, r, t, _, info = v.step((rng.random(m.shape) * m).argmax(1))
            steps += 1
            out["steps"] += steps[t].tolist()
            out["net"] += r[t].tolist()
            steps[t] = 0
            first = t
        return out

    c, py = play("c", 3), play("python", 4)
    for key in c:
        a, b = np.array(c[key]), np.array(py[key])
        z = (a.mean() - b.mean()) / np.sqrt(a.var() / a.size + b.var() / b.size)
        assert abs(z) < 4, (key, a.mean(), b.mean(), z)
