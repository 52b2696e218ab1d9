"""The C kernel's own contracts: the perfect hash, single-hand calls, validation, bounds, threads.

These call ``badacey_fast._kernel`` directly (a missing extension is a test error, never a skip).  The
hash is checked with an identity table (entry i = i): a lookup then returns the hand's index itself.
"""

from __future__ import annotations

import threading
from itertools import permutations
from math import comb

import numpy as np
import pytest

from badacey_fast.kernel import backend as _backend

from badacey_fast.bulk import evaluate as bulk

from badacey_fast.rules import reference as reference

from badacey_fast.tables import format as tables
from badacey_fast.rules.games import GAMES


# Every test here calls the C kernel directly, whatever twin serves the public API: once is enough (and
# the exhaustive checks walk all 2.6 million hands).
pytestmark = pytest.mark.backend_independent


@pytest.fixture(scope="module")
def kernel():
    return _backend.kernel()


@pytest.fixture(scope="module")
def identity_table(kernel):
    """A fake table whose entry i is i, so lookups return the perfect-hash index."""
    return np.arange(tables.ENTRIES, dtype=np.uint32)


def _lookup(kernel, table: np.ndarray, cards: np.ndarray, check: int = 1) -> tuple[int, np.ndarray]:
    ffi, lib = kernel.ffi, kernel.lib
    cards = np.ascontiguousarray(cards, dtype=np.uint8)
    out = np.zeros(len(cards), dtype=np.uint32)
    bad = lib.bd_lookup_many(ffi.from_buffer("uint32_t[]", table), ffi.from_buffer("uint8_t[]", cards),
                             len(cards), 5, 1, ffi.from_buffer("uint32_t[]", out), check)
    return bad, out


def _colex(row) -> int:
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(row)))


def test_hash_is_colex_rank_of_every_hand(kernel, identity_table) -> None:
    hands = bulk.all_hands()
    rng = np.random.default_rng(3)
    shuffled = np.take_along_axis(hands, np.argsort(rng.random(hands.shape), axis=1), axis=1)
    bad, out = _lookup(kernel, identity_table, shuffled)
    assert bad == -1
    np.testing.assert_array_equal(out, np.arange(tables.HANDS5, dtype=np.uint32))
    for i in (0, 1, 777_777, tables.HANDS5 - 1):  # the colex order, by the formula
        assert _colex(hands[i].tolist()) == i


def test_hash_ignores_card_order(kernel, identity_table) -> None:
    for hand in ((0, 1, 2, 3, 4), (47, 48, 49, 50, 51), (3, 17, 22, 40, 51)):
        perms = np.array(list(permutations(hand)), dtype=np.uint8)
        bad, out = _lookup(kernel, identity_table, perms)
        assert bad == -1 and set(out.tolist()) == {_colex(hand)}


def test_single_eval_matches_reference(kernel) -> None:
    rng = np.random.default_rng(11)
    for game, ace_high in zip(GAMES, (False, True)):
        table = kernel.table(ace_high)
        for row in np.argsort(rng.random((500, 52)), axis=1)[:, :5].tolist():
            entry = kernel.lib.bd_eval5(table, *row)
            assert entry & 0xFFFF == reference.low_rank(tuple(row), game)
            assert entry >> 16 == reference.badugi_rank(tuple(row), ace_high)


@pytest.mark.parametrize("row", [(0, 0, 1, 2, 3), (3, 6, 9, 12, 52), (-1, 6, 9, 12, 19), (255, 6, 9, 12, 19),
                                 (3, 6, 9, 19, 19), (2**31 - 1, 1, 2, 3, 4)])
def test_single_eval_rejects_bad_cards(kernel, row) -> None:
    assert kernel.lib.bd_eval5(kernel.table(False), *row) == 0


def test_badugi_rank_sizes(kernel) -> None:
    table = kernel.table(False)
    ffi, lib = kernel.ffi, kernel.lib
    assert lib.bd_badugi_rank(table, ffi.NULL, 0) == 0
    assert lib.bd_badugi_rank(table, [0, 5, 10, 15, 20, 25], 6) == 0
    assert lib.bd_badugi_rank(table, [3, 3], 2) == 0  # repeated
    assert lib.bd_badugi_rank(table, [52], 1) == 0
    rng = np.random.default_rng(5)
    for ace_high in (False, True):
        t = kernel.table(ace_high)
        for n in (1, 2, 3, 4, 5):
            for row in np.argsort(rng.random((200, 52)), axis=1)[:, :n].tolist():
                assert lib.bd_badugi_rank(t, row, n) == reference.badugi_rank(tuple(row), ace_high)


def _eval_many_raw(kernel, cards: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """bd_eval_many on contiguous rows, outputs followed by 8 guard cells holding 0xABCD."""
    ffi, lib = kernel.ffi, kernel.lib
    n = len(cards)
    low = np.full(n + 8, 0xABCD, dtype=np.uint16)
    badugi = np.full(n + 8, 0xABCD, dtype=np.uint16)
    got = lib.bd_eval_many(kernel.table(False), ffi.from_buffer("uint8_t[]", cards), n, 5, 1,
                           ffi.from_buffer("uint16_t[]", low), ffi.from_buffer("uint16_t[]", badugi), 1)
    return got, low, badugi


@pytest.mark.parametrize("n", [1, 15, 16, 17, 33, 1000])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
@pytest.mark.parametrize("fault", ["repeat", "range"])
def test_batch_reports_first_bad_row_and_writes_nothing_after(kernel, n: int, where: str, fault: str) -> None:
    rng = np.random.default_rng(n)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.uint8)
    bad_row = {"first": 0, "middle": n // 2, "last": n - 1}[where]
    broken = cards.copy()
    if fault == "repeat":
        broken[bad_row, 4] = broken[bad_row, 1]
    else:
        broken[bad_row, 2] = 52
    if bad_row + 1 < n:
        broken[n - 1, 0] = 200  # a later bad row must not be the one reported
    got, low, badugi = _eval_many_raw(kernel, broken)
    assert got == bad_row
    assert (low[bad_row:] == 0xABCD).all() and (badugi[bad_row:] == 0xABCD).all()
    rows = [tuple(r) for r in cards[:bad_row].tolist()]
    assert low[:bad_row].tolist() == [reference.low_rank(r, "badacey") for r in rows]
    assert badugi[:bad_row].tolist() == [reference.badugi_rank(r, False) for r in rows]


@pytest.mark.parametrize("n", [1, 16, 17, 1000])
def test_good_batch_writes_exactly_n_outputs(kernel, n: int) -> None:
    rng = np.random.default_rng(100 + n)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.uint8)
    got, low, badugi = _eval_many_raw(kernel, cards)
    assert got == -1
    assert (low[n:] == 0xABCD).all() and (badugi[n:] == 0xABCD).all()
    expected = [reference.low_rank(tuple(r), "badacey") for r in cards.tolist()]
    assert low[:n].tolist() == expected


def test_unchecked_garbage_stays_in_bounds(kernel, identity_table) -> None:
    rng = np.random.default_rng(9)
    garbage = rng.integers(0, 256, size=(5000, 5), dtype=np.uint8)
    garbage[:100] = 255
    garbage[100:200] = 0
    bad, out = _lookup(kernel, identity_table, garbage, check=0)
    assert bad == -1
    assert out.max() < tables.HANDS5  # every index inside the five-card part of the table
    bad, _ = _lookup(kernel, identity_table, garbage, check=1)
    assert bad == 0


def test_badugi_many_rejects_bad_k(kernel) -> None:
    out = np.zeros(4, dtype=np.uint16)
    cards = np.zeros((4, 6), dtype=np.uint8)
    ffi = kernel.ffi
    for k in (0, 6):
        assert kernel.lib.bd_badugi_many(kernel.table(False), ffi.from_buffer("uint8_t[]", cards), 4, k, 6, 1,
                                         ffi.from_buffer("uint16_t[]", out), 0) == 0


def test_concurrent_batch_calls_agree(kernel) -> None:
    rng = np.random.default_rng(21)
    batches = [np.argsort(rng.random((20_000, 52)), axis=1)[:, :5].astype(np.uint8) for _ in range(6)]
    serial = [bulk.evaluate_many(b, GAMES[i % 2]) for i, b in enumerate(batches)]
    results: list = [None] * len(batches)

    def work(i: int) -> None:
        for _ in range(5):
            results[i] = bulk.evaluate_many(batches[i], GAMES[i % 2])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(batches))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (lo, bd), (slo, sbd) in zip(results, serial):
        np.testing.assert_array_equal(lo, slo)
        np.testing.assert_array_equal(bd, sbd)


def test_first_table_load_is_shared_between_threads() -> None:
    from badacey_fast.kernel._c import Kernel

    fresh = Kernel()
    seen: list = []
    threads = [threading.Thread(target=lambda: seen.append(fresh.table(True))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 4 and all(s is seen[0] for s in seen)
    assert fresh.lib.bd_eval5(seen[0], 7, 8, 13, 18, 51) >> 16 == 1  # 2s 3c 4d 5h: ace-high badugi nuts


# ---- every vector path (the CPU's best is the default; each level is checked against the scalar loop) --


def _eval_level(kernel, table, cards: np.ndarray, level: int, check: int = 1):
    ffi = kernel.ffi
    cards = np.ascontiguousarray(cards, dtype=np.uint8)
    n = len(cards)
    low = np.full(n + 8, 0xABCD, dtype=np.uint16)
    badugi = np.full(n + 8, 0xABCD, dtype=np.uint16)
    table_p = ffi.from_buffer("uint32_t[]", table) if isinstance(table, np.ndarray) else table
    got = kernel.lib.bd_eval_many_level(table_p, ffi.from_buffer("uint8_t[]", cards), n, 5, 1,
                                        ffi.from_buffer("uint16_t[]", low), ffi.from_buffer("uint16_t[]", badugi),
                                        check, level)
    return got, low, badugi


def test_every_vector_level_hashes_every_hand(kernel, identity_table) -> None:
    hands = bulk.all_hands()
    rng = np.random.default_rng(31)
    order = rng.permutation(len(hands))
    shuffled = np.take_along_axis(hands[order], np.argsort(rng.random(hands.shape), axis=1), axis=1)
    levels = range(kernel.lib.bd_simd_level() + 1)
    assert kernel.lib.bd_simd_level() in (0, 1, 2)
    for level in levels:
        got, low, badugi = _eval_level(kernel, identity_table, shuffled, level)
        assert got == -1
        index = low[:-8].astype(np.int64) | (badugi[:-8].astype(np.int64) << 16)
        np.testing.assert_array_equal(index, order, err_msg=f"level {level}")
        assert (low[-8:] == 0xABCD).all() and (badugi[-8:] == 0xABCD).all()


@pytest.mark.parametrize("n", [16, 17, 40, 333])
def test_every_vector_level_validates(kernel, n: int) -> None:
    rng = np.random.default_rng(n)
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.uint8)
    for level in range(kernel.lib.bd_simd_level() + 1):
        for bad_row in (0, 7, 8, 15, n - 1):
            broken = cards.copy()
            broken[bad_row, bad_row % 5] = broken[bad_row, (bad_row + 2) % 5] if bad_row % 2 else 52
            got, low, _ = _eval_level(kernel, kernel.table(True), broken, level)
            assert got == bad_row, (level, bad_row)
            assert (low[bad_row:] == 0xABCD).all()


def test_every_vector_level_keeps_garbage_in_bounds(kernel, identity_table) -> None:
    garbage = np.random.default_rng(12).integers(0, 256, size=(4096, 5), dtype=np.uint8)
    garbage[:64] = 255
    for level in range(kernel.lib.bd_simd_level() + 1):
        got, low, badugi = _eval_level(kernel, identity_table, garbage, level, check=0)
        assert got == -1
        index = low[:-8].astype(np.int64) | (badugi[:-8].astype(np.int64) << 16)
        assert index.max() < tables.HANDS5


def test_four_card_table_matches_subset_search_on_every_badugi_hand(kernel) -> None:
    """The derived four-card table (one load per row) against the kernel's subset search, all C(52,4) hands."""
    from itertools import combinations

    hands = np.array(list(combinations(range(52), 4)), dtype=np.uint8)
    rng = np.random.default_rng(44)
    hands = np.take_along_axis(hands, np.argsort(rng.random(hands.shape), axis=1), axis=1)
    ffi, lib = kernel.ffi, kernel.lib
    for ace_high in (False, True):
        fast = bulk.badugi_rank_many(hands, ace_high)
        slow = np.zeros(len(hands), dtype=np.uint16)
        got = lib.bd_badugi_many(kernel.table(ace_high), ffi.from_buffer("uint8_t[]", hands), len(hands), 4, 4, 1,
                                 ffi.from_buffer("uint16_t[]", slow), 1)
        assert got == -1
        np.testing.assert_array_equal(fast, slow)
        assert fast.min() == 1 and fast.max() == 1092  # 4-3-2-A (or 5-4-3-2) rainbow ... a lone king (or ace)
