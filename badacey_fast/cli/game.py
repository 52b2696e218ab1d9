"""``badacey simulate`` (bots against bots, with a progress bar) and ``badacey play`` (you against bots).

``play`` reads your moves from stdin, so it can be scripted: ``printf 'c\\nk\\npat\\n...' | badacey play``.
Moves: ``f``/``fold``, ``k``/``check``, ``c``/``call``, ``b``/``bet``, ``r``/``raise``; when drawing, the
cards to throw (``Kc Kd``) or ``pat``.  Ranks shown are dense, lower is better.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import BadaceyError
from badacey_fast.game.actions import BET, CALL, CHECK, DRAW, FOLD, RAISE, Action, format_action
from badacey_fast.game.bots import BOTS
from badacey_fast.errors import ConfigError
from badacey_fast.game.config import PRESETS, GameConfig
from badacey_fast.rules.games import BADUGI, LOW, Scoring, scoring
from badacey_fast.game.simulate import Bot, simulate
from badacey_fast.cli.columnar import add_dask_arguments, dask_client
from badacey_fast.game.state import COMPLETE, Game
from badacey_fast.cli.progress import add_progress_option, progress_bar

__all__ = ["register", "describe_hand", "run_play"]

_SHORT = {"f": FOLD, "k": CHECK, "x": CHECK, "c": CALL, "b": BET, "r": RAISE}
_TITLES = {"badacey": "Badacey", "badeucy": "Badeucy", "badugi": "Badugi", "a5": "A-5 triple draw",
           "27": "2-7 triple draw"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the simulate and play subcommands to the ``badacey`` parser."""
    p = subparsers.add_parser("simulate", help="bots play many hands; winnings per 100 hands",
                              description="Bots play HANDS hands of fixed-limit triple draw; prints each bot's "
                              "winnings per 100 hands with a 95%% confidence interval.")
    p.add_argument("--hands", type=int, default=10_000, help="number of hands (default 10000)")
    p.add_argument("--bots", default="rule,random,random,random,random,random",
                   help="comma-separated bots, one per seat (2 to 6): " + ", ".join(BOTS))
    _common(p)
    add_progress_option(p)
    add_dask_arguments(p, "play the hands in partitions (seeds derived from --seed: same result on any workers)")
    p.add_argument("--partition-hands", type=int, default=10_000, help="with --dask: hands per partition")
    p.set_defaults(handler=_simulate)

    p = subparsers.add_parser("play", help="play against bots in the terminal",
                              description="Play hands against bots; your moves come from stdin.")
    p.add_argument("--bots", default="rule,rule", help="the other seats' bots, comma-separated (1 to 5)")
    p.add_argument("--hands", type=int, default=1, help="hands to play (default 1)")
    _common(p)
    p.set_defaults(handler=_play)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="badacey", help="one of " + ", ".join(PRESETS) + " (default badacey)")
    p.add_argument("--seed", type=int, default=None, help="seed for deals and bots (default: random)")
    p.add_argument("--stack", type=int, default=None, help="chips per seat each hand (default 100 big blinds)")


def _bots(spec: str) -> list[Bot]:
    out: list[Bot] = []
    for i, name in enumerate(x.strip().lower() for x in spec.split(",") if x.strip()):
        if name not in BOTS:
            raise BadaceyError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}")
        out.append(BOTS[name]())
    return out


def _simulate(args: argparse.Namespace) -> int:
    bots = _bots(args.bots)
    config = GameConfig(game=args.game)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    if args.dask:  # badacey_fast.dask: partitions of --partition-hands hands (cli/columnar.py)
        from badacey_fast.dask import simulate as simulate_dask

        with dask_client(args) as client:
            result = simulate_dask(bots, args.hands, seed, config, args.stack, client=client,
                                   scheduler=args.local_scheduler, partition_hands=args.partition_hands,
                                   progress=not args.no_progress)
    else:
        with progress_bar(args, total=args.hands, desc="simulate", unit=" hands",
                          delay=0.0) as bar:

            def step(done: int) -> None:
                bar.update(done - bar.n)

            result = simulate(bots, hands=args.hands, seed=seed, config=config, stack=args.stack, progress=step)
    print(f"{_TITLES[config.game]}, {len(bots)} seats, seed {seed}")
    print(result.table())
    return 0


# ------------------------------------------------------------------------------------------------ play

def describe_hand(cards: tuple[int, ...], game: Scoring | str) -> str:
    """Words for a hand in ``game`` (a preset name, or its Scoring), with its dense ranks (lower is better).

    >>> describe_hand(parse_cards("2h 4h 6h 7h Ac"), "badacey")
    'low 7-6-4-2-A low (rank 13), badugi 2-card 2-A (rank 1002)'
    >>> describe_hand(parse_cards("As 2c 3d 4h"), "badugi")
    'badugi 4-3-2-A badugi (rank 1)'
    >>> describe_hand(parse_cards("As 2c 3d 4h"), "badacey")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.HandSizeError: expected 5 cards, got 4: 'As 2c 3d 4h'
    """
    from badacey_fast.evaluator import badugi_rank, evaluate, low_rank
    from badacey_fast.rules import reference as reference

    rules = scoring(game)
    if rules.halves == (BADUGI,):
        r = badugi_rank(cards, rules.ace_high)
        return f"badugi {reference.describe_badugi_rank(r, rules.ace_high)} (rank {r})"
    if rules.halves == (LOW,):
        r = low_rank(cards, rules)
        return f"low {reference.describe_low_rank(r, rules)} (rank {r})"
    v = evaluate(cards, rules)
    return (f"low {reference.describe_low_rank(v.low, rules)} (rank {v.low}), "
            f"badugi {reference.describe_badugi_rank(v.badugi, rules.ace_high)} (rank {v.badugi})")


def _table(g: Game, me: int, names: list[str], out: TextIO) -> None:
    for s in range(g.n):
        tags = []
        if s == g.button:
            tags.append("BTN")
        if s == g.sb_seat:
            tags.append("SB")
        if s == g.bb_seat:
            tags.append("BB")
        cards = format_cards(g.hands[s]) if s == me else " ".join(["??"] * g.config.hand_size)
        state = "folded" if g.folded[s] else ("all-in" if g.stacks[s] == 0 else "")
        mark = ">" if s == g.to_act else " "
        out.write(f"{mark} {names[s]:<16} stack {g.stacks[s]:>5}  bet {g.sbet[s]:>4}  "
                  f"{'/'.join(tags):<7} {cards:<15} {state}\n")
    out.write(f"  pot {g.pot}\n")


def _legal_text(acts: tuple[Action, ...]) -> str:
    words = []
    for a in acts:
        if a.kind == DRAW:
            return "discard the cards to throw (e.g. 'Kc Kd') or 'pat'"
        words.append(format_action(a))
    return ", ".join(words)


def _read_move(g: Game, inp: TextIO, out: TextIO) -> Action | None:
    acts = g.legal_actions()
    while True:
        out.write(f"Your move ({_legal_text(acts)}): ")
        out.flush()
        line = inp.readline()
        if not line:
            return None
        if not getattr(inp, "isatty", lambda: False)():
            out.write(line if line.endswith("\n") else line + "\n")  # echo piped moves: a readable transcript
        text = line.strip().lower()
        try:
            if g.phase == "drawing":
                if text in ("pat", "p", "0", "none", ""):
                    return Action(DRAW, None, ())
                text = text.removeprefix("draw").removeprefix("d ").strip()
                return Action(DRAW, None, parse_cards(text))
            kind = _SHORT.get(text.split()[0] if text else "", text.split()[0] if text else "")
            legal = {a.kind: a for a in acts}
            if kind in legal:
                return legal[kind]
            out.write(f"  not possible now: {text or '(empty)'}; legal: {_legal_text(acts)}\n")
        except BadaceyError as exc:
            out.write(f"  {exc}\n")


def run_play(bots: Sequence[Bot], hands: int = 1, game: str = "badacey", seed: int | None = None,
             stack: int | None = None, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Play ``hands`` hands at seat 0 against ``bots`` (seats 1..); moves from ``inp``; returns net chips.

    >>> import io
    >>> from badacey_fast.game.bots import RandomBot
    >>> out = io.StringIO()
    >>> run_play([RandomBot(seed=1)], seed=3, inp=io.StringIO(""), out=out)   # no input: stops at once
    0
    >>> run_play([], inp=io.StringIO(""))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: a hand needs 2 to 6 seats, got 1
    """
    inp = inp or sys.stdin
    out = out or sys.stdout
    config = GameConfig(game=game)
    n = len(bots) + 1
    if not 2 <= n <= 6:
        raise ConfigError(f"a hand needs 2 to 6 seats, got {n}")
    names = ["Seat 0 (you)"] + [f"Seat {i} ({getattr(b, 'name', 'bot')})" for i, b in enumerate(bots, 1)]
    rng = random.Random(seed)
    for i, b in enumerate(bots):
        if hasattr(b, "reseed"):
            b.reseed(rng.randrange(2**31))
    unit = config.big_blind or config.small_bet
    chips = stack if stack is not None else 100 * unit
    net = 0
    for h in range(hands):
        g = Game(config, [chips] * n, button=h % n, rng=rng)
        out.write(f"\n=== {_TITLES[config.game]}: hand {h + 1} of {hands}; blinds {config.small_blind}/"
                  f"{config.big_blind}, bets {config.small_bet}/{config.big_bet} ===\n")
        _table(g, 0, names, out)
        last_phase = (g.phase, g.street)
        while g.phase != COMPLETE:
            if (g.phase, g.street) != last_phase:
                last_phase = (g.phase, g.street)
                what = f"draw {g.street + 1}" if g.phase == "drawing" else f"betting round {g.street + 1}"
                out.write(f"--- {what} ---\n")
                _table(g, 0, names, out)
            s = g.to_act
            if s == 0:
                out.write(f"Your cards: {format_cards(g.hands[0])}: {describe_hand(tuple(g.hands[0]), config.scoring)}\n")
                move = _read_move(g, inp, out)
                if move is None:
                    out.write("\n(end of input: leaving the table)\n")
                    return net
                g.apply(move, seat=0)
                if move.kind == DRAW:
                    out.write(f"You get {format_cards(g.hands[0][len(g.hands[0]) - len(move.cards or ()):]) or 'nothing'}"
                              f"; you hold {format_cards(g.hands[0])}\n")
            else:
                move = bots[s - 1](g.view(s))
                g.apply(move, seat=s)
                text = f"draws {len(move.cards or ())}" if move.kind == DRAW else format_action(move)
                out.write(f"{names[s]} {'stands pat' if text == 'draws 0' else text}\n")
        out.write("--- result ---\n")
        if g.settlement is not None:
            out.write(g.settlement.explain(names) + "\n")
        else:
            w = g.folded.index(False)
            out.write(f"{names[w]} takes the pot of {sum(g.contrib)} chips: everyone else folded\n")
        if any(g.returned):
            back = [f"{names[s]} {r}" for s, r in enumerate(g.returned) if r]
            out.write(f"uncalled chips returned: {', '.join(back)}\n")
        won = g.winnings[0]
        net += won
        out.write(f"You {'win' if won >= 0 else 'lose'} {abs(won)} chips this hand ({net:+d} in total)\n")
    return net


def _play(args: argparse.Namespace) -> int:
    bots = _bots(args.bots)
    run_play(bots, hands=args.hands, game=args.game, seed=args.seed, stack=args.stack)
    return 0
