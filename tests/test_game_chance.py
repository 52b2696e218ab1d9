"""Chance mode and cloning of a :class:`Game` (issue 12, item 1).

- ``copy.copy``, ``copy.deepcopy`` and pickle give independent states that play on exactly like the
  original, at every point of a hand (a clone made after ``legal_actions()`` too: fold and check are
  recognised by identity on apply's fast path, so the cached legal set is never carried across).
- ``Game(..., chance=True)``: every card dealt is a chance event; the outcomes are the stub's legal cards
  (RULES.md §4: after a reshuffle, the muck too), uniform; hands replay exactly from their history.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random

import pytest

from badacey_fast.cards import parse_cards
from badacey_fast.errors import IllegalActionError
from badacey_fast.game import Action, Game, GameConfig
from badacey_fast.game.history import history, replay

GAMES = ("badacey", "badeucy", "badugi", "a5", "27")
CLONES = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda g: pickle.loads(pickle.dumps(g)),
    "copy()": lambda g: g.copy(),
}


def random_action(g: Game, rng: random.Random) -> Action:
    if g.phase == "drawing":
        return Action("draw", cards=tuple(c for c in g.hands[g.to_act] if rng.random() < 0.5))
    return rng.choice(g.legal_actions())


@pytest.mark.backend_independent
@pytest.mark.parametrize("how", sorted(CLONES))
def test_a_clone_plays_on_like_the_original(how):
    clone = CLONES[how]
    rng = random.Random(7)
    for hand in range(60):
        n = rng.randint(2, 6)
        cfg = GameConfig(game=rng.choice(GAMES), burn=rng.random() < 0.3)
        g = Game(cfg, [rng.randint(1, 40) for _ in range(n)], button=rng.randrange(n), seed=hand)
        while not g.is_over:
            g.legal_actions()  # the cache a clone must not carry over
            h = clone(g)
            assert h.snapshot() == g.snapshot()
            a = random_action(g, rng)
            g.apply(a)
            h.apply(a)
            assert h.snapshot() == g.snapshot(), (how, hand, a)
        assert h.stacks == g.stacks and sum(g.stacks) == sum(g.starting_stacks)


@pytest.mark.backend_independent
def test_a_clone_is_independent():
    g = Game(stacks=[20, 20, 20], seed=3)
    for clone in CLONES.values():
        h = clone(g)
        h.apply("fold")
        assert g.log == [] and not g.folded[g.to_act] and h.log


@pytest.mark.backend_independent
def test_fold_and_check_after_deepcopy_of_the_legal_set():
    g = Game(stacks=[20, 20], seed=1)
    legal = copy.deepcopy(g.legal_actions())
    h = copy.deepcopy(g)
    h.apply(legal[0])  # a fold equal to, not identical with, the offered one
    assert h.is_over and h.folded == [True, False] and h.winnings == [-1, 1]
    g = Game(stacks=[20, 20], seed=1).apply("call")
    h = pickle.loads(pickle.dumps(g))
    h.apply(copy.deepcopy(h.legal_actions()[0]))  # check
    assert h.phase == "drawing" and h.stacks == [18, 18]


def play_chance(g: Game, rng: random.Random) -> Game:
    while not g.is_over:
        if g.is_chance:
            outcomes = g.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert g.legal_actions() == () and g.to_act == -1
            g.apply_chance(rng.choice(outcomes)[0])
        else:
            g.apply(random_action(g, rng))
    return g


@pytest.mark.backend_independent
def test_chance_mode_plays_replays_and_conserves_chips():
    rng = random.Random(11)
    reshuffled = 0
    for hand in range(150):
        n = rng.randint(2, 6)
        cfg = GameConfig(game=rng.choice(GAMES), burn=rng.random() < 0.3, ante=rng.choice([0, 1]))
        g = Game(cfg, [rng.randint(1, 50) for _ in range(n)], button=rng.randrange(n), chance=True)
        play_chance(g, rng)
        assert sum(g.stacks) == sum(g.starting_stacks)
        reshuffled += bool(g.reshuffles)
        r = replay(history(g))
        assert r.stacks == g.stacks and r.dealt == g.dealt and r.log == g.log and r.hands == g.hands
    assert reshuffled  # the reshuffle's chance events were reached


@pytest.mark.backend_independent
def test_chance_outcomes_are_the_stub_and_after_a_reshuffle_the_muck():
    # Six seats of Badacey take 30 cards; everyone draws five twice: the stub runs out in the second draw.
    g = Game(stacks=[100] * 6, chance=True)
    deck = iter(range(52))
    seen = set()
    while g.street < 3 and not g.is_over:
        if g.is_chance:
            outs = [c for c, _ in g.chance_outcomes()]
            left, muck = set(g.stub), set(g.muck)  # the stub before this step; its chosen cards replayed:
            for c in g.chance_cards + [None]:
                if len(left) <= 1:
                    left |= muck
                    muck = set()
                left.discard(c)
            assert set(outs) == left
            c = next((c for c in deck if c in outs), None) if g.street == 0 else min(outs)
            g.apply_chance(c if c is not None else min(outs))
            seen.add(len(g.reshuffles))
        elif g.phase == "drawing":
            g.apply(Action("draw", cards=tuple(g.hands[g.to_act])))
        else:
            g.apply("check" if g.to_call() == 0 else "call")
    assert max(seen) >= 1


@pytest.mark.backend_independent
def test_every_outcome_of_a_tiny_situation():
    # Heads-up Badugi, both all-in preflop (stacks of one big blind): deal 8 cards, then the draws.
    # Enumerate every card of the first replacement of a one-card draw: each deals that card, and the
    # state after it equals a seeded/scripted game dealing the same cards.
    g = Game("badugi", stacks=[2, 2], chance=True)
    for c in parse_cards("As 2s 3s 4s Ah 2h 3h 4h"):
        g.apply_chance(c)
    g.apply("call")
    assert g.phase == "drawing"
    g.apply(Action("draw", cards=(g.hands[g.to_act][0],)))
    assert g.is_chance
    outs = [c for c, _ in g.chance_outcomes()]
    assert len(outs) == 44
    finals = set()
    for c in outs:
        h = copy.deepcopy(g).apply_chance(c)
        assert c in h.hands[0] + h.hands[1] and h.dealt[-1] == c and not h.is_chance
        scripted = Game("badugi", stacks=[2, 2], _script=h.dealt)
        for seat, a in h.log:
            scripted.apply(a, seat)
        assert scripted.hands == h.hands and scripted.dealt == h.dealt and scripted.to_act == h.to_act
        finals.add(tuple(h.hands[0] + h.hands[1]))
    assert len(finals) == 44


@pytest.mark.backend_independent
def test_chance_refusals_change_nothing():
    g = Game(stacks=[10, 10], chance=True)
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match="a card is owed"):
        g.apply("call")
    with pytest.raises(IllegalActionError, match="cannot be dealt now"):
        g.apply_chance(99)
    g.apply_chance("As")
    with pytest.raises(IllegalActionError, match="cannot be dealt now"):
        g.apply_chance("As")
    assert g.chance_cards == list(parse_cards("As")) and g.dealt == [] and before != g.snapshot()
    for c in (0, 1, 2, 4, 5, 6, 7, 8, 9):
        g.apply_chance(c)
    with pytest.raises(IllegalActionError, match="no card is owed"):
        g.apply_chance(20)
    with pytest.raises(TypeError):
        Game(stacks=[10, 10], chance=True, deck=list(range(52)))


@pytest.mark.backend_independent
def test_a_burn_card_is_a_chance_event_of_the_action_ending_the_round():
    g = Game(GameConfig(burn=True), stacks=[10, 10], chance=True)
    for c in range(10):
        g.apply_chance(c)
    g.apply("call").apply("check")
    assert g.is_chance and g.log[-1][1].kind == "call" and len(g.log) == 1  # the check waits for the burn
    g.apply_chance(30)
    assert g.phase == "drawing" and g.burned == [30] and [a.kind for _, a in g.log] == ["call", "check"]


@pytest.mark.backend_independent
def test_copy_sets_every_slot_and_shares_no_list():
    # Game.copy is written out slot by slot: a slot it forgets is unset on the copy (getattr raises),
    # a list it forgets to copy is shared.  A state owing a card is frozen and shares its lists.
    rng = random.Random(5)
    for chance in (False, True):
        for hand in range(20):
            cfg = GameConfig(game=rng.choice(GAMES), burn=hand % 2 == 0)
            n = rng.randint(2, 6)
            g = Game(cfg, [rng.randint(1, 30) for _ in range(n)], chance=chance,
                     **({} if chance else {"seed": hand}))
            while True:
                h = g.copy()
                for name in Game.__slots__:
                    value = getattr(h, name)
                    if isinstance(value, list) and not g.is_chance:
                        assert value is not getattr(g, name), name
                        assert all(v is not w for v, w in zip(value, getattr(g, name)) if isinstance(v, list))
                assert h.snapshot() == g.snapshot()
                if g.is_over:
                    break
                if g.is_chance:
                    g.apply_chance(rng.choice(g.chance_outcomes())[0])
                else:
                    g.apply(random_action(g, rng))


@pytest.mark.backend_independent
def test_chance_mode_takes_no_random_source():
    with pytest.raises(TypeError, match="no seed or rng"):
        Game(stacks=[10, 10], chance=True, seed=1)
    with pytest.raises(TypeError, match="no seed or rng"):
        Game(stacks=[10, 10], chance=True, rng=random.Random(1))


@pytest.mark.backend_independent
def test_chance_child_is_a_copy_dealt_that_card_and_leaves_the_parent_unchanged():
    # Every chance node of random hands (burns and reshuffles included): chance_child(c) equals
    # copy().apply_chance(c) in every slot, the parent stays as it was, and refusals change nothing.
    rng = random.Random(12)
    checked = completed = 0
    for hand in range(40):
        n = rng.randint(2, 6)
        cfg = GameConfig(game=rng.choice(GAMES), burn=rng.random() < 0.3)
        g = Game(cfg, [rng.randint(1, 30) for _ in range(n)], button=rng.randrange(n), chance=True)
        while not g.is_over:
            if not g.is_chance:
                g.apply(random_action(g, rng))
                continue
            before = g.snapshot()
            c = rng.choice(g.chance_outcomes())[0]
            child = g.chance_child(c)
            assert g.snapshot() == before and child is not g
            assert child.snapshot() == g.copy().apply_chance(c).snapshot()
            with pytest.raises(IllegalActionError, match="cannot be dealt now"):
                g.chance_child(99)
            assert g.snapshot() == before
            checked += 1
            completed += not child.is_chance
            g = child
    assert checked > 500 and completed > 100
