"""``badacey build-tables``: regenerate the perfect-hash lookup tables (from the reference rules, ~2 s)
where the package loads them, which is the fix named by every table-integrity error.

(The benchmarks are not a ``badacey`` command: they live in the source tree's ``bench/``, see the docs'
Performance page.)

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="badacey")
>>> register(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["build-tables", "--out", "somewhere"]).out
'somewhere'
>>> parser.parse_args(["build-tables", "--no-such-option"])
Traceback (most recent call last):
...
SystemExit: 2
"""

from __future__ import annotations

import argparse
import hashlib
import os
import time

from badacey_fast.cli.command import summary
from badacey_fast.errors import BadaceyError
from badacey_fast.tables import format as tables

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``build-tables`` to the ``badacey`` command's subparsers."""
    p = subparsers.add_parser(
        "build-tables",
        help=summary("build-tables"),
        description="Regenerate both lookup tables from the reference rules and check them on reload.",
    )
    p.add_argument("--out", metavar="DIR", help=f"write here instead of {tables.data_dir()}")
    p.set_defaults(handler=_build_tables)


def _build_tables(args: argparse.Namespace) -> int:
    from badacey_fast.tables import generate as _tablegen

    start = time.perf_counter()
    try:
        paths = _tablegen.build_tables(args.out if args.out else tables.data_dir())
    except OSError as exc:
        raise BadaceyError(f"cannot write the tables: {exc.filename or ''} {exc.strerror or exc}") from None
    seconds = time.perf_counter() - start
    buf = bytearray(4 * tables.ENTRIES)
    for game, path in enumerate(paths):
        tables.read_table(game, memoryview(buf), os.path.dirname(path))  # reload with the integrity checks
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        print(f"{path}  sha256 {digest}")
    print(f"built and verified {len(paths)} tables in {seconds:.2f} s")
    return 0
