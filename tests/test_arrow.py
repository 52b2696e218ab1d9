"""Arrow / Parquet deal files (badacey_fast.files.arrow): the schema, every accepted column type, bad rows
named like the text path's bad lines, and the same payouts as the text path."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")  # the test extra installs it; a bare install skips these tests
import pyarrow.csv as pcsv  # noqa: E402
import pyarrow.ipc as ipc  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from badacey_fast.bulk import score_many  # noqa: E402
from badacey_fast.cards import format_card, parse_cards  # noqa: E402
from badacey_fast.cli.command import main  # noqa: E402
from badacey_fast.errors import DuplicateCardError, InvalidCardError, ShowdownError  # noqa: E402
from badacey_fast.files import arrow, generate_deals, score_file  # noqa: E402

A = parse_cards("As2h3d4c5s")
B = parse_cards("2c3h4d5c6s")
C = parse_cards("Ks Qd 9c 5h 5d")


def cards(*rows: tuple) -> np.ndarray:
    return np.array([[list(h) for h in row] for row in rows], dtype=np.uint8)


def payouts(table) -> list[list[int]]:
    seats = sum(1 for n in table.column_names if n.startswith("payout_"))
    return np.column_stack([table[f"payout_{s}"].to_numpy() for s in range(seats)]).tolist()


def test_schema_round_trip_through_parquet_and_arrow(tmp_path) -> None:
    t = arrow.deals_table(cards((A, B, C), (C, A, B)), pot=[101, 7], button=[1, 2],
                          live=[[True, True, False], [True, True, True]], id=np.array([10, 20]))
    assert t.schema == arrow.deal_schema(3, live=True, id_type=pa.int64())
    meta = t.schema.metadata[arrow.METADATA_KEY]
    assert b'"version": 1' in meta and b'"seats": 3' in meta
    expected = arrow.score_table(t)
    assert expected.column_names == ["id", "payout_0", "payout_1", "payout_2", "low_winners", "badugi_winners"]
    assert expected["id"].to_pylist() == [10, 20]
    assert payouts(expected) == [[101, 0, 0], [0, 7, 0]]  # As2h3d4c5s scoops (seat 2 folded in row 1)
    pq.write_table(t, tmp_path / "d.parquet")
    back = pq.read_table(tmp_path / "d.parquet")
    assert back.schema.metadata == t.schema.metadata and back.equals(t)
    for name in ("d.parquet", "d.arrow"):
        if name.endswith(".arrow"):
            with ipc.new_file(str(tmp_path / name), t.schema) as w:
                w.write_table(t)
        report = arrow.score_parquet(tmp_path / name, tmp_path / f"out-{name}")
        assert (report.lines, report.deals, report.bad) == (2, 2, 0)
        out = pq.read_table(tmp_path / f"out-{name}") if name.endswith("parquet") else \
            ipc.open_file(str(tmp_path / f"out-{name}")).read_all()
        assert out.equals(expected)
        assert out.schema.metadata[arrow.METADATA_KEY].startswith(b'{"schema": "payouts"')


def _columns(kind: str, rows: np.ndarray):
    n, p = rows.shape[:2]
    flat = rows.reshape(n, 5 * p)
    if kind == "fixed":
        return pa.array([bytes(r) for r in flat], pa.binary(5 * p))
    if kind == "binary":
        return pa.array([bytes(r) for r in flat], pa.binary())
    if kind == "large_binary":
        return pa.array([bytes(r) for r in flat], pa.large_binary())
    return pa.FixedSizeListArray.from_arrays(pa.array(flat.reshape(-1), pa.uint8()), 5 * p)


@pytest.mark.parametrize("kind", ["fixed", "binary", "large_binary", "list"])
def test_every_accepted_cards_type_scores_alike(kind: str) -> None:
    rows = cards((A, B), (C, A), (B, C))
    t = pa.table({"cards": _columns(kind, rows), "pot": pa.array([10, 11, 0], pa.int32()),
                  "button": pa.array([0, 1, 1], pa.int8())})
    got = arrow.score_table(t.slice(1))  # a sliced table: offsets into the buffers
    reference = arrow.score_table(arrow.deals_table(rows, pot=[10, 11, 0], button=[0, 1, 1]).slice(1))
    assert got.equals(reference.replace_schema_metadata(got.schema.metadata))
    assert got["row"].to_pylist() == [1, 2]


@pytest.mark.parametrize("column, values, type_, message", [
    ("cards", [[1, 2]], pa.list_(pa.uint8()), r"column 'cards' has type list<item: uint8>; expected fixed_size_binary"),
    ("cards", ["As2h3d4c5s"], pa.string(), "column 'cards' has type string; expected"),
    ("cards", [b"1234567"], pa.binary(7), "column 'cards' holds 7 bytes a row"),
    ("cards", [b"12345"], pa.binary(5), "column 'cards' holds 5 bytes a row"),
    ("pot", [1.5], pa.float64(), "column 'pot' has type double; expected an integer type"),
    ("live", ["x"], pa.string(), "column 'live' has type string"),
])
def test_other_column_types_are_a_clear_error(column: str, values: list, type_, message: str) -> None:
    data = {"cards": pa.array([bytes(cards((A, B))[0].reshape(-1))], pa.binary(10))}
    data[column] = pa.array(values, type_)
    with pytest.raises(ShowdownError, match=message):
        arrow.score_table(pa.table(data))
    with pytest.raises(ShowdownError, match="no 'cards' column"):
        arrow.score_table(pa.table({"pot": [1]}))


GOOD = cards((A, B))[0]
BAD_ROWS = [  # (cards, pot, button, live) of row 2, the error, the text path's words
    (np.array([A, [4, 5, 7, 8, 52]]), 10, 0, 3, InvalidCardError, "seat 1: card id 52 is outside 0..51"),
    (np.array([A, A]), 10, 0, 3, DuplicateCardError, r"card 'As' is held twice \(seat 0 and seat 1\)"),
    (np.array([[0, 1, 2, 3, 3], B]), 10, 0, 3, DuplicateCardError, "seat 0: card 'As' is given twice"),
    (GOOD, 10, 0, 0, ShowdownError, "no live seat: every seat folded"),
    (GOOD, -5, 0, 3, ShowdownError, "pot -5 is not a whole number >= 0"),
    (GOOD, 10, 2, 3, ShowdownError, r"button 2 is not a seat 0\.\.1"),
    (GOOD, 10, 0, 4, ShowdownError, r"live bitmask 0x4 names seats beyond 0\.\.1"),
]


def _three_rows(bad, pot, button, live):
    rows = np.stack([GOOD, bad, GOOD]).astype(np.uint8)
    return pa.table({"cards": pa.array([bytes(r.reshape(-1)) for r in rows], pa.binary(10)),
                     "pot": pa.array([10, pot, 10], pa.int64()), "button": pa.array([0, button, 0], pa.int64()),
                     "live": pa.array([3, live, 3], pa.uint8())})


@pytest.mark.parametrize("bad, pot, button, live, error, reason", BAD_ROWS)
def test_bad_row_stops_the_run_naming_it(tmp_path, bad, pot, button, live, error, reason) -> None:
    t = _three_rows(bad, pot, button, live)
    with pytest.raises(error, match=f"^row 2: {reason}"):
        arrow.score_table(t)
    pq.write_table(t, tmp_path / "d.parquet")
    (tmp_path / "o.parquet").write_bytes(b"old payouts")
    with pytest.raises(error, match=f"^row 2: {reason}"):
        arrow.score_parquet(tmp_path / "d.parquet", tmp_path / "o.parquet")
    assert (tmp_path / "o.parquet").read_bytes() == b"old payouts"  # a stopped run leaves the old file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.parquet", "o.parquet"]  # and no temporary
    stream = io.BytesIO()
    with pytest.raises(error, match=f"^row 2: {reason}"):
        arrow.score_parquet(tmp_path / "d.parquet", stream)
    assert pq.read_table(io.BytesIO(stream.getvalue()))["row"].to_pylist() == [1]  # a stream: the good row before it
    report = arrow.score_parquet(tmp_path / "d.parquet", tmp_path / "o.parquet", skip_bad=True)
    assert (report.lines, report.deals, report.bad) == (3, 2, 1)
    assert report.errors[0][0] == 2 and report.errors[0][1].startswith(reason.replace("\\", "")[:12])
    assert pq.read_table(tmp_path / "o.parquet")["row"].to_pylist() == [1, 3]
    assert arrow.score_table(t, skip_bad=True)["row"].to_pylist() == [1, 3]


def test_many_bad_rows_of_every_kind_across_batches(tmp_path) -> None:
    # The kernel checks every row in the pass that settles it (a code per row); only the rows it rejects
    # are worded again.  Rows of every kind of problem (two in one row: the pot's is named, as the text
    # path checks the pot first), spread over several batches and row groups: each named with its own
    # 1-based row number, the good rows paid exactly as score_many pays them alone, nothing else kept.
    rng = np.random.default_rng(7)
    n = 300
    rows = np.stack([rng.permutation(52)[:10].reshape(2, 5) for _ in range(n)]).astype(np.uint8)
    pot = rng.integers(0, 1000, n).astype(np.uint64)
    button = rng.integers(0, 2, n).astype(np.uint64)
    live = np.full(n, 3, np.uint8)
    expect: dict[int, str] = {}
    for r in rng.choice(n, 60, replace=False).tolist():
        kind = r % 7
        if kind == 0:
            rows[r, 1, 2], expect[r] = 60, "seat 1: card id 60 is outside 0..51"
        elif kind == 1:
            rows[r, 1, 4] = rows[r, 0, 0]
            expect[r] = f"card {format_card(int(rows[r, 0, 0]))!r} is held twice (seat 0 and seat 1)"
        elif kind == 2:
            live[r], expect[r] = 0, "no live seat: every seat folded"
        elif kind == 3:
            pot[r], expect[r] = 2**64 - 3, f"pot {2**64 - 3} is too large (at most 2**63 - 1)"
        elif kind == 4:
            button[r], expect[r] = 2**63 + 1, f"button {2**63 + 1} is not a seat 0..1"
        elif kind == 5:
            live[r], expect[r] = 6, "live bitmask 0x6 names seats beyond 0..1"
        else:
            rows[r, 0, 0], pot[r] = 255, 2**63
            expect[r] = f"pot {2**63} is too large (at most 2**63 - 1)"
    t = pa.table({"cards": pa.array([bytes(x.reshape(-1)) for x in rows], pa.binary(10)),
                  "pot": pa.array(pot, pa.uint64()), "button": pa.array(button, pa.uint64()),
                  "live": pa.array(live, pa.uint8())})
    pq.write_table(t, tmp_path / "d.parquet", row_group_size=128)
    report = arrow.score_parquet(tmp_path / "d.parquet", tmp_path / "o.parquet", skip_bad=True, batch_rows=50)
    assert report.errors == [(r + 1, expect[r]) for r in sorted(expect)]
    assert (report.lines, report.deals, report.bad) == (n, n - len(expect), len(expect))
    good = np.array([r for r in range(n) if r not in expect])
    out = pq.read_table(tmp_path / "o.parquet")
    assert out["row"].to_pylist() == (good + 1).tolist()
    mask = ((live[good, None] >> np.arange(2)) & 1).astype(bool)
    want = score_many(rows[good], mask, pot=pot[good].astype(np.int64), button=button[good].astype(np.int64))
    assert payouts(out) == want.payouts.tolist()
    first = min(expect)
    with pytest.raises(ShowdownError, match=f"^row {first + 1}: "):
        arrow.score_parquet(tmp_path / "d.parquet", tmp_path / "o.parquet", batch_rows=50)
    assert pq.read_table(tmp_path / "o.parquet")["row"].to_pylist() == (good + 1).tolist()  # the old output
    stream = io.BytesIO()
    with pytest.raises(ShowdownError, match=f"^row {first + 1}: "):
        arrow.score_parquet(tmp_path / "d.parquet", stream, batch_rows=50)
    assert pq.read_table(io.BytesIO(stream.getvalue()))["row"].to_pylist() == list(range(1, first + 1))


def test_null_and_short_cards_and_defaults() -> None:
    t = pa.table({"cards": pa.array([bytes(GOOD.reshape(-1)), None, bytes(GOOD.reshape(-1))[:5]], pa.binary()),
                  "pot": pa.array([None, 3, 3], pa.int64())})
    with pytest.raises(ShowdownError, match="^row 2: cards is null"):
        arrow.score_table(t)
    out = arrow.score_table(t, skip_bad=True, pot=50)
    assert out["row"].to_pylist() == [1] and payouts(out) == [[50, 0]]  # a null pot takes pot=
    report = arrow.score_parquet(t, io.BytesIO(), skip_bad=True)
    assert report.errors == [(2, "cards is null: expected a hand for every seat"),
                             (3, "expected 2 hands (10 card bytes), got 5 bytes")]


@pytest.mark.exhaustive("python")  # the Python twin's run of the same file checks: CI's exhaustive step
def test_same_payouts_as_the_text_path_and_cli(tmp_path) -> None:
    n = 3000
    arrow.generate_parquet(n, tmp_path / "d.parquet", seats=6, seed=11, row_group=1000)
    arrow.generate_parquet(n, tmp_path / "d.arrow", seats=6, seed=11, row_group=700)
    generate_deals(n, tmp_path / "d.txt", seats=6, seed=11)
    assert pq.ParquetFile(tmp_path / "d.parquet").metadata.num_row_groups == 3
    score_file(tmp_path / "d.txt", tmp_path / "text.csv")
    text = pcsv.read_csv(tmp_path / "text.csv")
    expected = np.column_stack([text[f"payout_{s}"].to_numpy() for s in range(6)]).tolist()
    for src in ("d.parquet", "d.arrow"):
        arrow.score_parquet(tmp_path / src, tmp_path / "p.parquet", batch_rows=512)
        got = pq.read_table(tmp_path / "p.parquet")
        assert payouts(got) == expected and got["row"].to_pylist() == list(range(1, n + 1))
    # winners: the text path lists seats, the columnar path sets bits
    low = [sum(1 << int(s) for s in str(v).split()) for v in text["low_winners"].to_pylist()]
    assert got["low_winners"].to_pylist() == low
    assert main(["score", str(tmp_path / "d.parquet"), "-o", str(tmp_path / "c.arrow"), "--no-progress", "-q"]) == 0
    assert payouts(ipc.open_file(str(tmp_path / "c.arrow")).read_all()) == expected
    assert main(["score", "--generate", "500", "--seed", "3", "-o", str(tmp_path / "g.parquet"), "-q"]) == 0
    assert main(["score", "--generate", "500", "--seed", "3", "-o", str(tmp_path / "g.txt"), "-q"]) == 0
    assert main(["score", str(tmp_path / "g.parquet"), "-o", str(tmp_path / "g.csv"), "--no-progress", "-q"]) == 0
    assert main(["score", str(tmp_path / "g.txt"), "-o", str(tmp_path / "gt.csv"), "--no-progress", "-q"]) == 0
    a, b = pcsv.read_csv(tmp_path / "g.csv"), pcsv.read_csv(tmp_path / "gt.csv")
    assert payouts(a) == np.column_stack([b[f"payout_{s}"].to_numpy() for s in range(6)]).tolist()
    # One column naming everywhere (issue 24 item 7): the same deals give the same CSV from either input,
    # byte for byte, and the same Parquet payouts.
    assert (tmp_path / "g.csv").read_bytes() == (tmp_path / "gt.csv").read_bytes()
    assert (tmp_path / "g.csv").read_bytes().startswith(b"row,payout_0,payout_1,payout_2,payout_3,payout_4,payout_5,"
                                                        b"low_winners,badugi_winners\n")
    assert main(["score", str(tmp_path / "g.txt"), "-o", str(tmp_path / "gt.parquet"), "--no-progress", "-q"]) == 0
    assert main(["score", str(tmp_path / "g.parquet"), "-o", str(tmp_path / "gp.parquet"), "--no-progress", "-q"]) == 0
    assert pq.read_table(tmp_path / "gt.parquet").equals(pq.read_table(tmp_path / "gp.parquet"))
    assert main(["score", str(tmp_path / "g.txt"), "-o", str(tmp_path / "gt.arrow"), "--no-progress", "-q"]) == 0
    assert ipc.open_file(str(tmp_path / "gt.arrow")).read_all().equals(pq.read_table(tmp_path / "gp.parquet"))


def test_an_existing_output_file_is_replaced_links_are_followed(tmp_path) -> None:
    # Every writer here (payouts in each format, generated deals, text scores) replaces an existing
    # regular file with a new one rather than truncating it (files.outputs.AtomicFile): a hard link
    # to the old file keeps the old bytes, the path gets the new ones.  A symlink is written through
    # (the link stays, its target gets the output) and a device is opened as it is.
    arrow.generate_parquet(300, tmp_path / "d.parquet", seed=5, row_group=128)
    want = payouts(arrow.score_table(pq.read_table(tmp_path / "d.parquet")))
    for name, read in (("p.parquet", pq.read_table), ("p.arrow", lambda p: ipc.open_file(str(p)).read_all()),
                       ("p.csv", pcsv.read_csv)):
        out, keep = tmp_path / name, tmp_path / f"old-{name}"
        out.write_bytes(b"old bytes")
        keep.hardlink_to(out)
        arrow.score_parquet(tmp_path / "d.parquet", out)
        assert payouts(read(out)) == want and keep.read_bytes() == b"old bytes"
        target, link = tmp_path / f"target-{name}", tmp_path / f"link-{name}"
        target.write_bytes(b"old bytes")
        link.symlink_to(target)
        arrow.score_parquet(tmp_path / "d.parquet", link)
        assert link.is_symlink() and payouts(read(target)) == want
    arrow.score_parquet(tmp_path / "d.parquet", "/dev/null", out_fmt="parquet")
    gen, keep = tmp_path / "g.parquet", tmp_path / "g-old.parquet"
    arrow.generate_parquet(10, gen, seed=1)
    keep.hardlink_to(gen)
    arrow.generate_parquet(20, gen, seed=2)
    assert pq.read_table(keep).num_rows == 10 and pq.read_table(gen).num_rows == 20
    text, keep = tmp_path / "s.txt", tmp_path / "s-old.txt"
    text.write_bytes(b"old bytes")
    keep.hardlink_to(text)
    generate_deals(5, text, seats=2, seed=3)
    assert keep.read_bytes() == b"old bytes" and len(text.read_text().splitlines()) == 5


_PEAK = """
import resource, sys
import pyarrow as pa
from badacey_fast.files import arrow
arrow.score_parquet(sys.argv[1], sys.argv[2], batch_rows=16_384)
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(pa.default_memory_pool().max_memory() // 1024, rss // 1024 if sys.platform == "darwin" else rss)  # KiB
"""


@pytest.mark.backend_independent  # fresh interpreters on the session's default twin
def test_peak_memory_is_flat_in_the_file_size(tmp_path) -> None:
    # Streamed one row group at a time: a file 8x larger peaks at about the same memory.  Measured here:
    # pyarrow's pool (where the cards and payouts live) 9.2-9.4 MB and resident memory 117-122 MB for
    # both sizes; reading the whole file first (pq.read_table, then scoring the table) peaked the pool at
    # 15 and 102 MB, resident memory at 144 and 242-246 MB.
    peaks = {}
    for n in (200_000, 1_600_000):
        src = tmp_path / f"deals-{n}.parquet"
        arrow.generate_parquet(n, src, seed=n, row_group=65_536)
        run = subprocess.run([sys.executable, "-c", _PEAK, str(src), str(tmp_path / f"payouts-{n}.parquet")],
                             capture_output=True, text=True, check=True)
        peaks[n] = [int(kib) / 1024 for kib in run.stdout.split()]  # MiB: pool, resident
    assert pq.ParquetFile(tmp_path / "payouts-1600000.parquet").metadata.num_rows == 1_600_000
    (pool_small, rss_small), (pool_large, rss_large) = peaks[200_000], peaks[1_600_000]
    assert pool_large - pool_small < 16, peaks
    # Resident memory too, except under the sanitizer job's ASan runtime (LD_PRELOAD, inherited), whose
    # allocator keeps what the interpreter frees (164 MB more for the larger file, quarantine or not).
    if "libasan" not in os.environ.get("LD_PRELOAD", ""):
        assert rss_large - rss_small < 40, peaks


def test_python_twin_agrees(backend: str) -> None:
    rows = cards((A, B, C), (C, B, A), (B, A, C))
    t = arrow.deals_table(rows, pot=[101, 99, 7], button=[0, 1, 2], live=[[1, 1, 1], [1, 0, 1], [0, 0, 1]])
    assert payouts(arrow.score_table(t)) == [[101, 0, 0], [0, 0, 99], [0, 0, 7]]


def test_cli_errors_are_one_line(tmp_path, capsys) -> None:
    pq.write_table(_three_rows(np.array([A, A]), 10, 0, 3), tmp_path / "d.parquet")
    assert main(["score", str(tmp_path / "d.parquet"), "-o", str(tmp_path / "o.parquet"), "--no-progress"]) == 2
    assert capsys.readouterr().err.strip() == \
        "badacey score: error: row 2: card 'As' is held twice (seat 0 and seat 1)"
    assert main(["score", str(tmp_path / "d.parquet"), "-o", str(tmp_path / "o.parquet"), "--no-progress",
                 "--skip-bad"]) == 0
    assert "skipped row 2: card 'As' is held twice" in capsys.readouterr().err
    (tmp_path / "d.txt").write_text("As2h3d4c5s 2c3h4d5c6s\nAs2h3d4c5s As3h4d5c6s\n")
    assert main(["score", str(tmp_path / "d.txt"), "-o", str(tmp_path / "t.parquet"), "--no-progress"]) == 2
    assert capsys.readouterr().err.strip() == "badacey score: error: line 2: card 'As' is held twice (seat 0 and seat 1)"
    assert not (tmp_path / "t.parquet").exists()  # whole or not at all
    assert main(["score", str(tmp_path / "d.txt"), "-o", str(tmp_path / "t.parquet"), "--no-progress", "--skip-bad"]) == 0
    assert pq.read_table(tmp_path / "t.parquet").to_pylist() == [
        {"row": 1, "payout_0": 120, "payout_1": 0, "low_winners": 1, "badugi_winners": 1}]


def test_newer_schema_version_and_missing_pyarrow(monkeypatch) -> None:
    t = arrow.deals_table(cards((A, B))).replace_schema_metadata({arrow.METADATA_KEY: b'{"version": 2}'})
    with pytest.raises(ShowdownError, match="deal schema version 2 is newer"):
        arrow.score_table(t)
    empty = arrow.score_table(arrow.deals_table(np.zeros((0, 3, 5), np.uint8)))
    assert empty.num_rows == 0 and empty.column_names[:4] == ["row", "payout_0", "payout_1", "payout_2"]
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=r'^Parquet/Arrow support needs pyarrow: pip install "badacey_fast\[parquet\]"$'):
        arrow.require_pyarrow()


@pytest.mark.exhaustive("python")
def test_payout_files_plain_and_uncompressed_by_default_any_codec_on_request(tmp_path) -> None:
    # The documented write choice (PayoutWriter): no dictionary, no statistics, uncompressed unless asked;
    # every codec gives the same table, and row groups follow the scored batches (batch_rows).
    arrow.generate_parquet(3000, tmp_path / "d.parquet", seed=9, row_group=1000)
    arrow.score_parquet(tmp_path / "d.parquet", tmp_path / "plain.parquet", batch_rows=700)
    meta = pq.ParquetFile(tmp_path / "plain.parquet").metadata
    assert [meta.row_group(g).num_rows for g in range(meta.num_row_groups)] == [700, 300] * 3
    for g in range(meta.num_row_groups):
        for c in range(meta.num_columns):
            col = meta.row_group(g).column(c)
            assert col.compression == "UNCOMPRESSED" and not col.has_dictionary_page and not col.is_stats_set
    plain = pq.read_table(tmp_path / "plain.parquet")
    for codec in ("zstd", "snappy"):
        arrow.score_parquet(tmp_path / "d.parquet", tmp_path / f"{codec}.parquet", compression=codec)
        f = pq.ParquetFile(tmp_path / f"{codec}.parquet")
        assert f.metadata.row_group(0).column(1).compression == codec.upper()
        assert f.read().equals(plain)
    assert plain.num_rows == 3000 and plain["row"].to_pylist() == list(range(1, 3001))
