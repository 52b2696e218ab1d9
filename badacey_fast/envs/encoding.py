"""The observation vector and the action numbering shared by every environment of :mod:`badacey_fast.envs`.

**Actions** (``Discrete(3 + 2**hand_size)``: 35, or 19 for Badugi):

- ``0`` fold, ``1`` check or call, ``2`` bet or raise (the limit fixes the amount);
- ``3 + m`` draw, discarding the cards of the seat's hand *sorted by card id* (the order of the
  observation's card slots) whose bit is set in ``m`` (bit ``k`` = slot ``k``); ``3`` stands pat.

The **action mask** (``int8``, same length) marks the legal ones: in a betting round some of 0..2, in a
draw every ``3 + m``.

**Observation** (``float32``, :data:`OBS_SIZE` = 223 values, whatever the preset or the number of seats;
chips in big blinds).  Seats are *relative*: ``r = 0`` is the observing seat, ``r = 1`` the next seat
clockwise, ... (seats beyond the table are zeros).  Only what that seat may see:

======== ===== ==========================================================================================
offset   size  meaning
======== ===== ==========================================================================================
0        52    own cards, multi-hot by card id (:mod:`badacey_fast.cards`: id = 4 * rank + suit, ace low)
52       85    own cards sorted by id, 5 slots x (13 rank one-hot + 4 suit one-hot); Badugi's 5th slot is 0
137      5     seats at the table, one-hot (2..6)
142      6     own position: seats after the button, one-hot (0 = the button)
148      2     phase: betting, drawing
150      4     street, one-hot (0 = before the first draw ... 3 = after the third)
154      3     to call, pot, bet size of this round (big blinds)
157      6     bets and raises so far this round (the big blind counts as the first pre-draw), one-hot 0..5+
163      60    10 per relative seat: present, folded, all-in, stack, bet this round, chips in the pot,
               discards in draw 1, 2, 3 ((count + 1) / 6; 0 = not drawn), still to act this round
======== ===== ==========================================================================================
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

import numpy as np

from badacey_fast.game.actions import Action

if TYPE_CHECKING:
    from badacey_fast.game import Game

__all__ = ["OBS_SIZE", "N_BETTING", "n_actions", "encode", "action_mask", "decode", "obs_string"]

OBS_SIZE = 223
N_BETTING = 3
_SLOTS, _SEATS, _POS, _PHASE, _STREET, _MONEY, _NBETS, _PER_SEAT = 52, 137, 142, 148, 150, 154, 157, 163
_CARD_SLOT = [[_SLOTS + 17 * k + c // 4 for c in range(52)] for k in range(5)]
_SUIT_SLOT = [[_SLOTS + 17 * k + 13 + c % 4 for c in range(52)] for k in range(5)]
_ORDER = [[[(i + r) % n for r in range(n)] for i in range(n)] for n in range(7)]  # relative seat -> seat
_TEMPLATE = array("f", bytes(4 * OBS_SIZE))
_frombuffer, _F32 = np.frombuffer, np.float32


def n_actions(hand_size: int) -> int:
    """The size of the action space for a hand of ``hand_size`` cards (5: 35, Badugi's 4: 19)."""
    return N_BETTING + (1 << hand_size)


def encode(game: "Game", seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of ``seat`` (see the module docstring); written into ``out`` if given."""
    v = _TEMPLATE[:]  # an array('f') of zeros: set item by item, handed to numpy without a conversion
    hand = sorted(game.hands[seat])
    k = 0
    for c in hand:
        v[c] = v[_CARD_SLOT[k][c]] = v[_SUIT_SLOT[k][c]] = 1.0
        k += 1
    n = game.n
    v[_SEATS + n - 2] = 1.0
    v[_POS + (seat - game.button) % n] = 1.0
    phase = game.phase
    cfg = game.config
    inv = 1.0 / (cfg.big_blind or cfg.small_bet or 1)
    contrib = game.contrib
    stacks, sbet, folded = game.stacks, game.sbet, game.folded
    if phase == "betting":
        v[_PHASE] = 1.0
        if seat == game.to_act:
            lv = game.level - sbet[seat]
            st = stacks[seat]
            v[_MONEY] = (lv if lv < st else st) * inv
        nb = game.nbets
        v[_NBETS + (nb if nb < 5 else 5)] = 1.0
        pending = game.pending
    else:
        if phase == "drawing":
            v[_PHASE + 1] = 1.0
        v[_NBETS] = 1.0
        pending = None
    v[_STREET + game.street] = 1.0
    v[_MONEY + 1] = sum(contrib) * inv
    v[_MONEY + 2] = game.bet_size * inv
    dc = game.discard_counts
    b = _PER_SEAT
    for j in _ORDER[n][seat]:
        v[b] = 1.0
        st = stacks[j]
        if folded[j]:
            v[b + 1] = 1.0
        elif not st:
            v[b + 2] = 1.0
        v[b + 3] = st * inv
        v[b + 4] = sbet[j] * inv
        v[b + 5] = contrib[j] * inv
        d = b + 6
        for counts in dc:
            v[d] = (counts[j] + 1) * 0.16666667
            d += 1
        if pending is not None and pending[j]:
            v[b + 9] = 1.0
        b += 10
    if out is None:
        return _frombuffer(v, _F32)
    out[:] = _frombuffer(v, _F32)
    return out


def action_mask(game: "Game", hand_size: int) -> np.ndarray:
    """The legal actions of the seat to act as an ``int8`` mask (all zeros once the hand is over)."""
    mask = np.zeros(n_actions(hand_size), np.int8)
    phase = game.phase
    if phase == "betting":
        for a in game.legal_actions():
            k = a[0]
            mask[0 if k == "fold" else 1 if k in ("check", "call") else 2] = 1
    elif phase == "drawing":
        mask[N_BETTING:N_BETTING + (1 << len(game.hands[game.to_act]))] = 1
    return mask


def decode(game: "Game", index: int) -> tuple[Action, bool]:
    """The engine action of action ``index`` for the seat to act, and whether ``index`` was legal.

    An illegal index is replaced by the nearest legal action (documented, so random agents and checkers
    can step anything): a draw index while betting, or a fold when checking is free, checks or calls; a
    bet or raise that is not allowed calls; a betting index while drawing stands pat; a draw mask naming
    slots beyond the hand ignores them.
    """
    index = int(index)
    if game.phase == "drawing":
        hand = sorted(game.hands[game.to_act])
        m = index - N_BETTING
        ok = 0 <= m < (1 << len(hand))
        if not 0 <= m:
            m = 0
        return Action("draw", cards=tuple(c for k, c in enumerate(hand) if m >> k & 1)), ok
    legal = game.legal_actions()
    if index == 0 and legal[0][0] == "fold":
        return legal[0], True
    if index == 2 and len(legal) > 1 and legal[-1][0] in ("bet", "raise"):
        return legal[-1], True
    call = legal[1] if legal[0][0] == "fold" else legal[0]
    return call, index == 1


_PHASE_NAMES = {"betting": "bet", "drawing": "draw", "complete": "over", "chance": "deal"}


def obs_string(game: "Game", seat: int) -> str:
    """A short text form of what ``seat`` sees (OpenSpiel's observation string, ``render``)."""
    from badacey_fast.cards import format_cards

    n = game.n
    parts = [f"seat {seat}/{n} button {game.button} street {game.street} {_PHASE_NAMES[game.phase]}",
             f"cards {format_cards(sorted(game.hands[seat]))}", f"pot {sum(game.contrib)}"]
    for j in range(n):
        draws = ",".join(str(d[j]) for d in game.discard_counts)
        state = "folded" if game.folded[j] else "all-in" if game.stacks[j] == 0 else "in"
        parts.append(f"s{j}:{state} stack {game.stacks[j]} bet {game.sbet[j]} draws [{draws}]")
    return "; ".join(parts)
