"""The rules against the room, hand by hand: replay a real hand, settle it by RULES.md §3 after the rake
the text states (RULES.md §7: the rake leaves the pot before it is split), and compare every player's
chips with what the room paid.

- Where every live hand was shown, the library's showdown judges them: it must award the same pots and
  halves the room did.
- Where a live hand stays unseen (a loser mucked), the room's award is taken as the winners, and checked
  to be one the rules' split can make (who is eligible for which pot, halves, ties, odd chips).
- A hand won without a showdown: the winner takes every pot.

Every difference is reported per hand with its reason (:data:`REASONS`): ``"rake rule"`` (the room took
its rake another way), ``"odd chip"`` (the room gave an odd chip elsewhere), ``"rule difference"`` (the
room's rules are not the library's: a cap lifted, a hand ranked differently), ``"parse gap"`` (the text
does not say enough to replay it).

>>> from badacey_fast.histories import parse
>>> from badacey_fast.histories.model import EXAMPLE
>>> c = check(next(parse(EXAMPLE)))
>>> c.status, c.showdown, c.ours, c.disagreements
('agree', 'none', {'Hero': 190, 'Villain': 0}, ())
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from badacey_fast.histories.kinds import UNCALLED
from badacey_fast.errors import ReplayError
from badacey_fast.histories.engine import Replay, contributions, replay
from badacey_fast.pots import settle, side_pots
from badacey_fast.rules.odd_chips import OddChip, clockwise, split_pot

if TYPE_CHECKING:
    from badacey_fast.histories.record import HandRecord

__all__ = ["Check", "Disagreement", "REASONS", "check", "check_all"]

#: The reasons a hand's settlement differs from the room's.
REASONS = ("rake rule", "odd chip", "rule difference", "parse gap")


@dataclass(frozen=True)
class Disagreement:
    """One difference between the room and the rules: its ``reason`` (one of :data:`REASONS`), what it
    is in words (``detail``), and the line of the text it concerns (0: the hand as a whole)."""

    reason: str
    detail: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.reason}: {self.detail}"


@dataclass
class Check:
    """One hand checked.  ``status``: ``"agree"``, ``"disagree"`` or ``"skipped"`` (not replayed:
    ``skipped`` says why).  ``showdown``: ``"judged"`` (every live hand shown, the rules judged them),
    ``"room"`` (a live hand unseen: the room's award checked), ``"none"`` (won without a showdown), ``""``
    (not replayed).  ``ours`` and ``room``: chips paid to each player by the rules after the room's rake,
    and by the room; ``nets``: each player's net by the room (collected less put in), ``nets_equal``:
    whether the rules' nets are the same.  ``notes``: what the replay noticed without a difference in chips
    (a cap the room lifts heads-up, a reshuffle)."""

    hand: HandRecord
    status: str
    skipped: str | None = None
    showdown: str = ""
    ours: dict[str, int] = field(default_factory=dict)
    room: dict[str, int] = field(default_factory=dict)
    nets: dict[str, int] = field(default_factory=dict)
    nets_equal: bool | None = None
    disagreements: tuple[Disagreement, ...] = ()
    notes: tuple[str, ...] = ()
    replay: Replay | None = None

    @property
    def replayed(self) -> bool:
        return self.status != "skipped"

    def report(self) -> str:
        """The hand's disagreements as lines ``file:line: site #id: reason: detail`` (empty if none)."""
        h = self.hand
        return "\n".join(f"{h.file}:{d.line or h.line}: {h.site} #{h.hand_id}: {d}" for d in self.disagreements)


def check(hand: HandRecord) -> Check:
    """Replay ``hand`` and compare the rules' settlement with the room's (see the module docstring)."""
    notes: list[str] = []
    try:
        r = replay(hand)
    except ReplayError as exc:
        if exc.kind == "skipped":
            return Check(hand, "skipped", skipped=str(exc))
        return Check(hand, "disagree", disagreements=(Disagreement(exc.kind, str(exc), exc.line),))
    notes.extend(r.notes)
    if r.reshuffles:
        notes.append(f"the engine reshuffled {len(r.reshuffles)} time(s)")
    if not r.reshuffles and r.room_reshuffled:  # the room says it reshuffled
        notes.append("the room reshuffled, the engine did not need to (burn cards, or players left out)")
    return _compare(hand, r, notes)


def check_all(hands: Iterable[HandRecord]) -> Iterator[Check]:
    """:func:`check` of each hand, in order (streamed)."""
    for hand in hands:
        yield check(hand)


def _compare(hand: HandRecord, r: Replay, notes: list[str]) -> Check:
    out: list[Disagreement] = []
    paid_text = r.room_paid  # hand.put_in(), read in the replay's pass over the events
    paid = contributions(r)
    order = [s.name for s in hand.seats if s.name in paid]
    for name in order:
        if paid[name] != paid_text.get(name, 0):
            returned = sum(e.amount or 0 for e in hand.actions if e.kind == UNCALLED and e.player == name)
            out.append(Disagreement(
                "rule difference" if returned else "parse gap",
                f"{name} puts in {hand.money(paid[name])} by the rules, {hand.money(paid_text.get(name, 0))} by "
                f"the room" + (f" (the room returned {hand.money(returned)} uncalled)" if returned else "")))
    button = order.index(r.names[r.button])
    folded = {r.names[k] for k, f in enumerate(r.folded) if f} | set(r.dropped) | r.room_folded
    live = [k for k, name in enumerate(order) if name not in folded]
    contribs = [paid[name] for name in order]
    rake = hand.rake or 0
    room = {name: hand.collected.get(name, 0) for name in order}
    for name, chips in hand.collected.items():
        if name not in room:
            out.append(Disagreement("parse gap", f"the room pays {name}, who put nothing in"))
    if len(live) == 1:
        showdown = "none"
        pots = [(sum(contribs), live, live, live if r.config.split_pot else [])]
    else:
        known = r.final
        if all(known.get(order[k]) is not None for k in live):
            showdown = "judged"
            s = r.settlement
            if s is None or order != r.names or contribs != r.contrib or live != [k for k, f in enumerate(r.folded)
                                                                                  if not f]:
                # The engine's own showdown settled other chips or other hands (dead chips, players left out,
                # hands the room folded): settle the room's.  (Else its settlement is this very one.)
                hands = [known.get(name) if k in live else None for k, name in enumerate(order)]
                s = settle(contribs, hands, button=button, game=r.config.scoring, odd_chip=r.config.odd_chip)
            pots = [(p.amount, list(p.eligible), list(p.low_winners), list(p.badugi_winners)) for p in s.pots]
        else:
            showdown = "room"
            pots = []
    split = r.config.split_pot
    if showdown == "room":
        ours = _room_award(side_pots(contribs, live), order, button, room, rake, split)
        if ours is None:
            ours = {name: 0 for name in order}
            out.append(_diagnose_room(hand, order, room, live))
    else:
        ours = _pay(pots, order, button, rake, OddChip.POSITION, split)
        if ours != room and not out:
            out.append(_diagnose(hand, pots, order, button, rake, room, ours, split))
    nets_text = {name: room[name] - paid_text.get(name, 0) for name in order}
    nets_ours = {name: ours[name] - paid[name] for name in order}
    return Check(hand, "disagree" if out else "agree", showdown=showdown, ours=ours, room=room, nets=nets_text,
                 nets_equal=nets_text == nets_ours, disagreements=tuple(out), notes=tuple(notes + hand.notes),
                 replay=r)


def _rake_by_pot(amounts: Sequence[int], rake: int) -> list[int]:
    """The rake taken from each pot: from the main pot first, then the next (RULES.md §7)."""
    out = []
    for a in amounts:
        take = min(a, rake)
        out.append(take)
        rake -= take
    return out


def _proportional(amounts: Sequence[int], rake: int) -> list[int]:
    """The rake taken from each pot in proportion to its size (the remainder from the main pot)."""
    total = sum(amounts)
    shares = [rake * a // total for a in amounts] if total else [0] * len(amounts)
    if shares:
        shares[0] += rake - sum(shares)
    return shares


def _pay(pots: Sequence[tuple[int, list[int], list[int], list[int]]], order: list[str], button: int, rake: int,
         odd_chip: OddChip, split: bool, proportional: bool = False) -> dict[str, int]:
    """Pay each pot, less its share of the rake, to its winners by the one split of RULES.md §3."""
    chips = [0] * len(order)
    amounts = [p[0] for p in pots]
    raked = _proportional(amounts, rake) if proportional else _rake_by_pot(amounts, rake)
    for (amount, eligible, low, bad), cut in zip(pots, raked):
        if amount - cut <= 0:
            continue
        ring = clockwise(sorted(eligible), button)
        low_w = [s for s in ring if s in low]
        bad_w = [s for s in ring if s in bad]
        split_pot(amount - cut, button, low_w, bad_w, odd_chip, chips)
    return {name: chips[k] for k, name in enumerate(order)}


def _room_award(pots: list[tuple[int, list[int]]], order: list[str], button: int, room: dict[str, int], rake: int,
                split: bool) -> dict[str, int] | None:
    """The room's award if the rules' split can make it with some winners of each pot (an unseen hand may
    have won anything it was eligible for), else None."""
    paid = {k for k, name in enumerate(order) if room[name] > 0}
    choices = []
    for amount, eligible in pots:
        cands = [s for s in eligible if s in paid] or list(eligible)
        subsets = [list(c) for n in range(1, len(cands) + 1) for c in itertools.combinations(cands, n)]
        choices.append([(lo, bd) for lo in subsets for bd in subsets] if split else [(w, []) for w in subsets])
        if len(choices[-1]) > 4096:
            return None
    target = {name: room[name] for name in order}
    for pick in itertools.product(*choices):
        for policy in (OddChip.POSITION, OddChip.LOW):
            full = [(a, e, lo, bd) for (a, e), (lo, bd) in zip(pots, pick)]
            got = _pay(full, order, button, rake, policy, split)
            if got == target:
                return got
    return None


def _diagnose(hand: HandRecord, pots: Sequence[tuple[int, list[int], list[int], list[int]]], order: list[str],
              button: int, rake: int, room: dict[str, int], ours: dict[str, int], split: bool) -> Disagreement:
    def words(pay: dict[str, int]) -> str:
        return ", ".join(f"{n} {hand.money(c)}" for n, c in pay.items() if c) or "nobody"

    if _pay(pots, order, button, rake, OddChip.LOW, split) == room:
        return Disagreement("odd chip", f"the room gives an odd pot's odd chip to the low half (odd_chip='low'); "
                            f"the rules give it to the first winner clockwise from the button: room {words(room)}, "
                            f"rules {words(ours)}")
    winners_ours = {n for n, c in ours.items() if c}
    winners_room = {n for n, c in room.items() if c}
    if sum(ours.values()) == sum(room.values()) and winners_ours == winners_room and all(
            abs(ours[n] - room[n]) <= len(pots) for n in order):
        return Disagreement("odd chip", f"the room gives an odd chip elsewhere: room {words(room)}, rules {words(ours)}")
    if len(pots) > 1 and _pay(pots, order, button, rake, OddChip.POSITION, split, proportional=True) == room:
        return Disagreement("rake rule", f"the room rakes every pot in proportion (the rules: the main pot "
                            f"first): room {words(room)}, rules {words(ours)}")
    if winners_ours != winners_room:
        return Disagreement("rule difference", f"the room pays {words(room)}; the rules pay {words(ours)}")
    return Disagreement("rule difference", f"the room pays {words(room)}; the rules pay {words(ours)}")


def _diagnose_room(hand: HandRecord, order: list[str], room: dict[str, int], live: list[int]) -> Disagreement:
    payees = [name for name in order if room[name]]
    strangers = [name for name in payees if order.index(name) not in live]
    if strangers:
        return Disagreement("parse gap", f"the room pays {', '.join(strangers)}, folded by the text")
    return Disagreement("rule difference", "the room's award is none the rules' split can make: "
                        + ", ".join(f"{n} {hand.money(room[n])}" for n in payees))

