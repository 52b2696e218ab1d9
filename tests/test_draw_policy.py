"""draw/policy.py keep_cards (the rule-of-thumb drawer, memoised and searched by bit masks) held to the
rule as RULES-level code states it: the best badugi of rules/reference.py, then distinct low cards by value.
The C rule bot's keep set (csrc/bots.c bd_bot_keep) is held to the same statement when the C twin is built."""

from __future__ import annotations

import random

import pytest

from badacey_fast.cards import card_rank, parse_cards
from badacey_fast.draw.policy import keep_cards
from badacey_fast.errors import InvalidCardError
from badacey_fast.rules.games import BADUGI, LOW, PRESETS, scoring
from badacey_fast.rules.reference import best_badugi

pytestmark = pytest.mark.backend_independent  # keep_cards evaluates nothing through the kernel


def stated_keep(hand: tuple[int, ...], game: str, top: int = 8) -> tuple[int, ...]:
    """The rule of thumb written plainly (the first version of keep_cards)."""
    rules = scoring(game)

    def value(c: int) -> int:
        r = card_rank(c) + 1
        return 14 if rules.ace_high and r == 1 else r

    keep: list[int] = []
    ranks: set[int] = set()
    if BADUGI in rules.halves:
        for c in best_badugi(tuple(hand), rules.ace_high):
            if value(c) <= top + 1:
                keep.append(c)
                ranks.add(card_rank(c))
    if LOW in rules.halves:
        for c in sorted(hand, key=value):
            if card_rank(c) not in ranks and value(c) <= top:
                keep.append(c)
                ranks.add(card_rank(c))
    return tuple(c for c in hand if c in keep)


def random_hands(count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    # Low cards often (where the rule has choices to make), paired ranks and suits often too.
    pool = [c for c in range(52) if c // 4 < 9]
    return [tuple(rng.sample(pool if k % 2 else range(52), rng.randint(1, 5))) for k in range(count)]


@pytest.mark.parametrize("game", PRESETS)
def test_keep_cards_is_the_stated_rule(game):
    for k, hand in enumerate(random_hands(3000, hash(game) & 0xFFFF)):
        top = 2 + k % 12
        assert keep_cards(hand, game, top) == stated_keep(hand, game, top), (hand, top)


def test_keep_cards_checks_its_input():
    assert keep_cards(parse_cards("As 2h 3h Kd Ks"), "badacey") == parse_cards("As 2h 3h")
    assert keep_cards(list(parse_cards("As 2h 3h Kd Ks")), "badacey") == parse_cards("As 2h 3h")  # any sequence
    with pytest.raises(InvalidCardError):
        keep_cards((0, 0, 5), "badacey")
    with pytest.raises(InvalidCardError):
        keep_cards((0, 60), "badacey")
    with pytest.raises(TypeError, match="top must be an int"):
        keep_cards((0, 5), "badacey", top=8.0)  # type: ignore[arg-type]
