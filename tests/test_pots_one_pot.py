"""settle's fast path (one pot) against its general path, on random and on unusual input, in every game.

``one_pot.settle_one_pot`` serves the engine's common showdown; ``settlement.settle_general`` is the path
every other input takes.  Both must give equal :class:`Settlement` objects (every field, every pot, the
lazily built values and words), and the fast path must hand anything unusual to the general one.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from badacey_fast.errors import BadaceyError, ShowdownError
from badacey_fast.pots import settlement as sd
from badacey_fast.pots.one_pot import settle_one_pot
from badacey_fast.pots.results import UNSHOWN, Settlement
from badacey_fast.pots.settlement import settle
from badacey_fast.rules.games import scoring
from badacey_fast.rules.odd_chips import OddChip, odd_chip_policy


def _rotate(hand: list[int], k: int) -> list[int]:
    """The same ranks with every suit shifted by k: a hand that ties ``hand`` in both halves."""
    return [4 * (c // 4) + (c % 4 + k) % 4 for c in hand]


def _random_case(rng: random.Random, games: tuple[str, ...] = ("badacey", "badeucy")
                 ) -> tuple[list[int], list[Any], int, str, OddChip]:
    """A random showdown of the engine's kind in one of ``games``: one pot (live seats paid the same), ties
    made often."""
    n = rng.randint(2, 6)
    game = rng.choice(games)
    size = scoring(game).hand_size
    deck = list(range(52))
    rng.shuffle(deck)
    first = deck[:size]
    hands: list[Any] = [first] + [None] * (n - 1)
    used = set(first)
    tie_shifts = [1, 2, 3]
    rng.shuffle(tie_shifts)
    for s in range(1, n):
        if tie_shifts and rng.random() < 0.3:
            tie = _rotate(first, tie_shifts.pop())  # an exact tie with seat 0 in both halves...
            if used.isdisjoint(tie):  # ...unless a pair in seat 0's hand makes a card repeat
                hands[s] = tie
                used.update(tie)
    rest = [c for c in deck if c not in used]
    for s in range(n):
        if hands[s] is None:
            hands[s], rest = rest[:size], rest[size:]
    live = rng.sample(range(n), rng.randint(2, n))
    level = rng.randint(1, 60)
    contributions = [level if s in live else rng.randint(0, 2 * level) for s in range(n)]
    hands = [tuple(h) if s in live else None for s, h in enumerate(hands)]
    return contributions, hands, rng.randrange(n), game, rng.choice([OddChip.POSITION, OddChip.LOW])


def test_fast_and_general_paths_agree_on_random_showdowns(backend: str) -> None:
    rng = random.Random(20261129)
    ties = odd = 0
    for k in range(1500):
        contributions, hands, button, game, odd_chip = _random_case(rng)
        rules = scoring(game)
        fast = settle_one_pot(contributions, hands, button, rules, odd_chip)
        general = sd.settle_general(contributions, hands, button, rules, odd_chip)
        assert fast is not None, (contributions, hands, button, game, odd_chip)
        assert type(fast) is Settlement
        assert fast == general
        assert repr(fast) == repr(general)
        assert settle(contributions, hands, button=button, game=game, odd_chip=odd_chip) == general
        assert sum(fast.payouts) == sum(contributions)
        if k % 25 == 0:  # the lazy fields and the words (slower: the reference describes each hand)
            assert fast.values == general.values and fast.descriptions == general.descriptions
            assert fast.pots[0].shares == general.pots[0].shares
            assert fast.explain() == general.explain()
        pot = general.pots[0]
        ties += len(pot.low_winners) > 1 or len(pot.badugi_winners) > 1
        odd += pot.amount % 2
    # The sample must exercise split halves and odd chips, or the agreement above proves little.
    assert ties > 100 and odd > 300


ALMA, BRUNO, CORA = (0, 5, 10, 15, 18), (1, 6, 11, 16, 21), (24, 29, 34, 39, 40)


@pytest.mark.parametrize(
    "contributions, hands, button, game, odd_chip",
    [
        pytest.param([10, 20, 20], [ALMA, BRUNO, CORA], 0, "badacey", "position", id="side pot"),
        pytest.param([10, 10, 10], [ALMA, None, None], 0, "badacey", "position", id="one live seat"),
        pytest.param([10, 10, 10], [ALMA, UNSHOWN, None], 0, "badacey", "position", id="unshown"),
        pytest.param([10, 10], ["As 2h 3d 4c 5s", BRUNO], 0, "badacey", "position", id="text hand"),
        pytest.param([10, 10], [list(ALMA), BRUNO], 0, "badacey", "position", id="list hand"),
        pytest.param([10, 10], [tuple(np.array(ALMA)), BRUNO], 0, "badacey", "position", id="numpy ints"),
        pytest.param([np.int64(10), 10], [ALMA, BRUNO], 0, "badacey", "position", id="numpy chips"),
        pytest.param([0, 0], [ALMA, BRUNO], 1, "badeucy", "low", id="empty pot"),
        pytest.param([10, 10], [(True, 5, 10, 15, 18), BRUNO], 0, "badacey", "position", id="bool card"),
        pytest.param([10, 10], [ALMA, ALMA], 0, "badacey", "position", id="duplicate"),
        pytest.param([10, 10], [(0, 5, 10, 15, 52), BRUNO], 0, "badacey", "position", id="card 52"),
        pytest.param([10, 10], [ALMA[:4], BRUNO], 0, "badacey", "position", id="four cards"),
        pytest.param([10, -10], [ALMA, BRUNO], 0, "badacey", "position", id="negative"),
        pytest.param([10, 10, 10], [ALMA, BRUNO], 0, "badacey", "position", id="three contributions"),
        pytest.param([10, 10], [ALMA, BRUNO], 2, "badacey", "position", id="button off the table"),
        pytest.param([10, 10], [ALMA, BRUNO], True, "badacey", "position", id="bool button"),
        pytest.param([10, True], [ALMA, BRUNO], 0, "badacey", "position", id="bool chips"),
        pytest.param((10, 10), (ALMA, BRUNO), 1, "badacey", "low", id="tuples (fast)"),
    ],
)
def test_unusual_input_takes_the_general_path(backend: str, contributions: Any, hands: Any, button: Any, game: str,
                                              odd_chip: str) -> None:
    # The fast path either declines (None) or, for plain tuples, agrees; settle always equals the
    # general path, raising exactly what it raises.
    rules, policy = scoring(game), odd_chip_policy(odd_chip)
    fast = settle_one_pot(contributions, hands, button, rules, policy)
    try:
        general = sd.settle_general(contributions, hands, button, rules, policy)
    except (BadaceyError, TypeError) as exc:
        assert fast is None
        with pytest.raises(type(exc)) as raised:
            settle(contributions, hands, button=button, game=game, odd_chip=odd_chip)
        assert str(raised.value) == str(exc)
        return
    if isinstance(contributions, tuple):
        assert fast == general  # tuples are as good as lists
    else:
        assert fast is None
    assert settle(contributions, hands, button=button, game=game, odd_chip=odd_chip) == general


def test_an_unknown_odd_chip_policy_is_refused_before_either_path(backend: str) -> None:
    # settle reads the policy once, at its entry: neither path ever sees a name.
    with pytest.raises(ShowdownError, match="unknown odd_chip policy 'high'"):
        settle([10, 10], [ALMA, BRUNO], odd_chip="high")
    with pytest.raises(TypeError, match="odd_chip must be a str, not bool"):
        settle([10, 10], [ALMA, BRUNO], odd_chip=True)


def test_fast_and_general_paths_agree_in_single_pot_games(backend: str) -> None:
    # Badugi (four cards), A-5 and 2-7: the one half the game plays takes the whole pot.
    rng = random.Random(20261201)
    ties = {"badugi": 0, "a5": 0, "27": 0}
    for k in range(900):
        contributions, hands, button, game, odd_chip = _random_case(rng, tuple(ties))
        rules = scoring(game)
        fast = settle_one_pot(contributions, hands, button, rules, odd_chip)
        general = sd.settle_general(contributions, hands, button, rules, odd_chip)
        assert fast is not None and type(fast) is Settlement, (contributions, hands, button, game, odd_chip)
        assert fast == general and repr(fast) == repr(general)
        assert settle(contributions, hands, button=button, game=game, odd_chip=odd_chip) == general
        if k % 30 == 0:
            assert fast.values == general.values and fast.explain() == general.explain()
        pot = general.pots[0]
        ties[game] += len(pot.low_winners or pot.badugi_winners) > 1
    assert min(ties.values()) > 20, ties


@pytest.mark.parametrize("game", ["badugi", "a5", "27"])
def test_single_pot_games_decline_what_the_general_path_must_judge(backend: str, game: str) -> None:
    # Five cards in Badugi, four in a low game, side pots: declined, and settle still judges them.
    wrong = [ALMA, BRUNO] if game == "badugi" else [ALMA[:4], BRUNO[:4]]
    rules = scoring(game)
    assert settle_one_pot([5, 5], wrong, 0, rules, "position") is None
    hands = [ALMA[:4], BRUNO[:4], CORA[:4]] if game == "badugi" else [ALMA, BRUNO, CORA]
    assert settle_one_pot([5, 9, 9], hands, 0, rules, "position") is None
    s = settle([5, 9, 9], hands, game=game)
    assert sum(s.payouts) == 23 and len(s.pots) == 2
