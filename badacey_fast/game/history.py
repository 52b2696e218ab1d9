"""Hand histories: JSON (our own, complete) and replay to the same final state.

A history holds the config, starting stacks, button, every card dealt in dealing order (burns
included) and every action.  Replay deals the recorded cards with a *scripted* dealer, so it reproduces
the hand exactly even across reshuffles; it then checks the recorded result.

A card nobody saw (a replayed real hand: :data:`~badacey_fast.rules.stub.UNKNOWN`) is written ``??``, in
``dealt`` and in a draw's discards; replay deals ``??`` as an unknown card, and a discard ``??`` throws the
first unknown card the seat holds that the same draw does not already throw.

>>> from badacey_fast.game import Game
>>> g = Game(stacks=[40, 40], seed=2).apply("fold")
>>> h = to_json(g); replay(from_json(h)).stacks == g.stacks
True
>>> from_json('{"format": "something else"}')
Traceback (most recent call last):
...
badacey_fast.errors.HandHistoryError: not a badacey_fast hand history: format 'something else'
"""

from __future__ import annotations

import json
from typing import Any

from badacey_fast.cards import format_cards, parse_card, parse_cards
from badacey_fast.errors import HandHistoryError
from badacey_fast.game.actions import DRAW, Action
from badacey_fast.game.config import GameConfig
from badacey_fast.game.state import Game
from badacey_fast.rules.stub import UNKNOWN

__all__ = ["FORMAT", "UNKNOWN_TEXT", "history", "to_json", "from_json", "replay"]

#: How a card nobody saw is written (PHH's notation).
UNKNOWN_TEXT = "??"


def _text(cards: list[int] | tuple[int, ...]) -> str:
    """Cards as text, ``??`` for an unknown card (an id 52 or more)."""
    if cards and max(cards) >= UNKNOWN:
        return " ".join(UNKNOWN_TEXT if c >= UNKNOWN else format_cards([c]) for c in cards)
    return format_cards(cards)


FORMAT = "badacey_fast/hand-history"


def history(game: Game) -> dict[str, Any]:
    """The hand so far as a JSON-ready dict (cards as text, lower-level fields as ints).

    >>> from badacey_fast.game import Game
    >>> sorted(history(Game(stacks=[10, 10], seed=1)))
    ['actions', 'button', 'config', 'dealt', 'format', 'posts', 'reshuffles', 'result', 'seed', 'stacks', 'version']
    >>> history("not a game")
    Traceback (most recent call last):
    ...
    TypeError: expected a Game, not str
    """
    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, not {type(game).__name__}")
    actions = []
    for seat, a in game.log:
        if a[0] == DRAW:
            actions.append([seat, DRAW, _text(a[2] or ())])  # (a draw always names its discards)
        elif a[1] is None:
            actions.append([seat, a[0]])
        else:
            actions.append([seat, a[0], a[1]])
    result = None
    if game.is_over:
        result = {"stacks": list(game.stacks), "payouts": list(game.payouts or ()), "returned": list(game.returned)}
    return {
        "format": FORMAT,
        "version": 1,
        "config": game.config.to_dict(),
        "stacks": list(game.starting_stacks),
        "button": game.button,
        "posts": list(game.posts),  # extra big blinds of players joining a running table
        "seed": game.seed,
        "dealt": _text(game.dealt),
        "reshuffles": list(game.reshuffles),
        "actions": actions,
        "result": result,
    }


def to_json(game: Game, indent: int | None = None) -> str:
    """The hand as JSON text (see :func:`history`)."""
    return json.dumps(history(game), indent=indent)


def from_json(text: str) -> dict[str, Any]:
    """Parse JSON text into a history dict, checking its format marker."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        fmt = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise HandHistoryError(f"not a badacey_fast hand history: format {fmt!r}")
    return data


def _action(entry: list[Any], game: Game) -> tuple[int, Action]:
    if not isinstance(entry, (list, tuple)) or len(entry) < 2:
        raise HandHistoryError(f"bad action entry {entry!r}: expected [seat, kind, amount-or-cards]")
    seat, kind = entry[0], entry[1]
    extra = entry[2] if len(entry) > 2 else None
    if kind == DRAW:
        if isinstance(extra, str) and UNKNOWN_TEXT in extra:
            return seat, Action(DRAW, None, _unknown_discards(extra, game))
        cards = parse_cards(extra) if extra else ()
        return seat, Action(DRAW, None, cards)
    return seat, Action(kind, extra)


def _unknown_discards(text: str, game: Game) -> tuple[int, ...]:
    """A draw's discards naming ``??``: each one the next unknown card the seat to act holds."""
    tokens = text.split()
    unknown = [c for c in game.hands[game.to_act] if c >= UNKNOWN] if game.to_act >= 0 else []
    if tokens.count(UNKNOWN_TEXT) > len(unknown):
        raise HandHistoryError(f"draw {text!r} throws more unknown cards than seat {game.to_act} holds")
    held = iter(unknown)
    return tuple(next(held) if t == UNKNOWN_TEXT else parse_card(t) for t in tokens)


def replay(data: dict[str, Any], check: bool = True) -> Game:
    """Replay a history dict to its final state (a :class:`Game`).

    ``data`` as :func:`history` writes it; ``config`` may also be a :class:`GameConfig` and ``dealt`` a
    list of card ids (``UNKNOWN`` for an unknown card), as a program builds it.  With ``check`` (default) the replayed stacks and payouts must equal the recorded result, else
    :class:`HandHistoryError`.  Every action is re-validated by the engine (an illegal one raises).
    """
    try:
        config = data["config"]
        config = config if type(config) is GameConfig else GameConfig(**config)
        dealt = data["dealt"]
        if isinstance(dealt, str):
            # Cards may repeat across a reshuffle, so parse card by card (not as one hand).
            dealt = [UNKNOWN if t == UNKNOWN_TEXT else parse_card(t) for t in dealt.split()]
        elif not all(type(c) is int and 0 <= c for c in dealt):
            raise HandHistoryError(f"dealt must be card text or card ids (ints, {UNKNOWN} for an unknown card)")
        # The seed gives the replay its random source, which a complete script never draws from (a seeded
        # one costs nothing; an unseeded one would read the system's entropy).
        seed = data.get("seed")
        game = Game(config, data["stacks"], button=data["button"], posts=data.get("posts", ()),
                    _script=list(dealt), seed=seed if type(seed) is int else None)
        actions = data["actions"]
    except KeyError as exc:
        raise HandHistoryError(f"hand history lacks the field {exc.args[0]!r}") from None
    game.seed = seed
    for entry in actions:
        seat, action = _action(entry, game)
        game.apply(action, seat=seat)
    result = data.get("result")
    if check and result is not None:
        if not game.is_over:
            raise HandHistoryError("the replayed hand is not over but the history records a result")
        if list(game.stacks) != list(result["stacks"]) or list(game.payouts or ()) != list(result["payouts"]):
            raise HandHistoryError(
                f"replay reached stacks {game.stacks} / payouts {game.payouts}, "
                f"the history records {result['stacks']} / {result['payouts']}"
            )
    return game
