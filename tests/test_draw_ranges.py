"""Ranges (badacey_fast.draw.ranges) and equity against them (badacey_fast.draw.range_equity).

Combo counts are checked against an independent numpy brute force over every hand (ranks, suits and
subsets counted directly, no rank table); equities against a brute force with the reference evaluator.
"""

from __future__ import annotations

from itertools import combinations, product
from math import comb

import numpy as np
import pytest

from badacey_fast import RangeError, format_cards, parse_cards
from badacey_fast.draw import Range, range_equity
from badacey_fast.draw.range_equity import rule_policy
from badacey_fast.draw.ranges import _hands
from badacey_fast.errors import BadaceyError, DuplicateCardError
from badacey_fast.rules import reference
from badacey_fast.rules.games import scoring

# ---------------------------------------------------------------------------------------------------
# Independent brute force: features of every hand straight from its cards


def _values(hands: np.ndarray, ace_high: bool) -> np.ndarray:
    v = (hands >> 2).astype(np.int64) + 1
    if ace_high:
        v[v == 1] = 14
    return v


def _lex_le(a: np.ndarray, run: tuple[int, ...]) -> np.ndarray:
    """Rows of a (N, L) array lexicographically <= run."""
    less = np.zeros(len(a), dtype=bool)
    equal = np.ones(len(a), dtype=bool)
    for i, r in enumerate(run):
        less |= equal & (a[:, i] < r)
        equal &= a[:, i] == r
    return less | equal


def _low_brute(hands: np.ndarray, ace_high: bool):
    v = -np.sort(-_values(hands, ace_high), axis=1)
    distinct = np.all(v[:, :-1] != v[:, 1:], axis=1)
    nopair = distinct
    if ace_high:
        straight = distinct & (v[:, 0] - v[:, 4] == 4)
        flush = np.all((hands & 3) == (hands[:, :1] & 3), axis=1)
        nopair = distinct & ~straight & ~flush
    return nopair, v


#: Sorting networks for 1 to 4 columns (compare-exchange pairs): each subset's values sorted highest first
#: with elementwise max/min over whole columns, four times quicker than numpy's per-row sort of 2.6 M rows.
_NETWORK = {1: (), 2: ((0, 1),), 3: ((0, 1), (1, 2), (0, 1)), 4: ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2))}


def _badugi_brute(hands: np.ndarray, ace_high: bool):
    """(best size, the best badugi's values highest first padded with 0) of every row."""
    vals = _values(hands, ace_high).astype(np.int32)
    suits = (hands & 3).astype(np.int8)
    n, k = hands.shape
    size = np.zeros(n, dtype=np.int64)
    best = np.zeros((n, 4), dtype=np.int64)
    none = np.iinfo(np.int32).max  # 15**4 keys fit in int32
    for s in range(1, min(4, k) + 1):
        low = np.full(n, none, dtype=np.int32)  # the lowest key of a valid s-card badugi, per row
        for sub in combinations(range(k), s):
            sv = [vals[:, c] for c in sub]
            ss = [suits[:, c] for c in sub]
            ok = np.ones(n, dtype=bool)
            for i, j in combinations(range(s), 2):
                ok &= (sv[i] != sv[j]) & (ss[i] != ss[j])
            for i, j in _NETWORK[s]:
                sv[i], sv[j] = np.maximum(sv[i], sv[j]), np.minimum(sv[i], sv[j])
            key = np.zeros(n, dtype=np.int32)
            for col in sv:
                key = key * 15 + col
            np.minimum(low, np.where(ok, key, none), out=low)
        has = low < none
        size = np.where(has, s, size)
        for i in range(s):
            digit = (low // 15 ** (s - 1 - i)) % 15
            best[:, i] = np.where(has, digit, best[:, i])
        best[has, s:] = 0
    return size, best


_R = {ch: i for i, ch in enumerate("A23456789TJQK")}


def _run(text: str, ace_high: bool) -> tuple[int, ...]:
    return tuple(14 if ace_high and ch == "A" else _R[ch] + 1 for ch in text)


class _Brute:
    """Every hand's features, each computed on first use: a pytest worker computes only those its tests
    ask for (the five-card badugi brute force alone is seconds of numpy)."""

    def __init__(self) -> None:
        self._low: dict[bool, tuple[np.ndarray, np.ndarray]] = {}
        self._badugi: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]] = {}

    def low(self, ace_high: bool) -> tuple[np.ndarray, np.ndarray]:
        if ace_high not in self._low:
            self._low[ace_high] = _low_brute(_hands(5), ace_high)
        return self._low[ace_high]

    def badugi(self, k: int, ace_high: bool) -> tuple[np.ndarray, np.ndarray]:
        if (k, ace_high) not in self._badugi:
            self._badugi[k, ace_high] = _badugi_brute(_hands(k), ace_high)
        return self._badugi[k, ace_high]


@pytest.fixture(scope="module")
def brute() -> _Brute:
    return _Brute()


def _expected(term: str, game: str, brute: _Brute) -> np.ndarray:
    sc = scoring(game)
    if term.endswith(("low", "low+")):
        plus = term.endswith("+")
        run = _run(term.replace("low", "").rstrip("+"), sc.ace_high)
        nopair, v = brute.low(sc.ace_high)
        head = v[:, : len(run)]
        return nopair & (_lex_le(head, run) if plus else np.all(head == run, axis=1))
    plus = term.endswith("+")
    size, best = brute.badugi(sc.hand_size, sc.ace_high)
    body = term.rstrip("+").replace("badugi", "")
    if body == "":
        return size == 4
    if body in ("1", "2", "3", "4"):
        return size >= int(body) if plus else size == int(body)
    if "-" in body:
        run_text, n = body.split("-")
        n = int(n)
    else:
        run_text, n = body, 4
    run = _run(run_text, sc.ace_high)
    head = best[:, : len(run)]
    return (size == n) & (_lex_le(head, run) if plus else np.all(head == run, axis=1))


TERMS = {
    "badacey": ["8low+", "8low", "86low+", "86low", "8654low+", "65432low+", "5432Alow", "Klow", "badugi",
                "9badugi+", "9badugi", "96badugi+", "3badugi", "3badugi+", "7-3badugi+", "7-3badugi",
                "T7-3badugi+", "2badugi", "1badugi", "K-2badugi+"],
    "badeucy": ["8low+", "8low", "86low+", "8654low+", "7low", "Alow+", "AKQJ9low", "badugi", "9badugi+",
                "5badugi+", "3badugi", "3badugi+", "7-3badugi+", "T-1badugi+"],
    "badugi": ["badugi", "9badugi+", "9badugi", "4badugi", "3badugi", "3badugi+", "7-3badugi+", "2badugi+"],
    "a5": ["8low+", "9badugi+"],
    "27": ["8low+", "7low", "3badugi+"],
}


@pytest.mark.parametrize("game,term", [(g, t) for g, ts in TERMS.items() for t in ts])
def test_term_counts_match_brute_force(game, term, brute):
    r = Range(term, game)
    expected = _expected(term, game, brute)
    assert len(r) == int(expected.sum()) > 0
    cards, weights = r.combos()
    assert np.array_equal(cards, _hands(r.hand_size)[expected])
    assert np.all(weights == 1.0)


def test_counts_by_formula():
    assert len(Range("any")) == 2598960 and len(Range("any", "badugi")) == 270725
    assert len(Range("8low+")) == 56 * 4**5  # five distinct ranks from A..8
    assert len(Range("badugi", "badugi")) == 715 * 24
    assert len(Range("As2h3d4c5s")) == 1


def test_thresholds_follow_the_reference():
    from badacey_fast.draw.ranges import low_interval

    assert reference.describe_low_rank(low_interval((7,), "badacey")[1], "badacey") == "8-7-6-5-4 low"
    assert reference.describe_low_rank(low_interval((7,), "badeucy")[1], "badeucy") == "8-7-6-5-3 low"
    assert reference.describe_low_rank(low_interval((7, 5), "badacey")[1], "badacey") == "8-6-5-4-3 low"


def test_combinations_weights_and_card_removal(brute):
    r = Range("0.5*8low+, 9badugi+ & !86low+", "badacey")
    a, b, c = (_expected(t, "badacey", brute) for t in ("8low+", "9badugi+", "86low+"))
    w = np.maximum(np.where(a, 0.5, 0.0), (b & ~c).astype(float))
    cards, weights = r.combos()
    assert np.array_equal(cards, _hands(5)[w > 0]) and np.array_equal(weights, w[w > 0])
    dead = parse_cards("As 2h 8c")
    cards, weights = r.combos(dead="As 2h 8c")
    free = ~np.isin(_hands(5), dead).any(axis=1)
    assert np.array_equal(cards, _hands(5)[(w > 0) & free]) and np.array_equal(weights, w[(w > 0) & free])
    assert not np.isin(cards, dead).any()
    # "&" takes the smallest weight, a constant mixes in
    assert np.all(Range("0.5*8low+ & 0.25*any").combos()[1] == 0.25)
    assert len(Range("!any")) == 0 and len(Range("!!any")) == 2598960
    assert len(Range("As 2h 3d 4c 5s, 2c3d4h5s6c")) == 2


@pytest.mark.parametrize("text,canonical", [
    ("8LOW+,9Badugi+", "8low+, 9badugi+"),
    ("(8low+ , 9badugi+) & !(3badugi)", "(8low+, 9badugi+) & !3badugi"),
    ("0.50 * (86low+ & badugi+)", "0.5*(86low+ & badugi)"),
    ("!0.5*any", "!0.5*any"),
    ("5s 4h 3d 2c As", "As2c3d4h5s"),
    ("t9-3badugi+, ((7low))", "T9-3badugi+, 7low"),
    ("a, b" .replace("a", "8low").replace("b", "any"), "8low, any"),
])
def test_canonical_text_round_trips(text, canonical):
    r = Range(text, "badacey")
    assert r.text == canonical and repr(r) == f"Range({canonical!r}, game='badacey')"
    assert eval(repr(r), {"Range": Range}) == r


def test_equality():
    assert Range("8low+") == Range("8low+, 7low")
    assert Range("8low+") != Range("8low+", "a5")
    assert Range("0.5*8low+") != Range("8low+")
    assert Range("any") == Range("!(!any)") and hash(Range("any")) == hash(Range("!!any"))


@pytest.mark.parametrize("text,game,token,column,words", [
    ("", "badacey", "", 0, "empty range"),
    ("8low+ |", "badacey", "|", 6, "unexpected character"),
    ("8low+ 9badugi+", "badacey", "9badugi+", 6, "unexpected token"),
    ("8low+,", "badacey", "", 6, "expected a term"),
    ("(8low+", "badacey", "", 6, "expected ')' for the '(' at column 0"),
    ("8low+)", "badacey", ")", 5, "unmatched ')'"),
    ("8low+ & ,", "badacey", ",", 8, "expected a term"),
    ("foo", "badacey", "foo", 0, "unknown term"),
    ("any, 8lowx", "badacey", "8lowx", 5, "unknown term"),
    ("68low+", "badacey", "68low+", 0, "from the highest down"),
    ("88low+", "badacey", "88low+", 0, "from the highest down"),
    ("87654low+", "badeucy", "87654low+", 0, "no 2-7 no-pair low starts 8-7-6-5-4"),
    ("A8low", "badacey", "A8low", 0, "from the highest down"),
    ("8low+", "badugi", "8low+", 0, "no five-card low"),
    ("32badugi", "badacey", "32badugi", 0, "no 4-card badugi starts 3-2"),
    ("9876-3badugi", "badacey", "9876-3badugi", 0, "no 4-card start"),
    ("0.5 8low+", "badacey", "0.5", 0, "followed by '*'"),
    ("1.5*8low+", "badacey", "1.5", 0, "at most 1"),
    ("0*8low+", "badacey", "0", 0, "above 0"),
    ("As2h3d4c", "badacey", "As2h3d4c", 0, "has 5 cards, got 4"),
    ("As2h3d4c5s", "badugi", "As2h3d4c5s", 0, "has 4 cards, got 5"),
    ("any, As 2h 3d 4c Xx", "badacey", "Xx", 17, "not a card"),
    ("As2h3d4cAs", "badacey", "As2h3d4cAs", 0, "given twice"),
    ("any & (!)", "badacey", ")", 8, "expected a term"),
])
def test_errors_name_token_and_column(text, game, token, column, words):
    with pytest.raises(RangeError, match=None) as info:
        Range(text, game)
    e = info.value
    assert isinstance(e, ValueError)
    assert (e.token, e.column) == (token, column), str(e)
    assert words in str(e) and f"column {column}" in str(e)


def test_type_errors():
    with pytest.raises(TypeError):
        Range(5)
    with pytest.raises(BadaceyError, match="unknown game"):
        Range("any", "razz")


# ---------------------------------------------------------------------------------------------------
# Equity


def _ref_ranks(hand, sc):
    fam = "badeucy" if sc.ace_high else "badacey"
    return {"low": reference.low_rank(hand, fam) if sc.hand_size == 5 else None,
            "badugi": reference.badugi_rank(hand, sc.ace_high)}


def _brute_equity(hero, villains, game, dead=()):
    """Weighted mean of per-deal shares over every conflict-free tuple of combos, with the reference."""
    sc = scoring(game)
    hero = parse_cards(hero)
    lists = [list(zip(*(lambda cw: (cw[0].tolist(), cw[1].tolist()))(Range(v, game).combos(dead=hero + parse_cards(dead)))))
             for v in villains]
    total, acc = 0.0, np.zeros(1 + len(villains))
    cache = {}
    for tup in product(*lists):
        cards = [c for hand, _ in tup for c in hand]
        if len(set(cards)) != len(cards):
            continue
        w = float(np.prod([wt for _, wt in tup]))
        hands = [tuple(hero)] + [tuple(h) for h, _ in tup]
        share = np.zeros(len(hands))
        for half in sc.halves:
            ranks = []
            for h in hands:
                if h not in cache:
                    cache[h] = _ref_ranks(h, sc)
                ranks.append(cache[h][half])
            best = min(ranks)
            winners = [i for i, r in enumerate(ranks) if r == best]
            for i in winners:
                share[i] += 1 / len(winners) / len(sc.halves)
        acc += w * share
        total += w
    return acc / total


@pytest.mark.parametrize("game,hero,villains", [
    ("badacey", "As 2h 3d 4c Kd", ["6low+, 0.5*7-3badugi+ & 9low"]),
    ("badeucy", "7s 5h 4d 3c 2s", ["7low, 5badugi+"]),
    ("badugi", "As 2h 3d Kc", ["6badugi+, 0.3*4-3badugi+"]),
    ("a5", "As 2h 3d 4c 7s", ["6low+"]),
    ("27", "8s 5h 4d 3c 2s", ["7low"]),
    ("badacey", "As 2h 3d 4c Kd", ["5432Alow, 2c3d4h5s6c", "0.5*6543Alow, Ac2d3h4s5c"]),
    ("badeucy", "8s 5h 4d 3c 2s", ["7643low", "As2c3d4h5s, 8c6d4s3h2c", "75432low & !7c5d4h3s2c"]),
])
def test_exact_equity_matches_brute_force(game, hero, villains, backend):
    eq = range_equity(hero, villains, game=game, dead="Qs")
    want = _brute_equity(hero, villains, game, dead="Qs")
    assert eq.exact
    assert np.allclose(eq.shares, want, atol=1e-12), (eq.shares, want)
    assert abs(sum(eq.shares) - 1) < 1e-9


def test_heads_up_against_any_both_backends(backend):
    eq = range_equity("As 2h 3d 4c Kd", "any", game="badugi" if False else "badacey")
    assert eq.exact and eq.outcomes == 1533939
    from badacey_fast.kernel import backend as b
    with b.using("c"):
        ref = range_equity("As 2h 3d 4c Kd", "any")
    assert eq.shares == ref.shares


def test_monte_carlo_within_three_standard_errors():
    exact = range_equity("As 2h 3d 4c Kd", "8low+, 9badugi+")
    mc = range_equity("As 2h 3d 4c Kd", "8low+, 9badugi+", samples=20_000, seed=3)
    assert not mc.exact and mc.outcomes == 20_000
    assert abs(mc.shares[0] - exact.shares[0]) < 3 * mc.stderr[0]
    villains = ["5432Alow, 2c3d4h5s6c", "0.5*6543Alow, Ac2d3h4s5c"]
    exact = range_equity("As 2h 3d 4c Kd", villains)
    mc = range_equity("As 2h 3d 4c Kd", villains, samples=20_000, seed=4)
    for i in range(3):
        assert abs(mc.shares[i] - exact.shares[i]) < 3 * mc.stderr[i] + 1e-12
    assert mc == range_equity("As 2h 3d 4c Kd", villains, samples=20_000, seed=4)  # reproducible


def test_multiway_sampled_beyond_the_exact_limit():
    eq = range_equity("As 2h 3d 4c Kd", ["8low+", "9badugi+"], samples=5_000, seed=1)
    assert not eq.exact and len(eq.shares) == 3 and abs(sum(eq.shares) - 1) < 1e-9
    assert all(e > 0 for e in eq.stderr)


def test_card_removal_between_villains():
    # both villains want the same two hands: they must hold different ones
    eq = range_equity("Kc Kd Ks Qc Qd", ["As2h3d4c5s, Ac2d3h4s5c", "As2h3d4c5s, Ac2d3h4s5c"])
    assert eq.exact and eq.outcomes == 2 and eq.shares == (0.0, 0.5, 0.5)
    with pytest.raises(BadaceyError, match="cannot all be held"):
        range_equity("Kc Kd Ks Qc Qd", ["As2h3d4c5s", "As2h3d4c5s"])
    with pytest.raises(BadaceyError, match="cannot all be held"):
        range_equity("Kc Kd Ks Qc Qd", ["As2h3d4c5s", "As2h3d4c5s"], samples=10, seed=1)
    with pytest.raises(BadaceyError, match="no hand left"):
        range_equity("As 2h 3d 4c Kd", "5432Alow & As2c3c4c5c")
    with pytest.raises(DuplicateCardError):
        range_equity("As 2h 3d 4c Kd", "any", dead="As")


def test_draws_match_exact_equity_of_known_hands():
    from badacey_fast.draw.equities import equity

    villain = "2c 3s 4h 5d Kc"
    thrown = rule_policy("badacey")(parse_cards(villain), 1)
    exact = equity(["As 2h 3d Kc Kd".replace("Kc", "Qc"), villain], discards=["Qc Kd", thrown])
    mc = range_equity("As 2h 3d Qc Kd", villain.replace(" ", ""), draws=1, hero_discard="Qc Kd",
                      samples=20_000, seed=5)
    assert exact.exact and not mc.exact
    assert abs(mc.shares[0] - exact.shares[0]) < 3 * mc.stderr[0]


def test_draws_reproducible_and_default_hero_discard(backend):
    # The Python twin's default hero discard is best_discards over the whole deck: ~2 minutes of the
    # reference for a five-card hand, a fraction of a second for a four-card one.  So it checks
    # reproducibility on Badugi; the C twin on Badacey with ranked ranges.
    if backend == "c":
        hero, villains, game = "As 2h 3d 4c Kd", ["8low+, 9badugi+", "3badugi+"], "badacey"
    else:
        hero, villains, game = "As 2h 3d Kc", ["2c 3s 4h 5d, 2d 3c 4s 6h", "5c 6d 7h 8s, 9c Td Jh Ks"], "badugi"
    n = 300 if backend == "c" else 30
    a = range_equity(hero, villains, game=game, draws=3, samples=n, seed=7)
    b = range_equity(hero, villains, game=game, draws=3, samples=n, seed=7)
    assert a == b and not a.exact and abs(sum(a.shares) - 1) < 1e-9
    games = (("badugi", "As 2h 3d Kc"), ("27", "7s 5h 4d 3c Kc"), ("badeucy", "2s 3h 4d 5c Kc"))
    # Every game on the C twin; the Python twin plays the four-card one (its five-card best_discards are
    # checked against a brute force in tests/test_draw_outcomes.py).
    for game, hero in games if backend == "c" else games[:1]:
        eq = range_equity(hero, "any", game=game, draws=2, samples=200 if backend == "c" else 20, seed=1)
        assert len(eq.shares) == 2 and abs(sum(eq.shares) - 1) < 1e-9
    pat = lambda hand, left: ()  # noqa: E731
    eq = range_equity("As 2h 3d 4c 5s", "8low", draws=1, hero_discard=pat, policy=pat,
                      samples=4000 if backend == "c" else 1000, seed=1)
    now = range_equity("As 2h 3d 4c 5s", "8low")  # everyone pat: the showdown now
    assert abs(eq.shares[0] - now.shares[0]) < 3 * eq.stderr[0]


def test_draws_are_dealt_by_the_one_stub(monkeypatch):
    # range_equity's draws go through rules.stub.Stub.draw (RULES.md §4, the engine's own dealer): every
    # seat's discards of every draw, and the reshuffles a deep draw needs.
    from badacey_fast.rules import stub as stub_module

    served = []
    original = stub_module.Stub.draw

    def spy(self, discards, n=None):
        out = original(self, discards, n)
        served.append((len(discards), len(out), len(self.reshuffles)))
        return out

    monkeypatch.setattr(stub_module.Stub, "draw", spy)
    throw_all = lambda hand, left: hand  # noqa: E731
    range_equity("As 2h 3d 4c 5s", ["any"] * 5, draws=3, hero_discard=throw_all, policy=throw_all, samples=3,
                 seed=2)
    assert len(served) == 3 * 3 * 6 and all(k == n == 5 for k, n, _ in served)
    assert max(r for _, _, r in served) >= 2  # six seats throwing five cards three times must reshuffle


def test_argument_errors():
    with pytest.raises(BadaceyError, match="draws must be 0 to 3"):
        range_equity("As 2h 3d 4c Kd", "any", draws=4)
    with pytest.raises(BadaceyError, match="hero_discard needs"):
        range_equity("As 2h 3d 4c Kd", "any", hero_discard="Kd")
    with pytest.raises(BadaceyError, match="badugi range, not badacey"):
        range_equity("As 2h 3d 4c Kd", Range("any", "badugi"))
    with pytest.raises(TypeError):
        range_equity("As 2h 3d 4c Kd", 5)
    with pytest.raises(BadaceyError, match="samples must be at least 1"):
        range_equity("As 2h 3d 4c Kd", "any", samples=0)


# ---------------------------------------------------------------------------------------------------
# CLI


def _cli(capsys, *argv):
    from badacey_fast.cli.command import main

    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_cli_equity_vs_ranges(capsys):
    status, out, _ = _cli(capsys, "equity", "As 2h 3d 4c Kd", "--vs", "8low+, 9badugi+")
    assert status == 0 and "exact over 86,891 combos" in out and "seat 0: share 0.6458" in out
    assert "+/-" not in out.replace("+/- one standard error where sampled", "")
    status, out, _ = _cli(capsys, "equity", "As 2h 3d 4c Kd", "--vs", "8low+", "--vs", "9badugi+",
                          "--draws", "1", "--samples", "500", "--seed", "1", "--discard", "Kd")
    assert status == 0 and "Monte Carlo, 500 samples, seed 1" in out and out.count("+/-") == 4
    status, out, _ = _cli(capsys, "equity", "As 2h 3d 4c", "--game", "badugi", "--vs", "9badugi+")
    assert status == 0 and "half" not in out.split("\n", 1)[1]
    status, _, err = _cli(capsys, "equity", "As 2h 3d 4c Kd", "--vs", "8low+ 9badugi+")
    assert status == 2 and "unexpected token: '9badugi+' at column 6" in err and "Traceback" not in err
    status, _, err = _cli(capsys, "equity", "As 2h 3d 4c Kd", "2c 3d 4h 5s 6c", "--vs", "any")
    assert status == 2 and "hero's hand alone" in err


# ---------------------------------------------------------------------------------------------------
# Limits: nesting, terms, weights, memory (issue 22)

from badacey_fast.draw.ranges import MAX_DEPTH, MAX_TERMS, MIN_WEIGHT


@pytest.mark.parametrize("open_,close", [("(", ")"), ("!", ""), ("1*", ""), ("0.5*", "")])
def test_nesting_is_bounded_with_a_range_error_naming_the_limit(open_, close):
    text = open_ * MAX_DEPTH + "8low+" + close * MAX_DEPTH  # the deepest a range may be
    weight = 0.5 ** MAX_DEPTH if open_.startswith("0.5") else 1.0
    r = Range(text)
    expected = Range("8low+") if open_ != "!" or MAX_DEPTH % 2 == 0 else Range("!8low+")
    assert len(r) == len(expected) and np.array_equal(r.combos()[0], expected.combos()[0])
    assert np.allclose(r.combos()[1], weight, rtol=1e-5)
    for depth in (MAX_DEPTH + 1, 330, 3000):  # ~330 parentheses, 1,000 '!' or 3,000 weights recursed too deep
        with pytest.raises(RangeError, match=f"more than {MAX_DEPTH} nested operators") as info:
            Range(open_ * depth + "8low+" + close * depth)
        assert info.value.column == MAX_DEPTH * len(open_)


def test_terms_are_bounded_and_repeats_cost_nothing():
    with pytest.raises(RangeError, match=f"more than {MAX_TERMS:,} terms") as info:
        Range(", ".join(["8low+"] * (MAX_TERMS + 1)))  # refused while parsing: nothing evaluated
    assert info.value.column == len("8low+, ") * MAX_TERMS
    assert Range(" & ".join(["8low+"] * MAX_TERMS)) == Range("8low+")  # 26 GB before
    assert Range(", ".join(["9badugi+", "0.5*8low+"] * (MAX_TERMS // 2))) == Range("9badugi+, 0.5*8low+")


def _peak(fn):
    import tracemalloc

    tracemalloc.start()  # numpy reports its buffers to tracemalloc
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("text", [
    " & ".join(["8low+"] * 150),  # 0.4 GB before (5.1 GB for 2,000): one whole-deck array per repetition
    ", ".join(f"{t} & !{u}" for t in ("7low+", "8low+", "9low+", "86low+") for u in ("8badugi+", "9badugi+", "3badugi")),
    "".join("8low+, (9badugi+ & (" for _ in range(12)) + "0.5*any" + "))" * 12,  # an accumulator per level
])
def test_memory_does_not_grow_with_repetitions_or_depth(text):
    Range("8low+, 9badugi+, 3badugi").combos()  # the process-wide rank tables, once
    deck = comb(52, 5)
    peak = _peak(lambda: Range(text)._weights())
    assert peak < 6 * 4 * deck, peak  # a few float32 whole-deck arrays at most


def test_a_list_of_hands_is_held_as_rows():
    hands = [format_cards(c).replace(" ", "") for c in combinations(range(20), 5)][:150]
    text = ", ".join(f"0.5*{h}" for h in hands)
    peak = _peak(lambda: Range(text)._weights())
    assert peak < 3 * 4 * comb(52, 5), peak  # 150 whole-deck arrays (0.4 GB) before
    cards, weights = Range(text).combos()
    assert sorted(map(tuple, cards.tolist())) == sorted(combinations(range(20), 5))[:150]
    assert np.all(weights == 0.5)


_TINY_TEXT = "0." + "0" * 45 + "1"  # 1e-46: float32 makes it 0
_SMALL_OK = np.format_float_positional(MIN_WEIGHT * 1.001, unique=True, trim="-")


@pytest.mark.parametrize("term", ["any", "As2h3d4c5s", "8low+", "7-3badugi+", "!8low+", "(any, As2h3d4c5s)"])
def test_weights_that_underflow_are_refused_for_every_kind_of_term(term):
    # Before: a weight below ~1e-45 dropped hands and intervals (float32 zero) but kept `any` (a float64).
    for text in (f"{_TINY_TEXT}*{term}", f"0.000000001*0.000000001*0.000000001*0.000000001*0.000000001*{term}"):
        with pytest.raises(RangeError, match="below the smallest a range holds") as info:
            Range(text)
        assert info.value.token in text and info.value.token.startswith("0.")
    r = Range(f"{_SMALL_OK}*{term}")  # the smallest weight held: no term drops its hands
    cards, weights = r.combos()
    assert len(r) == len(Range(term)) > 0 and np.all(weights >= MIN_WEIGHT)
    # Under a '!' the weights start again (it gives 0 or 1): 1e-10 around it and 1e-30 inside are fine.
    tiny = "0.0000000001*"
    assert Range(f"{tiny}!({tiny * 3}{term})") == Range(f"{tiny}!({term})")


def test_weights_are_float32_for_every_kind_of_term():
    # `any` is a constant, a hand a list of rows, an interval an array: each holds 0.3 as float32 does.
    w = {t: set(Range(f"0.3*{t}").combos()[1].tolist()) for t in ("any", "As2h3d4c5s", "8low+")}
    assert w["any"] == w["As2h3d4c5s"] == w["8low+"] == {float(np.float32(0.3))}


@pytest.mark.parametrize("weight", ["0.1234567", "0.00001", "0.000000000000000000000000000001", "1", "0.99999999"])
def test_weights_in_the_canonical_text_read_back(weight):
    r = Range(f"{weight}*8low+, 9badugi+")
    assert r.text == f"{weight}*8low+, 9badugi+"  # was '1e-05*...' (which the grammar cannot read), '0.123457*...'
    assert Range(r.text) == r and Range(r.text).text == r.text


def test_cli_says_one_line_for_a_range_too_deep_or_too_long(capsys):
    for text, words in (("(" * 400 + "8low+" + ")" * 400, f"more than {MAX_DEPTH} nested"),
                        ("!" * 1000 + "8low+", f"more than {MAX_DEPTH} nested"),
                        (", ".join(["8low+"] * (MAX_TERMS + 1)), "terms (the limit of a range)")):
        status, out, err = _cli(capsys, "equity", "As 2h 3d 4c Kd", "--vs", text)
        assert status == 2 and words in err and err.count("\n") == 1 and out == ""


H1, H2 = "As2h3d4c5s", "2c3d4h5s6c"  # both 8-lows (H2 a straight on 2-7), H1 the wheel


@pytest.mark.parametrize("text,listed,rest,rest_weight", [
    # explicit hands are held as a few rows: each combination rule with rows, constants and whole-deck sets
    (f"0.5*{H1}, {H1}", {H1: 1.0}, None, 0.0),
    (f"{H1}, 0.5*{H1}, 0.25*{H2}", {H1: 1.0, H2: 0.25}, None, 0.0),
    (f"0.5*{H1} & {H1}", {H1: 0.5}, None, 0.0),
    (f"0.5*({H1}, {H2}) & (0.25*{H1}, {H2})", {H1: 0.25, H2: 0.5}, None, 0.0),
    (f"{H1} & {H2}", {}, None, 0.0),
    (f"{H1}, 0.5*any", {H1: 1.0}, "any", 0.5),
    (f"0.25*{H1}, 0.5*any", {H1: 0.5}, "any", 0.5),
    (f"{H1} & 0.25*any", {H1: 0.25}, None, 0.0),
    (f"0.5*{H1} & 8low+", {H1: 0.5}, None, 0.0),
    (f"0.5*{H1} & !8low+", {}, None, 0.0),
    (f"0.5*{H1}, 0.25*8low+", {H1: 0.5}, "8low+", 0.25),
    (f"0.5*{H1}, 8low+", {H1: 1.0}, "8low+", 1.0),
    (f"!{H1} & 8low+", {H1: 0.0}, "8low+", 1.0),
    ("!0.5*any", {}, None, 0.0),
    ("!(0.5*any & !any)", {}, "any", 1.0),
    ("0.5*any & 0.25*8low+", {}, "8low+", 0.25),
    ("0.5*any, 0.25*8low+", {}, "any", 0.5),
    ("0.5*0.5*any", {}, "any", 0.25),
    ("0.5*(8low+ & any), 0.25*8low+", {}, "8low+", 0.5),
])
def test_hand_worked_weights_of_each_combination(text, listed, rest, rest_weight):
    deck = _hands(5)
    want = np.zeros(len(deck))
    if rest is not None:
        want[Range(rest)._weights() > 0] = rest_weight  # a set (bool rows) or `any` (1.0: every row)
    for hand, w in listed.items():
        want[np.flatnonzero((deck == sorted(parse_cards(hand))).all(axis=1))] = w
    got = Range(text)._weights()
    got = np.full(len(deck), got) if isinstance(got, float) else got.astype(np.float64)
    assert np.array_equal(got > 0, want > 0) and np.allclose(got, want, rtol=1e-6), text
