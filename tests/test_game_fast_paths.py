"""The engine's speed paths give the same hands as the plain ones (issue 5's throughput work).

- ``direct_calls`` (bots bound once, as simulations call them) makes the same decisions as calling the
  bots themselves, so a simulation's hands do not depend on how the bots are called;
- every showdown the engine settles through ``settle``'s one-pot fast path equals the general path's
  settlement of the same contributions and hands (side pots from all-ins included, which take the
  general path).
"""

from __future__ import annotations

import random

import pytest

from badacey_fast.game import Game, GameConfig
from badacey_fast.errors import ConfigError
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.game.simulate import direct_calls, play_hand
from badacey_fast.pots.settlement import Settlement, scoring

from badacey_fast.pots import settlement as sd


def _bots(n: int, k: int) -> list:
    return [RandomBot(seed=k * 10 + i) if (k + i) % 3 else RuleBot(seed=k + i) for i in range(n)]


def _record(g: Game) -> tuple:
    return g.log, g.payouts, g.stacks, g.dealt


def test_direct_calls_play_the_same_hands_as_the_bots():
    plain, direct = [], []
    for k in range(300):
        n = 2 + k % 5
        stacks = [200] * n
        g = play_hand(Game(GameConfig(), stacks, button=k % n, seed=k), _bots(n, k))
        plain.append(_record(g))
        g = play_hand(Game(GameConfig(), stacks, button=k % n, seed=k), direct_calls(_bots(n, k)))
        direct.append(_record(g))
    assert plain == direct
    assert len({p[1].count(0) for p in plain}) > 1  # not one repeated outcome


def test_engine_showdowns_equal_the_general_settlement(backend):
    rng = random.Random(7)
    configs = [GameConfig(), GameConfig(game="badeucy"), GameConfig(odd_chip="low")]
    showdowns = side_pots = 0
    for k in range(1500):
        cfg = configs[k % len(configs)]
        n = rng.randint(2, 6)
        stacks = [rng.choice([5, 9, 30, 200]) for _ in range(n)]  # short stacks: all-ins and side pots
        g = play_hand(Game(cfg, stacks, button=k % n, seed=k), _bots(n, k))
        if g.settlement is None:
            continue
        s = g.settlement
        general = sd.settle_general(list(s.contributions), list(s.hands), s.button, cfg.scoring,
                                     cfg.odd_chip)
        assert type(s) is Settlement and s == general
        assert g.payouts == general.payouts
        showdowns += 1
        side_pots += len(s.pots) > 1
    assert showdowns > 500 and side_pots > 100  # both the fast path and the side-pot path were played


@pytest.mark.backend_independent
@pytest.mark.parametrize("given", [False, True])
def test_next_hand_deals_what_a_new_game_deals(given):
    # next_hand skips the checks of Game(...) and shares the random source: from the same source state it
    # must deal and play the very hand Game(config, starting stacks, button, rng=...) deals, every slot set;
    # a deck game's next hand from a given deck (checked, or trusted) is Game(..., rng=..., deck=...)'s.
    rng = random.Random(11)
    for k in range(400 if not given else 200):
        cfg = GameConfig(game=rng.choice(["badacey", "badeucy", "badugi", "a5", "27"]), burn=k % 4 == 0)
        n = rng.randint(2, 6)
        stacks = [rng.choice([3, 8, 40, 200]) for _ in range(n)]
        decks = [rng.sample(range(52), 52) if given else None for _ in range(2)]
        first = Game(cfg, stacks, button=k % n, seed=k, deck=decks[0])
        play_hand(first, _bots(n, k))
        state = first._rng.getstate()
        button = (k + 1) % n
        if given and k % 2:
            nxt = first.next_hand(button, _shuffled=decks[1][:])
        else:
            nxt = first.next_hand(button, deck=decks[1])
        other = random.Random()
        other.setstate(state)
        plain = Game(cfg, stacks, button=button, rng=other, deck=decks[1])
        assert nxt.config is cfg and nxt.starting_stacks == tuple(stacks) and nxt.button == button
        for name in Game.__slots__:
            if name not in ("_rng", "_rnd", "_stub", "seed"):
                assert getattr(nxt, name) == getattr(plain, name), name
        assert nxt._stub.state() == plain._stub.state() and nxt.snapshot() == plain.snapshot()
        assert _record(play_hand(nxt, _bots(n, k))) == _record(play_hand(plain, _bots(n, k)))
        assert first.log and first.is_over  # the finished hand is left as it was


@pytest.mark.backend_independent
def test_next_hand_refuses_what_it_cannot_deal():
    g = Game(stacks=[20, 20, 20], seed=1)
    with pytest.raises(TypeError, match="button must be an int, not str"):
        g.next_hand("1")
    with pytest.raises(ConfigError, match="button 3 is not a seat 0..2"):
        g.next_hand(3)
    # Each kind of hand that cannot be followed so is named with its reason, asked at random or with a deck.
    deck_hand, chance = Game(stacks=[20, 20], deck=list(range(52))), Game(stacks=[20, 20], chance=True)
    posts, replay = Game(stacks=[20, 20, 20], seed=2, posts=[0]), Game(stacks=[20, 20], _script=[1, 2, 3])
    posts_from_deck = Game(stacks=[20, 20, 20], deck=list(range(52)), seed=2, posts=[0])
    refused = [(deck_hand, False, "it was dealt from a deck, so the next one is too: give its deck"),
               (g, True, "it was dealt at random, so the next one is too: give no deck"),
               (posts, False, "it has extra posts, which have no next hand"),
               (posts_from_deck, True, "it has extra posts, which have no next hand")]
    for given in (False, True):
        refused += [(chance, given, "it is a chance-mode hand, which has no next hand"),
                    (replay, given, "it is a scripted replay, which has no next hand")]
    for other, given, reason in refused:
        with pytest.raises(ConfigError, match=f"^next_hand deals as this hand was dealt, and {reason}$"):
            other.next_hand(0, deck=list(range(52)) if given else None)
    with pytest.raises(ValueError, match="52"):
        Game(stacks=[20, 20], deck=list(range(52))).next_hand(0, deck=list(range(51)))
    # A given deck that reshuffled (its stub now deals at random) is still a deck game: no random next hand.
    deep = Game("badacey", stacks=[200] * 6, deck=list(range(52)), seed=1)
    while deep.phase != "complete":  # six seats calling and drawing five cards each: the stub runs out
        legal = deep.legal_actions()
        deep.apply(legal[0] if legal[0].kind == "draw" else next(a for a in legal if a.kind in ("check", "call")))
    assert deep.reshuffles and not deep._stub._ordered
    with pytest.raises(ValueError, match="it was dealt from a deck, so the next one is too: give its deck"):
        deep.next_hand(1)
