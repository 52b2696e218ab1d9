"""Cards (RULES.md §1): the 0..51 encoding, every accepted text form, canonical output, errors.

Expected ids are computed here from the spec's formula ``card = 4*rank + suit`` (rank 0=A..12=K,
suit 0=c, 1=d, 2=h, 3=s), never read back from the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from badacey_fast import (
    BadaceyError,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    card_id,
    card_rank,
    card_suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SYMBOLS = "♣♦♥♠"


def cid(text: str) -> int:
    """The spec's encoding of a two-character card, written out independently of cards.py."""
    rank, suit = text[:-1], text[-1]
    r = 9 if rank == "10" else RANKS.index(rank.upper())
    s = SYMBOLS.index(suit) if suit in SYMBOLS else SUITS.index(suit.lower())
    return 4 * r + s


ALL_TEXT = [r + s for r in RANKS for s in SUITS]


# --- the encoding -------------------------------------------------------------------------------


def test_encoding_matches_spec_examples() -> None:
    assert parse_card("Ac") == 0
    assert parse_card("As") == 3
    assert parse_card("2c") == 4
    assert parse_card("Td") == 37
    assert parse_card("Kc") == 48
    assert parse_card("Ks") == 51


@pytest.mark.parametrize("text", ALL_TEXT)
def test_every_card_parses_to_its_spec_id(text: str) -> None:
    assert parse_card(text) == cid(text)


def test_card_id_rank_suit_cover_the_deck() -> None:
    for r in range(13):
        for s in range(4):
            c = card_id(r, s)
            assert c == 4 * r + s
            assert (card_rank(c), card_suit(c)) == (r, s)


@pytest.mark.parametrize("rank, suit, bad", [(13, 0, "13"), (-1, 0, "-1"), (0, 4, "4"), (0, -1, "-1")])
def test_card_id_out_of_range(rank: int, suit: int, bad: str) -> None:
    with pytest.raises(InvalidCardError, match=bad):
        card_id(rank, suit)


@pytest.mark.parametrize("rank, suit", [(True, 0), (0, False), (1.0, 0), ("A", 0), (None, 1)])
def test_card_id_wrong_types(rank: object, suit: object) -> None:
    with pytest.raises(TypeError):
        card_id(rank, suit)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [52, -1, 100])
def test_card_rank_suit_out_of_range(bad: int) -> None:
    with pytest.raises(InvalidCardError, match=str(bad)):
        card_rank(bad)
    with pytest.raises(InvalidCardError, match=str(bad)):
        card_suit(bad)


# --- accepted text forms ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "As 2h Td",
        "As 2h 10d",
        "as 2H td",
        "AS 2h tD",
        "A♠ 2♥ T♦",
        "a♠ 2♥ 10♦",
        "As,2h,Td",
        "As, 2h ,Td",
        "As2hTd",
        "As2h10d",
        "  As\t2h\nTd  ",
        "A♠2♥T♦",
        "A♤ 2♡ T♢",  # outline suit symbols
    ],
)
def test_text_forms(text: str) -> None:
    assert parse_cards(text) == (cid("As"), cid("2h"), cid("Td"))


def test_unseparated_five_cards() -> None:
    assert parse_cards("As2h3d4c5s") == tuple(cid(t) for t in ("As", "2h", "3d", "4c", "5s"))


@pytest.mark.parametrize(
    "cards",
    [
        ["As", "2h", "Td"],
        ("as", "2H", "10d"),
        ["A♠", "2♥", "T♦"],
        [3, 6, 37],
        (3, 6, 37),
        ["As", 6, "Td"],
        [np.int64(3), np.int32(6), np.uint8(37)],
        np.array([3, 6, 37]),
        np.array([3, 6, 37], dtype=np.uint8),
        pytest.param(lambda: iter([3, 6, 37]), id="iterator"),  # made per run: an iterator is used up
    ],
)
def test_sequence_forms(cards: object) -> None:
    if callable(cards):
        cards = cards()
    assert parse_cards(cards) == (3, 6, 37)  # type: ignore[arg-type]


def test_parse_card_accepts_ids_and_numpy_ints() -> None:
    assert parse_card(37) == 37
    assert parse_card(np.int16(37)) == 37  # type: ignore[arg-type]
    assert parse_card(" 10d ") == 37


def test_empty_text_is_no_cards() -> None:
    assert parse_cards("") == ()
    assert parse_cards(" , ") == ()
    assert parse_cards([]) == ()


def test_order_is_kept() -> None:
    assert parse_cards("5s 4c 3d 2h As") == tuple(cid(t) for t in ("5s", "4c", "3d", "2h", "As"))


# --- formatting ---------------------------------------------------------------------------------


def test_round_trip_all_52() -> None:
    for c in range(52):
        text = format_card(c)
        assert len(text) == 2 and text[0] in RANKS and text[1] in SUITS
        assert cid(text) == c
        assert parse_card(text) == c
        sym = format_card(c, symbols=True)
        assert sym == text[0] + SYMBOLS[SUITS.index(text[1])]
        assert parse_card(sym) == c


def test_whole_deck_round_trip() -> None:
    text = format_cards(range(52))
    assert text == " ".join(ALL_TEXT)
    assert parse_cards(text) == tuple(range(52))
    assert parse_cards(text.replace(" ", "")) == tuple(range(52))
    assert parse_cards(format_cards(range(52), symbols=True)) == tuple(range(52))


@pytest.mark.parametrize(
    "given_text, canonical",
    [
        ("as,2H 10d", "As 2h Td"),
        ("A♠2♥T♦", "As 2h Td"),
        ("kc qD jh 10S", "Kc Qd Jh Ts"),
        ("", ""),
    ],
)
def test_canonical_output(given_text: str, canonical: str) -> None:
    assert format_cards(given_text) == canonical
    assert format_cards(parse_cards(given_text)) == canonical


def test_symbols_on_request() -> None:
    assert format_cards("As 2h 3d 4c", symbols=True) == "A♠ 2♥ 3♦ 4♣"
    assert format_cards([cid("Td")], symbols=True) == "T♦"
    # canonical ASCII by default, even from symbol input
    assert format_cards("A♠ 2♥") == "As 2h"


@settings(deadline=None)  # no per-example deadline: cold lazy tables or a loaded CI box are not bugs
@given(st.permutations(range(52)), st.integers(0, 52), st.sampled_from([" ", ",", ", ", "", "  "]),
       st.booleans(), st.booleans())
def test_round_trip_property(deck: list[int], n: int, sep: str, lower: bool, symbols: bool) -> None:
    cards = deck[:n]
    text = sep.join(format_card(c, symbols=symbols) for c in cards)
    if lower:
        text = text.lower()
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(text, count=n) == tuple(cards)


# --- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, token",
    [
        ("Xx", "Xx"),
        ("1x", "1x"),
        ("As 2h 3x", "3x"),
        ("As 1c", "1c"),
        ("As Zs", "Zs"),
        ("As2h3x", "3x"),
        ("11s", "11"),
        ("Ass", "s"),
        ("A", "A"),
        ("sA", "sA"),
        ("As ?", "?"),
    ],
)
def test_unknown_token_is_named(text: str, token: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards(text)
    assert repr(token) in str(info.value)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, BadaceyError)


@pytest.mark.parametrize("token", ["Xx", "1s", "As2h", "", "A s"])
def test_parse_card_unknown(token: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)


def test_unknown_token_in_a_sequence_is_named() -> None:
    with pytest.raises(InvalidCardError, match="'Qx'"):
        parse_cards(["As", "Qx"])


@pytest.mark.parametrize("bad", [52, -1, 1000, np.int64(52)])
def test_int_outside_deck(bad: int) -> None:
    with pytest.raises(InvalidCardError, match=str(int(bad))):
        parse_cards([3, bad])
    with pytest.raises(InvalidCardError, match=str(int(bad))):
        parse_card(bad)
    with pytest.raises(InvalidCardError, match=str(int(bad))):
        format_card(bad)
    with pytest.raises(InvalidCardError, match=str(int(bad))):
        format_cards([bad])


@pytest.mark.parametrize(
    "cards, named",
    [
        ("As As", "'As'"),
        ("As as", "'As'"),
        ("As 2h A♠", "'As'"),
        ("2h As2h", "'2h'"),
        ([3, 3], "'As'"),
        (["Td", 37], "'Td'"),
        ("10d Td", "'Td'"),
    ],
)
def test_duplicate_card_is_named(cards: object, named: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        parse_cards(cards)  # type: ignore[arg-type]
    assert named in str(info.value)
    assert isinstance(info.value, InvalidCardError)


@pytest.mark.parametrize(
    "cards, count, want, got",
    [
        ("As 2h", 5, "5", "2"),
        ("As 2h 3d 4c 5s 6h", 5, "5", "6"),
        ("", 5, "5", "0"),
        ("As 2h 3d 4c 5s 6h", (1, 2, 3, 4, 5), "1 to 5", "6"),
        ("", (1, 2, 3, 4, 5), "1 to 5", "0"),
    ],
)
def test_wrong_count(cards: str, count: object, want: str, got: str) -> None:
    with pytest.raises(HandSizeError) as info:
        parse_cards(cards, count=count)  # type: ignore[arg-type]
    msg = str(info.value)
    assert f"expected {want} cards" in msg and f"got {got}" in msg


def test_right_count_passes() -> None:
    assert len(parse_cards("As 2h 3d 4c", count=(1, 2, 3, 4, 5))) == 4
    assert len(parse_cards("As 2h 3d 4c 5s", count=5)) == 5


@pytest.mark.parametrize("bad", [None, 1.5, True, False, b"As 2h", bytearray(b"As"), 3, np.float64(3.0), object()])
def test_wrong_types_parse_cards(bad: object) -> None:
    with pytest.raises(TypeError):
        parse_cards(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("element", [None, 1.0, True, False, b"As", np.float32(3), ["As"], np.bool_(True)])
def test_wrong_element_types(element: object) -> None:
    with pytest.raises(TypeError):
        parse_cards(["2h", element])  # type: ignore[list-item]


@pytest.mark.parametrize("bad", [None, 3.0, True, b"As", ["As"]])
def test_wrong_types_single_card(bad: object) -> None:
    with pytest.raises(TypeError):
        parse_card(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        format_card(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, 3, 2.5])
def test_wrong_types_format_cards(bad: object) -> None:
    with pytest.raises(TypeError):
        format_cards(bad)  # type: ignore[arg-type]
