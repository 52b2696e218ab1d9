"""Bulk showdowns and scoring files: C kernel vs the numpy reference path, one group per operation.

Targets (issue 4, one core): ``showdown_many`` 6 seats >= 20 M showdowns/s (chip form >= 10 M/s);
``badacey score`` >= 1 M deals/s end to end.  Inputs (random deals, deal-file bytes) are prepared outside
the timed region; the reference path runs on a much smaller batch (it evaluates hand by hand), so compare
per-row rates, not raw times (pytest-benchmark's "extra_info" carries rows per call).

Run::

    PYTHONPATH=. python -m pytest bench/bench_scoring.py --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from badacey_fast.kernel import backend as _backend
from badacey_fast.files.score import generate_deals, score_file
from badacey_fast.bulk.showdown import showdown_many, winners_many

ROWS = {"c": 1_000_000, "python": 2_000}
LINES = {"c": 1_000_000, "python": 1_000}


@pytest.fixture(params=["c", "python"])
def twin(request: pytest.FixtureRequest):
    """Serve every evaluation from one twin while the benchmark runs."""
    with _backend.using(request.param):
        yield request.param


def _hands(n: int, seats: int = 6) -> np.ndarray:
    rng = np.random.default_rng(2026)
    deck = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52)), axis=1)
    return np.ascontiguousarray(deck[:, : 5 * seats].reshape(n, seats, 5))


def _rate(benchmark, rows: int) -> None:
    benchmark.extra_info["rows_per_call"] = rows
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        benchmark.extra_info["M_rows_per_s"] = round(rows / stats.stats.median / 1e6, 3)


@pytest.mark.benchmark(group="showdown_many: 6 seats, shares")
def test_showdown_many_shares(benchmark, twin):
    hands = _hands(ROWS[twin])
    result = benchmark(showdown_many, hands)
    assert result.shape == (ROWS[twin], 6)
    _rate(benchmark, ROWS[twin])


@pytest.mark.benchmark(group="showdown_many: 6 seats, chips")
def test_showdown_many_chips(benchmark, twin):
    hands = _hands(ROWS[twin])
    pots = np.full(ROWS[twin], 1001, dtype=np.int64)
    result = benchmark(showdown_many, hands, pot=pots, button=3)
    assert (result.sum(axis=1) == 1001).all()
    _rate(benchmark, ROWS[twin])


@pytest.mark.benchmark(group="showdown_many: 2 seats, shares")
def test_showdown_many_heads_up(benchmark, twin):
    hands = _hands(ROWS[twin], seats=2)
    benchmark(showdown_many, hands)
    _rate(benchmark, ROWS[twin])


@pytest.mark.benchmark(group="winners_many: 6 seats")
def test_winners_many(benchmark, twin):
    hands = _hands(ROWS[twin])
    benchmark(winners_many, hands)
    _rate(benchmark, ROWS[twin])


@pytest.mark.benchmark(group="score_file: 6-seat plain-text deals, in memory")
def test_score_file(benchmark, twin):
    buf = io.BytesIO()
    generate_deals(LINES[twin], buf, seats=6, seed=2026)
    data = buf.getvalue()
    report = benchmark(lambda: score_file(io.BytesIO(data), io.BytesIO()))
    assert report.deals == LINES[twin]
    _rate(benchmark, LINES[twin])


@pytest.mark.benchmark(group="score_file: 6-seat CSV deals, in memory")
def test_score_file_csv(benchmark, twin):
    buf = io.BytesIO()
    generate_deals(LINES[twin], buf, seats=6, seed=2026, fmt="csv")
    data = buf.getvalue()
    report = benchmark(lambda: score_file(io.BytesIO(data), io.BytesIO()))
    assert report.deals == LINES[twin]
    _rate(benchmark, LINES[twin])


@pytest.mark.benchmark(group="showdown_many: 6 seats, shares into out=")
def test_showdown_many_shares_out(benchmark, twin):
    hands = _hands(ROWS[twin])
    out = np.empty((ROWS[twin], 6))
    assert benchmark(showdown_many, hands, out=out) is out
    _rate(benchmark, ROWS[twin])
