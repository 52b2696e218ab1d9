"""Thread splitting for the C twin's batch calls: persistent helper threads and a shared chunk counter.

A batch split across ``threads`` threads runs the ``bd_*_shared`` variant of a kernel call on every
thread at once (this one included): the runs share one counter and claim chunks of the batch from it
in C with the GIL released, so a slower core simply claims fewer chunks.  Only ``kernel/_c.py`` calls
:func:`run_shared`; the Python twin is numpy and ignores ``threads``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

__all__ = ["chunk", "run_shared"]


def chunk(n: int, threads: int) -> int:
    """Rows per chunk claimed by the threads of a split batch: about 32 chunks per thread, so a core
    that is slowed down (another process, a kernel thread) costs at most a small chunk's worth of
    waiting at the end, never half the batch; a multiple of 256 rows (the vector paths' block); 4096 to
    65536 rows (8..130 µs of work).  Claiming is one atomic add in C, so small chunks cost nothing."""
    return min(65536, max(4096, -(-n // (threads * 32 * 256)) * 256))


class _Helper:
    """A persistent helper thread that runs one job at a time; handing it a job is one lock release.

    Cheaper than ``ThreadPoolExecutor.submit`` + ``Future.result`` (no Future, queue or condition
    variable per job): on a 1 M-hand batch on the 2-core box, in interleaved runs on a quiet machine, it
    lifted the two-thread ratio from 1.85-1.91x to 1.93-2.0x, the ceiling a C harness with spinning
    pthreads reaches there.
    """

    def __init__(self) -> None:
        self._go = threading.Lock()
        self._go.acquire()
        self._done = threading.Lock()
        self._done.acquire()
        self._job: Callable[[], int] | None = None
        # The last job's outcome: the row it returned, or the exception it raised (-1 while idle).
        self._result: int | BaseException = -1
        threading.Thread(target=self._loop, name="badacey_fast-helper", daemon=True).start()

    def _loop(self) -> None:
        while True:
            self._go.acquire()
            job = self._job
            if job is None:  # told to exit
                return
            try:
                self._result = job()
            except BaseException as exc:  # handed to the caller by wait()
                self._result = exc
            self._done.release()

    def start(self, job: Callable[[], int]) -> None:
        self._job = job
        self._go.release()

    def wait(self) -> int | BaseException:
        """Block until the job ends: its result, or the exception it raised."""
        self._done.acquire()
        result, self._result, self._job = self._result, -1, None  # hold no buffers while idle
        return result

    def stop(self) -> None:
        self._job = None
        self._go.release()


_IDLE: list[_Helper] = []  # helpers between jobs, shared by every caller
_IDLE_LOCK = threading.Lock()


def _forget_helpers() -> None:
    """In a forked child the helper threads do not exist: start afresh (or a job would wait forever)."""
    global _IDLE_LOCK
    _IDLE_LOCK = threading.Lock()
    _IDLE.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_helpers)


def run_shared(job: Callable[[], int], threads: int) -> int:
    """Run ``job()`` on ``threads`` threads at once (this one included) and return the smallest row any
    run reported (a run returns a bad row index or -1), or -1.

    ``job`` is a ``bd_*_shared`` kernel call: the runs share one counter and claim chunks of the batch
    from it in C, with the GIL released, so a slower core simply claims fewer chunks.  This thread
    starts on the batch at once; the helpers join as soon as they wake.  Helpers are taken from an
    idle list (made when none is idle, so concurrent callers never share one) and returned after;
    more idle helpers than CPUs are stopped.
    """
    with _IDLE_LOCK:
        helpers = [_IDLE.pop() for _ in range(min(threads - 1, len(_IDLE)))]
    try:
        helpers += [_Helper() for _ in range(threads - 1 - len(helpers))]
    except BaseException:  # e.g. "can't start new thread": keep the idle ones for later calls
        with _IDLE_LOCK:
            _IDLE.extend(helpers)
        raise
    for helper in helpers:
        helper.start(job)
    mine: int | BaseException
    try:
        mine = job()
    except BaseException as exc:  # the helpers still use the buffers: wait for every one, then raise
        mine = exc
    outcomes = [mine] + [helper.wait() for helper in helpers]
    with _IDLE_LOCK:
        keep = max(0, (os.cpu_count() or 1) - len(_IDLE))
        _IDLE.extend(helpers[:keep])
    for helper in helpers[keep:]:
        helper.stop()
    rows = []
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
        rows.append(outcome)
    bad = [row for row in rows if row >= 0]
    return min(bad) if bad else -1
