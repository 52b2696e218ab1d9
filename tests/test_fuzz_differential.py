"""Differential fuzzing: every public entry point with a C path and a reference path gives the same
answer (or the same error, same class and words) on both twins, for every class of input it accepts:
valid and invalid cards, repeated cards, ids 52..255 and beyond, zeros, folded seats holding garbage,
text in every spelling and malformed text, batches below and above the 16-row vector block.

Budgets scale with the hypothesis profile (tests/conftest.py): ``HYPOTHESIS_PROFILE=soak`` multiplies
every test's examples by 200.
"""

from __future__ import annotations

import io
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import badacey_fast as bf
from badacey_fast.bulk import score_columns
from badacey_fast.kernel import using

# Each test runs the reference and the C twin itself (on_both) and compares them: one run, not one a twin.
pytestmark = pytest.mark.backend_independent

BASE = settings.default.max_examples  # 100 in the "ci" profile, 20,000 in "soak"


def budget(percent: int) -> settings:
    """A share of the profile's examples: the slow tests (reference twin evaluations) run fewer."""
    return settings(max_examples=max(5, BASE * percent // 100))


def run(fn, *args, **kwargs):
    """The outcome of a call: ("ok", result) or ("error", exception class, message)."""
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - the class and words of any error are compared
        return ("error", type(exc), str(exc))


def on_both(fn, *args, **kwargs):
    """Run a call on the reference twin, then on the C twin; return both outcomes."""
    with using("python"):
        ref = run(fn, *args, **kwargs)
    with using("c"):
        fast = run(fn, *args, **kwargs)
    return ref, fast


def same_arrays(ref, fast) -> None:
    """Outcomes equal, where the results are arrays or tuples/NamedTuples of arrays."""
    assert ref[0] == fast[0], (ref, fast)
    if ref[0] == "error":
        assert ref[1:] == fast[1:]
        return
    a, b = ref[1], fast[1]
    if isinstance(a, np.ndarray):
        a, b = (a,), (b,)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if x is None or y is None:
            assert x is None and y is None
            continue
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(x, y)


# --------------------------------------------------------------------------------------------------
# Card strategies.  Ids are drawn mostly from 0..51 with repeats allowed, plus the boundary garbage
# the kernels must reject or ignore: negative ids, 52..255 (a uint8 the tables do not cover), and
# values that wrap when cast to uint8.

GOOD_ID = st.integers(0, 51)
GARBAGE_ID = st.sampled_from([-1, 52, 53, 63, 64, 127, 128, 200, 255, 256, 2**31 - 1, -(2**31)])
ANY_ID = st.one_of(GOOD_ID, GOOD_ID, GOOD_ID, GARBAGE_ID)
RANKS = ["A", "a", "2", "3", "4", "5", "6", "7", "8", "9", "T", "t", "10", "J", "j", "Q", "K", "k", "1", "X", "0"]
SUITS = ["c", "d", "h", "s", "C", "S", "♣", "♦", "♥", "♠", "x", "z", ""]
CARD_TEXT = st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from(SUITS))
SEP = st.sampled_from(["", " ", "  ", ",", ", ", "\t"])
GAMES = st.sampled_from(["badacey", "badeucy", "Badacy", "baduci", "BADEUCEY", "razz", ""])
SHOWDOWN_GAMES = st.sampled_from(["badacey", "badeucy", "badugi", "a5", "27", "Badaci", "holdem"])


def distinct_hand(size: int = 5):
    return st.lists(GOOD_ID, min_size=size, max_size=size, unique=True)


@st.composite
def hand_any(draw, sizes=(5,)):
    """A hand as the API accepts it: a tuple or list of ids (repeats and garbage allowed), text
    in any spelling (valid or not), or a mix of texts and ids; sometimes of the wrong size."""
    size = draw(st.sampled_from(sizes + (draw(st.integers(0, 7)),))) if draw(st.integers(0, 9)) == 0 else \
        draw(st.sampled_from(sizes))
    kind = draw(st.integers(0, 5))
    if kind <= 1:
        ids = draw(st.lists(GOOD_ID, min_size=size, max_size=size, unique=True))
    elif kind == 2:
        ids = draw(st.lists(ANY_ID, min_size=size, max_size=size))
    else:
        ids = draw(st.lists(GOOD_ID, min_size=size, max_size=size, unique=draw(st.booleans())))
    if kind == 1:
        return tuple(ids) if draw(st.booleans()) else list(ids)
    if kind in (0, 2):
        return tuple(ids)
    if kind == 3:  # well-formed text of (maybe repeated) valid cards in a random spelling
        names = [bf.format_card(c, symbols=draw(st.booleans())) for c in ids]
        names = [n.lower() if draw(st.booleans()) else n for n in names]
        return draw(SEP).join(names)
    if kind == 4:  # text from the card grammar, often malformed
        return draw(SEP).join(draw(st.lists(CARD_TEXT, min_size=size, max_size=size)))
    return [bf.format_card(c) if draw(st.booleans()) else c for c in ids]  # mixed texts and ids


# --------------------------------------------------------------------------------------------------
# Single hands.


@given(hand_any(), GAMES)
def test_evaluate_low_rank_describe_agree(hand, game):
    for fn in (bf.evaluate, bf.low_rank, bf.describe):
        ref, fast = on_both(fn, hand, game)
        assert ref == fast


@given(hand_any(sizes=(1, 2, 3, 4, 5)), st.booleans())
def test_badugi_rank_agrees(hand, ace_high):
    ref, fast = on_both(bf.badugi_rank, hand, ace_high)
    assert ref == fast


@given(hand_any(), hand_any(), GAMES)
def test_compare_agrees(a, b, game):
    ref, fast = on_both(bf.compare, a, b, game)
    assert ref == fast


# --------------------------------------------------------------------------------------------------
# Showdown and settlement.

POTS = st.one_of(st.integers(0, 1000), st.sampled_from([-1, 0, 1, 2**62, 2**63 - 1, 2**63]))


@st.composite
def table_hands(draw, sizes=(5,)):
    """2..6 seats (sometimes 0, 1 or 7), each a hand (any form) or None (folded)."""
    seats = draw(st.integers(2, 6)) if draw(st.integers(0, 9)) else draw(st.sampled_from([0, 1, 7]))
    deck = draw(st.permutations(range(52)))
    hands = []
    for s in range(seats):
        pick = draw(st.integers(0, 9))
        if pick == 0:
            hands.append(None)
        elif pick <= 5:  # distinct across seats: a real deal
            hands.append(tuple(deck[5 * s : 5 * s + 5][: draw(st.sampled_from(sizes))]))
        else:
            hands.append(draw(hand_any(sizes)))
    return hands


@budget(60)
@given(table_hands(sizes=(4, 5)), POTS, st.integers(-1, 7), SHOWDOWN_GAMES, st.sampled_from(["position", "low", "high"]))
def test_showdown_agrees(hands, pot, button, game, odd_chip):
    for fn in (bf.showdown, lambda *a: bf.showdown_detail(*a).payouts):
        ref, fast = on_both(fn, hands, pot, button, game, odd_chip)
        assert ref == fast


@budget(60)
@given(st.data(), table_hands(sizes=(4, 5)), SHOWDOWN_GAMES, st.integers(-1, 7), st.sampled_from(["position", "low"]))
def test_settle_agrees(data, hands, game, button, odd_chip):
    n = len(hands)
    contributions = data.draw(st.lists(st.one_of(st.integers(0, 300), st.sampled_from([-1, 0, 2**63])),
                                       min_size=n, max_size=n + (data.draw(st.integers(0, 9)) == 0)))
    def payouts(*args):
        s = bf.settle(*args)
        return s.payouts, [(p.amount, p.eligible) for p in s.pots]
    ref, fast = on_both(payouts, contributions, hands, button, game, odd_chip)
    assert ref == fast


# --------------------------------------------------------------------------------------------------
# Bulk calls.  Row counts cover the scalar path (< 16 rows), whole 16-row vector blocks and their
# tails, and more than one 256-row block.

ROWS = st.one_of(st.integers(0, 20), st.integers(15, 40), st.sampled_from([255, 256, 257, 300]))
INT_DTYPES = st.sampled_from([np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64])


@st.composite
def card_rows(draw, n, k):
    """(n, k) card ids: mostly real hands, some rows with repeats, zeros, or garbage ids."""
    rows = []
    for _ in range(n):
        kind = draw(st.integers(0, 7))
        if kind <= 3:
            rows.append(draw(st.lists(GOOD_ID, min_size=k, max_size=k, unique=True)))
        elif kind == 4:
            rows.append([0] * k)
        elif kind == 5:
            rows.append(draw(st.lists(st.integers(0, 3), min_size=k, max_size=k)))  # <= 3 distinct ids
        else:
            rows.append(draw(st.lists(ANY_ID, min_size=k, max_size=k)))
    return rows


def as_array(rows, k, dtype, layout):
    """The rows in a dtype and memory layout; values a dtype cannot hold are replaced by 255 (garbage)."""
    info = np.iinfo(dtype)
    wide = np.array(rows, dtype=np.int64).reshape(len(rows), k)
    wide = np.where((wide < info.min) | (wide > info.max), min(255, info.max), wide)
    arr = wide.astype(dtype)
    if layout == "fortran":
        arr = np.asfortranarray(arr)
    elif layout == "strided":  # every other row and a reversed column order: no contiguous axis
        big = np.zeros((2 * len(rows), k + 1), dtype=dtype)
        big[::2, :k] = arr
        arr = big[::2, k - 1 :: -1][:, ::-1] if k else big[::2, :0]
    return arr


LAYOUTS = st.sampled_from(["c", "fortran", "strided"])


@budget(50)
@given(st.data(), ROWS, INT_DTYPES, LAYOUTS, GAMES)
def test_evaluate_many_agrees(data, n, dtype, layout, game):
    rows = data.draw(card_rows(n, 5))
    arr = as_array(rows, 5, dtype, layout)
    same_arrays(*on_both(bf.evaluate_many, arr, game))
    # check=False promises the same ranks for valid rows (garbage rows are unspecified, see hostile tests).
    valid = [r for r in rows if len(set(r)) == 5 and all(0 <= c <= 51 for c in r)]
    if valid:
        good = as_array(valid, 5, dtype, layout)
        same_arrays(*on_both(bf.evaluate_many, good, game, check=False))


@budget(50)
@given(st.data(), ROWS, st.integers(1, 5), INT_DTYPES, LAYOUTS, st.booleans())
def test_badugi_rank_many_agrees(data, n, k, dtype, layout, ace_high):
    rows = data.draw(card_rows(n, k))
    arr = as_array(rows, k, dtype, layout)
    same_arrays(*on_both(bf.badugi_rank_many, arr, ace_high))
    valid = [r for r in rows if len(set(r)) == k and all(0 <= c <= 51 for c in r)]
    if valid:
        same_arrays(*on_both(bf.badugi_rank_many, as_array(valid, k, dtype, layout), ace_high, check=False))


@st.composite
def deal_rows(draw, n, p):
    """(n, p, 5) deals and (n, p) live masks.  Live seats: real deals, or repeats within a seat, across
    seats, zeros, garbage.  Folded seats: anything at all (repeats, ids 52..255, a live seat's cards)."""
    hands, live = [], []
    for _ in range(n):
        deck = draw(st.permutations(range(52)))
        row = [list(deck[5 * s : 5 * s + 5]) for s in range(p)]
        mask = draw(st.lists(st.booleans(), min_size=p, max_size=p)) if draw(st.booleans()) else [True] * p
        if not any(mask) and draw(st.integers(0, 3)):
            mask[draw(st.integers(0, p - 1))] = True  # mostly rows with a live seat; some with none
        kind = draw(st.integers(0, 9))
        if kind >= 6:
            for s in range(p):
                if not mask[s] or draw(st.integers(0, 3)) == 0:
                    row[s] = draw(st.one_of(
                        st.just([0] * 5),
                        st.lists(st.integers(0, 3), min_size=5, max_size=5),
                        st.lists(st.integers(52, 255), min_size=5, max_size=5),
                        st.lists(ANY_ID, min_size=5, max_size=5),
                        st.just(list(row[(s + 1) % p])),
                    ))
        hands.append(row)
        live.append(mask)
    return hands, live


@budget(40)
@given(st.data(), ROWS, st.integers(2, 6), INT_DTYPES, st.sampled_from(["badacey", "badeucy", "Baduci"]),
       st.sampled_from(["position", "low"]), st.booleans(), st.booleans())
def test_bulk_showdowns_agree(data, n, p, dtype, game, odd_chip, with_live, with_pot):
    n = min(n, 60)  # the reference twin evaluates every live hand in Python
    hands, live = data.draw(deal_rows(n, p))
    info = np.iinfo(dtype)
    wide = np.array(hands, dtype=np.int64).reshape(n, p, 5)
    arr = np.where((wide < info.min) | (wide > info.max), min(255, info.max), wide).astype(dtype)
    mask = np.array(live, dtype=bool).reshape(n, p) if with_live else None
    kwargs = {}
    if with_pot:
        kwargs["pot"] = data.draw(st.one_of(POTS.filter(lambda v: v < 2**63),
                                            st.just(np.array(data.draw(st.lists(st.integers(0, 10**6), min_size=n, max_size=n)), dtype=np.int64))))
        kwargs["button"] = data.draw(st.one_of(st.integers(-1, p), st.just(np.array(
            data.draw(st.lists(st.integers(0, p - 1), min_size=n, max_size=n)), dtype=np.int64))))
    same_arrays(*on_both(bf.showdown_many, arr, mask, game, odd_chip=odd_chip, **kwargs))
    same_arrays(*on_both(bf.score_many, arr, mask, game, odd_chip=odd_chip, **kwargs))
    if with_pot:  # the payout-file layout of the same settlement (its own kernel entry point)
        same_arrays(*on_both(score_columns, arr, mask, game, odd_chip=odd_chip, **kwargs))
    same_arrays(*on_both(bf.winners_many, arr, mask, game))


# --------------------------------------------------------------------------------------------------
# Draws and equity.  The reference twin enumerates in Python (~60 k outcomes/s), so dead cards shrink
# the unseen deck whenever a discard would have too many outcomes: every discard size (0..5) is still
# drawn, and every kind of discard and dead list (not in the hand, repeated, overlapping) too.

OUTCOME_LIMIT = 6000


def dead_for(draw, hand, discard_size):
    """Dead cards, enough of them that C(unseen, discard_size) stays under the limit."""
    rest = [c for c in range(52) if c not in hand]
    need = 0
    while comb(47 - need, discard_size) > OUTCOME_LIMIT:
        need += 1
    count = draw(st.integers(need, max(need, min(47, need + 6))))
    return draw(st.permutations(rest))[:count]


@budget(40)
@given(st.data(), distinct_hand(), st.integers(0, 5), GAMES, st.integers(0, 9))
def test_draw_outcomes_agree(data, hand, size, game, damage):
    discard = list(data.draw(st.permutations(hand))[:size])
    dead = list(dead_for(data.draw, hand, size))
    if damage == 0 and dead:  # a dead card that is also in the hand
        dead[0] = hand[0]
    elif damage == 1:  # discard a card that is not in the hand
        discard.append(data.draw(GOOD_ID.filter(lambda c: c not in hand)))
    elif damage == 2 and discard:  # a card thrown twice
        discard.append(discard[0])
    elif damage == 3 and dead:  # a dead card given twice
        dead.append(dead[0])
    elif damage == 4:  # garbage ids anywhere
        where = data.draw(st.sampled_from(["hand", "discard", "dead"]))
        bad = data.draw(GARBAGE_ID)
        if where == "hand":
            hand = hand[:4] + [bad]
        elif where == "discard":
            discard.append(bad)
        else:
            dead.append(bad)
    text = data.draw(st.booleans())
    args = [bf.format_cards([c for c in x if 0 <= c <= 51]) if text and all(0 <= c <= 51 for c in x) else tuple(x)
            for x in (hand, discard, dead)]

    def outcome(*a):
        d = bf.draw_outcomes(*a)
        return d.total, d.hand, d.discard, d.dead, list(d.low_counts), list(d.badugi_counts)
    ref, fast = on_both(outcome, *args, game)
    assert ref == fast


@budget(15)
@given(st.data(), distinct_hand(), GAMES, st.sampled_from(["badugi", "low", "share"]))
def test_best_discards_agree(data, hand, game, objective):
    # Every discard is enumerated: keep the whole sum over the 32 discards (2 ** unseen) small.
    rest = [c for c in range(52) if c not in hand]
    dead = data.draw(st.permutations(rest))[: data.draw(st.integers(36, 47))]
    kwargs = {}
    if objective == "low":
        kwargs["target"] = data.draw(st.one_of(st.integers(1, 7462), st.just(hand)))

    def choices(*a, **kw):
        return [(c.discard, c.score) for c in bf.best_discards(*a, **kw)]
    ref, fast = on_both(choices, hand, tuple(dead), game, objective, **kwargs)
    assert ref == fast


@budget(25)
@given(st.data(), st.integers(2, 6), GAMES, st.booleans())
def test_equity_agrees(data, seats, game, monte_carlo):
    deck = data.draw(st.permutations(range(52)))
    hands, discards = [], []
    for s in range(seats):
        hand = tuple(deck[5 * s : 5 * s + 5])
        if data.draw(st.integers(0, 5)) == 0:
            hands.append(None)  # unknown to us: dealt from the unseen cards
            discards.append(None)
        else:
            hands.append(hand if data.draw(st.integers(0, 9)) else data.draw(hand_any()))
            thrown = data.draw(st.integers(0, 2))
            discards.append(None if thrown == 0 else hand[:thrown])
    dead = tuple(deck[30 : 30 + data.draw(st.integers(0, 16))])
    if monte_carlo:
        kwargs = {"samples": data.draw(st.integers(1, 300)), "seed": data.draw(st.integers(0, 2**32))}
    else:
        # Beyond the limit: Monte Carlo, seeded alike and kept small (the reference evaluates in Python).
        kwargs = {"exact_limit": 20_000, "seed": 0, "fallback_samples": 300}

    def shares(*a, **kw):
        e = bf.equity(*a, **kw)
        return e.shares, e.exact
    ref, fast = on_both(shares, hands, discards, dead, game, **kwargs)
    assert ref == fast


# --------------------------------------------------------------------------------------------------
# The deal-file parser (bd_parse_deals in C, deal_lines in Python) and, through it, card text as
# parse_cards reads it.


@st.composite
def hand_field(draw):
    """One seat of a deal line: a hand as the file formats allow, or a fold, or anything close to it."""
    kind = draw(st.integers(0, 9))
    if kind <= 4:
        cards = draw(st.lists(GOOD_ID, min_size=5, max_size=5, unique=kind <= 3))
        names = [bf.format_card(c, symbols=draw(st.integers(0, 5)) == 0) for c in cards]
        names = [n.lower() if draw(st.integers(0, 3)) == 0 else n for n in names]
        names = [("10" + n[1:]) if n[0] == "T" and draw(st.booleans()) else n for n in names]
        return "".join(names)
    if kind == 5:
        return "-"
    if kind == 6:
        return draw(st.sampled_from(["", "--", "x", "As", "As2h3d4c5s6h", "AsAs2h3d4c", "0", "AS2H3D4C5S"]))
    if kind == 7:
        return "".join(draw(st.lists(CARD_TEXT, min_size=4, max_size=6)))
    return draw(st.text(st.sampled_from("As2h3d4c5sTJQK10-♠ ,#\t"), max_size=14))


@st.composite
def deal_file(draw):
    """A whole deal file: plain text (optional pot and button) or CSV with a header; comments,
    blank lines, wrong seat counts, bad numbers."""
    seats = draw(st.integers(2, 6))
    lines = []
    csv = draw(st.integers(0, 3)) == 0
    if csv:
        cols = [f"seat{s}" for s in range(seats)] + draw(st.lists(st.sampled_from(["pot", "button", "note"]), unique=True))
        cols = draw(st.permutations(cols))
        lines.append(",".join(cols))
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.integers(0, 19))
        if kind == 0:
            lines.append(draw(st.sampled_from(["", "   ", "\t", "# a comment", "#"])))
            continue
        n = seats if kind != 1 else draw(st.sampled_from([seats - 1, seats + 1]))
        fields = [draw(hand_field()) for _ in range(n)]
        if csv:
            values = {f"seat{s}": fields[s] if s < len(fields) else "" for s in range(seats)}
            values["pot"] = draw(st.sampled_from(["", "0", "7", "101", "-3", "x", "99999999999999999999"]))
            values["button"] = draw(st.sampled_from(["", "0", "1", str(seats), "-1", "b"]))
            values["note"] = draw(st.sampled_from(["", "hi", "3"]))
            lines.append(",".join(values.get(c, "") for c in cols))
        else:
            lead = draw(st.sampled_from([[], ["101"], ["7", "1"], ["0", str(seats - 1)], ["5", str(seats)],
                                         ["-1"], ["x"], ["007", "0"], ["99999999999999999999"]]))
            lines.append(draw(st.sampled_from([" ", "  ", "\t"])).join(lead + fields))
    end = draw(st.sampled_from(["\n", ""]))
    return ("\n".join(lines) + end).encode("utf-8"), seats


@budget(60)
@given(deal_file(), st.booleans(), st.sampled_from(["badacey", "badeucy"]), st.sampled_from(["position", "low"]),
       st.sampled_from([1, 3, 16384]), st.integers(0, 150), st.integers(0, 2))
def test_score_file_agrees(doc, skip_bad, game, odd_chip, chunk, pot, button):
    data, _ = doc

    def scored():
        out = io.BytesIO()
        report = None
        try:
            report = bf.score_file(io.BytesIO(data), out, game=game, odd_chip=odd_chip, pot=pot, button=button,
                                   skip_bad=skip_bad, chunk=chunk)
        except bf.BadaceyError as exc:
            return out.getvalue(), ("error", type(exc), str(exc))
        return out.getvalue(), report
    with using("python"):
        ref = scored()
    with using("c"):
        fast = scored()
    assert ref == fast


@given(hand_field(), hand_field())
def test_deal_line_hands_read_as_parse_cards_reads_them(a, b):
    """A plain-text line of two hands is scored iff parse_cards takes both fields as hands (distinct, 5
    cards each, no card in both), on both twins: the C line parser reads card text as parse_cards does."""
    line = f"{a} {b}\n".encode()

    def hand(field):
        if field == "-":
            return None
        return bf.parse_cards(field, count=5)
    try:
        hands = [hand(a), hand(b)]
        expect = len(set(c for h in hands if h for c in h)) == sum(len(h) for h in hands if h) and any(hands)
    except bf.BadaceyError:
        expect = False
    if not a or not b or a.isdigit() or b.isdigit() or any(ch in a + b for ch in " ,\t#"):
        expect = None  # digits (pot, button), field splitting, comments: not two hands; twins must still agree
    ref, fast = on_both(lambda: bf.score_file(io.BytesIO(line), io.BytesIO(), skip_bad=True))
    assert ref == fast  # (a first line without two fields stops the run: the same error on both)
    if expect is not None:
        assert ref[0] == "ok" and ref[1].deals == int(expect), (line, ref)
