"""The benchmark workload: complete random 6-max hands, ours and (when installed) pokerkit's.

Both sides play the same kind of hand: six seats with 200 chips, blinds 1/2, bets 2/4, every decision
a uniformly random legal action, every draw a uniformly random subset, showdowns included.  pokerkit
has no Badacey, so its side plays 2-7 triple draw (the same structure, a single pot).

>>> badacey_hands(3)
3
>>> badacey_hands(0)
Traceback (most recent call last):
...
badacey_fast.errors.ConfigError: hands must be a positive int, got 0
"""

from __future__ import annotations

import random
import warnings

from badacey_fast.game.bots import RandomBot
from badacey_fast.errors import ConfigError
from badacey_fast.game.config import GameConfig
from badacey_fast.game.simulate import direct_calls, play_hand, shuffled_decks
from badacey_fast.game.state import Game
from badacey_fast.game.view import SeatView

__all__ = ["badacey_hands", "pokerkit_available", "pokerkit_hands"]

_CONFIG = GameConfig()
_STACKS = [200] * 6
_RNG = random.Random(2026)
_BOTS = direct_calls([RandomBot(seed=s) for s in range(6)])  # the bots, called without a lookup
_DECKS = shuffled_decks(2026)  # decks shuffled in bulk, as simulate() deals them


def badacey_hands(k: int, config: GameConfig = _CONFIG) -> int:
    """Play ``k`` complete random 6-max hands through the Python API; returns ``k``."""
    if type(k) is not int or k < 1:
        raise ConfigError(f"hands must be a positive int, got {k!r}")
    rng, bots, stacks, decks = _RNG, _BOTS, _STACKS, _DECKS
    views = None
    for h in range(k):
        g = Game(config, stacks, button=h % 6, rng=rng, _shuffled=next(decks))
        if views is None:
            views = [SeatView(g, i) for i in range(6)]
        play_hand(g, bots, views)
    return k


def pokerkit_available() -> bool:
    """True when pokerkit can be imported."""
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        return False
    return True


def pokerkit_hands(k: int, seed: int = 2026) -> int:
    """Play ``k`` random 6-max fixed-limit 2-7 triple draw hands in pokerkit; returns ``k``."""
    rng = random.Random(seed)
    with warnings.catch_warnings():
        # pokerkit warns when it reshuffles mucked cards into the deck: expected in triple draw.
        warnings.simplefilter("ignore")
        _pokerkit_hands(k, rng)
    return k


def _pokerkit_hands(k: int, rng: random.Random) -> None:
    from pokerkit import Automation, FixedLimitDeuceToSevenLowballTripleDraw, Mode

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    for _ in range(k):
        state = FixedLimitDeuceToSevenLowballTripleDraw.create_state(
            automations, True, 0, (1, 2), 2, 4, 200, 6, mode=Mode.CASH_GAME)
        while state.status:
            if state.stand_patter_or_discarder_index is not None:
                hole = state.hole_cards[state.stand_patter_or_discarder_index]
                state.stand_pat_or_discard([c for c in hole if rng.random() < 0.5])
                continue
            options = []
            if state.checking_or_calling_amount and state.can_fold():  # no folding when checking is free,
                options.append(state.fold)                             # as in our engine
            if state.can_check_or_call():
                options.append(state.check_or_call)
            if state.can_complete_bet_or_raise_to():
                options.append(state.complete_bet_or_raise_to)
            if not options:
                break
            options[int(rng.random() * len(options))]()
