"""``badacey draw``, ``badacey best-discard`` and ``badacey equity``: what a draw can bring, and pot shares.

Every rank printed is dense and lower is better; probabilities are exact counts over every possible
replacement unless a line says "Monte Carlo".  Runs longer than a second draw a progress bar on stderr.
"""

from __future__ import annotations

import argparse

from badacey_fast.rules import reference as reference
from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.cli.progress import add_progress_option, progress_bar, progress_callback
from badacey_fast.draw.outcomes import DrawOutcomes, best_discards, draw_outcomes
from badacey_fast.draw.equities import equity
from badacey_fast.rules.games import GAMES, Scoring, scoring

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the draw, best-discard and equity subcommands to the ``badacey`` parser."""
    p = subparsers.add_parser("draw", help="exact outcomes of one draw (lower rank is better)",
                              description="Every replacement of the discarded cards from the unseen cards, "
                              "counted exactly: badugi sizes, low categories, expected ranks (lower is better).")
    p.add_argument("hand", help='five cards, e.g. "As 2h 3d Kc Kd"')
    p.add_argument("--discard", default="", help='cards thrown, e.g. "Kc Kd" (default: stand pat)')
    _common(p)
    p.add_argument("--low-target", help="also print P(low at least as good as this hand or low rank)")
    p.set_defaults(handler=_draw)

    p = subparsers.add_parser("best-discard", help="rank all 32 discards of a hand",
                              description="All 32 discards, best first by the objective, with their figures.")
    p.add_argument("hand", help='five cards, e.g. "2h 4h 6h 7h Ac"')
    _common(p)
    p.add_argument("--objective", choices=("badugi", "low", "share"), default="badugi",
                   help="badugi: P(4-card badugi); low: P(low at least as good as --target); "
                   "share: pot share against --opponent standing pat (default: badugi)")
    p.add_argument("--target", help="hand or low rank for the low objective and column (default: the hand's low)")
    p.add_argument("--opponent", help="the opponent's five cards (for --objective share)")
    p.add_argument("--opponent-discard", help="the cards the opponent throws (default: stands pat)")
    p.add_argument("--samples", type=int, default=None, help="Monte Carlo samples per discard when the "
                   "opponent draws and exact enumeration is too big")
    p.add_argument("--seed", type=int, default=None, help="Monte Carlo seed")
    p.set_defaults(handler=_best)

    p = subparsers.add_parser("equity", help="each seat's expected pot share after one draw",
                              description="Pot shares after every seat draws once: exact when the outcomes are "
                              "few enough, else seeded Monte Carlo with its standard error.")
    p.add_argument("hands", nargs="+", help='2 to 6 hands; "?" for a hand unknown to us; with --vs, hero\'s hand alone')
    p.add_argument("--discard", action="append", default=None,
                   help='one per seat in order, "-" to stand pat (default: everyone stands pat)')
    _common(p)
    p.add_argument("--samples", type=int, default=None, help="Monte Carlo samples (forces Monte Carlo)")
    p.add_argument("--seed", type=int, default=None, help="Monte Carlo seed")
    p.add_argument("--vs", action="append", default=None, metavar="RANGE",
                   help='a villain\'s range, e.g. "8low+, 9badugi+" (repeat for more villains)')
    p.add_argument("--draws", type=int, default=0, help="with --vs: draws before the showdown, 0 to 3 (default 0)")
    p.set_defaults(handler=_equity)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dead", default="", help="cards known to be out of the deck")
    p.add_argument("--game", default="badacey", help=f"{' or '.join(GAMES)} (default: badacey)")
    add_progress_option(p)


def _target_rank(target: str | None, hand: tuple[int, ...], game: Scoring) -> int:
    if target is None:
        return reference.low_rank(hand, game)
    if target.strip().isdigit():
        return int(target)
    return reference.low_rank(parse_cards(target, count=5), game)


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}%"


def _draw(args: argparse.Namespace) -> int:
    game = scoring(args.game)
    with progress_bar(args, desc="draw", unit=" outcomes") as bar:
        out = draw_outcomes(args.hand, args.discard, args.dead, game, progress=progress_callback(bar))
    hand = parse_cards(args.hand)
    print(f"{game.game}: {format_cards(hand)}, discard [{format_cards(out.discard) or 'none: pat'}], "
          f"{out.total:,} equally likely outcomes (exact; ranks: lower is better)")
    print("badugi size: " + "  ".join(f"{k}-card {_pct(p)}" for k, p in out.badugi_sizes().items()))
    print("low category: " + "  ".join(f"{c} {_pct(p)}" for c, p in out.low_categories().items() if p))
    print("no-pair low by top card: " + "  ".join(f"{h}-low {_pct(p)}" for h, p in out.low_high_cards().items()))
    print(f"expected low rank {out.expected_low_rank:.1f}, expected badugi rank {out.expected_badugi_rank:.1f}")
    if args.low_target is not None:
        rank = _target_rank(args.low_target, hand, game)
        print(f"P(low rank <= {rank}, {reference.describe_low_rank(rank, game)} or better) {_pct(out.p_low(rank))}")
    return 0


def _best(args: argparse.Namespace) -> int:
    game = scoring(args.game)
    hand = parse_cards(args.hand, count=5)
    rank = _target_rank(args.target, hand, game)
    with progress_bar(args, desc="best-discard", unit=" outcomes") as bar:
        choices = best_discards(hand, args.dead, game, args.objective, target=rank, opponent=args.opponent,
                                opponent_discard=args.opponent_discard, samples=args.samples, seed=args.seed,
                                progress=progress_callback(bar))
    what = {"badugi": "P(4-card badugi)", "low": f"P(low rank <= {rank})", "share": "pot share vs the opponent"}
    print(f"{game.game}: {format_cards(hand)}; all 32 discards, best first by {what[args.objective]} "
          f"(exact counts of our draw; ranks: lower is better)")
    if any(ch.stderr for ch in choices):
        print("scores with +/- are Monte Carlo estimates with their standard error")
    print(f"low target: rank {rank}, {reference.describe_low_rank(rank, game)}")
    print(f"{'#':>2}  {'discard':<15} {'outcomes':>9} {'badugi':>8} {'3+card':>8} {'no-pair':>8} "
          f"{'low<=tgt':>8} {'E[low]':>7} {'E[bdg]':>7} {'score':>8}")
    for i, ch in enumerate(choices, 1):
        o: DrawOutcomes = ch.outcomes
        sizes = o.badugi_sizes()
        print(f"{i:>2}  {format_cards(ch.discard) or 'pat':<15} {o.total:>9,} {_pct(sizes[4]):>8} "
              f"{_pct(sizes[4] + sizes[3]):>8} {_pct(o.low_categories()['no pair']):>8} "
              f"{_pct(o.p_low(rank)):>8} {o.expected_low_rank:>7.1f} {o.expected_badugi_rank:>7.1f} "
              f"{ch.score:>8.5f}" + (f" +/- {ch.stderr:.5f}" if ch.stderr else ""))
    return 0


def _equity(args: argparse.Namespace) -> int:
    if args.vs is not None:
        from badacey_fast.cli.ranges import equity_vs_ranges

        return equity_vs_ranges(args)
    hands: list[str | None] = [None if h.strip() in ("?", "") else h for h in args.hands]
    discards: list[str | None] | None = None
    if args.discard is not None:
        discards = [None if d.strip() in ("-", "") else d for d in args.discard]
    game = scoring(args.game)
    with progress_bar(args, desc="equity", unit=" outcomes") as bar:
        eq = equity(hands, discards, args.dead, game, samples=args.samples, seed=args.seed, progress=progress_callback(bar))
    how = "exact" if eq.exact else f"Monte Carlo, {'seed ' + str(args.seed) if args.seed is not None else 'unseeded'}"
    print(f"{game.game}: {eq.outcomes:,} {'outcomes' if eq.exact else 'samples'} ({how})")
    for seat, hand in enumerate(hands):
        thrown_text = None if discards is None else discards[seat]
        thrown = "" if thrown_text is None else format_cards(thrown_text)
        text = "unknown" if hand is None else format_cards(hand)
        err = "" if eq.exact else f" +/- {eq.stderr[seat]:.4f}"
        print(f"seat {seat}: {text:<15} discard [{thrown or 'pat'}]  share {eq.shares[seat]:.4f}{err}  "
              f"(low half {eq.low[seat]:.4f}, badugi half {eq.badugi[seat]:.4f})")
    return 0
