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
reference rules) and checked at load time (size, header and CRC-32) by :func:`read_table`: a missing,
truncated or corrupted file raises :class:`~badacey_fast.errors.TableIntegrityError` naming the file and
the command that rebuilds it.

>>> os.path.basename(table_path(1))
'badeucy.tbl'
>>> table_path(2)
Traceback (most recent call last):
...
ValueError: game index 2 is not 0 (Badacey) or 1 (Badeucy)
"""

from __future__ import annotations

import os
import struct
import sys
import zlib

from badacey_fast.errors import TableIntegrityError

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
    "check_present",
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
REBUILD_HINT = "rebuild it with `badacey build-tables` (or reinstall badacey_fast)"


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
        raise ValueError(f"game index {game} is not 0 (Badacey) or 1 (Badeucy)")
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
    ValueError: game index 5 is not 0 (Badacey) or 1 (Badeucy)
    """
    return _HEADER.pack(MAGIC, FORMAT_VERSION, _check_game(game), HANDS5, BADUGI_MASKS, zlib.crc32(payload), 0)


def _fail(path: str, problem: str) -> TableIntegrityError:
    return TableIntegrityError(f"lookup table {path!r} {problem}: {REBUILD_HINT}")


def check_present(directory: str | os.PathLike[str] | None = None) -> None:
    """Cheap import-time check (two ``stat`` calls): both table files exist with the right size.

    The full check (header and CRC-32) happens when a table is first loaded by :func:`read_table`.

    >>> check_present()                       # the installed tables
    >>> check_present("/nonexistent")         # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    badacey_fast.errors.TableIntegrityError: lookup table '/nonexistent/badacey.tbl' is missing: rebuild it with `badacey build-tables` (or reinstall badacey_fast)
    """
    for game in (0, 1):
        path = table_path(game, directory)
        try:
            size = os.stat(path).st_size
        except OSError:
            raise _fail(path, "is missing") from None
        if size != FILE_SIZE:
            raise _fail(path, f"has {size} bytes, expected {FILE_SIZE} (truncated or wrong version)")


def read_table(game: int, into: memoryview, directory: str | os.PathLike[str] | None = None) -> str:
    """Read and verify the table of game index ``game`` into the writable buffer ``into``.

    ``into`` must hold exactly ``4 * ENTRIES`` bytes; the payload is copied there (read once, no
    memory map, so replacing the file later cannot change a running process).  Returns the path read.
    Raises :class:`TableIntegrityError` (naming the file and the fix) if the file is missing, has the
    wrong size, a bad header or a bad checksum.

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
    ValueError: buffer holds 8 bytes, expected 10428608
    """
    path = table_path(game, directory)
    into = memoryview(into).cast("B")
    if into.nbytes != 4 * ENTRIES:
        raise ValueError(f"buffer holds {into.nbytes} bytes, expected {4 * ENTRIES}")
    if sys.byteorder != "little":  # pragma: no cover - the tables are little-endian
        raise TableIntegrityError("the lookup tables are little-endian; this machine is big-endian")
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_SIZE)
            got = f.readinto(into) if len(head) == HEADER_SIZE else 0
            extra = f.read(1)
    except FileNotFoundError:
        raise _fail(path, "is missing") from None
    except OSError as exc:
        raise _fail(path, f"cannot be read ({exc.strerror})") from None
    if len(head) < HEADER_SIZE or got != into.nbytes or extra:
        raise _fail(path, "has the wrong size (truncated or wrong version)")
    magic, version, file_game, hands, masks, crc, _ = _HEADER.unpack(head)
    if magic != MAGIC:
        raise _fail(path, "is not a badacey_fast table (bad magic)")
    if version != FORMAT_VERSION or hands != HANDS5 or masks != BADUGI_MASKS:
        raise _fail(path, f"has format version {version}, expected {FORMAT_VERSION}")
    if file_game != game:
        raise _fail(path, f"holds game {file_game}, expected {game}")
    if zlib.crc32(into) != crc:
        raise _fail(path, "is corrupted (checksum mismatch)")
    return path
