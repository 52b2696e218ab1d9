"""Cross-check against an independent published implementation: pokerkit.

pokerkit's hand classes and our scales:

==========================  ====================================  ==============================
our scale                   pokerkit class                        what it is in pokerkit
==========================  ====================================  ==============================
A-5 low (Badacey)           ``RegularLowHand``                    ace low, straights/flushes ignored
2-7 low (Badeucy)           ``StandardLowHand``                   ace high, straights do not wrap
ace-low badugi              ``BadugiHand``                        "badugi hands (ace-to-five)"
ace-high badugi             ``StandardBadugiHand``                "badugi hands (deuce-to-seven)"
==========================  ====================================  ==============================

In pokerkit a *stronger* hand compares *greater*; our ranks are lower-is-better.  Each check sorts a
shuffled list of hands with pokerkit's own comparison (strongest first) and then demands that our ranks
rise along that order, equal exactly where pokerkit says the hands are equal.  pokerkit is a required
test dependency (the ``test`` extra): it is imported plainly so that a missing install is an error.
"""

from __future__ import annotations

import random
import warnings
from functools import lru_cache

import pytest
from pokerkit import Automation, BadugiHand, HandHistory, RegularLowHand, StandardBadugiHand, StandardLowHand

import badacey_fast as bf
from badacey_fast.rules import reference as R
from badacey_fast.cards import format_cards
from badacey_fast.game import Game, GameConfig
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.game.phh import to_phh, to_phhs
from badacey_fast.game.simulate import play_hand

SAMPLE = 5_000  # random five-card hands per scale (pokerkit's sort of them is most of this file's time)
SOAK = 20_000  # the exhaustive run's sample per scale
SAMPLE4 = 5_000  # random four-card Badugi hands per badugi scale
SEED = 20261129

LOW_GAMES = {"a5": "badacey", "27": "badeucy"}
LOW_HANDS = {"a5": RegularLowHand, "27": StandardLowHand}
BADUGI_ACE_HIGH = {"badugi_low": False, "badugi_high": True}
BADUGI_HANDS = {"badugi_low": BadugiHand, "badugi_high": StandardBadugiHand}


def pk_text(cards: tuple[int, ...]) -> str:
    """pokerkit's card string ("As2h3d4c5s") built from our canonical text."""
    return format_cards(cards).replace(" ", "")


def pk_hand(scale: str, cards: tuple[int, ...]):
    if scale in LOW_HANDS:
        return LOW_HANDS[scale](pk_text(cards))
    # from_game picks the best badugi among the subsets of 1..4 cards, as RULES.md §2.2 does
    return BADUGI_HANDS[scale].from_game(pk_text(cards))


def our_rank(scale: str, cards: tuple[int, ...]) -> int:
    if scale in LOW_GAMES:
        return R.low_rank(cards, LOW_GAMES[scale])
    return R.badugi_rank(cards, BADUGI_ACE_HIGH[scale])


def class_hands(scale: str) -> tuple[tuple[int, ...], ...]:
    if scale in LOW_GAMES:
        return R.low_class_hands(LOW_GAMES[scale])
    return R.badugi_class_hands(BADUGI_ACE_HIGH[scale])


@lru_cache(maxsize=None)
def pokerkit_order(scale: str, which: str) -> tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]]:
    """Hands sorted by pokerkit, strongest first, and for each adjacent pair whether pokerkit ties them.

    ``which`` is "classes" (one hand per value class), "sample" or "soak" (seeded random hands).
    """
    rng = random.Random(f"{SEED}-{scale}-{which}")
    if which == "classes":
        hands = list(class_hands(scale))
    elif which in ("sample", "soak"):
        hands = [tuple(rng.sample(range(52), 5)) for _ in range(SAMPLE if which == "sample" else SOAK)]
    else:  # four-card Badugi hands
        hands = [tuple(rng.sample(range(52), 4)) for _ in range(SAMPLE4)]
    rng.shuffle(hands)  # so no order we produced can leak into pokerkit's sort
    keyed = sorted(((pk_hand(scale, h), h) for h in hands), key=lambda t: t[0], reverse=True)
    ties = tuple(a[0] == b[0] for a, b in zip(keyed, keyed[1:]))
    return tuple(h for _, h in keyed), ties


def assert_same_order(order: tuple[tuple[int, ...], ...], ties: tuple[bool, ...], ranks: list[int]) -> None:
    """Our ranks must rise along pokerkit's strongest-first order, equal exactly at pokerkit's ties."""
    for i, tie in enumerate(ties):
        a, b, ra, rb = order[i], order[i + 1], ranks[i], ranks[i + 1]
        detail = f"{format_cards(a)} (rank {ra}) vs {format_cards(b)} (rank {rb})"
        if tie:
            assert ra == rb, f"pokerkit ties, we do not: {detail}"
        else:
            assert ra < rb, f"pokerkit says the first is stronger, we do not: {detail}"


SCALES = ["a5", "27", "badugi_low", "badugi_high"]
COUNTS = {"a5": 6175, "27": 7462, "badugi_low": 1092, "badugi_high": 1092}


@pytest.mark.backend_independent  # our side is the reference itself, whatever the twin
@pytest.mark.parametrize("scale", SCALES)
def test_every_value_class_agrees(scale: str) -> None:
    order, ties = pokerkit_order(scale, "classes")
    ranks = [our_rank(scale, h) for h in order]
    assert_same_order(order, ties, ranks)
    # pokerkit separates every one of our classes, so both sides count the same number of values
    assert not any(ties)
    assert ranks == list(range(1, COUNTS[scale] + 1))


@pytest.mark.backend_independent  # our side is the reference itself, whatever the twin
@pytest.mark.parametrize("scale", SCALES)
def test_random_sample_agrees(scale: str) -> None:
    order, ties = pokerkit_order(scale, "sample")
    assert any(ties)  # a sample this size has ties (suits never break them): the tie check is exercised
    assert_same_order(order, ties, [our_rank(scale, h) for h in order])


@pytest.mark.exhaustive
@pytest.mark.backend_independent  # our side is the reference itself, whatever the twin
@pytest.mark.parametrize("scale", SCALES)
def test_soak_sample_agrees(scale: str) -> None:
    order, ties = pokerkit_order(scale, "soak")
    assert_same_order(order, ties, [our_rank(scale, h) for h in order])


@pytest.mark.backend_independent  # our side is the reference itself, whatever the twin
@pytest.mark.parametrize("scale", ["badugi_low", "badugi_high"])
def test_random_four_card_badugi_agrees(scale: str) -> None:
    order, ties = pokerkit_order(scale, "four")
    assert_same_order(order, ties, [our_rank(scale, h) for h in order])


@pytest.mark.parametrize("scale", SCALES)
def test_public_api_agrees_on_sample(backend: str, scale: str) -> None:
    """The public evaluator (each twin) against pokerkit's order, reusing the sorted sample."""
    order, ties = pokerkit_order(scale, "sample")
    if scale in LOW_GAMES:
        ranks = [bf.low_rank(h, game=LOW_GAMES[scale]) for h in order]
    else:
        ranks = [bf.badugi_rank(h, ace_high=BADUGI_ACE_HIGH[scale]) for h in order]
    assert_same_order(order, ties, ranks)


def test_pokerkit_classes_are_what_we_think() -> None:
    """Guard the mapping above with hands whose order differs between the scales."""
    # the wheel is the nuts and a flush does not count; 2-7: the wheel is ace-high, a flush counts
    assert RegularLowHand("Ac2c3c4c5c") > RegularLowHand("Ac2d3h4s6c")
    assert StandardLowHand("7c5d4h3s2c") > StandardLowHand("Ac2d3h4s5c") > StandardLowHand("2c2d3h4s5c")
    assert StandardLowHand("7c5d4h3s2c") > StandardLowHand("7c5c4c3c2c")
    # ace-low badugi prefers the ace; ace-high badugi avoids it
    assert BadugiHand("Ac2d3h4s") > BadugiHand("2c3d4h5s")
    assert StandardBadugiHand("2c3d4h5s") > StandardBadugiHand("Ac2d3h4s")
    # highest card first (seed 004), not seed 003's lowest card first
    assert BadugiHand("2s4c5d6h") > BadugiHand("As2c3d7h")


# --------------------------------------------------------------------------------------------------
# pokerkit loading our PHH hand histories and reaching the same chips where its rules coincide with ours
# (Badugi and 2-7 triple draw, deep stacks so no all-in for less, and no reshuffle reached).


def _pokerkit_stacks(text: str) -> list[int]:
    automations = HandHistory.__dataclass_fields__["automations"].default + (
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a card pokerkit thinks is not in its deck would be a mismatch
        state = None
        for state in HandHistory.loads(text, automations=automations):
            pass
    return list(state.stacks)


@pytest.mark.parametrize("game", ["badugi", "27"])
def test_pokerkit_replays_our_phh_to_the_same_chips(backend, game):
    rng = random.Random(5)
    compared = showdowns = 0
    for _ in range(150):
        g = random_hand(rng, game=game, deep=True)
        if g.reshuffles:
            continue  # pokerkit reshuffles the served player's own discards too: rules differ
        order = [(g.button + 1 + k) % g.n for k in range(g.n)]
        assert _pokerkit_stacks(to_phh(g)) == [g.stacks[s] for s in order]
        compared += 1
        showdowns += g.showdown
    assert compared > 100 and showdowns > 20


def test_pokerkit_reads_our_hand_sets_and_replays_every_hand_to_the_same_chips(backend):
    # A .phhs file (badacey simulate --save): pokerkit's loads_all gives one hand history a table.
    rng = random.Random(6)
    games = [g for g in (random_hand(rng, game=rng.choice(["badugi", "27"])) for _ in range(40)) if not g.reshuffles]
    automations = HandHistory.__dataclass_fields__["automations"].default + (
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,)
    hands = list(HandHistory.loads_all(to_phhs(games), automations=automations))
    assert len(hands) == len(games) > 30
    assert [h.variant for h in hands] == ["FB" if g.config.game == "badugi" else "F2L3D" for g in games]
    for h, g in zip(hands, games):
        state = None
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for state in h:
                pass
        assert list(state.stacks) == [g.stacks[(g.button + 1 + k) % g.n] for k in range(g.n)]


def random_hand(rng: random.Random, game: str, deep: bool = True) -> Game:
    """One deep-stacked hand of ``game`` played by a mix of the library's bots (as test_game_history's)."""
    n = rng.randint(2, 6)
    bots = [RuleBot(seed=rng.randrange(99)) if rng.random() < 0.3 else RandomBot(seed=rng.randrange(99))
            for _ in range(n)]
    return play_hand(Game(GameConfig(game=game, cap=4), [200] * n, button=rng.randrange(n),
                          seed=rng.randrange(10**6)), bots)
