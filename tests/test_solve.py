"""badacey_fast.solve: the exact best response, exploitability and CFR of small heads-up draw games, and
the suit isomorphism.

The C core (csrc/solve.c: vectors over the public tree, card removal by inclusion-exclusion) is held to
its numpy twin (dense compatibility matrices) and both to the reference walk over every history with the
cards (badacey_fast/solve/reference.py, which settles showdowns with badacey_fast.pots.settle), and to
values worked by hand.  OpenSpiel's own algorithms are compared in tests/test_solve_openspiel.py.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from badacey_fast import kernel, solve
from badacey_fast.errors import DuplicateCardError, HandSizeError, InformationStateError, SolveError
from badacey_fast.game.small import SMALL_GAMES
from badacey_fast.solve import reference
from badacey_fast.solve.exact import CFR, CFR_PLUS, DCFR, Exact
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.tree import Tree, colex_index, state_hands, state_index

# The smallest games: the reference walk finishes each in a second or two.
ONE_CARD = GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1)
ONE_CARD_CAP2 = GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=2)
ALL_IN = GameSpec.of("badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1, stack=2)
ONE_BET = GameSpec.of("badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1, stack=4)
NO_DRAW_BADACEY = GameSpec.of("badacey", ranks=3, draws=0, cap=1)
NO_DRAW_27 = GameSpec.of("27", ranks=3, draws=0, cap=1)
# Larger: twins only.
TWO_CARDS = GameSpec.of("badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=1)
TWO_DRAWS = GameSpec.of("badugi", ranks=4, suits=2, hand_size=1, draws=2, cap=2)


def random_strategy(tree: Tree, seed: int, zeros: float = 0.3) -> np.ndarray:
    """A random strategy with some exact zeros (every row a distribution)."""
    rng = np.random.default_rng(seed)
    exact = Exact(tree)
    s = rng.random(tree.strategy_size) * (rng.random(tree.strategy_size) >= zeros)
    for i, nd in enumerate(tree.nodes):
        if nd.kind in ("bet", "draw"):
            rows = exact.rows(s, i)
            tot = rows.sum(axis=1, keepdims=True)
            rows[:] = np.where(tot > 0, rows / np.where(tot > 0, tot, 1), 1.0 / rows.shape[1])
    return s


# ------------------------------------------------------------------------------------ worked by hand
def test_one_card_game_uniform_values_by_hand():
    """ONE_CARD: 6 cards (A, 2, 3 of clubs and diamonds), one card each, one draw, cap 1 (no raise before
    the draw), blinds 1/2, bets 2.  Uniform play: the button folds or calls (1/2 each); after a fold the
    button has lost 1.  After the call the big blind must check (its only action), both draw (d0/d1 each
    1/2), then big blind check/bet, button check/bet or fold/call.  A showdown of one-card badugis: the
    lower card wins; a pair of equal ranks ties.  Seat 0's expected chips, worked by hand below."""
    tree = Tree(ONE_CARD)
    # P(seat 0 wins, ties, loses) at a showdown: both cards uniform over distinct cards of 6 (whatever
    # the draws, each seat's final card is uniform and the two differ): a tie needs the same rank
    # (1 of the 5 other cards), a win a lower rank (2 of 5 on average).
    p_tie, p_win = 1 / 5, 2 / 5
    edge = p_win - (1 - p_win - p_tie)  # = 0: symmetric
    # Post-draw betting (uniform), the big blind first: it checks (1/2), then the button checks (1/2: a
    # showdown for 2 each) or bets (1/2: the big blind folds, seat 0 +2, or calls, a showdown for 4); or
    # it bets (1/2), and the button folds (seat 0 -2) or calls (a showdown for 4).
    after_call = (0.5 * (0.5 * 2 * edge + 0.5 * (0.5 * 2 + 0.5 * 4 * edge))
                  + 0.5 * (0.5 * -2 + 0.5 * 4 * edge))
    expected = 0.5 * -1 + 0.5 * after_call
    for backend in ("python", "c"):
        with kernel.using(backend):
            got = Exact(tree).profile_value(Exact(tree).uniform())
        assert got == pytest.approx(expected, abs=1e-12), backend
    assert reference.profile_value(tree, Exact(tree).uniform()) == pytest.approx(expected, abs=1e-12)


@pytest.mark.backend_independent
def test_best_response_to_always_fold_by_hand():
    """A strategy that folds whenever it can and checks otherwise: the best response raises or bets
    whenever it can; before the draw the button folds at once (loses 1); as big blind, the best response
    wins the button's small blind... seat 0 (button, best response) against a folding big blind: the big
    blind never folds before the draw at cap 1 (it may only check), so seat 0 calls, then bets after the
    draw and the big blind folds: +2.  Seat 1's best response against a button that folds: +1."""
    tree = Tree(ONE_CARD)

    def fold_first(info):
        return {info.actions[0]: 1.0}  # fold when facing a bet, else check; draws: throw nothing

    strat = solve.as_strategy(ONE_CARD, fold_first)
    e = solve.exploitability(ONE_CARD, strat)
    # Seat 1 checks after the draw (its first action) and folds to a bet: seat 0 wins its 2 blind chips.
    assert e.values[0] == pytest.approx(2.0, abs=1e-12)
    assert e.values[1] == pytest.approx(1.0, abs=1e-12)
    assert reference.best_response(tree, strat.probs, 0) == pytest.approx(2.0, abs=1e-12)


# ------------------------------------------------------------------------------- twins and reference


@pytest.mark.backend_independent
@pytest.mark.parametrize("spec", [ONE_CARD, ONE_CARD_CAP2, ALL_IN,
                                  *(pytest.param(s, marks=pytest.mark.exhaustive) for s in (ONE_BET, NO_DRAW_BADACEY, NO_DRAW_27))],
                         ids=lambda s: s.label())
def test_c_and_numpy_and_reference_agree(spec):
    tree = Tree(spec)
    strategies = [random_strategy(tree, 1), random_strategy(tree, 2, zeros=0.6)]
    if spec.hand_size == 1:  # the reference is quick on one-card games: the uniform strategy too
        strategies.append(Exact(tree).uniform())
    for strat in strategies:
        got = {}
        for backend in ("python", "c"):
            with kernel.using(backend):
                ex = Exact(tree)
                got[backend] = (ex.profile_value(strat), ex.best_response(strat, 0), ex.best_response(strat, 1))
        assert got["c"] == pytest.approx(got["python"], abs=1e-10)
        ref = (reference.profile_value(tree, strat), reference.best_response(tree, strat, 0),
               reference.best_response(tree, strat, 1))
        assert got["c"] == pytest.approx(ref, abs=1e-11)


@pytest.mark.backend_independent
@pytest.mark.parametrize("spec", [TWO_CARDS, TWO_DRAWS], ids=lambda s: s.label())
def test_c_and_numpy_agree_on_larger_games(spec):
    tree = Tree(spec)
    strat = random_strategy(tree, 3, zeros=0.5)
    got = {}
    for backend in ("python", "c"):
        with kernel.using(backend):
            ex = Exact(tree)
            best = np.zeros(tree.strategy_size)
            got[backend] = (ex.profile_value(strat), ex.best_response(strat, 0, best), ex.best_response(strat, 1, best),
                            best)
    assert got["c"][:3] == pytest.approx(got["python"][:3], abs=1e-10)
    # The best responses themselves: each is worth what was reported against the strategy.
    with kernel.using("c"):
        ex = Exact(tree)
        br0 = strat.copy()
        ex.best_response(strat, 0, br0)
        mixed = strat.copy()
        for i, nd in enumerate(tree.nodes):
            if nd.kind in ("bet", "draw") and nd.player == 0:
                ex.rows(mixed, i)[:] = ex.rows(br0, i)
        assert ex.profile_value(mixed) == pytest.approx(got["c"][1], abs=1e-12)


@pytest.mark.backend_independent
def test_best_response_strategy_is_pure_and_no_better_response_exists():
    tree = Tree(ONE_BET)
    strat = random_strategy(tree, 4)
    ex = Exact(tree)
    best = strat.copy()
    v1 = ex.best_response(strat, 1, best)
    for i, nd in enumerate(tree.nodes):
        if nd.kind in ("bet", "draw") and nd.player == 1:
            rows = ex.rows(best, i)
            assert set(np.unique(rows)) <= {0.0, 1.0} and (rows.sum(axis=1) == 1).all()
    # Seat 1 playing its best response gets exactly its value; any random seat-1 strategy gets no more.
    assert -ex.profile_value(best) == pytest.approx(v1, abs=1e-12)
    for seed in range(5):
        other = random_strategy(tree, 10 + seed)
        mixed = strat.copy()
        for i, nd in enumerate(tree.nodes):
            if nd.kind in ("bet", "draw") and nd.player == 1:
                ex.rows(mixed, i)[:] = ex.rows(other, i)
        assert -ex.profile_value(mixed) <= v1 + 1e-12


def test_chance_probabilities_sum_to_one(backend):
    """A strategy that never folds reaches every showdown: the chance weights of every compatible pair
    of states, over every terminal reached, sum to 1; with payoffs of 1 everywhere the value is 1."""
    tree = Tree(TWO_CARDS)
    tree.payoff[:] = 0.0
    for i, nd in enumerate(tree.nodes):
        if nd.kind == "showdown":
            tree.payoff[i, 0] = 1.0  # the constant part: seat 0 gets 1 chip whatever the cards
        elif nd.kind == "fold":
            tree.payoff[i, 0] = 1.0

    ex = Exact(tree)
    assert ex.profile_value(ex.uniform()) == pytest.approx(1.0, abs=1e-12)


def test_state_index_round_trips_and_matches_the_layers(backend):
    tree = Tree(TWO_CARDS)
    for layer, counts in enumerate(tree.layer_counts):
        size = tree.layer_sizes[layer]
        for idx in range(0, size, max(1, size // 97)):
            hands = state_hands(tree.spec, counts, idx)
            assert state_index(tree.spec, hands) == idx
            assert tree.hands_of(layer, idx) == hands
            assert int(tree.hand[tree.layer_start[layer] + idx]) == sum(1 << p for p in hands[-1])


def test_layers_are_colex_and_complete(backend):
    spec = TWO_CARDS
    tree = Tree(spec)
    deal = tree.hand[:tree.layer_sizes[0]]
    assert (np.diff(deal.astype(np.float64)) > 0).all()  # colex = increasing masks
    assert colex_index(deal, spec.n_cards).tolist() == list(range(deal.size))
    # The draw-of-2 layer: every (deal, thrown pair, received pair of unseen cards), each once.
    layer = tree.layer_counts.index((2,))
    a, b = tree.layer_start[layer], tree.layer_start[layer + 1]
    assert b - a == math.comb(9, 2) * math.comb(7, 2)
    assert (tree.hand[a:b] & tree.seen[a:b] == tree.hand[a:b]).all()


# --------------------------------------------------------------------------------------- exploitability
def test_exploitability_units_and_strategy_inputs(backend):
    e = solve.exploitability(ONE_CARD, "uniform")
    assert e.chips == pytest.approx((e.values[0] + e.values[1]) / 2)
    assert e.mbb == pytest.approx(1000 * e.chips / ONE_CARD.big_bet)
    assert e.big_blinds == pytest.approx(e.chips / ONE_CARD.big_blind)
    # The same strategy as a table keyed by information state, by its text, and as a callable.
    uniform = solve.Strategy.uniform(ONE_CARD)
    table = {info: uniform.probabilities(info) for info in uniform.info_states()}
    by_text = {str(info): p for info, p in table.items()}
    for strat in (table, by_text, lambda info: table[info], uniform, uniform.probs):
        assert solve.exploitability(ONE_CARD, strat).chips == pytest.approx(e.chips, abs=1e-12)


def test_exploitability_refuses_bad_strategies(backend):
    with pytest.raises(SolveError, match="not a probability distribution"):
        solve.exploitability(ONE_CARD, np.full(Tree(ONE_CARD).strategy_size, 0.7))
    with pytest.raises(SolveError, match="has 1 entries|entries, not"):
        solve.exploitability(ONE_CARD, np.ones(1))
    with pytest.raises(SolveError, match="gives 'raise'"):
        solve.exploitability(ONE_CARD, lambda info: {"raise": 1.0})
    with pytest.raises(TypeError, match="a strategy must be"):
        solve.exploitability(ONE_CARD, 3)
    with pytest.raises(SolveError, match="unknown strategy"):
        solve.exploitability(ONE_CARD, "random")


def test_game_specs_are_checked(backend):
    with pytest.raises(SolveError, match="reshuffle"):
        GameSpec.of("badugi", ranks=3, suits=2, hand_size=2, draws=1)
    with pytest.raises(SolveError, match="suits must be 4..4"):
        GameSpec.of("badacey", ranks=6, suits=3, draws=1)
    with pytest.raises(SolveError, match="hand_size must be 5..5"):
        GameSpec.of("27", ranks=7, hand_size=4, draws=1)
    with pytest.raises(TypeError, match="ranks must be an int"):
        GameSpec.of("badugi", ranks=5.0, draws=1)
    with pytest.raises(TypeError, match="unknown field"):
        GameSpec.of("badugi", rank=5)
    with pytest.raises(SolveError, match="private states"):
        Tree(GameSpec.of("badugi", ranks=5, draws=1, cap=2), max_states=1_000_000)


def test_a_game_too_big_for_memory_is_refused_before_any_array(backend):
    """Mini Badugi passes the states bound (23,478,870) but has 4,930,984,215 strategy entries: refused
    with the count, not a MemoryError after building the tree."""
    mini = SMALL_GAMES["mini-badugi"]
    with pytest.raises(SolveError, match="4,930,984,215 strategy entries"):
        solve.best_response(mini, "uniform", 0)  # the full layers' own
    if backend == "python":  # the C twin plays "uniform" and solves on the compact path (test_solve_compact*.py)
        with pytest.raises(SolveError, match="4,930,984,215 strategy entries"):
            solve.exploitability(mini, "uniform")
        with pytest.raises(SolveError, match="strategy entries"):
            solve.cfr(mini, iterations=1)
    with pytest.raises(SolveError, match="strategy entries"):
        solve.cfr(mini, iterations=1, compact=False)
    # The bound is the one named: a game just under it builds.
    tree = Tree(GameSpec.of("badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1))
    with pytest.raises(SolveError, match=f"{tree.strategy_size:,} strategy entries"):
        Tree(tree.spec, max_entries=tree.strategy_size - 1)
    assert Tree(tree.spec, max_entries=tree.strategy_size).strategy_size == tree.strategy_size


@pytest.mark.backend_independent
def test_c_core_refuses_a_damaged_description():
    """Every index the C core reads is checked first: a wrong description is refused, never followed."""
    with kernel.using("c"):
        core = kernel.solver()
        tree = Tree(ONE_CARD)
    assert core is not None
    good = Exact(tree).arrays()
    spec = tree.spec
    damages = {
        "child": lambda a: a.__setitem__(0, 10_000),
        "layer": lambda a: a.__setitem__(0, 7),
        "offset": lambda a: a.__setitem__(0, tree.strategy_size),
        "layer_start": lambda a: a.__setitem__(1, a[1] + 1),
        "seen": lambda a: a.__setitem__(0, np.uint64(1 << 40)),
        "order": lambda a: a.__setitem__(0, 1_000_000),
        "kind": lambda a: a.__setitem__(0, 9),
        "chance": lambda a: a.__setitem__(1, np.nan),
        "n_child": lambda a: a.__setitem__(0, 3),
    }
    for name, damage in damages.items():
        arrays = {k: v.copy() for k, v in good.items()}
        damage(arrays[name])
        with pytest.raises(SolveError, match="refused"):
            core(arrays, spec.n_cards, spec.hand_size, 1, tree.strategy_size)
    for name in ("hand", "order", "payoff", "layer"):  # a short array: refused before any call reads it
        with pytest.raises(ValueError, match=f"description's {name} has"):
            core({**good, name: good[name][:-1].copy()}, spec.n_cards, spec.hand_size, 1, tree.strategy_size)
    with pytest.raises(TypeError, match="C-contiguous int32"):
        core({**good, "kind": good["kind"].astype(np.int64)}, spec.n_cards, spec.hand_size, 1, tree.strategy_size)
    ok = core(good, spec.n_cards, spec.hand_size, 1, tree.strategy_size)
    with pytest.raises(ValueError, match="entries"):
        ok.best_response(np.zeros(3), 0, None)


# -------------------------------------------------------------------------------------------- CFR
@pytest.mark.parametrize("method", ["cfr+", "dcfr", "cfr"])
@pytest.mark.exhaustive("python")
def test_cfr_converges(backend, method):
    r = solve.cfr(ONE_CARD_CAP2, iterations=100, method=method)
    assert r.iterations == 100 and r.curve[-1].iteration == 100
    bound = {"cfr+": 2.0, "dcfr": 0.5, "cfr": 20.0}[method]  # mbb/hand; uniform play: 630
    assert r.exploitability_mbb < bound
    # The reported figure is the strategy's exact exploitability.
    assert solve.exploitability(ONE_CARD_CAP2, r.strategy).mbb == pytest.approx(r.exploitability_mbb, rel=1e-9)
    assert reference.best_response(Tree(ONE_CARD_CAP2), r.strategy.probs, 0) == pytest.approx(
        solve.exploitability(ONE_CARD_CAP2, r.strategy).values[0], abs=1e-10)


def own_reach(exact: Exact, strat: np.ndarray) -> np.ndarray:
    """Each decision row's own reach (the product of its seat's probabilities on the way), in the
    strategy's layout: the weight of the row in a sequence-form average."""
    tree = exact.tree
    out = np.zeros(tree.strategy_size)

    def walk(node, reach):
        nd = tree.nodes[node]
        if nd.kind in ("fold", "showdown"):
            return
        p = nd.player
        rows = exact.rows(strat, node)
        exact.rows(out, node)[:] = reach[p][:, None]
        for a, c in enumerate(tree.children(node)):
            r = list(reach)
            r[p] = reach[p] * rows[:, a] if nd.kind == "bet" else np.repeat(
                (reach[p][:, None] * rows[:, exact._masks[a]]).reshape(-1),
                tree.layer_sizes[tree.layer(c, p)] // (rows.shape[0] * len(exact._masks[a])))
            walk(c, r)

    walk(0, [np.ones(tree.layer_sizes[0]), np.ones(tree.layer_sizes[0])])
    return out


@pytest.mark.parametrize("variant,weight", [(CFR, lambda t: 1.0), (CFR_PLUS, lambda t: t), (DCFR, lambda t: t ** 2.0)])
def test_cfr_average_is_the_sequence_form_average(backend, variant, weight):
    """The accumulated average is, row by row, the sum over iterations of the iteration's weight times the
    row's own reach times its strategy -- also in subtrees the opponent stopped reaching (whose rows a
    pruned traversal would leave out, biasing the average: it did, before this test)."""
    tree = Tree(ONE_CARD_CAP2)
    ex = Exact(tree)
    regret, average, manual = np.zeros(tree.strategy_size), np.zeros(tree.strategy_size), np.zeros(tree.strategy_size)
    for t in range(1, 40):
        current = np.zeros(tree.strategy_size)
        for i, nd in enumerate(tree.nodes):
            if nd.kind in ("bet", "draw"):
                ex.rows(current, i)[:] = ex._sigma(i, None, regret)
        manual += weight(t) * own_reach(ex, current) * current
        ex.cfr(regret, average, t, 1, variant)
    assert np.allclose(average, manual, rtol=1e-9, atol=1e-12)


def test_cfr_plus_reaches_a_target(backend):
    r = solve.cfr(ONE_CARD, target_mbb=1.0, iterations=20_000)
    assert r.stopped == "target_mbb" and r.exploitability_mbb <= 1.0
    assert [p.iteration for p in r.curve] == sorted(p.iteration for p in r.curve)


@pytest.mark.backend_independent
def test_cfr_twins_agree():
    """One iteration from the same regrets gives the same regrets and averages in both twins (regrets
    kept away from zero: regret matching reads a regret's sign, which a rounding may flip); whole runs
    reach the same exploitability closely."""
    tree = Tree(TWO_CARDS)
    rng = np.random.default_rng(5)
    r0 = rng.random(tree.strategy_size) + 0.1
    for variant in (CFR, CFR_PLUS, DCFR):
        got = {}
        for backend in ("python", "c"):
            with kernel.using(backend):
                r, a = r0.copy(), np.zeros_like(r0)
                Exact(tree).cfr(r, a, 3, 1, variant)
                got[backend] = (r, a)
        assert np.allclose(got["c"][0], got["python"][0], atol=1e-13)
        assert np.allclose(got["c"][1], got["python"][1], atol=1e-13)
    runs = {}
    for backend in ("python", "c"):
        with kernel.using(backend):
            runs[backend] = solve.cfr(ONE_BET, iterations=50).exploitability_mbb
    assert runs["c"] == pytest.approx(runs["python"], rel=1e-3)


def test_cfr_checkpoint_resumes_exactly(backend, tmp_path):
    path = tmp_path / "run.npz"
    whole = solve.cfr(ONE_CARD_CAP2, iterations=40, every=10)
    first = solve.cfr(ONE_CARD_CAP2, iterations=20, every=10, checkpoint=path)
    assert first.iterations == 20 and path.exists()
    rest = solve.cfr(ONE_CARD_CAP2, iterations=40, every=10, resume=path)
    assert rest.iterations == 40
    assert np.array_equal(rest.strategy.probs, whole.strategy.probs)
    assert [p.iteration for p in rest.curve] == [p.iteration for p in whole.curve]
    with pytest.raises(SolveError, match="checkpoint of cfr\\+, not dcfr"):
        solve.cfr(ONE_CARD_CAP2, iterations=50, method="dcfr", resume=path)
    with pytest.raises(SolveError, match="checkpoint of badugi R3 S2 H1 D1 cap2, not"):
        solve.cfr(ONE_CARD, iterations=50, resume=path)


def test_cfr_time_limit_and_arguments(backend):
    r = solve.cfr(ONE_CARD, time_limit=0.2)
    assert r.stopped == "time_limit" and r.iterations >= 1
    with pytest.raises(SolveError, match="a run needs a stop"):
        solve.cfr(ONE_CARD)
    with pytest.raises(SolveError, match="iterations must be a positive int"):
        solve.cfr(ONE_CARD, iterations=0)
    with pytest.raises(SolveError, match="unknown method"):
        solve.cfr(ONE_CARD, iterations=1, method="fictitious play")


def test_strategy_save_load(backend, tmp_path):
    r = solve.cfr(ONE_CARD, iterations=30)
    path = tmp_path / "s.npz"
    r.strategy.save(path)
    back = solve.Strategy.load(path)
    assert back.game == ONE_CARD and np.array_equal(back.probs, r.strategy.probs)
    assert not list(tmp_path.glob(".*tmp"))  # the temporary was renamed
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(SolveError, match="cannot read"):
        solve.Strategy.load(tmp_path / "bad.npz")


@pytest.mark.backend_independent
@pytest.mark.parametrize("name", ["s.arrow", "s.feather", "s.ipc", "s.npz"])
def test_strategy_save_load_arrow_and_npz(tmp_path, name):
    """A strategy round-trips through Arrow (by the name's suffix) and npz alike, bit for bit; either is
    read whatever its name (by its first bytes); a damaged or foreign Arrow file is a SolveError."""
    import pyarrow as pa

    r = solve.cfr(ONE_CARD, iterations=30)
    path = tmp_path / name
    r.strategy.save(path)
    arrow = path.read_bytes()[:6] == b"ARROW1"
    assert arrow == (name != "s.npz")
    (tmp_path / "renamed.bin").write_bytes(path.read_bytes())
    for p in (path, tmp_path / "renamed.bin"):
        back = solve.Strategy.load(p)
        assert back.game == ONE_CARD and np.array_equal(back.probs, r.strategy.probs)
    assert not list(tmp_path.glob(".*tmp"))
    if not arrow:
        return
    table = pa.ipc.open_file(pa.memory_map(str(path))).read_all()
    assert table.column_names == ["probs"] and table.column("probs")[0].values.to_numpy().tolist() == r.strategy.probs.tolist()
    whole = path.read_bytes()
    (tmp_path / "cut.arrow").write_bytes(whole[: len(whole) // 2])
    with pytest.raises(SolveError, match="cannot read"):
        solve.Strategy.load(tmp_path / "cut.arrow")
    foreign = tmp_path / "foreign.arrow"
    with pa.OSFile(str(foreign), "wb") as sink, pa.ipc.new_file(sink, table.schema.remove_metadata()) as w:
        w.write_table(table.replace_schema_metadata(None))
    with pytest.raises(SolveError, match="no header"):
        solve.Strategy.load(foreign)


@pytest.mark.backend_independent
def test_cfr_checkpoint_in_arrow_resumes_exactly(tmp_path):
    path = tmp_path / "run.arrow"
    whole = solve.cfr(ONE_CARD_CAP2, iterations=40, every=10)
    solve.cfr(ONE_CARD_CAP2, iterations=20, every=10, checkpoint=path)
    rest = solve.cfr(ONE_CARD_CAP2, iterations=40, every=10, resume=path)
    assert np.array_equal(rest.strategy.probs, whole.strategy.probs)


@pytest.mark.backend_independent
def test_arrow_without_pyarrow_is_one_line_naming_the_extra(tmp_path, monkeypatch):
    import sys

    from badacey_fast.errors import MissingExtraError

    strat = solve.Strategy.uniform(ONE_CARD)
    strat.save(tmp_path / "s.arrow")
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if the extra were not installed
    for act in (lambda: strat.save(tmp_path / "t.arrow"), lambda: solve.Strategy.load(tmp_path / "s.arrow")):
        with pytest.raises(MissingExtraError) as caught:
            act()
        assert str(caught.value) == 'Arrow strategy files need pyarrow: pip install "badacey_fast[parquet]"'
    assert not (tmp_path / "t.arrow").exists()
    strat.save(tmp_path / "t.npz")  # npz needs nothing more
    assert np.array_equal(solve.Strategy.load(tmp_path / "t.npz").probs, strat.probs)


# ------------------------------------------------------------------------------------- isomorphism
@pytest.mark.backend_independent
def test_class_counts_by_brute_force():
    """Classes of 4-card hands: the distinct minima over all 24 suit permutations of every hand (the
    definition)."""
    hands = np.array(list(itertools.combinations(range(52), 4)), np.int64)
    best = None
    for perm in itertools.permutations(range(4)):
        p = np.array(perm)
        renamed = np.sort((hands & ~3) | p[hands & 3], axis=1)
        key = (renamed * np.array([52 ** 3, 52 ** 2, 52, 1])).sum(axis=1)
        best = key if best is None else np.minimum(best, key)
    assert np.unique(best).size == 16432
    assert solve.n_classes(4) == 16432


@pytest.mark.exhaustive
@pytest.mark.backend_independent
def test_five_card_class_count_by_brute_force():
    """Classes of 5-card hands: the distinct multisets of the four suits' rank masks (two hands are
    isomorphic exactly when some renaming maps one's masks onto the other's)."""
    five = solve.iso.colex_rows(52, 5)
    masks = np.zeros((five.shape[0], 4), np.int64)
    for j in range(5):
        for s in range(4):
            masks[:, s] |= np.where(five[:, j] & 3 == s, 1 << (five[:, j] >> 2), 0)
    masks.sort(axis=1)
    assert np.unique((masks[:, 0] << 39) | (masks[:, 1] << 26) | (masks[:, 2] << 13) | masks[:, 3]).size == 134459
    for size, count in solve.iso.N_CLASSES.items():
        assert solve.n_classes(size) == count


@pytest.mark.backend_independent
def test_class_tables_twins_agree():
    for size in (1, 2, 3, 4):
        with kernel.using("c"):
            c = solve.iso.class_table(size)
        with kernel.using("python"):
            p = solve.iso.class_table(size)
        assert np.array_equal(c[0], p[0]) and np.array_equal(c[1], p[1])


@pytest.mark.parametrize("sizes", [(1, 2, 3, 4), pytest.param((5,), marks=pytest.mark.exhaustive)])
def test_canonical_is_invariant_and_inverse(backend, sizes):
    rng = np.random.default_rng(7)
    for _ in range(200):
        size = int(rng.choice(sizes))
        hand = [int(c) for c in rng.choice(52, size, replace=False)]
        perm = rng.permutation(4)
        renamed = [(c & ~3) | int(perm[c & 3]) for c in hand]
        k = solve.canonical(hand)
        assert solve.canonical(renamed) == k
        assert solve.canonical_hand(renamed) == solve.canonical_hand(hand) == solve.hand_of_class(size, k)
        # Sequences: renaming every stage alike keeps the canonical form.
        other = [int(c) for c in rng.choice(52, size, replace=False)]
        rother = [(c & ~3) | int(perm[c & 3]) for c in other]
        assert solve.canonical_sequence([hand, other]) == solve.canonical_sequence([renamed, rother])
    assert solve.canonical_sequence(["As 2s", "As 3h"]) == ((0, 4), (0, 9))


def test_canonical_refuses_bad_input(backend):
    with pytest.raises(DuplicateCardError):
        solve.canonical("As As")
    with pytest.raises(HandSizeError):
        solve.canonical("As 2s 3s 4s 5s 6s")
    with pytest.raises(HandSizeError):
        solve.canonical_sequence(["As 2s", "As"])
    with pytest.raises(SolveError, match="outside 0..16431"):
        solve.hand_of_class(4, 16432)
    with pytest.raises(TypeError):
        solve.n_classes("4")


def test_information_state_index_is_canonical_and_inverted(backend):
    spec = TWO_CARDS
    strat = solve.Strategy.uniform(spec)
    rng = np.random.default_rng(9)
    infos = list(strat.info_states())
    for k in rng.choice(len(infos), 60, replace=False):
        info = infos[int(k)]
        node, idx = solve.info_state_index(spec, info, canonical=False)
        assert solve.info_state(spec, node, idx) == info
        perm = rng.permutation(3)  # the deck has 3 suits: rename them
        renamed = info._replace(hands=tuple(tuple((c & ~3) | int(perm[c & 3]) for c in h) for h in info.hands))
        assert solve.info_state_index(spec, renamed) == solve.info_state_index(spec, info)
    with pytest.raises(InformationStateError, match="outside"):
        solve.info_state(spec, 0, 10 ** 6)


@pytest.mark.backend_independent
def test_locate_names_an_unknown_information_state():
    # A state the game has not is a ValueError naming it (it was a bare KeyError), whatever is wrong.
    spec = GameSpec.of("badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1)
    strat = solve.Strategy.uniform(spec)
    good = solve.InfoState(0, ("c", "k", "d0", "d0", "k"), ((0,), (0,)), ())
    assert strat.locate(good)[0] == strat.tree.find(good.history)
    cases = {
        good._replace(history=("c", "x")): "no public node c x",
        good._replace(seat=1): "seat 1 does not act",
        good._replace(hands=((0,), (51,))): "card 51 is not in the deck",
        good._replace(hands=((0,),)): r"holds 2 hand\(s\) of 1 cards, not \[1\]",
        good._replace(hands=((0,), (4,))): r"throw \[1\] card\(s\), the public draws \[0\]",
    }
    for info, why in cases.items():
        with pytest.raises(InformationStateError, match=why) as caught:
            strat.probabilities(info)
        assert isinstance(caught.value, ValueError) and str(info) in str(caught.value)
    two = solve.Strategy.uniform(GameSpec.of("badugi", ranks=4, suits=3, hand_size=1, draws=2, cap=1))
    node = next(i for i, v in enumerate(two.tree.nodes) if v.kind == "bet" and v.player == 0 and v.counts[0] == (1, 1))
    again = solve.InfoState(0, two.tree.nodes[node].history, ((0,), (4,), (0,)), ())  # dealt again a card it threw
    with pytest.raises(InformationStateError, match="not one seat's hands"):
        two.locate(again)
    assert two.locate(again._replace(hands=((0,), (4,), (8,))))[0] == node
