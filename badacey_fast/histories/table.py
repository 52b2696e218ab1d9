"""Real hands as a table, and the players' statistics.

:func:`to_table` gives one row per hand per player dealt in (pyarrow, or pandas); :func:`stats` one row per
player and game (pandas).  Both read the room's own account (what each player put in and was paid), so
they work for every hand read, replayed or not.

Columns of :func:`to_table` (amounts are ints in the hand's smallest unit, ``scale`` its decimals):

=================== ==========================================================================================
``site``, ``hand_id`` the room and its hand number
``started``         the start as the room printed it (ISO 8601, with its offset where the zone is known)
``started_utc``     the same instant in UTC (null when the room gives no time zone)
``variant``, ``game`` the room's words; our preset (or the variant's words when it is not one of ours)
``betting``         fixed, pot, half-pot or no (limit)
``currency``, ``scale`` the unit: ``USD`` and 2 (cents), ``chips`` and 0, ...
``big_bet``         the unit of ``net_bb``: the big bet in fixed limit, else the big blind
``player``, ``seat`` the player and the room's seat number
``position``        BTN, SB, BB, UTG, MP, HJ, CO (heads-up: SB is the button)
``players``         players dealt in
``cards_dealt``, ``cards_final`` the cards the text shows (null: not shown)
``actions_0`` ..    the player's betting on each street, one letter an action: f fold, k check, c call, b bet,
``actions_3``       r raise ("" none)
``drawn_1`` ..      cards drawn on each draw (null: no draw), 0 standing pat
``drawn_3``
``put_in``, ``won``  chips put in (less uncalled bets) and paid by the room
``net``, ``net_bb`` won less put in, and in big bets (a float: a ratio, not an amount)
``vpip``, ``pfr``    put chips in voluntarily before the draw; raised before the draw
``three_bet_chance``, ``three_bet`` faced exactly one raise before the draw; raised it
``steal_faced``, ``fold_to_steal`` in a blind, faced a first raise from CO, BTN or SB with no caller; folded to it
``showdown``, ``won_showdown`` still in at a showdown of two or more; paid there
=================== ==========================================================================================

:func:`stats` columns (``n`` hands of a player in a game):

- ``hands``: n; ``vpip``, ``pfr``, ``showdown`` (WTSD): the share of the n hands with the flag;
- ``three_bet``: 3-bets / chances; ``fold_to_steal``: folds / steals faced; ``won_showdown`` (W$SD):
  showdowns won / showdowns (NaN where there was no chance);
- ``cards_per_draw``: cards drawn / draws taken; ``stand_pat``: draws of 0 cards / draws taken;
- ``net``: the sum of ``net`` (exact, a Decimal in the unit; None where the hands' units differ);
- ``bb_per_100``: 100 x the mean of ``net_bb``; ``bb_per_100_low``, ``bb_per_100_high``: its 95% interval,
  100 x (mean -/+ 1.96 x the sample standard deviation of ``net_bb`` / sqrt(n)) (NaN for one hand).

>>> from badacey_fast.histories import parse
>>> from badacey_fast.histories.model import EXAMPLE
>>> rows = list(player_rows(next(parse(EXAMPLE))))
>>> [(r["player"], r["position"], r["actions_0"], r["drawn_1"], r["net"], r["net_bb"]) for r in rows]
[('Hero', 'SB', 'r', 1, 90, 0.9), ('Villain', 'BB', 'c', 2, -100, -1.0)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from datetime import timezone
from decimal import Decimal
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from badacey_fast.cards import format_cards
from badacey_fast.histories.model import BET, CALL, CHECK, COLLECT, DRAW, FOLD, RAISE, RealHand

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = ["player_rows", "to_table", "stats", "schema", "require_pandas", "POSITIONS"]

_LETTER = {FOLD: "f", CHECK: "k", CALL: "c", BET: "b", RAISE: "r"}
#: The position names, first to act before the draw to last.
POSITIONS = ("UTG", "UTG+1", "MP", "HJ", "CO", "BTN", "SB", "BB")
_STEALERS = frozenset({"CO", "BTN", "SB"})


def require_pandas() -> ModuleType:
    """``pandas``, or an ImportError in one line naming the extra that installs it."""
    try:
        import pandas
    except ImportError:
        raise ImportError('statistics need pandas: pip install "badacey_fast[histories]"') from None
    return pandas


def _positions(order: list[str]) -> dict[str, str]:
    """Position names of the players dealt in, ``order`` starting at the small blind (heads-up the small
    blind is the button): SB, BB, UTG, UTG+1, MP, HJ, CO, BTN."""
    if len(order) < 3:
        return dict(zip(order, ("SB", "BB")))
    rest = order[2:]  # from the seat left of the big blind to the button
    labels = ["UTG"] * len(rest)
    labels[-1] = "BTN"
    back = ("CO", "HJ", "MP")
    for j, k in enumerate(range(len(rest) - 2, 0, -1)):
        labels[k] = back[j] if j < len(back) else f"UTG+{k}"
    return {order[0]: "SB", order[1]: "BB", **dict(zip(rest, labels))}


def player_rows(hand: RealHand) -> Iterator[dict[str, Any]]:
    """The rows of :func:`to_table` for one hand, as dicts (one per player dealt in)."""
    players = hand.players
    if not players:
        return
    small = next((e.player for e in hand.actions if e.kind == "small blind"), None)
    if small in players:
        k = players.index(small)
        order = players[k:] + players[:k]
    else:
        order = players
    pos = _positions(order)
    unit = (hand.limits[1] if hand.betting == "fixed" and hand.limits else hand.blinds[1]) or 1
    paid = hand.put_in()
    folded = hand.folded()
    live = [p for p in players if p not in folded]
    showdown_hand = len(live) > 1 and hand.status == "complete"
    started = hand.started.isoformat() if hand.started is not None else None
    started_utc = (hand.started.astimezone(timezone.utc) if hand.started is not None and hand.started.tzinfo
                   else None)
    # Before the draw: VPIP, PFR, 3-bet chances, steals.
    pre: dict[str, dict[str, bool]] = {p: {"vpip": False, "pfr": False, "three_bet_chance": False,
                                           "three_bet": False, "steal_faced": False, "fold_to_steal": False}
                                       for p in players}
    raises = 0
    steal: str | None = None
    opened = False  # someone called or raised before the first raise (no steal then)
    for e in hand.actions:
        if e.street != 0 or e.kind not in _LETTER or e.player not in pre:
            continue
        me = pre[e.player]
        if raises == 1:
            if not me["three_bet_chance"]:
                me["three_bet_chance"] = True
                me["three_bet"] = e.kind == RAISE
            if steal is not None and pos.get(e.player) in ("SB", "BB") and e.player != steal and not me["steal_faced"]:
                me["steal_faced"] = True
                me["fold_to_steal"] = e.kind == FOLD
        if e.kind in (CALL, BET, RAISE):
            me["vpip"] = True
        if e.kind in (BET, RAISE):
            me["pfr"] = True
            raises += 1
            if raises == 1 and not opened and pos.get(e.player) in _STEALERS:
                steal = e.player
        elif e.kind == CALL and raises == 0:
            opened = True
    acts: dict[str, list[str]] = {p: [""] * 4 for p in players}
    drawn: dict[str, list[int | None]] = {p: [None] * 3 for p in players}
    won: dict[str, int] = {}
    for e in hand.actions:
        if e.player not in acts:
            continue
        letter = _LETTER.get(e.kind)
        if letter is not None and e.street < 4:
            acts[e.player][e.street] += letter
        elif e.kind == DRAW and 1 <= e.street <= 3:
            drawn[e.player][e.street - 1] = e.drawn
        elif e.kind == COLLECT:
            won[e.player] = won.get(e.player, 0) + (e.amount or 0)
    seat_of = {s.name: s.number for s in hand.seats}
    for p in order:
        held = hand.holdings.get(p) or [None]
        final = next((h for h in reversed(held) if h is not None), None)
        net = hand.collected.get(p, 0) - paid.get(p, 0)
        at_showdown = showdown_hand and p in live
        row: dict[str, Any] = {
            "site": hand.site, "hand_id": hand.hand_id, "started": started, "started_utc": started_utc,
            "variant": hand.variant, "game": hand.game or hand.variant, "betting": hand.betting,
            "currency": hand.currency, "scale": hand.scale, "big_bet": unit,
            "player": p, "seat": seat_of[p], "position": pos.get(p, ""), "players": len(players),
            "cards_dealt": None if held[0] is None else format_cards(held[0]),
            "cards_final": None if final is None else format_cards(final),
        }
        for s in range(4):
            row[f"actions_{s}"] = acts[p][s]
        for s in range(3):
            row[f"drawn_{s + 1}"] = drawn[p][s]
        row.update({"put_in": paid.get(p, 0), "won": hand.collected.get(p, 0), "net": net, "net_bb": net / unit})
        row.update(pre[p])
        row["showdown"] = at_showdown
        row["won_showdown"] = at_showdown and won.get(p, 0) > 0
        yield row


def schema(pa: ModuleType) -> Any:
    """The pyarrow schema of :func:`to_table` (``pa``: the pyarrow module)."""
    string, i64, boolean = pa.string(), pa.int64(), pa.bool_()
    fields = [("site", string), ("hand_id", string), ("started", string),
              ("started_utc", pa.timestamp("us", tz="UTC")), ("variant", string), ("game", string),
              ("betting", string), ("currency", string), ("scale", pa.int8()), ("big_bet", i64),
              ("player", string), ("seat", pa.int16()), ("position", string), ("players", pa.int8()),
              ("cards_dealt", string), ("cards_final", string)]
    fields += [(f"actions_{s}", string) for s in range(4)]
    fields += [(f"drawn_{s}", pa.int8()) for s in range(1, 4)]
    fields += [("put_in", i64), ("won", i64), ("net", i64), ("net_bb", pa.float64())]
    fields += [(name, boolean) for name in ("vpip", "pfr", "three_bet_chance", "three_bet", "steal_faced",
                                            "fold_to_steal", "showdown", "won_showdown")]
    return pa.schema(fields)


def to_table(hands: Iterable[RealHand], pandas: bool = False) -> pa.Table | pd.DataFrame:
    """One row per hand per player dealt in (the module docstring lists the columns): a ``pyarrow.Table``,
    or a pandas DataFrame with ``pandas=True``.  Needs pyarrow (``pip install "badacey_fast[histories]"``).

    >>> from badacey_fast.histories import parse
    >>> from badacey_fast.histories.model import EXAMPLE
    >>> t = to_table(parse(EXAMPLE))
    >>> t.num_rows, t.column("net").to_pylist(), t.column("started_utc")[0].as_py().isoformat()
    (2, [90, -100], '2024-01-03T01:00:00+00:00')
    """
    from badacey_fast.files.arrow import require_pyarrow

    arrow = require_pyarrow()
    table_schema = schema(arrow)
    columns: dict[str, list[Any]] = {name: [] for name in table_schema.names}
    for hand in hands:
        for row in player_rows(hand):
            for name, values in columns.items():
                values.append(row[name])
    table = arrow.Table.from_pydict(columns, schema=table_schema)
    return cast("pa.Table | pd.DataFrame", table.to_pandas() if pandas else table)


def stats(hands: Iterable[RealHand] | pa.Table | pd.DataFrame) -> pd.DataFrame:
    """Per player and game: hands, VPIP, PFR, 3-bet, fold to steal, cards per draw, stand-pat rate, went to
    showdown, won at showdown, net and big bets per 100 hands with its 95% interval (the module docstring
    gives each formula).  ``hands``: RealHands, or the table of :func:`to_table`.  Needs pandas.

    >>> from badacey_fast.histories import parse
    >>> from badacey_fast.histories.model import EXAMPLE
    >>> s = stats(parse(EXAMPLE))
    >>> row = s.loc[("Hero", "badugi")]
    >>> int(row.hands), float(row.vpip), float(row.pfr), float(row.bb_per_100)
    (1, 1.0, 1.0, 90.0)
    """
    pandas_mod = require_pandas()
    frame: Any
    if isinstance(hands, pandas_mod.DataFrame):
        frame = hands
    elif hasattr(hands, "to_pandas") and hasattr(hands, "schema"):
        frame = cast(Any, hands).to_pandas()
    else:
        rows: Iterable[RealHand] = hands  # neither a DataFrame nor a Table here
        frame = pandas_mod.DataFrame([row for hand in rows for row in player_rows(hand)])
    if frame.empty:
        return cast("pd.DataFrame", pandas_mod.DataFrame())
    # Floats with NaN for "no such draw": an object column of ints and Nones would leave fillna to
    # downcast, which pandas 2.2 warns about and pandas 3 does silently.
    drawn = frame[["drawn_1", "drawn_2", "drawn_3"]].astype("float64")
    frame = frame.assign(
        draws=drawn.notna().sum(axis=1), cards_drawn=drawn.fillna(0).sum(axis=1),
        pats=(drawn == 0).sum(axis=1),
        net_money=[Decimal(int(n)).scaleb(-int(s)) for n, s in zip(frame["net"], frame["scale"])],
        unit=frame["currency"].astype(str) + "/" + frame["scale"].astype(str),
    )
    out = []
    for (player, game), g in frame.groupby(["player", "game"], sort=True):
        n = len(g)
        mean = float(g["net_bb"].mean())
        sd = float(g["net_bb"].std(ddof=1)) if n > 1 else math.nan
        half = 1.96 * sd / math.sqrt(n) if n > 1 else math.nan
        draws = int(g["draws"].sum())
        out.append({
            "player": player, "game": game, "hands": n,
            "vpip": float(g["vpip"].mean()), "pfr": float(g["pfr"].mean()),
            "three_bet": _share(g["three_bet"], g["three_bet_chance"]),
            "fold_to_steal": _share(g["fold_to_steal"], g["steal_faced"]),
            "cards_per_draw": float(g["cards_drawn"].sum()) / draws if draws else math.nan,
            "stand_pat": float(g["pats"].sum()) / draws if draws else math.nan,
            "showdown": float(g["showdown"].mean()),
            "won_showdown": _share(g["won_showdown"], g["showdown"]),
            "net": sum(g["net_money"], Decimal(0)) if g["unit"].nunique() == 1 else None,
            "bb_per_100": 100 * mean, "bb_per_100_low": 100 * (mean - half), "bb_per_100_high": 100 * (mean + half),
        })
    return cast("pd.DataFrame", pandas_mod.DataFrame(out).set_index(["player", "game"]))


def _share(hits: Any, chances: Any) -> float:
    total = int(chances.sum())
    return float(hits[chances].sum()) / total if total else math.nan
