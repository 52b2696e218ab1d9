"""Invariants over many random seeded hands: chips conserved, every card accounted for, no card dealt
twice outside a reshuffle, legal-action sets consistent, illegal actions rejected with the state
unchanged, and every history replays to the same final state.

The 100,000-hand run uses a lean check per hand (the final chips and cards); a smaller run audits every
state, tries every legal action on a copy and a handful of illegal ones on the original.
"""

from __future__ import annotations

import random

import pytest

from badacey_fast.errors import IllegalActionError
from badacey_fast.game import Action, Game, GameConfig, draw
from badacey_fast.game.audit import audit
from badacey_fast.game.bots import RandomBot
from badacey_fast.game.history import from_json, replay, to_json
from badacey_fast.game.simulate import play_hand, shuffled_decks

GAMES = ("badacey", "badeucy", "badugi", "a5", "27")


def random_config(rng: random.Random) -> GameConfig:
    if rng.random() < 0.15:
        blinds = {"small_blind": 0, "big_blind": 0, "ante": rng.choice([1, 2])}
    else:
        blinds = {"ante": rng.choice([0, 0, 0, 1])}
    return GameConfig(
        game=rng.choice(GAMES),
        small_bet=rng.choice([2, 4]),
        big_bet=rng.choice([4, 8]),
        cap=rng.choice([4, 4, 3, 5, None]),
        heads_up_uncapped=rng.random() < 0.3,
        burn=rng.random() < 0.3,
        odd_chip=rng.choice(["position", "low"]),
        **blinds,
    )


def random_stacks(rng: random.Random) -> list[int]:
    # Short stacks often, so that all-ins for less, short blinds and side pots are common.
    return [rng.choice([1, 2, 3, 5, 9, 14, 30, 200]) for _ in range(rng.randint(2, 6))]


@pytest.mark.exhaustive  # soak-sized: test_fully_checked_random_hands is its quick form
def test_100k_random_hands_lean_invariants():
    rng = random.Random(20261129)
    configs = [random_config(rng) for _ in range(64)]
    bots = [RandomBot(seed=s) for s in range(6)]
    full = list(range(52))
    decks = shuffled_decks(7)
    reshuffled = showdowns = 0
    for h in range(100_000):
        stacks = random_stacks(rng) if h % 4 else [200] * 6
        # Half the hands deal lazily from the RNG, half from decks shuffled in bulk (as simulate does).
        deck = next(decks) if h % 2 else None
        g = Game(configs[h % 64], stacks, button=h % len(stacks), rng=rng, _shuffled=deck)
        play_hand(g, bots)
        assert sum(g.stacks) == sum(g.starting_stacks)
        assert sum(g.payouts) == sum(g.contrib)
        cards = g.stub + g.muck
        for j in range(g.n):
            if not g.folded[j]:
                cards += g.hands[j]
        assert sorted(cards) == full
        reshuffled += bool(g.reshuffles)
        showdowns += g.nlive > 1
    # The run must actually reach the rare paths it is meant to check.
    assert reshuffled > 1000 and showdowns > 10_000


def _illegal_candidates(g: Game, rng: random.Random) -> list[Action]:
    out = [Action(k) for k in ("fold", "check", "call", "bet", "raise")]
    out += [Action("raise", rng.randint(0, 40)), Action("bet", rng.randint(0, 40)), Action("call", 999)]
    held = set(g.hands[g.to_act]) if g.to_act >= 0 else set()
    not_held = [c for c in range(52) if c not in held]
    out += [draw([rng.choice(not_held)]), Action("draw", None, (60,))]
    return out


@pytest.mark.parametrize("seed", range(2))
def test_fully_checked_random_hands(backend, seed):
    rng = random.Random(seed)
    bot = RandomBot(seed=seed)
    for h in range(200):
        stacks = random_stacks(rng)
        g = Game(random_config(rng), stacks, button=rng.randrange(len(stacks)), seed=rng.randrange(10**9))
        while True:
            audit(g)
            legal = g.legal_actions()
            if g.is_over:
                break
            # Every legal action is accepted (on a copy) and the copy stays sound.
            for a in legal:
                c = g.copy()
                c.apply(a if a.kind != "draw" else draw(a.cards[: rng.randint(0, len(a.cards))]))
                audit(c)
            # Anything not offered is refused, naming a rule, and changes nothing.
            before = g.snapshot()
            for a in _illegal_candidates(g, rng):
                if a in legal or a.kind == "draw" and g.phase == "drawing" and all(
                    x in g.hands[g.to_act] for x in a.cards if 0 <= x < 52) and 60 not in a.cards:
                    continue
                if a.amount is None and any(x.kind == a.kind for x in legal):
                    continue  # a bare kind is shorthand for the legal amount
                with pytest.raises(IllegalActionError):
                    g.apply(a)
                assert g.snapshot() == before
            with pytest.raises(IllegalActionError, match="out of turn"):
                g.apply(legal[0], seat=(g.to_act + 1) % g.n)
            assert g.snapshot() == before
            g.apply(bot(g.view(g.to_act)))
        again = replay(from_json(to_json(g)))
        assert again.stacks == g.stacks and again.hands == g.hands and again.payouts == g.payouts
        assert again.log == g.log and again.dealt == g.dealt


def test_same_seed_same_actions_same_hand():
    for seed in range(50):
        a = play_hand(Game(stacks=[40] * 6, seed=seed), [RandomBot(seed=seed)] * 6)
        b = play_hand(Game(stacks=[40] * 6, seed=seed), [RandomBot(seed=seed)] * 6)
        assert a.snapshot() == b.snapshot()


def test_no_raise_is_ever_legal_that_no_other_live_seat_could_call():
    # RULES.md §4 over random short-stack hands: whenever every other live seat is all-in or would be
    # all-in calling the current bet, neither bet nor raise is offered, and one forced in is refused
    # naming the rule with the state unchanged; whenever a raise is offered, someone could call it.
    rng = random.Random(10)
    bot = RandomBot(seed=10)
    blocked = offered = 0
    for _ in range(2500):
        n = rng.randint(2, 6)
        stacks = [rng.randint(1, 14) for _ in range(n)]
        g = Game(stacks=stacks, button=rng.randrange(n), seed=rng.randrange(10**9))
        while not g.is_over:
            if g.phase == "betting":
                i = g.to_act
                callable_ = any(g.stacks[j] > g.level - g.sbet[j] for j in range(n) if j != i and not g.folded[j])
                raises = [a for a in g.legal_actions() if a.kind in ("bet", "raise")]
                if raises:
                    offered += 1
                    assert callable_, (g.log, g.stacks, g.sbet)
                elif not callable_ and g.stacks[i] > g.level - g.sbet[i]:
                    blocked += 1
                    before = g.snapshot()
                    why = "no other live seat could call it|every other live seat is all-in"
                    with pytest.raises(IllegalActionError, match=why):
                        g.apply(Action("raise" if g.level else "bet"))
                    assert g.snapshot() == before
            g.apply(bot(g.view(g.to_act)))
    assert blocked > 50 and offered > 1000  # both sides of the rule were exercised
