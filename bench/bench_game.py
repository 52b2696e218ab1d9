"""Rules-engine timing: complete random 6-max hands through the Python API, side by side with pokerkit.

Target (issue 5, one core): >= 20,000 complete random 6-max Badacey hands per second, random bots and
showdowns included.  pokerkit plays the same kind of random hands (2-7 triple draw: it has no Badacey).
Each round plays a batch of hands; hands/s = batch / time per round.  The hands are set up by the
workload itself (a hand *is* its setup), the random generators are created outside the timed region.

Run::

    PYTHONPATH=. python -m pytest bench/bench_game.py --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

import pytest

from badacey_fast.kernel import backend as _backend
from badacey_fast.game import GameConfig
from workloads import badacey_hands, pokerkit_hands

BATCH = 1000
PK_BATCH = 20


@pytest.fixture(params=["c", "python"])
def twin(request: pytest.FixtureRequest):
    """Serve every showdown evaluation from one twin while the benchmark runs."""
    with _backend.using(request.param):
        yield request.param


@pytest.mark.benchmark(group="game: 1000 random 6-max hands (Python API, random bots, showdowns)")
def test_random_hands_badacey(benchmark, twin):
    assert benchmark(badacey_hands, BATCH) == BATCH


@pytest.mark.benchmark(group="game: 1000 random 6-max hands (Python API, random bots, showdowns)")
def test_random_hands_27_same_game_as_pokerkit(benchmark, twin):
    config = GameConfig(game="27")
    assert benchmark(badacey_hands, BATCH, config) == BATCH


@pytest.mark.benchmark(group="game: 20 random 6-max hands per round, ours beside pokerkit (2-7 triple draw)")
def test_random_hands_27_small_batch(benchmark):
    with _backend.using("c"):
        assert benchmark(badacey_hands, PK_BATCH, GameConfig(game="27")) == PK_BATCH


@pytest.mark.benchmark(group="game: 20 random 6-max hands per round, ours beside pokerkit (2-7 triple draw)")
def test_random_hands_pokerkit(benchmark):
    pytest.importorskip("pokerkit")  # bench extra; the test suite itself requires pokerkit
    assert benchmark.pedantic(pokerkit_hands, args=(PK_BATCH,), rounds=3, iterations=1) == PK_BATCH
