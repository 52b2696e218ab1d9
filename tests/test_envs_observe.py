"""The observation encoder of the learning environments (``kernel.observe_many``, csrc/observe.c and its
Python twin): both twins give the same float32 bits on many random game states and random rows, in range
or not, and each vector says what the seat sees (checked against the game itself, not against a twin)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from badacey_fast import kernel
from badacey_fast.envs import encoding
from badacey_fast.errors import IllegalActionError, InvariantError
from badacey_fast.envs.encoding import OBS_SIZE, decode, encode, encode_many, mask_code, mask_table, n_actions, obs_row
from badacey_fast.game import Game
from badacey_fast.game.bots import RandomBot
from badacey_fast.game.config import PRESETS
from badacey_fast.kernel import backend as _backend

OTHER = {"c": "python", "python": "c"}


def _states(seed: int, count: int):
    """(game, seat) pairs of random hands of every preset, 2..6 seats, all phases (chance mode too)."""
    rng = random.Random(seed)
    while count > 0:
        preset = rng.choice(sorted(PRESETS))
        seats = rng.randint(2, 6)
        stacks = [rng.choice([1, 2, 3, 7, 40, 200, 10**12]) for _ in range(seats)]
        chance = rng.random() < 0.2
        g = Game(preset, stacks, button=rng.randrange(seats), chance=chance,
                 **({} if chance else {"seed": rng.getrandbits(32)}))
        bots = [RandomBot(rng.getrandbits(32)) for _ in range(seats)]
        while True:
            yield g, rng.randrange(seats)
            count -= 1
            if g.phase == "complete" or count <= 0:
                break
            if g.phase == "chance":
                g.apply_chance(rng.choice(g.chance_outcomes())[0])
            else:
                g.apply(bots[g.to_act](g.view(g.to_act)))


def _observe(which: str, rows: list[int], count: int, fill: float = 7.0, size: int | None = None):
    out = np.full((count if size is None else size, OBS_SIZE), fill, np.float32)
    return _backend.load(which).observe_many(rows, count, out), out


def test_each_vector_shows_what_the_seat_sees(backend):
    for g, seat in _states(1, 300 if backend == "c" else 120):
        v = encode(g, seat)
        n, bb = g.n, g.config.big_blind or g.config.small_bet
        assert set(np.flatnonzero(v[:52]).tolist()) == set(g.hands[seat])
        for slot, c in enumerate(sorted(g.hands[seat])):  # slot k: the k-th card by id, rank and suit
            assert v[52 + 17 * slot + c // 4] == 1 and v[52 + 17 * slot + 13 + c % 4] == 1
        assert np.flatnonzero(v[137:142]).tolist() == [n - 2]
        assert np.flatnonzero(v[142:148]).tolist() == [(seat - g.button) % n]
        assert v[148:150].tolist() == [g.phase == "betting", g.phase == "drawing"]
        assert np.flatnonzero(v[150:154]).tolist() == [g.street]
        assert v[155] == np.float32(sum(g.contrib) / bb)
        for r in range(n):
            j = (seat + r) % n
            block = v[163 + 10 * r:173 + 10 * r]
            assert block[0] == 1 and block[1] == g.folded[j] and block[3] == np.float32(g.stacks[j] / bb)
            assert block[6:6 + len(g.discard_counts)].tolist() == [
                np.float32((d[j] + 1) * 0.16666667) for d in g.discard_counts]
        assert not v[163 + 10 * n:].any()  # seats beyond the table are zeros


def test_twins_agree_on_random_game_states(backend):
    """One row at a time and all rows in one batch: the same bits from both twins."""
    rows, count = [], 0
    for g, seat in _states(2, 400 if backend == "c" else 150):
        row = obs_row(g, seat)
        got, mine = _observe(backend, row, 1)
        want, theirs = _observe(OTHER[backend], row, 1)
        assert got == want == -1 and mine.tobytes() == theirs.tobytes()
        rows += row
        count += 1
    got, mine = _observe(backend, rows, count)
    want, theirs = _observe(OTHER[backend], rows, count)
    assert got == want == -1 and mine.tobytes() == theirs.tobytes()


def _mutate(rng: random.Random, row: list[int]) -> list[int]:
    """A row with one field set to a random value, often out of its range (or cut short, or lengthened)."""
    row = row[:]
    r = rng.random()
    if r < 0.1:
        return row[:rng.randrange(len(row))]
    if r < 0.15:
        return row + [rng.randrange(52)]
    i = rng.randrange(len(row))
    row[i] = rng.choice([-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 51, 52, 1 << 53, (1 << 53) + 1, -(1 << 63), (1 << 63) - 1])
    return row


def test_twins_agree_on_rows_out_of_range(backend):
    """Fuzzed batches: the same return (first bad row, or -2) and the same vectors written before it."""
    rng = random.Random(3)
    states = list(_states(4, 200))
    bad_seen = set()
    for _ in range(600 if backend == "c" else 200):
        batch = rng.sample(states, rng.randint(1, 4))
        rows: list[int] = []
        for k, (g, seat) in enumerate(batch):
            row = obs_row(g, seat)
            rows += _mutate(rng, row) if rng.random() < 0.5 else row
        got, mine = _observe(backend, rows, len(batch))
        want, theirs = _observe(OTHER[backend], rows, len(batch))
        assert got == want and mine.tobytes() == theirs.tobytes(), (got, want, rows)
        bad_seen.add(got)
    assert {-2, -1, 0, 1} <= bad_seen  # the fuzz reached good batches, bad rows and leftover ints


def test_bad_arguments_are_refused_alike(backend):
    g = Game(stacks=[30, 30, 30], seed=9)
    row = obs_row(g, 1)
    assert _observe(backend, row, 2, size=2)[0] == 1  # one row given, two announced: row 1 is missing...
    assert _observe(backend, row, 1, size=1)[0] == -1
    assert _observe(backend, row + [0], 1)[0] == -2  # ...an int left over after the last row
    assert _observe(backend, row + row, 2, size=1)[0] == -2  # out holds one vector, not two
    assert _observe(backend, row, -1, size=1)[0] == -2
    assert _observe(backend, [], 0, size=0)[0] == -1
    with pytest.raises(TypeError):
        kernel.observe_many([float(x) for x in row], 1, np.empty((1, OBS_SIZE), np.float32))
    with pytest.raises(OverflowError):
        kernel.observe_many(row[:-1] + [1 << 64], 1, np.empty((1, OBS_SIZE), np.float32))
    frozen = np.empty((1, OBS_SIZE), np.float32)
    frozen.flags.writeable = False
    for out in (np.empty((1, OBS_SIZE), np.float64), np.empty((OBS_SIZE, 2), np.float32)[:, 0], [0.0] * OBS_SIZE,
                frozen):
        with pytest.raises(TypeError, match="float32"):
            kernel.observe_many(row, 1, out)


def test_a_batch_is_the_single_vectors_side_by_side(backend):
    pairs = list(_states(5, 60))
    out = encode_many([g for g, _ in pairs], [s for _, s in pairs], np.empty((len(pairs), OBS_SIZE), np.float32))
    for k, (g, seat) in enumerate(pairs):
        assert out[k].tobytes() == encode(g, seat).tobytes()


@pytest.mark.backend_independent
def test_the_c_entry_point_checks_its_byte_lengths():
    """``bd_observe_many`` itself (cffi): rows are native int64 bytes at any alignment, lengths checked."""
    ffi, lib = _backend.kernel().ffi, _backend.kernel().lib
    row = obs_row(Game(stacks=[30, 30, 30], seed=9), 2)
    data = np.array(row, np.int64).tobytes()
    want = encode(Game(stacks=[30, 30, 30], seed=9), 2)
    out = np.full((2, OBS_SIZE), 7.0, np.float32)
    p = ffi.from_buffer("float[]", out)
    shifted = bytearray(1) + data  # the row one byte past an 8-byte boundary: read with memcpy
    assert lib.bd_observe_many(ffi.from_buffer(shifted) + 1, len(data), 1, p, out.size) == -1
    assert out[0].tobytes() == want.tobytes() and (out[1] == 7.0).all()
    assert lib.bd_observe_many(data, len(data) - 4, 1, p, out.size) == lib.BD_OBS_BAD_ARGS  # not whole int64s
    assert lib.bd_observe_many(data, len(data) - 8, 1, p, out.size) == 0  # the row runs past the bytes
    assert lib.bd_observe_many(data, len(data), 1, p, OBS_SIZE - 1) == lib.BD_OBS_BAD_ARGS  # out too small
    assert lib.bd_observe_many(ffi.NULL, 0, 1, p, out.size) == 0
    assert lib.bd_observe_many(data, len(data), 1, ffi.NULL, 0) == lib.BD_OBS_BAD_ARGS
    assert lib.bd_observe_many(ffi.NULL, 0, 0, ffi.NULL, 0) == -1


def test_the_vector_env_batch_is_each_tables_own_view(backend):
    from badacey_fast.envs.encoding import action_mask
    from badacey_fast.envs.gymnasium import BadaceyVectorEnv

    v = BadaceyVectorEnv(6, "badugi", seats=3, seat=1)
    obs, info = v.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(40):
        for k, t in enumerate(v.tables):
            assert obs[k].tobytes() == encode(t.game, t.seat).tobytes()
            assert info["action_mask"][k].tolist() == action_mask(t.game, 4).tolist()
            assert t.game.to_act == 1 and info["action_mask"][k].any()  # the learner's turn, something legal
        obs, _, term, _, info = v.step((rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1))
        assert (info["final_obs"][~term] == 0).all() if term.any() else "final_obs" not in info


def _nearest(g, index: int):
    """decode's documented rule, spelled out independently: (engine action, whether index was legal)."""
    if g.phase == "drawing":
        hand = sorted(g.hands[g.to_act])
        m = index - 3
        ok = 0 <= m < 1 << len(hand)
        cards = tuple(c for k, c in enumerate(hand) if max(m, 0) >> k & 1)
        return ("draw", None, cards), ok
    kinds = {a.kind: a for a in g.legal_actions()}
    call = kinds.get("call") or kinds["check"]
    if index == 0 and "fold" in kinds:
        return tuple(kinds["fold"]), True
    if index == 2 and ("bet" in kinds or "raise" in kinds):
        return tuple(kinds.get("bet") or kinds["raise"]), True
    return tuple(call), index == 1


@pytest.mark.backend_independent
def test_decode_maps_every_index_to_the_nearest_legal_action():
    rng = random.Random(4)
    seen = set()
    for k in range(150):
        game = ["badacey", "badugi", "27"][k % 3]
        n = 2 + k % 5
        g = Game(game, [rng.choice([4, 10, 200]) for _ in range(n)], seed=k)
        while g.phase != "complete":
            size = n_actions(g.config.hand_size)
            for index in (-1, size, size + 1):  # outside the action space: not an action at all
                with pytest.raises(IllegalActionError, match=f"action index {index} is not in 0..{size - 1}"):
                    decode(g, index)
            for index in range(size):
                a, ok = decode(g, index)
                want, want_ok = _nearest(g, index)
                assert (tuple(a), ok) == (want, want_ok), (index, g.legal_actions())
                # the mask marks exactly the indices decode takes as legal
                assert bool(mask_table(g.config.hand_size)[mask_code(g)][index]) == ok
                seen.add((g.phase, ok))
            g.apply(decode(g, rng.randrange(size))[0])
    assert seen == {("betting", True), ("betting", False), ("drawing", True), ("drawing", False)}


def test_row_encoder_is_the_serving_twins_observe_many(backend: str) -> None:
    """What the environments bind once a hand: the serving twin's encoder of a list of rows, the same floats
    and the same refusals as observe_many."""
    encode_rows = kernel.row_encoder()
    assert encode_rows is _backend.load(backend).observe_list
    for g, seat in _states(24, 60):
        row = obs_row(g, seat)
        got, want = np.full(OBS_SIZE, 7.0, np.float32), np.full(OBS_SIZE, 9.0, np.float32)
        assert encode_rows(row, 1, got) == kernel.observe_many(row, 1, want) == -1
        assert got.tobytes() == want.tobytes() == encode(g, seat).tobytes()
        assert encode_rows(row[:-1], 1, got) == 0  # one own card short: row 0 refused
    with kernel.using(OTHER[backend]):
        assert kernel.row_encoder() is _backend.load(OTHER[backend]).observe_list


def _plain(g, seat):
    """The plain path's vector (obs_row, observe_many) and its bytes, or the error it raises."""
    try:
        return encode(g, seat).tobytes()
    except Exception as e:  # noqa: BLE001 - compared by type with the fast path's fallback
        return type(e)


def test_the_seat_encoder_writes_the_plain_paths_vector(backend: str) -> None:
    """The environments' per-turn encoder (on the C twin the row read straight from the game's slots,
    csrc/cpython/speedups.c SeatRows) gives obs_row + observe_many's bits on random states of every preset,
    2..6 seats, every phase, chance mode and 10**12-chip stacks (ints beyond one digit) included."""
    seat_encoder = encoding.seat_encoder()
    assert (type(seat_encoder).__name__ == "SeatRows") == (backend == "c")  # the C twin's slot reader
    served = 0
    for g, seat in _states(25, 400 if backend == "c" else 100):
        out = np.full(OBS_SIZE, 7.0, np.float32)
        got = seat_encoder(g, seat, encoding.chip_unit(g.config), out)
        assert got == -1 and out.tobytes() == encode(g, seat).tobytes()
        served += 1
    assert served > 300 or backend == "python"
    with kernel.using(OTHER[backend]):  # one encoder per twin, each asked for again after a switch
        assert (type(encoding.seat_encoder()).__name__ == "SeatRows") == (backend == "python")


def _odd_states():
    """(game, seat, what) where the C encoder must not read the game itself: each changes one thing."""
    from badacey_fast.game.state import Game as State

    class Subclass(State):
        __slots__ = ()

    def game(seed=4):
        g = Game(stacks=[50, 60, 70], seed=seed)
        g.apply("call")
        return g

    sub = Subclass(stacks=[50, 60, 70], seed=4)
    yield sub, 1, "a subclass"
    for what, change in [
        ("a float stack", lambda g: g.stacks.__setitem__(0, 50.0)),
        ("a numpy int bet", lambda g: g.sbet.__setitem__(1, np.int64(2))),
        ("an int beyond int64", lambda g: g.stacks.__setitem__(2, 1 << 70)),
        ("a negative huge stack", lambda g: g.stacks.__setitem__(2, -(1 << 64))),
        ("a tuple of stacks", lambda g: setattr(g, "stacks", tuple(g.stacks))),
        ("a short list of bets", lambda g: setattr(g, "sbet", g.sbet[:2])),
        ("a card as a float", lambda g: g.hands.__setitem__(0, [float(c) for c in g.hands[0]])),
        ("a six-card hand", lambda g: g.hands[0].append(51 if 51 not in g.hands[0] else 50)),
        ("four draws", lambda g: setattr(g, "discard_counts", [[0, 0, 0]] * 4)),
        ("a phase of another type", lambda g: setattr(g, "phase", b"betting")),
        ("an equal phase string, not the engine's", lambda g: setattr(g, "phase", "".join("betting"))),
        ("the level unset", lambda g: delattr(g, "level")),
        ("a bool for a count", lambda g: setattr(g, "nbets", True)),
    ]:
        g = game()
        change(g)
        yield g, 0, what
    yield game(), 3, "a seat beyond the table"
    yield game(), -1, "a negative seat"


def test_the_c_seat_encoder_leaves_what_it_does_not_read_to_the_plain_path(backend: str) -> None:
    """Anything but an engine state of exactly Game, read as obs_row reads it: SEAT_NOT_SERVED and ``out``
    untouched (or, when it does read it, obs_row's very vector), and the environment's fallback, encode,
    then says the same as the plain path."""
    if backend != "c":
        pytest.skip("the Python twin has no slot reader (its encoder is the plain path itself)")
    seat_encoder = encoding.seat_encoder()
    for g, seat, what in _odd_states():
        out = np.full(OBS_SIZE, 7.0, np.float32)
        got = seat_encoder(g, seat, 2, out)
        plain = _plain(g, seat)
        if got == -1:  # read as obs_row reads it (a bool is an int, an equal str the same phase)
            assert out.tobytes() == plain, what
        else:
            assert got in (kernel.SEAT_NOT_SERVED, 0), what
            if got == kernel.SEAT_NOT_SERVED:
                assert (out == 7.0).all(), what
            else:
                assert plain is InvariantError, what  # the row refused by the kernel: encode says so
    # The cases where reading is obs_row's own reading:
    g = next(g for g, _, what in _odd_states() if what == "a bool for a count")
    assert seat_encoder(g, 0, 2, np.empty(OBS_SIZE, np.float32)) == -1
    for g, seat, what in _odd_states():
        if what in ("a subclass", "a float stack", "a numpy int bet", "a tuple of stacks", "the level unset",
                    "a negative seat", "a card as a float", "a phase of another type"):
            assert seat_encoder(g, seat, 2, np.empty(OBS_SIZE, np.float32)) == kernel.SEAT_NOT_SERVED, what


def test_the_c_seat_encoder_checks_its_class_and_out(backend: str) -> None:
    if backend != "c":
        assert kernel.seat_encoder(Game, (), "betting", "drawing") is None
        return
    fields = encoding.SEAT_FIELDS

    class Slotted:
        __slots__ = fields

    class Prop:
        __slots__ = fields[1:]
        n = property(lambda self: 2)

    descriptors = tuple(getattr(Slotted, f) for f in fields)
    encoder = kernel.seat_encoder(Slotted, descriptors, "betting", "drawing")
    g = Game(stacks=[50, 60], seed=2)
    s = Slotted()
    for f in fields:
        setattr(s, f, getattr(g, f))
    want = encode(g, 1)
    out = np.empty(OBS_SIZE, np.float32)
    assert encoder(s, 1, 2, out) == -1 and out.tobytes() == want.tobytes()
    assert encoder(g, 1, 2, out) == kernel.SEAT_NOT_SERVED  # not of its class
    for bad in (np.empty(OBS_SIZE, np.float64), np.empty(OBS_SIZE, np.float32)[::2], b"x" * 4 * OBS_SIZE):
        with pytest.raises(TypeError, match="out must be a writable C-contiguous float32 array"):
            encoder(s, 1, 2, bad)
    assert encoder(s, 1, 2, np.empty(OBS_SIZE - 1, np.float32)) == -2  # too small: bd_observe_many refuses
    with pytest.raises(TypeError, match="exactly 4 arguments"):
        encoder(s, 1, 2)
    Slotted.later = 1  # a class changed after the encoder was made: not read any more
    assert encoder(s, 1, 2, out) == kernel.SEAT_NOT_SERVED
    with pytest.raises(ValueError, match="not a slot of"):
        kernel.seat_encoder(Prop, (Prop.n,) + tuple(getattr(Prop, f) for f in fields[1:]), "betting", "drawing")
    with pytest.raises(ValueError, match="not a slot of"):
        kernel.seat_encoder(Prop, descriptors, "betting", "drawing")  # another class's slots
    with pytest.raises(ValueError, match="15 member descriptors"):
        kernel.seat_encoder(Slotted, descriptors[:-1], "betting", "drawing")


def _junk(rng: random.Random, value, n: int):
    """``value`` (a slot's) changed at random: another type, a list one short or long, an item of
    another type or out of range, a huge int, a bool."""
    choices = [None, 1.5, "x", b"y", True, -1, 5, 1 << 40, 1 << 63, -(1 << 70), (1, 2), [[0] * n] * 5]
    if isinstance(value, list) and value and rng.random() < 0.7:
        value = [v[:] if isinstance(v, list) else v for v in value]
        r = rng.random()
        if r < 0.2:
            return value[:-1]
        if r < 0.3:
            return value + value[-1:]
        i = rng.randrange(len(value))
        if isinstance(value[i], list) and value[i] and rng.random() < 0.7:
            value[i][rng.randrange(len(value[i]))] = rng.choice(choices)
        else:
            value[i] = rng.choice(choices)
        return value
    return rng.choice(choices)


def test_the_c_seat_encoder_on_fuzzed_games_reads_as_the_plain_path_or_leaves_it(backend: str) -> None:
    """One slot of a real game set to junk: the C encoder writes the plain path's very vector, or refuses
    the row as the kernel does (encode then raises), or leaves ``out`` untouched as not served; never
    anything else, whatever the junk (and no read past a list: the sanitizer-free check is that it never
    crashes or writes a vector the plain path does not)."""
    if backend != "c":
        pytest.skip("the Python twin has no slot reader")
    seat_encoder = encoding.seat_encoder()
    rng = random.Random(26)
    outcomes = set()
    for g, seat in _states(27, 300):
        g = g.copy()
        name = rng.choice(encoding.SEAT_FIELDS)
        try:
            setattr(g, name, _junk(rng, getattr(g, name), g.n))
        except AttributeError:  # a slot unset in this phase
            continue
        out = np.full(OBS_SIZE, 7.0, np.float32)
        got = seat_encoder(g, seat, encoding.chip_unit(g.config), out)
        plain = _plain(g, seat)
        if got == -1:
            assert out.tobytes() == plain, name
        elif got == kernel.SEAT_NOT_SERVED:
            assert (out == 7.0).all(), name
        else:
            assert got == 0 and plain is InvariantError, name
        outcomes.add(got)
    assert outcomes == {-1, 0, kernel.SEAT_NOT_SERVED}
