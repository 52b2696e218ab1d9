"""Referee checks of a hand's invariants: chips conserved, every card accounted for, legal actions sane.

A server can call :func:`audit` after every action; the test suite runs it over random hands.

>>> from badacey_fast.game import Game
>>> audit(Game(stacks=[10, 10, 10], seed=4))
>>> g = Game(stacks=[10, 10], seed=4); g.stacks[0] += 1     # a chip out of nowhere
>>> audit(g)
Traceback (most recent call last):
...
badacey_fast.errors.InvariantError: chips not conserved: 21 in play, 20 at the start
"""

from __future__ import annotations

from typing import NoReturn

from badacey_fast.errors import InvariantError
from badacey_fast.game.actions import BET, CALL, CHECK, DRAW, FOLD, RAISE
from badacey_fast.game.state import BETTING, COMPLETE, DRAWING, Game

__all__ = ["audit"]


def _fail(msg: str) -> NoReturn:
    raise InvariantError(msg)


def audit(game: Game) -> None:
    """Check every invariant of ``game``; raise :class:`InvariantError` naming the first one broken."""
    n = game.n
    start = sum(game.starting_stacks)
    if min(game.stacks) < 0:
        _fail(f"negative stack: {game.stacks}")
    if game.phase == COMPLETE:
        if sum(game.stacks) != start:
            _fail(f"chips not conserved: {sum(game.stacks)} after the hand, {start} at the start")
        if game.payouts is None or sum(game.payouts) != sum(game.contrib) or min(game.payouts) < 0:
            _fail(f"payouts {game.payouts} do not pay out the pot {sum(game.contrib)}")
        if any(game.payouts[j] for j in range(n) if game.folded[j]):
            _fail(f"a folded seat was paid: {game.payouts}")
    elif sum(game.stacks) + sum(game.contrib) != start:
        _fail(f"chips not conserved: {sum(game.stacks) + sum(game.contrib)} in play, {start} at the start")
    # Every card exactly once: live hands + stub + muck (folded hands and discards and burns are muck).
    cards = list(game.stub) + list(game.muck)
    for j in range(n):
        if not game.folded[j]:
            if len(game.hands[j]) != game.config.hand_size:
                _fail(f"seat {j} holds {len(game.hands[j])} cards")
            cards.extend(game.hands[j])
    deck = game.config.deck  # the 52 cards, or a small game's deck (RULES.md §6)
    if sorted(cards) != list(deck):
        _fail(f"cards not accounted for: live hands + stub + muck are not the deck's {len(deck)} cards once each")
    if game.phase != COMPLETE and len(game.stub) < 1:
        _fail("the stub's last card was dealt")
    # No card dealt twice between reshuffles.
    cuts = [0, *game.reshuffles, len(game.dealt)]
    for a, b in zip(cuts, cuts[1:]):
        seg = game.dealt[a:b]
        if len(set(seg)) != len(seg):
            _fail(f"a card was dealt twice between reshuffles (dealt[{a}:{b}])")
    _audit_actions(game)


def _audit_actions(game: Game) -> None:
    acts = game.legal_actions()
    if game.phase == COMPLETE:
        if acts:
            _fail("legal actions offered after the hand ended")
        return
    i = game.to_act
    if not 0 <= i < game.n or game.folded[i]:
        _fail(f"seat to act {i} is not a live seat")
    kinds = [a[0] for a in acts]
    if game.phase == DRAWING:
        if kinds != [DRAW] or acts[0][2] is None or tuple(acts[0][2]) != tuple(game.hands[i]):
            _fail(f"drawing seat {i} offered {acts}")
        return
    if game.phase != BETTING:
        _fail(f"unknown phase {game.phase!r}")
    if game.stacks[i] <= 0:
        _fail(f"all-in seat {i} asked to act")
    to_call = game.level - game.sbet[i]
    if (CHECK in kinds) == (CALL in kinds):
        _fail(f"exactly one of check/call must be legal, got {kinds}")
    if (FOLD in kinds) != (CALL in kinds) or (CHECK in kinds) != (to_call <= 0):
        _fail(f"fold/call/check inconsistent with {to_call} to call: {kinds}")
    for a in acts:
        if a[0] == CALL and a[1] != min(to_call, game.stacks[i]):
            _fail(f"call amount {a[1]} != {min(to_call, game.stacks[i])}")
        if a[0] in (BET, RAISE):
            if a[1] is None or not game.level < a[1] <= game.sbet[i] + game.stacks[i]:
                _fail(f"raise to {a[1]} outside ({game.level}, {game.sbet[i] + game.stacks[i]}]")
            if a[1] != game.full_level + game.bet_size and a[1] != game.sbet[i] + game.stacks[i]:
                _fail(f"raise to {a[1]} is neither a full limit raise nor all-in")
            # RULES.md §4: no raise that nobody can call.
            if not any(game.stacks[j] > game.level - game.sbet[j]
                       for j in range(game.n) if j != i and not game.folded[j]):
                _fail(f"{a[0]} to {a[1]} offered but every other live seat is all-in or all-in calling "
                      f"{game.level}")
