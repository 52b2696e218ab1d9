"""Per-seat totals are exact on every path (text, Parquet / Arrow, Dask; both twins): the sum of the
payouts written, as Python ints, never wrapped around, whatever the pots and the number of deals."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from badacey_fast import kernel
from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import DuplicateCardError
from badacey_fast.files import score_file
from badacey_fast.files.score import chip_totals

pa = pytest.importorskip("pyarrow")  # the test extra installs it
import pyarrow.parquet as pq  # noqa: E402

from badacey_fast.files import arrow  # noqa: E402

BASE = settings.default.max_examples  # 100 in the "ci" profile, 20,000 in "soak"

WHEEL, SIX, KING = parse_cards("As2h3d4c5s"), parse_cards("2c3h4d5c6s"), parse_cards("Ks Qd 9c 7h 5d")
BIG = [2**62, 2**63 - 1, 2**63 - 2, 3 * 2**61 + 1, 120, 0]


def _text(rows: list[tuple[int, int, list[tuple[int, ...]]]]) -> bytes:
    return "".join(f"{pot} {button} {' '.join(format_cards(h).replace(' ', '') for h in hands)}\n"
                   for pot, button, hands in rows).encode()


def _table(rows: list[tuple[int, int, list[tuple[int, ...]]]]):
    cards = np.array([hands for _, _, hands in rows], dtype=np.uint8)
    return arrow.deals_table(cards, pot=[p for p, _, _ in rows], button=[b for _, b, _ in rows])


def _expected(payout_rows: list[list[int]]) -> list[int]:
    return [sum(int(row[s]) for row in payout_rows) for s in range(len(payout_rows[0]))]


def _every_path(rows, tmp_path) -> list[list[int]]:
    """The totals of the text path, the Parquet path and Dask, checked against the payouts each wrote."""
    got = []
    out, text_totals = io.BytesIO(), []
    score_file(io.BytesIO(_text(rows)), out, totals=text_totals)
    lines = out.getvalue().decode().splitlines()[1:]
    seats = len(rows[0][2])
    written = [[int(x) for x in line.split(",")[1: 1 + seats]] for line in lines]
    assert text_totals == _expected(written)
    got.append(text_totals)
    table = _table(rows)
    parquet_totals: list[int] = []
    arrow.score_parquet(table, tmp_path / "p.parquet", totals=parquet_totals, batch_rows=3)
    paid = pq.read_table(tmp_path / "p.parquet")
    assert parquet_totals == _expected([[paid[f"payout_{s}"][i].as_py() for s in range(seats)]
                                        for i in range(paid.num_rows)])
    got.append(parquet_totals)
    try:
        from badacey_fast import dask as bdask
    except ImportError:  # pragma: no cover - the test extra installs dask
        return got
    pq.write_table(table, tmp_path / "d.parquet", row_group_size=2)
    result = bdask.score_dataset(tmp_path / "d.parquet", None, scheduler="sync", partition_rows=2)
    got.append(list(result.totals))
    return got


def test_totals_of_huge_pots_do_not_wrap(tmp_path) -> None:
    # The case: four deals of pot 2**62 won whole by seat 0 came out as [-2**63, -2**63] or [0, 0].
    rows = [(2**62, 0, [WHEEL, SIX])] * 4
    for totals in _every_path(rows, tmp_path):
        assert totals == [2**64, 0]
    rows = [(pot, i % 3, [KING, WHEEL, SIX] if i % 2 else [WHEEL, SIX, KING]) for i, pot in enumerate(BIG * 3)]
    paths = _every_path(rows, tmp_path)
    assert paths[0] == paths[1] == paths[-1] and sum(paths[0]) == sum(p for p, _, _ in rows)


@pytest.mark.backend_independent  # compares the twins itself
def test_totals_are_the_same_on_both_twins(tmp_path) -> None:
    rows = [(pot, i % 3, [KING, WHEEL, SIX, KING][i % 2:][:3] if i % 3 else [SIX, KING, WHEEL])
            for i, pot in enumerate(BIG * 4)]
    by_twin = {}
    for twin in ("python", "c"):
        (tmp_path / twin).mkdir()
        with kernel.using(twin):
            by_twin[twin] = _every_path(rows, tmp_path / twin)
    paths = by_twin["python"] + by_twin["c"]
    assert len(paths) == 6 and all(p == paths[0] for p in paths) and sum(paths[0]) == sum(p for p, _, _ in rows)


@settings(max_examples=max(10, BASE // 10), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(BIG) | st.integers(0, 2**63 - 1), st.integers(0, 2)), min_size=1,
                max_size=12))
def test_totals_are_the_exact_sums_of_the_payouts_written(tmp_path_factory, deals) -> None:
    hands = [WHEEL, SIX, KING]
    rows = [(pot, button, hands[i % 3:] + hands[: i % 3]) for i, (pot, button) in enumerate(deals)]
    paths = _every_path(rows, tmp_path_factory.mktemp("totals"))
    assert all(p == paths[0] for p in paths) and sum(paths[0]) == sum(pot for pot, _ in deals)


def test_skipped_rows_pay_nothing_and_a_stop_leaves_the_totals_before_it() -> None:
    good, bad = f"{2**63 - 1} 0 As2h3d4c5s 2c3h4d5c6s\n", "5 0 As2h3d4c5s As3h4d5c6s\n"
    totals: list[int] = []
    score_file(io.BytesIO((good + bad + good).encode()), io.BytesIO(), skip_bad=True, totals=totals)
    assert totals == [2 * (2**63 - 1), 0]
    # A stopping line: the totals of the deals before it, which a stream keeps (not the list's old values).
    for rows in (good + bad + good, good * 2 + bad):
        out = io.BytesIO()
        with pytest.raises(DuplicateCardError, match="^line 2: " if rows.startswith(good + bad) else "^line 3: "):
            score_file(io.BytesIO(rows.encode()), out, totals=totals)
        kept = [[int(x) for x in line.split(",")[1:3]] for line in out.getvalue().decode().splitlines()[1:]]
        assert totals == _expected(kept) == [rows.index(bad) // len(good) * (2**63 - 1), 0]
        table = _table([(2**63 - 1, 0, [WHEEL, SIX])] * 3)
        cards = table["cards"].to_pylist()
        cards[rows.index(bad) // len(good)] = bytes(WHEEL * 2)  # the same stopping row, as a Parquet row
        table = table.set_column(0, "cards", pa.array(cards, table.schema.field("cards").type))
        parquet_totals = [7]
        with pytest.raises(DuplicateCardError, match="^row [23]: "):
            arrow.score_parquet(table, io.BytesIO(), totals=parquet_totals, batch_rows=1)
        assert parquet_totals == totals
    score_file(io.BytesIO(b""), io.BytesIO(), totals=totals)
    assert totals == []  # no deal, no seats


def test_chip_totals_split_sum_matches_python_ints() -> None:
    rng = np.random.default_rng(7)
    for rows in (1, 5, 1000):
        chips = rng.integers(-(2**63), 2**63 - 1, size=(rows, 4), dtype=np.int64, endpoint=True)
        want = [sum(int(x) for x in chips[:, s]) for s in range(4)]
        assert chip_totals(chips) == want
        assert chip_totals(np.ascontiguousarray(chips.T), axis=1) == want
        small = chips >> 40
        assert chip_totals(small) == [sum(int(x) for x in small[:, s]) for s in range(4)]
    with pytest.raises(TypeError, match="2-D int64"):
        chip_totals(np.zeros((3, 2), np.float64))
