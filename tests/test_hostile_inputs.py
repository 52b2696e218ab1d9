"""Hostile inputs to the bulk calls, named for what they feed: odd dtypes, shapes and strides, read-only
and aliased ``out=``, huge and zero sizes, and ``check=False`` garbage.  On both twins each one either
gives the documented answer or raises a clean error; none may crash or touch memory out of bounds (the
sanitizer job, .ci/sanitize, runs these under ASan and UBSan).
"""

from __future__ import annotations

import numpy as np
import pytest

import badacey_fast as bf

WHEEL = [3, 6, 9, 12, 19]  # As 2h 3d 4c 5s: rank 1 in both halves of Badacey
HANDS = np.array([WHEEL, [0, 4, 8, 13, 16], [51, 47, 43, 39, 35]], dtype=np.uint8)  # no card shared


def expected(hands, game="badacey"):
    """Ranks of the hands one at a time through the single-hand call (the bulk calls' judge here)."""
    values = [bf.evaluate(tuple(int(c) for c in row), game) for row in hands]
    return [v.low for v in values], [v.badugi for v in values]


# -- dtypes -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.bool_, np.complex128, object, "U2", "S2",
                                   "datetime64[s]", "timedelta64[s]"])
def test_non_integer_dtypes_are_type_errors(backend, dtype):
    arr = HANDS.astype(dtype) if dtype not in ("datetime64[s]",) else HANDS.astype(np.int64).astype(dtype)
    with pytest.raises(TypeError):
        bf.evaluate_many(arr)
    with pytest.raises(TypeError):
        bf.badugi_rank_many(arr)
    with pytest.raises(TypeError):
        bf.showdown_many(arr.reshape(1, 3, 5) if arr.size == 15 else arr)


@pytest.mark.parametrize("dtype", ["<u2", ">u2", ">i4", "<i8", ">i8", ">u8", np.intp, np.uintp])
def test_every_integer_width_and_byte_order(backend, dtype):
    arr = HANDS.astype(dtype)
    low, bad = bf.evaluate_many(arr)
    assert (low.tolist(), bad.tolist()) == expected(HANDS)
    deal = arr[:2].reshape(1, 2, 5)
    assert bf.showdown_many(deal).sum() == pytest.approx(1.0)


@pytest.mark.parametrize("value", [256, 256 + 3, -253, 2**32 + 3, -(2**63), 2**64 - 1])
def test_ids_that_wrap_to_valid_cards_in_uint8_are_rejected(backend, value):
    # 256 + 3 cast to uint8 is 3 (As): the check must look at the value given, not the cast.
    dtype = np.uint64 if value > 2**63 else np.int64
    arr = np.array([[value, 6, 9, 12, 19]], dtype=dtype)
    with pytest.raises(bf.InvalidCardError):
        bf.evaluate_many(arr)
    with pytest.raises(bf.InvalidCardError):
        bf.badugi_rank_many(arr)
    with pytest.raises(bf.InvalidCardError):
        bf.showdown_many(np.stack([arr, np.array([[0, 4, 8, 13, 16]], dtype=dtype)], axis=1))


# -- shapes ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(5,), (1, 4), (1, 6), (2, 5, 1), (), (0,), (3, 0)])
def test_evaluate_many_wrong_shapes(backend, shape):
    with pytest.raises(bf.HandSizeError):
        bf.evaluate_many(np.zeros(shape, dtype=np.uint8))


@pytest.mark.parametrize("shape", [(3, 0), (3, 6), (5,), (1, 1, 5)])
def test_badugi_rank_many_wrong_shapes(backend, shape):
    with pytest.raises(bf.HandSizeError):
        bf.badugi_rank_many(np.zeros(shape, dtype=np.uint8))


@pytest.mark.parametrize("shape, error", [((1, 2, 4), bf.HandSizeError), ((2, 5), bf.HandSizeError),
                                          ((1, 1, 5), bf.ShowdownError), ((1, 7, 5), bf.ShowdownError),
                                          ((1, 0, 5), bf.ShowdownError)])
def test_showdown_many_wrong_shapes(backend, shape, error):
    with pytest.raises(error):
        bf.showdown_many(np.zeros(shape, dtype=np.uint8))


def test_live_mask_of_the_wrong_shape_or_dtype(backend):
    deal = np.array([[WHEEL, [0, 4, 8, 13, 16]]], dtype=np.uint8)
    with pytest.raises(bf.ShowdownError):
        bf.showdown_many(deal, live=np.ones((1, 3), bool))
    with pytest.raises(TypeError):
        bf.showdown_many(deal, live=np.ones((1, 2), np.uint8))


# -- zero and huge sizes ------------------------------------------------------------------------------

@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_zero_rows(backend, k):
    empty = np.zeros((0, k), dtype=np.uint8)
    assert bf.badugi_rank_many(empty).shape == (0,)
    if k == 5:
        low, bad = bf.evaluate_many(empty, threads=2)
        assert low.shape == bad.shape == (0,)
    for p in (2, 6):
        assert bf.showdown_many(np.zeros((0, p, 5), np.uint8)).shape == (0, p)
        assert bf.showdown_many(np.zeros((0, p, 5), np.uint8), pot=10).shape == (0, p)


def test_empty_python_list_is_a_clean_error(backend):
    # np.asarray([]) is float64 of shape (0,): a TypeError here, while showdown_many takes its empty
    # list as ints (an inconsistency reported to the API helpers); either way, an error, not a crash.
    with pytest.raises((TypeError, bf.HandSizeError)):
        bf.evaluate_many([])


def test_huge_zero_stride_batch(backend):
    # 3 M rows that all alias one hand (row stride 0): no copy is made of the input, every row is read.
    n = 3_000_000 if backend == "c" else 20_000
    arr = np.broadcast_to(np.array(WHEEL, dtype=np.uint8), (n, 5))
    assert arr.strides[0] == 0 and not arr.flags.writeable
    low, bad = bf.evaluate_many(arr, threads=2)
    assert low.shape == (n,) and int(low.min()) == int(low.max()) == 1 and int(bad.max()) == 1


# -- strides -----------------------------------------------------------------------------------------

def _views(base):
    """The same rows through every kind of strided view."""
    yield "reversed rows", base[::-1][::-1]
    yield "reversed columns", base[:, ::-1]
    yield "fortran", np.asfortranarray(base)
    padded = np.zeros((base.shape[0] * 3, base.shape[1] * 2 + 1), base.dtype)
    padded[::3, 1::2] = base
    yield "padded", padded[::3, 1::2]
    yield "transposed", np.ascontiguousarray(base.T).T
    yield "negative row stride", np.ascontiguousarray(base[::-1])[::-1]


@pytest.mark.parametrize("dtype", [np.uint8, np.int32])
@pytest.mark.parametrize("n", [3, 16, 17, 40, 300])  # scalar rows, whole 16-row vector blocks and tails
def test_strided_views_give_the_same_ranks(backend, dtype, n):
    rng = np.random.default_rng(n)
    base = np.array([rng.permutation(52)[:5] for _ in range(n)], dtype=dtype)
    want = bf.evaluate_many(np.ascontiguousarray(base))
    for name, view in _views(base):
        low, bad = bf.evaluate_many(view)
        assert low.tolist() == want[0].tolist() and bad.tolist() == want[1].tolist(), name
        for k in (4, 5):
            assert bf.badugi_rank_many(view[:, :k]).tolist() == bf.badugi_rank_many(np.ascontiguousarray(view[:, :k])).tolist(), name


def test_strided_showdowns(backend):
    rng = np.random.default_rng(5)
    deals = np.array([rng.permutation(52)[:20].reshape(4, 5) for _ in range(40)], dtype=np.uint8)
    want = bf.showdown_many(deals, pot=101)
    for view in (deals[:, ::-1][:, ::-1], np.asfortranarray(deals), deals.transpose(2, 1, 0).copy().transpose(2, 1, 0)):
        assert bf.showdown_many(view, pot=101).tolist() == want.tolist()


# -- out= --------------------------------------------------------------------------------------------

def test_read_only_out_is_refused_and_untouched(backend):
    low = np.zeros(3, np.uint16)
    bad = np.zeros(3, np.uint16)
    low.flags.writeable = False
    with pytest.raises(ValueError):
        bf.evaluate_many(HANDS, out=(low, bad))
    with pytest.raises(ValueError):
        bf.badugi_rank_many(HANDS, out=low)
    assert not low.any() and not bad.any()
    shares = np.zeros((1, 3), np.float64)
    shares.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):  # one out= rule everywhere: a bad value, not a type
        bf.showdown_many(HANDS.reshape(1, 3, 5), out=shares)
    assert not shares.any()


@pytest.mark.parametrize("bad_out", [
    np.zeros(4, np.uint16), np.zeros(2, np.uint16), np.zeros(3, np.int16), np.zeros(3, np.uint32),
    np.zeros(6, np.uint16)[::2], np.zeros((3, 1), np.uint16),
])
def test_out_of_the_wrong_kind_is_refused(backend, bad_out):
    with pytest.raises(ValueError):
        bf.evaluate_many(HANDS, out=(bad_out, np.zeros(3, np.uint16)))
    with pytest.raises(ValueError):
        bf.badugi_rank_many(HANDS, out=bad_out)


def test_out_that_is_not_an_array(backend):
    with pytest.raises(TypeError):
        bf.evaluate_many(HANDS, out=([0, 0, 0], np.zeros(3, np.uint16)))
    with pytest.raises(TypeError):
        bf.evaluate_many(HANDS, out=np.zeros(3, np.uint16))


def test_aliased_out_halves(backend):
    # low and badugi are one array: the call must finish, and the array holds one of the halves per row.
    both = np.zeros(3, np.uint16)
    low, bad = bf.evaluate_many(HANDS, out=(both, both))
    assert low is both and bad is both
    want_low, want_bad = expected(HANDS)
    assert all(v in (lo, bd) for v, lo, bd in zip(both.tolist(), want_low, want_bad))


def test_out_aliasing_the_input(backend):
    # out= viewing the input's own bytes: the ranks replace the cards, and nothing is read past the end.
    buf = np.zeros(20 * 5, dtype=np.uint8)
    rng = np.random.default_rng(1)
    hands = np.array([rng.permutation(52)[:5] for _ in range(20)], dtype=np.uint8)
    buf[:] = hands.ravel()
    want = bf.badugi_rank_many(hands.copy())
    out = buf[:40].view(np.uint16)
    result = bf.badugi_rank_many(buf.reshape(20, 5), out=out)
    assert result is out and result.shape == (20,)
    # The first rows are read before their bytes are overwritten; every result is a rank.
    assert 1 <= int(result.min()) and int(result.max()) <= 1092
    assert result[0] == want[0]


def test_showdown_out_aliasing_pot_input(backend):
    deals = np.array([[WHEEL, [0, 4, 8, 13, 16]]] * 4, dtype=np.uint8)
    pots = np.full((4, 2), 50, np.int64)
    result = bf.showdown_many(deals, pot=pots[:, 0].copy(), out=pots)
    assert result is pots and pots.sum(axis=1).tolist() == [50] * 4


# -- check=False garbage -----------------------------------------------------------------------------

GARBAGE = [[0, 0, 0, 0, 0], [255] * 5, [52, 53, 54, 55, 56], [0, 1, 2, 3, 3], [51, 51, 200, 7, 9],
           [255, 0, 255, 0, 255], [3, 6, 9, 12, 19]]


@pytest.mark.parametrize("n", [len(GARBAGE), 16, 33, 512])  # the scalar loop and the vector blocks
def test_unchecked_garbage_gives_ranks_in_range(backend, n):
    rng = np.random.default_rng(n)
    rows = np.array([GARBAGE[i % len(GARBAGE)] for i in range(n)], dtype=np.uint8)
    rows[len(GARBAGE):] = rng.integers(0, 256, size=(n - len(GARBAGE), 5), dtype=np.uint8)
    for game, top in (("badacey", 6175), ("badeucy", 7462)):
        low, bad = bf.evaluate_many(rows, game, check=False)
        assert int(low.max()) <= top and int(bad.max()) <= 1092
        # The valid row among the garbage is still right.
        assert (int(low[6]), int(bad[6])) == tuple(bf.evaluate(WHEEL, game))
    for k in (1, 2, 3, 4, 5):
        for ace_high in (False, True):
            ranks = bf.badugi_rank_many(np.ascontiguousarray(rows[:, :k]), ace_high, check=False)
            assert int(ranks.max()) <= 1092
    wide = rows.astype(np.int64) * 1000 - 7  # wraps when cast to uint8, unchecked
    low, bad = bf.evaluate_many(wide, check=False)
    assert int(low.max()) <= 6175 and int(bad.max()) <= 1092


@pytest.mark.parametrize("p", [2, 3, 6])
def test_garbage_in_folded_seats_is_ignored(backend, p):
    rng = np.random.default_rng(p)
    n = 40
    deals = np.array([rng.permutation(52)[: 5 * p].reshape(p, 5) for _ in range(n)], dtype=np.uint8)
    live = np.ones((n, p), bool)
    live[:, -1] = False
    clean = bf.showdown_many(deals, live, pot=101)
    for junk in ([255] * 5, [0] * 5, [1, 1, 1, 2, 2], [52, 60, 100, 200, 255]):
        dirty = deals.copy()
        dirty[:, -1] = junk
        assert bf.showdown_many(dirty, live, pot=101).tolist() == clean.tolist()


# -- the C entry points, called directly: misaligned pointers ------------------------------------------
# The bulk layer aligns every pointer it passes (csrc/showdown.h); the kernel checks that it did and
# refuses a misaligned one with its bad-arguments code, before loading or storing through it (UBSan, in
# .ci/sanitize, would abort on such a load).  These call the cffi functions with a misaligned copy of one
# argument at a time: the same call with aligned pointers succeeds first, so only the alignment differs.

def _misaligned(ffi, arr, ctype):
    """A copy of cffi array ``arr`` one byte past an aligned address, as a ``ctype[]`` pointer."""
    data = np.frombuffer(ffi.buffer(arr), np.uint8)
    raw = np.empty(data.size + 1, np.uint8)  # numpy aligns its buffers (16+ bytes): raw[1:] starts odd
    raw[1:] = data
    ptr = ffi.from_buffer(f"{ctype}[]", raw[1:])  # keeps raw alive
    assert int(ffi.cast("uintptr_t", ptr)) % ffi.sizeof(ctype) != 0
    return ptr


def _c_kernel():
    from badacey_fast.kernel import backend as kernel_backend

    kern = kernel_backend.kernel()
    return kern, kern.ffi, kern.lib


@pytest.mark.parametrize("which", ["table", "pot", "button", "chips", "shares", "code"])
@pytest.mark.backend_independent  # the C kernel itself, whichever twin serves the session
def test_c_showdown_many_refuses_misaligned_pointers(which):
    kern, ffi, lib = _c_kernel()
    hands = ffi.new("uint8_t[]", list(range(20)))  # 2 rows of 2 seats, 20 distinct cards
    args = {"table": kern.table(False), "pot": ffi.new("int64_t[]", [10, 11]),
            "button": ffi.new("int64_t[]", [0, 1]), "chips": ffi.new("int64_t[]", 4), "shares": ffi.NULL,
            "code": ffi.new("int32_t *")}
    if which == "shares":  # the share form: no pot, button or chips
        args.update(pot=ffi.NULL, button=ffi.NULL, chips=ffi.NULL, shares=ffi.new("double[]", 4))

    def call():
        return lib.bd_showdown_many(args["table"], hands, ffi.NULL, 2, 2, args["pot"], args["button"], 0,
                                    args["shares"], args["chips"], ffi.NULL, ffi.NULL, ffi.NULL, args["code"])

    assert call() == -1  # every row settled
    ctype = {"table": "uint32_t", "shares": "double", "code": "int32_t"}.get(which, "int64_t")
    args[which] = _misaligned(ffi, ffi.new("int32_t *") if which == "code" else args[which], ctype)
    out = args["shares"] if which == "shares" else args["chips"]
    before = bytes(ffi.buffer(out))
    assert call() == -2
    if which == "code":  # nowhere to say why: nothing written through it
        assert bytes(ffi.buffer(args["code"])) == bytes(4)
    else:
        assert args["code"][0] == lib.BD_SD_BAD_ARGS
    assert bytes(ffi.buffer(out)) == before  # no row was settled


@pytest.mark.parametrize("which", ["table", "pot", "button", "chips"])
@pytest.mark.backend_independent  # the C kernel itself, whichever twin serves the session
def test_c_showdown_columns_refuses_misaligned_pointers(which):
    kern, ffi, lib = _c_kernel()
    hands = ffi.new("uint8_t[]", list(range(20)))
    args = {"table": kern.table(False), "pot": ffi.new("int64_t[]", [10, 11]),
            "button": ffi.new("int64_t[]", [0, 1]), "chips": ffi.new("int64_t[]", 4)}
    code = ffi.new("int32_t *")

    def call():
        return lib.bd_showdown_columns(args["table"], hands, ffi.NULL, 2, 2, args["pot"], args["button"], 0,
                                       args["chips"], 2, ffi.NULL, ffi.NULL, ffi.NULL, code)

    assert call() == -1
    args[which] = _misaligned(ffi, args[which], "uint32_t" if which == "table" else "int64_t")
    assert call() == -2 and code[0] == lib.BD_SD_BAD_ARGS


@pytest.mark.parametrize("which", ["pot", "button", "start", "length", "consumed"])
@pytest.mark.backend_independent  # the C kernel itself, whichever twin serves the session
def test_c_parse_deals_refuses_misaligned_pointers(which):
    _, ffi, lib = _c_kernel()
    buf = b"10 0 AcAdAhAs2c 3c3d3h3s4c\n"
    out = {"hands": ffi.new("uint8_t[]", 10), "live": ffi.new("uint8_t[]", 2), "flags": ffi.new("uint8_t[]", 1)}
    args = {name: ffi.new("int64_t[]", 1) for name in ("pot", "button", "start", "length", "consumed")}

    def call():
        return lib.bd_parse_deals(buf, len(buf), 2, 0, ffi.NULL, 0, 1, out["hands"], out["live"], args["pot"],
                                  args["button"], out["flags"], args["start"], args["length"], args["consumed"])

    assert call() == 1 and out["flags"][0] == 0 and args["consumed"][0] == len(buf)
    args[which] = _misaligned(ffi, args[which], "int64_t")
    assert call() == -1


@pytest.mark.parametrize("which", ["line", "chips"])
@pytest.mark.backend_independent  # the C kernel itself, whichever twin serves the session
def test_c_format_results_refuses_misaligned_pointers(which):
    _, ffi, lib = _c_kernel()
    args = {"line": ffi.new("int64_t[]", [1]), "chips": ffi.new("int64_t[]", [7, 3])}
    wins = ffi.new("uint8_t[]", [1, 0])
    out = ffi.new("char[]", 256)

    def call():
        return lib.bd_format_results(args["line"], args["chips"], wins, wins, ffi.NULL, 1, 2, out, 256)

    assert call() == len(b"1,7,3,0,0\n") and ffi.string(out) == b"1,7,3,0,0\n"
    args[which] = _misaligned(ffi, args[which], "int64_t")
    assert call() == -1
