"""badacey_fast.dask: the same payouts, simulation and equity on the synchronous scheduler, the threaded
one and a 2-worker LocalCluster on 127.0.0.1 (small datasets: the whole file runs in seconds)."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("distributed")
import pyarrow.parquet as pq  # noqa: E402

from badacey_fast import dask as bdask  # noqa: E402
from badacey_fast.cli.command import main  # noqa: E402
from badacey_fast.errors import DuplicateCardError  # noqa: E402
from badacey_fast.files import arrow  # noqa: E402
from badacey_fast.game.bots import RandomBot, RuleBot  # noqa: E402

N_A, N_B = 12_000, 8_000


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("ds")
    (root / "deals").mkdir()
    arrow.generate_parquet(N_A, root / "deals" / "a.parquet", seed=1, row_group=4_000)
    arrow.generate_parquet(N_B, root / "deals" / "b.parquet", seed=2, row_group=4_000)
    expected = []
    for name in ("a", "b"):  # the one-process Parquet path, file by file
        arrow.score_parquet(root / "deals" / f"{name}.parquet", root / f"{name}-payouts.parquet")
        expected += _payouts(pq.read_table(root / f"{name}-payouts.parquet"))
    return root, expected


@pytest.fixture(scope="module")
def client():
    with bdask.local_client(2) as c:
        yield c


def _payouts(table) -> list[list[int]]:
    return np.column_stack([table[f"payout_{s}"].to_numpy() for s in range(6)]).tolist()


def _written(result) -> list[list[int]]:
    return [row for path in result.outputs for row in _payouts(pq.read_table(path))]


def _check(result, expected, tmp_path) -> None:
    assert result.report.deals == result.report.lines == N_A + N_B and result.report.bad == 0
    assert result.partitions == 3  # 8,000-row partitions of whole 4,000-row groups: a.parquet in 2, b in 1
    assert _written(result) == expected
    assert list(result.totals) == np.asarray(expected).sum(axis=0).tolist()


# The reference twin scores the 12,000 rows slowly (about a minute for both schedulers): CI's exhaustive
# step runs it; the C twin runs here, and the Python twin's Dask path runs in the tests below.
@pytest.mark.exhaustive("python")
@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_local_schedulers_match_the_parquet_path(dataset, scheduler, tmp_path) -> None:
    root, expected = dataset
    result = bdask.score_dataset(root / "deals", tmp_path / "out", scheduler=scheduler, partition_rows=8_000)
    _check(result, expected, tmp_path)
    glob = bdask.score_dataset(str(root / "deals" / "*.parquet"), None, scheduler=scheduler, partition_rows=8_000)
    assert glob.totals == result.totals and glob.outputs == ()


def test_local_cluster_matches(dataset, client, tmp_path) -> None:
    root, expected = dataset
    result = bdask.score_dataset(root / "deals", tmp_path / "out", client=client, partition_rows=8_000)
    _check(result, expected, tmp_path)


def test_bad_rows_are_numbered_across_the_dataset(tmp_path) -> None:
    rows = np.zeros((6, 2, 5), np.uint8)
    rows[:, 0], rows[:, 1] = [3, 6, 9, 12, 19], [4, 10, 13, 16, 23]
    rows[4, 1, 0] = 3  # row 5 of the dataset (row 2 of b.parquet) holds As twice
    (tmp_path / "d").mkdir()
    pq.write_table(arrow.deals_table(rows[:3]), tmp_path / "d" / "a.parquet")
    pq.write_table(arrow.deals_table(rows[3:]), tmp_path / "d" / "b.parquet")
    with pytest.raises(DuplicateCardError, match=r"^row 5: card 'As' is held twice \(seat 0 and seat 1\) "
                                                 r"\(in .*b\.parquet, its row 2\)$"):
        bdask.score_dataset(tmp_path / "d", tmp_path / "o", scheduler="sync")
    result = bdask.score_dataset(tmp_path / "d", tmp_path / "o", scheduler="sync", skip_bad=True)
    assert (result.report.lines, result.report.deals, result.report.bad) == (6, 5, 1)
    assert result.report.errors[0][0] == 5
    assert [pq.read_table(p)["row"].to_pylist() for p in result.outputs] == [[1, 2, 3], [4, 6]]


def test_simulate_and_equity_same_on_one_and_two_workers(client) -> None:
    bots = [RuleBot(), RandomBot(), RandomBot()]
    one = bdask.simulate(bots, hands=600, seed=9, partition_hands=200, scheduler="sync")
    assert one == bdask.simulate(bots, hands=600, seed=9, partition_hands=200, client=client)
    assert one == bdask.simulate(bots, hands=600, seed=9, partition_hands=200, scheduler="threads")
    assert one.hands == 600 and sum(one.totals) == 0
    assert one != bdask.simulate(bots, hands=600, seed=10, partition_hands=200, scheduler="sync")
    hands, discards = ["As 2h 3d Kc Kd", "2c 3s 4h 5d 6c"], ["Kc Kd", None]
    eq = bdask.equity(hands, discards, samples=30_000, partition_samples=10_000, scheduler="sync")
    assert eq == bdask.equity(hands, discards, samples=30_000, partition_samples=10_000, client=client)
    assert abs(eq.shares[0] - 0.0645) < 4 * eq.stderr[0] and eq.outcomes == 30_000  # exact: 0.0645


@pytest.mark.exhaustive("python")
def test_cli_dask_paths(dataset, tmp_path, capsys) -> None:
    root, expected = dataset
    args = ["score", str(root / "deals"), "-o", str(tmp_path / "o"), "--dask", "--no-progress", "-q"]
    assert main([*args, "--local-scheduler", "sync"]) == 0
    got = [row for p in sorted((tmp_path / "o").iterdir()) for row in _payouts(pq.read_table(p))]
    assert got == expected
    assert main(["simulate", "--dask", "--hands", "300", "--seed", "4", "--partition-hands", "100",
                 "--bots", "rule,random", "--no-progress", "--local-scheduler", "sync"]) == 0
    first = capsys.readouterr().out
    assert main(["simulate", "--dask", "--hands", "300", "--seed", "4", "--partition-hands", "100",
                 "--bots", "rule,random", "--no-progress"]) == 0
    assert capsys.readouterr().out == first
    assert main([*args, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "not both" in capsys.readouterr().err


@pytest.mark.exhaustive("python")
def test_one_worker_with_two_threads_beside_another_cluster(dataset, client, tmp_path, capsys) -> None:
    # A second LocalCluster while the module's is up: each scheduler's HTTP server takes a free port (both
    # on distributed's default 8787 the second failed to start).  Two threads in one worker process run two
    # partitions at once on one copy of the kernel's table; tasks with and without helper threads agree.
    root, expected = dataset
    with bdask.local_client(1, threads_per_worker=2) as two_threads:
        assert sum(two_threads.ncores().values()) == 2
        for threads in (True, False):
            result = bdask.score_dataset(root / "deals", tmp_path / f"out-{threads}", client=two_threads,
                                         partition_rows=8_000, threads=threads)
            _check(result, expected, tmp_path)
    args = ["score", str(root / "deals"), "-o", str(tmp_path / "cli"), "--dask", "--no-progress", "--workers", "1"]
    assert main([*args, "--threads-per-worker", "2"]) == 0
    assert "2 partitions on 1 worker of 2 threads" in capsys.readouterr().err
    assert [row for p in sorted((tmp_path / "cli").iterdir()) for row in _payouts(pq.read_table(p))] == expected
    assert main([*args, "--threads-per-worker", "0"]) == 2
    assert "--threads-per-worker must be at least 1, got 0" in capsys.readouterr().err


def test_import_histories_is_the_same_on_every_scheduler_and_partitioning(client, tmp_path) -> None:
    from pathlib import Path

    from badacey_fast.histories import parse

    data = Path(__file__).parent / "data" / "histories"
    hands = list(parse(data, on_bad_hand="error"))
    sync = bdask.import_histories(data, scheduler="sync", table=True)
    assert sync.partitions == 1 and sync.hands == len(hands) == 15 and sync.problems == ()
    assert sync.counts[("KingsClub", "Badacey")] == {"read": 1, "replayed": 1, "agree": 0, "disagree": 1,
                                                    "skipped": 0, "malformed": 0}
    assert sync.disagreements == {"odd chip": 1, "rule difference": 1} and len(sync.report) == 2
    assert sync.table.num_rows == 46
    for other in (bdask.import_histories(data, scheduler="threads", partition_bytes=1, table=True),
                  bdask.import_histories(data, client=client, partition_bytes=4096, table=True)):
        assert other.partitions > 1
        assert (other.counts, other.disagreements, other.skipped) == (sync.counts, sync.disagreements, sync.skipped)
        assert sorted(other.report) == sorted(sync.report)
        assert other.table.sort_by([("hand_id", "ascending"), ("player", "ascending")]).equals(
            sync.table.sort_by([("hand_id", "ascending"), ("player", "ascending")]))
    (tmp_path / "bad.txt").write_text("junk\n")
    bad = bdask.import_histories(tmp_path, scheduler="sync", check=False)
    assert bad.hands == 0 and bad.problems == (f"{tmp_path / 'bad.txt'}:1: 1 line that no room writes "
                                               "(garbage, or a room this reader does not know)",)
    with pytest.raises(ValueError, match="unknown site 'nowhere'"):
        bdask.import_histories(data, site="nowhere")


def _bad_dataset(folder, bad_rows: list[int], files: int = 4, rows: int = 100) -> None:
    """``files`` 2-seat Parquet files of ``rows`` rows (a partition each); each row of ``bad_rows`` (1-based,
    over the dataset) holds As twice."""
    folder.mkdir()
    for i in range(files):
        cards = np.zeros((rows, 2, 5), np.uint8)
        cards[:, 0], cards[:, 1] = [3, 6, 9, 12, 19], [4, 10, 13, 16, 23]
        for r in bad_rows:
            if i * rows < r <= (i + 1) * rows:
                cards[r - 1 - i * rows, 1, 0] = 3
        pq.write_table(arrow.deals_table(cards), folder / f"f{i}.parquet")


@pytest.mark.parametrize("where", ["sync", "threads", "cluster"])
def test_a_bad_row_stops_the_run_and_writes_nothing(tmp_path, client, where) -> None:
    # The issue's case: a bad row in partition 0 raised "row 6", yet the later partitions' rows were
    # written.  Now the first bad row of the dataset is named and the output folder is not touched.
    _bad_dataset(tmp_path / "d", [6, 150, 399])
    run = {"client": client} if where == "cluster" else {"scheduler": where}
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "old.parquet").write_bytes(b"the old payouts")
    for dst, overwrite in ((tmp_path / "o", True), (tmp_path / "new", False)):
        with pytest.raises(DuplicateCardError, match=r"^row 6: card 'As' is held twice"):
            bdask.score_dataset(tmp_path / "d", dst, partition_rows=100, overwrite=overwrite, **run)
    assert [p.name for p in (tmp_path / "o").iterdir()] == ["old.parquet"] and not (tmp_path / "new").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "o"]  # no temporary folder left
    result = bdask.score_dataset(tmp_path / "d", tmp_path / "new", partition_rows=100, skip_bad=True, **run)
    assert [e[0] for e in result.report.errors] == [6, 150, 399] and result.report.deals == 397


def test_partitions_after_a_failing_one_stop(tmp_path) -> None:
    # The mechanism behind stopping early, on any scheduler: a partition that stops at a bad row marks
    # its index in the run's folder; a later partition then does not start (or stops at its next batch),
    # an earlier one runs on (it may hold an earlier bad row).
    _bad_dataset(tmp_path / "d", [150])
    folder = tmp_path / ".payouts.tmp"
    folder.mkdir()
    args = ("badacey", "position", 120, 0, False, False, None)
    failing = bdask._score_partition(str(tmp_path / "d" / "f1.parquet"), [0], 101, str(folder / "part-00001.parquet"),
                                     *args, 1)
    assert failing["failure"][1].startswith("row 150: ") and os.listdir(folder / ".stopped") == ["00000001"]
    later = bdask._score_partition(str(tmp_path / "d" / "f3.parquet"), [0], 301, str(folder / "part-00003.parquet"),
                                   *args, 3)
    assert later == {"abandoned": True} and not (folder / "part-00003.parquet").exists()
    earlier = bdask._score_partition(str(tmp_path / "d" / "f0.parquet"), [0], 1, str(folder / "part-00000.parquet"),
                                     *args, 0)
    assert earlier["failure"] is None and earlier["deals"] == 100 and (folder / "part-00000.parquet").exists()
    shutil.rmtree(folder)  # the client gave the run up: a partition that starts now does nothing
    gone = bdask._score_partition(str(tmp_path / "d" / "f2.parquet"), [0], 201, str(folder / "part-00002.parquet"),
                                  *args, 2)
    assert gone == {"abandoned": True} and not folder.exists()


def test_simulate_merges_its_partitions_exactly_whatever_the_chips() -> None:
    # Bets of a billion chips: each seat's sum of squares is beyond a float's 53 bits, so a merge that
    # rebuilt it from each partition's mean and interval (floats) would be off; the merge adds exact sums.
    from badacey_fast.game import GameConfig

    config = GameConfig(small_blind=10**9, big_blind=2 * 10**9, small_bet=2 * 10**9, big_bet=4 * 10**9)
    r = bdask.simulate([RandomBot(), RandomBot(), RuleBot()], 90, seed=3, config=config, scheduler="sync",
                       partition_hands=20, records=True)
    assert r.records is not None
    net = [[int(x) for x in r.records.net[:, s]] for s in range(3)]
    assert list(r.totals) == [sum(col) for col in net] and sum(r.totals) == 0
    assert list(r.squares) == [sum(x * x for x in col) for col in net]
    assert max(r.squares) > 2**53 * 1000                           # really beyond a float's exact integers


@pytest.mark.backend_independent  # the local scheduler's threads; no evaluation
@pytest.mark.parametrize("outcome", ["done", "error", "interrupt"])
def test_the_threaded_scheduler_leaves_no_worker_thread_behind(outcome) -> None:
    # A run on the threaded scheduler must not leave a worker thread waiting once it ends, however it
    # ends: a worker left waiting (never registered for the interpreter's exit, as one is when Ctrl-C lands
    # inside the pool's submit) kept the `badacey` command from exiting after "interrupted".
    import threading

    import dask

    def task(i: int) -> int:
        if outcome == "error" and i == 3:
            raise DuplicateCardError("a bad task")
        if outcome == "interrupt" and i == 3:
            raise KeyboardInterrupt
        return i * i

    before = set(threading.enumerate())
    tasks = [dask.delayed(task)(i) for i in range(8)]
    if outcome == "done":
        assert bdask._run(tasks, None, "threads", progress=False) == [i * i for i in range(8)]
    else:
        with pytest.raises(DuplicateCardError if outcome == "error" else KeyboardInterrupt):
            bdask._run(tasks, None, "threads", progress=False)
    started = [t for t in set(threading.enumerate()) - before if not t.daemon]
    assert started, "the run used no worker thread: the test holds nothing"
    for t in started:
        t.join(timeout=10)
    assert [t.name for t in started if t.is_alive()] == []
