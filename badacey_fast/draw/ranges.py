"""Ranges for draw games: what an opponent can hold, in one grammar for every game.

A range is text naming a weighted set of hands ("combos") of the game's size (five cards; four for
Badugi).  Ranks are dense and **lower is better** (RULES.md §2); every threshold below is derived from
the evaluators, never typed in.

Terms
  ``any``            every hand of the game's size (from the cards not dead)
  ``As2h3d4c5s``     one explicit hand (``As 2h 3d 4c 5s`` too: adjacent card words join)
  ``8low+``          a low at least as good as the worst 8-high no-pair low on the game's low scale
                     (A-5 for Badacey and A-5, 2-7 for Badeucy and 2-7): ``low rank <= rank(8-7-6-5-4)``
                     on A-5, ``<= rank(8-7-6-5-3)`` on 2-7 (8-7-6-5-4 is a straight there)
  ``86low+``         at least as good as the worst no-pair low starting 8-6; ``8654low+`` likewise,
                     compared from the top card down (up to five ranks: ``86532low+``)
  ``8low``, ``86low``  exactly: no-pair lows (on 2-7: not straights or flushes) starting 8, or 8-6
  ``badugi``         the best badugi has four cards (any four-card badugi)
  ``9badugi+``       a four-card badugi whose highest card is 9 or lower (``96badugi+``: at least as
                     good as the worst four-card badugi starting 9-6); ``9badugi``: exactly 9-high
  ``3badugi``        the best badugi has exactly three cards; ``3badugi+``: three or four cards
  ``7-3badugi+``     the best badugi has exactly three cards and is 7-high or better (three-card hands
                     only: four-card hands are not included); ``7-3badugi``: exactly 7-high three-card
A single digit 1-4 before ``badugi`` is a card count; a highest card is 5 or above (or a longer run
like ``432A``).  Badugi terms use the game's badugi scale (ace-high for Badeucy and 2-7, ace-low
otherwise); ``A`` in a run is the lowest card on ace-low scales and the highest on ace-high ones.
Low terms need five-card hands (not Badugi).

Combinations, loosest binding first: ``a, b`` (either), ``a & b`` (both), ``!a`` (not) and ``0.5*a``
(weight 0..1), parentheses.  Each combo's weight: a term gives 1 to its hands; ``w*a`` multiplies;
``a, b`` takes the largest weight; ``a & b`` the smallest; ``!a`` gives 1 to the hands ``a`` leaves out.

Limits (each a ``RangeError`` naming it): at most :data:`MAX_DEPTH` (50) nested operators on any path
(parentheses, ``!`` and weights each count one), at most :data:`MAX_TERMS` (10,000) terms, and no weight
(a weight times the weights around it) below :data:`MIN_WEIGHT` (about 1.2e-38, the smallest normal
float32: weights are held as float32).  Memory does not grow with the terms: a term repeated in ``,`` or
``&`` is evaluated once, operands are combined into one array as they come, explicit hands are kept as
a list of rows, and a few whole-deck arrays are alive at once whatever the text.

>>> r = Range("8low+, 9badugi+")
>>> r
Range('8low+, 9badugi+', game='badacey')
>>> len(r), len(Range("any"))
(158816, 2598960)
>>> cards, weights = Range("0.5*(As2h3d4c5s, 2c3d4h5s6c)").combos(dead="As")
>>> cards.tolist(), weights.tolist()
([[4, 9, 14, 19, 20]], [0.5])
>>> Range("8low+ & 9badugi+ | 3badugi")
Traceback (most recent call last):
...
badacey_fast.errors.RangeError: unexpected character '|' at column 17
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any, Union

import numpy as np

from badacey_fast import evaluator
from badacey_fast.bulk import all_hands, badugi_rank_many, evaluate_all
from badacey_fast.cards import RANK_CHARS, Cards, format_cards, parse_cards
from badacey_fast.errors import BadaceyError, DuplicateCardError, InvalidCardError, RangeError
from badacey_fast import kernel
from badacey_fast.rules import reference
from badacey_fast.rules.games import GAMES, LOW, SCORINGS, Scoring, scoring

__all__ = ["Range", "parse_range", "low_interval", "badugi_interval", "packed_hands", "hand_masks", "hand_ranks", "MAX_DEPTH", "MAX_TERMS", "MIN_WEIGHT"]

#: Operators nested on one path of a range's text (parentheses, ``!``, weights): deeper is a ``RangeError``.
#: The parser and the evaluator recurse once per level (a few frames each), far inside Python's limit.
MAX_DEPTH = 50
#: Terms in one range text (each ``any``, hand, low or badugi term counts, repeated or not).
MAX_TERMS = 10_000
#: The smallest weight a range holds: the smallest normal float32 (weights are float32 arrays; below it
#: a weight loses precision, then becomes 0 and drops its hands).  Every weight, times the weights it is
#: nested in, must be at least this.
MIN_WEIGHT = float(np.finfo(np.float32).tiny)

# ---------------------------------------------------------------------------------------------------
# Tokens

_TOKEN = re.compile(r"\s*(?:(?P<op>[(),&!*])|(?P<word>[A-Za-z0-9+\-.\u2663\u2666\u2665\u2660]+))")
_NUMBER = re.compile(r"^(?:\d+\.?\d*|\.\d+)$")
_LOW = re.compile(r"^(?P<run>[2-9tjqka]{1,5})low(?P<plus>\+?)$", re.IGNORECASE)
_BADUGI = re.compile(
    r"^(?:(?P<run>[2-9tjqka]{1,4})-(?P<size>[1-4])|(?P<count>[1-4])|(?P<top>[2-9tjqka]{1,4}))?"
    r"badugi(?P<plus>\+?)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Tok:
    kind: str  # "op", "word" or "end"
    text: str
    col: int


def _tokenize(text: str) -> list[_Tok]:
    toks, pos = [], 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            toks.append(_Tok("end", "", pos))
            return toks
        m = _TOKEN.match(text, pos)
        if m is None:
            raise RangeError(f"unexpected character {text[pos]!r} at column {pos}", text[pos], pos)
        kind = "op" if m.group("op") else "word"
        toks.append(_Tok(kind, m.group(kind), m.start(kind)))
        pos = m.end()


# ---------------------------------------------------------------------------------------------------
# Thresholds, derived from the evaluators (lower is better)


def _run_values(run: str, ace_high: bool) -> tuple[int, ...]:
    """Card ranks (0=A..12=K) of a run of rank characters."""
    return tuple(RANK_CHARS.index(ch.upper()) for ch in run)


def _strength(rank: int, ace_high: bool) -> int:
    return 14 if ace_high and rank == 0 else rank + 1


def _check_run(ranks: tuple[int, ...], ace_high: bool, what: str) -> None:
    values = [_strength(r, ace_high) for r in ranks]
    if any(a <= b for a, b in zip(values, values[1:])):
        scale = "ace-high" if ace_high else "ace-low"
        raise RangeError(f"the cards of {what} must go from the highest down, all different ({scale} scale)")


def _run_text(ranks: tuple[int, ...]) -> str:
    return "".join(RANK_CHARS[r] for r in ranks)


@lru_cache(maxsize=None)
def low_interval(run: tuple[int, ...], game: Scoring | str) -> tuple[int, int]:
    """(best, worst) low ranks of the no-pair lows whose cards start with ``run`` (ranks 0=A..12=K, the
    highest first), on ``game``'s low scale.  On 2-7 straights and flushes are not no-pair lows.

    They are a contiguous block of ranks: no-pair lows are ordered from the top card down.

    >>> low_interval((7,), "badacey")                # 8-high: 8-4-3-2-A .. 8-7-6-5-4
    (22, 56)
    >>> from badacey_fast.rules.reference import describe_low_rank
    >>> describe_low_rank(low_interval((7,), "badeucy")[1], "badeucy")
    '8-7-6-5-3 low'
    """
    sc = scoring(game)
    if LOW not in sc.halves:
        raise BadaceyError(f"{sc.game} has no five-card low")
    ace_high = sc.ace_high
    _check_run(run, ace_high, "a low")
    below = [r for r in range(13) if _strength(r, ace_high) < _strength(run[-1], ace_high) and r not in run]
    found = []
    for rest in combinations(below, 5 - len(run)):
        ranks = run + rest
        hand = tuple(4 * r + s for r, s in zip(ranks, (0, 1, 2, 3, 0)))  # never a flush
        if reference.low_key(hand, sc)[0] == 0:  # category "no pair" (not a straight on 2-7)
            found.append(evaluator.low_rank(hand, sc))
    if not found:
        scale = "2-7" if ace_high else "A-5"
        raise RangeError(f"no {scale} no-pair low starts {'-'.join(RANK_CHARS[r] for r in run)}")
    return min(found), max(found)


@lru_cache(maxsize=None)
def badugi_interval(run: tuple[int, ...], size: int, ace_high: bool) -> tuple[int, int]:
    """(best, worst) badugi ranks of the ``size``-card badugis whose cards start with ``run`` (ranks,
    the highest first; empty: every ``size``-card badugi), on the ace-low or ace-high badugi scale.

    >>> badugi_interval((), 4, False), badugi_interval((), 3, False)   # the card-count blocks
    ((1, 715), (716, 1001))
    >>> from badacey_fast.rules.reference import describe_badugi_rank
    >>> describe_badugi_rank(badugi_interval((8,), 4, False)[1])
    '9-8-7-6 badugi'
    """
    _check_run(run, ace_high, "a badugi")
    if len(run) > size:
        raise RangeError(f"a {size}-card badugi has no {len(run)}-card start")
    top = _strength(run[-1], ace_high) if run else 99
    below = [r for r in range(13) if _strength(r, ace_high) < top and r not in run]
    found = []
    for rest in combinations(below, size - len(run)):
        hand = tuple(4 * r + s for s, r in enumerate(run + rest))  # all suits different
        found.append(evaluator.badugi_rank(hand, ace_high))
    if not found:
        raise RangeError(f"no {size}-card badugi starts {'-'.join(RANK_CHARS[r] for r in run)}")
    return min(found), max(found)


# ---------------------------------------------------------------------------------------------------
# The expression tree: each node knows its canonical text and its precedence (1 = ',', 2 = '&', 3 = unary)


@dataclass(frozen=True)
class _Any:
    prec = 4

    def text(self) -> str:
        return "any"


@dataclass(frozen=True)
class _Hand:
    cards: tuple[int, ...]  # ascending
    prec = 4

    def text(self) -> str:
        return format_cards(self.cards).replace(" ", "")


@dataclass(frozen=True)
class _Interval:
    half: str  # "low" or "badugi"
    canonical: str
    lo: int
    hi: int
    prec = 4

    def text(self) -> str:
        return self.canonical


@dataclass(frozen=True)
class _Not:
    arg: Node
    prec = 3

    def text(self) -> str:
        return "!" + _wrap(self.arg, 3)


@dataclass(frozen=True)
class _Weight:
    weight: float
    arg: Node
    prec = 3

    def text(self) -> str:
        # Positional and the shortest that reads back as the same float (the grammar has no exponents).
        return np.format_float_positional(self.weight, unique=True, trim="-") + "*" + _wrap(self.arg, 3)


@dataclass(frozen=True)
class _And:
    args: tuple[Node, ...]
    prec = 2

    def text(self) -> str:
        return " & ".join(_wrap(a, 2) for a in self.args)


@dataclass(frozen=True)
class _Or:
    args: tuple[Node, ...]
    prec = 1

    def text(self) -> str:
        return ", ".join(_wrap(a, 1) for a in self.args)


Node = Union[_Any, _Hand, _Interval, _Not, _Weight, _And, _Or]


def _wrap(node: Node, prec: int) -> str:
    return node.text() if node.prec > prec or (node.prec == prec and prec == 3) else f"({node.text()})"


class _Parser:
    """Recursive descent: or := and (',' and)* ; and := unary ('&' unary)* ;
    unary := '!' unary | NUMBER '*' unary | '(' or ')' | term.  The nesting is bounded (MAX_DEPTH), so
    is the recursion; so are the terms (MAX_TERMS) and the weights (MIN_WEIGHT)."""

    def __init__(self, text: str, rules: Scoring) -> None:
        self.toks = _tokenize(text)
        self.i = 0
        self.rules = rules
        self.game, self.size, self.ace_high = rules.game, rules.hand_size, rules.ace_high
        self.depth = 0  # operators enclosing the next token
        self.scale = 1.0  # the product of the weights enclosing it (a '!' starts again from 1: it gives 0/1)
        self.terms = 0

    def peek(self) -> _Tok:
        return self.toks[self.i]

    def take(self) -> _Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def fail(self, tok: _Tok, message: str) -> RangeError:
        shown = tok.text if len(tok.text) <= 80 else tok.text[:77] + "..."  # a 1 MB word is not echoed whole
        where = "the end of the range" if tok.kind == "end" else repr(shown)
        return RangeError(f"{message}: {where} at column {tok.col}", tok.text, tok.col)

    def nested(self, tok: _Tok, scale: float) -> Node:
        """The operand of the operator ``tok`` (a '!', a weight or a '('), one level deeper, its weights
        scaled by ``scale`` (the operator's weight; 0 for a '!': its operand's weights start again)."""
        if self.depth >= MAX_DEPTH:
            raise self.fail(tok, f"more than {MAX_DEPTH} nested operators (parentheses, '!' and weights: the "
                                 f"limit of a range)")
        outer = self.scale
        self.depth += 1
        self.scale = scale * outer if scale else 1.0
        try:
            return self.parse_or() if tok.text == "(" else self.parse_unary()
        finally:
            self.depth -= 1
            self.scale = outer

    def parse(self) -> Node:
        if self.peek().kind == "end":
            raise self.fail(self.peek(), "empty range: expected a term")
        node = self.parse_or()
        tok = self.peek()
        if tok.kind != "end":
            raise self.fail(tok, "unexpected token" if tok.text != ")" else "unmatched ')'")
        return node

    def parse_or(self) -> Node:
        args = [self.parse_and()]
        while self.peek().text == ",":
            self.take()
            args.append(self.parse_and())
        return args[0] if len(args) == 1 else _Or(tuple(args))

    def parse_and(self) -> Node:
        args = [self.parse_unary()]
        while self.peek().text == "&":
            self.take()
            args.append(self.parse_unary())
        return args[0] if len(args) == 1 else _And(tuple(args))

    def parse_unary(self) -> Node:
        tok = self.take()
        if tok.kind == "end":
            raise self.fail(tok, "expected a term")
        if tok.text == "!":
            return _Not(self.nested(tok, 0.0))
        if tok.text == "(":
            node = self.nested(tok, 1.0)
            close = self.take()
            if close.text != ")":
                raise self.fail(close, f"expected ')' for the '(' at column {tok.col}")
            return node
        if tok.kind == "op":
            raise self.fail(tok, "expected a term")
        if _NUMBER.match(tok.text):
            star = self.take()
            if star.text != "*":
                raise self.fail(tok, "a weight must be followed by '*' and a term")
            weight = float(tok.text)
            if not 0.0 < weight <= 1.0:
                raise self.fail(tok, "a weight must be above 0 and at most 1")
            held = float(np.float32(weight))  # as the arrays hold it
            if held * self.scale < MIN_WEIGHT:
                what = "a weight" if self.scale == 1.0 else \
                    f"a weight that makes {held * self.scale:.3g} with the weights around it,"
                raise self.fail(tok, f"{what} below the smallest a range holds ({MIN_WEIGHT:.4g}, float32)")
            return _Weight(weight, self.nested(tok, held))
        return self.term(tok)

    def term(self, tok: _Tok) -> Node:
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise self.fail(tok, f"more than {MAX_TERMS:,} terms (the limit of a range)")
        word = tok.text
        if word.lower() == "any":
            return _Any()
        m = _LOW.match(word)
        if m:
            if self.size != 5:
                raise self.fail(tok, f"{self.game} hands have no five-card low")
            run = _run_values(m.group("run"), self.ace_high)
            try:
                lo, hi = low_interval(run, self.rules)
            except ValueError as e:
                raise self.fail(tok, f"{e}") from None
            plus = m.group("plus") == "+"
            return _Interval("low", f"{_run_text(run)}low{'+' if plus else ''}", 1 if plus else lo, hi)
        m = _BADUGI.match(word)
        if m:
            return self.badugi(tok, m)
        return self.hand(tok)

    def badugi(self, tok: _Tok, m: re.Match[str]) -> Node:
        plus = m.group("plus") == "+"
        try:
            if m.group("count"):  # 3badugi: exactly 3 cards; 3badugi+: 3 cards or more
                size = int(m.group("count"))
                lo, hi = badugi_interval((), size, self.ace_high)
                return _Interval("badugi", f"{size}badugi{'+' if plus else ''}", 1 if plus else lo, hi)
            if m.group("size"):  # 7-3badugi+: exactly 3 cards, 7-high or better
                size = int(m.group("size"))
                run = _run_values(m.group("run"), self.ace_high)
                lo, hi = badugi_interval(run, size, self.ace_high)
                best = badugi_interval((), size, self.ace_high)[0]
                text = f"{_run_text(run)}-{size}badugi{'+' if plus else ''}"
                return _Interval("badugi", text, best if plus else lo, hi)
            if m.group("top"):  # 9badugi+: four cards, 9-high or better
                run = _run_values(m.group("top"), self.ace_high)
                lo, hi = badugi_interval(run, 4, self.ace_high)
                return _Interval("badugi", f"{_run_text(run)}badugi{'+' if plus else ''}", 1 if plus else lo, hi)
            lo, hi = badugi_interval((), 4, self.ace_high)
            return _Interval("badugi", "badugi", lo, hi)
        except ValueError as e:
            raise self.fail(tok, f"{e}") from None

    def hand(self, tok: _Tok) -> Node:
        words = [tok]
        while self.peek().kind == "word" and not _is_term_word(self.peek().text):
            words.append(self.take())
        cards: list[int] = []
        for w in words:
            try:
                got = parse_cards(w.text)
            except DuplicateCardError as e:
                raise self.fail(w, f"a hand with a card given twice ({e})") from None
            except InvalidCardError:
                if len(words) == 1:
                    raise self.fail(w, "unknown term") from None
                raise self.fail(w, "not a card") from None
            for c in got:
                if c in cards:
                    raise self.fail(w, f"card {format_cards([c])!r} is given twice in the hand")
                cards.append(c)
        if len(cards) != self.size:
            text = " ".join(w.text for w in words)
            raise RangeError(f"a {self.game} hand has {self.size} cards, got {len(cards)}: {text!r} at column "
                             f"{tok.col}", text, tok.col)
        return _Hand(tuple(sorted(cards)))


def _is_term_word(word: str) -> bool:
    return bool(word.lower() == "any" or _NUMBER.match(word) or _LOW.match(word) or _BADUGI.match(word))


def parse_range(text: str, game: Scoring | str = "badacey") -> Node:
    """The expression tree of range text (see the module's grammar); ``RangeError`` names a bad token."""
    if not isinstance(text, str):
        raise TypeError(f"range text must be a str, not {type(text).__name__}")
    return _Parser(text, scoring(game)).parse()


# ---------------------------------------------------------------------------------------------------
# Every hand of a size, its card mask and its ranks (cached: computed once per process and backend)


@lru_cache(maxsize=None)
def _hands(size: int) -> np.ndarray[Any, Any]:
    """Every ``size``-card hand (5 or 4) as uint8 rows in colex order (row i has colex index i)."""
    if size == 5:
        hands = all_hands()
    else:
        level = np.arange(52, dtype=np.uint8)[:, None]
        for k in range(2, size + 1):
            level = np.vstack([np.hstack([level[: comb(m, k - 1)], np.full((comb(m, k - 1), 1), m, np.uint8)])
                               for m in range(k - 1, 52)])
        hands = level
    hands.setflags(write=False)
    return hands


@lru_cache(maxsize=None)
def packed_hands(size: int) -> np.ndarray[Any, Any]:
    """:func:`_hands` padded to 8 bytes a row, viewed as one uint64 per row: a gather of rows is then one
    8-byte load each (5x faster than gathering 5-byte rows)."""
    hands = _hands(size)
    padded = np.zeros((len(hands), 8), dtype=np.uint8)
    padded[:, :size] = hands
    rows = padded.view(np.uint64).ravel()
    rows.setflags(write=False)
    return rows


@lru_cache(maxsize=None)
def hand_masks(size: int) -> np.ndarray[Any, Any]:
    """The 52-bit card mask of every row of :func:`_hands`."""
    hands = _hands(size)
    masks = np.zeros(len(hands), dtype=np.uint64)
    for col in range(size):
        masks |= np.left_shift(np.uint64(1), hands[:, col].astype(np.uint64))
    masks.setflags(write=False)
    return masks


def hand_ranks(size: int, ace_high: bool) -> tuple[np.ndarray[Any, Any] | None, np.ndarray[Any, Any]]:
    """(low, badugi) uint16 ranks of every row of :func:`_hands` on a scale (low None for four cards),
    computed by the active twin once (``kernel.memo`` keeps one table per twin)."""

    def compute() -> tuple[np.ndarray[Any, Any] | None, np.ndarray[Any, Any]]:
        if size == 5:
            low, bd = evaluate_all(SCORINGS[GAMES[ace_high]])
        else:
            low, bd = None, badugi_rank_many(_hands(4), ace_high, check=False)
        for a in (low, bd):
            if a is not None:
                a.setflags(write=False)
        return low, bd

    return kernel.memo(("range ranks", size, ace_high), compute)


_FREE: dict[tuple[int, int], np.ndarray[Any, Any]] = {}


def _free(size: int, blocked: int) -> np.ndarray[Any, Any]:
    """Rows of :func:`_hands` holding no card of the 52-bit mask ``blocked``; the last few are kept (the
    ranges of one equity call, and a CLI's several ``--vs``, share hero's and the dead cards)."""
    key = (size, blocked)
    found = _FREE.get(key)
    if found is None:
        found = (hand_masks(size) & np.uint64(blocked)) == 0
        found.setflags(write=False)
        if len(_FREE) >= 4:
            _FREE.pop(next(iter(_FREE)))
        _FREE[key] = found
    return found


def _colex(cards: tuple[int, ...]) -> int:
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(cards)))


def _card_mask(cards: tuple[int, ...]) -> np.uint64:
    mask: np.uint64 = np.uint64(sum(1 << c for c in cards))
    return mask


#: The weight of every row of a range: one float for all, or an array over all rows (bool 0/1 or float32).
Weights = Union[float, "np.ndarray[Any, Any]"]


class _Rows:
    """The weights of a few rows (explicit hands and what they are combined with), 0 elsewhere: ``idx``
    sorted distinct row indices, ``w`` their float32 weights, each above 0.  A list of a thousand hands
    stays a few kilobytes instead of a whole-deck array per hand."""

    __slots__ = ("idx", "w")

    def __init__(self, idx: np.ndarray[Any, Any], w: np.ndarray[Any, Any]) -> None:
        self.idx, self.w = idx, w


#: A value while evaluating: a float (every row), a whole-deck array (bool 0/1 or float32; always a fresh
#: array the evaluator owns and may change in place) or a few rows.
_Value = Union[float, "np.ndarray[Any, Any]", _Rows]
_F32 = np.float32


def _f32(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """An owned array as float32 weights (itself when it is already)."""
    return a if a.dtype == _F32 else a.astype(_F32)


def _whole(v: _Rows, rows: int, fill: float = 0.0) -> np.ndarray[Any, Any]:
    """Rows as a whole-deck array (bool when every weight is 1 and the rest 0)."""
    if fill == 0.0 and bool(np.all(v.w == 1)):
        out = np.zeros(rows, dtype=bool)
        out[v.idx] = True
        return out
    dense = np.full(rows, fill, dtype=_F32)
    dense[v.idx] = np.maximum(dense[v.idx], v.w)
    return dense


def _merge(parts: list[_Rows]) -> _Rows:
    """The ``,`` of several row lists: the largest weight of each row."""
    if len(parts) == 1:
        return parts[0]
    idx = np.concatenate([p.idx for p in parts])
    w = np.concatenate([p.w for p in parts])
    order = np.lexsort((w, idx))  # by row, then weight: each row's last entry is its largest weight
    idx, w = idx[order], w[order]
    last = np.ones(len(idx), dtype=bool)
    last[:-1] = idx[1:] != idx[:-1]
    return _Rows(idx[last], w[last])


def _either(a: _Value, b: _Value, rows: int) -> _Value:
    """``a, b``: the larger weight of each row (may change ``a`` or ``b`` in place)."""
    if isinstance(a, float):
        a, b = b, a
    if isinstance(a, float):
        assert isinstance(b, float)
        return max(a, b)
    if isinstance(b, float):
        if b <= 0.0:
            return a
        if b >= 1.0:
            return 1.0
        if isinstance(a, _Rows):
            return _whole(a, rows, b)
        a = _f32(a)
        np.maximum(a, _F32(b), out=a)
        return a
    if isinstance(a, _Rows):
        if isinstance(b, _Rows):
            return _merge([a, b])
        a, b = b, a
    if isinstance(b, _Rows):  # a whole-deck array and a few rows
        if a.dtype == bool and bool(np.all(b.w == 1)):
            a[b.idx] = True
            return a
        a = _f32(a)
        a[b.idx] = np.maximum(a[b.idx], b.w)
        return a
    if a.dtype == bool and b.dtype == bool:
        a |= b
        return a
    a = _f32(a)
    np.maximum(a, b, out=a)
    return a


def _both(a: _Value, b: _Value, rows: int) -> _Value:
    """``a & b``: the smaller weight of each row (may change ``a`` or ``b`` in place)."""
    if isinstance(a, float):
        a, b = b, a
    if isinstance(a, float):
        assert isinstance(b, float)
        return min(a, b)
    if isinstance(b, float):
        if b >= 1.0:
            return a
        if b <= 0.0:
            return 0.0
        if isinstance(a, _Rows):
            a.w = np.minimum(a.w, _F32(b))
            return a
        a = _f32(a)
        np.minimum(a, _F32(b), out=a)
        return a
    if isinstance(b, _Rows):
        a, b = b, a
    if isinstance(a, _Rows):  # a few rows: the result has no others
        if isinstance(b, _Rows):
            common, ia, ib = np.intersect1d(a.idx, b.idx, assume_unique=True, return_indices=True)
            return _Rows(common, np.minimum(a.w[ia], b.w[ib]))
        w = np.minimum(a.w, b[a.idx].astype(_F32))
        keep = w > 0
        return _Rows(a.idx[keep], w[keep])
    assert not isinstance(b, _Rows)  # swapped into a above
    if a.dtype == bool and b.dtype == bool:
        a &= b
        return a
    a = _f32(a)
    np.minimum(a, b, out=a)
    return a


def _empty(v: _Value) -> bool:
    return (isinstance(v, float) and v <= 0.0) or (isinstance(v, _Rows) and len(v.idx) == 0)


class _Evaluation:
    """One range's weights, node by node (the recursion is bounded by MAX_DEPTH).  Memory: each ``,`` or
    ``&`` evaluates its distinct operands once each and folds them into one array as they come, the
    operand needing the most arrays first (so the arrays alive at once grow with the logarithm of the
    terms at worst, not with their number or the depth); explicit hands stay row lists."""

    def __init__(self, size: int, ace_high: bool) -> None:
        self.size, self.ace_high = size, ace_high
        self.rows = comb(52, size)
        self.needs: dict[int, int] = {}

    def need(self, node: Node) -> int:
        """Whole-deck arrays alive at once while ``node`` is evaluated (Sethi-Ullman's count)."""
        key = id(node)
        found = self.needs.get(key)
        if found is None:
            if isinstance(node, (_Any, _Hand)):
                found = 0
            elif isinstance(node, _Interval):
                found = 1
            elif isinstance(node, (_Not, _Weight)):
                found = max(1, self.need(node.arg))
            else:
                ns = sorted((self.need(a) for a in node.args), reverse=True)
                found = max(ns[0], ns[1] + 1)
            self.needs[key] = found
        return found

    def value(self, node: Node) -> _Value:
        if isinstance(node, _Any):
            return 1.0
        if isinstance(node, _Hand):
            return _Rows(np.array([_colex(node.cards)], dtype=np.int64), np.ones(1, dtype=_F32))
        if isinstance(node, _Interval):
            low, bd = hand_ranks(self.size, self.ace_high)
            ranks = low if node.half == "low" else bd
            assert ranks is not None  # low intervals are parsed only for five-card games
            if node.lo <= 1:
                return ranks <= node.hi  # a fresh array: never the cached ranks
            inside = ranks >= node.lo
            inside &= ranks <= node.hi
            return inside
        if isinstance(node, _Not):
            v = self.value(node.arg)
            if isinstance(v, float):
                return 0.0 if v > 0 else 1.0
            if isinstance(v, _Rows):
                out = np.ones(self.rows, dtype=bool)
                out[v.idx] = False  # every listed row weighs above 0
                return out
            if v.dtype == bool:
                np.logical_not(v, out=v)
                return v
            left_out: np.ndarray[Any, Any] = v == 0
            return left_out
        if isinstance(node, _Weight):
            v = self.value(node.arg)
            w = _F32(node.weight)
            if isinstance(v, float):
                return float(_F32(v) * w)  # float32 arithmetic, as the arrays: one weight for every kind of term
            if isinstance(v, _Rows):
                v.w *= w
                return v
            v = _f32(v)
            v *= w
            return v
        return self.fold(node)

    def fold(self, node: _And | _Or) -> _Value:
        """A ``,`` or ``&``: distinct operands, most demanding first, folded in one at a time."""
        either = isinstance(node, _Or)
        distinct = list(dict.fromkeys(node.args))  # equal operands give equal weights: once is enough
        distinct.sort(key=self.need, reverse=True)
        acc: _Value | None = None
        listed: list[_Rows] = []  # an "either" of row lists: merged once at the end (not pairwise)
        for arg in distinct:
            v = self.value(arg)
            if either and isinstance(v, _Rows):
                listed.append(v)
                continue
            acc = v if acc is None else (_either if either else _both)(acc, v, self.rows)
            if (either and isinstance(acc, float) and acc >= 1.0) or (not either and _empty(acc)):
                return acc  # nothing the rest could change
        if listed:
            rows = _merge(listed)
            acc = rows if acc is None else _either(acc, rows, self.rows)
        assert acc is not None  # a node has operands
        return acc


def _evaluate(node: Node, size: int, ace_high: bool) -> Weights:
    """The weight of every row: a float (the same for all), a bool array (weights 0/1) or a float32 array."""
    v = _Evaluation(size, ace_high).value(node)
    if isinstance(v, _Rows):
        return _whole(v, comb(52, size))
    return v


# ---------------------------------------------------------------------------------------------------


class Range:
    """A weighted set of hands of ``game``'s size, from range text (see the module's grammar).

    ``combos(dead=...)`` gives the hands and weights with every hand holding a dead card removed;
    ``len()`` counts the hands (weight above 0) with no card dead; two ranges are ``==`` when they hold
    the same hands with the same weights in the same game; ``repr`` shows the canonical text, which
    parses back to an equal range.

    >>> Range("9BADUGI+ , ( 86low+ )", game="Baduci")
    Range('9badugi+, 86low+', game='badeucy')
    >>> Range("8low+", "badeucy") == Range("8low+, 8low", "badeucy"), len(Range("2badugi", game="badugi"))
    (True, 96252)
    """

    __slots__ = ("_node", "_game", "_size", "_ace_high", "_value", "_len")

    def __init__(self, text: str, game: Scoring | str = "badacey") -> None:
        sc = scoring(game)
        self._node = parse_range(text, sc)
        self._game, self._size, self._ace_high = sc.game, sc.hand_size, sc.ace_high
        self._value: Weights | None = None
        self._len: int | None = None

    @property
    def text(self) -> str:
        """The canonical text (parses back to an equal range)."""
        return self._node.text()

    @property
    def game(self) -> str:
        """The game's canonical name."""
        return self._game

    @property
    def hand_size(self) -> int:
        """Cards per hand: 5, or 4 for Badugi."""
        return self._size

    def _weights(self) -> Weights:
        if self._value is None:
            v = _evaluate(self._node, self._size, self._ace_high)
            if isinstance(v, np.ndarray):
                v.setflags(write=False)
            self._value = v
        return self._value

    def _select(self, blocked: int) -> tuple[np.ndarray[Any, Any] | None, Weights]:
        """(keep, weights): ``keep`` a bool row mask (None: every row) of the rows with weight above 0 and
        no card in the 52-bit mask ``blocked``; ``weights`` the range's weight of every row (a float or an
        array over all rows)."""
        v = self._weights()
        free = _free(self._size, blocked) if blocked else None
        if isinstance(v, float):
            if v <= 0:
                return np.zeros(comb(52, self._size), dtype=bool), v
            return free, v
        inside = v if v.dtype == bool else v > 0
        return (inside if free is None else inside & free), v

    def combos(self, dead: Cards = ()) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The range's hands without a dead card: an (N, k) uint8 card array (rows ascending, colex order;
        a view whose rows are 8 bytes apart: ``np.ascontiguousarray`` it if you need it packed) and their
        float64 weights (0 < w <= 1).

        >>> cards, w = Range("9-4badugi", game="badugi").combos(dead="As Ac")
        >>> cards.shape, float(w.sum())
        ((1092, 4), 1092.0)
        """
        keep, v = self._select(int(_card_mask(parse_cards(dead))))
        if keep is None:
            idx = None
            rows = packed_hands(self._size).copy()
        else:
            idx = np.flatnonzero(keep)
            rows = packed_hands(self._size)[idx]
        cards = rows.view(np.uint8).reshape(-1, 8)[:, : self._size]
        weights: np.ndarray[Any, Any]
        if isinstance(v, float):
            weights = np.full(len(cards), v, dtype=np.float64)
        else:
            weights = (v if idx is None else v[idx]).astype(np.float64)
        return cards, weights

    def rank_weights(self, dead: Cards = ()) -> tuple[np.ndarray[Any, Any] | None, np.ndarray[Any, Any]]:
        """The range's total weight at each rank once every hand holding a dead card is removed:
        ``(low, badugi)`` float64 arrays indexed by rank - 1 (lower is better; ``low`` is None for a
        four-card game).  Divided by their sum, a villain's chance of each rank.

        >>> low, bd = Range("8low+", "a5").rank_weights(dead="As 2h 3d 4c Kd")
        >>> len(low), float(low[0]), float(bd.sum()) == float(low.sum())    # 3 * 3 * 3 * 3 * 4 wheels left
        (6175, 324.0, True)
        """
        keep, v = self._select(int(_card_mask(parse_cards(dead))))
        low_t, bd_t = hand_ranks(self._size, self._ace_high)
        w: np.ndarray[Any, Any] | None = None
        if not isinstance(v, float):
            w = (v if keep is None else v[keep]).astype(np.float64)
        scale = v if isinstance(v, float) else 1.0

        def count(table: np.ndarray[Any, Any], n: int) -> np.ndarray[Any, Any]:
            got: np.ndarray[Any, Any] = np.bincount(table if keep is None else table[keep], weights=w,
                                                    minlength=n + 1)[1:].astype(np.float64) * scale
            return got

        bd = count(bd_t, reference.BADUGI_CLASS_COUNT)
        low = None if low_t is None else count(low_t, reference.LOW_CLASS_COUNTS[GAMES[self._ace_high]])
        return low, bd

    def __len__(self) -> int:
        if self._len is None:
            keep, v = self._select(0)
            self._len = comb(52, self._size) if keep is None else int(np.count_nonzero(keep))
        return self._len

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Range):
            return NotImplemented
        if self._game != other._game:
            return False
        if self.text == other.text:
            return True
        a, b = self._weights(), other._weights()
        if isinstance(a, float):
            if isinstance(b, float):
                return a == b
            return bool(np.all(b.astype(np.float32) == np.float32(a)))
        if isinstance(b, float):
            return bool(np.all(a.astype(np.float32) == np.float32(b)))
        return bool(np.array_equal(a.astype(np.float32), b.astype(np.float32)))

    def __hash__(self) -> int:
        return hash((self._game, len(self)))

    def __repr__(self) -> str:
        return f"Range({self.text!r}, game={self._game!r})"

    def __str__(self) -> str:
        return self.text
