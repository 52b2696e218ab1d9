"""``badacey solve``: solve a small heads-up draw game exactly (CFR+ and its exploitability curve), train a
full-size strategy (MCCFR), or measure a bot with local best response.

    badacey solve badugi --ranks 3 --suits 2 --hand-size 1 --draws 1 --cap 1 --iterations 500 --plot curve.png
    badacey solve badugi --lbr rule --hands 20000
    badacey solve badugi --mccfr --time-limit 600 --save strategy.npz

The solver's imports are lazy: ``badacey --help`` does not load numpy or the solver.
"""

from __future__ import annotations

import argparse
import json
from typing import Any
from badacey_fast.cli.progress import add_progress_option, progress_bar

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``solve`` subcommand."""
    p = subparsers.add_parser(
        "solve", help="solve a small draw game (CFR+), train MCCFR, or measure a bot (LBR)",
        description="Solve a small heads-up draw game exactly with CFR+ and print its exploitability curve "
        "(mbb/hand: milli-big-bets per hand), train a full-size strategy with MCCFR (--mccfr), or measure a "
        "bot's exploitability from below with local best response (--lbr BOT).")
    p.add_argument("game", help="badacey, badeucy, badugi, a5 or 27 (any spelling), or a named small game "
                   "(nano-badugi, micro-badugi, tiny-badugi, mini-badugi ...: badacey_fast.game.small)")
    size = p.add_argument_group("the game's size (RULES.md section 6; the full game by default)")
    size.add_argument("--ranks", type=int, default=None, help="the R lowest ranks of the game's order (1..13)")
    size.add_argument("--suits", type=int, default=None, help="suits (Badugi: 2..4)")
    size.add_argument("--hand-size", type=int, default=None, help="cards per hand (Badugi: 1..4)")
    size.add_argument("--draws", type=int, default=None, help="draws (0..3)")
    size.add_argument("--cap", type=int, default=None, help="bets per round (default 4)")
    size.add_argument("--stack", type=int, default=None, help="each seat's chips (default: deep)")
    run = p.add_argument_group("solving (exact: CFR+, DCFR or CFR)")
    run.add_argument("--iterations", type=int, default=None, help="iterations to run")
    run.add_argument("--target-mbb", type=float, default=None, help="stop at this exploitability (mbb/hand)")
    run.add_argument("--time-limit", type=float, default=None, help="stop after this many seconds")
    run.add_argument("--method", default="cfr+", help="cfr+ (default), dcfr or cfr")
    run.add_argument("--every", type=int, default=None, help="measure every so many iterations")
    run.add_argument("--checkpoint", default=None, help="checkpoint file, written at each measurement")
    run.add_argument("--resume", default=None, help="a checkpoint to continue from")
    run.add_argument("--save", default=None, help="write the average strategy (.npz)")
    run.add_argument("--plot", default=None, help="draw the curve into this image (needs the [plot] extra)")
    full = p.add_argument_group("full-size games")
    full.add_argument("--mccfr", action="store_true", help="train with external-sampling MCCFR")
    full.add_argument("--buckets", type=int, default=64, help="MCCFR: equity buckets (0: suit classes alone)")
    full.add_argument("--lbr", default=None, metavar="BOT",
                      help="measure BOT (random, rule, or an MCCFR strategy file) with local best response")
    full.add_argument("--hands", type=int, default=20_000, help="LBR: hands (pairs, one in each seat)")
    full.add_argument("--particles", type=int, default=512, help="LBR: particles of its belief (default 512)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampling runs (default 0)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_progress_option(p)
    p.set_defaults(handler=_solve)


def _solve(args: argparse.Namespace) -> int:
    if args.lbr is not None:
        return _lbr(args)
    _check_outputs(args)
    if args.mccfr:
        return _mccfr(args)
    from badacey_fast.solve import GameSpec, cfr

    spec = GameSpec.of(_game(args), **_sizes(args))
    result = cfr(spec, args.iterations, args.target_mbb, args.time_limit, method=args.method, every=args.every,
                 checkpoint=args.checkpoint, resume=args.resume, progress=False if args.no_progress else None)
    if args.save:
        result.strategy.save(args.save)
    if args.plot:
        result.plot(args.plot)
    if args.json:
        print(json.dumps({"game": spec.label(), "method": result.method, "iterations": result.iterations,
                          "seconds": result.seconds, "exploitability_mbb": result.exploitability_mbb,
                          "stopped": result.stopped,
                          "curve": [list(p) for p in result.curve]}))
    else:
        print(result.curve_table())
        print(result)
    return 0


def _check_outputs(args: argparse.Namespace) -> None:
    """The outputs, checked before a long run rather than after it: the plot's extra and format, each
    output a file of its own, and none of them the checkpoint the run resumes from."""
    from badacey_fast.cli.figures import check_plot_path
    from badacey_fast.files.outputs import check_distinct, check_not_input

    check_plot_path(args.plot)
    outputs = {"--checkpoint": args.checkpoint, "--save": args.save, "--plot": args.plot}
    check_distinct(outputs)
    for path in outputs.values():
        if path is not None and args.resume is not None:
            check_not_input(path, [args.resume])


def _sizes(args: argparse.Namespace) -> dict[str, Any]:
    sizes = {k: getattr(args, k) for k in ("ranks", "suits", "hand_size", "draws", "cap", "stack")}
    return {k: v for k, v in sizes.items() if v is not None}


def _game(args: argparse.Namespace) -> Any:
    """The game argument: a named small game's config (its stack unless --stack), else the preset name."""
    from badacey_fast.game.small import SMALL_GAMES

    return SMALL_GAMES.get(args.game, args.game)  # a named game keeps its stack (some are all-in at once)


def _lbr(args: argparse.Namespace) -> int:
    from badacey_fast.solve import lbr
    from badacey_fast.solve.lbr import BOT_KINDS

    bot: Any = args.lbr
    if bot not in BOT_KINDS:
        from badacey_fast.solve.mccfr import MCCFRStrategy

        bot = MCCFRStrategy.load(bot)
    game = _game(args)
    sizes = _sizes(args)
    sizes.pop("stack", None)  # local best response plays deep stacks
    if sizes:
        from badacey_fast.solve import GameSpec

        game = GameSpec.of(game, **sizes)
    result = lbr(game, bot, hands=args.hands, particles=args.particles, seed=args.seed)
    if args.json:
        print(json.dumps({"game": result.game, "bot": result.bot, "hands": result.hands, "mbb": result.mbb,
                          "se_mbb": result.se_mbb, "by_seat": list(result.by_seat), "cpu_seconds": result.cpu_seconds,
                          "particles": result.particles, "lost": result.lost}))
    else:
        print(result)
    return 0


def _mccfr(args: argparse.Namespace) -> int:
    from badacey_fast.solve.mccfr import MCCFRStrategy, mccfr

    resume = MCCFRStrategy.load(args.resume) if args.resume else None
    game = _game(args)
    sizes = _sizes(args)
    sizes.pop("stack", None)
    if sizes:
        from badacey_fast.solve import GameSpec

        game = GameSpec.of(game, **sizes)
    result = mccfr(game, args.iterations, args.time_limit, buckets=args.buckets or None, seed=args.seed,
                   resume=resume, checkpoint=args.checkpoint, progress=False if args.no_progress else None)
    if args.save:
        result.save(args.save)
    if args.json:
        print(json.dumps({"game": result.game, "iterations": result.iterations, "seconds": result.seconds,
                          "information_states": result.information_states, "buckets": result.buckets}))
    else:
        print(result)
    return 0
