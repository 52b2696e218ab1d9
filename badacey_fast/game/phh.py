"""PHH, the open poker-hand-history format (TOML) that pokerkit reads and writes.

Mapping decisions (documented and tested):

- **Variant.**  PHH has codes for fixed-limit Badugi (``FB``) and 2-7 triple draw (``F2L3D``), whose
  rules coincide with our ``badugi`` and ``27`` presets (apart from pokerkit's reshuffle and odd-chip
  conventions).  Badacey, Badeucy and A-5 triple draw have no code: they are written as ``F2L3D`` — the
  same structure (5 cards, 3 draws, fixed limit, blinds) — with the user-defined field ``_game`` naming
  the real game.  A reader that ignores ``_game`` replays every action and card correctly but judges the
  showdown as 2-7; our reader honours it.
- **Players.**  PHH player ``p1`` is the first seat left of the button (the small blind; heads-up the big
  blind, as pokerkit orders heads-up), ``pN`` the button.  ``seats`` lists our seat numbers (1-based).
- **Draws.**  Written in pokerkit's order: every ``pK sd`` of a draw, then the ``d dh pK`` replacements.
  Our rules serve each player before the next chooses; the cards are the same unless the deck ran out, and
  replay knows the order from the rules.  ``_burned`` lists burn cards (if the ``burn`` option is on).
- Options without a PHH field travel as user-defined fields: ``_button``, ``_cap`` (0 = uncapped),
  ``_heads_up_uncapped``, ``_burn``, ``_odd_chip``, ``_seed``; a small game's (RULES.md §6) ``_ranks``,
  ``_suits``, ``_hand_size``, ``_draws`` (written only for a small game).

>>> from badacey_fast.game import Game
>>> g = Game(stacks=[40, 40, 40], seed=2).apply("fold").apply("fold")
>>> text = to_phh(g)
>>> text.splitlines()[0]
"variant = 'F2L3D'"
>>> replay_phh(text).stacks == g.stacks
True
>>> from_phh("variant = 'NT'")
Traceback (most recent call last):
...
badacey_fast.errors.HandHistoryError: PHH variant 'NT' is not a draw game this engine plays (FB, F2L3D)
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import Any

from badacey_fast.cards import format_cards, parse_card
from badacey_fast.game.actions import BET, CALL, CHECK, DRAW, FOLD, RAISE
from badacey_fast.game.config import GameConfig
from badacey_fast.errors import HandHistoryError
from badacey_fast.game.state import Game
from badacey_fast.rules.games import scoring

__all__ = ["to_phh", "from_phh", "replay_phh", "to_phhs", "phhs_entry", "from_phhs", "replay_phhs"]

_VARIANT = {"badugi": "FB", "27": "F2L3D"}


def _pk(cards: list[int] | tuple[int, ...]) -> str:
    return format_cards(cards).replace(" ", "")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'" + value + "'"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def to_phh(game: Game) -> str:
    """The hand as PHH text (TOML), readable by pokerkit's ``HandHistory.loads`` for FB/F2L3D.

    >>> to_phh(None)
    Traceback (most recent call last):
    ...
    TypeError: expected a Game, not NoneType
    """
    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, not {type(game).__name__}")
    cfg, n, b = game.config, game.n, game.button
    order = [(b + 1 + k) % n for k in range(n)]  # PHH player k+1 is our seat order[k]
    p = {seat: k + 1 for k, seat in enumerate(order)}
    hs = cfg.hand_size
    dealt = game.dealt
    initial: dict[int, list[int]] = {s: [] for s in range(n)}
    for m in range(hs * n):
        initial[order[m % n]].append(dealt[m])
    actions = [f"d dh p{p[s]} {_pk(initial[s])}" for s in order]
    ptr = hs * n
    log = game.log
    i = 0
    while i < len(log):
        seat, a = log[i]
        kind = a[0]
        if kind != DRAW:
            if kind == FOLD:
                actions.append(f"p{p[seat]} f")
            elif kind in (CHECK, CALL):
                actions.append(f"p{p[seat]} cc")
            elif kind in (BET, RAISE):
                actions.append(f"p{p[seat]} cbr {a[1]}")
            i += 1
            continue
        if cfg.burn:
            ptr += 1  # the burn card (listed in _burned)
        # One draw round: consecutive draws, each seat once (betting is skipped between two rounds when
        # at most one seat has chips behind, so a repeated seat starts the next round).
        j, seen = i, set()
        while j < len(log) and log[j][1][0] == DRAW and log[j][0] not in seen:
            seen.add(log[j][0])
            j += 1
        deals = []
        for seat, d in log[i:j]:
            discards = d[2] or ()  # (a draw always names its discards)
            actions.append(f"p{p[seat]} sd {_pk(discards)}".rstrip())
            k = len(discards)
            if k:
                deals.append(f"d dh p{p[seat]} {_pk(dealt[ptr:ptr + k])}")
            ptr += k
        actions += deals
        i = j
    antes = [cfg.ante] * n
    blinds = ([cfg.small_blind, cfg.big_blind] + [0] * (n - 2)) if cfg.uses_blinds else [0] * n
    fields: list[tuple[str, Any]] = [
        ("variant", _VARIANT.get(cfg.game, "F2L3D")),
        ("antes", antes),
        ("blinds_or_straddles", blinds),
        ("small_bet", cfg.small_bet),
        ("big_bet", cfg.big_bet),
        ("starting_stacks", [game.starting_stacks[s] for s in order]),
        ("actions", actions),
        ("seat_count", n),
        ("seats", [s + 1 for s in order]),
    ]
    if game.is_over:
        fields.append(("finishing_stacks", [game.stacks[s] for s in order]))
    fields += [
        ("_game", cfg.game),
        ("_button", b),
        ("_posts", list(game.posts)),  # our seat numbers posting an extra big blind (joining players)
        ("_cap", cfg.cap or 0),
        ("_heads_up_uncapped", cfg.heads_up_uncapped),
        ("_burn", cfg.burn),
        ("_odd_chip", str(cfg.odd_chip)),
        ("_burned", format_cards(game.burned)),
    ]
    if cfg.small:  # a small game (RULES.md §6): its size, which no PHH field says
        fields += [("_ranks", cfg.ranks), ("_suits", cfg.suits), ("_hand_size", cfg.hand_size), ("_draws", cfg.draws)]
    if game.seed is not None:
        fields.append(("_seed", game.seed))
    lines = []
    for key, value in fields:
        if key == "actions":
            lines.append("actions = [\n" + "".join(f"  {_toml(v)},\n" for v in value) + "]")
        else:
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def _loads(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HandHistoryError(f"not PHH (TOML) text: {exc}") from None


_CARD = re.compile(r"[2-9TJQKA][cdhs]|\?\?", re.IGNORECASE)


def _cards(text: str) -> list[int]:
    out = []
    for tok in _CARD.findall(text):
        if tok == "??":
            raise HandHistoryError("PHH hand has unknown cards '??': cannot replay a hand without its cards")
        out.append(parse_card(tok))
    return out


def from_phh(text: str) -> dict[str, Any]:
    """Parse PHH text into our history dict (see :mod:`badacey_fast.game.history`), ready for ``replay``.
    A hand set of several hands (``.phhs``) is :func:`from_phhs`'s."""
    data = _loads(text)
    _one_hand(data)
    return _history(data)


def _one_hand(data: dict[str, Any]) -> None:
    if "variant" not in data and data and all(isinstance(v, dict) for v in data.values()):
        raise HandHistoryError(f"this PHH text is a hand set of {len(data)} hands ([{next(iter(data))}] ...): "
                           "read it with from_phhs or replay_phhs")


def _history(data: dict[str, Any]) -> dict[str, Any]:
    variant = data.get("variant")
    if variant not in ("FB", "F2L3D"):
        raise HandHistoryError(f"PHH variant {variant!r} is not a draw game this engine plays (FB, F2L3D)")
    game = data.get("_game", "badugi" if variant == "FB" else "27")
    try:
        stacks_phh = list(data["starting_stacks"])
        n = len(stacks_phh)
        blinds = list(data.get("blinds_or_straddles") or [0] * n)
        antes = data.get("antes", 0)
        ante = max(antes) if isinstance(antes, list) else int(antes)
        button = int(data.get("_button", n - 1))  # PHH: the last player is the button
        cap = data.get("_cap", 4)
        config = GameConfig(
            game=game, small_blind=blinds[0] if n > 1 else 0, big_blind=blinds[1] if n > 1 else 0, ante=ante,
            small_bet=int(data["small_bet"]), big_bet=int(data["big_bet"]), cap=cap or None,
            heads_up_uncapped=bool(data.get("_heads_up_uncapped", False)), burn=bool(data.get("_burn", False)),
            odd_chip=data.get("_odd_chip", "position"), ranks=data.get("_ranks", 13), suits=data.get("_suits", 4),
            hand_size=data.get("_hand_size", scoring(game).hand_size), draws=data.get("_draws", 3),
        )
        raw_actions = list(data["actions"])
    except (KeyError, IndexError) as exc:
        raise HandHistoryError(f"PHH lacks a required field: {exc}") from None
    order = [(button + 1 + k) % n for k in range(n)]
    stacks = [0] * n
    for k, s in enumerate(order):
        stacks[s] = stacks_phh[k]
    burned = [parse_card(t) for t in str(data.get("_burned", "")).split()]
    hs = config.hand_size
    initial: dict[int, list[int]] = {}
    actions: list[list[Any]] = []
    draws: list[list[int]] = []  # replacement cards per draw action, in order
    discards_pending: list[int] = []
    for line in raw_actions:
        words = line.split("#")[0].split()
        if not words:
            continue
        if words[0] == "d" and len(words) >= 3 and words[1] == "dh":
            seat = order[int(words[2][1:]) - 1]
            cards = _cards(words[3] if len(words) > 3 else "")
            if seat not in initial:
                initial[seat] = cards
            else:
                draws.append(cards)
                discards_pending.append(seat)
            continue
        if words[0] == "d":
            raise HandHistoryError(f"PHH dealer action {line!r} does not belong to a draw game")
        seat = order[int(words[0][1:]) - 1]
        verb = words[1]
        if verb == "f":
            actions.append([seat, FOLD])
        elif verb == "cc":
            actions.append([seat, "cc"])
        elif verb == "cbr":
            actions.append([seat, "cbr", int(words[2])])
        elif verb == "sd":
            actions.append([seat, DRAW, format_cards(_cards(words[2])) if len(words) > 2 else ""])
        elif verb == "sm":
            continue  # showing at showdown: implied by the rules
        else:
            raise HandHistoryError(f"unknown PHH action {line!r}")
    if sorted(initial) != list(range(n)) or any(len(c) != hs for c in initial.values()):
        raise HandHistoryError(f"PHH must deal {hs} hole cards to each of the {n} players first")
    # Rebuild the dealing order: one card at a time from left of the button, then per draw round
    # (burn first if on) each drawing player's replacements in turn order.
    dealt = [initial[order[m % n]][m // n] for m in range(hs * n)]
    burns = iter(burned)
    queue = iter(draws)
    drawn: set[int] | None = None  # seats that drew in the open draw round (None: no round open)
    for entry in actions:
        if entry[1] == DRAW:
            if drawn is None or entry[0] in drawn:
                drawn = set()
                if config.burn:
                    dealt.append(next(burns))
            drawn.add(entry[0])
            k = len(entry[2].split())
            if k:
                got = next(queue, None)
                if got is None or len(got) != k:
                    raise HandHistoryError(f"PHH replacement cards do not match the discards of seat {entry[0]}")
                dealt += got
        else:
            drawn = None
    return {"config": config.to_dict(), "stacks": stacks, "button": button, "seed": data.get("_seed"),
            "posts": list(data.get("_posts", ())),
            "dealt": " ".join(format_cards([c]) for c in dealt),  # may repeat across reshuffles
            "actions": actions, "result": None,
            "finishing_stacks": [data["finishing_stacks"][order.index(s)] for s in range(n)]
            if "finishing_stacks" in data else None}


def replay_phh(text: str) -> Game:
    """Replay PHH text to the final state; checks ``finishing_stacks`` when present.  A hand set of
    several hands (``.phhs``) is :func:`replay_phhs`'s."""
    return _replay_checked(from_phh(text))


def _replay_checked(data: dict[str, Any]) -> Game:
    game = _replay_cc(data)
    want = data.get("finishing_stacks")
    if want is not None and list(game.stacks) != list(want):
        raise HandHistoryError(f"PHH replay reached stacks {game.stacks}, the history records {want}")
    return game


def _replay_cc(data: dict[str, Any]) -> Game:
    """Replay where ``cc`` means check or call and ``cbr`` bet or raise, as PHH writes them."""
    from badacey_fast.game.actions import Action

    game = Game(GameConfig(**data["config"]), data["stacks"], button=data["button"],
                posts=data.get("posts", ()), _script=[parse_card(t) for t in data["dealt"].split()])
    game.seed = data.get("seed")
    for entry in data["actions"]:
        seat, verb = entry[0], entry[1]
        if verb == "cc":
            action = Action(CHECK if game.to_call() == 0 else CALL)
        elif verb == "cbr":
            action = Action(RAISE if game.level else BET, entry[2])
        elif verb == DRAW:
            action = Action(DRAW, None, tuple(parse_card(t) for t in entry[2].split()))
        else:
            action = Action(verb)
        game.apply(action, seat=seat)
    return game



def to_phhs(games: Iterable[Game]) -> str:
    """Several hands as one PHH hand set (a ``.phhs`` file): each hand's :func:`to_phh` fields under a
    TOML table named by its number, ``[1]``, ``[2]``, ..., as pokerkit's ``HandHistory.dumps_all`` writes
    them and ``loads_all`` reads them.

    >>> from badacey_fast.game import Game
    >>> hands = [Game(stacks=[40, 40], seed=s).apply("fold") for s in (1, 2)]
    >>> text = to_phhs(hands)
    >>> [line for line in text.splitlines() if line.startswith("[")]
    ['[1]', '[2]']
    >>> [g.stacks for g in replay_phhs(text)] == [g.stacks for g in hands]
    True
    """
    return "\n".join(phhs_entry(k, game) for k, game in enumerate(games, 1))


def phhs_entry(number: int, game: Game) -> str:
    """One hand of a PHH hand set: ``[number]`` then the hand's :func:`to_phh` fields (a writer appending
    hand after hand puts a blank line between two entries, as :func:`to_phhs` does).

    >>> from badacey_fast.game import Game
    >>> phhs_entry(3, Game(stacks=[40, 40], seed=1).apply("fold")).splitlines()[:2]
    ['[3]', "variant = 'F2L3D'"]
    >>> phhs_entry(0, Game(stacks=[40, 40], seed=1))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.HandHistoryError: a hand set numbers its hands from 1, got 0
    """
    if type(number) is not int or number < 1:
        raise HandHistoryError(f"a hand set numbers its hands from 1, got {number!r}")
    return f"[{number}]\n{to_phh(game)}"


def from_phhs(text: str) -> list[dict[str, Any]]:
    """Parse a PHH hand set (hands under ``[1]``, ``[2]``, ... tables, in file order) into our history
    dicts; a single hand's PHH text gives a list of one.

    >>> from_phhs("[1]\\nvariant = 'NT'")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.HandHistoryError: hand [1] of the PHH hand set: PHH variant 'NT' is not a draw game this engine plays (FB, F2L3D)
    """
    data = _loads(text)
    if "variant" in data:
        return [_history(data)]
    out = []
    for name, hand in data.items():
        if not isinstance(hand, dict):
            raise HandHistoryError(f"not a PHH hand set: {name!r} is a field, not a hand's table")
        try:
            out.append(_history(hand))
        except HandHistoryError as exc:
            raise HandHistoryError(f"hand [{name}] of the PHH hand set: {exc}") from None
    return out


def replay_phhs(text: str) -> list[Game]:
    """Replay every hand of a PHH hand set (``.phhs``: :func:`to_phhs`, or a file written by ``badacey
    simulate --save hands.phhs``) to its final state, in order; each hand's ``finishing_stacks`` checked.

    >>> replay_phhs("")
    []
    """
    games = []
    for k, data in enumerate(from_phhs(text), 1):
        try:
            games.append(_replay_checked(data))
        except HandHistoryError as exc:
            raise HandHistoryError(f"hand {k} of the PHH hand set: {exc}") from None
    return games
