"""game/simulate.py on the C hand loop (csrc/simulate.c, the bots of csrc/bots.c) held to the Python path:
the C rule bot keeps what keep_cards keeps, every decision a C bot makes is the Python bot's in the same
state (hands played in C, replayed in Python), and simulate's two engines play the same game in
distribution.  Sums are exact or refused."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from badacey_fast import kernel
from badacey_fast.cards import format_card
from badacey_fast.draw.policy import keep_cards
from badacey_fast.errors import ConfigError, FileFormatError, ShapeError
from badacey_fast.game import Action, Game, GameConfig, SeatView, simulate
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.rules.games import PRESETS

pytestmark = pytest.mark.backend_independent  # the C loop is asked for by name; the Python path is the twin


@pytest.fixture
def c_twin():
    """The C twin serving (a missing C kernel is an error, never a skip: CI builds it)."""
    with kernel.using("c"):
        yield


def c_kernel():
    from badacey_fast._kernel import ffi, lib  # the C extension: these tests hold it to the Python twin
    return ffi, lib


SMALL = [GameConfig(game="badugi", ranks=6, suits=3, hand_size=3, draws=2),
         GameConfig(game="badacey", ranks=6, draws=2), GameConfig(game="27", ranks=6, burn=True),
         GameConfig(game="a5", ranks=4, draws=0),
         GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=1)]


def test_c_keep_set_is_keep_cards():
    ffi, lib = c_kernel()
    rng = random.Random(7)
    low = [c for c in range(52) if c // 4 < 9]
    for k in range(20_000):
        hand = tuple(rng.sample(low if k % 2 else range(52), rng.randint(1, 5)))
        game, top = PRESETS[k % 5], 2 + k % 12
        mask = lib.bd_bot_keep(list(hand), len(hand), k % 5, top)
        assert tuple(c for j, c in enumerate(hand) if mask >> j & 1) == keep_cards(hand, game, top), (hand, game)
    for bad in (([0, 0], 2, 0, 8), ([52], 1, 0, 8), ([1], 0, 0, 8), ([1] * 6, 6, 0, 8), ([1], 1, 5, 8),
                ([1], 1, 0, 1), ([1], 1, 0, 14)):
        assert lib.bd_bot_keep(*bad) == -1, bad


def make_sim(config: GameConfig, bots: list[str], stacks: int, seed: int):
    from badacey_fast.kernel._c import Simulator

    n = len(bots)
    return Simulator(PRESETS.index(config.game), [stacks] * n, config.small_blind, config.big_blind, config.ante,
                     config.small_bet, config.big_bet, config.cap, config.heads_up_uncapped, config.burn,
                     config.odd_chip.odd_low, config.scoring.ace_high,
                     (config.ranks, config.suits, config.hand_size, config.draws), bots, seed,
                     [seed * 31 + s for s in range(n)])


def py_action(g: Game, kind: int, discards: int) -> Action:
    if kind == 3:
        hand = g.hands[g.to_act]
        return Action("draw", cards=tuple(c for j, c in enumerate(hand) if discards >> j & 1))
    kinds = {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}
    (a,) = [a for a in g.legal_actions() if kinds[a.kind] == kind]
    return a


@pytest.mark.parametrize("config, bots", [
    (GameConfig(), ["rule", "random"]), (GameConfig(game="badeucy"), ["rule"] * 3 + ["random"] * 3),
    (GameConfig(game="badugi", cap=None), ["rule", "rule", "random", "rule"]), (GameConfig(game="a5"), ["rule"] * 5),
    (GameConfig(game="27", ante=1, small_blind=0, big_blind=0), ["random", "rule", "rule"]),
    (GameConfig(game="badeucy", odd_chip="low", small_blind=1, big_blind=3, small_bet=3, big_bet=5), ["rule"] * 4),
    *[(c, ["rule", "random", "rule"]) for c in SMALL]])
def test_c_hands_replay_in_python_with_the_python_bots_decisions(config, bots):
    ffi, lib = c_kernel()
    n, stacks = len(bots), 24  # short stacks: all-ins and side pots too
    sim = make_sim(config, bots, stacks, seed=5)
    from badacey_fast.kernel._c import SIM_RECORDS

    records = {name: np.zeros((1,) + shape, dtype) for name, (dtype, shape) in SIM_RECORDS.items()}
    decided = floats = folds_offered = 0
    for h in range(150):
        totals, squares, showdowns = sim.run(h, 1, records)
        t = sim.state
        assert t.nlog < lib.BD_ENG_LOG_MAX
        g = Game(config, [stacks] * n, button=t.button, _script=list(t.dealt[0:t.ndealt]), seed=0)
        assert t.button == h % n
        for entry in t.log[0:t.nlog]:
            seat, kind, discards = entry >> 8, entry >> 5 & 7, entry & 31
            assert seat == g.to_act
            got = py_action(g, kind, discards)  # raises unless legal: the C bots act only legally
            if bots[seat] == "rule":
                want = RuleBot(seed=0)(SeatView(g, seat))
                if want.kind == "fold":  # the one random choice: fold, or float one time in ten
                    folds_offered += 1
                    floats += got.kind == "call"
                    assert got.kind in ("fold", "call")
                else:
                    assert got == want, (h, g.log, got, want)
                decided += 1
            g.apply(got, seat)
        assert g.is_over
        assert totals == list(g.winnings) and squares == [w * w for w in g.winnings]
        assert showdowns == (g.nlive > 1)
        assert records["net"][0, :n].tolist() == list(g.winnings) and records["showdown"][0] == (g.nlive > 1)
        assert records["button"][0] == g.button and records["folded"][0, :n].tolist() == [int(f) for f in g.folded]
        assert records["pot"][0] == sum(g.payouts)
        h = config.hand_size
        assert [tuple(records["cards"][0, s, :h].tolist()) for s in range(n)] == [tuple(c) for c in g.hands]
        assert (records["cards"][0, :, h:] == 255).all() and (records["cards"][0, n:] == 255).all()
    assert decided > 200
    if folds_offered > 100:
        assert 0.02 < floats / folds_offered < 0.25


@pytest.mark.parametrize("config, bots", [("badacey", [RuleBot, RandomBot, RandomBot]),
                                          ("badugi", [RandomBot] * 6), ("27", [RuleBot] * 4)])
def test_c_and_python_simulations_play_the_same_game_in_distribution(c_twin, config, bots):
    # Different random streams, the same game: each seat's net a hand and the showdown rate agree within
    # four standard errors over a few thousand hands each (a bot that never floats, a button that sticks,
    # a blind not posted moves one of them by far more).
    hands = 3000
    c = simulate([b() for b in bots], hands=40 * hands, seed=3, config=config, engine="c")
    py = simulate([b() for b in bots], hands=hands, seed=4, config=config, engine="python")
    for s in range(len(bots)):
        se = np.hypot(c.ci95[s], py.ci95[s]) / 1.96
        assert abs(c.per100[s] - py.per100[s]) < 4 * se, (s, c, py)
    p1, p2 = c.showdowns / c.hands, py.showdowns / py.hands
    assert abs(p1 - p2) < 4 * np.sqrt(p2 * (1 - p2) / hands + p1 * (1 - p1) / c.hands), (p1, p2)


def test_engine_choice(c_twin):
    rule = [RuleBot(), RandomBot()]
    a = simulate(rule, hands=2500, seed=1)  # auto: C
    assert a == simulate(rule, hands=2500, seed=1, engine="c") and sum(a.totals) == 0
    assert a != simulate(rule, hands=2500, seed=2, engine="c")
    assert a != simulate(rule, hands=2500, seed=1, engine="python")  # another stream
    done: list[int] = []
    simulate(rule, hands=2500, seed=1, progress=done.append)
    assert done == [1000, 2000, 2500]

    class Mine(RandomBot):
        pass

    # A subclass may decide otherwise: Python plays it, and "c" says why it cannot.
    assert simulate([Mine(), RandomBot()], hands=300, seed=1) == simulate([Mine(), RandomBot()], hands=300, seed=1,
                                                                          engine="python")
    with pytest.raises(ConfigError, match="engine='c' is unavailable: bots other than .* Mine"):
        simulate([Mine(), RandomBot()], hands=3, engine="c")
    with pytest.raises(ConfigError, match="engine='c' is unavailable: stacks of"):
        simulate(rule, hands=3, stack=1 << 40, engine="c")
    with pytest.raises(ConfigError, match="engine must be one of auto, c, python, not 'C'"):
        simulate(rule, hands=3, engine="C")


def test_engine_c_needs_the_c_twin():
    with kernel.using("python"):
        with pytest.raises(ValueError, match="the C kernel is not active"):
            simulate([RuleBot(), RandomBot()], hands=3, engine="c")
        r = simulate([RuleBot(), RandomBot()], hands=300, seed=1)  # auto: Python
        assert r == simulate([RuleBot(), RandomBot()], hands=300, seed=1, engine="python")


def test_sums_beyond_int64_are_refused_not_wrapped():
    ffi, lib = c_kernel()
    sim = make_sim(GameConfig(), ["random", "random"], 200, seed=1)
    sums = ffi.new("bd_sim_sums *")
    sums.squares[0] = sums.squares[1] = (1 << 63) - 2  # any hand won or lost overflows the squares
    before = bytes(ffi.buffer(sums))
    rc = lib.bd_sim_run(sim.state, sim.table, sim.bots, 0, 50, sums, ffi.NULL)
    assert rc == lib.BD_SIM_OVERFLOW and bytes(ffi.buffer(sums)) == before
    assert lib.bd_sim_run(sim.state, sim.table, sim.bots, -1, 5, sums, ffi.NULL) == lib.BD_ENG_BAD_ARGS
    assert lib.bd_sim_run(sim.state, sim.table, ffi.NULL, 0, 5, sums, ffi.NULL) == lib.BD_ENG_BAD_ARGS
    other = make_sim(GameConfig(), ["random"] * 3, 200, seed=1)
    assert lib.bd_sim_run(sim.state, sim.table, other.bots, 0, 5, sums, ffi.NULL) == lib.BD_ENG_BAD_ARGS
    rec = ffi.new("bd_sim_records *")
    rec.rows = 4
    assert lib.bd_sim_run(sim.state, sim.table, sim.bots, 0, 5, sums, rec) == lib.BD_ENG_BAD_ARGS
    with pytest.raises(ConfigError, match="one built-in bot"):
        make_sim(GameConfig(), ["random", "shark"], 200, seed=1)


@pytest.mark.parametrize("engine", ["c", "python"])
def test_records_one_row_a_hand(c_twin, engine, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")  # the test extra installs it: CI runs this
    pytest.importorskip("pandas")
    config = GameConfig(game="badugi", ranks=6, suits=3, hand_size=3, draws=2)
    bots = [RuleBot(), RandomBot(), RuleBot()]
    r = simulate(bots, hands=1500, seed=4, config=config, engine=engine, records=True)
    plain = simulate(bots, hands=1500, seed=4, config=config, engine=engine)
    assert r.records is not None and plain.records is None
    assert replace(r, records=None) == plain  # the same hands, kept or not
    rec = r.records
    assert len(rec) == 1500 and rec.cards.shape == (1500, 3, 3) and rec.names == ("rule", "random", "rule")
    assert rec.net.sum(axis=0).tolist() == list(r.totals) and int(rec.showdown.sum()) == r.showdowns
    assert (rec.net.sum(axis=1) == 0).all() and (rec.button == np.arange(1500) % 3).all()
    assert ((rec.net > 0) <= ~rec.folded).all()  # a folded seat never wins
    assert (rec.cards < 52).all() and set(np.unique(rec.cards)) <= set(config.deck)
    assert (rec.pot >= rec.net.max(axis=1)).all()
    frame = rec.to_pandas()
    assert frame["cards_1"][7] == " ".join(format_card(c) for c in rec.cards[7, 1])
    pq.write_table(rec.to_arrow(), tmp_path / "hands.parquet")
    import pandas as pd

    back = pd.read_parquet(tmp_path / "hands.parquet")
    assert back["cards_2"].tolist() == frame["cards_2"].tolist() and back["net_0"].tolist() == rec.net[:, 0].tolist()
    arrays = rec.to_arrow(cards="array")
    assert np.array(arrays.column("cards_0").to_pylist(), np.uint8).tolist() == rec.cards[:, 0].tolist()
    assert arrays.schema.metadata[b"bots"] == b"rule,random,rule"
    with pytest.raises(FileFormatError, match="cards must be one of text, array"):
        rec.to_pandas(cards="bytes")


def test_records_arrays_are_checked_before_the_kernel_writes(c_twin):
    from badacey_fast.kernel._c import SIM_RECORDS

    sim = make_sim(GameConfig(), ["random", "rule"], 100, seed=2)
    good = {name: np.zeros((10,) + shape, dtype) for name, (dtype, shape) in SIM_RECORDS.items()}
    sim.run(0, 10, good)
    for name, bad in [("net", np.zeros((9, 6), np.int64)), ("cards", np.zeros((10, 6, 4), np.uint8)),
                      ("pot", np.zeros(10, np.int32)), ("folded", np.zeros((6, 10), np.uint8).T),
                      ("button", np.zeros(10, np.uint8)[::-1][:10:1].copy()[::1].view(np.int8))]:
        with pytest.raises(ShapeError, match=f"records\\['{name}'\\] must be"):
            sim.run(0, 10, {**good, name: bad})


@pytest.mark.parametrize("name", ["hands.parquet", "hands.csv", "hands.jsonl"])
def test_records_written_in_groups_read_back_as_the_records(tmp_path, monkeypatch, name):
    import pandas as pd

    from badacey_fast.game import records

    monkeypatch.setattr(records, "_ROW_GROUP", 7)      # 60 hands: 8 groups of 7 and a short one of 4
    rec = simulate([RuleBot(), RandomBot(), RandomBot()], hands=60, seed=8, records=True).records
    assert rec is not None
    rec.write(tmp_path / name)
    read = {"hands.parquet": pd.read_parquet, "hands.csv": pd.read_csv,
            "hands.jsonl": lambda p: pd.read_json(p, lines=True)}[name](tmp_path / name)
    want = rec.to_pandas()
    assert list(read.columns) == list(want.columns) and len(read) == len(want) == 60
    for column in want.columns:
        assert [str(x) for x in read[column]] == [str(x) for x in want[column]], column
    if name.endswith(".parquet"):
        import pyarrow.parquet as pq

        assert pq.ParquetFile(tmp_path / name).num_row_groups == 9 and pq.read_schema(tmp_path / name).metadata[
            b"bots"] == b"rule,random,random"


def test_the_hands_of_a_result_count_them_and_hold_their_rows(tmp_path) -> None:
    """``result.hands`` (issue 24's spelling): the number of hands, as an int, and the rows when kept."""
    import pickle

    import pandas as pd

    from badacey_fast.errors import ConfigError

    r = simulate([RuleBot(), RandomBot(), RandomBot()], hands=70, seed=5, records=True)
    assert r.hands == 70 and len(r.hands) == 70 and r.hands * 2 == 140 and f"{r.hands}" == "70"
    df = r.hands.to_pandas()
    assert df.equals(r.records.to_pandas()) and len(df) == 70
    assert [int(df[f"net_{s}"].sum()) for s in range(3)] == list(r.totals)
    assert r.hands.to_arrow(cards="array").equals(r.records.to_arrow(cards="array"))
    r.hands.write(tmp_path / "h.parquet")
    assert pd.read_parquet(tmp_path / "h.parquet")["net_0"].tolist() == df["net_0"].tolist()
    again = pickle.loads(pickle.dumps(r))                         # what Dask does between processes
    assert again == r and again.hands.to_pandas().equals(df)
    bare = simulate([RuleBot(), RandomBot()], hands=12, seed=5)
    assert bare.hands == 12 and bare.records is None and bare.to_dict()["hands"] == 12
    with pytest.raises(ConfigError, match=r"records=True"):
        bare.hands.to_pandas()
