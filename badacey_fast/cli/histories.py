"""``badacey import``: read real hand histories, count them per room and game, and (``--check``) replay
them and compare the rules' settlement with what the room paid; ``-o`` writes them as JSON lines, a PHH
set or Parquet; ``--stats`` prints each player's statistics.

Exit status: 0 when every hand was read, 1 when some were malformed (each named ``file:line: reason`` on
stderr; the others are still read, written and checked), 2 for a usage error (a path that holds nothing,
an unknown room, an output that is an input, a missing optional extra).  Nothing heavy is imported until
the command runs.

>>> import os, tempfile
>>> from badacey_fast.cli.command import main
>>> from badacey_fast.histories.model import EXAMPLE
>>> folder = tempfile.mkdtemp()
>>> with open(os.path.join(folder, "stars.txt"), "w") as f:
...     _ = f.write(EXAMPLE)
>>> main(["import", folder, "--check"])
room        variant  read  replayed  agree  disagree  skipped  malformed
PokerStars  Badugi      1         1      1         0        0          0
total                   1         1      1         0        0          0
check: 1 hand replayed, 1 agrees with the room, 0 disagree
0
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any
from badacey_fast.cli.progress import add_progress_option, progress_bar

if TYPE_CHECKING:
    from badacey_fast.errors import HandHistoryError
    from badacey_fast.histories.audit import Check
    from badacey_fast.histories.model import RealHand

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``import`` to the ``badacey`` command's subparsers.

    >>> parser = argparse.ArgumentParser(prog="badacey")
    >>> register(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["import", "a.txt", "b/", "-o", "hands.jsonl", "--check"])
    >>> args.paths, args.output, args.check, args.site
    (['a.txt', 'b/'], 'hands.jsonl', True, 'auto')
    """
    p = subparsers.add_parser(
        "import",
        help="read real hand histories (PokerStars, Full Tilt, Winamax, KingsClub, Merge, OnGame, Boss)",
        description="Read the hand histories in PATH... (files, folders read recursively, globs), count them per "
        "room and game, and with --check replay every fixed-limit hand of our games in the rules engine and "
        "compare the settlement with what the room paid. Exit 0: every hand read; 1: some malformed (named "
        "file:line: reason on stderr); 2: usage error.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="hand history files, folders or globs")
    p.add_argument("-o", "--output", help="write the hands to OUTPUT: .jsonl (JSON lines), .phhs (PHH) or .parquet")
    p.add_argument("--check", action="store_true",
                   help="replay each hand and compare the rules' settlement with the room's; list every difference")
    p.add_argument("--stats", action="store_true", help="print each player's statistics per game (needs pandas)")
    p.add_argument("--site", default="auto", help="read only this room's hands (default: auto, per hand)")
    p.add_argument("--json", action="store_true", help="print the summary (and check) as JSON")
    add_progress_option(p)
    p.set_defaults(handler=run)


def _usage(message: str) -> int:
    print(f"badacey import: error: {message}", file=sys.stderr)
    return 2


def _inputs(paths: list[str]) -> tuple[list[str], list[str]]:
    """(every input file, every input folder) of the paths, for the output-is-not-an-input check."""
    from badacey_fast.histories.sources import sources

    files: list[str] = []
    folders: list[str] = [os.path.realpath(p) for p in paths if os.path.isdir(p)]
    for p in paths:
        if not os.path.isdir(p) and os.path.exists(p):
            files.append(os.path.realpath(p))
    if not files and not folders:
        for name, _ in sources(paths):  # globs: resolve them (this raises FileNotFoundError when nothing matches)
            files.append(os.path.realpath(name))
    return files, folders


def run(args: argparse.Namespace) -> int:
    """The command (see the module docstring); returns the exit status."""
    from badacey_fast.histories.reader import parse
    from badacey_fast.histories.sites import site_named

    if args.site != "auto":
        try:
            site_named(args.site)
        except ValueError as exc:
            return _usage(str(exc))
    for path in args.paths:
        if not os.path.exists(path) and not set("*?[") & set(path):
            return _usage(f"no hand histories at {path!r}: no such file or directory")
    writer = None
    if args.output:
        from badacey_fast.histories.output import HandWriter, output_format

        try:
            files, folders = _inputs(args.paths)
        except FileNotFoundError as exc:
            return _usage(str(exc))
        target = os.path.realpath(args.output)
        if target in files or any(target.startswith(folder + os.sep) for folder in folders):
            return _usage(f"the output {args.output!r} is one of the inputs: write it elsewhere")
        from badacey_fast.errors import BadaceyError
        from badacey_fast.files.outputs import check_not_input

        try:  # the one rule every command asks: a hard link to an input is that input too
            check_not_input(args.output, files)
        except BadaceyError as exc:
            return _usage(str(exc))
        try:
            output_format(args.output)
        except ValueError as exc:
            return _usage(str(exc))
        if not os.path.isdir(os.path.dirname(target)):
            return _usage(f"no folder for the output {args.output!r}")
        try:
            writer = HandWriter(args.output)
            if writer.format == "parquet":
                from badacey_fast.files.arrow import require_pyarrow

                require_pyarrow()
        except ImportError as exc:
            return _usage(str(exc))
    stats_rows: list[dict[str, Any]] | None = None
    if args.stats:
        from badacey_fast.histories.table import require_pandas

        try:
            require_pandas()
        except ImportError as exc:
            return _usage(str(exc))
        stats_rows = []
    summary = _Summary(args.check)
    bad: list[HandHistoryError] = []

    def on_bad(err: HandHistoryError) -> None:
        bad.append(err)
        summary.problem(err)
        print(str(err), file=sys.stderr)

    hands = parse(args.paths, site=args.site, on_bad_hand=on_bad)
    bar = progress_bar(args, desc="import", unit=" hands", delay=0.0, iterable=hands)
    try:
        if writer is not None:
            with writer:
                _loop(bar, args, summary, writer, stats_rows)
        else:
            _loop(bar, args, summary, None, stats_rows)
    except FileNotFoundError as exc:
        return _usage(str(exc))
    finally:
        bar.close()
    _print(summary, args, writer, stats_rows)
    return 1 if summary.malformed_total() else 0


def _loop(hands: Any, args: argparse.Namespace, summary: _Summary, writer: Any,
          stats_rows: list[dict[str, Any]] | None) -> None:
    from badacey_fast.histories.audit import check
    from badacey_fast.histories.table import player_rows

    for hand in hands:
        result = check(hand) if args.check else None
        summary.add(hand, result)
        if writer is not None:
            writer.add(hand, result.replay if result is not None else None)
        if stats_rows is not None:
            stats_rows.extend(player_rows(hand))


class _Summary:
    """Counts per room and variant, and the check's report."""

    def __init__(self, checking: bool) -> None:
        self.checking = checking
        self.rows: dict[tuple[str, str], dict[str, int]] = {}
        self.skips: dict[str, int] = {}
        self.reasons: dict[str, int] = {}
        self.report: list[str] = []
        self.showdowns = {"judged": 0, "room": 0, "none": 0}
        self.nets_equal = 0
        self.problems: dict[str, int] = {}

    def _row(self, site: str, variant: str) -> dict[str, int]:
        return self.rows.setdefault((site, variant), {"read": 0, "replayed": 0, "agree": 0, "disagree": 0,
                                                      "skipped": 0, "malformed": 0})

    def add(self, hand: RealHand, result: Check | None) -> None:
        row = self._row(hand.site, hand.variant)
        row["read"] += 1
        if result is None:
            return
        if result.status == "skipped":
            row["skipped"] += 1
            reason = result.skipped or "?"
            self.skips[reason] = self.skips.get(reason, 0) + 1
            return
        row["replayed"] += 1
        row[result.status] += 1
        if result.showdown:
            self.showdowns[result.showdown] += 1
        if result.nets_equal:
            self.nets_equal += 1
        for d in result.disagreements:
            self.reasons[d.reason] = self.reasons.get(d.reason, 0) + 1
        if result.disagreements:
            self.report.append(result.report())

    def problem(self, err: HandHistoryError) -> None:
        kind = err.kind
        self.problems[kind] = self.problems.get(kind, 0) + 1
        if kind != "duplicate":
            self._row(err.site or "(none)", err.variant or ("garbage" if kind == "garbage" else "?"))["malformed"] += 1

    def malformed_total(self) -> int:
        return sum(n for kind, n in self.problems.items() if kind != "duplicate")


def _print(summary: _Summary, args: argparse.Namespace, writer: Any, stats_rows: list[dict[str, Any]] | None) -> None:
    if args.json:
        import json

        doc: dict[str, Any] = {
            "rooms": [{"site": s, "variant": v, **counts} for (s, v), counts in sorted(summary.rows.items())],
            "problems": summary.problems,
        }
        if summary.checking:
            doc["check"] = {"skipped": summary.skips, "disagreements": summary.reasons,
                            "showdowns": summary.showdowns, "nets_equal": summary.nets_equal,
                            "report": [line for block in summary.report for line in block.splitlines()]}
        if writer is not None:
            doc["output"] = {"path": writer.path, "written": writer.written, "skipped": writer.skipped}
        print(json.dumps(doc, indent=2))
    else:
        columns = ["read", "replayed", "agree", "disagree", "skipped", "malformed"] if summary.checking else \
            ["read", "malformed"]
        table = [["room", "variant"] + columns]
        totals = dict.fromkeys(columns, 0)
        for (site, variant), counts in sorted(summary.rows.items()):
            table.append([site, variant] + [str(counts[c]) for c in columns])
            for c in columns:
                totals[c] += counts[c]
        table.append(["total", ""] + [str(totals[c]) for c in columns])
        widths = [max(len(r[k]) for r in table) for k in range(len(table[0]))]
        for r in table:
            cells = [r[k].ljust(widths[k]) if k < 2 else r[k].rjust(widths[k]) for k in range(len(r))]
            print("  ".join(cells).rstrip())
        if summary.problems.get("duplicate"):
            print(f"duplicates: {summary.problems['duplicate']} hand(s) given twice, read once")
        if summary.checking:
            replayed = totals["replayed"]
            print(f"check: {replayed} hand{'s' if replayed != 1 else ''} replayed, {totals['agree']} "
                  f"agree{'s' if totals['agree'] == 1 else ''} with the room, {totals['disagree']} disagree")
            if summary.skips:
                print("not replayed: " + "; ".join(f"{n} {reason}" for reason, n in sorted(
                    summary.skips.items(), key=lambda kv: -kv[1])))
            if summary.reasons:
                print("differences: " + ", ".join(f"{n} {r}" for r, n in sorted(summary.reasons.items())))
            for block in summary.report:
                print(block)
        if writer is not None:
            extra = "".join(f"; {n} not written: {reason}" for reason, n in writer.skipped.items())
            print(f"wrote {writer.written} hand{'s' if writer.written != 1 else ''} to {writer.path}{extra}")
    if stats_rows is not None:
        from badacey_fast.histories.table import require_pandas, stats

        pd = require_pandas()
        frame = stats(pd.DataFrame(stats_rows)) if stats_rows else pd.DataFrame()
        if args.json:
            out = frame.reset_index()
            if "net" in out:  # exact money as text: pandas 2 would write a Decimal as a float
                out["net"] = [None if v is None else str(v) for v in out["net"]]
            print(out.to_json(orient="records", indent=2, default_handler=str))
        else:
            with pd.option_context("display.max_rows", None, "display.width", 200, "display.precision", 3):
                print(frame.to_string() if not frame.empty else "no hands")
