"""The single-hand call in C (``badacey_fast._speedups``, csrc/cpython/speedups.c) against the reference.

The call must answer exactly what the general path answers for every hand it takes, and hand back
(``None``) everything else, so the general path can word the error.  A missing extension is a test
error, never a skip.
"""

from __future__ import annotations

import gc
import random
import threading
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import badacey_fast as bf
from badacey_fast.kernel import backend as _backend
from badacey_fast.kernel import _c as _c
from badacey_fast.rules import reference as reference
from badacey_fast._speedups import HandEvaluator
from badacey_fast.rules.games import GAMES
from badacey_fast.rules.value import VALUES, Value, from_entry


@pytest.fixture(params=[False, True], ids=["badacey", "badeucy"])
def single(request: pytest.FixtureRequest):
    """The C twin's single-hand call for one game (its table loaded)."""
    _backend.kernel().table(request.param)
    call = _c.SINGLE[request.param]
    assert isinstance(call, HandEvaluator)
    return request.param, call


def _game(ace_high: bool) -> str:
    return GAMES[1] if ace_high else GAMES[0]


def test_random_hands_match_reference(single) -> None:
    ace_high, call = single
    game = _game(ace_high)
    rng = random.Random(11)
    for _ in range(3000):
        hand = rng.sample(range(52), 5)
        want = (reference.low_rank(hand, game), reference.badugi_rank(hand, ace_high))
        assert call(tuple(hand)) == want
        assert call(hand) == want  # a list of five ints is taken too
        assert type(call(hand)) is Value


def test_the_nuts(single) -> None:
    ace_high, call = single
    # A-5 low's wheel and 2-7 low's 7-5-4-3-2, both with a four-suit 5-4-3-2 (or A-2-3-4) badugi inside.
    nuts = bf.parse_cards("7c 5d 4h 3s 2c" if ace_high else "As 2h 3d 4c 5s")
    assert call(nuts) == Value(low=1, badugi=1)
    flush = bf.parse_cards("Kc Qc Jc Tc 9c")  # one suit: a one-card badugi, the nine
    nine = reference.badugi_rank(bf.parse_cards("9c"), ace_high)
    assert call(flush) == (reference.low_rank(flush, _game(ace_high)), nine)


def test_values_are_cached_by_entry(single) -> None:
    ace_high, call = single
    hand = (3, 6, 9, 12, 19)
    first = call(hand)
    assert call(list(reversed(hand))) is first  # one Value per (low, badugi) pair
    assert VALUES[first.low | first.badugi << 16] is first


@pytest.mark.parametrize("cards", [
    (3, 6, 9, 12, True),              # bool is an int subclass, not a card id
    (3, 6, 9, 12, Fraction(19)),      # cffi would take these through __int__
    (3, 6, 9, 12, Decimal(19)),
    (3, 6, 9, 12, np.int64(19)),      # numpy ints: taken by the general path instead
    (3, 6, 9, 12, 19.0),
    (3, 6, 9, 12, "6d"),
    (3, 6, 9, 12, 52), (3, 6, 9, 12, -1), (3, 6, 9, 12, 2**32 + 19), (3, 6, 9, 12, -(2**70)),
    (3, 6, 9, 12, 12),                # a repeated card
    (3, 6, 9, 12), (3, 6, 9, 12, 19, 22), (), "As 2h 3d 4c 5s", None, 5,
    iter((3, 6, 9, 12, 19)), {3, 6, 9, 12, 19}, np.array([3, 6, 9, 12, 19]),
])
def test_everything_else_is_handed_back(single, cards: object) -> None:
    _, call = single
    assert call(cards) is None


def test_subclasses_of_tuple_are_handed_back(single) -> None:
    class Hand(tuple):
        def __getitem__(self, i):  # a subclass may lie about its items: not read in place
            return 0

    _, call = single
    assert call(Hand((3, 6, 9, 12, 19))) is None


@pytest.mark.parametrize("cards, error", [
    ((3, 6, 9, 12, True), TypeError),
    ((3, 6, 9, 12, Fraction(19)), TypeError),
    ((3, 6, 9, 12, Decimal(19)), TypeError),
    ([3, 6, 9, 12, 2**32 + 19], bf.InvalidCardError),
    ([3, 6, 9, 12, 12], bf.DuplicateCardError),
])
def test_evaluate_words_what_the_call_hands_back(backend: str, cards: object, error: type) -> None:
    with pytest.raises(error):
        bf.evaluate(cards)  # type: ignore[arg-type]


def test_numpy_ints_take_the_general_path(backend: str) -> None:
    hand = np.array([3, 6, 9, 12, 19], dtype=np.int64)
    assert bf.evaluate(tuple(hand)) == bf.evaluate((3, 6, 9, 12, 19))


def test_arguments_are_checked() -> None:
    kernel = _backend.kernel()
    table = kernel.ffi.buffer(kernel.table(False))
    call = HandEvaluator(table, {}, from_entry)
    with pytest.raises(TypeError, match="exactly one argument"):
        call()
    with pytest.raises(TypeError, match="exactly one argument"):
        call((3, 6, 9, 12, 19), (0, 1, 2, 3, 4))
    with pytest.raises(TypeError, match="exactly one argument"):
        call(cards=(3, 6, 9, 12, 19))
    with pytest.raises(ValueError, match="10428608 aligned bytes"):
        HandEvaluator(b"\0" * 100, {}, from_entry)  # a short table would be read past its end
    with pytest.raises(ValueError, match="aligned"):
        HandEvaluator(memoryview(bytearray(len(table) + 1))[1:], {}, from_entry)  # misaligned
    with pytest.raises(TypeError):
        HandEvaluator(table, [], from_entry)  # values must be a dict
    with pytest.raises(TypeError, match="callable"):
        HandEvaluator(table, {}, 42)
    with pytest.raises(TypeError):
        HandEvaluator(42, {}, from_entry)  # no buffer


def test_make_errors_propagate_and_nothing_is_cached() -> None:
    kernel = _backend.kernel()

    def broken(entry: int) -> Value:
        raise RuntimeError(f"no value for {entry}")

    values: dict = {}
    call = HandEvaluator(kernel.ffi.buffer(kernel.table(False)), values, broken)
    with pytest.raises(RuntimeError, match="no value for"):
        call((3, 6, 9, 12, 19))
    assert values == {}


def test_the_call_keeps_its_table_alive() -> None:
    # A kernel object of its own: once it is gone, the call must still read valid memory.
    kernel = _c.Kernel()
    kernel.table(True)
    call = kernel.single[True]
    del kernel
    gc.collect()
    assert call((3, 6, 9, 12, 19)) == (reference.low_rank((3, 6, 9, 12, 19), "badeucy"), 1)


def test_concurrent_calls_agree(single) -> None:
    ace_high, call = single
    hands = [tuple(random.Random(seed).sample(range(52), 5)) for seed in range(400)]
    want = [bf.evaluate(h, _game(ace_high)) for h in hands]
    got: list[list] = [[] for _ in range(4)]

    def work(k: int) -> None:
        for _ in range(20):
            got[k].append([call(h) for h in hands])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(run == want for runs in got for run in runs)
