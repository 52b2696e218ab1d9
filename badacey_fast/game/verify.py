"""The rules of each action, stated once: one ``verify_<action>`` per action holds the rule AND its
error message together, and returns what the action amounts to (RULES.md §4).

In the manner of pokerkit's ``verify_folding`` & co.: a ``verify_*`` function raises
:class:`~badacey_fast.errors.IllegalActionError` naming the rule broken, or returns the action as the
engine applies it -- for a call the chips it adds, for a bet or raise the total it makes the seat's bet
(the limit target, computed here and nowhere else; all-in for less when the stack is short), for a draw
the discards as card ids and the cards kept.  None of them changes the game.

- :func:`verify_fold`, :func:`verify_check`, :func:`verify_call`, :func:`verify_bet`,
  :func:`verify_raise` (a full raise, or all-in for less), :func:`verify_draw`: one action each.
  ``amount`` (betting) is checked against the limit when given; ``seat``, when given, must be the seat
  to act.
- :func:`verify_action`: any :class:`Action` (or a bare kind such as ``"call"``) routed to its check;
  this is :meth:`Game.apply`'s checked path.

The engine's hot path (:meth:`Game.legal_actions` and :meth:`Game.apply` fed the very objects
``legal_actions`` offered, as bots do; the inline discard check of a draw) keeps a fast form of these
rules; ``tests/test_game_verify.py`` holds it equal to this module on many random states.

>>> from badacey_fast.game import Game
>>> g = Game(stacks=[100, 100, 100], seed=7)
>>> verify_raise(g), verify_call(g)
(Action(kind='raise', amount=4, cards=None), Action(kind='call', amount=2, cards=None))
>>> verify_check(g)
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: seat 0 faces a bet of 2: check is not allowed (call, raise or fold)
>>> verify_raise(g, 6)
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: illegal amount: seat 0 may raise to 4 (limit), not 6
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from badacey_fast.cards import card_ids_of_text, format_card, format_cards, parse_card, parse_cards
from badacey_fast.errors import DuplicateCardError, IllegalActionError
from badacey_fast.game.actions import BET, CALL, CHECK, DRAW, FOLD, RAISE, Action, parse_action
from badacey_fast.game.betting import (CHECK_ACTION, COMPLETE, DRAWING, FOLD_ACTION, OTHER_SEATS, call_action,
                                       raise_action)

if TYPE_CHECKING:  # pragma: no cover
    # What the checks read: a Game, typed by its fields (state.py is not imported: it imports this module).
    from badacey_fast.game.fields import GameFields as Game

__all__ = [
    "verify_fold", "verify_check", "verify_call", "verify_bet", "verify_raise", "verify_draw", "verify_action",
    "raise_callable",
]

_new = tuple.__new__  # an Action from its fields, unchecked: built only from checked fields


# ------------------------------------------------------------------------------------ shared rules
def _actor(game: "Game", seat: int | None, kind: str) -> int:
    """The seat to act, if ``kind`` may be its action now (the hand goes on, its turn, the right phase)."""
    phase = game.phase
    if phase == COMPLETE:
        raise IllegalActionError("the hand is over: no action is allowed after it ended")
    i = game.to_act
    if seat is not None and seat != i:
        raise IllegalActionError(f"out of turn: seat {seat} acted but it is seat {i}'s turn")
    if phase == DRAWING:
        if kind != DRAW:
            raise IllegalActionError(
                f"seat {i} must draw now (discard 0 to {game.config.hand_size} cards), not {kind}"
            )
    elif kind == DRAW:
        raise IllegalActionError(f"seat {i} must bet now: this is betting round {game.street + 1}, not a draw")
    return i


def _no_amount(kind: str, amount: object) -> None:
    if amount is not None:
        raise IllegalActionError(f"illegal amount: {kind} takes no amount, got {amount}")


def raise_callable(game: "Game", i: int) -> bool:
    """True when some live seat other than ``i`` could put in more than the current bet, i.e. is
    neither all-in nor all-in by calling it: only then may ``i`` bet or raise (RULES.md §4)."""
    level, stacks, sbet, folded = game.level, game.stacks, game.sbet, game.folded
    for j in OTHER_SEATS[game.n][i]:
        if not folded[j] and stacks[j] + sbet[j] > level:
            return True
    return False


def _capped(game: "Game") -> bool:
    """True when the round's bets reached the cap (lifted heads-up when the config says so)."""
    if game.nbets < game._cap:
        return False
    return not (game._hu_uncapped and game.nlive == 2)


# ------------------------------------------------------------------------------------ one per action
def verify_fold(game: "Game", amount: object = None, seat: int | None = None) -> Action:
    """Fold: only when facing a bet (a seat that may check is refused).  Returns the fold action."""
    i = _actor(game, seat, FOLD)
    _no_amount(FOLD, amount)
    if game.level - game.sbet[i] <= 0:
        raise IllegalActionError(f"seat {i} may check: folding is only allowed when facing a bet")
    return FOLD_ACTION


def verify_check(game: "Game", amount: object = None, seat: int | None = None) -> Action:
    """Check: only with nothing to call.  Returns the check action."""
    i = _actor(game, seat, CHECK)
    _no_amount(CHECK, amount)
    to_call = game.level - game.sbet[i]
    if to_call > 0:
        raise IllegalActionError(f"seat {i} faces a bet of {to_call}: check is not allowed (call, raise or fold)")
    return CHECK_ACTION


def verify_call(game: "Game", amount: object = None, seat: int | None = None) -> Action:
    """Call: only facing a bet; the amount is the chips added (all-in for less when the stack is short)."""
    i = _actor(game, seat, CALL)
    to_call = game.level - game.sbet[i]
    if to_call <= 0:
        raise IllegalActionError(f"seat {i} has nothing to call: check instead")
    stack = game.stacks[i]
    pay = to_call if to_call < stack else stack
    if amount is not None and amount != pay:
        raise IllegalActionError(f"illegal amount: seat {i} calls {pay}, not {amount}")
    return call_action(pay)


def _verify_raise_to(game: "Game", kind: str, amount: object, seat: int | None) -> Action:
    """Bet (no bet yet) or raise (a bet to raise) to the limit target; every rule that stops it named."""
    i = _actor(game, seat, kind)
    level = game.level
    want = RAISE if level else BET
    if kind != want:
        why = "there is a bet to raise" if want == RAISE else "there is no bet yet"
        raise IllegalActionError(f"seat {i} cannot {kind}: {why}; use {want}")
    if game.nactive <= 1:
        raise IllegalActionError(f"seat {i} cannot {kind}: every other live seat is all-in")
    if not raise_callable(game, i):
        raise IllegalActionError(
            f"seat {i} cannot {kind}: no other live seat could call it (each is all-in or would be "
            f"all-in calling the bet of {level})"
        )
    sb = game.sbet[i]
    stack = game.stacks[i]
    to_call = level - sb
    if stack <= to_call:
        raise IllegalActionError(f"seat {i} cannot {kind}: {stack} chips do not cover more than the {to_call} to call")
    if _capped(game):
        raise IllegalActionError(f"seat {i} cannot {kind}: the betting is capped at {game.config.cap} bets this round")
    if not game.can_raise[i]:
        raise IllegalActionError(
            f"seat {i} cannot {kind}: the betting was not reopened (an all-in raise of less than half a bet "
            "does not reopen the betting for seats that already acted)"
        )
    # The limit: one bet over the last FULL level (an all-in of less than half a bet does not move it).
    target = game.full_level + game.bet_size
    if target > sb + stack:
        target = sb + stack  # all-in for less
    if amount is not None and amount != target:
        raise IllegalActionError(f"illegal amount: seat {i} may {kind} to {target} (limit), not {amount}")
    return raise_action(kind, target)


def verify_bet(game: "Game", amount: object = None, seat: int | None = None) -> Action:
    """Bet: the opening bet of a round; the amount is the total the seat's bet becomes (the bet size,
    or all-in for less).  Refused while another seat's bet stands (raise), when no other live seat could
    call it, when the stack cannot cover it, and at the cap."""
    return _verify_raise_to(game, BET, amount, seat)


def verify_raise(game: "Game", amount: object = None, seat: int | None = None) -> Action:
    """Raise (complete, or all-in for less): to the last full bet level plus one bet.  Refused with no
    bet to raise, when no other live seat could call it (RULES.md §4), when the stack cannot cover more
    than the call, at the cap, and for a seat the betting was not reopened to."""
    return _verify_raise_to(game, RAISE, amount, seat)


def verify_draw(
    game: "Game", cards: str | Iterable[int | str] | None = (), seat: int | None = None
) -> tuple[tuple[int, ...], list[int]]:
    """Draw: the seat to act in a draw discards 0 to hand-size cards it holds, none named twice (text or
    card ids; ``None`` is standing pat).  Returns the discards as card ids (the very tuple given when it
    already was one) and the cards kept, in hand order."""
    i = _actor(game, seat, DRAW)
    hand = game.hands[i]
    if type(cards) is tuple:  # the usual form: ids, every one held, none twice (fast, then worded below)
        for c in cards:
            if type(c) is not int:
                break
        else:
            ids = cast("tuple[int, ...]", cards)  # every item was checked an int just above
            keep = [c for c in hand if c not in ids]
            if len(keep) + len(ids) == len(hand):
                return ids, keep
    if cards is None:
        ids = ()
    elif type(cards) is not tuple or not all(type(c) is int for c in cards):
        try:
            ids = parse_cards(cards)
        except DuplicateCardError:
            # parse_cards refuses a repeat itself; parse card by card so the repeat is refused below,
            # as among ids: every form of the same discards gets the same IllegalActionError.
            ids = card_ids_of_text(cards) if isinstance(cards, str) else tuple(map(parse_card, cards))
    else:
        ids = cast("tuple[int, ...]", cards)  # a tuple of ints (checked just above)
    for c in ids:
        if c not in hand:
            raise IllegalActionError(f"seat {i} cannot discard {format_cards([c]) if 0 <= c < 52 else c}: "
                                     "it does not hold that card")
    if len(set(ids)) != len(ids):
        twice = next(c for k, c in enumerate(ids) if c in ids[:k])
        raise IllegalActionError(f"seat {i} discards {format_card(twice)} twice")
    # Held and distinct, so 0 <= len(ids) <= hand size.
    return ids, [c for c in hand if c not in ids]


_BY_KIND = {FOLD: verify_fold, CHECK: verify_check, CALL: verify_call, BET: verify_bet, RAISE: verify_raise}


def verify_action(game: "Game", action: object, seat: int | None = None) -> tuple[Action, list[int] | None]:
    """Check any action of ``seat`` (default: whoever is to act): returns the :class:`Action` as the
    engine applies and records it and, for a draw, the cards kept (``None`` for a betting action).

    >>> from badacey_fast.game import Game
    >>> verify_action(Game(stacks=[20, 20], seed=1), "call")
    (Action(kind='call', amount=1, cards=None), None)
    >>> verify_action(Game(stacks=[20, 20], seed=1), "call", seat=1)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.IllegalActionError: out of turn: seat 1 acted but it is seat 0's turn
    """
    if game.phase == COMPLETE:  # before the action's form: nothing is allowed once the hand ended
        raise IllegalActionError("the hand is over: no action is allowed after it ended")
    if game.phase == "chance":
        raise IllegalActionError("a card is owed: resolve the chance event first (apply_chance)")
    if type(action) is not Action:
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, Action):
            raise TypeError(f"action must be an Action or an action kind, not {type(action).__name__}")
    kind = action[0]
    if kind == DRAW:
        given = action[2]
        cards, keep = verify_draw(game, given, seat)
        if action[1] is not None:  # a draw names its discards only: an amount would be logged, not replayed
            raise IllegalActionError(f"a draw takes no amount, got {action[1]!r}: it names the discards only")
        return (action if cards is given else _new(Action, (DRAW, None, cards))), keep
    check = _BY_KIND.get(kind)
    if check is None:  # only a hand-built tuple gets here (Action() refuses unknown kinds): worded as a raise
        return _verify_raise_to(game, kind, action[1], seat), None
    return check(game, action[1], seat), None
