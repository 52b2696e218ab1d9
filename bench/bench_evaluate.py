"""Hand evaluation: C kernel vs the reference vs pokerkit, one pytest-benchmark group per operation.

Targets (issue 3, 2-core machine, one core unless stated): ``evaluate_many`` >= 200 M hands/s; single
``evaluate`` on a tuple of five ints <= 0.3 µs; two threads >= 1.8x one thread; ``import badacey_fast``
<= 30 ms.  Inputs are prepared outside the timed region; per-item rates are in ``extra_info``
(``items_per_call``; compare rates, not raw times, across cases with different batch sizes).
``python bench/side_by_side.py`` prints the same comparisons as one table.

Run::

    PYTHONPATH=. python -m pytest bench/bench_evaluate.py --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

import numpy as np
import pytest

from badacey_fast import evaluate

from badacey_fast.kernel import backend as _backend

from badacey_fast.tables import generate as _tablegen

from badacey_fast.bulk import evaluate as bulk

from badacey_fast.rules import reference as reference
from side_by_side import Case, fresh_python, measure_interleaved
from badacey_fast.cards import format_cards

SINGLES = 1000
MANY = 1_000_000


def _hands(n: int, seed: int = 2026) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.ascontiguousarray(np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.uint8))


def _tuples(n: int) -> list[tuple[int, ...]]:
    return [tuple(int(c) for c in row) for row in _hands(n, seed=7)]


def _items(benchmark, n: int) -> None:
    benchmark.extra_info["items_per_call"] = n


# ---- single-evaluate ---------------------------------------------------------------------------------


@pytest.mark.benchmark(group="single-evaluate")
def test_single_evaluate_c(benchmark):
    hands = _tuples(SINGLES)
    _items(benchmark, SINGLES)
    with _backend.using("c"):
        evaluate(hands[0])  # load the table outside the timing
        benchmark(lambda: [evaluate(h) for h in hands])


@pytest.mark.benchmark(group="single-evaluate")
def test_single_evaluate_reference(benchmark):
    hands = _tuples(SINGLES // 10)
    _items(benchmark, len(hands))
    benchmark(lambda: [(reference.low_rank(h), reference.badugi_rank(h)) for h in hands])


@pytest.mark.benchmark(group="single-evaluate")
def test_single_evaluate_pokerkit(benchmark):
    pokerkit = pytest.importorskip("pokerkit")  # the bench extra installs it; optional here
    texts = [format_cards(h).replace(" ", "") for h in _tuples(SINGLES // 100)]
    _items(benchmark, len(texts))
    benchmark(lambda: [(pokerkit.RegularLowHand(t), pokerkit.BadugiHand.from_game(t)) for t in texts])


# ---- evaluate-many -----------------------------------------------------------------------------------


@pytest.mark.benchmark(group="evaluate-many")
@pytest.mark.parametrize("threads", [1, 2])
def test_evaluate_many_c(benchmark, threads):
    hands = _hands(MANY)
    out = (np.empty(MANY, np.uint16), np.empty(MANY, np.uint16))
    _items(benchmark, MANY)
    with _backend.using("c"):
        bulk.evaluate_many(hands[:16], out=(out[0][:16], out[1][:16]))
        if threads > 1:
            # pytest-benchmark times each test on its own, seconds apart from the 1-thread test, so a noise
            # burst on a shared machine can land on one of them only: also record the ratio measured with
            # the two interleaved (alternating blocks of calls, as bench/side_by_side.py does), outside the timing.
            cases = [Case("evaluate-many", f"{t} thread(s)",
                          lambda t=t: lambda: bulk.evaluate_many(hands, out=out, threads=t), MANY)
                     for t in (1, threads)]
            one, many = measure_interleaved(cases, min_time=0.3, repeats=5)
            benchmark.extra_info["ratio_to_1_thread_interleaved"] = round(many.rate / one.rate, 3)
        benchmark(bulk.evaluate_many, hands, out=out, threads=threads)


@pytest.mark.benchmark(group="evaluate-many")
def test_evaluate_many_c_unchecked(benchmark):
    hands = _hands(MANY)
    out = (np.empty(MANY, np.uint16), np.empty(MANY, np.uint16))
    _items(benchmark, MANY)
    with _backend.using("c"):
        benchmark(bulk.evaluate_many, hands, out=out, check=False)


@pytest.mark.benchmark(group="evaluate-many")
def test_evaluate_many_numpy_twin(benchmark):
    hands = _hands(MANY // 10)
    _items(benchmark, MANY // 10)
    with _backend.using("python"):
        benchmark(bulk.evaluate_many, hands)


# ---- enumerate-all -----------------------------------------------------------------------------------


@pytest.mark.benchmark(group="enumerate-all")
def test_evaluate_all_c(benchmark):
    _items(benchmark, 2_598_960)
    with _backend.using("c"):
        bulk.evaluate_all()
        benchmark(bulk.evaluate_all)


@pytest.mark.benchmark(group="enumerate-all")
def test_evaluate_many_all_hands_c(benchmark):
    hands = bulk.all_hands()
    _items(benchmark, len(hands))
    with _backend.using("c"):
        benchmark(bulk.evaluate_many, hands, check=False)


@pytest.mark.benchmark(group="enumerate-all")
def test_all_hands(benchmark):
    _items(benchmark, 2_598_960)
    benchmark(bulk.all_hands)


# ---- table-build -------------------------------------------------------------------------------------


@pytest.mark.benchmark(group="table-build")
def test_table_build(benchmark, tmp_path):
    _items(benchmark, 2 * 2_598_960)
    benchmark.pedantic(_tablegen.build_tables, args=(tmp_path,), rounds=3, iterations=1)


# ---- import ------------------------------------------------------------------------------------------


def _import_seconds() -> float:
    code = "import time; t = time.perf_counter(); import badacey_fast; print(time.perf_counter() - t)"
    return float(fresh_python(code).stdout)


@pytest.mark.benchmark(group="import")
def test_import(benchmark):
    """Fresh-interpreter import; the timed figure includes interpreter start, extra_info has the import."""
    samples: list[float] = []
    benchmark.pedantic(lambda: samples.append(_import_seconds()), rounds=10, iterations=1)
    benchmark.extra_info["import_ms_median"] = round(sorted(samples)[len(samples) // 2] * 1e3, 2)
