"""``badacey equity HAND --vs RANGE [--vs RANGE ...] [--draws N]``: hero's pot share against ranges.

With draws, the output names hero's first discard (given with ``--discard``, or the best by pot share
against the ranges standing pat); ``--plot FILE.png`` draws hero's share against each class of the one
villain's range (:func:`~badacey_fast.draw.range_equity.equity_by_class`: by the villain's best badugi's
size now, or by its low in A-5 and 2-7).
"""

from __future__ import annotations

import argparse
import json

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.cli.figures import check_plot_path, save_figure
from badacey_fast.cli.progress import progress_bar, progress_callback
from badacey_fast.errors import BadaceyError
from badacey_fast.rules.games import LOW, scoring

__all__ = ["equity_vs_ranges"]


def equity_vs_ranges(args: argparse.Namespace) -> int:
    """Print each seat's share (and its standard error when sampled) for hero against ``args.vs``."""
    from badacey_fast.draw.range_equity import CLASS_NAMES, equity_by_class, range_equity
    from badacey_fast.draw.ranges import Range

    if len(args.hands) != 1:
        raise BadaceyError(f"with --vs give hero's hand alone, got {len(args.hands)} hands")
    draws = 0 if args.draws is None else args.draws
    sc = scoring(args.game)
    hero = parse_cards(args.hands[0], count=sc.hand_size)
    discard = None
    if args.discard is not None:
        if len(args.discard) != 1:
            raise BadaceyError("with --vs give one --discard: hero's first-draw discard")
        discard = () if args.discard[0].strip() in ("-", "") else args.discard[0]
        if not draws:
            raise BadaceyError("--discard with --vs needs --draws 1 or more")
    if args.plot is not None and len(args.vs) != 1:
        raise BadaceyError("--plot with --vs draws hero's share against each class of one villain's range: "
                           f"give one --vs, not {len(args.vs)}")
    check_plot_path(args.plot)
    ranges = [Range(text, sc) for text in args.vs]
    with progress_bar(args, desc="equity", unit=" combos") as bar:
        eq = range_equity(hero, ranges, args.dead, sc, draws=draws, hero_discard=discard,
                          samples=args.samples, seed=args.seed, progress=progress_callback(bar))
    by = None
    if args.plot is not None:
        with progress_bar(args, desc="by class", unit=" combos") as bar:
            by = equity_by_class(hero, ranges[0], args.dead, sc, draws, eq.hero_discard, args.samples, args.seed,
                                 progress=progress_callback(bar))
        save_figure(by.plot(f"{format_cards(hero)} against {ranges[0].text}"), args.plot)
    thrown = None if eq.hero_discard is None else format_cards(eq.hero_discard)
    chosen = "given" if discard is not None else "best by pot share against the ranges standing pat"
    if args.json:
        seats = [{"hand": format_cards(hero), "range": None}] + [{"hand": None, "range": r.text} for r in ranges]
        print(json.dumps({
            "game": sc.game, "draws": draws, "exact": eq.exact, "outcomes": eq.outcomes,
            "seed": None if eq.exact else args.seed, "dead": format_cards(parse_cards(args.dead)),
            "hero_discard": thrown, "hero_discard_chosen": None if thrown is None else chosen.split(" ")[0],
            "seats": [{**seat, "share": eq.shares[s], "stderr": eq.stderr[s],
                       **{h: (eq.low if h == LOW else eq.badugi)[s] for h in sc.halves}}
                      for s, seat in enumerate(seats)],
            **({} if by is None else {"classes": [
                {"class": c, "weight": w, "share": x, "stderr": e}
                for c, w, x, e in zip(by.classes, by.weights, by.shares, by.stderr)]}),
        }, indent=2))
        return 0
    when = "showdown now" if not draws else f"{draws} draw{'s' if draws > 1 else ''}"
    if eq.exact:
        how = f"exact over {eq.outcomes:,} {'combo' if len(ranges) == 1 else 'tuple'}{'s' if eq.outcomes != 1 else ''}"
        if len(ranges) > 1:
            how += " of combos"
    else:
        how = f"Monte Carlo, {eq.outcomes:,} samples, {'seed ' + str(args.seed) if args.seed is not None else 'unseeded'}"
    print(f"{sc.game}: {when} ({how}; shares of the pot, +/- one standard error where sampled)")
    if thrown is not None:
        print(f"hero's first draw: {'throws [' + thrown + ']' if thrown else 'stands pat'} ({chosen}; "
              "later draws and the villains: the rule of thumb)")
    rows = [f"hero {format_cards(hero)}"] + [f"vs {r.text} ({len(r):,} combos before card removal)" for r in ranges]
    for seat, label in enumerate(rows):
        err = "" if eq.exact else f" +/- {eq.stderr[seat]:.4f}"
        halves = "  (" + ", ".join(f"{h} half {(eq.low if h == 'low' else eq.badugi)[seat]:.4f}"
                                   for h in sc.halves) + ")" if len(sc.halves) > 1 else ""
        print(f"seat {seat}: share {eq.shares[seat]:.4f}{err}{halves}  {label}")
    if by is not None:
        for c, w, x, e in zip(by.classes, by.weights, by.shares, by.stderr):
            err = "" if by.exact else f" +/- {e:.4f}"
            print(f"  hero vs {CLASS_NAMES.get(c, c)} ({100 * w:.1f}% of the range): share {x:.4f}{err}")
    return 0
