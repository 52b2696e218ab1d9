"""Scoring files: settle a file of deals, one per line, in chunks, with the bulk showdown kernel.

**Input** (UTF-8 text; a line ends with ``\\n``, ``\\r\\n`` or a lone ``\\r``; blank lines (spaces and
tabs only) and ``#`` comment lines are skipped):

- *Plain text*: ``[POT [BUTTON]] HAND HAND ...`` -- optional pot (chips, digits) and button (seat
  number), then one hand per seat, each five cards written without spaces (``As2h3d4c5s``; any spelling
  :func:`~badacey_fast.cards.parse_cards` accepts, e.g. ``10h`` or ``A♠``), or ``-`` for a folded seat.
- *CSV*: a header line naming the columns ``seat0`` .. ``seatP-1`` (all of them, any order) and optionally
  ``pot`` and ``button``; other columns are ignored.  A seat field is a hand (cards with or without
  spaces) or empty / ``-`` for a folded seat; an empty pot or button takes the default.

Every line of a file has the same number of seats P (2..6): the header's, or the first deal's.  A missing
pot is ``pot`` (default 120, which every split of 2..6 seats divides exactly, so payouts / 120 are the
exact shares); a missing button is ``button`` (default 0).

**Output** (CSV): ``row,payout_0,...,payout_{P-1},low_winners,badugi_winners`` -- the columns of every
payout file (:mod:`badacey_fast.files.arrow`'s payout schema): ``row``, the deal's line number in the
input (as the error messages count), each seat's chips (odd chips by the ``odd_chip`` policy, RULES.md
§3), and the seats that won each half, separated by spaces (lower rank is better; a lone live seat wins
both halves).  ``rows=`` hands the same columns, as arrays, to a writer of another format instead.

A malformed line (bad card, a card held twice, wrong seat count, no live seat, a bad pot or button) stops
the run with an error naming its line number and the reason: an output path then keeps its old file
(outputs are written whole or not at all, :mod:`badacey_fast.files.outputs`), an output stream the good
lines before it.  With ``skip_bad=True`` it is counted, reported in the result, and the run goes on.  (A bad CSV
header or first line, or a line longer than 1 MiB, always stops the run: the rest cannot be read.)

>>> import io
>>> out = io.BytesIO()
>>> score_file(io.BytesIO(b"As2h3d4c5s 2c3h4d5c6s\\n101 1 As2h3d4cKc Ac2d3h4s5s\\n"), out).deals
2
>>> print(out.getvalue().decode(), end="")
row,payout_0,payout_1,low_winners,badugi_winners
1,120,0,0,0
2,26,75,1,0 1
>>> score_file(io.BytesIO(b"As2h3d4c5s As3h4d5c6s\\n"), io.BytesIO())
Traceback (most recent call last):
...
badacey_fast.errors.DuplicateCardError: line 1: card 'As' is held twice (seat 0 and seat 1)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, BinaryIO, NamedTuple

import numpy as np

from badacey_fast.bulk import showdown as bulk_showdown
from badacey_fast.errors import BadaceyError, ShowdownError
from badacey_fast.files.generate import generate_deals
from badacey_fast.files.outputs import check_not_input
from badacey_fast.files.lines import (LINE_END, MAX_CHIPS, Layout, ParsedDeal, decode_line, is_skipped, layout_of,
                                      parse_deal, split_lines, with_line)
from badacey_fast.files.streams import MAX_LINE, line_blocks, opened, stdout_bytes, too_long
from badacey_fast import kernel
from badacey_fast.rules.games import Scoring, scoring
from badacey_fast.rules.odd_chips import check_odd_chip

#: ``rows(row, chips, low, badugi)``: the scored deals of one chunk as arrays -- row (line) numbers (N,)
#: int64, chips (N, P) int64, and the winners of each half (N, P), nonzero = won.
RowSink = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]], None]

# parse_deal (deal_lines) and generate_deals (deal_gen) are re-exported: this module stays the one place
# callers import deal-file work from.
__all__ = ["DEFAULT_POT", "ScoreReport", "score_file", "chip_totals", "generate_deals", "parse_deal"]

#: Default pot: 120 chips divide exactly among any winners of 2..6 seats (halves of 60 = lcm(1..6)).
DEFAULT_POT = 120
_MAX_ERRORS_KEPT = 100
#: Lines per kernel call at most: the chunk buffers are sized by it, so a larger ``chunk`` would only
#: ask for memory (a billion lines: hundreds of GB) without making the run faster.
_MAX_CHUNK = 1 << 16


_INT64_MAX = 2**63 - 1


def chip_totals(chips: np.ndarray[Any, Any], *, axis: int = 0, bound: int | None = None) -> list[int]:
    """Each seat's exact total of ``chips`` (an int64 array of payouts, one row per deal along ``axis``,
    one seat per index of the other axis) as Python ints: the one sum behind every scorer's per-seat
    totals, which never wrap around whatever the pots and the number of deals.

    ``bound``: a number no payout exceeds in size (a run's largest pot), which spares a pass over
    ``chips`` to find it.  When that bound times the rows fits in int64 numpy adds in int64 (one pass);
    otherwise each value is split into its high and low 32 bits, summed apart (neither sum can wrap
    for fewer than 2**31 rows) and joined as Python ints.

    >>> chip_totals(np.array([[120, 0], [26, 75]]))
    [146, 75]
    >>> chip_totals(np.full((4, 2), 2**62, dtype=np.int64))  # int64 alone would give [0, 0]
    [18446744073709551616, 18446744073709551616]
    """
    chips = np.asarray(chips)
    if chips.ndim != 2 or chips.dtype != np.int64:
        raise TypeError(f"chip_totals: expected a 2-D int64 array, got {chips.ndim}-D {chips.dtype}")
    rows, seats = chips.shape[axis], chips.shape[1 - axis]
    if rows == 0:
        return [0] * seats
    if rows >= 1 << 31:  # the split sums below hold for fewer rows: add slices
        step = 1 << 30
        parts = [chip_totals(np.take(chips, range(i, min(i + step, rows)), axis=axis), axis=axis, bound=bound)
                 for i in range(0, rows, step)]
        return [sum(column) for column in zip(*parts)]
    peak = bound if bound is not None else max(-int(chips.min()), int(chips.max()))
    if peak * rows <= _INT64_MAX:
        return [int(x) for x in chips.sum(axis=axis, dtype=np.int64)]
    high = np.right_shift(chips, 32).sum(axis=axis, dtype=np.int64)  # each in [-2**31, 2**31)
    low = np.bitwise_and(chips, 0xFFFFFFFF).sum(axis=axis, dtype=np.int64)  # each in [0, 2**32)
    return [(int(h) << 32) + int(lo) for h, lo in zip(high.tolist(), low.tolist())]


class ScoreReport(NamedTuple):
    """What :func:`score_file` did: ``lines`` read, ``deals`` scored, ``bad`` lines skipped, and the
    first 100 bad lines as ``(line number, reason)`` pairs in ``errors``."""

    lines: int
    deals: int
    bad: int
    errors: list[tuple[int, str]]


def score_file(
    source: str | os.PathLike[str] | BinaryIO,
    out: str | os.PathLike[str] | BinaryIO | None = None,
    *,
    game: str = "badacey",
    odd_chip: str = "position",
    pot: int = DEFAULT_POT,
    button: int = 0,
    skip_bad: bool = False,
    chunk: int = 16384,
    fmt: str = "auto",
    progress: Callable[[int], object] | None = None,
    totals: list[int] | None = None,
    rows: RowSink | None = None,
) -> ScoreReport:
    """Score a file of deals (see the module docstring for the formats) and write payouts CSV to ``out``
    (or, given ``rows``, hand each chunk's payouts to it as arrays and write nothing: ``out`` must be None).

    ``source``/``out``: paths or binary streams (``out=None``: standard output); an ``out`` that is the
    ``source`` (the same file by any path or link, or a stream open on it) is refused before anything is
    written.  ``pot`` (chips >= 0)
    and ``button`` (seat) are the defaults for lines that do not give them.  ``chunk``: lines per kernel
    call (memory stays flat in the file size; at most 65,536 are used, as a larger value would only ask for
    more memory).  ``fmt``: "auto" (CSV when the first line has a comma), "text" or "csv".  ``progress(n)``
    is called with each block's size in bytes.  ``totals``: an optional list that receives each seat's
    total payout over the deals scored (exact ints, :func:`chip_totals`; when a line stops the run, over
    the deals before it).  Returns a :class:`ScoreReport`;
    without ``skip_bad`` a malformed line raises a ``BadaceyError`` naming it.

    >>> import io
    >>> deals = b"pot,seat0,seat1\\n10,As 2h 3d 4c 5s,-\\n7,x,Kc9d7h5s2c\\n"
    >>> score_file(io.BytesIO(deals), io.BytesIO(), skip_bad=True)
    ScoreReport(lines=3, deals=1, bad=1, errors=[(3, "unknown card 'x'")])
    >>> score_file(io.BytesIO(deals), io.BytesIO(), chunk=0)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: chunk must be at least 1 line, got 0
    """
    rules = scoring(game)
    if rules.hand_size != 5:
        raise ShowdownError(f"game {game!r}: deal files hold five-card hands, and {rules.game} deals "
                            f"{rules.hand_size}: settle its showdowns with showdown_many on (N, P, {rules.hand_size}) arrays")
    check_odd_chip(odd_chip)
    for value, what in ((pot, "pot"), (button, "button"), (chunk, "chunk")):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if chunk < 1:
        raise BadaceyError(f"chunk must be at least 1 line, got {chunk}")
    if not 0 <= pot <= MAX_CHIPS:
        raise ShowdownError(f"pot {pot} is not a number of chips 0..2**63-1")
    if button < 0:
        raise ShowdownError(f"button {button} is not a seat")
    chunk = min(chunk, _MAX_CHUNK)
    scorer = _Scorer(rules, odd_chip == "low", pot, button, skip_bad, chunk, fmt)
    scorer.totals = None if totals is None else []
    scorer.rows = rows
    if rows is not None and out is not None:
        raise BadaceyError("give out= (CSV) or rows= (arrays), not both")
    sink: str | os.PathLike[str] | BinaryIO = stdout_bytes() if out is None else out
    if rows is None:
        check_not_input(sink, [source])  # before anything is opened for writing
    try:
        with opened(source, "rb") as fin, (opened(sink, "wb") if rows is None else _Nowhere()) as fout:
            for block in line_blocks(fin, max(chunk * 96, 1 << 16), scorer):
                scorer.feed(block, fout)
                if progress is not None:
                    progress(len(block))
    finally:  # also when a line stops the run: the deals before it (what a stream keeps), as score_parquet
        if totals is not None:
            totals[:] = scorer.totals or ([0] * scorer.layout.seats if scorer.layout is not None else [])
    return ScoreReport(scorer.line, scorer.deals, scorer.bad, scorer.errors)


class _Nowhere:
    """The output of a run whose payouts go to ``rows=``: nothing is written to it."""

    def __enter__(self) -> BinaryIO:
        import io

        return io.BytesIO()

    def __exit__(self, *exc: object) -> None:
        return None


class _Scorer:
    """The state of one :func:`score_file` run: layout, line count, tallies, reusable chunk buffers."""

    def __init__(self, rules: Scoring, odd_low: bool, pot: int, button: int, skip_bad: bool, chunk: int,
                 fmt: str) -> None:
        self.game, self.ace_high, self.odd_low, self.pot, self.button = rules.game, rules.ace_high, odd_low, pot, button
        self.skip_bad, self.chunk, self.fmt = skip_bad, chunk, fmt
        self.layout: Layout | None = None
        self.line = self.deals = self.bad = 0
        self.errors: list[tuple[int, str]] = []
        self.totals: list[int] | None = None  # each seat's total so far, when the caller asked for it
        self.rows: RowSink | None = None  # the payouts as arrays (score_file's rows=) instead of CSV
        # The kernel's fast parser until it says it has none (kernel.parse_deals returns None on the
        # Python twin); then the Python path parses every line.  The kernel's showdown splits the pot in
        # two halves: a single-pot game (A-5, 2-7) is scored by the general path's bulk call.
        self.use_c = len(rules.halves) == 2

    # -- the first data line fixes the layout --------------------------------------------------------
    def feed(self, block: bytes, fout: BinaryIO) -> None:
        if self.line == 0 and self.layout is None and block.startswith(b"\xef\xbb\xbf"):
            block = block[3:]  # a UTF-8 byte-order mark, as spreadsheet programs write
        pos = 0 if self.layout is not None else self._find_layout(block, fout)
        if self.layout is not None and pos < len(block):
            (self._feed_c if self.use_c else self._feed_python)(block, pos, fout)

    def _find_layout(self, block: bytes, fout: BinaryIO) -> int:
        pos = 0
        while pos < len(block):
            m = LINE_END.search(block, pos)
            end, after = (m.start(), m.end()) if m else (len(block), len(block))
            line = self.line + 1
            if end - pos > MAX_LINE:
                raise too_long(line)
            try:
                raw = block[pos:end]
                if is_skipped(raw):
                    self.line, pos = line, after
                    continue
                text = decode_line(raw)
                layout, header = layout_of(text, self.fmt)
                if self.button >= layout.seats:
                    raise ShowdownError(f"button {self.button} is not a seat 0..{layout.seats - 1}")
            except BadaceyError as exc:
                raise with_line(exc, line) from None
            self.layout = layout
            names = [f"payout_{s}" for s in range(layout.seats)]
            if self.rows is None:
                fout.write((",".join(["row", *names, "low_winners", "badugi_winners"]) + "\n").encode())
            if header:
                self.line, pos = line, after
            return pos
        return pos

    def _add_totals(self, chips: np.ndarray[Any, Any], pots: np.ndarray[Any, Any]) -> None:
        """Add the payouts ``chips`` (deals, seats) of the deals written to the totals, if asked for."""
        if self.totals is None or not len(chips):
            return
        more = chip_totals(chips, bound=int(pots.max()))
        self.totals = [a + b for a, b in zip(self.totals, more, strict=True)] if self.totals else more

    # -- bad lines ----------------------------------------------------------------------------------
    def _bad_line(self, line: int, exc: BadaceyError) -> None:
        self.bad += 1
        if len(self.errors) < _MAX_ERRORS_KEPT:
            self.errors.append((line, str(exc)))

    # -- the pure-Python path (no C kernel): exact, slow ----------------------------------------------
    def _feed_python(self, block: bytes, pos: int, fout: BinaryIO) -> None:
        lines = split_lines(block[pos:])
        for i in range(0, len(lines), self.chunk):
            self._settle_python(lines[i : i + self.chunk], fout)

    def _settle_python(self, group: list[bytes], fout: BinaryIO) -> None:
        assert self.layout is not None
        good: list[tuple[int, ParsedDeal]] = []
        failure: BadaceyError | None = None
        for j, raw in enumerate(group):
            line = self.line + 1 + j
            if len(raw) > MAX_LINE:  # stops the run even with skip_bad: see the module docstring
                failure = too_long(line)
                break
            try:
                if is_skipped(raw):
                    continue
                text = decode_line(raw)
                good.append((line, parse_deal(text, self.layout.seats, self.layout.columns)))
            except BadaceyError as exc:
                if not self.skip_bad:
                    failure = with_line(exc, line)
                    break
                self._bad_line(line, exc)
        self._write_python(good, fout)
        if failure is not None:
            raise failure
        self.line += len(group)

    def _write_python(self, good: list[tuple[int, ParsedDeal]], fout: BinaryIO) -> None:
        if not good:
            return
        cards = np.array([d.cards for _, d in good], dtype=np.int64)
        live = np.array([d.live for _, d in good], dtype=bool)
        pots = np.array([self.pot if d.pot is None else d.pot for _, d in good], dtype=np.int64)
        buttons = np.array([self.button if d.button is None else d.button for _, d in good], dtype=np.int64)
        result = bulk_showdown.score_many(cards, live, self.game, pot=pots, button=buttons,
                                    odd_chip="low" if self.odd_low else "position")
        if self.rows is not None:
            self.rows(np.array([line for line, _ in good], dtype=np.int64), result.payouts,
                      np.asarray(result.low), np.asarray(result.badugi))
            self._add_totals(result.payouts, pots)
            self.deals += len(good)
            return
        rows = []
        for (line, _), chips, low, bad in zip(good, result.payouts.tolist(), result.low, result.badugi):
            lw = " ".join(str(s) for s in np.flatnonzero(low))
            bw = " ".join(str(s) for s in np.flatnonzero(bad))
            rows.append(f"{line},{','.join(map(str, chips))},{lw},{bw}\n")
        fout.write("".join(rows).encode())
        self._add_totals(result.payouts, pots)
        self.deals += len(good)

    # -- the fast path: kernel.parse_deals, kernel.showdown_many, kernel.format_results ------------------
    def _buffers(self) -> None:
        assert self.layout is not None
        n, p = self.chunk, self.layout.seats
        self.a: dict[str, np.ndarray[Any, Any]] = {
            "hands": np.zeros((n, p, 5), np.uint8), "live": np.zeros((n, p), np.uint8),
            "pot": np.zeros(n, np.int64), "button": np.zeros(n, np.int64), "flags": np.zeros(n, np.uint8),
            "start": np.zeros(n, np.int64), "len": np.zeros(n, np.int64), "status": np.zeros(n, np.uint8),
            "chips": np.zeros((n, p), np.int64), "low": np.zeros((n, p), np.uint8),
            "bad": np.zeros((n, p), np.uint8), "keep": np.zeros(n, np.uint8), "line": np.zeros(n, np.int64),
        }
        cols = self.layout.columns
        self.cols_arr = np.array(cols or [0], dtype=np.int8)
        self.cols = self.cols_arr if cols else None
        self.out = bytearray(n * (22 * (p + 1) + 32))

    def _feed_c(self, block: bytes, pos: int, fout: BinaryIO) -> None:
        assert self.layout is not None
        if not hasattr(self, "a"):
            self._buffers()
        a = self.a
        while pos < len(block):
            got = kernel.parse_deals(
                block, pos, self.layout.seats, self.layout.columns is not None, self.cols, len(self.cols_arr),
                self.chunk, a["hands"], a["live"], a["pot"], a["button"], a["flags"], a["start"], a["len"],
            )
            if got is None:  # no fast parser on this twin: the Python path takes this run from here
                self.use_c = False
                self._feed_python(block, pos, fout)
                return
            rows, consumed = got
            lengths = a["len"][:rows]
            if lengths.max() > MAX_LINE:  # settle the lines before it, as the Python path does, then stop
                over = int(np.argmax(lengths > MAX_LINE))
                self._settle_c(block, pos, over, fout)
                raise too_long(self.line + 1)
            self._settle_c(block, pos, rows, fout)
            pos += consumed

    def _settle_c(self, block: bytes, pos: int, rows: int, fout: BinaryIO) -> None:
        assert self.layout is not None
        a = self.a
        seats, columns = self.layout.seats, self.layout.columns
        flags, pot, button = a["flags"][:rows], a["pot"][:rows], a["button"][:rows]
        bad: dict[int, BadaceyError] = {}

        def reparse(r: int) -> ParsedDeal | None:
            start = pos + int(a["start"][r])
            try:
                return parse_deal(decode_line(block[start : start + int(a["len"][r])]), seats, columns)
            except BadaceyError as exc:
                bad[r] = exc
                return None

        for r in np.flatnonzero(flags == 1).tolist():  # lines beyond the strict forms: Python parses
            deal = reparse(r)
            if deal is not None:
                a["hands"][r], a["live"][r] = deal.cards, deal.live
                pot[r] = -1 if deal.pot is None else deal.pot
                button[r] = -1 if deal.button is None else deal.button
                flags[r] = 0
        pot[pot < 0] = self.pot
        button[button < 0] = self.button
        kernel.showdown_many(a["hands"][:rows], a["live"][:rows], self.ace_high, pot, button, self.odd_low, None,
                             a["chips"][:rows], a["low"][:rows], a["bad"][:rows], a["status"][:rows])
        status = a["status"][:rows]
        for r in np.flatnonzero((flags == 0) & (status != 0)).tolist():  # the kernel's checks, in words
            if reparse(r) is not None:  # pragma: no cover - would be a bug: both must reject the line
                raise RuntimeError(f"line {self.line + 1 + r}: the kernel rejected it (code {status[r]}), "
                                   "the parser accepted it")
        keep = a["keep"][:rows]
        np.logical_and(flags == 0, status == 0, out=keep, casting="unsafe")
        a["line"][:rows] = np.arange(self.line + 1, self.line + 1 + rows)
        first_bad = min(bad) if bad else rows
        if bad and not self.skip_bad:
            keep[first_bad:] = 0
        if self.rows is not None:
            kept_rows = keep.view(bool)
            self.rows(a["line"][:rows][kept_rows], a["chips"][:rows][kept_rows], a["low"][:rows][kept_rows],
                      a["bad"][:rows][kept_rows])
        else:
            size = kernel.format_results(a["line"][:rows], a["chips"][:rows], a["low"][:rows], a["bad"][:rows],
                                         keep, self.out)
            if size < 0:  # pragma: no cover - the buffer is sized for the longest rows
                raise RuntimeError("format_results: output buffer too small")
            fout.write(memoryview(self.out)[:size])
        if self.totals is not None:
            kept = keep.view(bool)
            self._add_totals(a["chips"][:rows][kept], pot[kept])
        self.deals += int(np.count_nonzero(keep))
        if bad and not self.skip_bad:
            raise with_line(bad[first_bad], self.line + 1 + first_bad)
        for r in sorted(bad):
            self._bad_line(self.line + 1 + r, bad[r])
        self.line += rows
