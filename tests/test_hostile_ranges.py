"""Hostile range texts (badacey_fast.draw.ranges): whatever the text -- deep, long, repeated, tiny weights,
garbage -- ``Range`` gives a range or a ``RangeError``, never another exception, in memory that does not grow
with the text beyond a few whole-deck arrays; and a range it gives holds the weights a plain numpy
evaluation of the same expression gives (every combination rule on whole arrays, float64).

Hypothesis drives every test (``HYPOTHESIS_PROFILE=soak`` multiplies the examples, see tests/conftest.py).
The combination code is numpy on top of the rank tables, which the twins build alike (tests/test_ranges.py
checks each term against a brute force on both twins), so these tests run once, on the default twin.
"""

from __future__ import annotations

import tracemalloc
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from badacey_fast import RangeError
from badacey_fast.draw import Range
from badacey_fast.draw.ranges import MAX_DEPTH, MAX_TERMS, MIN_WEIGHT, _hands

pytestmark = pytest.mark.backend_independent

BASE = settings.default.max_examples  # 100 in the "ci" profile, 20,000 in "soak"


def budget(percent: int) -> settings:
    return settings(max_examples=max(5, BASE * percent // 100),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


GAMES = {"badacey": 5, "badeucy": 5, "badugi": 4}
LEAVES = {
    5: ["any", "8low+", "8low", "86low+", "7low", "75432low+", "Klow", "badugi", "9badugi+", "9badugi", "96badugi+",
        "3badugi", "3badugi+", "7-3badugi+", "T9-3badugi", "2badugi", "1badugi+",
        "As2h3d4c5s", "2c3d4h5s6c", "As 2h 3d 4c 6s", "Kc Qd Jh Ts 9c"],
    4: ["any", "badugi", "9badugi+", "9badugi", "4badugi", "3badugi", "3badugi+", "7-3badugi+", "2badugi+",
        "1badugi", "As2h3d4c", "2c3d4h5s", "Kc Qd Jh Ts"],
}
#: Weights: ordinary, tiny but held, and below what float32 holds (refused).
WEIGHTS = ["1", "0.5", "0.25", "0.3", "0.999", "0.0001", "0.0000000001",
           np.format_float_positional(MIN_WEIGHT * 4, unique=True, trim="-"),
           np.format_float_positional(MIN_WEIGHT / 4, unique=True, trim="-"), "0." + "0" * 45 + "1"]


# ---------------------------------------------------------------------------------------------------------
# Expressions as the test builds them: the text, and the weights computed the plain way.


@dataclass(frozen=True)
class Expr:
    kind: str  # "leaf", "not", "weight", "or", "and", "group"
    leaf: str = ""
    weight: str = ""
    args: tuple["Expr", ...] = ()

    def text(self, rnd: Any) -> str:
        sp = lambda: rnd.choice(["", " ", "  "])  # noqa: E731
        if self.kind == "leaf":
            return self.leaf
        if self.kind == "group":
            return "(" + sp() + self.args[0].text(rnd) + sp() + ")"
        if self.kind == "not":
            return "!" + sp() + self.args[0].text(rnd)
        if self.kind == "weight":
            return self.weight + sp() + "*" + sp() + self.args[0].text(rnd)
        sep = "," if self.kind == "or" else "&"
        return (sp() + sep + " ").join(a.text(rnd) for a in self.args)


def _tight(e: Expr, prec: int) -> Expr:
    """``e`` as an operand at precedence ``prec`` (1 ',', 2 '&', 3 unary): parenthesised if it binds looser."""
    own = {"or": 1, "and": 2}.get(e.kind, 4)
    return Expr("group", args=(e,)) if own < prec or (own <= 2 and prec == 3) else e


def exprs(size: int) -> st.SearchStrategy[Expr]:
    """Expressions over a few terms and weights (drawn first: repeats, which the evaluator folds, are common)."""
    hands = [w for w in LEAVES[size] if w[1] in "shdc "]
    sets = [w for w in LEAVES[size] if w != "any" and w not in hands]
    kinds = st.one_of(st.just("any"), st.sampled_from(hands), st.sampled_from(sets))  # the evaluator's 3 kinds
    pools = st.tuples(st.lists(kinds, min_size=1, max_size=3, unique=True),
                      st.lists(st.sampled_from(WEIGHTS), min_size=1, max_size=3, unique=True))
    return pools.flatmap(lambda p: _exprs(p[0], p[1]))


def _exprs(leaves: list[str], weights: list[str]) -> st.SearchStrategy[Expr]:
    leaf = st.sampled_from(leaves).map(lambda w: Expr("leaf", leaf=w))

    def extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        return st.one_of(
            children.map(lambda c: Expr("not", args=(_tight(c, 3),))),
            st.tuples(st.sampled_from(weights), children).map(lambda t: Expr("weight", weight=t[0],
                                                                             args=(_tight(t[1], 3),))),
            st.lists(children, min_size=2, max_size=4).map(lambda cs: Expr("or", args=tuple(_tight(c, 1) for c in cs))),
            st.lists(children, min_size=2, max_size=4).map(lambda cs: Expr("and", args=tuple(_tight(c, 2) for c in cs))),
            children.map(lambda c: Expr("group", args=(c,))),
        )

    inner = st.recursive(leaf, extend, max_leaves=8)
    return extend(extend(inner))  # two operators at least above the terms: the combinations are what is tested


class Refused(Exception):
    """What the grammar's limits refuse (the test's own prediction)."""


@lru_cache(maxsize=None)
def sample(size: int) -> np.ndarray[Any, Any]:
    """The rows the plain evaluation looks at: every 97th, and every row of an explicit hand of LEAVES."""
    hands = [Range(w, "badugi" if size == 4 else "badacey").combos()[0] for w in LEAVES[size] if w[1] in "shdc "]
    rows = {int(np.flatnonzero((_hands(size) == h).all(axis=1))[0]) for cards in hands for h in cards}
    return np.array(sorted(set(range(0, comb(52, size), 97)) | rows))


@lru_cache(maxsize=None)
def leaf_weights(leaf: str, game: str) -> np.ndarray[Any, Any]:
    """A single term's weights at the sampled rows (each term's set is checked by brute force in
    tests/test_ranges.py)."""
    r = Range(leaf, game)
    return _weights_of(r)[sample(r.hand_size)]


def reference(e: Expr, size: int, game: str, scale: float = 1.0, depth: int = 0) -> np.ndarray[Any, Any]:
    """float64 weights of the sampled rows, each rule applied on whole arrays; raises Refused where the
    limits say."""
    if e.kind == "leaf":
        return leaf_weights(e.leaf, game)
    if e.kind == "weight":  # the weight itself is checked first, then the depth its operand would have
        w = float(e.weight)
        held = float(np.float32(w))
        if not 0 < w <= 1 or held * scale < MIN_WEIGHT:
            raise Refused("weight")
    if e.kind in ("not", "weight", "group") and depth >= MAX_DEPTH:
        raise Refused("depth")
    if e.kind == "group":
        return reference(e.args[0], size, game, scale, depth + 1)
    if e.kind == "not":
        return (reference(e.args[0], size, game, 1.0, depth + 1) == 0).astype(np.float64)
    if e.kind == "weight":
        return reference(e.args[0], size, game, held * scale, depth + 1) * held
    parts = [reference(a, size, game, scale, depth) for a in e.args]
    return np.maximum.reduce(parts) if e.kind == "or" else np.minimum.reduce(parts)


def _terms(e: Expr) -> int:
    return 1 if e.kind == "leaf" else sum(_terms(a) for a in e.args)


def _weights_of(r: Range) -> np.ndarray[Any, Any]:
    w = r._weights()
    return np.full(comb(52, r.hand_size), float(w)) if isinstance(w, float) else np.asarray(w, dtype=np.float64)


@budget(100)
@given(st.sampled_from(sorted(GAMES)).flatmap(lambda g: st.tuples(st.just(g), exprs(GAMES[g]))), st.randoms())
def test_ranges_hold_the_weights_of_a_plain_evaluation(game_expr, rnd):
    game, e = game_expr
    size = GAMES[game]
    text = e.text(rnd)
    try:
        want = reference(e, size, game)
    except Refused as why:
        with pytest.raises(RangeError, match="below the smallest" if str(why) == "weight" else "nested"):
            Range(text, game)
        return
    r = Range(text, game)
    full = _weights_of(r)
    got = full[sample(size)]
    assert np.array_equal(got > 0, want > 0), text
    assert np.allclose(got, want, rtol=1e-5, atol=0), text  # float32 weights, products rounded each step
    assert len(r) == int(np.count_nonzero(full))
    again = Range(r.text, game)  # the canonical text reads back to the same range
    assert again == r and again.text == r.text
    cards, weights = r.combos(dead=_hands(size)[0][:2].tolist())
    assert np.all(weights > 0) and np.all(weights <= 1) and len(cards) == len(weights)


# ---------------------------------------------------------------------------------------------------------
# Garbage, depth, length: a range or a RangeError, nothing else, in bounded memory.

TOKENS = ["any", "8low+", "9badugi+", "3badugi", "As2h3d4c5s", "As", "2h", "3d", "4c", "5s", "Kd", ",", "&", "!",
          "(", ")", "*", "0.5", "1", "0", "1.5", ".5", "7-3badugi+", "86low", "68low+", "foo", "|", "+", "-", "é",
          "\u2660", "As\u2660", "2badugi", "5badugi", "0." + "0" * 50 + "1", "9" * 400, "(" * 60, "!" * 60,
          "0.5*" * 60]


def _within_memory(fn: Any) -> Any:
    """``fn()``'s result, asserting the peak of traced memory (numpy's buffers included) stays below a few
    whole-deck float32 arrays plus the text's own objects."""
    tracemalloc.start()
    try:
        out = fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 4 * comb(52, 5) + 64_000_000, peak
    return out


def _try(text: str, game: str) -> None:
    def run() -> None:
        try:
            r = Range(text, game)
        except RangeError as e:
            assert e.column >= 0 and str(e)
            return
        n = len(r)
        assert 0 <= n <= comb(52, r.hand_size)
        cards, weights = r.combos()
        assert len(cards) == n and (n == 0 or (weights.min() >= MIN_WEIGHT / 2 and weights.max() <= 1))

    _within_memory(run)


@pytest.fixture(scope="module", autouse=True)
def _rank_tables() -> None:
    for game in GAMES:  # the process-wide tables, built once before any memory is measured
        Range("8low+, 9badugi+" if GAMES[game] == 5 else "9badugi+", game).combos()


@budget(100)
@given(st.lists(st.tuples(st.sampled_from(TOKENS), st.sampled_from(["", " ", "  ", "\t"]), st.integers(1, 3)),
                max_size=40), st.sampled_from(sorted(GAMES)))
def test_token_soup_is_a_range_or_a_range_error(parts, game):
    _try("".join((tok + sep) * k for tok, sep, k in parts), game)


@budget(100)
@given(st.text(alphabet=st.sampled_from(list("As23456789TJQKhdcx ,&!()*.+-0l1ow bugi\u2660\u00e9|\n")), max_size=200),
       st.sampled_from(sorted(GAMES)))
def test_character_soup_is_a_range_or_a_range_error(text, game):
    _try(text, game)


@budget(20)
@given(st.sampled_from(["(", "!", "0.5*", "1 * ", "!(", "0.5*("]), st.integers(0, 3 * MAX_DEPTH),
       st.sampled_from(["8low+", "As2h3d4c5s", "any", "9badugi+ & 3badugi+, 8low"]), st.sampled_from(sorted(GAMES)))
def test_nesting_at_and_past_the_limit(opener, depth, term, game):
    closer = ")" * opener.count("(")
    text = opener * depth + term + closer * depth
    levels = depth * (opener.count("(") + opener.count("!") + opener.count("*"))
    if levels > MAX_DEPTH:
        with pytest.raises(RangeError, match=f"more than {MAX_DEPTH} nested"):
            Range(text, game)
    else:
        _try(text, game)


@budget(2)  # texts up to 10,000 terms: 5 in CI, 400 in a soak
@given(st.lists(st.sampled_from(["8low+", "9badugi+", "0.5*8low+", "!3badugi", "As2h3d4c5s", "any", "(86low & badugi)",
                                 "0.25*Kc Qd Jh Ts 9c", "7-3badugi+"]), min_size=1, max_size=6),
       st.one_of(st.integers(1, 200), st.integers(MAX_TERMS // 6, MAX_TERMS // 2 + 10)), st.sampled_from([", ", " & "]))
def test_long_and_repeated_texts(pattern, repeats, sep):
    text = sep.join(pattern * repeats)
    n_terms = len(pattern) * repeats + sum(p.count("&") for p in pattern) * repeats
    if n_terms > MAX_TERMS:
        with pytest.raises(RangeError, match=f"more than {MAX_TERMS:,} terms"):
            Range(text)
        return
    r = _within_memory(lambda: Range(text))
    short = Range(sep.join(dict.fromkeys(pattern)))  # repeats change nothing
    assert _within_memory(lambda: r == short)
