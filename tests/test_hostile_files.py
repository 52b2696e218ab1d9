"""Hostile deal datasets: Arrow streams and Parquet files as other programs write them, damaged files,
mixed schemas, empty and null batches, dictionary columns, huge values.  Each gives the documented
answer or one clear error naming the file or the row, on both twins, on the single-process path and on
Dask alike; never a raw pyarrow error, a crash or a silently wrong answer."""

from __future__ import annotations

import io

import numpy as np
import pytest

from badacey_fast.cards import parse_cards
from badacey_fast.errors import BadaceyError, ShowdownError

pa = pytest.importorskip("pyarrow")  # the test extra installs it
import pyarrow.ipc as ipc  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from badacey_fast.files import arrow  # noqa: E402

HANDS = [parse_cards(h) for h in ("As2h3d4c5s", "2c3h4d5c6s", "Ks Qd 9c 7h 5d", "Kc Qh 9d 7s 6d", "8c 8d Jc Jd Th",
                                  "3s 4s 6h 9h Tc")]


def _cards(rows: int, seats: int) -> np.ndarray:
    """``rows`` deals of ``seats`` distinct hands (the seats rotate from row to row)."""
    return np.array([[HANDS[(r + s) % 6] for s in range(seats)] for r in range(rows)], dtype=np.uint8)


def _payouts(table) -> list[list[int]]:
    seats = sum(1 for n in table.column_names if n.startswith("payout_"))
    return np.column_stack([table[f"payout_{s}"].to_numpy() for s in range(seats)]).tolist()


def _binary(cards: np.ndarray, nulls: set[int] = frozenset()) -> pa.Array:
    """A plain ``binary`` cards column (as Spark writes it), with no seat count anywhere."""
    return pa.array([None if r in nulls else bytes(row.reshape(-1)) for r, row in enumerate(cards)], pa.binary())


# --------------------------------------------------------------------------------------------------
# Item 7: an Arrow stream whose first batch tells nothing about the width


@pytest.mark.parametrize("first", ["empty", "all null"])
def test_stream_whose_first_batch_has_no_cards_takes_the_width_from_the_rows(tmp_path, first) -> None:
    cards = _cards(40, 6)
    want = _payouts(arrow.score_table(arrow.deals_table(cards, pot=[101] * 40, button=[1] * 40)))
    schema = pa.schema([("cards", pa.binary()), ("pot", pa.int64()), ("button", pa.uint8())])  # no metadata
    head = pa.record_batch([_binary(cards[:0]), pa.array([], pa.int64()), pa.array([], pa.uint8())], schema=schema)
    nulls = 0
    if first == "all null":
        nulls = 3
        head = pa.record_batch([pa.array([None] * nulls, pa.binary()), pa.array([7] * nulls, pa.int64()),
                                pa.array([0] * nulls, pa.uint8())], schema=schema)
    body = [pa.record_batch([_binary(cards[i:i + 10]), pa.array([101] * 10, pa.int64()), pa.array([1] * 10, pa.uint8())],
                            schema=schema) for i in range(0, 40, 10)]
    with ipc.new_stream(str(tmp_path / "d.arrows"), schema) as w:
        for b in [head, *body]:
            w.write_batch(b)
    report = arrow.score_parquet(tmp_path / "d.arrows", tmp_path / "p.parquet", skip_bad=True)
    assert (report.lines, report.deals, report.bad) == (40 + nulls, 40, nulls)
    out = pq.read_table(tmp_path / "p.parquet")
    assert _payouts(out) == want and out["row"].to_pylist() == list(range(nulls + 1, nulls + 41))
    assert [r for r, _ in report.errors] == list(range(1, nulls + 1))
    table = pa.Table.from_batches([head, *body])
    assert _payouts(arrow.score_table(table, skip_bad=True)) == want
    if nulls:
        with pytest.raises(ShowdownError, match="^row 1: cards is null"):
            arrow.score_table(table)
    else:
        assert _payouts(arrow.score_table(table)) == want
