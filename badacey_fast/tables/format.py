"""The perfect-hash lookup tables: their file format, where they live, and loading with integrity checks.

One table per game (index 0 = Badacey, 1 = Badeucy).  The payload is ``HANDS5 + BADUGI_MASKS``
little-endian ``uint32`` entries:

- entries ``0 .. 2,598,959``: one per five-card hand, at the hand's *colex index* (the perfect hash of
  ``csrc/badacey.h``: sort the cards ``c0 < c1 < c2 < c3 < c4`` and sum ``C(c_i, i + 1)``).  Each entry
  packs ``low_rank | badugi_rank << 16``; both ranks are dense, **lower is better** (low 1..6175 or
  1..7462, badugi 1..1092).
- entries ``HANDS5 .. HANDS5 + 8191``: the badugi rank (in the high 16 bits, like above) of each 13-bit
  mask of distinct card ranks with 1 to 4 bits set (0 for other masks).  The kernel uses them to rank
  badugis of 1 to 4 cards.

The file starts with a 32-byte header: magic ``b"BDTABLE\\0"``, then six little-endian ``uint32``:
format version, game index, hand entries, mask entries, CRC-32 of the payload, and 0 (reserved).

The tables are generated at build time by :func:`badacey_fast.tables.generate.build_tables` (from the
reference rules) and checked at load time (every header field, size, CRC-32, and every entry within its
scale) by :func:`read_table` (into a private copy) or :func:`map_table` (a read-only memory map that
processes share, what the kernel loads): a missing, truncated, corrupted or crafted file raises
:class:`~badacey_fast.errors.TableIntegrityError` naming the file and
the command that rebuilds it.

The whole-file checks (CRC-32 and ranges: reading all 10 MB, most of a first ``evaluate``'s cost) run once
per installed table: a table that passes them gets a *stamp* beside it (``badacey.tbl.checked``, written
whole and renamed) holding the file's identity -- size, inode, modification and status-change times --
and its checksum.  A later load whose file still matches its stamp checks the header and size only; a
table written, replaced or truncated since has another identity (the status-change time is the kernel's:
no program sets it back) and is checked in full again.  What a stamp cannot see is a file damaged
without a write (a failing disk): ``BADACEY_FAST_VERIFY_TABLES=always`` checks every load in full
(:func:`verify_policy`).  Where the directory is read-only, no stamp is written and every load checks.

>>> os.path.basename(table_path(1))
'badeucy.tbl'
>>> table_path(2)
Traceback (most recent call last):
...
badacey_fast.errors.UnknownGameError: game index 2 is not 0 (Badacey) or 1 (Badeucy)
"""

from __future__ import annotations

import os
import struct
import sys
import zlib

from badacey_fast.errors import SettingError, ShapeError, TableIntegrityError, UnknownGameError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (docs/import.md); mypy reads it alike
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "HANDS5",
    "BADUGI_MASKS",
    "ENTRIES",
    "MAGIC",
    "FORMAT_VERSION",
    "HEADER_SIZE",
    "FILE_SIZE",
    "TABLE_NAMES",
    "REBUILD_HINT",
    "data_dir",
    "table_path",
    "pack_header",
    "read_table",
    "map_table",
    "first_bad_entry",
    "check_present",
    "verify_policy",
    "stamp_path",
    "VERIFY_ENV_VAR",
    "VERIFY_POLICIES",
    "STAMP_SUFFIX",
    "STAMP_SETTLE_SECONDS",
]

#: Number of five-card hands, C(52, 5): the size of the perfect hash's range.
HANDS5 = 2_598_960
#: Number of 13-bit rank masks in the badugi part of a table.
BADUGI_MASKS = 8192
#: Entries (uint32) in one table's payload.
ENTRIES = HANDS5 + BADUGI_MASKS
MAGIC = b"BDTABLE\x00"
#: Bumped whenever the layout or the hash changes.
FORMAT_VERSION = 1
_HEADER = struct.Struct("<8s6I")
HEADER_SIZE = _HEADER.size  # 32
#: Exact size in bytes of a valid table file.
FILE_SIZE = HEADER_SIZE + 4 * ENTRIES
#: File names by game index (0 = Badacey, 1 = Badeucy).
TABLE_NAMES = ("badacey.tbl", "badeucy.tbl")
#: Environment variable naming another directory to load the tables from (tests, relocated installs).
DIR_ENV_VAR = "BADACEY_FAST_TABLES"
#: Low ranks per game index (A-5 low for Badacey, 2-7 low for Badeucy) and badugi ranks: the scales the
#: entries are checked against at load.
LOW_RANKS = (6175, 7462)
BADUGI_RANKS = 1092
REBUILD_HINT = "rebuild it with `badacey build-tables` (or reinstall badacey_fast)"
#: Environment variable: ``once`` (the default: the whole-file checks once per installed table, then its
#: stamp) or ``always`` (every load checks the whole file).
VERIFY_ENV_VAR = "BADACEY_FAST_VERIFY_TABLES"
VERIFY_POLICIES = ("once", "always")
#: What a table's stamp file is named after: ``badacey.tbl.checked`` beside ``badacey.tbl``.
STAMP_SUFFIX = ".checked"
#: A table written less than this long ago (seconds) is checked but not stamped: a filesystem's clock
#: ticks coarsely (a few ms), and a file rewritten within the tick of its last write could keep its times.
#: A stamped file is older than this, so any later write gives it other times.
STAMP_SETTLE_SECONDS = 2.0
# Bumped whenever the whole-file checks change: stamps of an older check are not trusted.
_CHECK_VERSION = 1


# os.path, not pathlib: pathlib costs ~10 ms of `import badacey_fast` (tables load on the import path).
def data_dir() -> str:
    """The directory the tables are loaded from: ``$BADACEY_FAST_TABLES`` or the package's ``_data/``.

    >>> os.path.basename(data_dir()) if DIR_ENV_VAR not in os.environ else "_data"
    '_data'
    >>> data_dir(1)
    Traceback (most recent call last):
    ...
    TypeError: data_dir() takes 0 positional arguments but 1 was given
    """
    override = os.environ.get(DIR_ENV_VAR)
    return override if override else os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_data")


def _check_game(game: int) -> int:
    if isinstance(game, bool) or not isinstance(game, int):
        raise TypeError(f"game index must be an int, not {type(game).__name__}")
    if game not in (0, 1):
        raise UnknownGameError(f"game index {game} is not 0 (Badacey) or 1 (Badeucy)")
    return game


def table_path(game: int, directory: str | os.PathLike[str] | None = None) -> str:
    """Path of the table file of game index ``game`` (0 = Badacey, 1 = Badeucy) in ``directory``.

    >>> table_path(0, "/tmp")
    '/tmp/badacey.tbl'
    >>> table_path(True)
    Traceback (most recent call last):
    ...
    TypeError: game index must be an int, not bool
    """
    base = os.fspath(directory) if directory is not None else data_dir()
    return os.path.join(base, TABLE_NAMES[_check_game(game)])


def pack_header(game: int, payload: bytes | memoryview) -> bytes:
    """The 32-byte header for ``payload`` (the raw little-endian entries) of game index ``game``.

    >>> header = pack_header(1, b"\\0" * 8)
    >>> len(header), header[:8], struct.unpack("<6I", header[8:])[:4]
    (32, b'BDTABLE\\x00', (1, 1, 2598960, 8192))
    >>> pack_header(5, b"")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.UnknownGameError: game index 5 is not 0 (Badacey) or 1 (Badeucy)
    """
    return _HEADER.pack(MAGIC, FORMAT_VERSION, _check_game(game), HANDS5, BADUGI_MASKS, zlib.crc32(payload), 0)


def verify_policy() -> str:
    """``$BADACEY_FAST_VERIFY_TABLES``: ``"once"`` (default) or ``"always"``; anything else is refused.

    >>> verify_policy() in VERIFY_POLICIES
    True
    >>> os.environ[VERIFY_ENV_VAR] = "sometimes"
    >>> verify_policy()
    Traceback (most recent call last):
    ...
    badacey_fast.errors.SettingError: BADACEY_FAST_VERIFY_TABLES='sometimes' is not one of once, always
    >>> del os.environ[VERIFY_ENV_VAR]
    """
    raw = os.environ.get(VERIFY_ENV_VAR, "once")
    policy = raw.strip().lower() or "once"
    if policy not in VERIFY_POLICIES:
        raise SettingError(f"{VERIFY_ENV_VAR}={raw!r} is not one of {', '.join(VERIFY_POLICIES)}")
    return policy


def stamp_path(game: int, directory: str | os.PathLike[str] | None = None) -> str:
    """Path of the stamp that records the table of game ``game`` as checked (see the module docstring).

    >>> stamp_path(0, "/tmp")
    '/tmp/badacey.tbl.checked'
    """
    return table_path(game, directory) + STAMP_SUFFIX


def _identity(game: int, st: os.stat_result, crc: int) -> str:
    """The stamp's line for a table of ``game`` with status ``st`` and header checksum ``crc``."""
    return (f"badacey_fast table check {_CHECK_VERSION} format {FORMAT_VERSION} game {game} size {st.st_size} "
            f"dev {st.st_dev} ino {st.st_ino} mtime_ns {st.st_mtime_ns} ctime_ns {st.st_ctime_ns} "
            f"crc32 {crc:#010x}\n")


def _stamped(path: str, identity: str) -> bool:
    """Whether the stamp beside ``path`` records this very file as checked."""
    try:
        with open(path + STAMP_SUFFIX, encoding="ascii") as f:
            return f.read(len(identity) + 1) == identity
    except (OSError, UnicodeDecodeError):  # no stamp, or not ours: check in full
        return False


def _stamp(path: str, identity: str, st: os.stat_result) -> None:
    """Write the stamp beside ``path`` (a temporary renamed over it); skipped for a file too recently
    written (:data:`STAMP_SETTLE_SECONDS`) and where the directory cannot be written."""
    import time  # (built in: no import cost)

    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < STAMP_SETTLE_SECONDS * 1e9:
        return
    from _thread import get_ident

    target = path + STAMP_SUFFIX
    temporary = f"{target}.{os.getpid()}.{get_ident()}.tmp"
    try:
        with open(temporary, "w", encoding="ascii") as f:
            f.write(identity)
        os.replace(temporary, target)
    except OSError:  # a read-only install: every load checks in full, as without stamps
        try:
            os.remove(temporary)
        except OSError:
            pass


def _fail(path: str, problem: str, missing: bool = False) -> TableIntegrityError:
    err = TableIntegrityError(f"lookup table {path!r} {problem}: {REBUILD_HINT}")
    err.missing = missing
    return err


def check_present(directory: str | os.PathLike[str] | None = None) -> None:
    """Cheap import-time check (two ``stat`` calls): both table files exist.

    Only *missing* tables are caught here, at import, so that the ``auto`` backend policy can fall back
    to the Python twin (a kernel installed without its data is as unusable as no kernel).  A table that
    exists but is damaged in any way (size, header, checksum, ranges) fails when it is first loaded by
    :func:`read_table`, in every policy: damaged data is never papered over by a silent fallback.  A bad
    ``BADACEY_FAST_VERIFY_TABLES`` is refused here too (:func:`verify_policy`).

    >>> check_present()                       # the installed tables
    >>> check_present("/nonexistent")         # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    badacey_fast.errors.TableIntegrityError: lookup table '/nonexistent/badacey.tbl' is missing: rebuild it with `badacey build-tables` (or reinstall badacey_fast)
    """
    verify_policy()  # a bad BADACEY_FAST_VERIFY_TABLES is refused at import, before any output
    for game in (0, 1):
        path = table_path(game, directory)
        if not os.path.isfile(path):
            raise _fail(path, "is missing", missing=True)


def first_bad_entry(game: int, payload: bytes | bytearray | memoryview) -> int:
    """Index of the first entry of ``payload`` outside its range for game index ``game``, or -1.

    Five-card entries need a low rank in ``1..LOW_RANKS[game]`` and a badugi rank in ``1..1092``; the
    entry of a rank mask with 1 to 4 bits needs a badugi rank in ``1..1092`` and a zero low half; every
    other mask's entry must be 0.  This is the numpy twin of the kernel's ``bd_table_first_bad``
    (``csrc/tablecheck.c``), which the C twin passes to :func:`read_table`.

    >>> payload = bytearray(4 * ENTRIES)
    >>> first_bad_entry(0, payload)           # all zero: hand 0 has low rank 0
    0
    """
    import numpy as np

    entries = np.frombuffer(payload, dtype="<u4")
    if entries.size != ENTRIES:
        raise ShapeError(f"payload holds {entries.size} entries, expected {ENTRIES}")
    five = entries[:HANDS5]
    # uint32 wrap-around: rank 0 becomes 2**32 - 1, as out of range as a rank past the scale.
    bad = ((five & 0xFFFF) - np.uint32(1) >= LOW_RANKS[game]) | ((five >> 16) - np.uint32(1) >= BADUGI_RANKS)
    found = np.flatnonzero(bad)
    if found.size:
        return int(found[0])
    masks = entries[HANDS5:]
    bits = np.array([bin(m).count("1") for m in range(BADUGI_MASKS)])
    badugi = (bits >= 1) & (bits <= 4)
    bad = np.where(badugi, ((masks & 0xFFFF) != 0) | ((masks >> 16) - np.uint32(1) >= BADUGI_RANKS), masks != 0)
    found = np.flatnonzero(bad)
    return HANDS5 + int(found[0]) if found.size else -1


def _describe_entry(game: int, index: int, entry: int) -> str:
    if index < HANDS5:
        return (f"hand {index} holds low rank {entry & 0xFFFF} (expected 1..{LOW_RANKS[game]}) and "
                f"badugi rank {entry >> 16} (expected 1..{BADUGI_RANKS})")
    mask = index - HANDS5
    bits = bin(mask).count("1")
    expected = f"badugi rank 1..{BADUGI_RANKS} << 16" if 1 <= bits <= 4 else "0"
    return f"rank mask {mask:#06x} ({bits} ranks) holds {entry:#010x}, expected {expected}"


def _check(path: str, game: int, st: os.stat_result, head: bytes, payload: memoryview,
           first_bad: Callable[[int, memoryview], int] | None) -> None:
    """Every integrity check of a table file (status ``st``, starting with ``head``, ``payload`` the
    entries that follow): raises :class:`TableIntegrityError` naming the first problem found.  The
    header and size always; the checksum and ranges unless the file's stamp records it checked."""
    size = st.st_size
    wrong_size = f"has the wrong size ({size} bytes, expected {FILE_SIZE}: truncated, or not a table)"
    if len(head) < HEADER_SIZE:
        raise _fail(path, wrong_size)
    # The header first, field by field: a file of another format version has another size too, and
    # "format version 2" says more than "wrong size".
    magic, version, file_game, hands, masks, crc, reserved = _HEADER.unpack(head)
    if magic != MAGIC:
        raise _fail(path, f"is not a badacey_fast table (bad magic {magic!r}, expected {MAGIC!r})")
    if version != FORMAT_VERSION:
        raise _fail(path, f"has format version {version}, expected {FORMAT_VERSION}")
    if file_game != game:
        raise _fail(path, f"holds game {file_game}, expected {game}")
    if hands != HANDS5:
        raise _fail(path, f"has hand count {hands} in its header, expected {HANDS5}")
    if masks != BADUGI_MASKS:
        raise _fail(path, f"has mask count {masks} in its header, expected {BADUGI_MASKS}")
    if reserved != 0:
        raise _fail(path, f"has reserved header field {reserved}, expected 0")
    if size != FILE_SIZE or payload.nbytes != 4 * ENTRIES:
        raise _fail(path, wrong_size)
    once = verify_policy() == "once"
    identity = _identity(game, st, crc)
    if once and _stamped(path, identity):
        return
    actual = zlib.crc32(payload)
    if actual != crc:
        raise _fail(path, f"is corrupted (checksum mismatch: header says {crc:#010x}, payload has {actual:#010x})")
    bad = (first_bad or first_bad_entry)(game, payload)
    if bad >= 0:
        entry = int.from_bytes(payload[4 * bad : 4 * bad + 4], "little")
        raise _fail(path, f"has an out-of-range entry: {_describe_entry(game, bad, entry)}")
    if once:
        _stamp(path, identity, st)


def _check_byteorder() -> None:
    if sys.byteorder != "little":  # pragma: no cover - the tables are little-endian
        raise TableIntegrityError("the lookup tables are little-endian; this machine is big-endian")


def read_table(game: int, into: memoryview, directory: str | os.PathLike[str] | None = None,
               first_bad: Callable[[int, memoryview], int] | None = None) -> str:
    """Read and verify the table of game index ``game`` into the writable buffer ``into``.

    ``into`` must hold exactly ``4 * ENTRIES`` bytes; the payload is copied there (a private copy: see
    :func:`map_table` for the shared, memory-mapped one the kernel uses).  Returns the path read.
    Raises :class:`TableIntegrityError` (naming the file, what is wrong and the fix) if the file is
    missing, has a bad header (magic; version, game, hand count, mask count or reserved field other than
    expected), the wrong size, a bad checksum, or an entry outside its range (see
    :func:`first_bad_entry`; a crafted file can carry a valid checksum).  ``first_bad``: the range check
    to use, ``f(game, payload) -> index or -1``; the kernel passes its own (0.6 ms, where numpy's costs
    2 ms plus ~50 ms to import numpy, which ``import badacey_fast`` and a first evaluate never do).

    >>> buf = bytearray(4 * ENTRIES)
    >>> os.path.basename(read_table(0, memoryview(buf)))
    'badacey.tbl'
    >>> from badacey_fast.rules import reference
    >>> low = int.from_bytes(buf[:4], "little") & 0xFFFF   # hand 0 = Ac Ad Ah As 2c, four aces
    >>> low == reference.low_rank((0, 1, 2, 3, 4), "badacey")
    True
    >>> read_table(0, memoryview(bytearray(8)))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShapeError: buffer holds 8 bytes, expected 10428608
    """
    path = table_path(game, directory)
    into = memoryview(into).cast("B")
    if into.nbytes != 4 * ENTRIES:
        raise ShapeError(f"buffer holds {into.nbytes} bytes, expected {4 * ENTRIES}")
    _check_byteorder()
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            head = f.read(HEADER_SIZE)
            got = f.readinto(into) if len(head) == HEADER_SIZE else 0
    except FileNotFoundError:
        raise _fail(path, "is missing", missing=True) from None
    except OSError as exc:
        raise _fail(path, f"cannot be read ({exc.strerror})") from None
    _check(path, game, st, head, into if got == into.nbytes else into[:got], first_bad)
    return path


def map_table(game: int, directory: str | os.PathLike[str] | None = None,
              first_bad: Callable[[int, memoryview], int] | None = None) -> tuple[memoryview, str]:
    """Memory-map the table of game index ``game`` read-only and verify it: (the payload, the path).

    The same checks as :func:`read_table`, on the mapped bytes.  Why a map rather than a copy: every
    process that maps the file shares its page-cache pages, so N worker processes (Dask, multiprocessing)
    keep ONE 10 MB copy in the shared L3 cache instead of N that evict each other (measured with two
    processes scoring at once: 8-10 % less CPU per deal).  The map is read-only and the file is never
    written in place by this package (``badacey build-tables`` writes a new file and renames it over the
    old one, which leaves running processes on the old, checked pages); overwriting a table file in place
    while a process runs is not supported.  Where the file cannot be mapped (a filesystem without
    ``mmap``) the payload is a private copy read by :func:`read_table`.  The returned memoryview holds
    the map open for as long as it (or anything made from it) lives.

    >>> payload, path = map_table(0)
    >>> payload.readonly, payload.nbytes == 4 * ENTRIES, os.path.basename(path)
    (True, True, 'badacey.tbl')
    """
    import mmap

    path = table_path(game, directory)
    _check_byteorder()
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            size = st.st_size
            try:
                mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else None
            except (OSError, ValueError):
                mapped = None
            if mapped is None and size >= HEADER_SIZE:  # no mmap here: a private copy
                buf = bytearray(4 * ENTRIES)
                read_table(game, memoryview(buf), directory, first_bad)
                return memoryview(buf).toreadonly(), path
    except FileNotFoundError:
        raise _fail(path, "is missing", missing=True) from None
    except OSError as exc:
        raise _fail(path, f"cannot be read ({exc.strerror})") from None
    whole = memoryview(mapped if mapped is not None else b"")
    head = bytes(whole[:HEADER_SIZE])
    _check(path, game, st, head, whole[HEADER_SIZE:], first_bad)
    return whole[HEADER_SIZE:], path
