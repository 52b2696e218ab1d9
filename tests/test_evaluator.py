"""The public evaluator API on both twins (the ``backend`` fixture): every answer is checked against
the pure-Python reference judge, plus the seeds' own words and bad input for every public function.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import badacey_fast as bf
from badacey_fast.kernel import backend as _backend
from badacey_fast.rules import reference as R
from badacey_fast.rules.games import scoring
from badacey_fast.errors import DuplicateCardError, HandSizeError, InvalidCardError, UnknownGameError

GAMES = ("badacey", "badeucy")
# The fixture is only a context switch, so reusing it across hypothesis examples is safe.
fixture_ok = settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=200, deadline=None)
hands5 = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True).map(tuple)


def test_backend_is_the_one_serving(backend: str) -> None:
    assert bf.backend == backend
    assert _backend.name == backend


# --- agreement with the reference judge ---------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_evaluate_every_low_class(backend: str, game: str) -> None:
    ace_high = game == "badeucy"
    for i, hand in enumerate(R.low_class_hands(game)):
        value = bf.evaluate(hand, game)
        assert value == (i + 1, R.badugi_rank(hand, ace_high)), bf.format_cards(hand)
        assert bf.low_rank(hand, game) == i + 1


@pytest.mark.parametrize("ace_high", [False, True])
def test_badugi_rank_every_class(backend: str, ace_high: bool) -> None:
    for i, hand in enumerate(R.badugi_class_hands(ace_high)):
        assert bf.badugi_rank(hand, ace_high=ace_high) == i + 1, bf.format_cards(hand)


def test_random_hands_match_reference(backend: str) -> None:
    rng = random.Random(7)
    for _ in range(4000):
        hand = tuple(rng.sample(range(52), 5))
        for game in GAMES:
            ace_high = game == "badeucy"
            want = (R.low_rank(hand, game), R.badugi_rank(hand, ace_high))
            assert bf.evaluate(hand, game) == want
            assert bf.evaluate(list(hand), game) == want
        size = rng.randint(1, 5)
        for ace_high in (False, True):
            assert bf.badugi_rank(hand[:size], ace_high=ace_high) == R.badugi_rank(hand[:size], ace_high)


def test_input_forms_agree(backend: str) -> None:
    ids = (3, 6, 9, 12, 19)
    for cards in ("As 2h 3d 4c 5s", "as2h3d4c5s", "A♠ 2♥ 3♦ 4♣ 5♠", list(ids), np.array(ids), ["As", 6, "3d", 12, "5s"]):
        assert bf.evaluate(cards) == (1, 1)
        assert bf.low_rank(cards) == 1
        assert bf.badugi_rank(cards) == 1


@pytest.mark.parametrize("spelling, canonical", [
    ("Badacey", "badacey"), ("BADACY", "badacey"), ("badaci", "badacey"),
    ("Badeucy", "badeucy"), ("badeucey", "badeucy"), ("Baduci", "badeucy"), (" badeucy ", "badeucy"),
])
def test_game_spellings(backend: str, spelling: str, canonical: str) -> None:
    hand = "As 2h 3d 4c 5s"
    assert bf.evaluate(hand, spelling) == bf.evaluate(hand, canonical)
    assert bf.low_rank(hand, game=spelling) == bf.low_rank(hand, game=canonical)


def test_value_fields(backend: str) -> None:
    value = bf.evaluate("2h 4h 6h 7h Ac")
    assert value.low == R.low_rank(bf.parse_cards("2h 4h 6h 7h Ac")) and value.badugi == 1002
    assert type(value.low) is int and type(value.badugi) is int  # plain ints, not numpy scalars
    assert bf.evaluate("As 2h 3d 4c 5s", "badeucy") == (785, 1)  # A-high, 5-4-3-2 badugi: counted in test_reference


@pytest.mark.parametrize("text, ace_high, rank", [
    ("Kc", False, 1092), ("Ac", True, 1092), ("Ac", False, 1080),
    ("As 2h", False, 1002), ("As 2h 3d", False, 716), ("As 2h 3d 4c", False, 1),
    ("2c 3d 4h 5s", True, 1), ("2c 3d 4h 5s Ac", True, 1), ("Kc Kd Kh Ks", False, 1092),
])
def test_badugi_rank_one_to_five_cards(backend: str, text: str, ace_high: bool, rank: int) -> None:
    assert bf.badugi_rank(text, ace_high=ace_high) == rank


# --- the seeds' words ----------------------------------------------------------------------------


@pytest.mark.parametrize("game, hand, low, badugi", [
    ("badacey", "As 2h 3d 4c 5s", "5-4-3-2-A low", "4-3-2-A badugi"),
    ("badacey", "2c 3h 4d 5s 6c", "6-5-4-3-2 low", "5-4-3-2 badugi"),
    ("badacey", "2h 4h 6h 7h Ac", "7-6-4-2-A low", "2-card 2-A"),
    ("badacey", "Ks Qd 9c 5h 5s", "pair of fives", "K-Q-9-5 badugi"),
    ("badacey", "As 2h 3d 4c Kd", "K-4-3-2-A low", "4-3-2-A badugi"),
    ("badeucy", "As 2h 3d 4c 5s", "A-5-4-3-2 low", "5-4-3-2 badugi"),
    ("badeucy", "7c 5d 4h 3s 2c", "7-5-4-3-2 low", "5-4-3-2 badugi"),
    ("badeucy", "As 2h 3d 4c Ks", "A-K-4-3-2 low", "K-4-3-2 badugi"),
])
def test_describe_seed_words(backend: str, game: str, hand: str, low: str, badugi: str) -> None:
    assert bf.describe(hand, game) == (low, badugi)
    assert bf.describe(hand, game=game).low == low


def _describe_as_the_ranks_say(game: str, hands: list[tuple[int, ...]]) -> None:
    # describe words the cards themselves; the words of their ranks (tabulated from every value class)
    # are the judge.
    ace_high = scoring(game).ace_high
    for hand in hands:
        value = bf.evaluate(hand, game)
        want = (R.describe_low_rank(value.low, game), R.describe_badugi_rank(value.badugi, ace_high))
        assert bf.describe(hand, game) == want, bf.format_cards(hand)
        assert bf.describe(bf.format_cards(hand), game) == want


@pytest.mark.parametrize("game", ("badacey", "badeucy", "badugi", "a5", "27"))
def test_describe_says_what_the_ranks_say(backend: str, game: str) -> None:
    rng = random.Random(game)  # random hands: mostly pairs and partial badugis
    _describe_as_the_ranks_say(game, [tuple(rng.sample(range(52), 5)) for _ in range(300)])


@pytest.mark.exhaustive
@pytest.mark.parametrize("game", ("badacey", "badeucy"))
def test_describe_says_what_the_ranks_say_of_every_low_class(backend: str, game: str) -> None:
    rng = random.Random(game)
    hands = list(R.low_class_hands(game)) + [tuple(rng.sample(range(52), 5)) for _ in range(3000)]
    _describe_as_the_ranks_say(game, hands)


# --- compare -------------------------------------------------------------------------------------


def test_compare_seed_showdowns(backend: str) -> None:
    assert bf.compare("As 2h 3d 4c 5s", "2c 3h 4d 5s 6c") == (1, 1)  # Alma scoops Bruno
    assert bf.compare("2h 4h 6h 7h Ac", "Ks Qd 9c 5h 5s") == (1, -1)  # Cora low, Dmitri badugi
    assert bf.compare("As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c") == (-1, 0)  # Ann quartered by Ben
    assert bf.compare("As 2h 3d 4c 5s", "Ac 2d 3h 4s 5c") == (0, 0)  # suits never break ties
    # Badeucy: the ace is high, so the wheel loses the low; its badugi 5-4-3-2 (no ace) beats 6-4-3-2
    assert bf.compare("As 2h 3d 4c 5s", "2c 3h 4d 6s 7c", game="badeucy") == (-1, 1)


@fixture_ok
@given(hands5, hands5)
def test_compare_matches_ranks_and_is_antisymmetric(backend: str, a: tuple, b: tuple) -> None:
    for game in GAMES:
        ab, ba = bf.compare(a, b, game), bf.compare(b, a, game)
        assert ab == (-ba.low, -ba.badugi)
        va, vb = bf.evaluate(a, game), bf.evaluate(b, game)
        assert ab.low == (va.low < vb.low) - (va.low > vb.low)
        assert ab.badugi == (va.badugi < vb.badugi) - (va.badugi > vb.badugi)
        assert bf.compare(a, a, game) == (0, 0)


@fixture_ok
@given(hands5, hands5, hands5)
def test_compare_is_transitive(backend: str, a: tuple, b: tuple, c: tuple) -> None:
    for game in GAMES:
        ab, bc, ac = bf.compare(a, b, game), bf.compare(b, c, game), bf.compare(a, c, game)
        for half in (0, 1):
            if ab[half] >= 0 and bc[half] >= 0:  # a at least as good as b, b at least as good as c
                assert ac[half] >= 0
                if ab[half] > 0 or bc[half] > 0:
                    assert ac[half] > 0


# --- bad input, every public function -------------------------------------------------------------


BAD_HANDS = [
    ("As 2h 3d 4c", HandSizeError, "got 4"),
    ("As 2h 3d 4c 5s 6h", HandSizeError, "got 6"),
    ("As 2h 3d 4c 4c", DuplicateCardError, "'4c'"),
    ((3, 6, 9, 12, 12), DuplicateCardError, "'4c'"),
    ("As 2h 3d 4c 5x", InvalidCardError, "'5x'"),
    ((3, 6, 9, 12, 52), InvalidCardError, "52"),
    ((3, 6, 9, 12, -1), InvalidCardError, "-1"),
    ((3, 6, 9, 12, 2**40), InvalidCardError, str(2**40)),  # beyond a C int: no overflow, a named error
    ((3, 6, 9, 12, -(2**70)), InvalidCardError, str(-(2**70))),
]


@pytest.mark.parametrize("cards, error, named", BAD_HANDS)
def test_five_card_functions_reject_bad_hands(backend: str, cards: object, error: type, named: str) -> None:
    for fn in (bf.evaluate, bf.low_rank, bf.describe):
        with pytest.raises(error, match=named):
            fn(cards)  # type: ignore[operator]
    with pytest.raises(error, match=named):
        bf.compare(cards, "As 2h 3d 4c 5s")  # type: ignore[arg-type]
    with pytest.raises(error, match=named):
        bf.compare("As 2h 3d 4c 5s", cards)  # type: ignore[arg-type]


@pytest.mark.parametrize("cards, error, named", [
    ("", HandSizeError, "got 0"),
    ("As 2h 3d 4c 5s 6h", HandSizeError, "got 6"),
    ("As As", DuplicateCardError, "'As'"),
    ("Ax", InvalidCardError, "'Ax'"),
    ((60,), InvalidCardError, "60"),
])
def test_badugi_rank_rejects_bad_hands(backend: str, cards: object, error: type, named: str) -> None:
    with pytest.raises(error, match=named):
        bf.badugi_rank(cards)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, 5, 1.5, b"As 2h 3d 4c 5s", (3, 6, 9, 12, True), (3, 6, 9, 12, 1.0)])
def test_wrong_card_types(backend: str, bad: object) -> None:
    for fn in (bf.evaluate, bf.low_rank, bf.badugi_rank, bf.describe):
        with pytest.raises(TypeError):
            fn(bad)  # type: ignore[operator]
    with pytest.raises(TypeError):
        bf.compare(bad, "As 2h 3d 4c 5s")  # type: ignore[arg-type]


def test_unknown_game_is_named(backend: str) -> None:
    hand = "As 2h 3d 4c 5s"
    for call in (
        lambda: bf.evaluate(hand, "razz"),
        lambda: bf.low_rank(hand, game="razz"),
        lambda: bf.describe(hand, game="razz"),
        lambda: bf.compare(hand, hand, game="razz"),
    ):
        with pytest.raises(UnknownGameError, match="'razz'"):
            call()


@pytest.mark.parametrize("bad", [None, 1, True])
def test_game_wrong_type(backend: str, bad: object) -> None:
    hand = "As 2h 3d 4c 5s"
    for call in (
        lambda: bf.evaluate(hand, bad),  # type: ignore[arg-type]
        lambda: bf.low_rank(hand, game=bad),  # type: ignore[arg-type]
        lambda: bf.describe(hand, game=bad),  # type: ignore[arg-type]
        lambda: bf.compare(hand, hand, game=bad),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            call()


@pytest.mark.parametrize("bad", [1, 0, "yes", None, np.bool_(True)])
def test_badugi_ace_high_must_be_bool(backend: str, bad: object) -> None:
    with pytest.raises(TypeError, match="ace_high"):
        bf.badugi_rank("As 2h 3d 4c", ace_high=bad)  # type: ignore[arg-type]
