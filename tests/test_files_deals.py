"""files/deals.py: a deal dataset's cards out to people (decode_cards), deals in memory out to pandas and
Arrow (Deals), and the one-line error of a missing extra (errors.MissingExtraError)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from badacey_fast.cards import format_cards
from badacey_fast.errors import FileFormatError, InvalidCardError, MissingExtraError, ShowdownError
from badacey_fast.files.deals import Deals, cards_text, decode_cards

pa = pytest.importorskip("pyarrow")  # the test extra installs it: CI runs these
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.backend_independent  # card ids and text: no evaluation


def text_of(ids):
    """Each seat's cards by the one card formatter of the package: the reference for the vectorised text."""
    return [[format_cards(tuple(int(c) for c in seat)) for seat in deal] for deal in ids]


def test_cards_text_is_format_cards_for_every_card():
    ids = np.arange(52, dtype=np.uint8)
    rng = np.random.default_rng(3)
    deals = np.stack([rng.permutation(ids)[:30] for _ in range(200)]).reshape(200, 6, 5)
    assert cards_text(deals).tolist() == text_of(deals)
    assert cards_text(ids.reshape(52, 1)).tolist() == [format_cards((c,)) for c in range(52)]


def test_a_parquet_deal_file_read_by_pandas_decodes_to_readable_cards(tmp_path):
    d = Deals.generate(500, seats=4, seed=2)
    path = tmp_path / "deals.parquet"
    pq.write_table(d.to_arrow(), path)
    frame = pd.read_parquet(path)
    assert isinstance(frame["cards"].iloc[0], bytes)  # what the user sees without the decoder
    want = text_of(d.cards)
    assert decode_cards(frame["cards"]).tolist() == want  # a pandas Series
    assert decode_cards(pq.read_table(path).column("cards")).tolist() == want  # a chunked Arrow column
    assert decode_cards(list(frame["cards"])).tolist() == want  # a list of bytes
    assert (decode_cards(frame["cards"], form="array") == d.cards).all()
    assert Deals.read(path) == d


def test_deals_out_to_pandas_and_arrow_in_every_card_form(tmp_path):
    live = np.ones((40, 3), bool)
    live[::3, 1] = False
    d = Deals(Deals.generate(40, seats=3, seed=5).cards, pot=np.arange(40) * 10, button=np.arange(40) % 3,
              live=live, id=np.arange(1000, 1040))
    text = d.to_pandas()
    assert list(text.columns) == ["cards_0", "cards_1", "cards_2", "pot", "button", "live_0", "live_1", "live_2", "id"]
    assert [list(r) for r in text[["cards_0", "cards_1", "cards_2"]].itertuples(index=False)] == text_of(d.cards)
    assert text["live_1"].tolist() == live[:, 1].tolist() and text["pot"].tolist() == list(range(0, 400, 10))
    arrays = d.to_pandas(cards="array")
    assert (np.stack(arrays["cards"].tolist()) == d.cards).all()
    assert d.to_arrow(cards="text").column("cards_2").to_pylist() == [t[2] for t in text_of(d.cards)]
    assert (np.array(d.to_arrow(cards="array").column("cards").to_pylist(), np.uint8) == d.cards).all()
    assert Deals.from_arrow(d.to_arrow()) == d  # the deal schema itself, live bits and ids kept
    path = tmp_path / "d.arrow"
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, d.to_arrow().schema) as w:
        w.write_table(d.to_arrow())
    assert Deals.read(path) == d


@pytest.mark.parametrize("column, error, words", [
    ([bytes([3, 60, 4, 5, 6, 7, 8, 9, 10, 11])], InvalidCardError, "row 1, seat 0: card id 60"),
    ([bytes(range(10)), bytes(range(10, 25))], ShowdownError, "row 2 holds 15 card ids, row 1 holds 10"),
    ([bytes(range(10)), None], ShowdownError, "row 2: the cards are null"),
    ([bytes(range(7))], ShowdownError, "7 card ids a row"),
    ([bytes(range(35))], ShowdownError, "35 card ids a row"),
    (["As 2h"], TypeError, "cards must be bytes, not str"),
    (b"\x00\x01", TypeError, "not bytes"),
    (3, TypeError, "not int"),
])
def test_bad_card_columns_name_the_row(column, error, words):
    with pytest.raises(error, match=words):
        decode_cards(column)


def test_bad_arguments():
    with pytest.raises(FileFormatError, match="form must be one of text, array, not 'ids'"):
        decode_cards([bytes(range(10))], form="ids")
    arrow = pa.array([bytes(range(10)), None], pa.binary(10))
    with pytest.raises(ShowdownError, match="row 2: the cards are null"):
        decode_cards(arrow)
    with pytest.raises(ShowdownError, match="type string"):
        decode_cards(pa.array(["As 2h 3d 4c 5s"]))
    with pytest.raises(ShowdownError, match=r"shape \(N, P, 5\)"):
        Deals(np.zeros((3, 7, 5), np.uint8))
    with pytest.raises(ShowdownError, match="button 2 is not a seat 0..1"):
        Deals(Deals.generate(2, seats=2, seed=1).cards, button=2)
    with pytest.raises(FileFormatError, match="cards must be one of"):
        Deals.generate(2, seats=2).to_pandas(cards="binary")


def test_a_missing_extra_is_one_line_naming_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(MissingExtraError, match=r'^DataFrames need pandas: pip install "badacey_fast\[pandas\]"$'):
        Deals.generate(2, seats=2).to_pandas()
    assert issubclass(MissingExtraError, ImportError)
