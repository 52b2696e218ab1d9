"""Bulk showdowns: settle millions of showdowns at once (RULES.md §3).

Hands come as an integer array of card ids (``card = 4*rank + suit``, 0..51) of shape ``(N, P, 5)``
(``(N, P, 4)`` for Badugi): N showdowns (rows) of P = 2..6 seats, seat 0..P-1 clockwise.  An optional
``(N, P)`` bool mask says which seats are live; the cards of folded seats are ignored.  In Badacey and
Badeucy each pot is split in two halves, the best low and the best badugi (dense ranks, lower is better),
each half divided equally among its tied winners; in the single-pot games (``"badugi"``, ``"a5"``,
``"27"``, any spelling) the one half they play takes the whole pot.

- :func:`showdown_many` → each seat's share of the pot, ``(N, P)`` float64 (rows sum to 1), or with
  ``pot=`` its chip payout, ``(N, P)`` int64, following the odd-chip policies exactly as
  :func:`badacey_fast.pots.settlement.showdown` does row by row.
- :func:`winners_many` → which seats won each half, two ``(N, P)`` bool arrays.
- :func:`score_many` → both at once (one pass of the kernel).
- :func:`score_columns` → the same chips and winners in a payout table's layout: one int64 column per
  seat and each half's winners as a seat bitmask per row (what columnar files store; no transposing).

The active twin of :mod:`badacey_fast.kernel` settles the rows (the C kernel, or a numpy reference that
evaluates each live hand with the pure-Python reference: slow); this module reads the arguments once (the
game into its :class:`~badacey_fast.rules.games.Scoring`, the odd-chip policy into its
:class:`~badacey_fast.rules.odd_chips.OddChip`), validates and words errors.  The single-pot games' rows
are ranked here (``kernel.eval_many`` / ``kernel.badugi_rank_many``) and paid by the kernel's one split
(``kernel.split_many``).

>>> import numpy as np
>>> from badacey_fast.cards import parse_cards
>>> alma, bruno = parse_cards("As 2h 3d 4c 5s"), parse_cards("2c 3h 4d 5c 6s")
>>> showdown_many(np.array([[alma, bruno]])).tolist()
[[1.0, 0.0]]
>>> showdown_many(np.array([[alma, alma]]))
Traceback (most recent call last):
...
badacey_fast.errors.DuplicateCardError: row 0: card 'As' is held twice (seat 0 and seat 1)
"""

from __future__ import annotations

import operator
from typing import Any, NamedTuple

import numpy as np

from badacey_fast import kernel
from badacey_fast.bulk.buffers import check_out, fresh
from badacey_fast.cards import format_card
from badacey_fast.errors import DuplicateCardError, HandSizeError, InvalidCardError, ShowdownError
from badacey_fast.rules.games import LOW, Scoring, scoring
from badacey_fast.rules.odd_chips import OddChip, odd_chip_policy

__all__ = [
    "MIN_SEATS",
    "MAX_SEATS",
    "Winners",
    "BulkShowdown",
    "showdown_many",
    "winners_many",
    "score_many",
    "ColumnShowdown",
    "score_columns",
]

#: The seats of a showdown row.
MIN_SEATS, MAX_SEATS = 2, 6

# Error codes of kernel.showdown_many (csrc/showdown.h BD_SD_*): which check a row failed.
_OK, _BAD_CARD, _DUP_CARD, _NO_LIVE, _BAD_POT, _BAD_BUTTON = 0, 1, 2, 3, 4, 5


class Winners(NamedTuple):
    """Which seats won each half: two ``(N, P)`` bool arrays (a lone live seat wins both halves)."""

    low: np.ndarray[Any, Any]
    badugi: np.ndarray[Any, Any]


class BulkShowdown(NamedTuple):
    """One pass of the bulk showdown.

    ``payouts``: ``(N, P)`` float64 pot shares (rows sum to 1) or int64 chips (rows sum to the pot);
    ``low`` / ``badugi``: ``(N, P)`` bool masks of the seats that won each half.
    """

    payouts: np.ndarray[Any, Any]
    low: np.ndarray[Any, Any]
    badugi: np.ndarray[Any, Any]


class _Pass(NamedTuple):
    """What one internal pass computed: a part is None when its caller did not ask for it."""

    payouts: np.ndarray[Any, Any] | None
    low: np.ndarray[Any, Any] | None
    badugi: np.ndarray[Any, Any] | None


def _asked(part: np.ndarray[Any, Any] | None) -> np.ndarray[Any, Any]:
    """A part of a pass that its caller asked for (so never None)."""
    if part is None:
        raise AssertionError("a bulk showdown pass skipped a part its caller asked for")
    return part


class ColumnShowdown(NamedTuple):
    """One pass of the bulk showdown in columns: ``chips`` ``(P, N)`` int64 (``chips[s]`` = seat s's
    payouts, rows sum to the pot), ``low`` / ``badugi`` ``(N,)`` uint8 bitmasks of each half's winners
    (bit s set = seat s won that half)."""

    chips: np.ndarray[Any, Any]
    low: np.ndarray[Any, Any]
    badugi: np.ndarray[Any, Any]


def showdown_many(
    hands: object,
    live: object = None,
    game: Scoring | str = "badacey",
    *,
    pot: object = None,
    button: object = None,
    odd_chip: OddChip | str = "position",
    out: np.ndarray[Any, Any] | None = None,
) -> np.ndarray[Any, Any]:
    """Settle N showdowns at once: each seat's pot share, or with ``pot=`` its chips.

    ``hands``: integer array ``(N, P, 5)`` of card ids 0..51, P = 2..6 seats clockwise; ``live``:
    optional ``(N, P)`` bool mask (default: every seat live; folded seats' cards are ignored).
    Without ``pot``: ``(N, P)`` float64 shares, each half split exactly among tied winners (lower rank
    is better), every row summing to 1.  With ``pot`` (int chips >= 0, scalar or ``(N,)``) and
    ``button`` (seat 0..P-1, scalar or ``(N,)``, default 0): ``(N, P)`` int64 chips; every chip is paid
    out, odd chips by ``odd_chip`` ("position" or "low", RULES.md §3), equal to ``showdown`` row by row.
    ``button`` without ``pot`` is a :class:`~badacey_fast.errors.ShowdownError`: the button only places
    odd chips, and shares have none.
    ``out``: optional writable aligned C-contiguous ``(N, P)`` array of that dtype to write into (and return):
    repeated calls then skip allocating (and page-faulting) a fresh result.  Not an ndarray is a
    ``TypeError``; another dtype, shape or layout (misaligned included), or read-only, a
    :class:`~badacey_fast.errors.BadaceyError` (as in :func:`badacey_fast.bulk.evaluate_many`).

    >>> import numpy as np
    >>> from badacey_fast.cards import parse_cards
    >>> ann, ben = parse_cards("As 2h 3d 4c Kc"), parse_cards("Ac 2d 3h 4s 5s")   # seed 000: quartered
    >>> showdown_many(np.array([[ann, ben]])).tolist()
    [[0.25, 0.75]]
    >>> showdown_many(np.array([[ann, ben]]), pot=101, button=1).tolist()  # seat 0 is first after the button
    [[26, 75]]
    >>> showdown_many(np.array([[ann, ben]]), button=1)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: button 1 given without pot=: the button only places odd chips, and pot shares have none
    >>> showdown_many(np.array([[ann, ben]]), pot=-1)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: row 0: pot -1 is negative
    >>> showdown_many(np.array([[ann, ben]]), out=np.zeros((1, 2), dtype=np.int64))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: out must be a writable C-contiguous float64 array of shape (1, 2), got dtype int64, shape (1, 2)
    """
    return _asked(_settle(hands, live, game, pot, button, odd_chip, winners=False, out=out).payouts)


def winners_many(hands: object, live: object = None, game: Scoring | str = "badacey") -> Winners:
    """Which seats won each half of N showdowns: ``Winners(low, badugi)``, two ``(N, P)`` bool arrays.

    Ties mark every tied seat (lower rank is better); a lone live seat wins both halves.  Arguments
    as :func:`showdown_many`.

    >>> import numpy as np
    >>> from badacey_fast.cards import parse_cards
    >>> cora, dmitri = parse_cards("2h 4h 6h 7h Ac"), parse_cards("Ks Qd 9c 5h 5c")  # seed 000: one-way
    >>> w = winners_many(np.array([[cora, dmitri]]))
    >>> w.low.tolist(), w.badugi.tolist()
    ([[True, False]], [[False, True]])
    >>> winners_many(np.array([[cora, dmitri]]), live=np.array([[False, False]]))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: row 0 has no live seat
    """
    result = _settle(hands, live, game, None, None, OddChip.POSITION, winners=True, payouts=False)
    return Winners(_asked(result.low), _asked(result.badugi))


def score_many(
    hands: object,
    live: object = None,
    game: Scoring | str = "badacey",
    *,
    pot: object = None,
    button: object = None,
    odd_chip: OddChip | str = "position",
) -> BulkShowdown:
    """Payouts (shares, or chips with ``pot=``) and the winners of each half in one pass.

    Arguments and units as :func:`showdown_many`; returns :class:`BulkShowdown`.

    >>> import numpy as np
    >>> from badacey_fast.cards import parse_cards
    >>> r = score_many(np.array([[parse_cards("As2h3d4c5s"), parse_cards("2c3h4d5c6s")]]), pot=10)
    >>> r.payouts.tolist(), r.low.tolist(), r.badugi.tolist()
    ([[10, 0]], [[True, False]], [[True, False]])
    >>> score_many(np.zeros((1, 7, 5), dtype=np.uint8))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: 7 seats: a showdown has 2 to 6 seats
    """
    payouts, low, badugi = _settle(hands, live, game, pot, button, odd_chip, winners=True)
    return BulkShowdown(_asked(payouts), _asked(low), _asked(badugi))


def score_columns(
    hands: object,
    live: object = None,
    game: Scoring | str = "badacey",
    *,
    pot: object,
    button: object = 0,
    odd_chip: OddChip | str = "position",
    status: np.ndarray[Any, Any] | None = None,
    out: ColumnShowdown | None = None,
) -> ColumnShowdown:
    """:func:`score_many`'s chips and winners (``pot=`` required), laid out as a payout table stores them.

    Arguments, units and errors as :func:`showdown_many` with ``pot=``; returns :class:`ColumnShowdown`:
    ``chips[s]`` is ``score_many(...).payouts[:, s]`` and bit s of ``low[i]`` is ``score_many(...).low[i, s]``,
    written by the kernel straight into that layout (one pass, no transpose).

    ``status``: optional writable C-contiguous uint8 ``(N,)`` array.  Given, a bad row raises nothing: its
    code goes to ``status[i]`` (0 good, 1 a card id outside 0..51, 2 a card held twice, 3 no live seat,
    4 a negative pot, 5 a button that is not a seat; the first that applies, in that order) and it pays
    nothing and wins nothing; every row is checked in the same kernel pass that settles it (no separate
    validation pass), for callers that word their own errors (:mod:`badacey_fast.files.arrow`).

    ``out``: optional :class:`ColumnShowdown` of writable aligned C-contiguous arrays to write into (and
    return): ``chips`` int64 ``(P, N)``, ``low`` and ``badugi`` uint8 ``(N,)``; memory the caller already
    holds (a pool's, a reused batch's), so a loop over batches maps no fresh pages.  The rule of every
    ``out=``: not an ndarray is a ``TypeError``, the wrong dtype, shape or layout a
    :class:`~badacey_fast.errors.BadaceyError`.

    >>> import numpy as np
    >>> from badacey_fast.cards import parse_cards
    >>> ann, ben = parse_cards("As 2h 3d 4c Kc"), parse_cards("Ac 2d 3h 4s 5s")   # seed 000: quartered
    >>> r = score_columns(np.array([[ann, ben]]), pot=101, button=1)
    >>> r.chips.tolist(), r.low.tolist(), r.badugi.tolist()
    ([[26], [75]], [2], [3])
    >>> codes = np.empty(2, dtype=np.uint8)
    >>> r = score_columns(np.array([[ann, ben], [ann, ann]]), pot=[101, 7], button=[1, 5], status=codes)
    >>> codes.tolist(), r.chips.tolist()
    ([0, 2], [[26, 0], [75, 0]])
    >>> mine = ColumnShowdown(np.empty((2, 1), np.int64), np.empty(1, np.uint8), np.empty(1, np.uint8))
    >>> score_columns(np.array([[ann, ben]]), pot=101, button=1, out=mine).chips is mine.chips
    True
    >>> score_columns(np.array([[ann, ben]]), pot=101, out=mine._replace(low=np.empty(2, np.uint8)))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: out.low must be a writable C-contiguous uint8 array of shape (1,), got dtype uint8, shape (2,)
    """
    if pot is None:  # keyword-only and required; None would mean shares, which columns do not hold
        raise TypeError("score_columns() needs pot=: payout columns are chips")
    rules, policy, cards, mask, pots, buttons = _check(hands, live, game, pot, button, odd_chip, status=status)
    assert pots is not None and buttons is not None
    if out is not None:
        if not isinstance(out, ColumnShowdown):
            raise TypeError(f"out must be a ColumnShowdown of three arrays, not {type(out).__name__}")
        n, p = cards.shape[:2]
        out = ColumnShowdown(check_out(out.chips, np.int64, (p, n), "out.chips"),
                             check_out(out.low, np.uint8, (n,), "out.low"),
                             check_out(out.badugi, np.uint8, (n,), "out.badugi"))
    if len(rules.halves) == 1:
        return _one_half_columns(cards, mask, rules, pots, buttons, status, out)
    return _score_columns(cards, mask, rules.ace_high, pots, buttons, policy.odd_low, status, out)


class _Checked(NamedTuple):
    """The arguments of a bulk call, checked: the game's rules and odd-chip policy, uint8-or-int cards
    (N, P, k), the live mask (or None), per-row int64 pots and buttons (None without ``pot=``)."""

    rules: Scoring
    policy: OddChip
    cards: np.ndarray[Any, Any]
    mask: np.ndarray[Any, Any] | None
    pots: np.ndarray[Any, Any] | None
    buttons: np.ndarray[Any, Any] | None


def _check(hands: object, live: object, game: Scoring | str, pot: object, button: object, odd_chip: OddChip | str,
           out: np.ndarray[Any, Any] | None = None, status: np.ndarray[Any, Any] | None = None) -> _Checked:
    """Validate the arguments of every bulk call; ``status`` given (:func:`score_columns`): the rows'
    codes go there instead of raising, so the per-row checks (no live seat, pot, button) are left to the
    kernel's pass."""
    rules = scoring(game)
    policy = odd_chip_policy(odd_chip)
    cards = _as_hands(hands, rules.hand_size)
    n, p = cards.shape[:2]
    mask = _as_live(live, n, p, check_rows=status is None)
    pots = buttons = None
    if pot is None and button is not None:  # silently ignoring it would hide a forgotten pot=
        given = np.asarray(button)
        shown = given.item() if given.ndim == 0 else f"array of shape {given.shape}"
        raise ShowdownError(f"button {shown} given without pot=: the button only places odd chips, "
                            "and pot shares have none")
    if pot is not None:
        pots = _per_row(pot, n, "pot", np.int64)
        buttons = _per_row(0 if button is None else button, n, "button", np.int64)
        if status is None:  # with status, the kernel's per-row codes say it
            bad = np.flatnonzero(pots < 0)
            if bad.size:
                raise ShowdownError(f"row {bad[0]}: pot {pots[bad[0]]} is negative")
            # As uint64 a negative button is above any seat: one comparison and one temporary instead of
            # three (1 M rows, CPU time, 60 alternated calls x 5 rounds: 0.34-0.35 -> 0.22 ns a row).
            bad = np.flatnonzero(buttons.view(np.uint64) >= p)
            if bad.size:
                raise ShowdownError(f"row {bad[0]}: button {buttons[bad[0]]} is not a seat 0..{p - 1}")
    if out is not None:
        check_out(out, np.float64 if pots is None else np.int64, (n, p), "out")
    if status is not None:
        check_out(status, np.uint8, (n,), "status")
    return _Checked(rules, policy, cards, mask, pots, buttons)


def _settle(hands: object, live: object, game: Scoring | str, pot: object, button: object, odd_chip: OddChip | str,
            winners: bool, out: np.ndarray[Any, Any] | None = None, payouts: bool = True) -> _Pass:
    """Validate the arguments and settle on the active twin; ``winners=False`` skips the winner masks,
    ``payouts=False`` the shares (None is returned for what was skipped)."""
    rules, policy, cards, mask, pots, buttons = _check(hands, live, game, pot, button, odd_chip, out)
    if len(rules.halves) == 1:
        return _score_one_half(cards, mask, rules, pots, buttons, out)
    return _score(cards, mask, rules.ace_high, pots, buttons, policy.odd_low, winners, out, payouts)


# --------------------------------------------------------------------------------------------------
# Validation (the kernel twins report a bad row and a code, _row_error words it).


def _as_hands(hands: object, size: int = 5) -> np.ndarray[Any, Any]:
    arr = np.asarray(hands)
    if arr.size == 0 and arr.dtype.kind == "f":  # np.asarray of an empty list is float64
        arr = arr.astype(np.int64)
    if arr.dtype == np.bool_ or arr.dtype.kind not in "iu":
        raise TypeError(f"hands must be an integer array of card ids, not dtype {arr.dtype}")
    if arr.ndim != 3 or arr.shape[2] != size:
        raise HandSizeError(f"hands must have shape (N, P, {size}), got {arr.shape}")
    if not MIN_SEATS <= arr.shape[1] <= MAX_SEATS:
        raise ShowdownError(f"{arr.shape[1]} seats: a showdown has 2 to 6 seats")
    return arr


def _as_live(live: object, n: int, p: int, check_rows: bool = True) -> np.ndarray[Any, Any] | None:
    """The live mask checked (bool, shape (n, p)); ``check_rows``: a row without a live seat raises too."""
    if live is None:
        return None
    arr = np.asarray(live)
    if arr.dtype != np.bool_:
        raise TypeError(f"live must be a bool array, not dtype {arr.dtype}")
    if arr.shape != (n, p):
        raise ShowdownError(f"live must have shape {(n, p)} like the hands, got {arr.shape}")
    dead = np.flatnonzero(~arr.any(axis=1)) if check_rows else np.zeros(0, dtype=np.intp)
    if dead.size:
        raise ShowdownError(f"row {dead[0]} has no live seat")
    return arr


def _per_row(value: object, n: int, what: str, dtype: type) -> np.ndarray[Any, Any]:
    arr = np.asarray(value)
    if arr.dtype == np.bool_ or arr.dtype.kind not in "iu":
        raise TypeError(f"{what} must be an int or an integer array, not dtype {arr.dtype}")
    if arr.ndim == 0:
        if arr.dtype.kind == "u" and int(arr) > np.iinfo(np.int64).max:
            raise ShowdownError(f"{what} {int(arr)} is too large for int64 chips")
        return np.full(n, operator.index(arr.item()), dtype=dtype)
    if arr.shape != (n,):
        raise ShowdownError(f"{what} must be a scalar or shape ({n},), got {arr.shape}")
    if arr.dtype == np.uint64 and arr.size and arr.max() > np.iinfo(np.int64).max:
        row = int(np.argmax(arr))
        raise ShowdownError(f"row {row}: {what} {int(arr[row])} is too large for int64 chips")
    return arr.astype(dtype, copy=False)


def _row_error(cards: np.ndarray[Any, Any], live: np.ndarray[Any, Any] | None, row: int, code: int) -> Exception:
    """The error for a row the kernel rejected, naming row and value."""
    seats = cards[row]
    alive = np.ones(seats.shape[0], bool) if live is None else live[row]
    if code == _NO_LIVE:
        return ShowdownError(f"row {row} has no live seat")
    seen: dict[int, int] = {}
    for s in np.flatnonzero(alive):
        for c in seats[s].tolist():
            if not 0 <= c <= 51:
                return InvalidCardError(f"row {row} seat {s}: card id {c} is outside 0..51")
            if c in seen:
                where = f"seat {seen[c]} and seat {s}" if seen[c] != s else f"seat {s}"
                return DuplicateCardError(f"row {row}: card {format_card(c)!r} is held twice ({where})")
            seen[c] = int(s)
    return ShowdownError(f"row {row}: rejected by the kernel (code {code})")  # pragma: no cover


def _as_uint8_cards(cards: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """C-contiguous uint8 card ids; ids outside 0..51 become 255 so the kernel rejects them (no wrap)."""
    if cards.dtype == np.uint8:
        return np.ascontiguousarray(cards)
    out_of_range = (cards < 0) | (cards > 51)
    if out_of_range.any():
        # np.int16(255): a Python 255 would not fit an int8 array's dtype (numpy 2 refuses it).
        return np.ascontiguousarray(np.where(out_of_range, np.int16(255), cards).astype(np.uint8))
    return np.ascontiguousarray(cards.astype(np.uint8))


def _score(
    cards: np.ndarray[Any, Any],
    live: np.ndarray[Any, Any] | None,
    ace_high: bool,
    pots: np.ndarray[Any, Any] | None,
    buttons: np.ndarray[Any, Any] | None,
    odd_low: bool,
    winners: bool = True,
    out: np.ndarray[Any, Any] | None = None,
    payouts: bool = True,
) -> _Pass:
    n, p = cards.shape[:2]
    if out is None and (payouts or pots is not None):
        out = fresh((n, p), np.float64 if pots is None else np.int64)
    # out (payouts=False) and the winner masks (winners=False) may be None: those passes are internal, and
    # the public functions return only the parts they asked for (score_many asks for all three).
    if n == 0:
        return _Pass(out, np.zeros((0, p), bool), np.zeros((0, p), bool))
    # The winner masks cost ~10% of the kernel's time: showdown_many does without them (None).
    low = np.empty((n, p), dtype=np.bool_) if winners else None
    bad = np.empty((n, p), dtype=np.bool_) if winners else None
    live_c = None if live is None else np.ascontiguousarray(live)
    if pots is not None:
        pots = _int64_rows(pots)
    if buttons is not None:
        buttons = _int64_rows(buttons)
    shares, chips = (out, None) if pots is None else (None, out)
    row, code = kernel.showdown_many(_as_uint8_cards(cards), live_c, ace_high, pots, buttons, odd_low, shares, chips,
                                     low, bad)
    if row != -1:
        raise _row_error(cards, live, row, code)
    return _Pass(out, low, bad)


def _int64_rows(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``values`` as the kernel reads them: C-contiguous int64 on int64 boundaries (a view of a byte buffer
    at an odd offset is copied: C may not load an int64 from a misaligned address)."""
    return np.require(values, np.int64, ("C", "A"))


def _score_columns(cards: np.ndarray[Any, Any], live: np.ndarray[Any, Any] | None, ace_high: bool, pots: np.ndarray[Any, Any],
                   buttons: np.ndarray[Any, Any], odd_low: bool, status: np.ndarray[Any, Any] | None = None,
                   out: ColumnShowdown | None = None) -> ColumnShowdown:
    n, p = cards.shape[:2]
    chips, low, bad = out if out is not None else \
        (fresh((p, n), np.int64), np.empty(n, dtype=np.uint8), np.empty(n, dtype=np.uint8))
    if n:
        row, code = kernel.showdown_columns(_as_uint8_cards(cards), None if live is None else np.ascontiguousarray(live),
                                            ace_high, _int64_rows(pots), _int64_rows(buttons), odd_low, chips, low, bad,
                                            status)
        if status is None and row != -1:
            raise _row_error(cards, live, row, code)
    return ColumnShowdown(chips, low, bad)


# --------------------------------------------------------------------------------------------------
# Single-pot games (Badugi, A-5, 2-7): one half takes the whole pot.


def _first_bad_row(cards: np.ndarray[Any, Any], live: np.ndarray[Any, Any]) -> tuple[int, int]:
    """(row, code) of the first row whose live cards are not distinct ids 0..51, or (-1, _OK)."""
    codes = _card_codes(cards, live)
    rows = np.flatnonzero(codes)
    return (-1, _OK) if not rows.size else (int(rows[0]), int(codes[rows[0]]))


def _card_codes(cards: np.ndarray[Any, Any], live: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Each row's card code (uint8): _BAD_CARD if a live card id is outside 0..51, else _DUP_CARD if a
    live card is given twice, else _OK."""
    n, p, k = cards.shape
    wide = cards.astype(np.int64, copy=False)
    out_of_range = ((wide < 0) | (wide > 51)) & live[:, :, None]
    # Folded seats' cards become distinct sentinels (52, 53, ...): only live cards can collide.
    sentinel = 52 + np.arange(p * k, dtype=np.int64).reshape(p, k)
    ids = np.where(live[:, :, None] & ~out_of_range, wide, sentinel).reshape(n, p * k)
    ids.sort(axis=1)
    repeated = (ids[:, 1:] == ids[:, :-1]).any(axis=1)
    bad_card = out_of_range.reshape(n, p * k).any(axis=1)
    codes: np.ndarray[Any, Any] = np.where(bad_card, np.uint8(_BAD_CARD),
                                           np.where(repeated, np.uint8(_DUP_CARD), np.uint8(_OK)))
    return codes


def _one_half_won(cards: np.ndarray[Any, Any], alive: np.ndarray[Any, Any], rules: Scoring) -> np.ndarray[Any, Any]:
    """(N, P) bool: the live seats with the best rank of the one half the game plays (lower is better);
    a row's cards are not checked (a bad row's winners mean nothing, and nothing is read out of range)."""
    n, p, k = cards.shape
    # Folded seats hold anything: their rows are evaluated as zeros (check=False) and never win.
    flat = np.ascontiguousarray(np.where(alive[:, :, None], cards, 0).astype(np.uint8).reshape(n * p, k))
    ranks = np.empty(n * p, dtype=np.uint16)
    if rules.halves[0] == LOW:
        kernel.eval_many(flat, rules.ace_high, False, ranks, np.empty_like(ranks))
    else:
        kernel.badugi_rank_many(flat, rules.ace_high, False, ranks)
    worst = np.iinfo(np.int64).max
    wide = np.where(alive, ranks.reshape(n, p).astype(np.int64), worst)
    won: np.ndarray[Any, Any] = alive & (wide == wide.min(axis=1, keepdims=True))
    return won


def _seat_bits(won: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """(N,) uint8 seat masks (bit s = seat s) of an (N, P) bool array."""
    weights = (1 << np.arange(won.shape[1])).astype(np.uint8)
    bits: np.ndarray[Any, Any] = (won * weights).sum(axis=1, dtype=np.uint8)
    return bits


def _pay_one_half(won: np.ndarray[Any, Any], rules: Scoring, pots: np.ndarray[Any, Any],
                  buttons: np.ndarray[Any, Any], chips: np.ndarray[Any, Any], columns: bool) -> None:
    """The winners' chips by the kernel's one split (each row's pot to the winners of the half played)."""
    bits = _seat_bits(won)
    low = rules.halves[0] == LOW
    row = kernel.split_many(_int64_rows(pots), _int64_rows(buttons), bits if low else None, None if low else bits,
                            False, chips, columns)
    if row != -1:  # pragma: no cover - every row was checked: a pot >= 0, a seat for a button, a winner
        raise AssertionError(f"row {row}: the split refused a checked row")


def _score_one_half(cards: np.ndarray[Any, Any], live: np.ndarray[Any, Any] | None, rules: Scoring,
                    pots: np.ndarray[Any, Any] | None, buttons: np.ndarray[Any, Any] | None,
                    out: np.ndarray[Any, Any] | None) -> _Pass:
    """The bulk showdown of a single-pot game: the best hand of its one half (lower rank is better) takes
    the whole pot, split equally among tied winners, leftover chips one each to the winners first
    clockwise from the button (RULES.md §3: the kernel's one split pays it)."""
    n, p, k = cards.shape
    alive = np.ones((n, p), dtype=bool) if live is None else live
    if out is None:
        out = np.empty((n, p), dtype=np.float64 if pots is None else np.int64)
    empty = np.zeros((n, p), dtype=bool)
    if n == 0:
        return _Pass(out, empty, empty.copy())
    row, code = _first_bad_row(cards, alive)
    if row != -1:
        raise _row_error(cards, live, row, code)
    won = _one_half_won(cards, alive, rules)
    if pots is None:
        out[...] = won / won.sum(axis=1)[:, None]
    else:
        assert buttons is not None  # given with pots (_check)
        _pay_one_half(won, rules, pots, buttons, out, columns=False)
    halves = (won, empty) if rules.halves[0] == LOW else (empty, won)
    return _Pass(out, *halves)


def _one_half_columns(cards: np.ndarray[Any, Any], live: np.ndarray[Any, Any] | None, rules: Scoring,
                      pots: np.ndarray[Any, Any], buttons: np.ndarray[Any, Any], status: np.ndarray[Any, Any] | None,
                      out: ColumnShowdown | None) -> ColumnShowdown:
    """:func:`_score_one_half` in columns (into ``out`` when given); with ``status``, the rows' codes (in
    the kernel's order of checks) go there, and a bad row pays nothing and wins nothing."""
    n, p = cards.shape[:2]
    chips, low, bad = out if out is not None else \
        (fresh((p, n), np.int64), np.empty(n, dtype=np.uint8), np.empty(n, dtype=np.uint8))
    if n == 0:
        return ColumnShowdown(chips, low, bad)
    alive = np.ones((n, p), dtype=bool) if live is None else live
    if status is None:
        row, code = _first_bad_row(cards, alive)
        if row != -1:
            raise _row_error(cards, live, row, code)
        good = None
    else:
        codes = _card_codes(cards, alive)
        for check, code in ((~alive.any(axis=1), _NO_LIVE), (pots < 0, _BAD_POT),
                            ((buttons < 0) | (buttons >= p), _BAD_BUTTON)):
            codes = np.where((codes == _OK) & check, np.uint8(code), codes)
        status[:] = codes
        good = codes == _OK
    won = _one_half_won(cards, alive, rules)
    if good is None or good.all():
        _pay_one_half(won, rules, pots, buttons, chips, columns=True)
    else:  # the good rows paid apart, then laid into their columns; the bad ones pay and win nothing
        won &= good[:, None]
        part = np.empty((p, int(good.sum())), dtype=np.int64)
        _pay_one_half(won[good], rules, pots[good], buttons[good], part, columns=True)
        chips[...] = 0
        chips[:, good] = part
    bits = _seat_bits(won)
    if rules.halves[0] == LOW:
        low[...], bad[...] = bits, 0
    else:
        low[...], bad[...] = 0, bits
    return ColumnShowdown(chips, low, bad)
