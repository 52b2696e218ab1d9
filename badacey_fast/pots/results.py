"""Showdown results and their words: who won which half, each hand in the seeds' words, ``explain()``.

The settlement arithmetic (:mod:`badacey_fast.pots`) builds these objects; this module only holds
them and turns them into readable lines.  Ranks are dense and **lower is better**; chips are ints.
Values and descriptions are computed on first use, so the engine's hot path never pays for words.

>>> from badacey_fast.pots.settlement import settle
>>> print(settle([10, 10], ["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"]).explain(["Ann", "Ben"]).splitlines()[-1])
Ann takes a quarter (5 chips) · Ben takes three quarters (15 chips)
>>> settle([10, 10], ["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"]).explain("Ann")
Traceback (most recent call last):
...
TypeError: names must be a sequence of names, one per seat, not a str
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Union, cast

from badacey_fast.cards import format_cards
from badacey_fast.errors import ShowdownError
from badacey_fast.evaluator import Cards, Description, Value
from badacey_fast.rules import reference
from badacey_fast.rules.games import BADUGI, LOW, SCORINGS, Scoring
from badacey_fast.rules.odd_chips import OddChip, first_clockwise

__all__ = ["UNSHOWN", "SeatHand", "PotResult", "ShowdownResult", "Settlement"]


class _Unshown:
    """The hand of a live seat that never has to show: it won because everyone else folded."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSHOWN"

    def __reduce__(self) -> str:
        return "UNSHOWN"


#: Stands for the cards of the one live seat of a fold-win (a fold-win needs no cards).  ``None`` means
#: folded (or an empty seat); UNSHOWN means live with cards not shown, allowed only when one seat is live.
UNSHOWN = _Unshown()
#: one seat's hand as the callers give it: its cards, :data:`UNSHOWN` (live, never shown), or None (folded)
SeatHand = Union[Cards, _Unshown, None]


@dataclass(frozen=True)
class PotResult:
    """One pot settled: its chips, who could win it, who won each half, what each seat got.

    Seats are 0-based.  ``low_winners``/``badugi_winners`` are in seat order and empty for a half the
    game does not play; in an uncontested pot (one eligible seat) that seat wins every half it plays.

    >>> from badacey_fast.pots.settlement import settle
    >>> pot = settle([10, 10], ["As 2h 3d 4c Kd", "Ac 2d 3h 4s 5c"]).pots[0]      # Ann and Ben
    >>> pot.amount, pot.low_winners, pot.badugi_winners, pot.chips, [str(f) for f in pot.shares]
    (20, (1,), (0, 1), (5, 15), ['1/4', '3/4'])
    >>> pot.chips[2]
    Traceback (most recent call last):
    ...
    IndexError: tuple index out of range
    """

    amount: int  #: chips in this pot
    eligible: tuple[int, ...]  #: live seats that contributed to it, seat order
    low_winners: tuple[int, ...]
    badugi_winners: tuple[int, ...]
    chips: tuple[int, ...]  #: chips from this pot per seat (every seat, 0 if none)
    halves: int  #: 2 for the split games (low and badugi halves), 1 for the single-pot games

    @cached_property
    def shares(self) -> tuple[Fraction, ...]:
        """The fraction of the pot per seat before odd-chip rounding (e.g. 1/4 for a quartered seat)."""
        share = [Fraction(0)] * len(self.chips)
        for winners in (self.low_winners, self.badugi_winners):
            for s in winners:
                share[s] += Fraction(1, self.halves * len(winners))
        return tuple(share)

    @property
    def uncontested(self) -> bool:
        """True when a single live seat was eligible (everyone else folded or did not contribute)."""
        return len(self.eligible) == 1

    @property
    def scooper(self) -> int | None:
        """The seat that took the whole pot alone (every half), else None."""
        won = [s for s, share in enumerate(self.shares) if share == 1]
        return won[0] if won else None


class _Described:
    """Each seat's ``values`` and their words, built on first use from ``low_ranks`` and ``badugi_ranks``:
    the engine's hot path never needs them."""

    game: str
    hands: tuple[tuple[int, ...] | None, ...]
    low_ranks: tuple[int | None, ...]
    badugi_ranks: tuple[int | None, ...]

    @cached_property
    def values(self) -> tuple[Value | None, ...]:
        """Each seat's :class:`Value` (dense ranks, lower is better); None for a folded or unshown seat, and
        None inside the Value for a half the game does not play."""
        # A half the game does not play stays None inside the Value (documented above): Value's fields are
        # typed int for the two-half games, hence the casts.
        return tuple(None if lo is None and bd is None else Value(cast(int, lo), cast(int, bd))
                     for lo, bd in zip(self.low_ranks, self.badugi_ranks))

    @cached_property
    def descriptions(self) -> tuple[Description | None, ...]:
        """Each seat's halves in the seeds' words (None for a folded/unshown seat or a half not played)."""
        rules = SCORINGS[self.game]  # the canonical name (results hold it): no spelling to read
        # From each hand's cards (the same words as from its ranks, without tabulating every value class
        # first: ~0.6 s on the first words of a process); from the rank where the cards cannot say it.
        return tuple(
            None if v is None else Description(
                None if v.low is None else reference.describe_low(cards, rules) if cards and len(cards) == 5
                else reference.describe_low_rank(v.low, rules),
                None if v.badugi is None else reference.describe_badugi(cards, rules.ace_high) if cards
                else reference.describe_badugi_rank(v.badugi, rules.ace_high),
            )
            for v, cards in zip(self.values, self.hands)
        )


@dataclass(frozen=True)
class ShowdownResult(_Described):
    """A single-pot showdown: payouts (None = folded seat), each live hand's value, the pot's winners."""

    game: str  #: the game's canonical name
    button: int
    odd_chip: OddChip  #: a str too: equal to "position" or "low"
    hands: tuple[tuple[int, ...] | None, ...]  #: card ids per seat; None folded; () unshown fold-winner
    low_ranks: tuple[int | None, ...]  #: per seat, lower is better; None: folded, unshown or no low half
    badugi_ranks: tuple[int | None, ...]  #: per seat, lower is better; None: folded, unshown or no badugi
    pot: PotResult
    payouts: list[int | None]

    @property
    def low_winners(self) -> tuple[int, ...]:
        """Seats that won (or split) the low half."""
        return self.pot.low_winners

    @property
    def badugi_winners(self) -> tuple[int, ...]:
        """Seats that won (or split) the badugi half."""
        return self.pot.badugi_winners

    @property
    def scooper(self) -> int | None:
        """The seat that took the whole pot (both halves alone, or the fold-winner), else None."""
        return self.pot.scooper

    @property
    def fold_win(self) -> bool:
        """True when all but one seat folded: no hand was judged."""
        return self.pot.uncontested

    def explain(self, names: Sequence[str] | None = None) -> str:
        """Readable lines: each hand in words, who wins each half, who takes what.

        >>> from badacey_fast.pots.settlement import showdown_detail
        >>> print(showdown_detail(["As 2h 3d 4c 5s", "2c 3s 4h 5d 6c"], 100).explain(["Alma", "Bruno"]))
        Badacey: A-5 low and ace-low badugi split the pot (ranks: lower is better)
        Alma: As 2h 3d 4c 5s: low 5-4-3-2-A low (rank 1), badugi 4-3-2-A badugi (rank 1)
        Bruno: 2c 3s 4h 5d 6c: low 6-5-4-3-2 low (rank 6), badugi 5-4-3-2 badugi (rank 5)
        Low half: Alma wins with 5-4-3-2-A low
        Badugi half: Alma wins with 4-3-2-A badugi
        Alma scoops the whole pot (100 chips)
        >>> showdown_detail(["As 2h 3d 4c 5s", None], 7).explain(["Alma"])
        Traceback (most recent call last):
        ...
        badacey_fast.errors.ShowdownError: 1 names for 2 seats
        """
        who = _names(names, len(self.hands))
        lines = _hand_lines(self, who)
        lines += _pot_lines(self.pot, SCORINGS[self.game], self.descriptions, who, self.odd_chip, self.button, "")
        return "\n".join(lines)


@dataclass(frozen=True)
class Settlement(_Described):
    """A hand settled from contributions: main and side pots, each settled among its eligible seats."""

    game: str  #: the game's canonical name
    button: int
    odd_chip: OddChip  #: a str too: equal to "position" or "low"
    contributions: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    low_ranks: tuple[int | None, ...]  #: per seat, lower is better; None: folded, unshown or no low half
    badugi_ranks: tuple[int | None, ...]  #: per seat, lower is better; None: folded, unshown or no badugi
    pots: tuple[PotResult, ...]  #: main pot first, then side pots in order of size of contribution
    payouts: list[int]  #: total chips won per seat, 0 for folded seats

    def explain(self, names: Sequence[str] | None = None) -> str:
        """Readable lines: the hands, then per pot who wins each half and who takes what.

        >>> from badacey_fast.pots.settlement import settle
        >>> s = settle([50, 100, 100], ["As 2h 3d 4c Kd", None, "Ac 2d 3h 4s 5c"])
        >>> print(s.explain(["Ann", "Cal", "Ben"]).splitlines()[-1])
          Ben takes it uncontested (100 chips)
        >>> s.explain(["Ann", "Ben"])
        Traceback (most recent call last):
        ...
        badacey_fast.errors.ShowdownError: 2 names for 3 seats
        """
        who = _names(names, len(self.hands))
        lines = _hand_lines(self, who)
        rules = SCORINGS[self.game]
        for i, pot in enumerate(self.pots):
            indent = ""
            if len(self.pots) > 1:
                title = "Main pot" if i == 0 else f"Side pot {i}"
                lines.append(f"{title}: {pot.amount} chips, for {_join([who[s] for s in pot.eligible])}")
                indent = "  "
            lines += _pot_lines(pot, rules, self.descriptions, who, self.odd_chip, self.button, indent)
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------
# words

_FRACTION_WORDS = {
    Fraction(1, 2): "half", Fraction(1, 4): "a quarter", Fraction(3, 4): "three quarters",
    Fraction(1, 3): "a third", Fraction(2, 3): "two thirds", Fraction(1, 6): "a sixth",
    Fraction(1, 8): "an eighth", Fraction(3, 8): "three eighths", Fraction(5, 8): "five eighths",
}


def _names(names: Sequence[str] | None, n: int) -> list[str]:
    if names is None:
        return [f"seat {s}" for s in range(n)]
    if isinstance(names, str):
        raise TypeError("names must be a sequence of names, one per seat, not a str")
    out = [str(x) for x in names]
    if len(out) != n:
        raise ShowdownError(f"{len(out)} names for {n} seats")
    return out


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _hand_lines(result: ShowdownResult | Settlement, who: list[str]) -> list[str]:
    lines = [f"{SCORINGS[result.game].title} (ranks: lower is better)"]
    for s, hand in enumerate(result.hands):
        if hand is None:
            lines.append(f"{who[s]}: folded")
            continue
        words, value = result.descriptions[s], result.values[s]
        if words is None:
            lines.append(f"{who[s]}: {format_cards(hand) if hand else 'cards not shown'}")
            continue
        parts = [f"{half} {getattr(words, half)} (rank {getattr(value, half)})"
                 for half in (LOW, BADUGI) if getattr(value, half) is not None]
        lines.append(f"{who[s]}: {format_cards(hand)}: {', '.join(parts)}")
    return lines


def _pot_lines(pot: PotResult, rules: Scoring, words: tuple[Description | None, ...], who: list[str], odd_chip: OddChip,
               button: int, indent: str) -> list[str]:
    if pot.uncontested:
        seat = pot.eligible[0]
        if indent:  # one pot among several: its only eligible seat takes it
            return [f"{indent}{who[seat]} takes it uncontested ({pot.amount} chips)"]
        return [f"{who[seat]} wins the whole pot ({pot.amount} chips): everyone else folded"]
    lines = []
    for half, winners in ((LOW, pot.low_winners), (BADUGI, pot.badugi_winners)):
        if half not in rules.halves:
            continue
        what = getattr(words[winners[0]], half)
        players = _join([who[s] for s in winners])
        if len(rules.halves) == 2:
            verb = f"wins with {what}" if len(winners) == 1 else f"tie with {what} and split it"
            lines.append(f"{indent}{half.capitalize()} half: {players} {verb}")
        else:
            verb = "with" if len(winners) == 1 else "tie with"
            lines.append(f"{indent}Best {half}: {players} {verb} {what}")
    takes = []
    for s in pot.eligible:
        share = pot.shares[s]
        if share == 0:
            continue
        if share == 1:
            phrase = "scoops the whole pot" if len(rules.halves) == 2 else "wins the whole pot"
        else:
            phrase = "takes " + _FRACTION_WORDS.get(share, f"{share} of the pot")
        takes.append(f"{who[s]} {phrase} ({pot.chips[s]} chips)")
    lines.append(indent + " · ".join(takes))
    if pot.amount & 1 and len(rules.halves) == 2 and pot.scooper is None:
        if odd_chip is OddChip.LOW:
            lines.append(f"{indent}The odd chip goes to the low half (odd_chip='low')")
        else:
            first = first_clockwise(button, len(who), pot.low_winners + pot.badugi_winners)
            lines.append(f"{indent}The odd chip goes to {who[first]}, the first winner clockwise from the button")
    return lines

