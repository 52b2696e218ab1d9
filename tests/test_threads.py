"""Batches split across threads: the kernel's shared-counter calls and kernel/threads.py's helper threads.

Every check compares against an independent answer: the numpy twin (derived from the reference rules)
for ranks, a sentinel (0 is never a rank) for "this row was written", and the known position of planted
bad rows.  The kernel calls are also driven from ONE thread in a fixed order, which replays any
interleaving of real threads deterministically (a call only ever claims the next chunk).
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest

from badacey_fast.kernel import backend as _backend

from badacey_fast.bulk import evaluate as bulk
from badacey_fast.kernel import threads as kernel_threads
from badacey_fast.errors import DuplicateCardError, InvalidCardError


def _hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.ascontiguousarray(np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.uint8))


def _twin(hands: np.ndarray, game: str = "badacey") -> tuple[np.ndarray, np.ndarray]:
    with _backend.using("python"):
        return bulk.evaluate_many(hands, game)


@pytest.fixture(scope="module")
def kernel():
    return _backend.kernel()


def _shared_eval(kernel, hands: np.ndarray, chunk: int, calls: int, counter=None, check: int = 1):
    """``calls`` successive bd_eval_many_shared calls on one counter; (their results, low, badugi)."""
    ffi, lib = kernel.ffi, kernel.lib
    n = len(hands)
    low, badugi = np.zeros(n, np.uint16), np.zeros(n, np.uint16)  # 0 = never written (ranks start at 1)
    counter = ffi.new("int64_t *") if counter is None else counter
    args = (kernel.table(False), ffi.from_buffer("uint8_t[]", hands), n, 5, 1,
            ffi.from_buffer("uint16_t[]", low), ffi.from_buffer("uint16_t[]", badugi), check, counter, chunk)
    return [lib.bd_eval_many_shared(*args) for _ in range(calls)], low, badugi


@pytest.mark.parametrize("chunk", [0, 1, 7, 16, 256, 1000, 5000])
def test_shared_calls_evaluate_every_row_once(kernel, chunk: int) -> None:
    hands = _hands(3001, seed=chunk)
    want_low, want_badugi = _twin(hands)
    results, low, badugi = _shared_eval(kernel, hands, chunk, calls=3)
    assert results == [-1, -1, -1]  # the first call takes every chunk; the others find none left
    np.testing.assert_array_equal(low, want_low)
    np.testing.assert_array_equal(badugi, want_badugi)


def test_a_call_that_never_runs_loses_no_rows(kernel) -> None:
    """Load balancing: the chunks a late or stalled thread would have taken are taken by the others."""
    hands = _hands(50_000, seed=3)
    counter = kernel.ffi.new("int64_t *")
    counter[0] = 4096  # as if another thread had claimed the first chunk and then stalled forever
    results, low, badugi = _shared_eval(kernel, hands, 4096, calls=1, counter=counter)
    assert results == [-1]
    assert (low[:4096] == 0).all() and (badugi[:4096] == 0).all()  # the stalled thread's chunk only
    want_low, want_badugi = _twin(hands)
    np.testing.assert_array_equal(low[4096:], want_low[4096:])
    np.testing.assert_array_equal(badugi[4096:], want_badugi[4096:])


def test_shared_calls_stop_at_the_first_bad_row(kernel) -> None:
    hands = _hands(5000, seed=5)
    hands[1234, 2] = 60
    hands[4321, 0] = hands[4321, 4]
    results, low, badugi = _shared_eval(kernel, hands, 500, calls=2)
    assert results == [1234, -1]  # the second call finds the counter pushed past the batch
    want_low, want_badugi = _twin(hands[:1234])
    np.testing.assert_array_equal(low[:1234], want_low)  # every row before the bad one is written
    np.testing.assert_array_equal(badugi[:1234], want_badugi)
    assert (low[1500:] == 0).all()  # nothing is claimed after the bad row's chunk


def test_a_thread_behind_still_reports_its_earlier_bad_row(kernel) -> None:
    """Two threads: A claimed chunk 0 (holding a bad row) but is slow; B meets a later bad row first.
    The smallest of the two results is the batch's first bad row."""
    ffi, lib = kernel.ffi, kernel.lib
    hands = _hands(4000, seed=8)
    hands[300, 1] = 52
    hands[2500, 3] = 200
    n = len(hands)
    low, badugi = np.zeros(n, np.uint16), np.zeros(n, np.uint16)
    counter = ffi.new("int64_t *")
    counter[0] = 1000  # A holds rows 0..999 (claimed, not yet evaluated)
    args = (kernel.table(False), ffi.from_buffer("uint8_t[]", hands), n, 5, 1,
            ffi.from_buffer("uint16_t[]", low), ffi.from_buffer("uint16_t[]", badugi), 1, counter, 1000)
    b = lib.bd_eval_many_shared(*args)
    a = lib.bd_eval_many(kernel.table(False), ffi.from_buffer("uint8_t[]", hands), 1000, 5, 1,
                         ffi.from_buffer("uint16_t[]", low), ffi.from_buffer("uint16_t[]", badugi), 1)
    assert (b, a) == (2500, 300)
    assert counter[0] >= n  # B's bad row stopped further claims


def test_shared_badugi_calls(kernel) -> None:
    ffi, lib = kernel.ffi, kernel.lib
    hands = _hands(6000, seed=9)
    for k in (3, 4, 5):
        rows = np.ascontiguousarray(hands[:, :k])
        with _backend.using("python"):
            want = bulk.badugi_rank_many(rows, ace_high=True)
        out = np.zeros(len(rows), np.uint16)
        counter = ffi.new("int64_t *")
        src, dst = ffi.from_buffer("uint8_t[]", rows), ffi.from_buffer("uint16_t[]", out)
        if k == 4:
            got = [lib.bd_badugi4_many_shared(kernel.badugi4(True), src, len(rows), k, 1, dst, 1, counter, 777)
                   for _ in range(2)]
        else:
            got = [lib.bd_badugi_many_shared(kernel.table(True), src, len(rows), k, k, 1, dst, 1, counter, 777)
                   for _ in range(2)]
        assert got == [-1, -1]
        np.testing.assert_array_equal(out, want)
    out = np.zeros(4, np.uint16)
    for k in (0, 6):  # a bad hand size is reported as row 0, as by bd_badugi_many
        assert lib.bd_badugi_many_shared(kernel.table(False), ffi.from_buffer("uint8_t[]", hands), 4, k, 5, 1,
                                         ffi.from_buffer("uint16_t[]", out), 0, ffi.new("int64_t *"), 16) == 0


def test_real_threads_on_one_counter_small_chunks(kernel) -> None:
    """Three OS threads race on one counter with 64-row chunks: every row is written exactly right."""
    ffi, lib = kernel.ffi, kernel.lib
    hands = _hands(200_000, seed=10)
    n = len(hands)
    low, badugi = np.zeros(n, np.uint16), np.zeros(n, np.uint16)
    counter = ffi.new("int64_t *")
    args = (kernel.table(False), ffi.from_buffer("uint8_t[]", hands), n, 5, 1,
            ffi.from_buffer("uint16_t[]", low), ffi.from_buffer("uint16_t[]", badugi), 1, counter, 64)
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(lib.bd_eval_many_shared(*args))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [-1, -1, -1]
    want_low, want_badugi = _twin(hands)
    np.testing.assert_array_equal(low, want_low)
    np.testing.assert_array_equal(badugi, want_badugi)


# ---- through the public API, both backends ------------------------------------------------------------


@pytest.mark.parametrize("layout", ["reversed rows", "column-major", "every other row"])
def test_threads_on_strided_layouts(backend: str, layout: str) -> None:
    hands = _hands(280_000, seed=11)
    view = {"reversed rows": hands[::-1], "column-major": np.asfortranarray(hands),
            "every other row": np.concatenate([hands, hands])[::2]}[layout]
    assert view.dtype == np.uint8 and not view.flags.c_contiguous  # read in place, with its strides
    want = _twin(np.ascontiguousarray(view), "badeucy")
    got = bulk.evaluate_many(view, "badeucy", threads=2)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


def test_threads_badugi_rank_many(backend: str) -> None:
    hands = _hands(270_000, seed=12)
    for k in (3, 4, 5):
        rows = hands[:, :k]
        with _backend.using("python"):
            want = bulk.badugi_rank_many(np.ascontiguousarray(rows))
        np.testing.assert_array_equal(bulk.badugi_rank_many(rows, threads=2), want)
    hands[200_001, 3] = hands[200_001, 0]
    with pytest.raises(DuplicateCardError, match=r"^row 200001: "):
        bulk.badugi_rank_many(hands[:, :4], threads=2)


def test_threads_report_the_first_of_many_bad_rows(backend: str) -> None:
    hands = _hands(300_000, seed=13)
    for row in (299_999, 150_000, 140_001, 140_000):  # the first one lies in the middle of the batch
        hands[row, 4] = 77
    for _ in range(5):  # whichever thread meets a bad row first, the smallest is reported
        with pytest.raises(InvalidCardError, match=r"^row 140000: card id 77 "):
            bulk.evaluate_many(hands, threads=2)


def test_concurrent_callers_with_threads(backend: str) -> None:
    """Several Python threads each splitting their own batch: helper threads are never shared."""
    batches = [_hands(140_000, seed=20 + i) for i in range(4)]
    wants = [_twin(b) for b in batches]
    got: list = [None] * len(batches)

    def work(i: int) -> None:
        for _ in range(3):
            got[i] = bulk.evaluate_many(batches[i], threads=2)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(batches))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (lo, bd), (wlo, wbd) in zip(got, wants):
        np.testing.assert_array_equal(lo, wlo)
        np.testing.assert_array_equal(bd, wbd)


@pytest.mark.backend_independent  # it serves itself from the C twin: once, not once a twin
def test_idle_helpers_are_bounded_by_the_cpu_count() -> None:
    hands = _hands(8 * 65_536, seed=14)
    with _backend.using("c"):
        bulk.evaluate_many(hands, threads=8)
    assert 1 <= len(kernel_threads._IDLE) <= (os.cpu_count() or 1)


def test_a_failing_job_is_raised_and_the_helpers_stay_usable() -> None:
    main = threading.get_ident()

    def job() -> int:
        if threading.get_ident() != main:
            raise ZeroDivisionError("helper side")
        return 5

    with pytest.raises(ZeroDivisionError, match="helper side"):
        kernel_threads.run_shared(job, 2)
    assert kernel_threads.run_shared(lambda: 7 if threading.get_ident() == main else 3, 2) == 3  # smallest row
    assert kernel_threads.run_shared(lambda: -1, 3) == -1


def test_chunk_sizes() -> None:
    for n in (131_072, 1_000_000, 4_000_000, 100_000_000):
        for threads in (2, 3, 8):
            chunk = kernel_threads.chunk(n, threads)
            assert chunk % 256 == 0 and 4096 <= chunk <= 65_536
            if 4096 < chunk < 65_536:  # not clamped: about 32 chunks per thread
                assert 32 * threads - threads <= n / chunk <= 32 * threads


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX-only")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # 3.12+: fork() of a process with threads
@pytest.mark.backend_independent  # it serves itself from the C twin: once, not once a twin
def test_threads_work_in_a_forked_child() -> None:
    """Helper threads do not survive fork(): a child must make its own instead of waiting forever."""
    hands = _hands(140_000, seed=15)
    with _backend.using("c"):
        want = bulk.evaluate_many(hands, threads=2)  # the parent now has an idle helper
    pid = os.fork()
    if pid == 0:  # the child: exit status 0 only if the split batch completes and agrees
        code = 1
        try:
            with _backend.using("c"):
                got = bulk.evaluate_many(hands, threads=2)
            code = 0 if (got[0] == want[0]).all() and (got[1] == want[1]).all() else 3
        finally:
            os._exit(code)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.02)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    pytest.fail("evaluate_many(threads=2) hung in a forked child")
