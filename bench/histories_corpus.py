"""Repeat the corpus check of issue 25: ``badacey import --check`` over FPDB's draw-game regression files.

FPDB (https://github.com/jejellyroll-fr/fpdb-3, AGPL: its files are read here, never copied into this
repository) keeps real hand histories of PokerStars, Full Tilt, Winamax, Merge, KingsClub, OnGame and Boss
under ``regression-test-files/{cash,tour}/<room>/Draw/``, each beside FPDB's own expected outputs
(``.hp``, ``.gt``, ``.hands``: Python data, no hand history), which this script leaves out.

Run::

    git clone --depth 1 https://github.com/jejellyroll-fr/fpdb-3
    python bench/histories_corpus.py fpdb-3 [--json] [-o hands.jsonl]

It prints the command's summary per room and variant and every disagreement with its reason, and exits
with the command's status (0: every hand read).
"""

from __future__ import annotations

import argparse
import os
import sys

SKIP = (".hp", ".gt", ".hands")


def corpus_files(root: str) -> list[str]:
    """The draw-game hand-history files of an FPDB checkout (or of its regression-test-files folder)."""
    base = os.path.join(root, "regression-test-files") if os.path.isdir(
        os.path.join(root, "regression-test-files")) else root
    out = []
    for kind in ("cash", "tour"):
        rooms = os.path.join(base, kind)
        if not os.path.isdir(rooms):
            continue
        for room in sorted(os.listdir(rooms)):
            folder = os.path.join(rooms, room, "Draw")
            if os.path.isdir(folder):
                out += [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if not f.endswith(SKIP)]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("fpdb", help="an FPDB checkout (fpdb-3) or its regression-test-files folder")
    p.add_argument("--json", action="store_true", help="the summary as JSON")
    p.add_argument("-o", "--output", help="also write the hands (.jsonl, .phhs or .parquet)")
    args = p.parse_args()
    files = corpus_files(args.fpdb)
    if not files:
        print(f"no */*/Draw/ folders under {args.fpdb!r}", file=sys.stderr)
        return 2
    from badacey_fast.cli.command import main as badacey

    argv = ["import", *files, "--check", "--no-progress"]
    if args.json:
        argv.append("--json")
    if args.output:
        argv += ["-o", args.output]
    return badacey(argv)


if __name__ == "__main__":
    sys.exit(main())
