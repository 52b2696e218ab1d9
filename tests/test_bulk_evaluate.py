"""Bulk evaluation over numpy arrays, on both backends: layouts, dtypes, errors, out=, threads."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

import badacey_fast as bf
from badacey_fast.bulk import evaluate as bulk
from badacey_fast.rules import reference as reference
from badacey_fast.errors import DuplicateCardError, HandSizeError, InvalidCardError
from badacey_fast.rules.games import GAMES


def _random_hands(n: int, k: int = 5, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def _reference(hands: np.ndarray, game: str) -> tuple[list[int], list[int]]:
    rows = [tuple(r) for r in np.asarray(hands).tolist()]
    return ([reference.low_rank(r, game) for r in rows],
            [reference.badugi_rank(r, game == "badeucy") for r in rows])


@pytest.fixture(scope="module")
def sample() -> np.ndarray:
    return _random_hands(3001, seed=1)


@pytest.fixture(scope="module")
def sample_reference(sample: np.ndarray) -> dict[str, tuple[list[int], list[int]]]:
    return {game: _reference(sample, game) for game in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_matches_reference_and_single_evaluate(backend: str, sample, sample_reference, game: str) -> None:
    low, badugi = bf.evaluate_many(sample, game)
    assert low.dtype == badugi.dtype == np.uint16 and low.shape == badugi.shape == (len(sample),)
    assert (low.tolist(), badugi.tolist()) == sample_reference[game]
    for row, lo, bd in list(zip(sample.tolist(), low.tolist(), badugi.tolist()))[:300]:
        assert bf.evaluate(tuple(row), game) == (lo, bd)  # single vs batch


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                                   np.uint64, np.intp])
def test_any_integer_dtype(backend: str, sample, sample_reference, dtype) -> None:
    low, badugi = bf.evaluate_many(sample.astype(dtype), "badeucy")
    assert (low.tolist(), badugi.tolist()) == sample_reference["badeucy"]


@pytest.mark.parametrize("layout", ["fortran", "every_other_row", "reversed_rows", "reversed_columns",
                                    "column_slice", "transposed_copy"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int64])
def test_any_strides(backend: str, sample, sample_reference, layout: str, dtype) -> None:
    base = sample.astype(dtype)
    wide = np.zeros((len(sample), 8), dtype=dtype)
    wide[:, 1:6] = base
    view, order = {
        "fortran": (np.asfortranarray(base), slice(None)),
        "every_other_row": (base[::2], slice(None, None, 2)),
        "reversed_rows": (base[::-1], slice(None, None, -1)),
        "reversed_columns": (base[:, ::-1], slice(None)),
        "column_slice": (wide[:, 1:6], slice(None)),
        "transposed_copy": (np.ascontiguousarray(base.T).T, slice(None)),
    }[layout]
    low, badugi = bf.evaluate_many(view, "badacey")
    exp_low, exp_badugi = (np.array(x)[order] for x in sample_reference["badacey"])
    np.testing.assert_array_equal(low, exp_low)
    np.testing.assert_array_equal(badugi, exp_badugi)


def test_lists_are_accepted(backend: str) -> None:
    low, badugi = bf.evaluate_many([[3, 6, 9, 12, 19], [51, 47, 43, 39, 35]])
    assert low.tolist()[0] == 1 and badugi.tolist()[0] == 1
    assert low.tolist()[1] == reference.low_rank((51, 47, 43, 39, 35))


@pytest.mark.parametrize("row", [0, 1, 15, 16, 17, 1000, 2999])
@pytest.mark.parametrize("dtype", [np.uint8, np.int64])
def test_bad_rows_name_row_and_value(backend: str, sample, row: int, dtype) -> None:
    hands = sample[:3000].astype(dtype)
    dup = hands.copy()
    dup[row, 3] = dup[row, 0]
    name = bf.format_card(int(dup[row, 0]))
    with pytest.raises(DuplicateCardError, match=rf"^row {row}: card '{name}' is given twice$"):
        bf.evaluate_many(dup)
    out_of_range = hands.copy()
    out_of_range[row, 2] = 52
    with pytest.raises(InvalidCardError, match=rf"^row {row}: card id 52 is outside 0\.\.51$"):
        bf.evaluate_many(out_of_range, "badeucy")


@pytest.mark.parametrize("value", [-1, 256, 1000, -300])
def test_wide_ints_do_not_wrap_into_valid_cards(backend: str, value: int) -> None:
    hands = np.array([[3, 6, 9, 12, 19], [value, 6, 9, 12, 19]], dtype=np.int64)
    with pytest.raises(InvalidCardError, match=rf"^row 1: card id {value} is outside 0\.\.51$"):
        bf.evaluate_many(hands)
    with pytest.raises(InvalidCardError, match=r"^row 1: "):
        bf.badugi_rank_many(hands[:, :4])


def test_check_false_gives_same_ranks_for_good_input(backend: str, sample, sample_reference) -> None:
    low, badugi = bf.evaluate_many(sample, "badacey", check=False)
    assert (low.tolist(), badugi.tolist()) == sample_reference["badacey"]


def test_check_false_on_garbage_does_not_crash(backend: str) -> None:
    garbage = np.random.default_rng(2).integers(0, 256, size=(4000, 5)).astype(np.uint8)
    low, badugi = bf.evaluate_many(garbage, check=False)
    assert len(low) == len(badugi) == 4000


def test_out_buffers_are_filled_and_returned(backend: str, sample, sample_reference) -> None:
    low = np.zeros(len(sample), dtype=np.uint16)
    badugi = np.zeros(len(sample), dtype=np.uint16)
    got = bf.evaluate_many(sample, "badeucy", out=(low, badugi))
    assert got[0] is low and got[1] is badugi
    assert (low.tolist(), badugi.tolist()) == sample_reference["badeucy"]
    one = np.zeros(len(sample), dtype=np.uint16)
    assert bf.badugi_rank_many(sample, True, out=one) is one
    assert one.tolist() == sample_reference["badeucy"][1]


@pytest.mark.parametrize("bad_out", [
    (np.zeros(10, np.uint16), np.zeros(9, np.uint16)),
    (np.zeros(10, np.uint32), np.zeros(10, np.uint16)),
    (np.zeros((10, 2), np.uint16)[:, 0], np.zeros(10, np.uint16)),
])
def test_bad_out_buffers_are_rejected(backend: str, bad_out) -> None:
    with pytest.raises(ValueError, match="out"):
        bf.evaluate_many(_random_hands(10), out=bad_out)


def test_out_must_be_a_pair_of_arrays(backend: str) -> None:
    with pytest.raises(TypeError, match="out"):
        bf.evaluate_many(_random_hands(3), out=np.zeros(3, np.uint16))
    with pytest.raises(TypeError, match="out"):
        bf.evaluate_many(_random_hands(3), out=([0, 0, 0], np.zeros(3, np.uint16)))


@pytest.mark.parametrize("shape", [(10, 4), (10, 6), (50,), (2, 5, 5)])
def test_wrong_shapes_are_rejected(backend: str, shape) -> None:
    with pytest.raises(HandSizeError, match=r"shape \(N, 5\)"):
        bf.evaluate_many(np.zeros(shape, dtype=np.uint8))


@pytest.mark.parametrize("bad", [np.zeros((3, 5), float), np.zeros((3, 5), bool), np.array([["As"] * 5])])
def test_non_integer_dtypes_are_type_errors(backend: str, bad) -> None:
    with pytest.raises(TypeError, match="dtype"):
        bf.evaluate_many(bad)


def test_bad_game_threads_and_ace_high(backend: str) -> None:
    hands = _random_hands(4)
    with pytest.raises(bf.UnknownGameError):
        bf.evaluate_many(hands, "razz")
    with pytest.raises(ValueError, match="threads"):
        bf.evaluate_many(hands, threads=0)
    with pytest.raises(TypeError, match="threads"):
        bf.evaluate_many(hands, threads=2.0)
    with pytest.raises(TypeError, match="ace_high"):
        bf.badugi_rank_many(hands, ace_high=1)


def test_empty_batches(backend: str) -> None:
    low, badugi = bf.evaluate_many(np.zeros((0, 5), dtype=np.int32))
    assert low.shape == badugi.shape == (0,)
    assert bf.badugi_rank_many(np.zeros((0, 4), dtype=np.uint8)).shape == (0,)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("ace_high", [False, True])
def test_badugi_rank_many_every_size(backend: str, k: int, ace_high: bool) -> None:
    hands = _random_hands(1500, k, seed=k)
    got = bf.badugi_rank_many(hands.astype(np.int16), ace_high)
    assert got.tolist() == [reference.badugi_rank(tuple(r), ace_high) for r in hands.tolist()]
    strided = bf.badugi_rank_many(np.asfortranarray(hands)[::-1], ace_high)
    assert strided.tolist() == got.tolist()[::-1]


def test_badugi_rank_many_bad_rows(backend: str) -> None:
    hands = _random_hands(40, 4)
    hands[33, 1] = hands[33, 3]
    with pytest.raises(DuplicateCardError, match=r"^row 33: "):
        bf.badugi_rank_many(hands)
    with pytest.raises(HandSizeError):
        bf.badugi_rank_many(np.zeros((3, 6), np.uint8))


def test_threads_agree_with_one_thread(backend: str) -> None:
    hands = _random_hands(300_000 if backend == "c" else 140_000, seed=4)
    one = bf.evaluate_many(hands, "badeucy", threads=1)
    two = bf.evaluate_many(hands, "badeucy", threads=2)
    many = bf.evaluate_many(hands, "badeucy", threads=7)
    for got in (two, many):
        np.testing.assert_array_equal(got[0], one[0])
        np.testing.assert_array_equal(got[1], one[1])
    np.testing.assert_array_equal(bf.badugi_rank_many(hands[:, :4], threads=2), bf.badugi_rank_many(hands[:, :4]))


def test_threads_report_the_first_bad_row(backend: str) -> None:
    hands = _random_hands(300_000, seed=6)
    hands[250_000, 0] = 99
    hands[260_000, 1] = hands[260_000, 2]
    with pytest.raises(InvalidCardError, match=r"^row 250000: card id 99 "):
        bf.evaluate_many(hands, threads=2)


def test_all_hands_is_colex(backend: str) -> None:
    hands = bf.all_hands()
    assert hands.shape == (2_598_960, 5) and hands.dtype == np.uint8
    assert (np.diff(hands.astype(np.int16), axis=1) > 0).all()  # each row ascending, so distinct
    rng = np.random.default_rng(8)
    for i in rng.integers(0, len(hands), 200).tolist() + [0, len(hands) - 1]:
        assert sum(comb(int(c), j + 1) for j, c in enumerate(hands[i])) == i


def test_import_does_not_load_numpy(fresh_python) -> None:
    code = "import sys, badacey_fast; print('numpy' in sys.modules)"
    out = fresh_python(code)  # the same badacey_fast as this process, not a checkout in the cwd
    assert out.stdout.strip() == "False", out.stderr


@pytest.mark.parametrize("count", [np.int64(2), np.int32(2), np.uint8(2)])
def test_threads_take_numpy_integers_like_pot_and_button(backend: str, count) -> None:
    # Big enough that two threads really split the batch (a thread per 65536 rows at most).
    hands = _random_hands(140_000, seed=8)
    one = bf.evaluate_many(hands, threads=1)
    two = bf.evaluate_many(hands, threads=count)
    np.testing.assert_array_equal(two[0], one[0])
    np.testing.assert_array_equal(two[1], one[1])
    np.testing.assert_array_equal(bf.badugi_rank_many(hands[:, :4], threads=count),
                                  bf.badugi_rank_many(hands[:, :4]))


def test_bad_thread_counts_name_the_value(backend: str) -> None:
    hands = _random_hands(4)
    for bad in (0, np.int64(-3)):
        with pytest.raises(bf.BadaceyError, match=rf"threads must be at least 1, got {int(bad)}"):
            bf.evaluate_many(hands, threads=bad)
    for wrong in (True, np.bool_(True), 2.0, "2", np.float64(2)):
        with pytest.raises(TypeError, match=rf"threads must be an int, not {type(wrong).__name__}"):
            bf.evaluate_many(hands, threads=wrong)
