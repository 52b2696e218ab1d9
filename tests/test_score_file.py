"""Scoring files (badacey_fast.files.score, ``badacey score``): formats, chunk and block boundaries, bad lines
with their line numbers, both twins against the single ``showdown``, the CLI."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from badacey_fast.kernel import backend as _backend
from badacey_fast.cards import parse_cards
from badacey_fast.cli.command import main
from badacey_fast.errors import BadaceyError, DuplicateCardError, HandSizeError, InvalidCardError, ShowdownError
from badacey_fast.files.score import DEFAULT_POT, generate_deals, score_file
from badacey_fast.pots.settlement import showdown, showdown_detail

GOOD = "As2h3d4c5s 2c3h4d5c6s"  # seed 000: Alma scoops Bruno


def score_bytes(data: bytes, **kwargs: object) -> tuple[list[list[str]], object]:
    out = io.BytesIO()
    report = score_file(io.BytesIO(data), out, **kwargs)
    return [row.split(",") for row in out.getvalue().decode().splitlines()], report


def expected_row(line: int, seat_hands: list, pot: int, button: int, game: str = "badacey",
                 odd_chip: str = "position") -> list[str]:
    """The output row for one deal, from the single-showdown API (independent of the bulk path)."""
    payouts = showdown(seat_hands, pot, button, game, odd_chip)
    live = [s for s, h in enumerate(seat_hands) if h is not None]
    if len(live) == 1:
        low = badugi = live
    else:
        detail = showdown_detail(seat_hands, pot, button, game, odd_chip)
        low, badugi = sorted(detail.low_winners), sorted(detail.badugi_winners)
    return [str(line), *(str(0 if x is None else x) for x in payouts), " ".join(map(str, low)),
            " ".join(map(str, badugi))]


def hands_of(tokens: list[str]) -> list:
    return [None if t == "-" else list(parse_cards(t, count=5)) for t in tokens]


class Trickle(io.RawIOBase):
    """A binary stream that returns at most `step` bytes per read and records the sizes asked for."""

    def __init__(self, data: bytes, step: int = 7) -> None:
        self.data, self.pos, self.step, self.asked = data, 0, step, []

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        self.asked.append(size)
        chunk = self.data[self.pos : self.pos + min(size, self.step)]
        self.pos += len(chunk)
        return chunk


# A file mixing good deals, folded seats, comments, blank lines and bad lines (3 seats, plain text).
MIXED = [
    "# a comment",
    "As2h3d4c5s 2c3h4d5c6s 7c8c9cTcJc",
    "",
    "101 2 2h4h6h7hAc Ks Qd9c5h5s - ",  # 4 hands' worth of tokens: bad ("expected 3 hands, got 4")
    "101 2 2h4h6h7hAc KsQd9c5h5s -",
    "7 1 - - KsQd9c5h5s",
    "As2h3d4c5s As3h4d5c6s 7c8c9cTcJc",  # bad: As twice
    "   ",
    "55 0 AsKsQsJsTs 2c2d2h2s3c - ",
    "55 0 Ac2d3h4sKd As2c3d4hKc 9h8h7h6h5h",
    "- - -",  # bad: no live seat
    "3 9 As2h3d4c5s 2c3h4d5c6s 7c8c9cTcJc",  # bad: button 9
    "12 1 Ac2d3h4sKd As2c3d4hKc 9h8h7h6h5h",
]
MIXED_BAD = {4: "expected 3 hands, got 4", 7: "held twice", 11: "no live seat", 12: "button 9"}


def mixed_expected() -> list[list[str]]:
    rows = []
    for line, text in enumerate(MIXED, start=1):
        tokens = text.split()
        if line in MIXED_BAD or not tokens or tokens[0].startswith("#"):
            continue
        numbers = [int(t) for t in tokens if t.isdigit()]
        seat_hands = hands_of([t for t in tokens if not t.isdigit()])
        pot = numbers[0] if numbers else DEFAULT_POT
        button = numbers[1] if len(numbers) > 1 else 0
        rows.append(expected_row(line, seat_hands, pot, button))
    return rows


# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "csv"])
def test_generated_file_matches_single_showdown(backend: str, fmt: str) -> None:
    buf = io.BytesIO()
    generate_deals(120, buf, seats=4, seed=11, fmt=fmt)
    rows, report = score_bytes(buf.getvalue(), game="badeucy", odd_chip="low")
    assert rows[0] == ["row", "payout_0", "payout_1", "payout_2", "payout_3", "low_winners", "badugi_winners"]
    lines = buf.getvalue().decode().splitlines()
    first = 2 if fmt == "csv" else 1
    expected = []
    for line, text in enumerate(lines[first - 1 :], start=first):
        pot, button, *seat_tokens = text.replace(",", " ").split()
        expected.append(expected_row(line, hands_of(seat_tokens), int(pot), int(button), "badeucy", "low"))
    assert rows[1:] == expected
    assert (report.lines, report.deals, report.bad) == (len(lines), 120, 0)


def test_mixed_file_skip_bad(backend: str) -> None:
    rows, report = score_bytes(("\n".join(MIXED) + "\n").encode(), skip_bad=True)
    assert rows[1:] == mixed_expected()
    assert report.lines == len(MIXED) and report.deals == len(mixed_expected()) and report.bad == 4
    assert [line for line, _ in report.errors] == sorted(MIXED_BAD)
    for line, reason in report.errors:
        assert MIXED_BAD[line] in reason


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 64])
def test_chunk_and_block_boundaries_drop_nothing_and_repeat_nothing(backend: str, chunk: int) -> None:
    data = ("\n".join(MIXED * 3)).encode()  # and no newline at the very end
    plain, _ = score_bytes(data, skip_bad=True, chunk=100_000)
    trickled = io.BytesIO()
    report = score_file(Trickle(data, step=7), trickled, skip_bad=True, chunk=chunk)
    assert trickled.getvalue().decode().splitlines() == [",".join(r) for r in plain]
    numbers = [int(r[0]) for r in plain[1:]]
    good = [i for i, t in enumerate(MIXED * 3, start=1)
            if (i - 1) % len(MIXED) + 1 not in MIXED_BAD and t.strip() and not t.startswith("#")]
    assert numbers == good  # every good line exactly once, in order
    assert report.bad == 3 * len(MIXED_BAD)


def test_c_and_python_paths_write_identical_bytes() -> None:
    buf = io.BytesIO()
    generate_deals(200, buf, seats=6, seed=3)
    data = buf.getvalue() + b"\n".join(t.encode() for t in MIXED[1:2] + MIXED[6:7]) + b"\n"
    outputs = {}
    for which in ("c", "python"):
        with _backend.using(which):
            out = io.BytesIO()
            # Six-seat file: the 3-seat MIXED lines at the end are bad ("expected 6 hands").
            outputs[which] = (score_file(io.BytesIO(data), out, skip_bad=True, chunk=64), out.getvalue())
    assert outputs["c"] == outputs["python"]
    assert outputs["c"][0].bad == 2 and outputs["c"][0].deals == 200


BAD_LINES = [
    ("As2h3d4c5x 2c3h4d5c6s", InvalidCardError, "unknown card '5x'"),
    ("As2h3d4c5s As3h4d5c6s", DuplicateCardError, r"card 'As' is held twice \(seat 0 and seat 1\)"),
    ("As2h3d4c4c 2c3h4d5c6s", DuplicateCardError, "card '4c' is given twice"),
    ("As2h3d4c5s", ShowdownError, "expected 2 hands, got 1"),
    ("As2h3d4c 2c3h4d5c6s", HandSizeError, "expected 5 cards, got 4"),
    ("- -", ShowdownError, "no live seat"),
    ("10 5 As2h3d4c5s 2c3h4d5c6s", ShowdownError, r"button 5 is not a seat 0\.\.1"),
    ("1 2 3 As2h3d4c5s 2c3h4d5c6s", ShowdownError, "3 numbers before the hands"),
    ("99999999999999999999 0 As2h3d4c5s 2c3h4d5c6s", ShowdownError, "pot 99999999999999999999 is too large"),
]


@pytest.mark.parametrize("bad, error, reason", BAD_LINES)
def test_bad_line_stops_the_run_naming_it(backend: str, bad: str, error: type, reason: str) -> None:
    data = f"{GOOD}\n{bad}\n{GOOD}\n".encode()
    out = io.BytesIO()
    with pytest.raises(error, match=f"^line 2: {reason}"):
        score_file(io.BytesIO(data), out)
    assert out.getvalue().decode().splitlines()[1:] == ["1,120,0,0,0"]  # line 1 only
    rows, report = score_bytes(data, skip_bad=True)
    assert [r[0] for r in rows[1:]] == ["1", "3"] and report.bad == 1
    assert report.errors[0][0] == 2 and report.errors[0][1].startswith(reason.replace("\\", "")[:10])


def test_bad_bytes_and_csv_fields(backend: str) -> None:
    with pytest.raises(ShowdownError, match="^line 2: not UTF-8 text"):
        score_file(io.BytesIO(GOOD.encode() + b"\n\xff\xfe 2c3h4d5c6s\n"), io.BytesIO())
    # A comment is skipped on its bytes (even when not UTF-8); a form feed is not a blank line.
    rows, report = score_bytes(GOOD.encode() + b"\n \t# \xff\n\x0c\n\t \r\n", skip_bad=True)
    assert [r[0] for r in rows[1:]] == ["1"] and report.errors == [(3, "expected 2 hands, got 0")]
    csv = b"pot,button,seat0,seat1\n10,0,As2h3d4c5s,2c3h4d5c6s\n10,0,As2h3d4c5s\nabc,0,As2h3d4c5s,2c3h4d5c6s\n"
    rows, report = score_bytes(csv, skip_bad=True)
    assert [r[0] for r in rows[1:]] == ["2"]
    assert report.errors == [(3, "expected 4 CSV fields, got 3"), (4, "pot 'abc' is not a whole number >= 0")]


def test_every_spelling_scores_like_the_canonical_form(backend: str) -> None:
    canonical = b"7 1 Ac2d3h4sKd As2c3d4hKc Th9h8h7h6h\n"
    rows, _ = score_bytes(canonical)
    variants = [
        "7 1 ac2D3h4SkD As2c3d4hKc 10h9h8h7h6h\n",  # case, 10 for T
        "7 1 A♣2♦3♥4♠K♦ A♠2♣3♦4♥K♣ T♥9♥8♥7♥6♥\n",  # suit symbols
        "\t7  1\tAc2d3h4sKd   As2c3d4hKc Th9h8h7h6h  \r\n",  # other whitespace, CRLF
    ]
    for text in variants:
        assert score_bytes(text.encode())[0] == rows, text
    csv = ('seat1,button,note,seat0,seat2,pot\n"As,2c,3d,4h,Kc",1,hi, Ac 2d 3h 4s Kd ,Th9h8h7h6h,7\n').encode()
    assert score_bytes(csv)[0][1][1:] == rows[1][1:]


def test_defaults_header_and_layout_errors(backend: str) -> None:
    rows, _ = score_bytes(f"{GOOD}\n".encode(), pot=7, button=1, odd_chip="low")
    assert rows[1] == ["1", "7", "0", "0", "0"]
    with pytest.raises(ShowdownError, match=r"^line 2: CSV header .* must name the seats"):
        score_file(io.BytesIO(b"\n pot,button,hand\n"), io.BytesIO())
    with pytest.raises(ShowdownError, match="^line 1: 1 hands: a showdown has 2 to 6 seats"):
        score_file(io.BytesIO(b"As2h3d4c5s\n"), io.BytesIO())
    with pytest.raises(ShowdownError, match=r"^line 1: button 2 is not a seat 0\.\.1"):
        score_file(io.BytesIO(f"{GOOD}\n".encode()), io.BytesIO(), button=2)
    with pytest.raises(ShowdownError, match="pot -1"):
        score_file(io.BytesIO(b""), io.BytesIO(), pot=-1)
    with pytest.raises(BadaceyError, match="chunk must be at least 1"):
        score_file(io.BytesIO(b""), io.BytesIO(), chunk=0)
    with pytest.raises(TypeError, match="binary mode"):
        score_file(io.StringIO(GOOD), io.BytesIO())
    assert score_bytes(b"# nothing here\n\n")[1] == (2, 0, 0, [])
    bom = score_bytes(b"\xef\xbb\xbfpot,seat0,seat1\n10,As2h3d4c5s,2c3h4d5c6s\n")[0]
    assert bom == [rows[0], ["2", "10", "0", "0", "0"]]
    with pytest.raises(ShowdownError, match="^line 1: longer than"):
        score_file(io.BytesIO(b"x" * (1 << 21)), io.BytesIO())


def test_reads_stay_bounded(backend: str) -> None:
    buf = io.BytesIO()
    generate_deals(3000, buf, seats=2, seed=5)
    stream = Trickle(buf.getvalue(), step=1 << 30)
    out = io.BytesIO()
    score_file(stream, out, chunk=16)
    assert max(stream.asked) <= 1 << 16 and len(stream.asked) > 2  # read in blocks, not the whole file
    assert out.getvalue().count(b"\n") == 3001


# --------------------------------------------------------------------------------------------------
# The command


def test_cli_score_generate_and_skip_bad(tmp_path, capsys) -> None:
    deals = tmp_path / "deals.txt"
    assert main(["score", "--generate", "50", "--seats", "3", "--seed", "4", "-o", str(deals)]) == 0
    with open(deals, "a") as f:
        f.write("As2h3d4c5s 2c3h4d5c6s\n")  # two hands in a three-seat file
    out = tmp_path / "out.csv"
    out.write_text("old payouts\n")
    assert main(["score", str(deals), "-o", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "badacey score: error: line 51: expected 3 hands, got 2" in err and "Traceback" not in err
    assert out.read_text() == "old payouts\n"  # a stopped run leaves the old output, and no temporary
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.txt", "out.csv"]
    assert main(["score", str(deals), "-o", str(out), "--skip-bad", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "skipped line 51: expected 3 hands, got 2" in err and "50 deals from 51 lines" in err
    rows = out.read_text().splitlines()
    first = deals.read_text().splitlines()[0].split()
    assert rows[1].split(",") == expected_row(1, hands_of(first[2:]), int(first[0]), int(first[1]))


@pytest.mark.backend_independent  # fresh interpreters on the default twin: the switch cannot reach them
def test_console_entry_reads_stdin_and_fails_cleanly(tmp_path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    # cwd=tmp_path: `python -m` puts the working directory first on sys.path, and a source checkout
    # there would shadow the installed package and its compiled kernel.
    run = subprocess.run([sys.executable, "-m", "badacey_fast.cli", "score", "-", "--quiet"], input=GOOD.encode(),
                         capture_output=True, env=env, timeout=60, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.decode().splitlines()[1] == "1,120,0,0,0"
    run = subprocess.run([sys.executable, "-m", "badacey_fast.cli", "score", str(tmp_path / "missing.txt")],
                         capture_output=True, env=env, timeout=60, cwd=tmp_path)
    assert run.returncode != 0 and b"Traceback" not in run.stderr and b"missing.txt" in run.stderr


@pytest.mark.parametrize("fmt", ["text", "csv"])
def test_fuzzed_lines_c_parser_agrees_with_python(fmt: str) -> None:
    """Mutated deal lines (flipped, dropped, doubled bytes; odd separators): the C fast path and the exact
    Python parser must accept and reject the same lines, with the same payouts and reasons."""
    import random

    rnd = random.Random(20 if fmt == "text" else 21)
    buf = io.BytesIO()
    generate_deals(400, buf, seats=3, seed=9, fmt=fmt)
    lines = buf.getvalue().split(b"\n")
    header, body = (lines[:1], lines[1:]) if fmt == "csv" else ([], lines)
    alphabet = b"AaKkTt2789cdhsCDHSxX0-,; \t\r#\"\xc3\xff"
    mutated = []
    for k, line in enumerate(body):
        line = bytearray(line)
        # The first deal stays intact: a plain file's first deal fixes the number of seats.
        for _ in range(rnd.choice([0, 0, 1, 1, 2, 3]) if k else 0):
            pos = rnd.randrange(len(line) + 1)
            op = rnd.random()
            if op < 0.4 and pos < len(line):
                line[pos] = rnd.choice(alphabet)
            elif op < 0.7 and pos < len(line):
                del line[pos]
            else:
                line.insert(pos, rnd.choice(alphabet))
        mutated.append(bytes(line))
    data = b"\n".join(header + mutated)
    results = {}
    for which in ("c", "python"):
        with _backend.using(which):
            out = io.BytesIO()
            report = score_file(io.BytesIO(data), out, skip_bad=True, chunk=37, fmt=fmt)
            results[which] = (report, out.getvalue())
    assert results["c"] == results["python"]
    report = results["c"][0]
    assert 0 < report.bad < report.lines and report.deals > 100  # both kinds of line really occurred


# --------------------------------------------------------------------------------------------------
# Line ends, the line limit, bytes in ignored columns, and the command's failures (issue 10)

MAX_LINE = 1 << 20  # the documented 1 MiB line limit (bytes of a line, not counting its line end)


def test_lone_carriage_returns_end_lines_like_newlines(backend: str) -> None:
    text = ["As2h3d4c5s 2c3h4d5c6s", "# note", "2c3h4d5c6s As2h3d4c5s", "As2h3d4c5s", "", "7 1 - Kd9c7h5s2c"]
    lf = ("\n".join(text) + "\n").encode()
    expected, lf_report = score_bytes(lf, skip_bad=True)
    assert lf_report.errors == [(4, "expected 2 hands, got 1")]
    for ending in (b"\r", b"\r\n"):
        rows, report = score_bytes(lf.replace(b"\n", ending), skip_bad=True)
        assert (rows, report) == (expected, lf_report), ending
    mixed = b"As2h3d4c5s 2c3h4d5c6s\r# note\r\n2c3h4d5c6s As2h3d4c5s\nAs2h3d4c5s\r\r7 1 - Kd9c7h5s2c"
    assert score_bytes(mixed, skip_bad=True) == (expected, lf_report)
    with pytest.raises(ShowdownError, match="^line 4: expected 2 hands, got 1"):
        score_file(io.BytesIO(lf.replace(b"\n", b"\r")), io.BytesIO())
    # CSV: a header ended by a lone CR, then deals
    csv = b"seat0,seat1\rAs2h3d4c5s,2c3h4d5c6s\r2c3h4d5c6s,As2h3d4c5s\r"
    assert [r[0] for r in score_bytes(csv)[0][1:]] == ["2", "3"]


@pytest.mark.parametrize("chunk", [1, 2, 5, 100])
def test_carriage_returns_across_reads(backend: str, chunk: int) -> None:
    """A CR at the end of one read and the LF at the start of the next are one line end, not two."""
    body = "\n".join(MIXED * 2)
    expected, _ = score_bytes(body.encode(), skip_bad=True)
    for ending in ("\r\n", "\r"):
        data = body.replace("\n", ending).encode()
        for step in (1, 2, 3, 7, 64):
            out = io.BytesIO()
            report = score_file(Trickle(data, step=step), out, skip_bad=True, chunk=chunk)
            assert out.getvalue().decode().splitlines() == [",".join(r) for r in expected], (ending, step)
            assert report.lines == 2 * len(MIXED)


def _long_line(kind: str, size: int) -> bytes:
    """A line of exactly `size` bytes: a deal padded with spaces, or a comment."""
    base = b"# " if kind == "comment" else GOOD.encode() + b" "
    return base + b" " * (size - len(base))


@pytest.mark.parametrize("chunk", [1, 3, 16384, 1_000_000])
@pytest.mark.parametrize("kind", ["deal", "comment"])
def test_line_limit_holds_everywhere(backend: str, chunk: int, kind: str) -> None:
    head = [GOOD.encode()] * 5
    for where in (0, 1, 3, 5):  # first line, after one line, mid-file, last line (no newline after it)
        for ending in (b"\n", b"\r\n"):
            for size, fits in ((MAX_LINE, True), (MAX_LINE + 1, False)):
                lines = head[:where] + [_long_line(kind, size)] + head[where:]
                data = ending.join(lines) + (ending if where < 5 else b"")
                out = io.BytesIO()
                label = (where, ending, size)
                if fits:
                    report = score_file(io.BytesIO(data), out, chunk=chunk)
                    assert report.lines == 6 and report.deals == (6 if kind == "deal" else 5), label
                    continue
                with pytest.raises(ShowdownError, match=f"^line {where + 1}: longer than {MAX_LINE} bytes"):
                    score_file(io.BytesIO(data), out, chunk=chunk, skip_bad=True)
                # every line before the long one was written; none after it
                assert [r.split(",")[0] for r in out.getvalue().decode().splitlines()[1:]] == \
                    [str(n) for n in range(1, where + 1)], label


def test_bad_utf8_in_an_ignored_csv_column_is_rejected(backend: str) -> None:
    data = b"seat0,note,seat1\nAs2h3d4c5s,ok,2c3h4d5c6s\nAs2h3d4c5s,\xff\xfe,2c3h4d5c6s\nAs2h3d4c5s,\xc3\xa9,2c3h4d5c6s\n"
    with pytest.raises(ShowdownError, match="^line 3: not UTF-8 text"):
        score_file(io.BytesIO(data), io.BytesIO())
    rows, report = score_bytes(data, skip_bad=True)
    assert [r[0] for r in rows[1:]] == ["2", "4"]  # valid UTF-8 ("é") in an ignored column is fine
    assert report.errors == [(3, "not UTF-8 text")]


@pytest.mark.parametrize("target", ["dir", "missing", "/dev/full"])
@pytest.mark.parametrize("generate", [True, False])
def test_cli_unwritable_output_is_one_error_line(tmp_path, capsys, target: str, generate: bool) -> None:
    if target == "/dev/full" and not os.path.exists("/dev/full"):
        pytest.fail("this test needs Linux's /dev/full")
    path = {"dir": str(tmp_path), "missing": str(tmp_path / "missing" / "dir" / "f"), "/dev/full": "/dev/full"}[target]
    deals = tmp_path / "deals.txt"
    generate_deals(3000, deals, seats=2, seed=1)  # output larger than any stream buffer
    args = ["score", "--generate", "3000"] if generate else ["score", str(deals), "--no-progress"]
    assert main([*args, "-o", path, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("badacey score: error: ") and path in err, err


@pytest.mark.parametrize("chunk", [10**9, 2**62])
def test_huge_chunk_does_not_size_buffers(backend: str, tmp_path, chunk: int) -> None:
    deals = tmp_path / "deals.txt"
    generate_deals(500, deals, seats=6, seed=2)
    expected = io.BytesIO()
    score_file(deals, expected)
    out = io.BytesIO()
    assert score_file(deals, out, chunk=chunk).deals == 500
    assert out.getvalue() == expected.getvalue()
    assert main(["score", str(deals), "--chunk", str(chunk), "-o", str(tmp_path / "o.csv"), "--no-progress",
                 "--quiet"]) == 0
    assert (tmp_path / "o.csv").read_bytes() == expected.getvalue()


@pytest.mark.backend_independent  # a fresh interpreter on the default twin: the switch cannot reach it
@pytest.mark.parametrize("generate", [True, False])
def test_cli_closed_stdout_is_a_normal_end(tmp_path, generate: bool) -> None:
    deals = tmp_path / "deals.txt"
    generate_deals(200_000, deals, seats=2, seed=3)  # ~4 MB of output: far more than a pipe holds
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    args = ["--generate", "200000"] if generate else [str(deals), "--no-progress"]
    with subprocess.Popen([sys.executable, "-m", "badacey_fast.cli", "score", *args, "--quiet"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # like `| head -1`
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0, err
    assert first.startswith(b"row,payout_0" if not generate else b"") and first and err == b""
