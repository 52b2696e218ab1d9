"""``badacey draw``, ``badacey best-discard`` and ``badacey equity``: what a draw can bring, and pot shares.

Every game is taken (``--game``: badacey, badeucy, badugi, a5, 27); the hand size comes from the game
(five cards, four for Badugi) and only the halves the game plays are printed (A-5 and 2-7: the low;
Badugi: the badugi).  Every rank printed is dense and lower is better; probabilities are exact counts over
every possible replacement unless a line says "Monte Carlo".  Runs longer than a second draw a progress
bar on stderr.  ``--json`` prints one JSON object instead of the text (exact counts as integers,
probabilities and shares as floats, the discard named; docs/cli.md lists the keys); ``--plot FILE.png``
(the ``[plot]`` extra) also draws the result into an image.

>>> from badacey_fast.cli.command import main
>>> main(["draw", "As 2h 3d Kc", "--discard", "Kc", "--game", "badugi"])
badugi: As 2h 3d Kc, discard [Kc], 48 equally likely outcomes (exact; ranks: lower is better)
badugi size: 4-card  18.75%  3-card  81.25%  2-card   0.00%  1-card   0.00%
expected badugi rank 598.4
0
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from badacey_fast.rules import reference as reference
from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.cli.figures import check_plot_path, save_figure
from badacey_fast.cli.progress import add_progress_option, progress_bar, progress_callback
from badacey_fast.errors import BadaceyError
from badacey_fast.draw.outcomes import DEFAULT_OBJECTIVES, DrawOutcomes, best_discards, draw_outcomes
from badacey_fast.draw.equities import equity
from badacey_fast.rules.games import BADUGI, LOW, PRESETS, Scoring, scoring

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the draw, best-discard and equity subcommands to the ``badacey`` parser."""
    p = subparsers.add_parser("draw", help="exact outcomes of one draw (lower rank is better)",
                              description="Every replacement of the discarded cards from the unseen cards, "
                              "counted exactly: for each half the game plays, the made hands and the expected "
                              "rank (lower is better).")
    p.add_argument("hand", help='the hand: five cards, e.g. "As 2h 3d Kc Kd" (four with --game badugi)')
    p.add_argument("--discard", default="", help='cards thrown, e.g. "Kc Kd" (default: stand pat)')
    _common(p)
    p.add_argument("--low-target", help="also print P(low at least as good as this hand or low rank) "
                   "(games with a low half)")
    _outputs(p, "the distribution of the final low and badugi (bars)")
    p.set_defaults(handler=_draw)

    p = subparsers.add_parser("best-discard", help="rank every discard of a hand (32 of five cards)",
                              description="Every discard (32 of a five-card hand, 16 of a Badugi hand), best "
                              "first by the objective, with their figures.")
    p.add_argument("hand", help='the hand: five cards, e.g. "2h 4h 6h 7h Ac" (four with --game badugi)')
    _common(p)
    p.add_argument("--objective", choices=("badugi", "low", "share"), default=None,
                   help="share: expected pot share against --opponent, or a random hand, standing pat (the "
                   "default, except for badugi); badugi: P(4-card badugi) (Badugi's default); low: P(low at "
                   "least as good as --target)")
    p.add_argument("--target", help="hand or low rank for the low objective and column (default: the hand's low)")
    p.add_argument("--opponent", help="the opponent's hand (for --objective share; default: a random hand)")
    p.add_argument("--opponent-discard", help="the cards the opponent throws (default: stands pat)")
    p.add_argument("--samples", type=int, default=None, help="Monte Carlo samples per discard when the "
                   "opponent draws and exact enumeration is too big")
    p.add_argument("--seed", type=int, default=None, help="Monte Carlo seed")
    _outputs(p, None)
    p.set_defaults(handler=_best)

    p = subparsers.add_parser("equity", help="each seat's expected pot share, at showdown now or after 1-3 draws",
                              description="Without --vs: every seat draws once with its --discard (default: "
                              "stands pat), then the showdown.  With --vs: hero against ranges, at showdown now "
                              "(--draws 0) or after 1 to 3 draws (hero's first discard is named).  Exact when the "
                              "outcomes are few enough, else seeded Monte Carlo with its standard error.")
    p.add_argument("hands", nargs="+", help='2 to 6 hands; "?" for a hand unknown to us; with --vs, hero\'s hand alone')
    p.add_argument("--discard", action="append", default=None,
                   help='one per seat in order, "-" to stand pat (default: everyone stands pat); with --vs '
                   "hero's first discard (default: the best by pot share against the ranges)")
    _common(p)
    p.add_argument("--samples", type=int, default=None, help="Monte Carlo samples (forces Monte Carlo)")
    p.add_argument("--seed", type=int, default=None, help="Monte Carlo seed")
    p.add_argument("--vs", action="append", default=None, metavar="RANGE",
                   help='a villain\'s range, e.g. "8low+, 9badugi+" (repeat for more villains)')
    p.add_argument("--draws", type=int, default=None,
                   help="with --vs: draws before the showdown, 0 (showdown now) to 3 (default 0); without --vs "
                   "every seat draws once")
    _outputs(p, "each seat's share (without --vs), or hero's share against each class of the villain's "
                "range (with --vs)")
    p.set_defaults(handler=_equity)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dead", default="", help="cards known to be out of the deck")
    p.add_argument("--game", default="badacey",
                   help=f"one of {', '.join(PRESETS)} (default: badacey); Badugi hands have four cards")
    add_progress_option(p)


def _outputs(p: argparse.ArgumentParser, plot: str | None) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the text")
    if plot is not None:
        p.add_argument("--plot", metavar="FILE.png", default=None,
                       help=f"also draw {plot} into this image (format from the extension; the [plot] extra)")


def _target_rank(target: str | None, hand: tuple[int, ...], game: Scoring) -> int:
    if target is None:
        return reference.low_rank(hand, game)
    if target.strip().isdigit():
        return int(target)
    return reference.low_rank(parse_cards(target, count=5), game)


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}%"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _print_json(obj: object) -> None:
    print(json.dumps(obj, indent=2))


def _outcomes_json(out: DrawOutcomes, rank: int | None) -> dict[str, Any]:
    """The figures of one draw: per half the game plays, exact counts and the expected rank."""
    got: dict[str, Any] = {"discard": format_cards(out.discard), "outcomes": out.total}
    if LOW in out.halves and out.low_counts:
        got["low"] = {"categories": out.low_category_counts(), "no_pair_by_top_card": out.low_high_card_counts(),
                      "expected_rank": out.expected_low_rank}
        if rank is not None:
            got["low"]["target_rank"] = rank
            got["low"]["at_most_target"] = sum(out.low_counts[:rank])
    if BADUGI in out.halves:
        got["badugi"] = {"sizes": {str(k): v for k, v in out.badugi_size_counts().items()},
                         "expected_rank": out.expected_badugi_rank}
    return got


def _draw(args: argparse.Namespace) -> int:
    game = scoring(args.game)
    check_plot_path(args.plot)
    hand = parse_cards(args.hand, count=game.hand_size)
    rank = None
    if args.low_target is not None:
        if LOW not in game.halves:
            raise BadaceyError(f"--low-target: {game.game} plays no low")
        rank = _target_rank(args.low_target, hand, game)
    with progress_bar(args, desc="draw", unit=" outcomes") as bar:
        out = draw_outcomes(hand, args.discard, args.dead, game, progress=progress_callback(bar))
    if rank is not None:
        out.p_low(rank)  # checks the rank (1..the scale's size) before anything is printed
    if args.plot is not None:
        save_figure(out.plot(), args.plot)
    if args.json:
        _print_json({"game": game.game, "hand": format_cards(hand), "dead": format_cards(out.dead), "exact": True,
                     **_outcomes_json(out, rank)})
        return 0
    print(f"{game.game}: {format_cards(hand)}, discard [{format_cards(out.discard) or 'none: pat'}], "
          f"{_plural(out.total, 'equally likely outcome')} (exact; ranks: lower is better)")
    if BADUGI in game.halves:
        print("badugi size: " + "  ".join(f"{k}-card {_pct(p)}" for k, p in out.badugi_sizes().items()))
    if LOW in game.halves:
        print("low category: " + "  ".join(f"{c} {_pct(p)}" for c, p in out.low_categories().items() if p))
        print("no-pair low by top card: " + "  ".join(f"{h}-low {_pct(p)}" for h, p in out.low_high_cards().items()))
    expected = ([f"expected low rank {out.expected_low_rank:.1f}"] if LOW in game.halves else []) + \
        ([f"expected badugi rank {out.expected_badugi_rank:.1f}"] if BADUGI in game.halves else [])
    print(", ".join(expected))
    if rank is not None:
        print(f"P(low rank <= {rank}, {reference.describe_low_rank(rank, game)} or better) {_pct(out.p_low(rank))}")
    return 0


def _best(args: argparse.Namespace) -> int:
    game = scoring(args.game)
    hand = parse_cards(args.hand, count=game.hand_size)
    objective = args.objective or DEFAULT_OBJECTIVES[game.game]
    low = LOW in game.halves
    rank = _target_rank(args.target, hand, game) if low else None
    if not low and args.target is not None:
        raise BadaceyError(f"--target: {game.game} plays no low")
    with progress_bar(args, desc="best-discard", unit=" outcomes") as bar:
        choices = best_discards(hand, args.dead, game, objective, target=rank, opponent=args.opponent,
                                opponent_discard=args.opponent_discard, samples=args.samples, seed=args.seed,
                                progress=progress_callback(bar))
    against = "the opponent" if args.opponent else "a random hand"
    what = {"badugi": "P(4-card badugi)", "low": f"P(low rank <= {rank})",
            "share": f"expected pot share against {against}" + ("" if args.opponent_discard else " standing pat")}
    if args.json:
        _print_json({"game": game.game, "hand": format_cards(hand), "dead": format_cards(parse_cards(args.dead)),
                     "objective": objective, "best": format_cards(choices[0].discard),
                     "discards": [{**_outcomes_json(ch.outcomes, rank), "score": ch.score, "stderr": ch.stderr}
                                  for ch in choices]})
        return 0
    print(f"{game.game}: {format_cards(hand)}; all {len(choices)} discards, best first by {what[objective]} "
          f"(exact counts of our draw; ranks: lower is better)")
    print(f"best: {'throw [' + format_cards(choices[0].discard) + ']' if choices[0].discard else 'stand pat'}")
    if any(ch.stderr for ch in choices):
        print("scores with +/- are Monte Carlo estimates with their standard error")
    if rank is not None:
        print(f"low target: rank {rank}, {reference.describe_low_rank(rank, game)}")
    head = f"{'#':>2}  {'discard':<15} {'outcomes':>9}"
    if BADUGI in game.halves:
        head += f" {'badugi':>8} {'3+card':>8}"
    if low:
        head += f" {'no-pair':>8} {'low<=tgt':>8} {'E[low]':>7}"
    if BADUGI in game.halves:
        head += f" {'E[bdg]':>7}"
    print(head + f" {'score':>8}")
    for i, ch in enumerate(choices, 1):
        o: DrawOutcomes = ch.outcomes
        row = f"{i:>2}  {format_cards(ch.discard) or 'pat':<15} {o.total:>9,}"
        if BADUGI in game.halves:
            sizes = o.badugi_sizes()
            row += f" {_pct(sizes[4]):>8} {_pct(sizes[4] + sizes[3]):>8}"
        if low and rank is not None:
            row += f" {_pct(o.low_categories()['no pair']):>8} {_pct(o.p_low(rank)):>8} {o.expected_low_rank:>7.1f}"
        if BADUGI in game.halves:
            row += f" {o.expected_badugi_rank:>7.1f}"
        print(row + f" {ch.score:>8.5f}" + (f" +/- {ch.stderr:.5f}" if ch.stderr else ""))
    return 0


def _equity(args: argparse.Namespace) -> int:
    if args.vs is not None:
        from badacey_fast.cli.ranges import equity_vs_ranges

        return equity_vs_ranges(args)
    if args.draws is not None:
        raise BadaceyError("--draws is for --vs (hero against ranges); without --vs every seat draws once, "
                           "throwing its --discard")
    check_plot_path(args.plot)
    hands: list[str | None] = [None if h.strip() in ("?", "") else h for h in args.hands]
    discards: list[str | None] | None = None
    if args.discard is not None:
        discards = [None if d.strip() in ("-", "") else d for d in args.discard]
    game = scoring(args.game)
    with progress_bar(args, desc="equity", unit=" outcomes") as bar:
        eq = equity(hands, discards, args.dead, game, samples=args.samples, seed=args.seed, progress=progress_callback(bar))
    texts = ["unknown" if hand is None else format_cards(parse_cards(hand)) for hand in hands]
    thrown = ["" if discards is None or discards[s] is None else format_cards(parse_cards(discards[s] or ""))
              for s in range(len(hands))]
    if args.plot is not None:
        save_figure(eq.plot([f"seat {s}: {t}" for s, t in enumerate(texts)]), args.plot)
    if args.json:
        _print_json({"game": game.game, "exact": eq.exact, "outcomes": eq.outcomes,
                     "seed": None if eq.exact else args.seed, "dead": format_cards(parse_cards(args.dead)),
                     "seats": [{"hand": None if hands[s] is None else texts[s], "discard": thrown[s],
                                "share": eq.shares[s], "stderr": eq.stderr[s],
                                **{h: (eq.low if h == LOW else eq.badugi)[s] for h in game.halves}}
                               for s in range(len(hands))]})
        return 0
    how = "exact" if eq.exact else f"Monte Carlo, {'seed ' + str(args.seed) if args.seed is not None else 'unseeded'}"
    print(f"{game.game}: {_plural(eq.outcomes, 'outcome' if eq.exact else 'sample')} ({how}; one draw each, then "
          f"the showdown)")
    for seat, text in enumerate(texts):
        err = "" if eq.exact else f" +/- {eq.stderr[seat]:.4f}"
        halves = "  (" + ", ".join(f"{h} half {(eq.low if h == LOW else eq.badugi)[seat]:.4f}"
                                   for h in game.halves) + ")" if len(game.halves) > 1 else ""
        print(f"seat {seat}: {text:<15} discard [{thrown[seat] or 'pat'}]  share {eq.shares[seat]:.4f}{err}{halves}")
    return 0
