"""Generate the perfect-hash lookup tables from the reference rules (the build step of ``setup.py``).

Usage (from anywhere; the source tree this file belongs to is imported, never an installed copy)::

    python tables/generate.py                 # write badacey_fast/_data/{badacey,badeucy}.tbl
    python tables/generate.py --out DIR       # write them elsewhere
    python tables/generate.py --check         # ... and compare with the golden tables/SHA256SUMS
    python tables/generate.py --update-sums   # ... and rewrite SHA256SUMS (after a deliberate change)

Every entry is derived from :mod:`badacey_fast.rules.reference`'s value classes (see
:mod:`badacey_fast.tables.generate`) with the standard library alone: the build step needs neither numpy
nor the compiled extension (it runs before either exists; the backend is forced to the Python twin here).
It takes about a second.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SUMS = HERE / "SHA256SUMS"


def sha256_of(path: Path) -> str:
    """Hex SHA-256 digest of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def golden_sums(sums: Path = SUMS) -> dict[str, str]:
    """The committed digests: file name -> hex SHA-256."""
    out = {}
    for line in sums.read_text(encoding="ascii").splitlines():
        if line.strip() and not line.startswith("#"):
            digest, name = line.split()
            out[name.lstrip("*")] = digest
    return out


def main(argv: list[str] | None = None) -> int:
    """Generate the tables; returns an exit status (1 when ``--check`` finds a digest mismatch)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "badacey_fast" / "_data")
    parser.add_argument("--check", action="store_true", help="compare digests with tables/SHA256SUMS")
    parser.add_argument("--update-sums", action="store_true", help="rewrite tables/SHA256SUMS")
    args = parser.parse_args(argv)

    # Import the reference from THIS source tree, without trying to load the not-yet-built kernel.
    if "badacey_fast" not in sys.modules:
        os.environ["BADACEY_FAST_BACKEND"] = "python"
        sys.path.insert(0, str(ROOT))
    from badacey_fast.tables import generate as _tablegen

    start = time.perf_counter()
    paths = _tablegen.build_tables(args.out)
    print(f"badacey_fast tables: wrote {', '.join(str(p) for p in paths)} "
          f"in {time.perf_counter() - start:.2f} s")
    digests = {p.name: sha256_of(p) for p in paths}
    if args.update_sums:
        SUMS.write_text("".join(f"{d}  {n}\n" for n, d in sorted(digests.items())), encoding="ascii")
        print(f"updated {SUMS}")
    if args.check:
        golden = golden_sums()
        bad = [n for n, d in digests.items() if golden.get(n) != d]
        for n in bad:
            print(f"{n}: digest {digests[n]} != golden {golden.get(n)}", file=sys.stderr)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
