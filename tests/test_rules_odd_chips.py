"""The one split of a pot among its winners (RULES.md §3): ``rules.odd_chips.split_pot`` in Python and its
C twin ``bd_split_pot`` / ``bd_split_many`` (csrc/showdown.c), served as ``kernel.split_many`` by both
twins; the policies' one reader, ``odd_chip_policy``.

Expected chips are worked by hand in the comments; the random checks hold the twins' batch split to the
Python split row by row, and the C calls' argument checks to their contract (refuse, write nothing).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from badacey_fast import kernel
from badacey_fast.errors import ConfigError, ShowdownError
from badacey_fast.kernel.backend import kernel as c_kernel
from badacey_fast.rules.odd_chips import OddChip, clockwise, first_clockwise, odd_chip_policy, split_pot

LOW, POSITION = OddChip.LOW, OddChip.POSITION


@pytest.mark.parametrize("amount, button, low, badugi, policy, want", [
    # 101 chips, seat 0 wins the low, seat 2 the badugi, button 1: halves of 50; the odd chip to the first
    # winner clockwise from the button (seat 2) under "position", to the low half under "low".
    (101, 1, [0], [2], POSITION, [50, 0, 51]),
    (101, 1, [0], [2], LOW, [51, 0, 50]),
    # Button 2: seat 0 is now first clockwise.
    (101, 2, [0], [2], POSITION, [51, 0, 50]),
    # A scoop: seat 1 wins both halves and every chip, odd or not.
    (101, 0, [1], [1], POSITION, [0, 101, 0]),
    # 10 chips, the badugi half (5) tied by seats 2 and 0 (clockwise from button 1: 2 first): 3 and 2.
    (10, 1, [1], [2, 0], POSITION, [2, 5, 3]),
    # 7 chips, "position": halves of 3; low 3 to seat 1; badugi 3 split by 2 and 0 (2 first): 2 and 1;
    # the odd chip to seat 1 (the low's first winner is nearer the button than the badugi's).
    (7, 0, [1], [2, 0], POSITION, [1, 4, 2]),
    # A single-pot game: only one half is played, its winners share all of it, leftovers clockwise.
    (11, 2, [], [3, 0, 1], POSITION, [4, 3, 0, 4]),
    (11, 2, [3, 0], [], LOW, [5, 0, 0, 6]),
    (0, 0, [0], [1], POSITION, [0, 0]),
])
def test_split_pot_worked_by_hand(amount: int, button: int, low: list[int], badugi: list[int], policy: OddChip,
                                  want: list[int]) -> None:
    chips = [0] * len(want)
    split_pot(amount, button, low, badugi, policy, chips)
    assert chips == want and sum(chips) == amount


def test_split_pot_adds_to_the_chips_it_is_given() -> None:
    chips = [5, 0]
    split_pot(4, 0, [1], [1], POSITION, chips)
    assert chips == [5, 4]
    with pytest.raises(ShowdownError, match="a pot of 7 chips has no winner"):
        split_pot(7, 0, [], [], POSITION, [0, 0])


def test_first_clockwise_and_clockwise_agree() -> None:
    rng = random.Random(5)
    for _ in range(500):
        seats = rng.randint(2, 6)
        button = rng.randrange(seats)
        candidates = rng.sample(range(seats), rng.randint(1, seats))
        assert first_clockwise(button, seats, candidates) == clockwise(sorted(candidates), button)[0]


def test_odd_chip_policy_reads_each_name_once() -> None:
    assert odd_chip_policy("position") is POSITION and odd_chip_policy("low") is LOW
    assert odd_chip_policy(LOW) is LOW and LOW == "low" and str(POSITION) == "position"
    with pytest.raises(ShowdownError, match="unknown odd_chip policy 'Low'"):
        odd_chip_policy("Low")  # the names are exact
    with pytest.raises(ConfigError, match="unknown odd_chip policy 'high'"):
        odd_chip_policy("high", ConfigError)
    with pytest.raises(TypeError, match="odd_chip must be a str, not bool"):
        odd_chip_policy(True)  # type: ignore[arg-type]


def _random_rows(rng: np.random.Generator, n: int, seats: int, halves: int) -> tuple[np.ndarray, ...]:
    pots = rng.integers(0, 1000, n).astype(np.int64)
    buttons = rng.integers(0, seats, n).astype(np.int64)
    everyone = (1 << seats) - 1
    low = rng.integers(1, everyone + 1, n).astype(np.uint8)  # at least one winner
    bad = rng.integers(1, everyone + 1, n).astype(np.uint8)
    if halves == 1:
        bad[:] = 0
    return pots, buttons, low, bad


def _by_split_pot(pots: np.ndarray, buttons: np.ndarray, low: np.ndarray | None, bad: np.ndarray | None,
                  seats: int, policy: OddChip) -> list[list[int]]:
    rows = []
    for i, (pot, button) in enumerate(zip(pots.tolist(), buttons.tolist())):
        order = [(button + 1 + j) % seats for j in range(seats)]
        lw = 0 if low is None else int(low[i])
        bw = 0 if bad is None else int(bad[i])
        chips = [0] * seats
        split_pot(pot, button, [s for s in order if lw >> s & 1], [s for s in order if bw >> s & 1], policy, chips)
        rows.append(chips)
    return rows


@pytest.mark.parametrize("seats", [2, 3, 6])
@pytest.mark.parametrize("halves", [1, 2])
@pytest.mark.parametrize("policy", [POSITION, LOW])
def test_split_many_is_split_pot_row_by_row(backend: str, seats: int, halves: int, policy: OddChip) -> None:
    rng = np.random.default_rng(seats * 10 + halves)
    pots, buttons, low, bad = _random_rows(rng, 300, seats, halves)
    bad_bits = None if halves == 1 else bad
    want = _by_split_pot(pots, buttons, low, bad_bits, seats, policy)
    rows = np.full((300, seats), -1, dtype=np.int64)
    assert kernel.split_many(pots, buttons, low, bad_bits, policy.odd_low, rows, False) == -1
    assert rows.tolist() == want
    columns = np.full((seats, 300), -1, dtype=np.int64)
    assert kernel.split_many(pots, buttons, low, bad_bits, policy.odd_low, columns, True) == -1
    assert columns.T.tolist() == want


@pytest.mark.parametrize("field, value", [("pot", -1), ("button", 3), ("button", -1), ("winners", 0),
                                          ("winners", 0b1000)])
def test_split_many_stops_at_the_first_bad_row(backend: str, field: str, value: int) -> None:
    pots = np.array([10, 11, 12, 13], dtype=np.int64)
    buttons = np.array([0, 1, 2, 0], dtype=np.int64)
    low = np.array([1, 2, 4, 3], dtype=np.uint8)
    bad = np.array([1, 1, 2, 4], dtype=np.uint8)
    if field == "pot":
        pots[2] = value
    elif field == "button":
        buttons[2] = value
    else:
        low[2] = bad[2] = value
    chips = np.full((4, 3), -7, dtype=np.int64)
    assert kernel.split_many(pots, buttons, low, bad, False, chips, False) == 2
    assert chips[:2].tolist() == _by_split_pot(pots[:2], buttons[:2], low[:2], bad[:2], 3, POSITION)
    assert chips[2:].tolist() == [[-7] * 3] * 2  # the bad row and those after it are not written


@pytest.mark.backend_independent  # the C calls themselves
def test_bd_split_pot_checks_every_argument_before_writing() -> None:
    k = c_kernel()
    chips = k.ffi.new("int64_t[]", 6)
    assert k.lib.bd_split_pot(101, 1, 3, 0b001, 0b100, 0, chips) == 0
    assert list(chips)[:3] == [50, 0, 51]
    for args in [(101, 3, 3, 1, 4, 0), (101, -1, 3, 1, 4, 0), (-1, 0, 3, 1, 4, 0), (101, 0, 3, 0, 0, 0),
                 (101, 0, 3, 0b1000, 0, 0), (101, 0, 7, 1, 1, 0), (101, 0, 0, 1, 1, 0)]:
        for i in range(6):
            chips[i] = -5
        assert k.lib.bd_split_pot(*args, chips) == -1, args
        assert list(chips) == [-5] * 6, args
    assert k.lib.bd_split_pot(101, 0, 3, 1, 4, 0, k.ffi.NULL) == -1
    misaligned = k.ffi.cast("int64_t *", k.ffi.cast("char *", chips) + 1)
    assert k.lib.bd_split_pot(101, 0, 3, 1, 4, 0, misaligned) == -1


@pytest.mark.backend_independent
def test_bd_split_many_refuses_bad_arguments() -> None:
    k = c_kernel()
    one = k.ffi.new("int64_t[]", 4)
    bits = k.ffi.new("uint8_t[]", [1])
    assert k.lib.bd_split_many(one, one, bits, k.ffi.NULL, 1, 2, 0, one, 2, 1) == -1
    assert k.lib.bd_split_many(k.ffi.NULL, one, bits, k.ffi.NULL, 1, 2, 0, one, 2, 1) == -2
    assert k.lib.bd_split_many(one, one, bits, k.ffi.NULL, -1, 2, 0, one, 2, 1) == -2
    assert k.lib.bd_split_many(one, one, bits, k.ffi.NULL, 1, 7, 0, one, 2, 1) == -2
    assert k.lib.bd_split_many(one, one, bits, k.ffi.NULL, 1, 2, 0, one, -2, 1) == -2
