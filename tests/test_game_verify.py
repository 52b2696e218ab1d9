"""The engine's fast forms of the action rules equal game/verify.py's checks (issue 9).

:mod:`badacey_fast.game.verify` states each rule once, with its refusal.  The hot path keeps a fast form
of them: :meth:`Game.legal_actions` (the legal set, cached per state) and :meth:`Game.apply` fed an object
of that set, or a draw's id tuple checked inline.  On thousands of random hands (every preset, 2 to 6
seats, short and deep stacks, caps, heads-up uncapped, burns, antes), at every decision:

- ``legal_actions()`` is exactly what the ``verify_*`` functions allow, with the same amounts;
- random actions, legal and illegal, give the same result on the fast path (``apply(a)``), the checked
  path (``apply(a, seat=...)``) and :func:`verify_action`: the same new state, or the same error class
  and message with the state left identical (a deep snapshot);
- the verify functions never change the state.

And the game package's modules import one another without a cycle.
"""

from __future__ import annotations

import ast
import collections
import pathlib
import random
import re

import pytest

import badacey_fast.game as game_pkg
from badacey_fast.cards import format_cards
from badacey_fast.errors import BadaceyError, IllegalActionError
from badacey_fast.game import Action, Game, GameConfig
from badacey_fast.game.actions import DRAW
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.game.config import PRESETS
from badacey_fast.game.verify import (
    verify_action,
    verify_bet,
    verify_call,
    verify_check,
    verify_draw,
    verify_fold,
    verify_raise,
)

KINDS = ("fold", "check", "call", "bet", "raise", "draw")
STACKS = (1, 2, 3, 4, 5, 7, 9, 13, 17, 23, 30, 47, 200)


def _config(rng: random.Random, k: int) -> GameConfig:
    ante = k % 11 == 0
    bet = rng.choice([2, 2, 10])  # big bets leave room for all-ins of less than half a bet
    return GameConfig(
        small_bet=bet,
        big_bet=2 * bet,
        game=PRESETS[k % len(PRESETS)],
        small_blind=0 if ante else 1,
        big_blind=0 if ante else 2,
        ante=1 if ante else 0,
        cap=rng.choice([4, 4, 3, 1, None]),
        heads_up_uncapped=rng.random() < 0.3,
        burn=bool(k // len(PRESETS) % 2),
    )


def _shape(message: str) -> str:
    return re.sub(r"\d+|[2-9TJQKA][cdhs]", "#", message)


def _verified_legal(g: Game, seen: collections.Counter) -> tuple:
    """The legal set as the verify functions see it (their refusals counted in ``seen``)."""
    if g.is_over:
        return ()
    if g.phase == "drawing":
        hand = tuple(g.hands[g.to_act])
        assert verify_draw(g, hand) == (hand, [])
        assert verify_draw(g, ()) == ((), list(hand))
        return (Action(DRAW, None, hand),)
    out = []
    for check in (verify_fold, verify_check, verify_call, verify_bet, verify_raise):
        try:
            out.append(check(g))
        except IllegalActionError as exc:
            seen[_shape(str(exc))] += 1
    return tuple(out)


def _candidates(rng: random.Random, g: Game) -> list:
    """Actions to try: a few legal ones and many illegal ones, in every form apply accepts."""
    out: list = []
    legal = g.legal_actions()
    if g.phase == "drawing":
        hand = list(g.hands[g.to_act])
        out.append(Action(DRAW, None, tuple(rng.sample(hand, rng.randint(0, len(hand))))))   # legal
        if len(hand) >= 2:
            out.append(Action(DRAW, None, (hand[1], hand[0], hand[1])))                      # twice
        out.append(Action(DRAW, None, (rng.randrange(52),)))                                 # maybe not held
        out.append(Action(DRAW, None, rng.choice([None, [hand[0]], format_cards(hand[:2]), (99,), "zz"])))
        out.append(Action(rng.choice(KINDS[:5]), rng.choice([None, 2])))                    # betting now
    else:
        out.extend(rng.sample(legal, min(2, len(legal))))
        for _ in range(3):
            kind = rng.choice(KINDS)
            amount = rng.choice([None, None, 0, 1, 2, 3, 4, 6, 8, 12, 40] + [a[1] for a in legal])
            out.append(Action(kind, amount, (1, 2) if kind == DRAW else None))
        out.append(rng.choice(KINDS[:5]))  # a bare kind
    return out


def _outcome(g: Game, action: object, seat: int | None, before: tuple) -> tuple:
    """Apply ``action`` to ``g`` (a copy of the state whose snapshot is ``before``)."""
    try:
        g.apply(action, seat=seat) if seat is not None else g.apply(action)
    except (BadaceyError, TypeError, ValueError) as exc:
        assert g.snapshot() == before, f"a refused {action!r} changed the state"
        return ("refused", type(exc), str(exc))
    return ("applied", g.snapshot(), g.log[-1])


# Block 0 (500 hands) everywhere; blocks 1 to 5 are soak-sized.  The action rules read no hand's rank, so
# the test runs once, not once a twin (the showdowns it reaches are the engine tests' subject).
@pytest.mark.backend_independent
@pytest.mark.parametrize("block", [0] + [pytest.param(b, marks=pytest.mark.exhaustive) for b in range(1, 6)])
def test_fast_paths_equal_the_verify_functions(block: int) -> None:
    rng = random.Random(1000 + block)
    seen = collections.Counter()
    for k in range(block * 500, (block + 1) * 500):  # 3,000 hands in all
        cfg = _config(rng, k)
        n = rng.randint(2, 6)
        deep = rng.random() < 0.4
        stacks = [rng.choice(STACKS[-2:] if deep else STACKS) for _ in range(n)]
        g = Game(cfg, stacks, button=rng.randrange(n), seed=k)
        bots = [RandomBot(seed=k * 7 + i) if (k + i) % 3 else RuleBot(seed=k + i) for i in range(n)]
        while not g.is_over:
            before = g.snapshot()
            legal = g.legal_actions()
            assert legal == _verified_legal(g, seen), (k, g)
            cands = _candidates(rng, g)
            for cand in rng.sample(cands, 2):  # a sample keeps the test quick; 3,000 hands vary them
                fast = _outcome(g.copy(), cand, None, before)
                checked = _outcome(g.copy(), cand, g.to_act, before)
                assert fast == checked, (k, cand, fast, checked)
                try:
                    verified, _keep = verify_action(g, cand)
                except (BadaceyError, TypeError, ValueError) as exc:
                    assert fast[0] == "refused" and (type(exc), str(exc)) == fast[1:], (k, cand)
                    seen[_shape(str(exc))] += 1
                else:
                    assert fast[0] == "applied" and fast[2] == (g.to_act, verified), (k, cand)
                    seen["applied"] += 1
            if rng.random() < 0.25:  # a wrong seat: refused (out of turn), the state unchanged
                refused = _outcome(g.copy(), cand, (g.to_act + 1) % n, before)
                assert refused[0] == "refused" and "out of turn" in refused[2]
            assert g.snapshot() == before, "a verify function changed the state"
            g.apply(bots[g.to_act](g.view(g.to_act)))
        with pytest.raises(IllegalActionError, match="hand is over"):
            verify_action(g, "fold")
    # Every rule was met at least once in each block (so the comparison above covered it).
    rules = {
        "no amount": "takes no amount",
        "fold when one may check": "may check: folding",
        "check facing a bet": "check is not allowed",
        "nothing to call": "nothing to call",
        "call amount": "calls #, not",
        "bet vs raise": "there is a bet to raise",
        "raise vs bet": "there is no bet yet",
        "others all-in": "every other live seat is all-in",
        "nobody could call": "no other live seat could call it",
        "stack too short": "chips do not cover",
        "cap": "capped at",
        "not reopened": "not reopened",
        "limit": "(limit), not",
        "not held": "does not hold that card",
        "named twice": "twice",
        "must draw": "must draw now",
        "must bet": "must bet now",
    }
    missing = [name for name, text in rules.items() if not any(text in msg for msg in seen)]
    assert not missing, (missing, seen.most_common())
    assert seen["applied"] > 1000


def test_game_modules_import_no_cycle() -> None:
    """Every import statement of every game module (function level and TYPE_CHECKING blocks too)."""
    root = pathlib.Path(game_pkg.__file__).parent
    mods = {p.stem for p in root.glob("*.py")} - {"__init__"}
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m in mods:
        for node in ast.walk(ast.parse((root / f"{m}.py").read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "badacey_fast.game":
                    edges[m].update(a.name for a in node.names if a.name in mods)
                elif node.module.startswith("badacey_fast.game."):
                    edges[m].add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                edges[m].update(a.name.split(".")[2] for a in node.names if a.name.startswith("badacey_fast.game."))
    # Depth-first search for a back edge.
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(edges[m] - {m}):
            assert state.get(d) != 1, f"import cycle: {' -> '.join(path[path.index(d):] + [m, d])}"
            if d not in state:
                visit(d, path + [m])
        state[m] = 2

    for m in sorted(mods):
        if m not in state:
            visit(m, [])
