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
import sys
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


@pytest.mark.exhaustive  # every five-card hand; the reference's answers take ~20 s to compute
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


@pytest.mark.exhaustive("python")
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


@pytest.mark.backend_independent  # the build step generates from the rules; no twin serves it
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


@pytest.mark.backend_independent  # a fresh interpreter running the build step (the Python twin, forced)
def test_build_step_generates_the_golden_tables_without_numpy(tmp_path: Path) -> None:
    """`tables/generate.py` (setup.py's build step) needs no numpy: the isolated build environment has none."""
    script = ROOT / "tables" / "generate.py"
    code = ("import runpy, sys; sys.modules['numpy'] = None  # `import numpy` now raises ImportError\n"
            f"sys.argv = ['generate.py', '--out', {str(tmp_path)!r}, '--check']\n"
            f"runpy.run_path({str(script)!r}, run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr  # --check: both digests equal tables/SHA256SUMS
    assert sorted(p.name for p in tmp_path.glob("*.tbl")) == sorted(tables.TABLE_NAMES)
    assert "badacey_fast tables: wrote" in done.stdout


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


# The range check _read passes to read_table: the kernel's (what the C twin loads with) or numpy's.
_RANGE_CHECK: dict[str, object] = {"first_bad": None}


def _read(directory: Path, game: int = 0) -> None:
    """Load the table both ways, copied (read_table) and memory-mapped (map_table, what the kernel
    uses): both must raise the same error, or both load the same payload."""
    first_bad = _RANGE_CHECK["first_bad"]
    buf = bytearray(4 * tables.ENTRIES)
    errors: list[TableIntegrityError] = []
    try:
        tables.read_table(game, memoryview(buf), directory, first_bad)
    except TableIntegrityError as exc:
        errors.append(exc)
    try:
        mapped, path = tables.map_table(game, directory, first_bad)
    except TableIntegrityError as exc:
        errors.append(exc)
    if errors:
        assert [str(e) for e in errors] == [str(errors[0])] * 2, errors
        raise errors[0]
    assert mapped.readonly and path == tables.table_path(game, directory)
    assert bytes(mapped) == bytes(buf)


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
    # The import-time check only looks for missing files (the one case `auto` falls back on); the size is
    # checked at first load, in every policy (see test_damaged_table_raises_in_auto_and_c...).
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


def test_map_table_falls_back_to_a_checked_copy_without_mmap(table_copy: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the file cannot be mapped, map_table reads a private copy, with the same checks."""
    import mmap

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(19, "No such device")

    monkeypatch.setattr(mmap, "mmap", refuse)
    payload, _ = tables.map_table(1, table_copy)
    file_bytes = Path(tables.table_path(1, table_copy)).read_bytes()
    assert payload.readonly and bytes(payload) == file_bytes[tables.HEADER_SIZE:]
    path = table_copy / tables.TABLE_NAMES[0]
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(TableIntegrityError, match="corrupted"):
        tables.map_table(0, table_copy)


def test_kernel_keeps_its_checked_table_when_the_file_is_replaced(table_copy: Path) -> None:
    """The kernel maps the table file; replacing the file as `badacey build-tables` does (a new file renamed
    over the old) leaves a running kernel on the pages it checked, and a new load checks the new file."""
    from badacey_fast.kernel._c import Kernel

    kernel = Kernel(table_copy)
    table = kernel.table(False)
    before = [kernel.lib.bd_eval5(table, *hand) for hand in ((0, 1, 2, 3, 4), (7, 8, 13, 18, 51))]
    path = table_copy / tables.TABLE_NAMES[0]
    shutil.copy(table_copy / tables.TABLE_NAMES[1], path.with_suffix(".new"))  # Badeucy's table...
    os.replace(path.with_suffix(".new"), path)  # ...renamed over Badacey's
    assert [kernel.lib.bd_eval5(table, *hand) for hand in ((0, 1, 2, 3, 4), (7, 8, 13, 18, 51))] == before
    assert kernel.table(False) is table
    with pytest.raises(TableIntegrityError, match="holds game 1"):
        Kernel(table_copy).table(False)


@pytest.mark.backend_independent  # fresh interpreters choosing their twin by BADACEY_FAST_BACKEND
def test_missing_tables_policy_c_fails_loudly_auto_falls_back(tmp_path: Path, fresh_python) -> None:
    code = "import badacey_fast as b; print(b.backend, b.evaluate((3, 6, 9, 12, 19)))"
    forced = fresh_python(code, {"BADACEY_FAST_TABLES": str(tmp_path), "BADACEY_FAST_BACKEND": "c"})
    assert forced.returncode != 0
    assert "TableIntegrityError" in forced.stderr and "badacey build-tables" in forced.stderr
    auto = fresh_python(code, {"BADACEY_FAST_TABLES": str(tmp_path), "BADACEY_FAST_BACKEND": "auto"})
    assert auto.returncode == 0, auto.stderr
    assert auto.stdout.split()[0] == "python"
    assert auto.stderr.count("RuntimeWarning") == 1 and "missing" in auto.stderr


@pytest.mark.backend_independent  # fresh interpreters choosing their twin by BADACEY_FAST_BACKEND
def test_c_backend_is_active_by_default(fresh_python) -> None:
    """With the extension built and tables installed, `auto` picks C (CI must build the kernel)."""
    out = fresh_python("import badacey_fast as b; print(b.backend)", {"BADACEY_FAST_BACKEND": "auto"})
    assert out.stdout.strip() == "c", out.stderr
    assert _backend.kernel().lib.BD_HANDS5 == tables.HANDS5


@pytest.mark.backend_independent  # fresh interpreters choosing their twin by BADACEY_FAST_BACKEND
def test_cli_reports_a_corrupted_table_in_one_line(table_copy: Path, fresh_python) -> None:
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


# ---- damaged tables of every kind (issue 10, defects 6 and 7) --------------------------------------
#
# Each kind is crafted from a good copy.  The payload kinds recompute the header's CRC-32, so only the
# range check at load can catch them; the header kinds leave the payload (and so the CRC) intact, so
# only the check of that one field can.

_HEADER_FIELDS = {  # field -> (byte offset in the header, bad value, words of the expected message)
    "version": (8, 2, "format version 2, expected 1"),
    "hands": (16, 5, f"hand count 5 in its header, expected {tables.HANDS5}"),
    "masks": (20, 4096, f"mask count 4096 in its header, expected {tables.BADUGI_MASKS}"),
    "reserved": (28, 9, "reserved header field 9, expected 0"),
}


def _set_header_field(path: Path, offset: int, value: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset : offset + 4] = value.to_bytes(4, "little")
    path.write_bytes(bytes(data))


def _write_payload(path: Path, game: int, payload: bytes) -> None:
    """A table with a valid header and checksum around ``payload``."""
    path.write_bytes(tables.pack_header(game, payload) + payload)


def _payload(path: Path) -> np.ndarray:
    return np.frombuffer(path.read_bytes()[tables.HEADER_SIZE :], dtype="<u4").copy()


@pytest.mark.parametrize("field", sorted(_HEADER_FIELDS))
def test_each_header_field_is_checked_and_named(table_copy: Path, field: str) -> None:
    offset, value, words = _HEADER_FIELDS[field]
    _set_header_field(table_copy / tables.TABLE_NAMES[1], offset, value)
    _assert_integrity_error(table_copy, 1, words)


def test_checksum_mismatch_names_both_checksums(table_copy: Path) -> None:
    path = table_copy / tables.TABLE_NAMES[0]
    good = int.from_bytes(path.read_bytes()[24:28], "little")
    _set_header_field(path, 24, good ^ 1)
    _assert_integrity_error(table_copy, 0, f"header says {good ^ 1:#010x}, payload has {good:#010x}")


def _low_max(game: int) -> int:
    return reference.LOW_CLASS_COUNTS[GAMES[game]]


# name -> f(payload, game) damaging the payload in place; every one is outside the format's ranges.
_BAD_PAYLOADS = {
    "all zero": lambda a, game: a.fill(0),
    "all 0xFF": lambda a, game: a.fill(0xFFFFFFFF),
    "low rank 0": lambda a, game: a.__setitem__(1_234_567, a[1_234_567] & 0xFFFF0000),
    "low rank one past the scale": lambda a, game: a.__setitem__(
        tables.HANDS5 - 1, (a[tables.HANDS5 - 1] & 0xFFFF0000) | (_low_max(game) + 1)),
    "badugi rank 1093": lambda a, game: a.__setitem__(42, (a[42] & 0xFFFF) | 1093 << 16),
    "badugi rank 0": lambda a, game: a.__setitem__(42, a[42] & 0xFFFF),
    "mask of 5 ranks not 0": lambda a, game: a.__setitem__(tables.HANDS5 + 0b11111, 1 << 16),
    "mask of 0 ranks not 0": lambda a, game: a.__setitem__(tables.HANDS5, 1 << 16),
    "mask of 2 ranks with rank 0": lambda a, game: a.__setitem__(tables.HANDS5 + 0b101, 0),
    "mask with a low half": lambda a, game: a.__setitem__(tables.HANDS5 + 0b1, a[tables.HANDS5 + 0b1] | 1),
}


@pytest.fixture(params=["kernel", "numpy"])
def range_check(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test with the range check of the C kernel (the load path) or the numpy one (no kernel)."""
    from badacey_fast.kernel._c import _first_bad_entry  # an ImportError is a test error: CI builds the kernel

    checker = _first_bad_entry if request.param == "kernel" else tables.first_bad_entry
    monkeypatch.setitem(_RANGE_CHECK, "first_bad", checker)
    return request.param


@pytest.mark.parametrize("kind", sorted(_BAD_PAYLOADS))
@pytest.mark.parametrize("game", [0, 1])
def test_out_of_range_payload_with_a_valid_checksum(table_copy: Path, range_check: str, kind: str,
                                                   game: int) -> None:
    path = table_copy / tables.TABLE_NAMES[game]
    payload = _payload(path)
    _BAD_PAYLOADS[kind](payload, game)
    _write_payload(path, game, payload.tobytes())
    _assert_integrity_error(table_copy, game, "out-of-range entry")


@pytest.mark.parametrize("game", [0, 1])
def test_entries_at_the_ends_of_their_scales_load(table_copy: Path, range_check: str, game: int) -> None:
    """The range check is not off by one: every scale's first and last ranks are accepted."""
    path = table_copy / tables.TABLE_NAMES[game]
    payload = _payload(path)
    low, badugi = payload[: tables.HANDS5] & 0xFFFF, payload[: tables.HANDS5] >> 16
    assert (low.min(), low.max(), badugi.min()) == (1, _low_max(game), 1)  # five cards reach 1088 at worst
    payload[7] = 1 | 1092 << 16
    payload[8] = _low_max(game) | 1 << 16
    _write_payload(path, game, payload.tobytes())
    _read(table_copy, game)


def test_range_error_names_the_entry(table_copy: Path, range_check: str) -> None:
    path = table_copy / tables.TABLE_NAMES[1]
    payload = _payload(path)
    payload[99] = 7463 | 5 << 16
    payload[tables.HANDS5 + 0b11111] = 3 << 16  # a later bad entry: the first one is reported
    _write_payload(path, 1, payload.tobytes())
    _assert_integrity_error(table_copy, 1, "hand 99 holds low rank 7463 (expected 1..7462)")
    payload[99] = 7462 | 5 << 16
    _write_payload(path, 1, payload.tobytes())
    _assert_integrity_error(table_copy, 1, "rank mask 0x001f (5 ranks) holds 0x00030000, expected 0")


def _damage(kind: str, path: Path) -> None:
    """Damage the Badacey table at ``path`` in one of the ways a table can be damaged."""
    data = bytearray(path.read_bytes())
    if kind == "truncated":
        path.write_bytes(bytes(data[:-4]))
    elif kind == "overlong":
        path.write_bytes(bytes(data) + bytes(4096))
    elif kind == "bad magic":
        path.write_bytes(b"NOTATABL" + bytes(data[8:]))
    elif kind in ("version", "hands", "masks"):
        _set_header_field(path, _HEADER_FIELDS[kind][0], _HEADER_FIELDS[kind][1])
    elif kind == "bad checksum":
        data[tables.HEADER_SIZE + 4 * 2_000_000] ^= 0x10
        path.write_bytes(bytes(data))
    else:
        payload = _payload(path)
        _BAD_PAYLOADS[kind](payload, 0)
        _write_payload(path, 0, payload.tobytes())


_KINDS = ["truncated", "overlong", "bad magic", "version", "hands", "masks", "bad checksum", "all zero",
          "all 0xFF", "low rank one past the scale"]

_CHILD = r"""
import json, sys, warnings
warnings.simplefilter("error")  # a fallback warning would be a failure, not a note
from badacey_fast.cli import main
status = main(["eval", "As 2h 3d 4c 5s"])
import badacey_fast
out = {"status": status, "backend": badacey_fast.backend}
for name, call in [("evaluate", lambda: badacey_fast.evaluate("As 2h 3d 4c 5s")),
                   ("draw_outcomes", lambda: badacey_fast.draw_outcomes("As 2h 3d 4c Kc", "Kc"))]:
    try:
        call()
        out[name] = None
    except Exception as exc:
        out[name] = [type(exc).__name__, str(exc)]
print(json.dumps(out))
"""


@pytest.mark.backend_independent  # fresh interpreters choosing their twin by BADACEY_FAST_BACKEND
@pytest.mark.parametrize("policy", ["auto", "c"])
@pytest.mark.parametrize("kind", _KINDS)
def test_damaged_table_raises_in_auto_and_c_and_the_cli_says_one_line(table_copy: Path, kind: str,
                                                                       policy: str, fresh_python) -> None:
    """No kind of damage falls back to the Python twin (that is for a missing kernel) or escapes as
    anything but TableIntegrityError; `badacey eval` prints one line and exits 1."""
    import json

    path = table_copy / tables.TABLE_NAMES[0]
    _damage(kind, path)
    run = fresh_python(_CHILD, env={"BADACEY_FAST_TABLES": str(table_copy), "BADACEY_FAST_BACKEND": policy})
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.splitlines()[-1])
    assert out["status"] == 1 and out["backend"] == "c", out
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("badacey eval: error: "), run.stderr
    for line in (lines[0], out["evaluate"][1], out["draw_outcomes"][1]):
        assert str(path) in line and "badacey build-tables" in line, line
    assert out["evaluate"][0] == out["draw_outcomes"][0] == "TableIntegrityError", out


# ---- the stamp: the whole-file checks once per installed table ---------------------------------------


class _CountingRangeCheck:
    """numpy's range check, counting its calls: a load that checks the whole file calls it once."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, game: int, payload: memoryview) -> int:
        self.calls += 1
        return tables.first_bad_entry(game, payload)


@pytest.fixture
def settled_copy(table_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Good table copies old enough to be stamped: the settling time shortened to 50 ms (not 2 s), waited."""
    import time

    monkeypatch.delenv(tables.VERIFY_ENV_VAR, raising=False)
    monkeypatch.setattr(tables, "STAMP_SETTLE_SECONDS", 0.05)
    time.sleep(0.06)
    return table_copy


def _flip_in_place(path: Path, offset: int) -> None:
    """One bit of the file at ``offset`` flipped by a write into the same file (same inode and size)."""
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)[0]
        f.seek(offset)
        f.write(bytes([byte ^ 0x01]))


@pytest.mark.backend_independent  # the file format's own checks; no twin serves them
def test_a_checked_table_is_stamped_and_later_loads_skip_the_whole_file_checks(settled_copy: Path) -> None:
    check = _CountingRangeCheck()
    stamp = Path(tables.stamp_path(0, settled_copy))
    assert not stamp.exists()
    first, _ = tables.map_table(0, settled_copy, check)
    assert check.calls == 1 and stamp.exists()
    recorded = stamp.read_text(encoding="ascii")
    st = os.stat(tables.table_path(0, settled_copy))
    assert f"size {st.st_size} " in recorded and f"ino {st.st_ino} " in recorded
    assert f"ctime_ns {st.st_ctime_ns} " in recorded
    again, _ = tables.map_table(0, settled_copy, check)
    buf = bytearray(4 * tables.ENTRIES)
    tables.read_table(0, memoryview(buf), settled_copy, check)
    assert check.calls == 1  # neither load read the whole file again
    assert bytes(again) == bytes(first) == bytes(buf)
    assert not Path(tables.stamp_path(1, settled_copy)).exists()  # each table its own stamp
    assert [p.name for p in settled_copy.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.backend_independent  # the file format's own checks; no twin serves them
@pytest.mark.parametrize("where", ["payload", "last byte"])
def test_a_table_written_in_place_after_its_stamp_is_checked_again_and_refused(settled_copy: Path,
                                                                             where: str) -> None:
    tables.map_table(1, settled_copy)
    assert Path(tables.stamp_path(1, settled_copy)).exists()
    path = settled_copy / tables.TABLE_NAMES[1]
    _flip_in_place(path, tables.HEADER_SIZE + 4 * 123_456 if where == "payload" else tables.FILE_SIZE - 1)
    _assert_integrity_error(settled_copy, 1, "corrupted")
    from badacey_fast.kernel._c import Kernel  # the kernel's load path, too

    with pytest.raises(TableIntegrityError, match="corrupted"):
        Kernel(settled_copy).table(True)


@pytest.mark.backend_independent  # the file format's own checks; no twin serves them
def test_a_stamped_table_truncated_or_replaced_is_refused(settled_copy: Path) -> None:
    tables.map_table(0, settled_copy)
    path = settled_copy / tables.TABLE_NAMES[0]
    good = path.read_bytes()
    with open(path, "r+b") as f:  # truncated in place: the size is checked at every load
        f.truncate(tables.FILE_SIZE - 4)
    _assert_integrity_error(settled_copy, 0, "wrong size")
    # A damaged file renamed over the stamped one (a new inode; its own times), its stamp left in place.
    damaged = bytearray(good)
    damaged[tables.HEADER_SIZE + 4 * 7] ^= 0x01
    path.with_suffix(".new").write_bytes(bytes(damaged))
    os.replace(path.with_suffix(".new"), path)
    assert Path(tables.stamp_path(0, settled_copy)).exists()
    _assert_integrity_error(settled_copy, 0, "corrupted")


@pytest.mark.backend_independent  # the file format's own checks; no twin serves them
def test_a_stamp_of_another_file_or_not_a_stamp_is_not_trusted(settled_copy: Path) -> None:
    check = _CountingRangeCheck()
    tables.map_table(1, settled_copy, check)
    stamp = Path(tables.stamp_path(1, settled_copy))
    # Badeucy's stamp beside Badacey's table: another game, inode and checksum
    shutil.copy(stamp, tables.stamp_path(0, settled_copy))
    tables.map_table(0, settled_copy, check)
    assert check.calls == 2
    stamp.write_bytes(b"\xff\xfe not a stamp")
    tables.map_table(1, settled_copy, check)
    assert check.calls == 3
    tables.map_table(1, settled_copy, check)  # ... and rewritten by the full check
    assert check.calls == 3


@pytest.mark.backend_independent  # the file format's own checks; no twin serves them
def test_verify_always_checks_every_load_and_writes_no_stamp(settled_copy: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    check = _CountingRangeCheck()
    monkeypatch.setenv(tables.VERIFY_ENV_VAR, "Always")
    tables.map_table(0, settled_copy, check)
    tables.map_table(0, settled_copy, check)
    assert check.calls == 2 and not Path(tables.stamp_path(0, settled_copy)).exists()
    monkeypatch.setenv(tables.VERIFY_ENV_VAR, "once")
    tables.map_table(0, settled_copy, check)
    assert check.calls == 3 and Path(tables.stamp_path(0, settled_copy)).exists()
    monkeypatch.setenv(tables.VERIFY_ENV_VAR, "always")  # a stamp there: still the whole file
    tables.map_table(0, settled_copy, check)
    assert check.calls == 4


@pytest.mark.backend_independent  # the file format's own checks; no twin serves them
def test_a_bad_verify_setting_is_refused_naming_it(settled_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(At import and by the command, before any output: tests/test_cli_frame.py's bad settings.)"""
    from badacey_fast.errors import SettingError

    monkeypatch.setenv(tables.VERIFY_ENV_VAR, "never")
    for call in (lambda: tables.map_table(0, settled_copy), lambda: tables.check_present(settled_copy)):
        with pytest.raises(SettingError, match="BADACEY_FAST_VERIFY_TABLES='never' is not one of once, always"):
            call()
    assert not Path(tables.stamp_path(0, settled_copy)).exists()


@pytest.mark.backend_independent  # the file format's own checks; no twin serves them
def test_a_fresh_table_is_checked_but_not_stamped(table_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file written less than STAMP_SETTLE_SECONDS ago could be rewritten within its filesystem's clock
    tick, keeping its times: it is checked in full at each load and gets no stamp until it has settled."""
    monkeypatch.delenv(tables.VERIFY_ENV_VAR, raising=False)
    monkeypatch.setattr(tables, "STAMP_SETTLE_SECONDS", 3600.0)
    check = _CountingRangeCheck()
    tables.map_table(0, table_copy, check)
    tables.map_table(0, table_copy, check)
    assert check.calls == 2 and not Path(tables.stamp_path(0, table_copy)).exists()


@pytest.mark.backend_independent  # the file format's own checks; no twin serves them
def test_a_directory_that_refuses_the_stamp_leaves_no_temporary(settled_copy: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(src: str, dst: str) -> None:
        raise PermissionError(13, "Permission denied", dst)

    monkeypatch.setattr(os, "replace", refuse)
    check = _CountingRangeCheck()
    payload, _ = tables.map_table(0, settled_copy, check)
    tables.map_table(0, settled_copy, check)
    assert check.calls == 2 and payload.nbytes == 4 * tables.ENTRIES
    assert sorted(p.name for p in settled_copy.iterdir()) == sorted(tables.TABLE_NAMES)


@pytest.mark.backend_independent  # fresh interpreters choosing their twin by BADACEY_FAST_BACKEND
def test_cli_refuses_a_table_damaged_after_its_stamp(settled_copy: Path, fresh_python) -> None:
    env = {"BADACEY_FAST_TABLES": str(settled_copy), "BADACEY_FAST_BACKEND": "c"}
    code = "import sys; from badacey_fast.cli import main; sys.exit(main(['eval', 'As 2h 3d 4c 5s']))"
    tables.map_table(0, settled_copy)  # stamped here (the child would wait its own 2 s to settle)
    first = fresh_python(code, env=env)
    assert first.returncode == 0 and "5-4-3-2-A low" in first.stdout, first.stderr
    stamp = Path(tables.stamp_path(0, settled_copy)).read_text(encoding="ascii")
    _flip_in_place(settled_copy / tables.TABLE_NAMES[0], tables.HEADER_SIZE + 4 * 2_000)
    run = fresh_python(code, env=env)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert tables.TABLE_NAMES[0] in run.stderr and "corrupted" in run.stderr
    assert Path(tables.stamp_path(0, settled_copy)).read_text(encoding="ascii") == stamp  # not re-stamped
