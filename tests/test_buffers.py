"""Large bulk outputs are recycled (badacey_fast/bulk/buffers.py) only once nothing refers to them: a held
result, or any view of it, is never written by a later call; a dropped one is handed out again."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from badacey_fast import kernel
from badacey_fast.bulk import buffers
from badacey_fast.bulk.showdown import score_columns, showdown_many

pytestmark = pytest.mark.backend_independent

N = 100_000  # 6 seats x 8 bytes: 4.8 MB of payouts, above buffers.MIN_BYTES


def deal(seed: int, n: int = N) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    cards = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52)), axis=1)[:, :30]
    return np.ascontiguousarray(cards.reshape(n, 6, 5)), rng.integers(0, 10**6, n), rng.integers(0, 6, n)


@pytest.fixture(autouse=True)
def _empty_pool():
    buffers.release_buffers()
    yield
    buffers.release_buffers()


def test_a_held_result_is_never_reused_and_a_dropped_one_is():
    cards, pot, button = deal(1)
    other = deal(2)
    with kernel.using("c"):
        first = showdown_many(cards, pot=pot, button=button)
        kept = first.copy()
        second = showdown_many(*other[:1], pot=other[1], button=other[2])
        assert first.ctypes.data != second.ctypes.data
        third = showdown_many(cards, pot=pot + 1, button=button)  # both held: a third buffer (first's
        assert len({a.ctypes.data for a in (first, second, third)}) == 3  # leaves the pool, kept KEEP = 2)
        np.testing.assert_array_equal(first, kept)  # untouched by the two later calls
        at = third.ctypes.data
        del third
        again = showdown_many(*other[:1], pot=other[1], button=other[2])
        assert again.ctypes.data == at  # the dropped buffer, reused ...
        np.testing.assert_array_equal(again, second)  # ... and filled with this call's payouts
        np.testing.assert_array_equal(first, kept)
        with kernel.using("python"):
            sample = slice(0, 500)
            np.testing.assert_array_equal(again[sample], showdown_many(
                other[0][sample], pot=other[1][sample], button=other[2][sample]))


@pytest.mark.parametrize("hold", ["slice", "transpose", "memoryview", "reshape"])
def test_any_view_of_a_result_keeps_its_buffer(hold: str):
    cards, pot, button = deal(3)
    with kernel.using("c"):
        got = showdown_many(cards, pot=pot, button=button)
        want = got.copy()
        at = got.ctypes.data
        view = {"slice": lambda a: a[10:20], "transpose": lambda a: a.T, "memoryview": memoryview,
                "reshape": lambda a: a.reshape(-1)}[hold](got)
        del got
        for seed in (4, 5, 6):  # more calls than buffers kept: none may land on the held one
            c2, p2, b2 = deal(seed)
            new = showdown_many(c2, pot=p2, button=b2)
            assert new.ctypes.data != at
        held = np.asarray(view)
        np.testing.assert_array_equal(held, {"slice": want[10:20], "transpose": want.T, "memoryview": want,
                                             "reshape": want.reshape(-1)}[hold])


def test_shares_chips_and_columns_share_the_pool_and_stay_correct():
    cards, pot, button = deal(7)
    with kernel.using("c"):
        want_chips = showdown_many(cards, pot=pot, button=button).copy()
        want_shares = showdown_many(cards).copy()
        want_columns = score_columns(cards, pot=pot, button=button).chips.copy()
        for _ in range(3):  # each result dropped at once: the same buffers come back, rewritten
            np.testing.assert_array_equal(showdown_many(cards), want_shares)
            np.testing.assert_array_equal(showdown_many(cards, pot=pot, button=button), want_chips)
            np.testing.assert_array_equal(score_columns(cards, pot=pot, button=button).chips, want_columns)
    assert len(buffers._kept) <= buffers.KEEP


def test_threads_never_share_a_buffer():
    deals = [deal(10 + k) for k in range(4)]
    with kernel.using("c"):
        wants = [showdown_many(c, pot=p, button=b).copy() for c, p, b in deals]
    results: list[list[np.ndarray]] = [[] for _ in deals]
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            c, p, b = deals[k]
            with kernel.using("c"):
                for _ in range(12):
                    results[k].append(showdown_many(c, pot=p, button=b))
                    if len(results[k]) > 2:
                        results[k].pop(0)
        except BaseException as e:  # reported below: an exception in a thread would pass silently
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    held = [a for rs in results for a in rs]
    assert len({a.ctypes.data for a in held}) == len(held)  # every held result its own memory
    for k, rs in enumerate(results):
        for a in rs:
            np.testing.assert_array_equal(a, wants[k])


def test_large_results_are_not_kept_and_release_gives_back():
    with kernel.using("c"):
        small = buffers.fresh((10, 6), np.int64)
        assert small.flags.owndata  # below MIN_BYTES: a plain array, nothing kept
        assert buffers._kept == []
        big = buffers.fresh((buffers.MAX_BYTES // 8 // 6 + 1, 6), np.int64)  # above MAX_BYTES: not kept
        assert big.ctypes.data % (1 << 21) == 0 and buffers._kept == []
        mid = buffers.fresh((N, 6), np.int64)
        assert mid.ctypes.data % (1 << 21) == 0
        kept = buffers.release_buffers()
        assert kept == N * 48 + (1 << 21)
        assert buffers.release_buffers() == 0
        mid[:] = 7  # still valid: released buffers live on while their arrays do
        assert int(mid.sum()) == 7 * N * 6


def test_a_new_buffer_is_allocated_outside_the_lock(monkeypatch):
    # One thread is inside a new buffer's allocation while another takes a kept buffer and allocates its
    # own: the second is not held up (the lock covers only the check-and-take and the bookkeeping), and
    # the two results, and a kept one still held, are three distinct buffers.
    if buffers._ALONE < 0:
        pytest.skip("no recycling on this interpreter")
    held = buffers.fresh((N, 6), np.int64)  # kept and held: nobody may take it
    inside, passed = threading.Event(), threading.Event()
    real = buffers._allocate
    waited: list[bool] = []

    def slow(need: int) -> np.ndarray:
        if threading.current_thread() is not threading.main_thread():
            inside.set()
            waited.append(passed.wait(timeout=20))  # False: the main thread was held up by this allocation
        return real(need)

    monkeypatch.setattr(buffers, "_allocate", slow)
    out: list[np.ndarray] = []
    worker = threading.Thread(target=lambda: out.append(buffers.fresh((N, 6), np.int64)))
    worker.start()
    assert inside.wait(timeout=20)
    mine = buffers.fresh((N, 6), np.float64)  # while the worker is still allocating
    passed.set()
    worker.join()
    assert waited == [True]
    arrays = [held, out[0], mine]
    assert len({a.ctypes.data for a in arrays}) == 3
    assert all(a.ctypes.data % (1 << 21) == 0 for a in arrays)
    assert len(buffers._kept) <= buffers.KEEP
    for k, a in enumerate(arrays):
        a[:] = k  # each its own memory: writing one leaves the others whole
    assert [int(a.min()) for a in arrays] == [0, 1, 2] and [int(a.max()) for a in arrays] == [0, 1, 2]
