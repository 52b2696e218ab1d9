"""Scale-out with Dask: score Parquet deal datasets, simulate and run Monte Carlo equity on many cores or
machines (``pip install "badacey_fast[dask]"``), in the manner of ``xgboost.dask`` / ``lightgbm.dask``.

Every call splits its work into *partitions* whose layout depends only on the arguments (the dataset's
row groups, ``hands``, ``samples`` and the partition size), never on the number of workers, and derives
each partition's seed from the one ``seed`` (``numpy.random.SeedSequence(seed).spawn``): the result is
identical on 1 or N workers, on the synchronous, threaded or distributed scheduler.

- ``client=None`` runs on Dask's local scheduler inside this process (``scheduler="threads"`` by default;
  ``"sync"`` runs the partitions one after another, ``"processes"`` in a local process pool);
- ``client=distributed.Client(...)`` runs on that cluster: a ``LocalCluster`` (:func:`local_client`) or a
  real one (``Client("tcp://scheduler:8786")``, every worker with ``badacey_fast[dask]`` installed).

The functions shipped to the workers are the module-level ``_score_partition``, ``_simulate_partition``
and ``_equity_partition`` of this installed module: workers import them, nothing is pickled by value
(the bots given to :func:`simulate` are pickled as objects of their importable classes).

Partition sizing: a task costs ~3 ms of scheduling, so partitions of 0.5-2 M deals (a few hundred ms of
work each) keep the overhead under 1 %; deal files written by ``generate_parquet`` have 1 Mi-row row groups,
and a partition is a run of whole row groups.
"""

from __future__ import annotations

import contextlib
import copy
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from badacey_fast.errors import BadaceyError, PartitionAbandoned
from badacey_fast.files.score import DEFAULT_POT, ScoreReport

if TYPE_CHECKING:
    from distributed import Client

    from badacey_fast.cards import Cards
    from badacey_fast.draw.equities import Equity
    from badacey_fast.game.config import GameConfig
    from badacey_fast.game.simulate import Bot, SimulationResult

    from badacey_fast.files.arrow import Codec

__all__ = ["DatasetResult", "require_dask", "score_dataset", "simulate", "equity", "local_client", "partition_seeds",
           "PARTITION_ROWS", "PARTITION_HANDS", "PARTITION_SAMPLES", "HistoriesResult", "import_histories",
           "PARTITION_BYTES"]

#: Deals per partition of :func:`score_dataset` (whole row groups are grouped up to this many rows).
PARTITION_ROWS = 1 << 20
#: Hands per partition of :func:`simulate` (~0.5 s of play each).
PARTITION_HANDS = 10_000
#: Monte Carlo samples per partition of :func:`equity`.
PARTITION_SAMPLES = 200_000
#: Bytes of hand-history files per partition of :func:`import_histories` (whole files: ~10-20 thousand hands).
PARTITION_BYTES = 16 << 20


def require_dask() -> Any:
    """The ``dask`` module, or an ImportError naming the extra that brings it (``badacey_fast[dask]``)."""
    try:
        import dask
        import pyarrow  # noqa: F401 - the [dask] extra brings both
    except ImportError:
        raise ImportError('the Dask layer needs dask and pyarrow: pip install "badacey_fast[dask]"') from None
    return dask


def partition_seeds(seed: int | None, parts: int) -> list[int]:
    """One 32-bit seed per partition, derived from ``seed`` (partition i's seed does not depend on ``parts``).

    >>> partition_seeds(7, 3)[:2] == partition_seeds(7, 2)
    True
    """
    root = np.random.SeedSequence(seed)
    return [int(child.generate_state(1)[0]) for child in root.spawn(parts)]


@contextlib.contextmanager
def local_client(workers: int = 2, *, threads_per_worker: int = 1, **kwargs: Any) -> Iterator[Client]:
    """A ``distributed.Client`` on a ``LocalCluster`` of ``workers`` processes bound to 127.0.0.1 (no
    dashboard), closed on exit.  Keyword arguments go to ``LocalCluster``."""
    require_dask()
    from distributed import Client, LocalCluster

    # The scheduler's HTTP server (health and metrics routes) always starts: on a free port of 127.0.0.1,
    # not on 8787 (distributed's default, even with no dashboard), which a second cluster on the machine
    # (another local_client, another user's) would find taken.
    options = dict(n_workers=workers, threads_per_worker=threads_per_worker, processes=True, host="127.0.0.1",
                   dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
    options.update(kwargs)
    with LocalCluster(**options) as cluster, Client(cluster) as client:
        yield client


def _run(tasks: list[Any], client: Client | None, scheduler: str | None, progress: bool) -> list[Any]:
    """Compute delayed ``tasks`` on ``client`` or the local ``scheduler``; results in task order."""
    dask = require_dask()
    # The bar (``progress``) is tqdm's, on stderr, drawn only when stderr is a terminal: dask's own bars
    # write to stdout, which holds the results.
    if client is not None:
        futures = client.compute(tasks)
        try:
            if progress:
                from distributed import as_completed
                from tqdm import tqdm

                with tqdm(total=len(futures), unit=" partitions", file=sys.stderr, disable=None) as shown:
                    for done in as_completed(futures):
                        if done.status == "error":  # gather raises it now: the rest is not waited for
                            break
                        shown.update(1)
            gathered: list[Any] = client.gather(futures)
        except BaseException:  # an error or an interrupt: the tasks not yet run are not wanted
            client.cancel(futures)
            raise
        return gathered
    scheduler = scheduler or "threads"
    if scheduler not in ("threads", "sync", "synchronous", "processes", "single-threaded"):
        raise BadaceyError(f"unknown local scheduler {scheduler!r}: expected threads, sync or processes")
    bar: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
    if progress:
        from tqdm.dask import TqdmCallback

        bar = TqdmCallback(unit=" tasks", file=sys.stderr, disable=None)
    if scheduler != "threads" or dask.config.get("pool", None) is not None:
        with bar:
            return list(dask.compute(*tasks, scheduler=scheduler))
    # The threaded scheduler on a pool of this run's own, shut down when the run ends however it ends.
    # Dask's default pool lives for the process and is shut down by atexit, which runs only after the
    # interpreter has joined every worker thread: a Ctrl-C landing inside the pool's submit, between a new
    # worker's start and its registration, leaves that worker waiting on the queue with nothing to wake it,
    # and the command hung at exit after printing "interrupted".  shutdown() puts the wake-up on the
    # queue, so every worker of the pool, registered or not, ends once its task (which sees the run's
    # folder gone and stops at its next batch) is done.
    from concurrent.futures import ThreadPoolExecutor

    import dask.threaded
    from dask.system import CPU_COUNT

    executor = getattr(dask.threaded, "ContextAwareThreadPoolExecutor", ThreadPoolExecutor)
    pool = executor(dask.config.get("num_workers", None) or CPU_COUNT, thread_name_prefix="badacey-dask")
    try:
        with bar:
            return list(dask.compute(*tasks, scheduler=scheduler, pool=pool))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


# ------------------------------------------------------------------------------------------------------
# Scoring a dataset


@dataclass(frozen=True)
class DatasetResult:
    """What :func:`score_dataset` did: the :class:`ScoreReport` over the whole dataset (``lines`` = rows
    read), each seat's total payout (exact ints, never wrapped), the partitions run and the payout files written (empty without
    ``dst``)."""

    report: ScoreReport
    totals: tuple[int, ...]
    partitions: int
    outputs: tuple[str, ...]


def _partitions(files: list[str], rows: int) -> tuple[list[tuple[str, list[int], int, int]], int | None]:
    """(file, row groups, first row number, rows) per partition: whole row groups up to ``rows`` rows; and
    the dataset's seat count (None: no file tells).  Every file is opened and its schema checked here,
    before anything is written: a damaged file, a schema the scorer refuses, or files that disagree on the
    payouts' layout (seat count, ``id`` column) raise an error naming the files."""
    from badacey_fast.files.arrow import deal_layout, open_parquet

    out = []
    first = 1
    layouts: dict[tuple[int | None, str], list[str]] = {}
    for path in files:
        f = open_parquet(path)
        seats, id_type = deal_layout(f, path)
        layouts.setdefault((seats, "row numbers" if id_type is None else f"id {id_type}"), []).append(path)
        meta = f.metadata
        group: list[int] = []
        held = 0
        for g in range(meta.num_row_groups):
            n = meta.row_group(g).num_rows
            if group and held + n > rows:
                out.append((path, group, first, held))
                first, group, held = first + held, [], 0
            group.append(g)
            held += n
        if group:
            out.append((path, group, first, held))
            first += held
    seat_counts = {seats for seats, _ in layouts if seats is not None}
    ids = {ids for _, ids in layouts}
    if len(seat_counts) > 1 or len(ids) > 1:  # files with no cards row fit any seat count
        def listed(paths: list[str]) -> str:
            return ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")

        groups = "; ".join(f"{'any number of' if seats is None else seats} seats, {ids}: {listed(paths)}"
                           for (seats, ids), paths in sorted(layouts.items(), key=lambda kv: kv[1][0]))
        raise BadaceyError(f"the dataset's files do not agree on the payouts' layout (seats, id column), so "
                           f"their payouts cannot make one dataset: {groups}; score them apart")
    return out, (seat_counts.pop() if seat_counts else None)


#: Where in a run's new payout folder a partition that stopped at a bad row leaves its index, so that the
#: partitions after it stop too (the run fails and its folder goes, whatever they would write).
_STOPS = ".stopped"


def _stop_here(folder: str, index: int) -> bool:
    """Whether partition ``index`` should stop: the folder is gone, or an earlier partition stopped."""
    if not os.path.isdir(folder):
        return True
    try:
        return any(int(name) < index for name in os.listdir(os.path.join(folder, _STOPS)))
    except FileNotFoundError:
        return False


def _score_partition(path: str, row_groups: list[int], first_row: int, out: str | None, game: str,
                     odd_chip: str, pot: int, button: int, skip_bad: bool, threads: bool = True,
                     compression: Codec | None = None, index: int = 0, seats: int | None = None) -> dict[str, Any]:
    """Score some row groups of one Parquet file (a worker task) with the one scoring loop of
    :func:`~badacey_fast.files.arrow.score_parquet` (the same batches, kernel call and writer), writing its
    payouts itself (``out``, in the run's new payout folder): only tallies, per-seat totals and the first
    error go back to the client.  ``seats``: the dataset's seat count, for a file whose schema does not
    say it (binary cards without metadata): rows of another width are then bad rows, and a partition
    without a row still writes payouts of the dataset's layout.

    Stopping: a partition that meets a bad row (without ``skip_bad``) marks its ``index`` in the folder,
    and every later partition stops at its next batch, or does not start: the run fails at the first bad
    row of the dataset, which only earlier partitions can hold, so they alone run on.  A partition whose
    folder is gone (the client gave the run up: an error, an interrupt) stops the same way.  A stopped
    partition returns ``{"abandoned": True}``."""
    from badacey_fast.files.arrow import (BATCH_ROWS, PAYOUT_COMPRESSION, PayoutWriter, ScoreRun, open_parquet,
                                          parquet_batches, score_batches)

    folder = None if out is None else os.path.dirname(out)

    def go_on(rows: int) -> None:  # between batches: a stat call or two
        if folder is not None and _stop_here(folder, index):
            raise PartitionAbandoned

    try:
        go_on(0)
        f = open_parquet(path)
        run = ScoreRun(game, odd_chip, pot, button, skip_bad)
        run.start(f.schema_arrow)
        if run.width is None and seats is not None:
            run.width = 5 * seats
        run.rows = first_row - 1  # row numbers count from the dataset's first row
        writer = None if out is None else PayoutWriter(out, "parquet", compression or PAYOUT_COMPRESSION)
        failure = score_batches(run, f.schema_arrow, parquet_batches(f, BATCH_ROWS, row_groups, name=path), writer,
                                threads=threads, progress=go_on)
    except PartitionAbandoned:
        return {"abandoned": True}
    if failure is not None and folder is not None:
        stops = os.path.join(folder, _STOPS)
        with contextlib.suppress(FileNotFoundError):  # the folder is gone: nothing is left to stop
            with contextlib.suppress(FileExistsError):
                os.mkdir(stops)  # (not makedirs: that would make a folder the client has removed again)
            open(os.path.join(stops, f"{index:08d}"), "wb").close()
    return {"rows": run.rows - first_row + 1, "deals": run.deals, "bad": run.bad, "errors": run.errors,
            "totals": run.totals,
            "failure": None if failure is None else (type(failure).__name__, str(failure), run.rows + 1, path)}


def score_dataset(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str] | None = None,
    *,
    game: str = "badacey",
    odd_chip: str = "position",
    pot: int = DEFAULT_POT,
    button: int = 0,
    skip_bad: bool = False,
    overwrite: bool = False,
    client: Client | None = None,
    scheduler: str | None = None,
    partition_rows: int = PARTITION_ROWS,
    progress: bool = False,
    threads: bool = True,
    compression: Codec | None = None,
) -> DatasetResult:
    """Score a Parquet deal dataset (a file, a directory of ``*.parquet`` files or a glob) partition by
    partition on Dask, and write the payouts as ``dst/part-NNNNN.parquet`` (payout schema of
    :mod:`badacey_fast.files.arrow`; nothing written when ``dst`` is None).

    The ``dst`` folder is written whole or not at all (:class:`~badacey_fast.files.outputs.AtomicFolder`):
    the tasks write into a new hidden folder beside it, which takes its place when every partition is
    done.  A run that fails or is interrupted leaves the old folder as it was and no temporary.  A
    ``dst`` that exists and is not empty is refused unless ``overwrite=True``, which replaces the whole
    folder (files this run did not write included); a ``dst`` that holds an input file, or is one, is
    always refused.  All of this is decided before any partition runs, as is the check that every file
    is readable Parquet with a schema the scorer takes, and that the files agree on the seat count and
    the ``id`` column (their payouts must make one dataset): the error names the files that differ.

    Row numbers count the dataset's rows from 1 in file order (files sorted by name).  A bad row stops
    the run as in :func:`~badacey_fast.files.arrow.score_parquet`, unless ``skip_bad``: it raises the text
    path's error with its row number (the first bad row of the dataset) and ``dst`` keeps its old folder.
    With ``dst``, the partitions after a failing one stop at their next batch (or do not start).
    Returns a :class:`DatasetResult` with the report and per-seat totals.

    Each task scores its partition as :func:`~badacey_fast.files.arrow.score_parquet` does (``threads``:
    with its reader and writer helper threads; ``compression`` of the payout files, uncompressed by
    default) and writes its own payout file: nothing bigger than the per-seat totals crosses the network.
    """
    require_dask()
    from dask.delayed import delayed

    from badacey_fast import errors
    from badacey_fast.files.arrow import ScoreRun, dataset_files
    from badacey_fast.files.outputs import AtomicFolder, check_not_input

    ScoreRun(game, odd_chip, pot, button, skip_bad)  # the arguments' errors here, not on a worker
    if type(partition_rows) is not int or partition_rows < 1:
        raise BadaceyError(f"partition_rows must be at least 1, got {partition_rows!r}")
    files = dataset_files(src)
    if dst is not None:
        check_not_input(dst, files)  # before anything is written
    parts, seats = _partitions(files, partition_rows)  # every file's schema, before anything is written
    names = [f"part-{i:05d}.parquet" for i in range(len(parts))] if dst is not None else []
    folder = None if dst is None else AtomicFolder(dst, overwrite=overwrite)
    with folder if folder is not None else contextlib.nullcontext():
        task = delayed(_score_partition, pure=False)
        tasks = [task(path, groups, first, None if folder is None else os.path.join(folder.path, names[i]), game,
                      odd_chip, pot, button, skip_bad, threads, compression, i, seats)
                 for i, (path, groups, first, _) in enumerate(parts)]
        results = _run(tasks, client, scheduler, progress) if tasks else []
        failures = [r["failure"] for r in results if r.get("failure") is not None]
        if failures:  # the first bad row of the dataset, named in the dataset and in its file
            name, message, row, path = min(failures, key=lambda f: f[2])
            start = min(first for p, _, first, _ in parts if p == path)
            raise getattr(errors, name, BadaceyError)(f"{message} (in {path}, its row {row - start + 1})")
        if folder is not None and any(r.get("abandoned") for r in results):
            raise BadaceyError(f"the payout folder being written beside {folder.target!r} disappeared during the "
                               "run: nothing was written")
    totals: list[int] = []  # Python ints: exact, whatever the pots and the number of partitions
    for r in results:
        if r["totals"] is not None:
            totals = [a + b for a, b in zip(totals, r["totals"], strict=True)] if totals else list(r["totals"])
    errs = [e for r in results for e in r["errors"]][:100]
    report = ScoreReport(sum(r["rows"] for r in results), sum(r["deals"] for r in results),
                         sum(r["bad"] for r in results), errs)
    outputs = tuple(os.path.join(os.fspath(dst), name) for name in names) if dst is not None else ()
    return DatasetResult(report, tuple(totals), len(parts), outputs)


# ------------------------------------------------------------------------------------------------------
# Simulation


def _simulate_partition(bots: Sequence[Bot], hands: int, seed: int, config: GameConfig,
                        stack: int | None, engine: str, records: bool) -> SimulationResult:
    from badacey_fast.game.simulate import simulate as play

    return play(copy.deepcopy(list(bots)), hands=hands, seed=seed, config=config, stack=stack, engine=engine,
                records=records)


def _sizes(total: int, size: int) -> list[int]:
    return [min(size, total - lo) for lo in range(0, total, size)]


def simulate(
    bots: Sequence[Bot],
    hands: int = 100_000,
    seed: int | None = 0,
    config: GameConfig | str | None = None,
    stack: int | None = None,
    *,
    client: Client | None = None,
    scheduler: str | None = None,
    partition_hands: int = PARTITION_HANDS,
    progress: bool = False,
    engine: str = "auto",
    records: bool = False,
) -> SimulationResult:
    """:func:`badacey_fast.game.simulate` sharded by partitions of ``partition_hands`` hands, each seeded
    from ``seed`` (:func:`partition_seeds`; ``None`` draws one): the same result on 1 or N workers.  Each
    partition plays with its own copies of ``bots``.  ``engine``: as :func:`badacey_fast.game.simulate`
    takes it, decided here once (:func:`~badacey_fast.game.simulate.resolve_engine`) so that every
    partition plays on the same hand loop whatever its worker's backend (the C loop in every partition
    when it applies).  ``records=True``: every partition's per-hand records, joined in partition order
    (:meth:`~badacey_fast.game.records.HandRecords.concat`).  Returns a
    :class:`~badacey_fast.game.simulate.SimulationResult` over all ``hands`` hands.

    >>> from badacey_fast.game.bots import RandomBot, RuleBot
    >>> r = simulate([RuleBot(), RandomBot()], hands=300, seed=4, partition_hands=100, scheduler="sync",
    ...              records=True)
    >>> r.hands, len(r.records), r.records.net.sum(axis=0).tolist() == list(r.totals)
    (300, 300, True)
    """
    require_dask()
    from dask.delayed import delayed

    from badacey_fast.errors import ConfigError
    from badacey_fast.game.config import GameConfig
    from badacey_fast.game.simulate import resolve_engine, summarize

    if isinstance(config, str) or config is None:
        config = GameConfig() if config is None else GameConfig(game=config)
    if not 2 <= len(bots) <= 6:
        raise ConfigError(f"a hand needs 2 to 6 seats, got {len(bots)}")
    if type(hands) is not int or hands < 1:
        raise ConfigError(f"hands must be a positive int, got {hands!r}")
    if type(partition_hands) is not int or partition_hands < 1:
        raise ConfigError(f"partition_hands must be a positive int, got {partition_hands!r}")
    config.check_seats(len(bots))
    played_on = resolve_engine(bots, config, engine, stack)
    sizes = _sizes(hands, partition_hands)
    seeds = partition_seeds(seed, len(sizes))
    task = delayed(_simulate_partition, pure=True)
    parts: list[SimulationResult]
    parts = _run([task(list(bots), k, s, config, stack, played_on, records) for k, s in zip(sizes, seeds)], client,
                 scheduler, progress)
    n = len(bots)
    totals, squares = [0] * n, [0] * n
    for r in parts:  # Python ints: the sums of every partition's exact sums, never wrapped nor rounded
        for i in range(n):
            totals[i] += r.totals[i]
            squares[i] += r.squares[i]
    result = summarize(parts[0].names, hands, parts[0].big_blind, totals, squares, sum(r.showdowns for r in parts))
    if not records:
        return result
    from dataclasses import replace

    from badacey_fast.game.records import HandRecords

    return replace(result, records=HandRecords.concat([r.records for r in parts if r.records is not None]))


# ------------------------------------------------------------------------------------------------------
# Monte Carlo equity


def _equity_partition(hands: Sequence[Cards | None], discards: Sequence[Cards | None] | None, dead: Cards,
                      game: str, samples: int, seed: int) -> Equity:
    from badacey_fast.draw.equities import equity as one

    return one(hands, discards, dead, game, samples=samples, seed=seed)


def equity(
    hands: Sequence[Cards | None],
    discards: Sequence[Cards | None] | None = None,
    dead: Cards = (),
    game: str = "badacey",
    samples: int = 1_000_000,
    seed: int | None = 0,
    *,
    client: Client | None = None,
    scheduler: str | None = None,
    partition_samples: int = PARTITION_SAMPLES,
    progress: bool = False,
) -> Equity:
    """Monte Carlo :func:`badacey_fast.draw.equity` with ``samples`` samples in partitions of
    ``partition_samples``, each seeded from ``seed``: the same :class:`~badacey_fast.draw.Equity` on 1 or
    N workers (``exact`` is False; ``stderr`` is over all samples)."""
    require_dask()
    from dask.delayed import delayed

    from badacey_fast.draw.equities import Equity, equity as one

    if type(samples) is not int or samples < 1 or type(partition_samples) is not int or partition_samples < 1:
        raise BadaceyError(f"samples and partition_samples must be positive ints, got {samples!r}, "
                           f"{partition_samples!r}")
    one(hands, discards, dead, game, samples=1, seed=0)  # bad hands are an error here, not on a worker
    sizes = _sizes(samples, partition_samples)
    seeds = partition_seeds(seed, len(sizes))
    task = delayed(_equity_partition, pure=True)
    parts: list[Equity]
    parts = _run([task(list(hands), None if discards is None else list(discards), dead, game, k, s)
                  for k, s in zip(sizes, seeds)], client, scheduler, progress)
    seats = len(parts[0].shares)
    share, low, bad, square = (np.zeros(seats) for _ in range(4))
    for r in parts:
        k = r.outcomes
        mean = np.asarray(r.shares)
        share += mean * k
        low += np.asarray(r.low) * k
        bad += np.asarray(r.badugi) * k
        square += np.asarray(r.stderr) ** 2 * k * max(1, k - 1) + k * mean * mean
    mean = share / samples
    var = np.maximum(square - samples * mean * mean, 0.0) / max(1, samples - 1)

    def as_floats(a: np.ndarray[Any, Any]) -> tuple[float, ...]:
        return tuple(float(x) for x in a)

    return Equity(as_floats(mean), as_floats(low / samples), as_floats(bad / samples),
                  as_floats(np.sqrt(var / samples)) if samples > 1 else (0.0,) * seats, False, samples)


# ------------------------------------------------------------------------------------------------------
# Real hand histories


@dataclass(frozen=True)
class HistoriesResult:
    """What :func:`import_histories` read: ``counts`` per (room, variant) (``read``, and with ``check``:
    ``replayed``, ``agree``, ``disagree``, ``skipped``; ``malformed``), the ``problems`` (``file:line:
    reason``, each malformed hand or duplicate), ``skipped`` (reason -> hands not replayed),
    ``disagreements`` (reason -> count) and their ``report`` lines, the ``table`` of
    :func:`badacey_fast.histories.to_table` (with ``table=True``, else None) and the ``partitions`` run."""

    counts: dict[tuple[str, str], dict[str, int]]
    problems: tuple[str, ...]
    skipped: dict[str, int]
    disagreements: dict[str, int]
    report: tuple[str, ...]
    table: Any
    partitions: int

    @property
    def hands(self) -> int:
        """Hands read."""
        return sum(c["read"] for c in self.counts.values())


def _file_groups(files: list[str], size: int) -> list[list[str]]:
    """Whole files, in order, grouped up to ``size`` bytes (a larger file is a group of its own)."""
    groups: list[list[str]] = []
    total = size
    for path in files:
        n = os.path.getsize(path)
        if total + n > size and groups and groups[-1] or not groups:
            groups.append([])
            total = 0
        groups[-1].append(path)
        total += n
    return groups


def _import_partition(files: list[str], site: str, check: bool, table: bool) -> tuple[Any, ...]:
    from badacey_fast.errors import HandHistoryError
    from badacey_fast.histories.audit import check as check_hand
    from badacey_fast.histories import parse, to_table

    counts: dict[tuple[str, str], dict[str, int]] = {}
    problems: list[str] = []
    skipped: dict[str, int] = {}
    reasons: dict[str, int] = {}
    report: list[str] = []
    kept = []

    def row(s: str, v: str) -> dict[str, int]:
        return counts.setdefault((s, v), {"read": 0, "replayed": 0, "agree": 0, "disagree": 0, "skipped": 0,
                                          "malformed": 0})

    def bad(err: HandHistoryError) -> None:
        problems.append(str(err))
        if err.kind != "duplicate":
            row(err.site or "(none)", err.variant or ("garbage" if err.kind == "garbage" else "?"))["malformed"] += 1

    for hand in parse(files, site=site, on_bad_hand=bad):
        c = row(hand.site, hand.variant)
        c["read"] += 1
        if table:
            kept.append(hand)
        if check:
            result = check_hand(hand)
            if result.status == "skipped":
                c["skipped"] += 1
                key = result.skipped or "?"
                skipped[key] = skipped.get(key, 0) + 1
                continue
            c["replayed"] += 1
            c[result.status] += 1
            for d in result.disagreements:
                reasons[d.reason] = reasons.get(d.reason, 0) + 1
            if result.disagreements:
                report.extend(result.report().splitlines())
    return counts, problems, skipped, reasons, report, (to_table(kept) if table else None)


def import_histories(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *, client: Client | None = None,
                     scheduler: str | None = None, check: bool = True, table: bool = False, site: str = "auto",
                     partition_bytes: int = PARTITION_BYTES, progress: bool = False) -> HistoriesResult:
    """Read (and with ``check``, replay and check) the hand histories of ``paths`` (files, folders read
    recursively, globs) on Dask: each partition is a run of whole files of about ``partition_bytes``
    bytes, read by :func:`badacey_fast.histories.parse` on a worker.  The result does not depend on the
    number of workers.  Hand ids given twice are found within a partition (a folder's duplicated file
    lands in the same partition as its twin only if they are neighbours).

    >>> import tempfile, os
    >>> from badacey_fast.histories.model import EXAMPLE
    >>> d = tempfile.mkdtemp()
    >>> for k in range(3):
    ...     with open(os.path.join(d, f"{k}.txt"), "w") as f:
    ...         _ = f.write(EXAMPLE.replace("#1:", f"#{k}:"))
    >>> r = import_histories(d, scheduler="sync", partition_bytes=1)
    >>> r.hands, r.partitions, r.counts[("PokerStars", "Badugi")]["agree"]
    (3, 3, 3)
    """
    require_dask()
    from dask.delayed import delayed

    from badacey_fast.histories.sources import paths_of
    from badacey_fast.histories.sites import site_named

    if site != "auto":
        site_named(site)  # an unknown room is refused here, not on every worker
    if type(partition_bytes) is not int or partition_bytes < 1:
        raise BadaceyError(f"partition_bytes must be a positive int, got {partition_bytes!r}")
    groups = _file_groups(paths_of(paths), partition_bytes)
    tasks = [delayed(_import_partition, pure=True)(g, site, check, table) for g in groups]
    parts = _run(tasks, client, scheduler, progress) if tasks else []
    counts: dict[tuple[str, str], dict[str, int]] = {}
    problems: list[str] = []
    skipped: dict[str, int] = {}
    reasons: dict[str, int] = {}
    report: list[str] = []
    tables = []
    for c, p, sk, rs, rp, t in parts:
        for key, value in c.items():
            into = counts.setdefault(key, dict.fromkeys(value, 0))
            for k, v in value.items():
                into[k] += v
        problems += p
        for k, v in sk.items():
            skipped[k] = skipped.get(k, 0) + v
        for k, v in rs.items():
            reasons[k] = reasons.get(k, 0) + v
        report += rp
        if t is not None:
            tables.append(t)
    joined = None
    if table:
        import pyarrow as pa

        from badacey_fast.histories.table import schema

        joined = pa.concat_tables(tables) if tables else schema(pa).empty_table()
    return HistoriesResult(counts, tuple(problems), skipped, reasons, tuple(report), joined, len(groups))
