"""The lookup tables: exhaustive agreement with the reference, golden digests, integrity at load.

The exhaustive check does not reuse the generator's class maps (``_tablegen``): it groups all 2,598,960
hands by keys built here from the rules, asks ``reference.low_rank`` / ``reference.badugi_rank`` for one
member of each group, and requires every hand of the group to carry that value (so a wrong entry, a
wrong grouping or a wrong hash all fail).  A random sample goes through the reference hand by hand.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from badacey_fast.kernel import backend as _backend

from badacey_fast.bulk import evaluate as bulk

from badacey_fast.rules import reference as reference

from badacey_fast.tables import format as tables
from badacey_fast.errors import TableIntegrityError
from badacey_fast.rules.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
SUMS = ROOT / "tables" / "SHA256SUMS"


def _golden() -> dict[str, str]:
    out = {}
    for line in SUMS.read_text(encoding="ascii").splitlines():
        if line.strip():
            digest, name = line.split()
            out[name] = digest
    return out


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    """Every hand, rows in a shuffled order and columns shuffled per row (exercises the hash's sort)."""
    rng = np.random.default_rng(20261129)
    h = bulk.all_hands()[rng.permutation(tables.HANDS5)]
    return np.take_along_axis(h, np.argsort(rng.random(h.shape), axis=1), axis=1)


def _expected_low(h: np.ndarray, game: str) -> np.ndarray:
    """Low rank of every row: group by (rank counts, flush for 2-7), ask the reference once per group."""
    ranks, suits = h >> 2, h & 3
    counts = np.zeros((len(h), 13), dtype=np.int64)
    for j in range(5):
        np.add.at(counts, (np.arange(len(h)), ranks[:, j]), 1)
    key = counts @ (5 ** np.arange(13, dtype=np.int64))  # base-5 digits: how many of each rank
    if game == "badeucy":
        key = key * 2 + (suits == suits[:, :1]).all(axis=1)
    uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    values = np.array([reference.low_rank(tuple(int(c) for c in h[i]), game) for i in first])
    assert len(uniq) == (7462 if game == "badeucy" else 6175)
    return values[inverse.ravel()]


def _expected_badugi(h: np.ndarray, ace_high: bool) -> np.ndarray:
    """Badugi rank of every row: best-subset key per row, the reference once per distinct key."""
    values = (h >> 2).astype(np.int64) + 1  # 1 = ace ... 13 = king
    if ace_high:
        values[values == 1] = 14
    suits = h & 3
    best = np.full(len(h), np.iinfo(np.int64).max)
    for size in (1, 2, 3, 4):
        for subset in combinations(range(5), size):
            v, s = values[:, subset], suits[:, subset]
            ok = np.ones(len(h), dtype=bool)
            for a, b in combinations(range(size), 2):
                ok &= (v[:, a] != v[:, b]) & (s[:, a] != s[:, b])
            desc = -np.sort(-v, axis=1)  # highest card first
            key = np.full(len(h), 4 - size, dtype=np.int64)
            for j in range(4):
                key = key * 16 + (desc[:, j] if j < size else 0)
            best = np.where(ok, np.minimum(best, key), best)
    uniq, first, inverse = np.unique(best, return_index=True, return_inverse=True)
    ranks = np.array([reference.badugi_rank(tuple(int(c) for c in h[i]), ace_high) for i in first])
    return ranks[inverse.ravel()]


@pytest.fixture(scope="module")
def expected(hands: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Reference (low, badugi) of every row of ``hands``, per game, computed once for both backends."""
    return {game: (_expected_low(hands, game), _expected_badugi(hands, game == "badeucy")) for game in GAMES}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_hand_matches_the_reference(backend: str, hands: np.ndarray, expected: dict, game: str) -> None:
    low, badugi = bulk.evaluate_many(hands, game)
    np.testing.assert_array_equal(low, expected[game][0])
    np.testing.assert_array_equal(badugi, expected[game][1])


@pytest.mark.parametrize("game", GAMES)
def test_random_hands_through_the_reference_one_by_one(backend: str, game: str) -> None:
    rng = np.random.default_rng(7 + len(game))
    sample = np.argsort(rng.random((4000, 52)), axis=1)[:, :5]
    low, badugi = bulk.evaluate_many(sample, game)
    for row, lo, bd in zip(sample.tolist(), low.tolist(), badugi.tolist()):
        assert lo == reference.low_rank(tuple(row), game), row
        assert bd == reference.badugi_rank(tuple(row), game == "badeucy"), row


def test_evaluate_all_is_the_colex_table(backend: str) -> None:
    for game in GAMES:
        low, badugi = bulk.evaluate_all(game)
        assert low.dtype == badugi.dtype == np.uint16
        # Spot-check the colex order against the reference: row i of all_hands has index i.
        hands = bulk.all_hands()
        for i in (0, 1, 4, 5, 1_000_000, tables.HANDS5 - 1):
            row = tuple(int(c) for c in hands[i])
            assert (low[i], badugi[i]) == (reference.low_rank(row, game),
                                           reference.badugi_rank(row, game == "badeucy"))


def test_build_tables_command_matches_golden_digests(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`badacey build-tables` regenerates the tables from the rules; a rules or hash change fails here."""
    from badacey_fast.cli.command import main

    assert main(["build-tables", "--out", str(tmp_path)]) == 0
    golden = _golden()
    assert sorted(golden) == sorted(tables.TABLE_NAMES)
    out = capsys.readouterr().out
    for name in tables.TABLE_NAMES:
        digest = hashlib.sha256((tmp_path / name).read_bytes()).hexdigest()
        assert digest == golden[name], name
        assert f"sha256 {digest}" in out


def test_bench_command_lists_and_runs_a_group(capsys: pytest.CaptureFixture) -> None:
    from badacey_fast.cli.command import main

    assert main(["bench", "--list"]) == 0
    listed = capsys.readouterr().out
    for group in ("single-evaluate", "evaluate-many", "enumerate-all", "table-build", "import"):
        assert group in listed
    assert main(["bench", "--quick", "--group", "import"]) == 0
    table = capsys.readouterr().out
    assert "import badacey_fast (fresh interpreter)" in table and " ms " in table
    assert main(["bench", "--group", "no-such-group"]) == 2


def test_loaded_tables_match_golden_digests() -> None:
    """The tables this installation loads are the ones the rules generate (not stale, not damaged)."""
    golden = _golden()
    for game, name in enumerate(tables.TABLE_NAMES):
        data = Path(tables.table_path(game)).read_bytes()
        assert hashlib.sha256(data).hexdigest() == golden[name], name


# ---- integrity at load ----------------------------------------------------------------------------


@pytest.fixture
def table_copy(tmp_path: Path) -> Path:
    for game in (0, 1):
        shutil.copy(tables.table_path(game), tmp_path / tables.TABLE_NAMES[game])
    return tmp_path


def _read(directory: Path, game: int = 0) -> None:
    buf = bytearray(4 * tables.ENTRIES)
    tables.read_table(game, memoryview(buf), directory)


def test_good_copy_loads(table_copy: Path) -> None:
    _read(table_copy, 0)
    _read(table_copy, 1)
    tables.check_present(table_copy)


def _assert_integrity_error(directory: Path, game: int, words: str) -> None:
    with pytest.raises(TableIntegrityError) as info:
        _read(directory, game)
    message = str(info.value)
    assert tables.TABLE_NAMES[game] in message and words in message
    assert "badacey build-tables" in message


def test_corrupted_payload_is_detected(table_copy: Path) -> None:
    path = table_copy / tables.TABLE_NAMES[1]
    data = bytearray(path.read_bytes())
    data[tables.HEADER_SIZE + 4 * 123_456] ^= 0x01  # one bit of one entry
    path.write_bytes(bytes(data))
    _assert_integrity_error(table_copy, 1, "corrupted")


def test_truncated_file_is_detected(table_copy: Path) -> None:
    path = table_copy / tables.TABLE_NAMES[0]
    data = path.read_bytes()
    path.write_bytes(data[:-4])
    _assert_integrity_error(table_copy, 0, "wrong size")
    with pytest.raises(TableIntegrityError, match="truncated"):
        tables.check_present(table_copy)


def test_overlong_file_is_detected(table_copy: Path) -> None:
    path = table_copy / tables.TABLE_NAMES[0]
    path.write_bytes(path.read_bytes() + b"\0")
    _assert_integrity_error(table_copy, 0, "wrong size")


def test_missing_file_is_detected(table_copy: Path) -> None:
    os.remove(table_copy / tables.TABLE_NAMES[1])
    _assert_integrity_error(table_copy, 1, "missing")
    with pytest.raises(TableIntegrityError, match="missing"):
        tables.check_present(table_copy)


def test_bad_magic_and_swapped_games_are_detected(table_copy: Path) -> None:
    a, b = (table_copy / n for n in tables.TABLE_NAMES)
    data = bytearray(a.read_bytes())
    data[0:8] = b"NOTATABL"
    a.write_bytes(bytes(data))
    _assert_integrity_error(table_copy, 0, "bad magic")
    shutil.copy(b, a)  # Badeucy's table under Badacey's name
    _assert_integrity_error(table_copy, 0, "holds game 1")


def test_kernel_on_a_damaged_directory_raises_on_first_use(table_copy: Path) -> None:
    from badacey_fast.kernel._c import Kernel  # an ImportError here is a test error: CI must build the kernel

    path = table_copy / tables.TABLE_NAMES[0]
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    kernel = Kernel(table_copy)
    assert kernel.table(True) is kernel.table(True)  # the good one loads once
    with pytest.raises(TableIntegrityError, match="corrupted"):
        kernel.table(False)


def _run(env_extra: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    # A fresh interpreter importing the same badacey_fast as this one (not a checkout in the cwd).
    from badacey_fast.cli.benchmark import fresh_python

    return fresh_python(code, env_extra)


def test_missing_tables_policy_c_fails_loudly_auto_falls_back(tmp_path: Path) -> None:
    code = "import badacey_fast as b; print(b.backend, b.evaluate((3, 6, 9, 12, 19)))"
    forced = _run({"BADACEY_FAST_TABLES": str(tmp_path), "BADACEY_FAST_BACKEND": "c"}, code)
    assert forced.returncode != 0
    assert "TableIntegrityError" in forced.stderr and "badacey build-tables" in forced.stderr
    auto = _run({"BADACEY_FAST_TABLES": str(tmp_path), "BADACEY_FAST_BACKEND": "auto"}, code)
    assert auto.returncode == 0, auto.stderr
    assert auto.stdout.split()[0] == "python"
    assert auto.stderr.count("RuntimeWarning") == 1 and "missing" in auto.stderr


def test_c_backend_is_active_by_default() -> None:
    """With the extension built and tables installed, `auto` picks C (CI must build the kernel)."""
    out = _run({"BADACEY_FAST_BACKEND": "auto"}, "import badacey_fast as b; print(b.backend)")
    assert out.stdout.strip() == "c", out.stderr
    assert _backend.kernel().lib.BD_HANDS5 == tables.HANDS5


def test_cli_reports_a_corrupted_table_in_one_line(table_copy: Path) -> None:
    from badacey_fast.cli.benchmark import fresh_python

    path = table_copy / tables.TABLE_NAMES[0]
    data = bytearray(path.read_bytes())
    data[tables.HEADER_SIZE + 4 * 1_000] ^= 0x01
    path.write_bytes(bytes(data))
    run = fresh_python(
        "import sys; from badacey_fast.cli.command import main; sys.exit(main(['eval', 'As 2h 3d 4c 5s']))",
        env={"BADACEY_FAST_TABLES": str(table_copy), "BADACEY_FAST_BACKEND": "c"},
    )
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert tables.TABLE_NAMES[0] in run.stderr and "badacey build-tables" in run.stderr
