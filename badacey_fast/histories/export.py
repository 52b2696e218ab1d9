"""A real hand out: JSON (every field the text gave, and the engine's own history of its replay) and PHH.

**JSON** (:func:`to_json`): :meth:`RealHand.to_dict` with a format marker, and ``engine``: the JSON
history of :mod:`badacey_fast.game.history` for a replayed hand (cards nobody saw as ``??``), which
:func:`badacey_fast.game.history.replay` plays again; ``null`` (and ``engine_skipped``, the reason) for a
hand the engine does not replay.  One hand a line makes a ``.jsonl`` file.

**PHH** (:func:`to_phh`), the open poker-hand-history format (TOML) that pokerkit reads:

- variants: PHH's own ``F2L3D`` (2-7 triple draw), ``FB`` (badugi), ``N2L1D`` (no-limit 2-7 single draw),
  and codes proposed here for the games PHH has none for, in PHH's way of naming (betting, scoring,
  draws): ``FAL3D`` for A-5 triple draw (*A*-5 *L*owball), ``FBAL3D`` for Badacey (*B*adugi and *A*-5
  *L*owball), ``FB2L3D`` for Badeucy (*B*adugi and *2*-7 *L*owball).  A variant with no code (5 Card Draw,
  A-5 single draw, Drawmaha) is refused, naming it.
- players ``p1`` ... ``pN`` from the seat left of the button to the button (the engine's PHH writer's
  order); ``players``, ``seats`` (the room's seat numbers), ``venue`` (the room), ``hand``, ``table``;
- cards nobody saw are ``??`` (``d dh p2 ??????????``, ``p2 sd ????``);
- amounts in the hand's smallest unit (cents: ``_scale = 2`` says so, with ``currency``); chips posted
  dead in ``_dead_blinds``, live posts out of turn in ``_posts``; ``winnings`` is what the room paid and
  ``_rake`` its rake.

>>> from badacey_fast.histories import parse
>>> from badacey_fast.histories.model import EXAMPLE
>>> hand = next(parse(EXAMPLE))
>>> print(to_phh(hand).splitlines()[0])
variant = "FB"
>>> import json; d = json.loads(to_json(hand)); d["format"], d["engine"]["dealt"][:11]
('badacey_fast/real-hand', '?? As ?? 2h')
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from badacey_fast.cards import format_cards
from badacey_fast.errors import HandHistoryError, ReplayError
from badacey_fast.game.history import UNKNOWN_TEXT, history
from badacey_fast.histories.kinds import (
    ANTE, BET, BIG_BLIND, CALL, CHECK, DEAD, DRAW, FOLD, MUCK, POST, RAISE, SHOW, SMALL_BLIND,
)

if TYPE_CHECKING:
    from badacey_fast.histories.engine import Replay
    from badacey_fast.histories.record import HandRecord

__all__ = ["FORMAT", "PHH_VARIANTS", "to_dict", "to_json", "to_phh"]

FORMAT = "badacey_fast/real-hand"

#: PHH variant codes by (our game or the variant's family, betting): PHH's own and the ones proposed here.
PHH_VARIANTS = {
    ("27", "fixed"): "F2L3D",
    ("badugi", "fixed"): "FB",
    ("a5", "fixed"): "FAL3D",  # proposed: A-5 lowball triple draw
    ("badacey", "fixed"): "FBAL3D",  # proposed: badugi + A-5 lowball, triple draw (split pot)
    ("badeucy", "fixed"): "FB2L3D",  # proposed: badugi + 2-7 lowball, triple draw (split pot)
    ("2-7 single draw", "no"): "N2L1D",
}


def to_dict(hand: HandRecord, replayed: Replay | None = None) -> dict[str, Any]:
    """The JSON-ready dict of :func:`to_json` (``replayed``: the hand's replay, when the caller has it)."""
    from badacey_fast.histories.engine import replay

    out: dict[str, Any] = {"format": FORMAT, "version": 1}
    out.update(hand.to_dict())
    try:
        out["engine"] = history((replayed or replay(hand, fast=False)).game)
    except ReplayError as exc:
        out["engine"] = None
        out["engine_skipped"] = str(exc)
    return out


def to_json(hand: HandRecord, indent: int | None = None) -> str:
    """The hand as JSON text (see the module docstring): one line unless ``indent`` is given."""
    return json.dumps(to_dict(hand), indent=indent, ensure_ascii=False)


def _variant(hand: HandRecord) -> str:
    key = hand.game
    if key is None and hand.draws == 1 and "2-7" in hand.variant.replace("Lowball27", "2-7"):
        key = "2-7 single draw"
    code = PHH_VARIANTS.get((key or "", hand.betting))
    if code is None:
        raise HandHistoryError(f"no PHH variant for {hand.betting} limit {hand.variant!r} (PHH codes: "
                           f"{', '.join(sorted(set(PHH_VARIANTS.values())))})")
    return code


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string: JSON's escapes are TOML's
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    return str(value)


def _pk(cards: tuple[int, ...] | None, count: int) -> str:
    """Cards as PHH writes them (no spaces), ``??`` for each unknown one."""
    if cards is None:
        return UNKNOWN_TEXT * count
    return format_cards(cards).replace(" ", "")


def to_phh(hand: HandRecord) -> str:
    """The hand as PHH text (see the module docstring); ``HandHistoryError`` for a variant PHH has no code for."""
    variant = _variant(hand)
    players = hand.players
    if not players:
        raise HandHistoryError(f"hand {hand.site} #{hand.hand_id} has no player dealt in")
    small = next((e.player for e in hand.actions if e.kind == SMALL_BLIND), None)
    big = next((e.player for e in hand.actions if e.kind == BIG_BLIND), None)
    n = len(players)
    # p1 is the seat left of the button: the small blind (heads-up: the big blind, the button posting the
    # small blind), as the engine's PHH writer orders them.
    if small in players:
        first = players.index(small) if n > 2 else (players.index(small) + 1) % n
    elif big in players:
        first = (players.index(big) - (1 if n > 2 else 0)) % n
    else:
        first = 0
    order = players[first:] + players[:first]
    p = {name: k + 1 for k, name in enumerate(order)}
    stacks = {s.name: s.stack for s in hand.seats}
    antes = {name: 0 for name in order}
    blinds = {name: 0 for name in order}
    dead: dict[str, int] = {}
    posts: list[int] = []
    for e in hand.actions:
        if e.kind == ANTE and e.player in antes:
            antes[e.player] += e.amount or 0
        elif e.kind in (SMALL_BLIND, BIG_BLIND) and e.player in blinds:
            blinds[e.player] += e.amount or 0
        elif e.kind == DEAD:
            dead[f"p{p[e.player]}" if e.player in p else e.player] = e.amount or 0
        elif e.kind == POST and e.player in p:
            posts.append(p[e.player])
    first_cards = {name: (hand.holdings.get(name) or [None])[0] for name in order}
    actions = [f"d dh p{p[name]} {_pk(first_cards[name], hand.hand_size)}" for name in order]
    pending_deals: list[str] = []
    for e in hand.actions:
        if e.player not in p:
            continue
        who = f"p{p[e.player]}"
        if e.kind != DRAW and pending_deals:
            actions += pending_deals
            pending_deals = []
        if e.kind == FOLD:
            actions.append(f"{who} f")
        elif e.kind in (CHECK, CALL):
            actions.append(f"{who} cc")
        elif e.kind in (BET, RAISE):
            actions.append(f"{who} cbr {e.to}")
        elif e.kind == DRAW:
            count = e.drawn or 0
            actions.append(f"{who} sd {_pk(e.cards, count)}".rstrip() if count else f"{who} sd")
            if count:
                pending_deals.append(f"d dh {who} {_pk(e.new, count)}")
        elif e.kind in (SHOW, MUCK) and e.cards is not None:
            actions.append(f"{who} sm {_pk(e.cards, len(e.cards))}")
    actions += pending_deals
    paid = hand.put_in()
    fields: list[tuple[str, Any]] = [
        ("variant", variant),
        ("antes", [antes[name] for name in order]),
        ("blinds_or_straddles", [blinds[name] for name in order]),
    ]
    if hand.limits is not None:
        fields += [("small_bet", hand.limits[0]), ("big_bet", hand.limits[1])]
    else:
        fields.append(("min_bet", hand.blinds[1]))
    fields += [
        ("starting_stacks", [stacks[name] for name in order]),
        ("actions", actions),
        ("venue", hand.site),
        ("hand", hand.hand_id),
        ("table", hand.table),
        ("players", order),
        ("seats", [next(s.number for s in hand.seats if s.name == name) for name in order]),
        ("seat_count", hand.max_seats or n),
        ("currency", hand.currency),
        ("winnings", [hand.collected.get(name, 0) for name in order]),
        ("finishing_stacks", [stacks[name] - paid.get(name, 0) + hand.collected.get(name, 0) for name in order]),
    ]
    if hand.started is not None:
        t = hand.started
        fields += [("year", t.year), ("month", t.month), ("day", t.day), ("time", t.strftime("%H:%M:%S"))]
        if t.tzinfo is not None:
            fields.append(("time_zone", t.tzname() or ""))
    if hand.tournament is not None:
        fields.append(("event", f"tournament {hand.tournament}"))
    fields += [("_scale", hand.scale), ("_rake", hand.rake or 0), ("_variant", hand.variant)]
    if dead:
        fields.append(("_dead_blinds", dead))
    if posts:
        fields.append(("_posts", posts))
    if hand.game is not None:
        fields.append(("_game", hand.game))
    lines = []
    for key, value in fields:
        if key == "actions":
            lines.append("actions = [\n" + "".join(f"  {_toml(v)},\n" for v in value) + "]")
        else:
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"
