"""``badacey eval``, ``badacey showdown`` and ``badacey demo``: single hands and single showdowns.

Ranks are dense and lower is better (rank 1 is the nuts).  Bad input prints one line on stderr and the
command exits with status 2 (see :mod:`badacey_fast.cli`).

>>> from badacey_fast.cli.command import main
>>> main(["eval", "As 2h 3d 4c 5s"])
Badacey: As 2h 3d 4c 5s
  low:    5-4-3-2-A low (rank 1 of 6175, lower is better)
  badugi: 4-3-2-A badugi (rank 1 of 1092, lower is better)
0
>>> main(["showdown", "--pot", "100", "--names", "Ann,Ben", "As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"])
Badacey: A-5 low and ace-low badugi split the pot (ranks: lower is better)
Ann: As 2h 3d 4c Kd: low K-4-3-2-A low (rank 793), badugi 4-3-2-A badugi (rank 1)
Ben: Ac 2d 3h 4s 5c: low 5-4-3-2-A low (rank 1), badugi 4-3-2-A badugi (rank 1)
Low half: Ben wins with 5-4-3-2-A low
Badugi half: Ann and Ben tie with 4-3-2-A badugi and split it
Ann takes a quarter (25 chips) · Ben takes three quarters (75 chips)
Payouts: Ann 25, Ben 75
0
>>> main(["eval", "As 2h 3d 4c"])          # the error line goes to stderr
2
"""

from __future__ import annotations

import argparse

from badacey_fast import evaluator
from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.cli.command import summary
from badacey_fast.errors import ShowdownError
from badacey_fast.rules import reference
from badacey_fast.rules.games import BADACEY, BADEUCY, SCORINGS, Scoring, scoring

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy reads it alike
if TYPE_CHECKING:
    from badacey_fast.pots.results import SeatHand, Settlement, ShowdownResult

# badacey_fast.pots (and fractions, decimal) is imported by showdown and demo when they run: eval, the
# command people script per hand, starts as fast as the package's import (tests/test_cli_frame.py).

__all__ = ["register", "DEMO", "FOLD_TOKENS", "UNSHOWN_TOKENS"]

#: Command-line words for a folded seat, and for a live seat that wins without showing.
FOLD_TOKENS = ("fold", "folded", "-", "none")
UNSHOWN_TOKENS = ("?", "unshown", "muck")

#: Seed 000's three worked showdowns: (title, what the seed says, ((name, hand), ...)).
DEMO = (
    ("The scoop", "Alma scoops the whole pot",
     (("Alma", "As 2h 3d 4c 5s"), ("Bruno", "2c 3s 4h 5d 6c"))),
    ("The one-way hand", "Cora takes half · Dmitri takes half",
     (("Cora", "2h 4h 6h 7h Ac"), ("Dmitri", "Ks Qd 9c 5h 5s"))),
    ("Quartered", "Ann takes a quarter · Ben takes three quarters",
     (("Ann", "As 2h 3d 4c Kd"), ("Ben", "Ac 2d 3h 4s 5c"))),
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``eval``, ``showdown`` and ``demo`` to the ``badacey`` command's subparsers.

    >>> parser = argparse.ArgumentParser(prog="badacey")
    >>> register(parser.add_subparsers(dest="command"))
    >>> parser.parse_args(["eval", "As2h3d4c5s", "--game", "badeucy"]).game
    'badeucy'
    >>> parser.parse_args(["nonsense"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    games = ", ".join(SCORINGS)
    p = subparsers.add_parser(
        "eval", help=summary("eval"),
        description="Evaluate one hand: each half's dense rank (1 = the nuts, lower is better) and words.",
    )
    p.add_argument("cards", nargs="+", help='the hand, e.g. "As 2h 3d 4c 5s" (quoted or not)')
    p.add_argument("--game", default="badacey", help=f"one of {games} (default badacey)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead (see the docs' CLI page)")
    p.set_defaults(handler=_eval)

    p = subparsers.add_parser(
        "showdown", help=summary("showdown"),
        description="Settle one showdown (RULES.md §3).  One argument per seat, in seat order clockwise; "
        f"a folded seat is one of {', '.join(FOLD_TOKENS)}; a lone live seat may be '?' (cards not shown).",
    )
    p.add_argument("hands", nargs="+", help='one quoted hand per seat, e.g. "As2h3d4c5s", or "fold"')
    p.add_argument("--pot", default=None, help="chips in the pot, an int >= 0 (default 100)")
    p.add_argument("--contributions", default=None,
                   help="comma-separated chips each seat put in (builds side pots; instead of --pot)")
    p.add_argument("--button", default="0", help="the button's seat number, 0-based (default 0)")
    p.add_argument("--game", default="badacey", help=f"one of {games} (default badacey)")
    p.add_argument("--odd-chip", default="position", help="position (default) or low")
    p.add_argument("--names", default=None, help="comma-separated player names, one per seat")
    p.add_argument("--json", action="store_true", help="print one JSON object instead (see the docs' CLI page)")
    p.set_defaults(handler=_showdown)

    p = subparsers.add_parser(
        "demo", help=summary("demo"),
        description="Play seed 000's three worked showdowns end to end.",
    )
    p.add_argument("--game", default="badacey", help="badacey (default) or badeucy: the same hands, other rules")
    p.add_argument("--pot", default="100", help="chips in each pot (default 100)")
    p.set_defaults(handler=_demo)


def _int(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ShowdownError(f"{what} must be an int, got {text!r}") from None


def _halves(cards: tuple[int, ...], rules: Scoring) -> dict[str, dict[str, object] | None]:
    """Each half of one hand: ``{"rank", "of", "words"}`` (rank 1 = the nuts of ``of``), None for a half
    the game does not play."""
    halves: dict[str, dict[str, object] | None] = {"low": None, "badugi": None}
    for half in rules.halves:
        # The words from the cards (describe_low/_badugi): from the rank they would tabulate every class first.
        if half == "low":
            rank = evaluator.low_rank(cards, game=rules)
            words, count = reference.describe_low(cards, rules), reference.LOW_CLASS_COUNTS[rules.family]
        else:
            rank = evaluator.badugi_rank(cards, ace_high=rules.ace_high)
            words, count = reference.describe_badugi(cards, rules.ace_high), reference.BADUGI_CLASS_COUNT
        halves[half] = {"rank": rank, "of": count, "words": words}
    return halves


def _eval(args: argparse.Namespace) -> int:
    rules = scoring(args.game)
    cards = parse_cards(" ".join(args.cards), count=rules.hand_size)
    halves = _halves(cards, rules)  # every check and lookup before the first line is printed
    if args.json:
        import json  # (here: only --json needs it)

        print(json.dumps({"game": rules.game, "cards": format_cards(cards), **halves}))
        return 0
    print(f"{rules.title.split(':')[0]}: {format_cards(cards)}")
    for half, found in halves.items():
        if found is not None:
            print(f"  {half + ':':<7} {found['words']} (rank {found['rank']} of {found['of']}, lower is better)")
    return 0


def _seat(token: str) -> SeatHand:
    from badacey_fast.pots.results import UNSHOWN

    word = token.strip().lower()
    if word in FOLD_TOKENS:
        return None
    if word in UNSHOWN_TOKENS:
        return UNSHOWN
    return token


def _showdown(args: argparse.Namespace) -> int:
    from badacey_fast.pots.settlement import settle, showdown_detail

    hands = [_seat(t) for t in args.hands]
    button = _int(args.button, "--button")
    names = None if args.names is None else [x.strip() for x in args.names.split(",")]
    if args.contributions is not None:
        if args.pot is not None:
            raise ShowdownError("give --pot or --contributions, not both")
        paid = [_int(x, "each of --contributions") for x in args.contributions.split(",")]
        result: Settlement | ShowdownResult = settle(paid, hands, button=button, game=args.game,
                                                     odd_chip=args.odd_chip)
    else:
        pot = _int(args.pot if args.pot is not None else "100", "--pot")
        result = showdown_detail(hands, pot, button=button, game=args.game, odd_chip=args.odd_chip)
    text = result.explain(names)  # checks the names before anything is printed
    if args.json:
        import json

        print(json.dumps(_showdown_json(result, names)))
        return 0
    who = names or [f"seat {s}" for s in range(len(hands))]
    print(text)
    paid_out = ["folded" if hands[s] is None else str(chips) for s, chips in enumerate(result.payouts)]
    print("Payouts: " + ", ".join(f"{w} {p}" for w, p in zip(who, paid_out)))
    return 0


def _showdown_json(result: Settlement | ShowdownResult, names: list[str] | None) -> dict[str, object]:
    """``badacey showdown --json``'s object (its fields are documented on the docs' CLI page)."""
    from badacey_fast.pots.results import Settlement

    pots = result.pots if isinstance(result, Settlement) else (result.pot,)
    seats = []
    for s, (cards, words) in enumerate(zip(result.hands, result.descriptions)):
        status = "folded" if cards is None else "unshown" if not cards else "shown"
        seats.append({
            "seat": s, "name": None if names is None else names[s], "status": status,
            "cards": format_cards(cards) if cards else None,
            "low": None if result.low_ranks[s] is None or words is None else
            {"rank": result.low_ranks[s], "words": words.low},
            "badugi": None if result.badugi_ranks[s] is None or words is None else
            {"rank": result.badugi_ranks[s], "words": words.badugi},
        })
    return {
        "game": result.game, "button": result.button, "odd_chip": str(result.odd_chip),
        "contributions": list(result.contributions) if isinstance(result, Settlement) else None,
        "seats": seats,
        "pots": [{"amount": p.amount, "eligible": list(p.eligible), "low_winners": list(p.low_winners),
                  "badugi_winners": list(p.badugi_winners), "chips": list(p.chips)} for p in pots],
        "payouts": [chips or 0 for chips in result.payouts],  # a folded seat (None in a ShowdownResult) wins 0
    }


def _demo(args: argparse.Namespace) -> int:
    from badacey_fast.pots.settlement import showdown_detail

    rules = scoring(args.game)
    if rules.game not in (BADACEY, BADEUCY):  # the seed's hands are five cards and split the pot
        raise ShowdownError(f"demo plays the seed's split-pot hands: --game badacey or badeucy, not {args.game!r}")
    pot = _int(args.pot, "--pot")
    if pot < 0:  # checked before the heading is printed: bad input prints nothing on stdout
        raise ShowdownError(f"pot is negative: {pot}")
    title = rules.title.split(":")[0]
    print(f"Seed 000's three worked showdowns, judged by {title} rules, {pot} chips in each pot.")
    if rules.game != BADACEY:
        print("(The seed judges them by Badacey rules; these are the same hands under Badeucy's.)")
    for heading, seed_says, seats in DEMO:
        names = [name for name, _ in seats]
        result = showdown_detail([hand for _, hand in seats], pot, game=rules)
        print()
        print(f"== {heading} ==")
        print(result.explain(names))
        print("Payouts: " + ", ".join(f"{n} {c}" for n, c in zip(names, result.payouts)))
        if rules.game == BADACEY:
            print(f"The seed says: {seed_says}.")
    return 0
