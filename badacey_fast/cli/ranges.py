"""``badacey equity HAND --vs RANGE [--vs RANGE ...] [--draws N]``: hero's pot share against ranges."""

from __future__ import annotations

import argparse

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.cli.progress import progress_bar, progress_callback
from badacey_fast.errors import BadaceyError
from badacey_fast.rules.games import scoring

__all__ = ["equity_vs_ranges"]


def equity_vs_ranges(args: argparse.Namespace) -> int:
    """Print each seat's share (and its standard error when sampled) for hero against ``args.vs``."""
    from badacey_fast.draw.range_equity import range_equity
    from badacey_fast.draw.ranges import Range

    if len(args.hands) != 1:
        raise BadaceyError(f"with --vs give hero's hand alone, got {len(args.hands)} hands")
    sc = scoring(args.game)
    hero = parse_cards(args.hands[0], count=sc.hand_size)
    discard = None
    if args.discard is not None:
        if len(args.discard) != 1:
            raise BadaceyError("with --vs give one --discard: hero's first-draw discard")
        discard = () if args.discard[0].strip() in ("-", "") else args.discard[0]
        if not args.draws:
            raise BadaceyError("--discard with --vs needs --draws 1 or more")
    ranges = [Range(text, sc) for text in args.vs]
    with progress_bar(args, desc="equity", unit=" combos") as bar:
        eq = range_equity(hero, ranges, args.dead, sc, draws=args.draws, hero_discard=discard,
                          samples=args.samples, seed=args.seed, progress=progress_callback(bar))
    when = "showdown now" if not args.draws else f"{args.draws} draw{'s' if args.draws > 1 else ''}"
    if eq.exact:
        how = f"exact over {eq.outcomes:,} {'combos' if len(ranges) == 1 else 'tuples of combos'}"
    else:
        how = f"Monte Carlo, {eq.outcomes:,} samples, {'seed ' + str(args.seed) if args.seed is not None else 'unseeded'}"
    print(f"{sc.game}: {when} ({how}; shares of the pot, +/- one standard error where sampled)")
    rows = [f"hero {format_cards(hero)}"] + [f"vs {r.text} ({len(r):,} combos before card removal)" for r in ranges]
    for seat, label in enumerate(rows):
        err = "" if eq.exact else f" +/- {eq.stderr[seat]:.4f}"
        halves = "  (" + ", ".join(f"{h} half {(eq.low if h == 'low' else eq.badugi)[seat]:.4f}"
                                   for h in sc.halves) + ")" if len(sc.halves) > 1 else ""
        print(f"seat {seat}: share {eq.shares[seat]:.4f}{err}{halves}  {label}")
    return 0
