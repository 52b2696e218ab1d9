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

**Small games** (RULES.md §6, :class:`~badacey_fast.game.GameConfig` ``ranks``, ``suits``, ``hand_size``,
``draws``) keep this layout and size, and the full game's vector is unchanged: the own cards are the
``hand_size`` (1 to 5) cards of the small deck, by their usual ids (the multi-hot's other ids and the card
slots past the hand are 0); the street runs 0 to ``draws``; a draw the game does not have is never drawn
(its discard feature stays 0).  Only the action space shrinks with the hand: ``3 + 2**hand_size``.

The vector is written by :func:`badacey_fast.kernel.observe_many` (``csrc/observe.c`` on the C twin,
the same float32 bits from the Python twin) from a compact int row of the game's lists
(:func:`obs_row`); :func:`encode_many` encodes a batch of seats in one call (the vectorised Gymnasium
environment's observations).

**Chips** an observation holds are at most :data:`CHIPS_MAX` (2**53, exact in the double each is scaled
in): every environment checks its rules with :func:`check_chips` when it is made, whichever engine plays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np

from badacey_fast import kernel
from badacey_fast.game.actions import DRAW, Action
from badacey_fast.errors import ConfigError, IllegalActionError, InvariantError
from badacey_fast.game.config import GameConfig
from badacey_fast.game.bots import SUBSETS

if TYPE_CHECKING:
    from collections.abc import Callable

    from badacey_fast.game import Game

__all__ = ["OBS_SIZE", "CHIPS_MAX", "check_chips", "N_BETTING", "n_actions", "obs_row", "chip_unit", "seat_encoder", "encode", "encode_many", "encode_rows", "mask_code",
           "mask_table", "action_mask", "betting_choices", "decode", "obs_string"]

OBS_SIZE = kernel.OBS_SIZE
#: The most chips an observation holds (a stack, a bet, a blind, the bet size...): 2**53.
CHIPS_MAX = kernel.OBS_CHIPS_MAX
N_BETTING = 3
_ZEROS = [[0] * n for n in range(7)]  # the still-to-act flags outside a betting round
_F32 = np.float32
_new = tuple.__new__
_KIND_BIT = {"fold": 1, "check": 2, "call": 2, "bet": 4, "raise": 4}  # mask code bit of each betting kind


def check_chips(config: GameConfig, stacks: list[int]) -> None:
    """Refuse rules whose chips an observation cannot hold: a ``ConfigError`` naming the value and the
    limit, :data:`CHIPS_MAX` (2**53).  Each blind, the ante and each bet, and the stacks' total (a seat
    that wins every chip at the table is observed holding them all) must be at most that.  The one rule of
    every environment and engine, checked when the environment is made (``stacks`` checked ints > 0).

    >>> check_chips(GameConfig(), [200, 200])
    >>> check_chips(GameConfig(), [2**52, 2**52 + 1])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: the stacks total 9007199254740993 chips, above the 9007199254740992 (2**53) an observation holds (a seat may win them all)
    """
    for name in ("small_blind", "big_blind", "ante", "small_bet", "big_bet"):
        value = getattr(config, name)
        if value > CHIPS_MAX:
            raise ConfigError(f"{name} {value} is above the {CHIPS_MAX} (2**53) chips an observation holds")
    total = sum(stacks)
    if total > CHIPS_MAX:
        raise ConfigError(f"the stacks total {total} chips, above the {CHIPS_MAX} (2**53) an observation holds "
                          f"(a seat may win them all)")


def n_actions(hand_size: int) -> int:
    """The size of the action space for a hand of ``hand_size`` cards (5: 35, Badugi's 4: 19)."""
    return N_BETTING + (1 << hand_size)


def obs_row(game: "Game", seat: int) -> list[int]:
    """What ``seat`` may see of ``game`` as the compact int row the kernel encodes (``csrc/observe.h``).

    Read straight from the game's lists (a few list unpackings, ~1 µs); :func:`encode` and
    :func:`encode_many` pass rows to :func:`badacey_fast.kernel.observe_many`, which writes the vectors
    documented above (in C on the C twin).  Raises ``IndexError`` for a seat not at the table.

    >>> from badacey_fast.game import Game
    >>> obs_row(Game("badugi", stacks=[20, 20], seed=1), 1)[:12]   # 2 seats, seat 1, button 0, betting ...
    [2, 1, 0, 0, 0, 0, 2, 1, 2, 2, 0, 4]
    """
    hand = game.hands[seat]
    n = game.n
    cfg = game.config
    unit = cfg.big_blind or cfg.small_bet or 1
    dc = game.discard_counts
    if game.phase == "betting":
        row = [n, seat, game.button, 0, game.street, game.to_act, game.level, game.nbets, game.bet_size, unit,
               len(dc), len(hand), *game.stacks, *game.sbet, *game.contrib, *game.folded, *game.pending]
    else:  # drawing, over, or a card owed (chance mode: the round's fields may not exist yet)
        row = [n, seat, game.button, 1 if game.phase == "drawing" else 2, game.street, game.to_act, 0, 0,
               game.bet_size, unit, len(dc), len(hand), *game.stacks, *game.sbet, *game.contrib, *game.folded,
               *_ZEROS[n]]
    for counts in dc:
        row += counts
    row += hand
    return row


def chip_unit(config: GameConfig) -> int:
    """The chips per big blind of an observation of ``config``'s games (:func:`obs_row`'s field 9): the big
    blind, else (an ante game) the small bet, else 1.

    >>> chip_unit(GameConfig()), chip_unit(GameConfig(game="badugi"))
    (2, 2)
    """
    return config.big_blind or config.small_bet or 1


#: The game's slots the C twin's seat encoder reads, in its order (csrc/cpython/speedups.c ``SeatRows``):
#: what :func:`obs_row` reads, but the config (the caller passes :func:`chip_unit`).
SEAT_FIELDS = ("n", "button", "phase", "street", "to_act", "level", "nbets", "bet_size", "discard_counts",
               "hands", "stacks", "sbet", "contrib", "folded", "pending")


def _plain_seat(game: "Game", seat: int, unit: int, out: np.ndarray[Any, Any]) -> int:
    """:func:`seat_encoder`'s plain form: the :func:`obs_row` row encoded by the serving twin (``unit`` is
    read there from the game's config)."""
    return kernel.observe_many(obs_row(game, seat), 1, out)


def seat_encoder() -> "Callable[[Game, int, int, np.ndarray[Any, Any]], int]":
    """``encoder(game, seat, unit, out)``: the observation of ``seat`` into ``out`` (a C-contiguous
    ``float32[223]``), ``unit`` the game's :func:`chip_unit`; -1 when written, else not written or
    refused: the caller then calls :func:`encode` (``encode(game, seat, out)``), which writes the same
    vector or raises.  On the C twin one call reads the row straight from the game's lists
    (``kernel.seat_encoder``: no row list built, no Python call of :func:`obs_row`); it returns
    ``kernel.SEAT_NOT_SERVED`` for a game it does not read (a subclass of ``Game``, a value of another
    type).  On the Python twin, :func:`obs_row` and ``observe_many``.  Ask again after a switch of twin
    (an environment does once a hand).

    >>> from badacey_fast.game import Game
    >>> g = Game(stacks=[100, 100], seed=3)
    >>> out = np.empty(OBS_SIZE, np.float32)
    >>> seat_encoder()(g, 1, chip_unit(g.config), out), bool((out == encode(g, 1)).all())
    (-1, True)
    """
    return kernel.memo("envs.seat_encoder", _make_seat_encoder)


def _make_seat_encoder() -> "Callable[[Game, int, int, np.ndarray[Any, Any]], int]":
    from badacey_fast.game.state import BETTING, DRAWING, Game  # (envs above game: no cycle; the class, once)

    # Each field's member descriptor, as the class resolves it (a property in its place would be refused).
    found = kernel.seat_encoder(Game, tuple(getattr(Game, name) for name in SEAT_FIELDS), BETTING, DRAWING)
    return _plain_seat if found is None else found


def _check(bad: int, what: str) -> None:
    if bad != -1:  # the engine's state is always in range: a bad row is a bug here, said plainly
        raise InvariantError(f"observation of {what} refused by the kernel (code {bad}): a game state out of range")


def encode(game: "Game", seat: int, out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, Any]:
    """The observation vector of ``seat`` (see the module docstring); written into ``out`` if given
    (a C-contiguous ``float32[223]``, e.g. a row of a batch), else a new array.

    >>> from badacey_fast.game import Game
    >>> g = Game(stacks=[100, 100], seed=3)
    >>> v = encode(g, 0)
    >>> v.shape, v.dtype, sorted(np.flatnonzero(v[:52])) == sorted(g.hands[0]), float(v[155])  # pot 1.5 bb
    ((223,), dtype('float32'), True, 1.5)
    """
    if out is None:
        out = np.empty(OBS_SIZE, _F32)
    bad = kernel.observe_many(obs_row(game, seat), 1, out)
    if bad != -1:  # the check's call only when refused: this runs at every turn of a game
        _check(bad, f"seat {seat}")
    return out


def encode_many(games: "list[Game]", seats: list[int], out: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The observation vectors of ``seats[i]`` at ``games[i]`` into the rows of ``out`` (a C-contiguous
    ``float32[len(games), 223]``), in one kernel call.

    >>> from badacey_fast.game import Game
    >>> games = [Game(stacks=[50, 50], seed=s) for s in range(3)]
    >>> encode_many(games, [0, 1, 0], np.empty((3, OBS_SIZE), np.float32)).shape
    (3, 223)
    """
    rows: list[int] = []
    for g, s in zip(games, seats, strict=True):
        rows += obs_row(g, s)
    return encode_rows(rows, len(games), out)


def encode_rows(rows: list[int], count: int, out: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The observation vectors of ``count`` :func:`obs_row` rows joined in one list, into the rows of
    ``out`` (a C-contiguous ``float32[count, 223]``), in one kernel call (for callers that build the
    rows as they go, like the vectorised environment's step).

    >>> from badacey_fast.game import Game
    >>> g = Game(stacks=[50, 50], seed=1)
    >>> v = encode_rows(obs_row(g, 0) + obs_row(g, 1), 2, np.empty((2, OBS_SIZE), np.float32))
    >>> bool((v == encode_many([g, g], [0, 1], np.empty((2, OBS_SIZE), np.float32))).all())
    True
    """
    _check(kernel.observe_many(rows, count, out), f"{count} seats")
    return out


def mask_code(game: "Game") -> int:
    """Which action mask applies now, as a row index of :func:`mask_table`: 0 nothing legal (the hand is
    over, or a card is owed); while betting, bit 1 fold, 2 check or call, 4 bet or raise (from
    ``legal_actions()``); while drawing, ``8 + cards held``.

    >>> from badacey_fast.game import Game
    >>> g = Game(stacks=[100, 100], seed=3)
    >>> mask_code(g), mask_code(g.apply("fold"))      # fold, call, raise; then the hand is over
    (7, 0)
    """
    phase = game.phase
    if phase == "betting":
        return betting_choices(game.legal_actions())[0]
    if phase == "drawing":
        return 8 + len(game.hands[game.to_act])
    return 0


# The engine interns its legal sets (one tuple object per shape, game/betting.py), so what the three betting
# indices mean for a legal set is worked out once per set object and looked up by identity: the mask code,
# and for each index 0..2 the engine action with whether the index was legal.  Keyed by id(), each entry
# holding its tuple (an id is not reused while the entry keeps its object alive); bounded like the engine's.
_BETTING: dict[int, tuple[int, tuple[tuple[Action, bool], ...], tuple[Action, ...]]] = {}


def betting_choices(legal: tuple[Action, ...]) -> tuple[int, tuple[tuple[Action, bool], ...], tuple[Action, ...]]:
    """What the betting indices mean for ``legal``, a betting round's ``Game.legal_actions()``:
    ``(mask code, choices, legal)``, the :func:`mask_code` of the set and, for each index 0..2, the engine
    action it plays with whether the index was legal (:func:`decode`'s nearest legal action), then the set
    itself.  Worked out once per set object (the engine interns them) and looked up after: the environments
    ask at every turn.

    >>> from badacey_fast.game import Game
    >>> code, choices, legal = betting_choices(Game(stacks=[100, 100], seed=3).legal_actions())
    >>> code, [(a.kind, ok) for a, ok in choices]        # fold, call, raise: each index legal
    (7, [('fold', True), ('call', True), ('raise', True)])
    >>> betting_choices(())
    Traceback (most recent call last):
    ...
    badacey_fast.errors.IllegalActionError: no betting choices without a legal action (the hand is over, or it is a draw)
    """
    entry = _BETTING.get(id(legal))
    if entry is not None and entry[2] is legal:
        return entry
    if not legal or legal[0][0] not in _KIND_BIT:
        raise IllegalActionError("no betting choices without a legal action (the hand is over, or it is a draw)")
    code = 0
    for a in legal:
        code |= _KIND_BIT[a[0]]
    # The nearest legal action of each index (decode's docstring): fold only when facing a bet, a bet or
    # raise only when allowed, anything else checks or calls.
    call = legal[1] if legal[0][0] == "fold" else legal[0]
    by_index = ((legal[0], True) if code & 1 else (call, False),
                (call, True),
                (legal[-1], True) if code & 4 else (call, False))
    if len(_BETTING) > 4096:
        _BETTING.clear()
    entry = _BETTING[id(legal)] = (code, by_index, legal)
    return entry


_MASK_TABLES: dict[int, np.ndarray[Any, Any]] = {}


def mask_table(hand_size: int) -> np.ndarray[Any, Any]:
    """The ``int8[14, n_actions(hand_size)]`` masks indexed by :func:`mask_code` (read-only, shared).

    >>> mask_table(4)[8 + 4].tolist() == [0, 0, 0] + [1] * 16, mask_table(4)[2 | 4].tolist()[:3]
    (True, [0, 1, 1])
    """
    table = _MASK_TABLES.get(hand_size)
    if table is None:
        table = np.zeros((14, n_actions(hand_size)), np.int8)
        for code in range(8):
            table[code, :N_BETTING] = [code >> b & 1 for b in range(N_BETTING)]
        for k in range(min(hand_size, 5) + 1):
            table[8 + k, N_BETTING:N_BETTING + (1 << k)] = 1
        table.flags.writeable = False
        _MASK_TABLES[hand_size] = table
    return table


def action_mask(game: "Game", hand_size: int) -> np.ndarray[Any, Any]:
    """The legal actions of the seat to act as an ``int8`` mask (all zeros once the hand is over).

    >>> from badacey_fast.game import Game
    >>> action_mask(Game(stacks=[100, 100], seed=3), 5).tolist()[:4]   # fold, call, raise; no draw
    [1, 1, 1, 0]
    """
    mask: np.ndarray[Any, Any] = mask_table(hand_size)[mask_code(game)].copy()
    return mask


def decode(game: "Game", index: SupportsIndex) -> tuple[Action, bool]:
    """The engine action of action ``index`` for the seat to act, and whether ``index`` was legal.

    An illegal index is replaced by the nearest legal action (documented, so random agents and checkers
    can step anything): a draw index while betting, or a fold when checking is free, checks or calls; a
    bet or raise that is not allowed calls; a betting index while drawing stands pat.  An index outside
    the action space (``0 .. n_actions - 1``) is not an action at all: an ``IllegalActionError``
    (a ``ValueError``) names it.

    >>> from badacey_fast.game import Game
    >>> g = Game("badugi", [20, 20], seed=1)
    >>> decode(g, 1)[0].kind, decode(g, 1)[1]
    ('call', True)
    >>> decode(g, 19)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.IllegalActionError: action index 19 is not in 0..18
    """
    if type(index) is not int:  # a numpy integer (int() on an int would be a needless type call)
        index = int(index)
    size = N_BETTING + (1 << game.config.hand_size)
    if not 0 <= index < size:
        raise IllegalActionError(f"action index {index} is not in 0..{size - 1}")
    if game.phase == "drawing":
        hand = sorted(game.hands[game.to_act])
        m = index - N_BETTING
        full = (1 << len(hand)) - 1
        ok = 0 <= m <= full
        return _new(Action, (DRAW, None, SUBSETS[len(hand)][m if ok else 0](hand))), ok
    by_index = betting_choices(game.legal_actions())[1]
    if index < N_BETTING:
        return by_index[index]
    return by_index[1][0], False


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
