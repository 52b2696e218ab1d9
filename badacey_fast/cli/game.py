"""``badacey simulate`` (bots against bots, with a progress bar) and ``badacey play`` (you against bots).

``play`` reads your moves from stdin, so it can be scripted: ``printf 'c\\nk\\npat\\n...' | badacey play``.
Moves: ``f`` fold, ``k`` or ``x`` check, ``c`` call (check when there is nothing to call), ``b`` or ``r``
bet (raise when facing a bet), or the engine's own words (``call 2``, ``raise to 4``); when drawing, the
cards to throw (``Kc Kd``, or ``draw Kc Kd``) or ``pat``.  ``help`` lists the legal moves, ``quit`` (or the
end of input) leaves the table.  Any move that cannot be played is refused and asked again.  Ranks shown
are dense, lower is better.

``--bots`` takes built-in bots by name (``random``, ``rule``) and plugins, ``module:Class`` or
``path/to/file.py:Class`` (any object with the bot protocol: :func:`badacey_fast.game.bots.load_bot`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import BadaceyError, ConfigError, MissingExtraError
from badacey_fast.game.actions import BET, CALL, CHECK, DRAW, FOLD, RAISE, Action, format_action, parse_action
from badacey_fast.game.bots import BOTS, load_bots
from badacey_fast.game.config import PRESETS, GameConfig
from badacey_fast.rules.games import BADUGI, LOW, Scoring, scoring
from badacey_fast.game.state import COMPLETE, Game
from badacey_fast.cli.columnar import add_dask_arguments, dask_client
from badacey_fast.cli.figures import check_plot_path, save_figure
from badacey_fast.cli.progress import add_progress_option, progress_bar
from badacey_fast.files.outputs import check_distinct, check_not_input

if TYPE_CHECKING:
    from badacey_fast.game.history_file import HistoryFile
    from badacey_fast.game.simulate import Bot
    from badacey_fast.game.view import SeatView

__all__ = ["register", "describe_hand", "run_play", "SIMULATE_BOTS", "PLAY_BOTS"]

#: ``--bots`` defaults: simulate's six seats, and play's seats beside yours.
SIMULATE_BOTS = "rule,random,random,random,random,random"
PLAY_BOTS = "rule,rule"
_TITLES = {"badacey": "Badacey", "badeucy": "Badeucy", "badugi": "Badugi", "a5": "A-5 triple draw",
           "27": "2-7 triple draw"}
_BOTS_HELP = ("comma-separated, one a seat: built-in {builtins}, or a plugin module:Class or path/to/file.py:Class "
              "(any callable bot(view) -> Action; a class is called with no arguments); default %(default)s")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the simulate and play subcommands to the ``badacey`` parser."""
    p = subparsers.add_parser(
        "simulate", help="bots play many hands; winnings per 100 hands",
        description="Bots play HANDS hands of fixed-limit triple draw (every hand from the same stacks, the button "
        "moving); prints each bot's winnings per 100 hands with a 95% confidence interval. Built-in bots play on "
        "the C hand loop (about 600k six-handed hands a second for random bots, 150k for rule bots, on one "
        "core); a plugin bot, or --save, plays on the Python loop (about 12k and 2k a second).")
    p.add_argument("--hands", type=int, default=10_000, help="number of hands (default %(default)s)")
    p.add_argument("--bots", default=SIMULATE_BOTS, help="2 to 6 bots, " + _BOTS_HELP.format(builtins=", ".join(BOTS)))
    _common(p)
    p.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="write one row a hand (each seat's net, cards as text like 'As 2h 3d 4c 5s', folds, button, "
                        "showdown, pot) to FILE: .parquet (the [parquet] extra), .csv or .jsonl")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="save every hand's history to FILE: .phhs (PHH hand set) or .jsonl (JSON lines); plays on "
                        "the Python loop (the C loop keeps no histories)")
    p.add_argument("--plot", default=None, metavar="IMAGE",
                   help="draw each seat's net in big blinds over the hands, with a 95%% band, into IMAGE (.png, "
                        ".svg, .pdf; the [plot] extra)")
    p.add_argument("--json", action="store_true",
                   help="print the result as one JSON object (game, seed, engine, hands, showdowns, big_blind, and "
                        "per seat: bot, total chips, per100 and ci95 in chips, bb100 and bb100_ci95)")
    add_progress_option(p)
    add_dask_arguments(p, "play the hands in partitions (seeds derived from --seed: same result on any workers; "
                          "each partition on the C loop when it applies, so for built-in bots a single process is "
                          "usually faster: a local cluster takes seconds to start)")
    p.add_argument("--partition-hands", type=int, default=10_000,
                   help="with --dask: hands per partition (default %(default)s)")
    p.set_defaults(handler=_simulate)

    p = subparsers.add_parser(
        "play", help="play against bots in the terminal",
        description="Play hands against bots at seat 0; your moves come from stdin. Moves: f fold, k or x check, "
        "c call (check when nothing to call), b or r bet/raise, or words such as 'call 2', 'raise to 4'; when "
        "drawing, the cards to throw ('Kc Kd') or 'pat'. 'help' lists the legal moves, 'quit' or the end of "
        "input leaves; a move that cannot be played is asked again.")
    p.add_argument("--bots", default=PLAY_BOTS,
                   help="the other seats' bots (1 to 5), " + _BOTS_HELP.format(builtins=", ".join(BOTS)))
    p.add_argument("--hands", type=int, default=1, help="hands to play (default %(default)s)")
    _common(p)
    p.add_argument("--save", default=None, metavar="FILE",
                   help="save every finished hand's history to FILE: .phhs (PHH hand set) or .jsonl (JSON lines)")
    p.set_defaults(handler=_play)


class _Plugin:
    """A plugin bot as the command line runs it: whatever goes wrong inside it is one line naming the bot
    and its seat (its own errors, or something other than an action returned), not a traceback."""

    __slots__ = ("bot", "spec", "name")

    def __init__(self, bot: Bot, spec: str) -> None:
        self.bot, self.spec = bot, spec
        self.name = getattr(bot, "name", getattr(bot, "__name__", type(bot).__name__))

    def reseed(self, seed: int | None) -> None:
        reseed = getattr(self.bot, "reseed", None)
        if reseed is not None:
            reseed(seed)

    def __call__(self, view: SeatView) -> Action:
        try:
            action = self.bot(view)
        except Exception as exc:  # (not KeyboardInterrupt: Ctrl-C still stops the run)
            raise BadaceyError(f"bot {self.spec!r} at seat {view.seat} failed: {type(exc).__name__}: {exc}") from None
        if not isinstance(action, (Action, str)):
            raise BadaceyError(f"bot {self.spec!r} at seat {view.seat} returned {action!r}: a bot returns an Action")
        return action


def _load(spec: str) -> list[Bot]:
    """The bots ``--bots`` names: built-ins as they are (the C loop plays them), plugins wrapped."""
    names = [x.strip() for x in spec.split(",") if x.strip()]
    return [b if type(b) in BOTS.values() else _Plugin(b, name) for b, name in zip(load_bots(spec), names)]


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="badacey", help="one of " + ", ".join(PRESETS) + " (default badacey)")
    p.add_argument("--seed", type=int, default=None, help="seed for deals and bots (default: random)")
    p.add_argument("--stack", type=int, default=None, help="chips per seat each hand (default 100 big blinds)")


def _simulate(args: argparse.Namespace) -> int:
    try:
        return _simulate_checked(args)
    except MissingExtraError as exc:  # one line naming the extra, status 2, as every command
        print(f"badacey simulate: error: {exc}", file=sys.stderr)
        return 2


def _simulate_checked(args: argparse.Namespace) -> int:
    import contextlib

    from badacey_fast.game.history_file import HistoryFile, history_format
    from badacey_fast.game.records import records_format
    from badacey_fast.game.simulate import resolve_engine, simulate

    bots = _load(args.bots)
    config = GameConfig(game=args.game)
    # Everything a user typed is checked before the first hand: a bad output must not cost the run.
    check_distinct({"--output": args.output, "--save": args.save, "--plot": args.plot})
    if args.output is not None and records_format(args.output) == "parquet":
        MissingExtraError.require("pyarrow", "parquet", "Parquet files")
    if args.save is not None:
        history_format(args.save)
        if args.dask:
            raise BadaceyError("--save writes every hand's history from one process: drop --dask (or use -o for "
                               "one row a hand)")
    if args.plot is not None:
        check_plot_path(args.plot)
    records = args.output is not None or args.plot is not None
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    engine = resolve_engine(bots, config, "python" if args.save else "auto", args.stack)
    save_ctx = HistoryFile(args.save) if args.save is not None else contextlib.nullcontext(None)
    with save_ctx as save:
        if args.dask:  # badacey_fast.dask: partitions of --partition-hands hands (cli/columnar.py)
            from badacey_fast.dask import simulate as simulate_dask

            with dask_client(args) as client:
                result = simulate_dask(bots, args.hands, seed, config, args.stack, client=client,
                                       scheduler=args.local_scheduler, partition_hands=args.partition_hands,
                                       progress=not args.no_progress, records=records)
        else:
            with progress_bar(args, total=args.hands, desc="simulate", unit=" hands", delay=0.0) as bar:

                def step(done: int) -> None:
                    bar.update(done - bar.n)

                result = simulate(bots, hands=args.hands, seed=seed, config=config, stack=args.stack, progress=step,
                                  engine=engine, records=records, save=save)
    if args.output is not None:
        assert result.records is not None
        result.records.write(args.output)
    if args.plot is not None:
        save_figure(result.plot(), args.plot)
    where = "C hand loop" if engine == "c" else (
        "Python hand loop: --save keeps every hand's history" if args.save else
        "Python hand loop: plugin bots play in Python" if any(type(b) not in BOTS.values() for b in bots) else
        "Python hand loop")
    if args.json:
        print(json.dumps({"game": config.game, "seed": seed, "engine": engine, **result.to_dict()}))
        return 0
    print(f"{_TITLES[config.game]}, {len(bots)} seats, seed {seed}, {where}")
    print(result.table())
    for what, path in ((f"one row a hand ({result.hands} rows)", args.output),
                       (f"{result.hands} hand histories", args.save), ("the plot", args.plot)):
        if path is not None:
            print(f"wrote {what} to {path}")
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
            return "the cards to throw (e.g. 'Kc Kd') or 'pat'"
        words.append(format_action(a))
    return ", ".join(words)


_SHORT = {"f": FOLD, "k": CHECK, "x": CHECK, "c": CALL, "b": BET, "r": RAISE}
_KEYS = {FOLD: "f", CHECK: "k or x", CALL: "c", BET: "b", RAISE: "r or b"}
_QUIT = ("quit", "q", "exit")
_HELP = ("help", "h", "?")
_PAT = ("pat", "p", "stand pat", "0", "none")


def _help(g: Game) -> str:
    acts = g.legal_actions()
    if g.phase == "drawing":
        hand = format_cards(g.hands[g.to_act])
        return (f"  You hold {hand}. Type the cards to throw, e.g. '{format_cards(g.hands[g.to_act][-2:])}' (or "
                "'draw Kc Kd'), or 'pat' to keep them all.\n  'help' shows this; 'quit' leaves the table.\n")
    moves = ", ".join(f"{format_action(a)} ({_KEYS[a.kind]})" for a in acts)
    return (f"  Legal now: {moves}.\n  Type a move's letter or its words ('call 2', 'raise to 4'); 'c' checks "
            "when there is nothing to call, 'b' raises when facing a bet.\n  'help' shows this; 'quit' leaves "
            "the table.\n")


def _betting_move(g: Game, text: str) -> Action:
    """The action a line names in a betting round (IllegalActionError, worded for a player, if none)."""
    from badacey_fast.errors import IllegalActionError

    acts = g.legal_actions()
    legal = {a.kind: a for a in acts}
    kind = _SHORT.get(text)
    if kind is not None:
        # The two letters people use either way: 'c' checks with nothing to call, 'b' raises a bet.
        if kind == CALL and CALL not in legal and CHECK in legal:
            kind = CHECK
        elif kind in (BET, RAISE) and kind not in legal:
            kind = RAISE if kind == BET else BET
        if kind in legal:
            return legal[kind]
        raise IllegalActionError(f"not possible now: {text} ({kind}); legal: {_legal_text(acts)}")
    if text.split()[0] not in (FOLD, CHECK, CALL, BET, RAISE, DRAW, "stand", "pat"):
        raise IllegalActionError(f"not possible now: {text}; legal: {_legal_text(acts)} ('help' explains)")
    action = parse_action(text)
    if action.kind == DRAW:
        raise IllegalActionError(f"not possible now: {text} (this is a betting round); legal: {_legal_text(acts)}")
    if action.kind in legal and action.amount is None:
        return legal[action.kind]
    return action  # an amount: the engine checks it when applied


def _draw_move(g: Game, text: str) -> Action:
    """The draw a line names (the cards to throw must be in the hand)."""
    from badacey_fast.errors import IllegalActionError

    if text in _PAT:
        return Action(DRAW, None, ())
    if text.split()[0] in _SHORT or text.split()[0] in ("fold", "check", "call", "bet", "raise"):
        raise IllegalActionError(f"not possible now: {text} (this is a draw); type the cards to throw or 'pat'")
    if text.startswith(("draw ", "discard ", "d ")) and "(" not in text:
        text = text.split(None, 1)[1]
    try:
        cards = parse_action(text).cards if "(" in text else parse_cards(text)
    except BadaceyError as exc:
        raise IllegalActionError(f"cannot read {text!r} as the cards to throw ({exc}): e.g. 'Kc Kd', or 'pat'") \
            from None
    hand = g.hands[g.to_act]
    missing = [c for c in cards or () if c not in hand]
    if missing:
        raise IllegalActionError(f"{format_cards(missing)} {'is' if len(missing) == 1 else 'are'} not in your hand "
                                 f"({format_cards(hand)}): type the cards to throw, or 'pat'")
    return Action(DRAW, None, tuple(cards or ()))


def _human_turn(g: Game, inp: TextIO, out: TextIO) -> bool:
    """Ask for seat 0's move until one is played; False when the player leaves (``quit``, end of input)."""
    acts = g.legal_actions()
    while True:
        out.write(f"Your move ({_legal_text(acts)}; 'help'): ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n(end of input: leaving the table)\n")
            return False
        if not getattr(inp, "isatty", lambda: False)():
            out.write(line if line.endswith("\n") else line + "\n")  # echo piped moves: a readable transcript
        text = " ".join(line.strip().lower().split())
        if text in _QUIT:
            out.write("(leaving the table)\n")
            return False
        if text in _HELP:
            out.write(_help(g))
            continue
        if not text:
            out.write(f"  type a move ({_legal_text(acts)}), 'help' or 'quit'\n")
            continue
        try:
            move = _draw_move(g, text) if g.phase == "drawing" else _betting_move(g, text)
            g.apply(move, seat=0)  # refused with the state unchanged: asked again below
        except BadaceyError as exc:
            out.write(f"  {exc}\n")
            continue
        if move.kind == DRAW:
            k = len(move.cards or ())
            out.write(f"You get {format_cards(g.hands[0][len(g.hands[0]) - k:]) if k else 'nothing'}"
                      f"; you hold {format_cards(g.hands[0])}\n")
        return True


def run_play(bots: Sequence[Bot], hands: int = 1, game: str = "badacey", seed: int | None = None,
             stack: int | None = None, inp: TextIO | None = None, out: TextIO | None = None,
             save: HistoryFile | None = None) -> int:
    """Play ``hands`` hands at seat 0 against ``bots`` (seats 1..); moves from ``inp``; returns net chips.
    A move that cannot be played is refused and asked again; ``quit`` or the end of ``inp`` leaves the
    table (the net so far is returned).  ``save``: an open
    :class:`~badacey_fast.game.history_file.HistoryFile` that gets every finished hand.

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
    if type(hands) is not int or hands < 1:
        raise ConfigError(f"hands must be a positive int, got {hands!r}")
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
                if not _human_turn(g, inp, out):
                    return net
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
        if save is not None:
            save.add(g)
        won = g.winnings[0]
        net += won
        out.write(f"You {'win' if won >= 0 else 'lose'} {abs(won)} chips this hand ({net:+d} in total)\n")
    return net


def _play(args: argparse.Namespace) -> int:
    bots = _load(args.bots)
    if args.save is None:
        run_play(bots, hands=args.hands, game=args.game, seed=args.seed, stack=args.stack)
        return 0
    from badacey_fast.game.history_file import HistoryFile

    check_not_input(args.save, [sys.stdin])  # `badacey play --save moves.jsonl < moves.jsonl`
    with HistoryFile(args.save) as save:
        run_play(bots, hands=args.hands, game=args.game, seed=args.seed, stack=args.stack, save=save)
    print(f"wrote {save.written} hand histories to {args.save}")
    return 0
