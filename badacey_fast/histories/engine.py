"""A real hand replayed in the rules engine: every fixed-limit hand of one of our games becomes a
:class:`~badacey_fast.game.Game` played action by action, the cards the text does not show dealt as
:data:`~badacey_fast.game.UNKNOWN` (``??``).

How the room's table becomes the engine's (each step keeps every chip and every decision where it was):

- **Seats**: the players dealt in, in seat order.  At a table of 7 or 8 (the engine deals 2 to 6), players
  who only folded before the draw, with no chip in the pot but an ante, leave the replay: their ante stays
  in the pots as theirs (:mod:`badacey_fast.histories.audit`), nothing else of theirs touches a pot or the
  order of the others.
- **Button**: the seat before the small blind (heads-up: the small blind), which is where the engine posts
  the blinds; the room's button seat may be empty or sitting out.
- **Posts**: blinds and antes as the game's config; a live big blind posted out of turn as the engine's
  ``posts``; chips posted dead (a dead small blind) stay out of the betting: the replay's stack is that
  much smaller and the chips join the player's contribution when the pots are built
  (:mod:`badacey_fast.histories.audit`).
- **Cards**: every card the text shows (a player's own, a draw's discards and new cards, a hand shown or
  mucked face up) is dealt as that card; the rest are unknown.  A player whose final hand is shown but
  whose draws are not gets the shown cards in its last dealt places, and its unseen discards thrown
  first: every way of dealing them is the same hand to the rules.  The engine's stub keeps the card
  count exact, so it reshuffles where the room ran out of cards.
- **Draws**: applied in the engine's order (first live seat left of the button), whatever the text's order.

>>> from badacey_fast.histories import parse
>>> from badacey_fast.histories.model import EXAMPLE
>>> r = replay(next(parse(EXAMPLE)))
>>> r.game.is_over, r.game.payouts, r.names      # the engine's pot (the room's rake is the check's)
(True, [200, 0], ['Hero', 'Villain'])
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from badacey_fast.errors import BadaceyError, IllegalActionError, ReplayError
from badacey_fast.game import UNKNOWN, Action, Game, GameConfig, is_unknown
from badacey_fast.game.betting import BETTING, COMPLETE, DRAWING, SEATS_AFTER, put_in, round_seats
from badacey_fast.histories.kinds import ANTE, BET, BIG_BLIND, CALL, CHECK, DEAD, DRAW, FOLD, MUCK, POST, POSTS, \
    RAISE, RESHUFFLE, SHOW, SMALL_BLIND, UNCALLED

if TYPE_CHECKING:
    from badacey_fast.pots import Settlement
    from badacey_fast.histories.record import Event, HandRecord

__all__ = ["Replay", "ReplayError", "replay", "why_not_replayed", "contributions", "final_hands", "MAX_SEATS"]

#: The engine deals 2 to 6 players (RULES.md §4).
MAX_SEATS = 6

_BETTING_KINDS = frozenset({FOLD, CHECK, CALL, BET, RAISE})
_Random = random.Random
_SEED_0 = _Random(0).getstate()  # the replay's random source, as Random(0) is made (an immutable tuple)
_PLAY_KINDS = _BETTING_KINDS | {DRAW}
_SHOWN_KINDS = frozenset({SHOW, MUCK})
_new = tuple.__new__


class Replay:
    """A replayed hand: the engine's ``game``, the player of each engine seat (``names``), the engine's
    ``button`` seat, chips each player posted dead (``dead``) and the players left out (``dropped``: their
    chips), the ``config`` used, and what the replay noticed (``notes``).

    What the check reads of the finished hand is kept apart from the game: each engine seat's chips put in
    (``contrib``, uncalled chips returned) and whether it folded (``folded``), each live seat's final cards
    (``final``: a tuple, or None where a card is unknown), where the stub reshuffled (``reshuffles``) and the
    engine's showdown (``settlement``, None when it settled none); and the room's own account, read in the
    replay's one pass over the events: what each player put in (``room_paid``, HandRecord.put_in), who
    folded (``room_folded``, HandRecord.folded) and whether the room says it reshuffled
    (``room_reshuffled``).  A hand the replay settled without a
    :class:`~badacey_fast.game.Game` (its fast path, see :func:`replay`) builds the game on the engine's path
    the first time ``game`` is read."""

    __slots__ = ("hand", "_game", "names", "button", "config", "dead", "dropped", "notes", "contrib", "folded",
                 "final", "reshuffles", "settlement", "room_paid", "room_folded", "room_reshuffled")

    def __init__(self, hand: HandRecord, game: Game | None, names: list[str], button: int, config: GameConfig,
                 dead: dict[str, int] | None = None, dropped: dict[str, int] | None = None,
                 notes: list[str] | None = None) -> None:
        self.hand, self._game, self.names, self.button, self.config = hand, game, names, button, config
        self.dead = {} if dead is None else dead
        self.dropped = {} if dropped is None else dropped
        self.notes = [] if notes is None else notes
        self.contrib: list[int] = []
        self.folded: list[bool] = []
        self.final: dict[str, tuple[int, ...] | None] = {}
        self.reshuffles: list[int] = []
        self.settlement: Settlement | None = None
        self.room_paid: dict[str, int] = {}
        self.room_folded: set[str] = set()
        self.room_reshuffled = False

    @property
    def game(self) -> Game:
        """The engine's finished game (built on the engine's path when the replay settled without one)."""
        if self._game is None:
            self._game = _replay(self.hand, self.config.heads_up_uncapped, False)._game
        assert self._game is not None  # the engine's path always plays one
        return self._game

    def seat_of(self, name: str) -> int:
        """The engine seat of a player."""
        return self.names.index(name)


def why_not_replayed(hand: HandRecord) -> str | None:
    """Why the hand is not replayed in the engine (None when it is): the first reason found.

    >>> from badacey_fast.histories import parse
    >>> from badacey_fast.histories.model import EXAMPLE
    >>> why_not_replayed(next(parse(EXAMPLE))) is None
    True
    >>> h = next(parse(EXAMPLE.replace("Badugi Limit", "5 Card Draw Limit")))
    >>> why_not_replayed(h)
    'not one of our games: 5 Card Draw'
    """
    return _why_not(hand, any(e.kind in _PLAY_KINDS for e in hand.actions))


def _why_not(hand: HandRecord, played: bool) -> str | None:
    """why_not_replayed, given whether any betting action or draw was played (the replay's scan knows)."""
    if hand.game is None:
        return f"not one of our games: {hand.variant}"
    if hand.betting != "fixed":
        return f"{hand.betting} limit: the engine plays fixed limit"
    if hand.status != "complete":
        return {"cancelled": "the room cancelled the hand", "partial": "the room kept only the summary",
                "no deal": "no hand was dealt"}.get(
            hand.status, f"the hand is {hand.status}")
    if hand.limits is None:
        return "the text states no limits"
    if not played:
        return "no hand was dealt"
    return None


class _Scan:
    """What the replay and the check need of a hand's events, gathered in one pass over them: the blinds'
    posters, chips posted dead, live posts and antes (the table), the draws by street and player, the street
    each player folded on, the final cards shown, whether any betting action or draw was played, and the
    room's accounting: what each player put in (``paid``: HandRecord.put_in's sums) and whether the room
    says it reshuffled."""

    __slots__ = ("small", "big", "dead", "posts", "antes", "draws", "folded_at", "shown", "played", "paid",
                 "reshuffled")

    def __init__(self, actions: tuple[Event, ...]) -> None:
        small: list[str] = []
        big: list[str] = []
        dead: dict[str, int] = {}
        posts: list[str] = []
        antes: dict[str, int] = {}
        draws: dict[int, dict[str, Event]] = {}
        folded_at: dict[str, int] = {}
        shown: dict[str, tuple[int, ...]] = {}
        paid: dict[str, int] = {}  # chips put in (posts, calls, bets, raises) less uncalled chips returned
        played = reshuffled = False
        for e in actions:
            kind = e[2]
            if kind in _BETTING_KINDS:
                played = True
                if kind == FOLD:
                    folded_at[e[1]] = e[0]
                elif kind != CHECK:
                    paid[e[1]] = paid.get(e[1], 0) + (e[3] or 0)
            elif kind == DRAW:
                played = True
                draws.setdefault(e[0], {})[e[1]] = e
            elif kind in _SHOWN_KINDS:
                if e[7] is not None:  # cards: HandRecord.shown()'s rule, in this one pass
                    shown[e[1]] = e[7]
            elif kind == UNCALLED:
                paid[e[1]] = paid.get(e[1], 0) - (e[3] or 0)
            elif kind == RESHUFFLE:
                reshuffled = True
            elif kind in POSTS:
                paid[e[1]] = paid.get(e[1], 0) + (e[3] or 0)
                if kind == SMALL_BLIND:
                    small.append(e[1])
                elif kind == BIG_BLIND:
                    big.append(e[1])
                elif kind == DEAD:
                    dead[e[1]] = dead.get(e[1], 0) + (e[3] or 0)
                elif kind == POST:
                    posts.append(e[1])
                else:  # an ante
                    antes[e[1]] = antes.get(e[1], 0) + (e[3] or 0)
        self.small, self.big, self.dead, self.posts, self.antes = small, big, dead, posts, antes
        self.draws, self.folded_at, self.shown, self.played = draws, folded_at, shown, played
        self.paid, self.reshuffled = paid, reshuffled


def _dropped(hand: HandRecord, dealt: list[str], scan: _Scan) -> list[str]:
    """Players the replay can leave out at a table of more than 6: folded before the draw with no chip in
    but an ante (which stays in the pot as theirs)."""
    busy = {e[1] for e in hand.actions if e[2] != ANTE and (e[2] != FOLD or e[0] != 0)}  # did more than that
    out = [name for name in dealt if name in scan.folded_at and name not in busy]
    return out[: max(0, len(dealt) - MAX_SEATS)] if len(dealt) - len(out) <= MAX_SEATS else out


def _engine_table(hand: HandRecord, scan: _Scan) -> tuple[list[str], int, dict[str, int], list[int], int,
                                                           dict[str, int]]:
    """(engine seats' names, button seat, dead chips, live-post seats, ante, dropped players' chips)."""
    dealt = [s.name for s in hand.seats if s.dealt]
    dropped: dict[str, int] = {}
    if len(dealt) > MAX_SEATS:
        for name in _dropped(hand, dealt, scan):
            dropped[name] = scan.antes.get(name, 0)  # all a dropped player put in
        dealt = [n for n in dealt if n not in dropped]
        if len(dealt) > MAX_SEATS:
            raise ReplayError(f"{len(dealt)} players in the hand: the engine deals 2 to {MAX_SEATS}")
    if len(dealt) < 2:
        raise ReplayError("fewer than 2 players dealt in")
    small, big = scan.small, scan.big
    if len(big) != 1:
        raise ReplayError("no big blind posted" if not big else "two big blinds posted")
    if len(small) != 1:
        raise ReplayError("no small blind posted (a dead small blind): the engine always posts one" if not small
                          else "two small blinds posted")
    for who in small + big:
        if who not in dealt:
            raise ReplayError(f"{who} posts a blind but is not dealt in")
    n = len(dealt)
    sb, bb = dealt.index(small[0]), dealt.index(big[0])
    button = sb if n == 2 else (sb - 1) % n
    if bb != (sb + 1) % n:
        raise ReplayError(f"the big blind {big[0]} does not sit next to the small blind {small[0]}")
    posts = [dealt.index(name) for name in scan.posts if name not in dropped]
    antes = scan.antes
    ante = 0
    if antes:
        ante = hand.ante
        stacks = {s.name: s.stack for s in hand.seats}
        for name in dealt:
            posted = antes.get(name, 0)
            if posted != min(ante, stacks[name]):
                raise ReplayError(f"{name} posts an ante of {posted}, not the table's {ante}: the engine antes every seat")
    return dealt, button, dict(scan.dead), posts, ante, dropped


def _config(hand: HandRecord, ante: int, heads_up_uncapped: bool) -> GameConfig:
    assert hand.limits is not None and hand.game is not None  # why_not_replayed checked both
    return _config_of(hand.game, hand.blinds[0], hand.blinds[1], ante, hand.limits[0], hand.limits[1],
                      heads_up_uncapped)


@lru_cache(maxsize=1024)
def _config_of(game: str, small: int, big: int, ante: int, small_bet: int, big_bet: int,
               heads_up_uncapped: bool) -> GameConfig:
    """One GameConfig per table's stakes (a session's hands share them; GameConfig checks every field)."""
    return GameConfig(game=game, small_blind=small, big_blind=big, ante=ante, small_bet=small_bet,
                      big_bet=big_bet, heads_up_uncapped=heads_up_uncapped)


class _Slots:
    """One seat's cards as the engine will hold them, in the engine's hand order: ``cells`` holds every card
    the seat is dealt, in dealing order, each a known card or None (dealt as UNKNOWN), and ``hand`` the
    cells it holds now; draws throw and append cells as the engine does (see the module docstring)."""

    __slots__ = ("cells", "hand", "final")

    def __init__(self, size: int, first: tuple[int, ...] | None, final: tuple[int, ...] | None) -> None:
        if first is not None and len(first) != size:  # (the reader keeps no such hand: never dealt short)
            raise ReplayError(f"{len(first)} cards dealt for {size}-card hands", "parse gap")
        self.cells: list[int | None] = list(first) if first is not None else [None] * size
        self.hand = list(range(size))  # indexes into cells, in the engine's hand order
        self.final = set(final) if final is not None else None

    def draw(self, count: int, discards: tuple[int, ...] | None, new: tuple[int, ...] | None,
             after: tuple[int, ...] | None) -> list[int]:
        """Throw ``count`` cells (the known ``discards``, else unseen ones first) and append the new ones;
        returns the positions thrown (indexes into the hand before the draw)."""
        if not count and not discards:  # standing pat: the hand as it is
            if after is not None:
                self._assign(after)
            return []
        cells, hand = self.cells, self.hand
        held = [cells[k] for k in hand]
        thrown: list[int] = []
        if discards is not None:
            for c in discards:
                if c in held:
                    pos = held.index(c)
                else:
                    for pos, x in enumerate(held):
                        if x is None and pos not in thrown:
                            break
                    else:
                        raise ReplayError(f"a discard {c} the seat cannot hold", "parse gap")
                    cells[hand[pos]] = held[pos] = c
                thrown.append(pos)
        else:
            final = self.final
            order = [p for p, x in enumerate(held) if x is not None and x not in final] if final is not None else []
            order += [p for p, x in enumerate(held) if x is None]
            if len(order) < count:
                raise ReplayError("a draw throws cards the text shows the player keeping", "parse gap")
            thrown = order[:count]
        keep = [k for p, k in enumerate(hand) if p not in thrown] if thrown else hand
        start = len(cells)
        if new is None:
            cells += [None] * count
        else:
            cells += [new[j] if j < len(new) else None for j in range(count)]
        self.hand = keep + list(range(start, start + count))
        if after is not None:
            self._assign(after)
        return sorted(thrown)

    def _assign(self, cards: tuple[int, ...]) -> None:
        """The hand is now ``cards``: its unseen cells take the cards not placed yet."""
        cells = self.cells
        held = [cells[k] for k in self.hand]
        placed = set(held)
        placed.discard(None)
        if not placed.issubset(cards):
            raise ReplayError("the cards shown are not the cards the draws leave", "parse gap")
        if None in held:
            missing = [c for c in cards if c not in placed]
            for k in self.hand:
                if cells[k] is None:
                    cells[k] = missing.pop(0)

    def finish(self) -> None:
        if self.final is not None:
            self._assign(tuple(self.final))


def replay(hand: HandRecord, fast: bool = True) -> Replay:
    """Replay ``hand`` in the engine, action by action (see the module docstring).  Raises
    :class:`ReplayError`: not replayable (``kind`` "skipped", with the reason), or an action the engine
    refuses (``kind`` "rule difference", naming the action's line and the engine's rule) or a text that
    does not give the engine what it needs (``kind`` "parse gap").

    A room that lifts the cap heads-up (the engine's ``heads_up_uncapped`` option) is replayed with the
    option when the cap refuses a raise with two players in, and the replay notes it.

    ``fast`` (the default): a hand whose every action is the one the engine offers (or one the engine's
    path below replays without a refusal: a fold when a check is free, an all-in hand the room folds),
    within the cap, its cards dealt without a reshuffle and none twice, is settled without a
    :class:`~badacey_fast.game.Game` (:func:`_ledger`: the engine's rules on the chips alone, all-in
    hands and live posts included), its ``game`` built on the engine's path only when read; any other
    hand, and every hand with ``fast=False``, is played in the engine action by action (the checked
    twin: the same ``Replay``, tests/test_histories_fast_paths.py).

    >>> from badacey_fast.histories import parse
    >>> from badacey_fast.histories.model import EXAMPLE
    >>> h = next(parse(EXAMPLE))
    >>> r, twin = replay(h), replay(h, fast=False)
    >>> r.contrib == twin.contrib == [100, 100], r.folded == twin.folded, r.final == twin.final
    (True, True, True)
    """
    try:
        return _replay(hand, False, fast)
    except ReplayError as exc:
        if exc.kind != "rule difference" or "cap" not in str(exc):
            raise
        try:
            r = _replay(hand, True, False)
        except ReplayError:
            raise exc from None
        r.notes.append("the room lifts the cap heads-up (replayed with heads_up_uncapped=True)")
        return r


def _replay(hand: HandRecord, heads_up_uncapped: bool, fast: bool) -> Replay:
    scan = _Scan(hand.actions)
    reason = _why_not(hand, scan.played)
    if reason is not None:
        raise ReplayError(reason)
    names, button, dead, posts, ante, dropped = _engine_table(hand, scan)
    n = len(names)
    try:
        config = _config(hand, ante, heads_up_uncapped)
    except BadaceyError as exc:  # stakes no engine game has (a bet of 0, blinds above the bets...)
        raise ReplayError(f"the text's stakes are no game the engine deals: {exc}", "parse gap") from None
    stacks_by_name = {s.name: s.stack for s in hand.seats}
    stacks = [stacks_by_name[name] - dead.get(name, 0) for name in names]
    for name, st in zip(names, stacks):
        if st <= 0:
            raise ReplayError(f"{name} has no chips left for the engine once the dead blind is posted")
    seat = {name: k for k, name in enumerate(names)}
    size = hand.hand_size
    if size != config.hand_size:
        raise ReplayError(f"{size}-card hands for {hand.game}", "parse gap")
    # The draws, by street and player; the known cards of each player.
    draws, folded_at, shown = scan.draws, scan.folded_at, scan.shown
    holdings = hand.holdings
    slots: dict[str, _Slots | None] = {}  # None: a player none of whose cards the text shows
    for name in names:
        held = holdings.get(name)
        known = shown.get(name) is not None or (held is not None and held.count(None) != len(held))
        slots[name] = _Slots(size, held[0] if held else None, shown.get(name)) if known else None
    # The script: the deal (one card at a time from the seat left of the button), then each draw's cards
    # in the engine's order.  Slots are filled as the draws are planned, so the script is written last.
    plan: list[tuple[int, list[tuple[str, list[int]]]]] = []
    plain = fast and not heads_up_uncapped  # the hand may be settled by _ledger, without a Game
    order = [names[(button + 1 + k) % n] for k in range(n)]
    for street in range(1, hand.draws + 1):
        mine = draws.get(street)
        if not mine:
            break
        step = []
        for name in order:
            if folded_at.get(name, 99) < street:
                continue
            d = mine.get(name)
            if d is None:
                raise ReplayError(f"{name} is in the hand but does not draw on draw {street}", "parse gap")
            count = d.drawn or 0
            if d.cards is not None and len(d.cards) != count:
                plain = False  # discards shown that are not the count drawn: the engine's path only
            sl = slots[name]
            if sl is None:
                # Nothing known: throw the oldest cards (any would do), which keeps every position's card
                # unknown.
                step.append((name, list(range(count))))
                if count > size:
                    plain = False  # more cards thrown than held: the engine's path refuses it
            else:
                held = holdings.get(name) or []
                after = held[street] if street < len(held) else None
                thrown = sl.draw(count, d.cards, d.new, after)
                step.append((name, thrown))
                if len(set(thrown)) != len(thrown):
                    plain = False  # a discard shown twice: the engine's path refuses it
        plan.append((street, step))
    for sl in slots.values():
        if sl is not None:
            sl.finish()
    if plain:
        # The cards the script below would deal: every cell of each seat the text shows (a plain plan throws
        # as many cells as it adds), unknown ones elsewhere.
        dealt = n * size + sum([len(thrown) for _, step in plan for _, thrown in step])
        named = [c for sl in slots.values() if sl is not None for c in sl.cells if c is not None]
        r = _ledger(hand, config, names, button, stacks, posts, seat, dropped, slots, plan, dealt, named)
        if r is not None:
            r.dead = {k: v for k, v in dead.items() if v}
            r.dropped = dropped
            _room(r, hand, scan)
            return r
    unseen = [None] * size
    deal = zip(*[unseen if sl is None else sl.cells[:size] for sl in (slots[name] for name in order)])
    script = [UNKNOWN if c is None else c for cards in deal for c in cards]  # card k of each seat in turn
    counts = {name: size for name in names}
    for street, step in plan:
        for name, thrown in step:
            sl = slots[name]
            if sl is None:
                script += [UNKNOWN] * len(thrown)
            else:
                cells = sl.cells
                for k in range(counts[name], counts[name] + len(thrown)):
                    c = cells[k]
                    script.append(UNKNOWN if c is None else c)
            counts[name] += len(thrown)
    try:
        # The engine's scripted replay (what game.history.replay builds for a history with no actions): seed
        # 0 gives it a random source, which a complete script never draws from (set from Random(0)'s state:
        # seeding again costs a third more than that).
        rng = _Random.__new__(_Random)
        rng.setstate(_SEED_0)
        game = Game(config, stacks, button=button, posts=posts, _script=script, rng=rng)
        game.seed = 0
    except (IllegalActionError, BadaceyError) as exc:
        raise ReplayError(f"the engine refuses the deal: {exc}", "parse gap") from None
    result = Replay(hand, game, names, button, config, dead={k: v for k, v in dead.items() if v},
                    dropped=dropped)
    _room(result, hand, scan)
    planned = {street: dict(step) for street, step in plan}
    free: set[int] = set()  # seats the room let fold when they might check: the engine checks for them
    room_out: set[int] = set()  # seats out of the hand by the room, live in the engine (free or all-in folds)
    actions = hand.actions
    for e in actions:
        kind = e[2]
        if free:
            _free_folders(game, free)
        if kind in _BETTING_KINDS:
            player = e[1]
            if dropped and player in dropped:
                continue
            i = seat[player]
            if kind == FOLD:
                if game.stacks[i] == 0 and not game.folded[i]:
                    # An all-in player the room folds (sitting out in a tournament): no decision in the
                    # engine, which keeps the hand live; the check leaves it out of every pot's winners.
                    result.notes.append(f"the room folds {player}'s all-in hand (line {e.line})")
                    room_out.add(i)
                    continue
                if game.to_act == i and game.phase == "betting" and game.to_call() == 0:
                    free.add(i)
                    room_out.add(i)
                    result.notes.append(f"the room lets {player} fold when {player} may check (line {e.line}): "
                                        f"replayed as checks until a bet comes, then a fold")
                    game.apply("check", seat=i)
                    continue
            if game.to_act == i and game.phase == "betting":
                # The engine's own legal action when the text's is one (its fast path), else _bet's checked
                # path words the refusal.
                applied = False
                for a in game.legal_actions():
                    if a[0] == kind:
                        if kind == CALL and a[1] != e[3]:
                            raise ReplayError(f"line {e.line}: {player} calls {e[3]}, the engine's call is {a[1]}",
                                              "rule difference", e.line)
                        if (kind != BET and kind != RAISE) or a[1] == e[4]:
                            game.apply(a)
                            applied = True
                        break
                if applied:
                    continue
            _bet(game, i, e, actions)
        elif kind == DRAW and game.phase == "drawing" and e[0] == game.street + 1:
            # Every draw of this street, in the engine's order, at the first draw line of the street.
            street = e[0]
            thrown_by = planned.get(street, {})
            while game.phase == "drawing" and game.street + 1 == street:
                who = names[game.to_act]
                if game.to_act in free:
                    game.apply(Action("draw", cards=()), seat=game.to_act)
                    continue
                positions = thrown_by.get(who)
                if positions is None:
                    raise ReplayError(f"the engine has {who} draw on draw {street}; the text does not", "parse gap",
                                      e.line)
                engine_hand = game.hands[game.to_act]
                try:
                    # No seat given: the engine's fast path for a draw of held card ids (who draws is its own).
                    game.apply(_new(Action, ("draw", None, tuple([engine_hand[p] for p in positions]))))
                except IllegalActionError as exc:
                    # A card the stub cannot deal: the text gives a card to two players, or the room's
                    # reshuffle is not the rules' (RULES.md §4).
                    raise ReplayError(f"line {e.line}: the engine refuses {who}'s draw: {exc} (the text deals it "
                                      f"twice, or the room reshuffles otherwise)", "parse gap", e.line) from None
    if free:
        _free_folders(game, free)
    if room_out and not game.is_over and sum(1 for k in range(n) if not game.folded[k] and k not in room_out) == 1:
        # The room's hand is over (one player left), the engine's goes on with seats the room folded: play
        # it out at no cost (stand pat, check; a seat facing a bet folds) to close it.
        while not game.is_over:
            if game.phase == "drawing":
                game.apply(Action("draw", cards=()), seat=game.to_act)
            else:
                game.apply("fold" if game.to_call() > 0 else "check", seat=game.to_act)
    if not game.is_over:
        raise ReplayError(f"the text ends but the engine's hand is not over ({game.phase}, seat "
                          f"{names[game.to_act] if game.to_act >= 0 else '-'} to act)", "parse gap")
    result.contrib, result.folded, result.reshuffles, result.settlement = (game.contrib, game.folded,
                                                                           game.reshuffles, game.settlement)
    hands = game.hands
    for k, name in enumerate(names):
        if not game.folded[k]:
            cards = tuple(hands[k])
            result.final[name] = None if any(is_unknown(c) for c in cards) else cards
    return result


class _Ledger:
    """The engine's betting state on chips alone: :class:`~badacey_fast.game.Game`'s fields of the same names
    and its rules for them (game/state.py's ``_post_forced_bets``, ``legal_actions`` and ``apply``;
    game/betting.py's rounds; the chips of a call, bet or raise and a round's seats by the engine's own
    ``put_in`` and ``round_seats``), without its cards, log or legal-set objects.  ``_ledger`` drives it."""

    __slots__ = ("n", "button", "bb", "after", "stacks", "contrib", "sbet", "folded", "nlive", "nactive",
                 "street", "phase", "to_act", "level", "full_level", "nbets", "bet_size", "pending", "can_raise",
                 "tmin", "queue", "draws", "small_bet", "big_bet", "big_blind", "cap")

    def __init__(self, config: GameConfig, stacks: list[int], button: int, posts: list[int]) -> None:
        n = len(stacks)
        self.n, self.button, self.after = n, button, SEATS_AFTER[n]
        self.draws, self.small_bet, self.big_bet = config.draws, config.small_bet, config.big_bet
        self.big_blind = config.big_blind
        self.cap = config.cap if config.cap is not None else 1 << 60
        self.stacks = stacks = stacks[:]
        self.contrib = contrib = [0] * n
        self.sbet = sbet = [0] * n
        ante = config.ante
        if ante:
            for i in range(n):
                a = ante if ante < stacks[i] else stacks[i]
                stacks[i] -= a
                contrib[i] = a
        sb, bb = (button, (button + 1) % n) if n == 2 else ((button + 1) % n, (button + 2) % n)
        for s, blind in ((sb, config.small_blind), (bb, config.big_blind)):
            p = blind if blind < stacks[s] else stacks[s]
            stacks[s] -= p
            contrib[s] += p
            sbet[s] = p
        for s in posts:  # a live big blind posted out of turn (_post_extra_blinds; _ledger checked the seats)
            p = self.big_blind if self.big_blind < stacks[s] else stacks[s]
            stacks[s] -= p
            contrib[s] += p
            sbet[s] = p
        self.bb = bb
        self.folded = [False] * n
        self.nlive = n
        self.queue: list[int] = []
        self.start_round(0)

    def start_round(self, street: int) -> None:
        n, stacks, folded = self.n, self.stacks, self.folded
        self.street = street
        self.phase = BETTING
        self.bet_size = self.small_bet if street < 2 else self.big_bet
        active, nactive, self.tmin = round_seats(stacks, folded, self.nlive)
        self.nactive = nactive
        self.pending = active
        self.can_raise = active[:]
        if street == 0:
            self.level = self.full_level = self.big_blind
            self.nbets = 1
            order = self.after[self.bb]
        else:
            self.sbet = [0] * n
            self.level = self.full_level = self.nbets = 0
            order = self.after[self.button]
        if nactive > 1:
            for j in order:
                if active[j]:
                    self.to_act = j
                    return
        self.next_actor(order)

    def next_actor(self, order: tuple[int, ...]) -> None:
        pending = self.pending
        for j in order:
            if pending[j]:
                if self.nactive <= 1 and self.sbet[j] >= self.level:
                    pending[j] = False  # alone with chips and nothing to call: nothing to decide
                    continue
                self.to_act = j
                return
        self.end_round()

    def end_round(self) -> None:
        if self.street < self.draws:  # the round is over: the draw, from the button's left
            self.phase = DRAWING
            folded = self.folded
            self.queue = [j for j in self.after[self.button] if not folded[j]]
            self.to_act = self.queue.pop(0)
        else:
            self.finish()

    def finish(self) -> None:
        """The showdown, or the last player's pot: uncalled chips go back first."""
        contrib = self.contrib
        ranked = sorted(contrib)
        if ranked[-1] > ranked[-2]:
            contrib[contrib.index(ranked[-1])] = ranked[-2]
        self.phase = COMPLETE
        self.to_act = -1

    def act(self, kind: str, amount: int | None = None) -> bool:
        """The seat to act's ``kind`` (a call of ``amount``; a bet or raise to ``amount``) when it is the
        action the engine offers (False, nothing changed, when it is not)."""
        i = self.to_act
        stacks, sbet = self.stacks, self.sbet
        level = self.level
        to_call = level - sbet[i]
        stack = stacks[i]
        if kind == FOLD or kind == CALL:
            if to_call <= 0 or (kind == CALL and amount != (to_call if to_call < stack else stack)):
                return False
        elif kind == CHECK:
            if to_call > 0:
                return False
        else:
            if (kind != (RAISE if level > 0 else BET) or not self.can_raise[i] or stack <= to_call
                    or self.nactive <= 1 or self.nbets >= self.cap):
                return False
            if level >= self.tmin:  # verify.raise_callable: some other live seat could put in more
                folded = self.folded
                if not any(not folded[j] and stacks[j] + sbet[j] > level for j in self.after[i][:-1]):
                    return False
            target = self.full_level + self.bet_size
            if target > sbet[i] + stack:
                target = sbet[i] + stack
            if amount != target:
                return False
        pending = self.pending
        pending[i] = False
        self.can_raise[i] = False
        if kind == FOLD:
            self.folded[i] = True
            self.nlive -= 1
            self.nactive -= 1
            if self.nlive == 1:
                self.finish()
                return True
        elif kind != CHECK:
            assert amount is not None
            put_in(self, i, kind, amount)  # the engine's own rule for the chips (game/betting.py)
        for j in self.after[i]:  # next_actor, inlined (the hot path)
            if pending[j]:
                if self.nactive <= 1 and sbet[j] >= self.level:
                    pending[j] = False
                    continue
                self.to_act = j
                return True
        self.end_round()
        return True

    def free_folders(self, free: set[int]) -> None:
        """engine._free_folders: seats the room let fold stand pat and check while that is free, then fold."""
        while self.phase != COMPLETE and self.to_act in free:
            self.pass_or_fold()

    def pass_or_fold(self) -> None:
        if self.phase == DRAWING:  # stand pat: the next seat draws, or the next round
            if self.queue:
                self.to_act = self.queue.pop(0)
            else:
                self.start_round(self.street + 1)
        else:
            self.act(FOLD if self.level > self.sbet[self.to_act] else CHECK)


def _ledger(hand: HandRecord, config: GameConfig, names: list[str], button: int, stacks: list[int],
            posts: list[int], seat: dict[str, int], dropped: dict[str, int], slots: dict[str, _Slots | None],
            plan: list[tuple[int, list[tuple[str, list[int]]]]], dealt: int, named: list[int]) -> Replay | None:
    """The replay's fast path: the hand settled by the engine's own rules on the chips alone
    (:class:`_Ledger`), without a :class:`~badacey_fast.game.Game`, or None where the hand leaves the case
    it follows (the caller then plays it in the engine, which words any refusal).

    The case: no live post on a blind or twice, the cap never reached, every betting action the one the
    engine offers at that point by the seat the engine has to act (or one the engine's path handles without
    a refusal: a fold when a check is free, an all-in hand the room folds), every draw the planned one of
    the seats the engine has draw, each planned draw served, and the cards the script deals (``dealt``) at most 51 (the
    stub's last card is never dealt: no reshuffle), none of those it names (``named``) twice (the stub deals
    each named card as itself, each unknown one as a placeholder, in the seat's hand order the plan
    keeps).  The loop below is the engine path's loop in :func:`_replay`, step for step, on a
    :class:`_Ledger`."""
    if dealt > 51 or not config.uses_blinds:
        return None
    if posts:
        n = len(names)
        blinds = (button, (button + 1) % n) if n == 2 else ((button + 1) % n, (button + 2) % n)
        if len(set(posts)) != len(posts) or any(s in blinds for s in posts):
            return None  # a post the engine refuses (Game's _post_extra_blinds words it)
    if len(set(named)) != len(named):
        return None
    g = _Ledger(config, stacks, button, posts)
    size = config.hand_size
    planned = {st: dict(step) for st, step in plan}
    served = 0  # planned draws served
    notes: list[str] = []
    free: set[int] = set()
    room_out: set[int] = set()
    for e in hand.actions:
        kind = e[2]
        if free:
            g.free_folders(free)
        if kind in _BETTING_KINDS:
            player = e[1]
            if dropped and player in dropped:
                continue  # a player left out (the engine's path skips them too)
            at = seat.get(player)
            if at is None:
                return None
            i = at
            if kind == FOLD:
                if g.stacks[i] == 0 and not g.folded[i]:
                    notes.append(f"the room folds {player}'s all-in hand (line {e.line})")
                    room_out.add(i)
                    continue
                if g.to_act == i and g.phase == BETTING and g.level - g.sbet[i] <= 0:
                    free.add(i)
                    room_out.add(i)
                    notes.append(f"the room lets {player} fold when {player} may check (line {e.line}): "
                                 f"replayed as checks until a bet comes, then a fold")
                    g.act(CHECK)
                    continue
            if g.to_act != i or g.phase != BETTING or not g.act(kind, e[3] if kind == CALL else e[4]):
                return None
        elif kind == DRAW and g.phase == DRAWING and e[0] == g.street + 1:
            street = e[0]
            thrown_by = planned.get(street, {})
            while True:  # the seats of the draw queue in turn (Game._serve), then the next round
                j = g.to_act
                if j not in free:
                    if names[j] not in thrown_by:  # (the plan's positions are held, none twice: plain)
                        return None
                    served += 1
                queue = g.queue
                if queue:
                    g.to_act = queue.pop(0)
                else:
                    g.start_round(street)
                    break
    if free:
        g.free_folders(free)
    folded = g.folded
    n = len(names)
    if room_out and g.phase != COMPLETE and sum(1 for k in range(n) if not folded[k] and k not in room_out) == 1:
        while g.phase != COMPLETE:
            g.pass_or_fold()
    if g.phase != COMPLETE or served != sum(len(step) for _, step in plan):
        return None
    r = Replay(hand, None, names, button, config, notes=notes)
    r.contrib, r.folded = g.contrib, folded
    final = r.final
    for k, name in enumerate(names):
        if not folded[k]:
            sl = slots[name]
            if sl is None:
                final[name] = None
            else:
                cells = sl.cells
                cards = [cells[c] for c in sl.hand]
                if len(cards) != size:
                    return None
                final[name] = None if None in cards else tuple(cast("list[int]", cards))
    return r


def _room(r: Replay, hand: HandRecord, scan: _Scan) -> None:
    """The room's account the scan read, on the replay (HandRecord.put_in's dict, in its order)."""
    paid = {s.name: 0 for s in hand.seats}
    for name, chips in scan.paid.items():
        paid[name] = paid.get(name, 0) + chips
    r.room_paid, r.room_folded, r.room_reshuffled = paid, set(scan.folded_at), scan.reshuffled


def _free_folders(game: Game, free: set[int]) -> None:
    """Act for the seats that folded in the room when they might have checked: check (or stand pat) while
    that costs nothing, fold at the first bet."""
    while not game.is_over and game.to_act in free:
        if game.phase == "drawing":
            game.apply(Action("draw", cards=()), seat=game.to_act)
        else:
            game.apply("fold" if game.to_call() > 0 else "check", seat=game.to_act)


def _bet(game: Game, i: int, e: Event, before: tuple[Event, ...] = ()) -> None:
    """Apply one betting action of the text by seat ``i`` on the engine's checked path (the replay tried
    the engine's own legal actions first); refused: ReplayError naming the line and the rule."""
    if game.phase != "betting":
        raise ReplayError(f"line {e.line}: {e.player} {e.kind}s but the engine's hand is "
                          f"{'over' if game.is_over else game.phase}", "parse gap", e.line)
    kind = e.kind
    action: Action | str = Action(kind, e.to) if kind == BET or kind == RAISE else kind
    try:
        game.apply(action, seat=i)
    except IllegalActionError as exc:
        short = [x for x in before if x.line < e.line and x.all_in and x.kind == RAISE and x.street == e.street]
        if kind == RAISE and short and "illegal amount" in str(exc):
            raise ReplayError(
                f"line {e.line}: after {short[-1].player}'s all-in raise to {short[-1].to}, the room's next raise "
                f"completes it: {e.player} raises to {e.to}, one bet above the last full raise; by the rules an "
                f"all-in raise of half a bet or more is a full raise, the next one a bet above it ({exc})",
                "rule difference", e.line) from None
        raise ReplayError(f"line {e.line}: the engine refuses {e.player}'s {kind}"
                          f"{'' if e.to is None else f' to {e.to}'}: {exc}", "rule difference", e.line) from None


def contributions(r: Replay) -> dict[str, int]:
    """What each player put in by the engine's account (uncalled chips returned), dead chips included."""
    out = dict(r.dropped)
    contrib, dead = r.contrib, r.dead
    for k, name in enumerate(r.names):
        out[name] = contrib[k] + dead.get(name, 0)
    for name, chips in r.dead.items():
        if name not in r.names:
            out[name] = out.get(name, 0) + chips
    return out


def final_hands(r: Replay) -> dict[str, tuple[int, ...] | None]:
    """Each live player's final cards in the engine (None where any card is unknown); folded players absent."""
    return dict(r.final)
