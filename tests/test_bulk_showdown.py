"""Bulk showdowns (badacey_fast.bulk.showdown): C kernel vs numpy reference, vs the single ``showdown``, seed 000
examples, ties and quartering, odd chips worked by hand, chip conservation, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from badacey_fast.kernel import backend as _backend
from badacey_fast.cards import parse_cards
from badacey_fast.errors import DuplicateCardError, HandSizeError, InvalidCardError, ShowdownError, UnknownGameError
from badacey_fast import kernel
from badacey_fast.bulk.showdown import ColumnShowdown, score_columns, score_many, showdown_many, winners_many
from badacey_fast.pots.settlement import showdown, showdown_detail


def deal(rng: np.random.Generator, n: int, seats: int) -> np.ndarray:
    """n rows of `seats` random five-card hands from one deck per row, uint8 (N, P, 5)."""
    deck = rng.permuted(np.broadcast_to(np.arange(52, dtype=np.uint8), (n, 52)), axis=1)
    return np.ascontiguousarray(deck[:, : 5 * seats].reshape(n, seats, 5))


def live_mask(rng: np.random.Generator, n: int, seats: int, p_live: float = 0.7) -> np.ndarray:
    live = rng.random((n, seats)) < p_live
    live[np.arange(n), rng.integers(0, seats, n)] = True  # at least one live seat per row
    return live


def hands(*texts: str) -> np.ndarray:
    return np.array([parse_cards(t, count=5) for t in texts], dtype=np.uint8)


# Seed 000's three worked showdowns.
ALMA, BRUNO = "As 2h 3d 4c 5s", "2c 3s 4h 5d 6c"
CORA, DMITRI = "2h 4h 6h 7h Ac", "Ks Qd 9c 5h 5s"
ANN, BEN = "As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"
# Three seats: seats 0 and 1 tie a 6-low (lose to seat 2's wheel); all three tie a 4-3-2-A badugi.
TRIO = ("Ac 2d 3h 4s 6c", "As 2c 3d 4h 6s", "Ah 2s 3c 4d 5h")


# --------------------------------------------------------------------------------------------------
# Worked by hand


def test_seed_000_examples_in_bulk(backend: str) -> None:
    batch = np.stack([hands(ALMA, BRUNO), hands(CORA, DMITRI), hands(ANN, BEN)])
    assert showdown_many(batch).tolist() == [[1.0, 0.0], [0.5, 0.5], [0.25, 0.75]]
    assert showdown_many(batch, pot=100).tolist() == [[100, 0], [50, 50], [25, 75]]
    low, badugi = winners_many(batch)
    assert low.tolist() == [[True, False], [True, False], [False, True]]
    assert badugi.tolist() == [[True, False], [False, True], [True, True]]


def test_three_way_tie_and_quartering_worked_by_hand(backend: str) -> None:
    batch = hands(*TRIO)[None]
    shares = showdown_many(batch)[0]
    assert shares == pytest.approx([1 / 6, 1 / 6, 2 / 3])
    # Pot 100, button 0: halves of 50.  Low: seat 2.  Badugi 50 / 3 = 16 rest 2, the rest to the first
    # winners clockwise from the button: seat 1, then seat 2.
    assert showdown_many(batch, pot=100, button=0).tolist() == [[16, 17, 67]]
    # Pot 101: the odd chip to the first winner clockwise from the button (seat 1) ...
    assert showdown_many(batch, pot=101, button=0).tolist() == [[16, 18, 67]]
    # ... or, with odd_chip="low", to the low half (seat 2).
    assert showdown_many(batch, pot=101, button=0, odd_chip="low").tolist() == [[16, 17, 68]]
    # Button 1: clockwise order is seat 2, 0, 1, so seat 2 and seat 0 get the badugi's two extra chips.
    assert showdown_many(batch, pot=101, button=1).tolist() == [[17, 16, 68]]
    low, badugi = winners_many(batch)
    assert low.tolist() == [[False, False, True]] and badugi.tolist() == [[True, True, True]]


def test_game_changes_the_answer(backend: str) -> None:
    # Badeucy (2-7 low, ace-high badugi): Bruno's 6-5-4-3-2 is a straight and loses the low to Alma's
    # ace-high A-5-4-3-2 (no straight in 2-7); in the badugi Alma drops her (high) ace and plays
    # 5s 4c 3d 2h, tying Bruno's 5d 4h 3s 2c.  Alma 1/2 + 1/4, Bruno 1/4.
    batch = hands(ALMA, BRUNO)[None]
    assert showdown_many(batch, game="badeucy").tolist() == [[0.75, 0.25]]
    # Pot 10, button 0: low 5 to Alma; badugi 5 = 2 + 2 and the extra chip to seat 1 (first after the button).
    assert showdown_many(batch, game="Baduci", pot=10).tolist() == [[7, 3]]


def test_folded_seats_are_ignored_and_a_lone_seat_takes_the_pot(backend: str) -> None:
    # Row 0: Alma folded (her 2h and 5s are also in Cora's and Dmitri's hands: a folded seat's cards
    # are not judged), Cora and Dmitri split as in seed 000.  Row 1: only Dmitri is live.
    batch = np.stack([hands(ALMA, CORA, DMITRI), hands(ALMA, BRUNO, DMITRI)])
    live = np.array([[False, True, True], [False, False, True]])
    assert showdown_many(batch, live).tolist() == [[0.0, 0.5, 0.5], [0.0, 0.0, 1.0]]
    # Pot 7, button 2: halves of 3; the odd chip to the first winner clockwise from seat 2: Cora.
    assert showdown_many(batch, live, pot=7, button=2).tolist() == [[0, 4, 3], [0, 0, 7]]
    low, badugi = winners_many(batch, live)
    assert low.tolist() == [[False, True, False], [False, False, True]]
    assert badugi.tolist() == [[False, False, True], [False, False, True]]
    # A folded seat may hold garbage: out-of-range ids and cards another seat holds.
    junk = batch.astype(np.int64)
    junk[1, 0] = [99, -1, 52, 0, 0]
    junk[1, 1] = junk[1, 2]
    assert showdown_many(junk, live, pot=7, button=2).tolist() == [[0, 4, 3], [0, 0, 7]]


# --------------------------------------------------------------------------------------------------
# Against the reference path and against the single showdown


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("game", ["badacey", "badeucy"])
def test_c_matches_numpy_reference(seats: int, game: str) -> None:
    rng = np.random.default_rng(1000 * seats + len(game))
    n = 250
    cards = deal(rng, n, seats)
    live = live_mask(rng, n, seats)
    pots = rng.integers(0, 1000, n)
    buttons = rng.integers(0, seats, n)
    results = {}
    for which in ("c", "python"):
        with _backend.using(which):
            results[which] = [
                score_many(cards, live, game),
                score_many(cards, None, game),
                score_many(cards, live, game, pot=pots, button=buttons),
                score_many(cards, live, game, pot=pots, button=buttons, odd_chip="low"),
            ]
    for c_result, py_result in zip(results["c"], results["python"]):
        for c_arr, py_arr in zip(c_result, py_result):
            assert c_arr.dtype == py_arr.dtype and c_arr.shape == py_arr.shape
            np.testing.assert_array_equal(c_arr, py_arr)  # exact, shares included


@pytest.mark.parametrize("odd_chip", ["position", "low"])
def test_equals_single_showdown_row_by_row(backend: str, odd_chip: str) -> None:
    rng = np.random.default_rng(7 if odd_chip == "low" else 8)
    for seats in (2, 4, 6):
        n = 40
        cards = deal(rng, n, seats)
        live = live_mask(rng, n, seats, 0.6)
        pots = rng.integers(0, 200, n)
        buttons = rng.integers(0, seats, n)
        bulk = score_many(cards, live, "badeucy" if seats == 4 else "badacey", pot=pots, button=buttons,
                          odd_chip=odd_chip)
        for i in range(n):
            seat_hands = [list(cards[i, s]) if live[i, s] else None for s in range(seats)]
            game = "badeucy" if seats == 4 else "badacey"
            single = showdown(seat_hands, int(pots[i]), int(buttons[i]), game, odd_chip)
            assert bulk.payouts[i].tolist() == [0 if x is None else x for x in single], (seats, i)
            if live[i].sum() > 1:
                detail = showdown_detail(seat_hands, int(pots[i]), int(buttons[i]), game, odd_chip)
                assert np.flatnonzero(bulk.low[i]).tolist() == sorted(detail.low_winners)
                assert np.flatnonzero(bulk.badugi[i]).tolist() == sorted(detail.badugi_winners)


def test_chips_conserved_and_close_to_shares(backend: str) -> None:
    rng = np.random.default_rng(99)
    n = 300 if backend == "python" else 20_000
    cards = deal(rng, n, 6)
    live = live_mask(rng, n, 6, 0.5)
    pots = rng.integers(0, 10**12, n)
    pots[:50] = rng.integers(0, 5, 50)  # tiny pots: 0 and 1 chip included
    buttons = rng.integers(0, 6, n)
    shares = showdown_many(cards, live)
    np.testing.assert_allclose(shares.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert (shares[~live] == 0).all() and (shares >= 0).all()
    for odd_chip in ("position", "low"):
        chips = showdown_many(cards, live, pot=pots, button=buttons, odd_chip=odd_chip)
        assert chips.dtype == np.int64
        np.testing.assert_array_equal(chips.sum(axis=1), pots)
        assert (chips >= 0).all() and (chips[~live] == 0).all()
        # Rounding moves at most one chip per half plus the odd chip.
        assert np.abs(chips - shares * pots[:, None]).max() <= 3


def test_input_forms_agree(backend: str) -> None:
    rng = np.random.default_rng(5)
    cards = deal(rng, 60, 5)
    expected = showdown_many(cards, pot=1001, button=2)
    for form in (cards.astype(np.int8), cards.astype(np.int64), cards.astype(np.uint16),
                 np.asfortranarray(cards), cards.tolist()):
        np.testing.assert_array_equal(showdown_many(form, pot=1001, button=2), expected)
    strided = np.zeros((60, 5, 10), dtype=np.uint8)
    strided[:, :, ::2] = cards
    np.testing.assert_array_equal(showdown_many(strided[:, :, ::2], pot=1001, button=2), expected)
    pots = np.full(60, 1001, dtype=np.uint32)
    np.testing.assert_array_equal(showdown_many(cards, pot=pots, button=np.full(60, 2)), expected)
    empty = showdown_many(np.zeros((0, 3, 5), dtype=np.uint8))
    assert empty.shape == (0, 3) and empty.dtype == np.float64


# --------------------------------------------------------------------------------------------------
# Bad input: errors name the row and the value


def test_bad_cards_name_the_row(backend: str) -> None:
    batch = np.stack([hands(ALMA, BRUNO)] * 4).astype(np.int64)
    bad = batch.copy()
    bad[2, 1, 3] = 52
    with pytest.raises(InvalidCardError, match=r"row 2 seat 1: card id 52 is outside 0\.\.51"):
        showdown_many(bad)
    bad = batch.copy()
    bad[3, 0, 0] = -1
    with pytest.raises(InvalidCardError, match=r"row 3 seat 0: card id -1"):
        showdown_many(bad, pot=10)
    bad = batch.astype(np.uint8)
    bad[1, 0, 4] = 255
    with pytest.raises(InvalidCardError, match=r"row 1 seat 0: card id 255"):
        winners_many(bad)
    bad = batch.copy()
    bad[1, 1, 0] = bad[1, 0, 2]  # Bruno holds Alma's 3d
    with pytest.raises(DuplicateCardError, match=r"row 1: card '3d' is held twice \(seat 0 and seat 1\)"):
        showdown_many(bad)
    bad = batch.copy()
    bad[0, 1, 1] = bad[0, 1, 0]  # the same card twice in one hand
    with pytest.raises(DuplicateCardError, match=r"row 0: card '2c' is held twice \(seat 1\)"):
        showdown_many(bad, pot=3)


def test_bad_shapes_and_arguments(backend: str) -> None:
    two = np.stack([hands(ALMA, BRUNO)] * 3)
    with pytest.raises(ShowdownError, match="1 seats"):
        showdown_many(two[:, :1])
    with pytest.raises(ShowdownError, match="7 seats"):
        showdown_many(np.zeros((1, 7, 5), dtype=np.uint8))
    with pytest.raises(HandSizeError, match=r"\(3, 2, 4\)"):
        showdown_many(two[:, :, :4])
    with pytest.raises(HandSizeError, match="shape"):
        showdown_many(two[0])
    with pytest.raises(TypeError, match="float64"):
        showdown_many(two.astype(float))
    with pytest.raises(TypeError, match="bool"):
        showdown_many(two.astype(bool))
    with pytest.raises(ShowdownError, match="row 1 has no live seat"):
        showdown_many(two, np.array([[True, False], [False, False], [True, True]]))
    with pytest.raises(ShowdownError, match=r"live must have shape \(3, 2\)"):
        showdown_many(two, np.ones((3, 3), dtype=bool))
    with pytest.raises(TypeError, match="live must be a bool array"):
        showdown_many(two, np.ones((3, 2), dtype=np.int8))
    with pytest.raises(ShowdownError, match="row 2: pot -5 is negative"):
        showdown_many(two, pot=np.array([1, 2, -5]))
    with pytest.raises(ShowdownError, match=r"pot must be a scalar or shape \(3,\)"):
        showdown_many(two, pot=np.array([1, 2]))
    with pytest.raises(TypeError, match="pot"):
        showdown_many(two, pot=10.5)
    with pytest.raises(TypeError, match="pot"):
        showdown_many(two, pot=True)
    with pytest.raises(ShowdownError, match=r"row 0: button 2 is not a seat 0\.\.1"):
        showdown_many(two, pot=10, button=2)
    with pytest.raises(ShowdownError, match=r"row 1: button -1"):
        showdown_many(two, pot=10, button=np.array([0, -1, 0]))
    with pytest.raises(UnknownGameError, match="razz"):
        showdown_many(two, game="razz")
    with pytest.raises(ShowdownError, match="'high'"):
        showdown_many(two, pot=10, odd_chip="high")


def test_bad_rows_deep_in_a_big_batch(backend: str) -> None:
    # 64 rows: the C kernel settles these in blocks of 16 (vectorised where the CPU allows), so a bad row
    # in the middle of a full block must still be caught and named.
    rng = np.random.default_rng(37)
    good = deal(rng, 64, 6).astype(np.int64)
    cases = [
        ((37, 4, 2), 52, InvalidCardError, r"row 37 seat 4: card id 52"),
        ((37, 5, 0), 200, InvalidCardError, r"row 37 seat 5: card id 200"),
        ((37, 2, 1), "dup-in-hand", DuplicateCardError, r"row 37: card '.+' is held twice \(seat 2\)"),
        ((37, 3, 4), "dup-across", DuplicateCardError, r"row 37: card '.+' is held twice \(seat 1 and seat 3\)"),
    ]
    for (row, seat, k), value, error, message in cases:
        bad = good.copy()
        if value == "dup-in-hand":
            bad[row, seat, k] = bad[row, seat, 0]
        elif value == "dup-across":
            bad[row, seat, k] = bad[row, 1, 0]
        else:
            bad[row, seat, k] = value
        with pytest.raises(error, match=message):
            showdown_many(bad, pot=100)
        with pytest.raises(error, match=message):
            showdown_many(bad.astype(np.uint8) if value != 200 else bad)
    # Folded seats may hold anything, in full blocks too.
    live = np.ones((64, 6), dtype=bool)
    live[:, 0] = False
    junk = good.copy()
    junk[:, 0] = [255, 52, 0, 0, 3]
    junk[::2, 0, 2] = junk[::2, 1, 0]
    np.testing.assert_array_equal(showdown_many(junk.astype(np.uint8), live, pot=99, button=4),
                                  showdown_many(good, live, pot=99, button=4))


def test_out_buffer_is_filled_and_returned(backend: str) -> None:
    rng = np.random.default_rng(12)
    cards = deal(rng, 40, 3)
    shares = np.full((40, 3), -1.0)
    assert showdown_many(cards, out=shares) is shares
    np.testing.assert_array_equal(shares, showdown_many(cards))
    chips = np.full((40, 3), -1, dtype=np.int64)
    assert showdown_many(cards, pot=77, button=1, out=chips) is chips
    np.testing.assert_array_equal(chips, showdown_many(cards, pot=77, button=1))


@pytest.mark.backend_independent
@pytest.mark.parametrize("chips", [False, True], ids=["shares", "chips"])
def test_big_new_payouts_match_out_and_the_reference(chips: bool) -> None:
    # From 4 MiB of payouts (here 4.8 MB) a new result is a 2 MiB-aligned view into a larger, possibly
    # recycled buffer (bulk/buffers.py, tests/test_buffers.py): an ordinary writable C-contiguous array with
    # the same values as out= gives, and as the numpy reference's on a sample of the rows.
    rng = np.random.default_rng(13)
    n = 100_000
    cards = deal(rng, n, 6)
    extra = {"pot": rng.integers(0, 10**6, n), "button": rng.integers(0, 6, n)} if chips else {}
    with kernel.using("c"):
        got = showdown_many(cards, **extra)
        into = np.full((n, 6), -1, dtype=got.dtype)
        np.testing.assert_array_equal(got, showdown_many(cards, out=into, **extra))
        if chips:  # the columnar layout (6 x N int64, 4.8 MB) is allocated the same way
            columns = score_columns(cards, **extra).chips
            assert columns.flags.c_contiguous and columns.flags.writeable
            np.testing.assert_array_equal(columns, got.T)
    assert got.shape == (n, 6) and got.dtype == (np.int64 if chips else np.float64)
    assert got.flags.c_contiguous and got.flags.writeable and got.flags.aligned
    sample = np.sort(rng.choice(n, 300, replace=False))
    with kernel.using("python"):
        want = showdown_many(cards[sample], **{k: v[sample] for k, v in extra.items()})
        np.testing.assert_array_equal(got[sample], want)
        np.testing.assert_array_equal(showdown_many(cards[:2000], **{k: v[:2000] for k, v in extra.items()}),
                                      got[:2000])


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


# The same out= mistakes, one per kind, for both bulk functions that take out=: (the bad array for a
# batch of 40 rows, what the message must say was given).
_OUT_MISTAKES = {
    "dtype": (lambda want, shape: np.zeros(shape, np.float32), "dtype float32"),
    "shape": (lambda want, shape: np.zeros((41,) + shape[1:], want), "shape (41"),
    "layout": (lambda want, shape: np.zeros(shape + (2,), want)[..., 0], "not C-contiguous"),
    "read-only": (lambda want, shape: _frozen(np.zeros(shape, want)), "read-only"),
    "alignment": (lambda want, shape: _misaligned(np.zeros(shape, want)), "not aligned"),
}


def _misaligned(a: np.ndarray) -> np.ndarray:
    """A C-contiguous writable copy of ``a`` starting one byte past an aligned address (a view of a byte
    buffer at an odd offset: numpy flags it not aligned)."""
    raw = np.zeros(a.nbytes + 16, np.uint8)
    start = 1 + (-raw.ctypes.data) % 16  # one byte past a 16-byte boundary
    view = np.frombuffer(raw.data, a.dtype, a.size, start).reshape(a.shape)
    view[...] = a
    assert not view.flags.aligned and view.flags.c_contiguous and view.flags.writeable
    return view


def test_misaligned_pots_and_buttons_are_read_as_aligned_ones(backend: str) -> None:
    # The kernel may not load an int64 from an odd address: such inputs are copied, not refused.
    rng = np.random.default_rng(14)
    cards = deal(rng, 40, 3)
    pots, buttons = rng.integers(0, 1000, 40), rng.integers(0, 3, 40)
    expected = showdown_many(cards, pot=pots, button=buttons)
    np.testing.assert_array_equal(showdown_many(cards, pot=_misaligned(pots), button=_misaligned(buttons)), expected)
    got = score_columns(cards, pot=_misaligned(pots), button=_misaligned(buttons))
    np.testing.assert_array_equal(got.chips.T, expected)


@pytest.mark.parametrize("mistake", sorted(_OUT_MISTAKES))
@pytest.mark.parametrize("call", ["evaluate_many", "showdown_many shares", "showdown_many chips"])
def test_out_mistakes_raise_the_same_errors_everywhere(backend: str, call: str, mistake: str) -> None:
    from badacey_fast.bulk import evaluate_many
    from badacey_fast.errors import BadaceyError

    cards = deal(np.random.default_rng(13), 40, 3)
    if call == "evaluate_many":
        want, shape, expected = np.uint16, (40,), r"out\[0\] must be a writable C-contiguous uint16 array of shape \(40,\)"
        run = lambda out: evaluate_many(cards[:, 0], out=(out, np.zeros(40, np.uint16)))  # noqa: E731
        as_list = lambda: evaluate_many(cards[:, 0], out=([0] * 40, np.zeros(40, np.uint16)))  # noqa: E731
    else:
        chips = call.endswith("chips")
        want, shape = (np.int64 if chips else np.float64), (40, 3)
        expected = rf"out must be a writable C-contiguous {np.dtype(want)} array of shape \(40, 3\)"
        extra = {"pot": 77, "button": 1} if chips else {}
        run = lambda out: showdown_many(cards, out=out, **extra)  # noqa: E731
        as_list = lambda: showdown_many(cards, out=np.zeros(shape, want).tolist(), **extra)  # noqa: E731
    make, given = _OUT_MISTAKES[mistake]
    with pytest.raises(BadaceyError, match=expected) as info:
        run(make(want, shape))
    assert given in str(info.value)
    with pytest.raises(TypeError, match=expected + ", not list"):  # not an array at all: a type error
        as_list()


def bitmasks(won: np.ndarray) -> np.ndarray:
    """(N, P) bool winners as (N,) uint8 seat bitmasks, bit s = seat s (the payout files' layout)."""
    return (won.astype(np.uint8) << np.arange(won.shape[1], dtype=np.uint8)).sum(axis=1, dtype=np.uint8)


@pytest.mark.parametrize("seats", [2, 3, 5, 6])
@pytest.mark.parametrize("game", ["badacey", "badeucy", "a5", "27"])
def test_score_columns_is_score_many_laid_out_as_columns(backend: str, seats: int, game: str) -> None:
    # score_columns has its own kernel entry point (bd_showdown_columns): it must pay and name winners
    # exactly as score_many, in every layout detail (a column per seat, a bitmask per half and row).
    rng = np.random.default_rng(seats * 31 + len(game))
    n = 70 if backend == "python" else 3000  # > the 16-row block, with a tail
    cards, live = deal(rng, n, seats), live_mask(rng, n, seats, 0.6)
    pots, buttons = rng.integers(0, 10_000, n), rng.integers(0, seats, n)
    for mask in (live, None):
        for odd_chip in ("position", "low"):
            rows = score_many(cards, mask, game, pot=pots, button=buttons, odd_chip=odd_chip)
            cols = score_columns(cards, mask, game, pot=pots, button=buttons, odd_chip=odd_chip)
            assert cols.chips.dtype == np.int64 and cols.chips.shape == (seats, n) and cols.chips.flags.c_contiguous
            assert cols.low.dtype == cols.badugi.dtype == np.uint8 and cols.low.shape == (n,)
            np.testing.assert_array_equal(cols.chips, rows.payouts.T)
            np.testing.assert_array_equal(cols.low, bitmasks(rows.low))
            np.testing.assert_array_equal(cols.badugi, bitmasks(rows.badugi))
    assert score_columns(cards[:0], None, game, pot=1).chips.shape == (seats, 0)


@pytest.mark.parametrize("game", ["badacey", "a5"])
def test_score_columns_status_codes_every_row_and_pays_bad_rows_nothing(backend: str, game: str) -> None:
    # status=: no row raises; each row's code is the first of card id / card twice / no live seat / pot /
    # button that applies (the kernel's order: a row wrong in several ways gets its first code), bad rows
    # pay and win nothing, and the good rows are paid exactly as score_columns pays them on their own.
    # The single-pot games (numpy, not the kernel) must give the same codes.
    rng = np.random.default_rng(17)
    n, seats = 200, 3
    cards, live = deal(rng, n, seats), live_mask(rng, n, seats)
    pots, buttons = rng.integers(0, 500, n), rng.integers(0, seats, n)
    want = np.zeros(n, np.uint8)
    for r in range(0, n, 9):
        kind = (r // 9) % 6
        if kind == 0:
            cards[r, 0, 0], want[r] = 77, 1
            live[r, 0] = True
        elif kind == 1:
            cards[r, 1, 1], want[r] = cards[r, 0, 0], 2
            live[r, :2] = True
        elif kind == 2:
            live[r], want[r] = False, 3
        elif kind == 3:
            pots[r], want[r] = -1, 4
        elif kind == 4:
            buttons[r], want[r] = seats, 5
        else:  # several problems: the card's code comes first
            cards[r, 2, 3], pots[r], buttons[r], want[r] = 52, -3, -1, 1
            live[r, 2] = True
    codes = np.full(n, 99, np.uint8)
    got = score_columns(cards, live, game, pot=pots, button=buttons, status=codes)
    np.testing.assert_array_equal(codes, want)
    good = want == 0
    alone = score_columns(cards[good], live[good], game, pot=pots[good], button=buttons[good])
    np.testing.assert_array_equal(got.chips[:, good], alone.chips)
    np.testing.assert_array_equal(got.low[good], alone.low)
    np.testing.assert_array_equal(got.badugi[good], alone.badugi)
    assert not got.chips[:, ~good].any() and not got.low[~good].any() and not got.badugi[~good].any()
    with pytest.raises(DuplicateCardError, match="^row 8: "):  # without status= a bad row raises
        score_columns(cards[1:18], live[1:18], game, pot=pots[1:18], button=buttons[1:18])
    with pytest.raises(ValueError, match="status must be a writable C-contiguous uint8 array of shape"):
        score_columns(cards, live, game, pot=pots, button=buttons, status=np.zeros(n, np.int8))


@pytest.mark.parametrize("game", ["badacey", "badeucy", "a5"])
def test_score_columns_out_is_written_whole_and_returned(backend: str, game: str) -> None:
    # out=: the caller's arrays (a pool's, holding an earlier batch's values) are the result, every entry
    # written as a fresh result's, the bad rows' zeros included; a wrong array is refused before any work.
    rng = np.random.default_rng(23)
    n, seats = 150, 4
    cards, live = deal(rng, n, seats), live_mask(rng, n, seats)
    pots, buttons = rng.integers(0, 900, n), rng.integers(0, seats, n)
    cards[::11, 0, 0], live[::11, 0] = 99, True  # bad rows: status codes, no payouts
    codes, want_codes = np.empty(n, np.uint8), np.empty(n, np.uint8)
    want = score_columns(cards, live, game, pot=pots, button=buttons, status=want_codes)
    mine = ColumnShowdown(np.full((seats, n), -7, np.int64), np.full(n, 0xEE, np.uint8), np.full(n, 0xEE, np.uint8))
    got = score_columns(cards, live, game, pot=pots, button=buttons, status=codes, out=mine)
    assert all(a is b for a, b in zip(got, mine))
    np.testing.assert_array_equal(codes, want_codes)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
    good = np.arange(n) % 11 != 0
    assert good.sum() < n and codes[~good].all()
    with pytest.raises(ValueError, match=r"^out\.chips must be a writable C-contiguous int64 array of shape \(4, 150\)"):
        score_columns(cards, live, game, pot=pots, out=mine._replace(chips=mine.chips.T.copy()))
    with pytest.raises(ValueError, match=r"^out\.badugi must be .* uint8 .*got dtype int8"):
        score_columns(cards, live, game, pot=pots, out=mine._replace(badugi=np.zeros(n, np.int8)))
    with pytest.raises(TypeError, match="^out must be a ColumnShowdown of three arrays, not tuple"):
        score_columns(cards, live, game, pot=pots, out=tuple(mine))


def test_score_columns_words_bad_rows_as_score_many(backend: str) -> None:
    cards = deal(np.random.default_rng(3), 20, 4)
    cards[17, 2, 1] = cards[17, 0, 3]
    with pytest.raises(DuplicateCardError, match=r"^row 17: card '.+' is held twice \(seat 0 and seat 2\)$"):
        score_columns(cards, pot=10)
    cards[5, 1, 0] = 60
    with pytest.raises(InvalidCardError, match=r"^row 5 seat 1: card id 60 is outside 0\.\.51$"):
        score_columns(cards, pot=10)
    with pytest.raises(ShowdownError, match=r"row 0: pot -1 is negative"):
        score_columns(cards, pot=-1)
    with pytest.raises(TypeError):
        score_columns(cards)  # pot= is required: columns are chips


@pytest.mark.parametrize("seats", [2, 6])
def test_showdown_columns_twins_agree_on_status_and_partial_runs(seats: int) -> None:
    # The kernel call itself on both twins: with status, every row's code and zeros for bad rows; without,
    # the rows before the first bad one written and (row, code) of that row.  Bad rows of every kind.
    rng = np.random.default_rng(seats)
    n = 40
    cards, live = deal(rng, n, seats), live_mask(rng, n, seats)
    pots, buttons = rng.integers(0, 500, n), rng.integers(0, seats, n)
    cards[9, 0, 0], cards[13, 1, 2] = 77, cards[13, 0, 0]
    live[9, 0] = live[13, 0] = live[13, 1] = True
    live[21] = False
    pots[25], buttons[30] = -3, seats
    results = {}
    for which in ("python", "c"):
        with _backend.using(which):
            got = []
            for status in (np.full(n, 99, np.uint8), None):
                chips = np.full((seats, n), -7, np.int64)
                low, bad = np.full(n, 200, np.uint8), np.full(n, 201, np.uint8)
                rc = kernel.showdown_columns(cards, live.astype(np.uint8), False, pots, buttons, False, chips, low, bad,
                                             status)
                got.append((rc, chips, low, bad, None if status is None else status.copy()))
            results[which] = got
    for (rc_py, *py), (rc_c, *c) in zip(results["python"], results["c"]):
        assert rc_py == rc_c
        for a, b in zip(py, c):
            np.testing.assert_array_equal(a, b)
    (count, _), chips, low, _, status = results["c"][0]
    assert count == 5 and np.flatnonzero(status).tolist() == [9, 13, 21, 25, 30]
    assert status[[9, 13, 21, 25, 30]].tolist() == [1, 2, 3, 4, 5]  # BD_SD_* codes
    assert (chips[:, status != 0] == 0).all() and (low[status != 0] == 0).all()
    assert (chips.sum(axis=0)[status == 0] == pots[status == 0]).all()
    (row, code), chips, low, _, _ = results["c"][1]
    assert (row, code) == (9, 1)
    assert (chips[:, 9:] == -7).all() and (low[9:] == 200).all()  # nothing written from the bad row on
    assert (chips[:, :9].sum(axis=0) == pots[:9]).all()


def test_winners_many_equals_the_masks_of_score_many(backend: str) -> None:
    rng = np.random.default_rng(44)
    cards = deal(rng, 80, 5)
    live = live_mask(rng, 80, 5)
    winners = winners_many(cards, live, "badeucy")
    full = score_many(cards, live, "badeucy", pot=9, button=2)
    np.testing.assert_array_equal(winners.low, full.low)
    np.testing.assert_array_equal(winners.badugi, full.badugi)
    assert winners.low.any(axis=1).all() and winners.badugi.any(axis=1).all()
    assert not (winners.low & ~live).any()


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("distinct", [1, 2, 3, 4])
def test_a_live_hand_with_repeated_cards_is_rejected_in_any_block(backend: str, seats: int, distinct: int) -> None:
    # Regression: the C row hash kept one guard bit for five ctz steps, so a live hand of three or fewer
    # distinct ids (2d 2d 2d 3d 4d) was paid as if valid (and bd_binom was read past its end).  Batches of
    # 1..33 rows cover the scalar rows, full 16-row (vectorised) blocks and the tails after them.
    rng = np.random.default_rng(seats * 10 + distinct)
    for n in (1, 15, 16, 17, 33):
        good = deal(rng, n, seats)
        row, seat = int(rng.integers(n)), int(rng.integers(seats))
        bad = good.copy()
        ids = bad[row, seat, :distinct].copy()
        bad[row, seat] = np.resize(ids, 5)  # e.g. distinct=3: a b c a b
        message = rf"row {row}: card '.+' is held twice \(seat {seat}\)"
        for call in (lambda: showdown_many(bad), lambda: showdown_many(bad, pot=7, button=seats - 1),
                     lambda: winners_many(bad), lambda: score_many(bad, pot=7)):
            with pytest.raises(DuplicateCardError, match=message):
                call()


@pytest.mark.parametrize("seats", [2, 6])
def test_folded_seats_of_zeros_and_repeats_change_nothing(backend: str, seats: int) -> None:
    # Every '-' of a score file is a folded seat of zero bytes: such rows must settle exactly as the same
    # rows with real cards in the folded seats (and, under the sanitizer build, read nothing out of bounds).
    rng = np.random.default_rng(seats)
    good = deal(rng, 40, seats)
    live = live_mask(rng, 40, seats)
    junk = good.copy()
    junk[~live] = 0
    junk[::3][~live[::3]] = [7, 7, 7, 7, 9]
    np.testing.assert_array_equal(showdown_many(junk, live, pot=31, button=1),
                                  showdown_many(good, live, pot=31, button=1))
    np.testing.assert_array_equal(showdown_many(junk, live), showdown_many(good, live))


def test_button_without_pot_is_an_error_not_ignored(backend: str) -> None:
    cards = deal(np.random.default_rng(14), 5, 3)
    for call in (showdown_many, score_many):
        with pytest.raises(ShowdownError, match=r"button 99 given without pot="):
            call(cards, button=99)
        with pytest.raises(ShowdownError, match=r"button 0 given without pot="):  # in range, still meaningless
            call(cards, button=np.int64(0))
        with pytest.raises(ShowdownError, match=r"button array of shape \(5,\) given without pot="):
            call(cards, button=np.zeros(5, np.int64))
        with pytest.raises(ShowdownError, match=r"row 0: button 99 is not a seat 0\.\.2"):
            call(cards, pot=10, button=99)
    # pot= alone keeps its default button 0 (seat 1 is first after it), and shares need no button.
    np.testing.assert_array_equal(showdown_many(cards, pot=101), showdown_many(cards, pot=101, button=0))
    np.testing.assert_array_equal(score_many(cards).payouts, showdown_many(cards))


@pytest.mark.parametrize("game, size", [("a5", 5), ("27", 5), ("badugi", 4)])
def test_single_pot_games_equal_the_single_showdown_row_by_row(backend: str, game: str, size: int) -> None:
    # The single-pot presets in bulk: one half takes the whole pot, tied winners split it, leftover chips
    # one each clockwise from the button; equal to showdown() row by row, with folded seats and any button.
    rng = np.random.default_rng(size * 7 + len(game))
    for seats in (2, 3, 6):
        n = 120
        deck = rng.permuted(np.broadcast_to(np.arange(52), (n, 52)), axis=1)
        hands = np.ascontiguousarray(deck[:, : size * seats].reshape(n, seats, size))
        live = live_mask(rng, n, seats)
        pots = rng.integers(0, 200, n)
        buttons = rng.integers(0, seats, n)
        chips = showdown_many(hands, live, game, pot=pots, button=buttons)
        shares = showdown_many(hands, live, game)
        result = score_many(hands, live, game, pot=pots, button=buttons)
        for i in range(n):
            seat_hands = [tuple(h) if alive else None for h, alive in zip(hands[i].tolist(), live[i])]
            expected = showdown(seat_hands, int(pots[i]), int(buttons[i]), game)
            assert chips[i].tolist() == [x or 0 for x in expected]
            if live[i].sum() > 1:
                detail = showdown_detail(seat_hands, int(pots[i]), int(buttons[i]), game)
                played = detail.low_winners if game != "badugi" else detail.badugi_winners
                won = result.low[i] if game != "badugi" else result.badugi[i]
                assert np.flatnonzero(won).tolist() == sorted(played)
                assert np.isclose(shares[i][list(played)], 1 / len(played)).all() and shares[i].sum() == 1
            unplayed = result.badugi[i] if game != "badugi" else result.low[i]
            assert not unplayed.any()  # the half a single-pot game does not play has no winner


def test_single_pot_games_in_bulk_worked_by_hand_and_refused_input(backend: str) -> None:
    # the wheel takes all 101 chips; 2-7: 7-5-4-3-2 beats the ace-high wheel.  Badugi: two A-2-3-4
    # badugis tie and split 101 chips 51/50, the odd chip to the first winner clockwise from the button.
    wheel, seven = "As 2h 3d 4c 5s", "7c 5h 4d 3c 2s"
    assert showdown_many(hands(wheel, seven)[None], game="a5", pot=101).tolist() == [[101, 0]]
    assert showdown_many(hands(wheel, seven)[None], game="27", pot=101).tolist() == [[0, 101]]
    four = np.array([[parse_cards("As 2h 3d 4c"), parse_cards("Ac 2d 3h 4s")]])
    assert showdown_many(four, game="badugi", pot=101, button=0).tolist() == [[50, 51]]
    assert showdown_many(four, game="badugi", pot=101, button=1).tolist() == [[51, 50]]
    with pytest.raises(HandSizeError, match=r"shape \(N, P, 4\)"):
        showdown_many(hands(wheel, seven)[None], game="badugi")
    with pytest.raises(DuplicateCardError, match=r"row 0: card 'As' is held twice \(seat 0 and seat 1\)"):
        showdown_many(np.array([[parse_cards("As 2h 3d 4c"), parse_cards("As 2d 3h 4s")]]), game="badugi")
    with pytest.raises(InvalidCardError, match=r"row 0 seat 1: card id 60"):
        showdown_many(np.array([[[0, 5, 10, 15], [60, 1, 2, 6]]]), game="badugi")
    # Folded seats may hold anything.
    junk = np.array([[parse_cards("As 2h 3d 4c"), [200, 200, 0, 0]]])
    assert showdown_many(junk, np.array([[True, False]]), game="badugi", pot=9).tolist() == [[9, 0]]
