"""The hand state machine: one fixed-limit triple-draw hand from the blinds to the last chip (RULES.md §4).

Design choices (documented, tested):

- **In-place apply with atomic validation.**  :meth:`Game.apply` validates the whole action first and
  only then mutates; it returns the same :class:`Game` (so ``g = g.apply(a)`` reads as "the new
  state").  A rejected action raises :class:`~badacey_fast.errors.IllegalActionError` naming the rule
  broken and leaves the state unchanged.  :meth:`Game.copy` gives an independent state when needed.
- Plain lists and ints with ``__slots__``: a hand is cheap enough for millions of simulated hands.
- **Dealing.**  A seeded deck is dealt lazily: each card is drawn uniformly from the stub (a lazy
  Fisher-Yates shuffle, the same distribution as shuffling up front, without its cost).  A given
  ``deck`` is dealt from the top in order (by slices; simulations pass decks shuffled in bulk).  Every
  dealt card is logged (``dealt``), so a hand replays from its history with a *scripted* dealer even
  across reshuffles.
- **Betting.**  Fold is legal only when facing a bet (folding when one may check is refused).  A bet is
  to the bet size; a raise is to the last *full* bet level plus one bet.  An all-in raise whose excess
  over the last full level is at least half a bet is a full raise (reopens, counts toward the cap);
  less does not reopen the betting for seats that already acted.  Before the draw the big blind counts
  as the bet and every seat calls the full big blind even if the big blind was short.
- **Draws.**  Each live seat (all-in seats too) discards and is served before the next.  The last stub
  card is never dealt: when only it remains and cards are owed, it is shuffled with the muck (every
  discard and folded card so far, and any burn cards) except the served seat's discards of this draw
  (its discards of earlier draws are ordinary muck), and the draw continues (this can repeat).
- **Showdown** through :func:`badacey_fast.showdown.settle` after uncalled chips went back to their owner.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import format_cards, parse_cards
from ..errors import IllegalActionError
from .actions import BET, CALL, CHECK, DRAW, FOLD, RAISE, Action
from .config import ConfigError, GameConfig
from .queries import GameQueries

__all__ = ["Game", "BETTING", "DRAWING", "COMPLETE"]

BETTING, DRAWING, COMPLETE = "betting", "drawing", "complete"

_new = tuple.__new__
_FOLD = _new(Action, (FOLD, None, None))
_CHECK = _new(Action, (CHECK, None, None))
_CALLS: dict[int, Action] = {}
_BETS: dict[tuple[str, int], Action] = {}


def _call(amount: int) -> Action:
    a = _CALLS.get(amount)
    if a is None:
        if len(_CALLS) > 4096:  # bounded: odd all-in amounts must not grow it forever
            _CALLS.clear()
        a = _CALLS[amount] = _new(Action, (CALL, amount, None))
    return a


def _raise(kind: str, to: int) -> Action:
    a = _BETS.get((kind, to))
    if a is None:
        if len(_BETS) > 4096:
            _BETS.clear()
        a = _BETS[(kind, to)] = _new(Action, (kind, to, None))
    return a


_LEGAL_SETS: dict[tuple[int, int, bool], tuple[Action, ...]] = {}
_DRAW_ORDERS: dict[tuple[int, int], list[int]] = {}  # (seats, button) -> seats clockwise, reversed
_INT_TYPES = {int}
#: Seat orders prebuilt per table size n (2..6), so the hot loops need no modulo arithmetic:
#: ``_AFTER[n][i]``: every seat clockwise after seat i, ending with i; ``_OTHERS[n][i]``: the same without i.
_AFTER = [tuple(tuple((i + k) % n for k in range(1, n + 1)) for i in range(n)) for n in range(7)]
_OTHERS = [tuple(order[:-1] for order in after) for after in _AFTER]
_SETTLE: list = []  # [badacey_fast.showdown.settle] once the first showdown imported it


def _legal_set(call: int, target: int, raising: bool) -> tuple[Action, ...]:
    acts = [_FOLD, _call(call)] if call > 0 else [_CHECK]
    if target:
        acts.append(_raise(RAISE if raising else BET, target))
    return tuple(acts)


class Game(GameQueries):
    """One hand of fixed-limit triple draw (Badacey by default) for 2 to 6 seats.

    ``stacks``: chips of each seat (seat 0 first, clockwise); ``button``: the dealer seat;
    ``seed`` (int) or ``rng`` (a :class:`random.Random`) shuffle the deck, or ``deck`` gives the full
    52-card order dealt from the top.  Blinds (or antes) are posted and the cards dealt on creation.
    ``posts``: seats that post an extra, live big blind (players joining a running table; see table.py).

    >>> g = Game(stacks=[100, 100, 100], seed=7)
    >>> g.to_act, g.legal_actions()                 # seat 0 is the button and acts first pre-draw
    (0, (Action(kind='fold', amount=None, cards=None), Action(kind='call', amount=2, cards=None), Action(kind='raise', amount=4, cards=None)))
    >>> g.apply(Action("raise", 6))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.IllegalActionError: illegal amount: seat 0 may raise to 4 (limit), not 6
    >>> Game(stacks=[100])
    Traceback (most recent call last):
    ...
    badacey_fast.game.config.ConfigError: a hand needs 2 to 6 seats, got 1
    """

    __slots__ = (
        "config", "n", "button", "starting_stacks", "stacks", "contrib", "sbet", "folded", "hands",
        "stub", "muck", "dealt", "reshuffles", "burned", "_rnd", "_rng", "_script", "_spos",
        "street", "phase", "to_act", "level", "full_level", "nbets", "bet_size", "pending", "can_raise",
        "nlive", "nactive", "draw_queue", "discard_counts", "log", "payouts", "returned", "seed",
        "sb_seat", "bb_seat", "_deckmode", "settlement", "_legal", "_cap", "_hu_uncapped",
        "posts",  # extra big-blind posts (joiners of a running table, see _post_forced_bets)
    )

    def __init__(
        self,
        config: GameConfig | str | None = None,
        stacks: Sequence[int] = (100,) * 6,
        button: int = 0,
        seed: int | None = None,
        deck: object = None,
        rng: random.Random | None = None,
        posts: Sequence[int] = (),
        _script: Sequence[int] | None = None,
        _shuffled: list[int] | None = None,
    ) -> None:
        if type(config) is GameConfig:
            pass
        elif config is None:
            config = GameConfig()
        elif isinstance(config, str):
            config = GameConfig(game=config)
        elif not isinstance(config, GameConfig):
            raise TypeError(f"config must be a GameConfig or a preset name, not {type(config).__name__}")
        self.config = config
        stacks = list(stacks)
        n = len(stacks)
        if not 2 <= n <= 6:
            raise ConfigError(f"a hand needs 2 to 6 seats, got {n}")
        if set(map(type, stacks)) != _INT_TYPES or min(stacks) <= 0:  # checked in C; worded below
            for s in stacks:
                if type(s) is not int:
                    raise TypeError(f"stacks must be ints, not {type(s).__name__}")
                if s <= 0:
                    raise ConfigError(f"every seat needs chips to be dealt in: stack {s}")
        if type(button) is not int:
            raise TypeError(f"button must be an int, not {type(button).__name__}")
        if not 0 <= button < n:
            raise ConfigError(f"button {button} is not a seat 0..{n - 1}")
        self.n = n
        self.button = button
        self.starting_stacks = tuple(stacks)
        self.stacks = stacks
        self.contrib = [0] * n
        self.sbet = [0] * n
        self.folded = [False] * n
        self.muck: list[int] = []
        self.dealt: list[int] = []
        self.reshuffles: list[int] = []  # index into ``dealt`` where each reshuffle happened
        self.burned: list[int] = []
        self.seed = seed
        self.posts = tuple(posts)
        if rng is None:
            rng = random.Random(seed)
        elif seed is not None:
            raise TypeError("give seed or rng, not both")
        self._rng = rng
        self._rnd = rng.random
        self._script = None
        self._spos = 0
        self._deckmode = False
        if _script is not None:
            self.stub = list(range(52))
            self._script = list(_script)
        elif deck is not None or _shuffled is not None:
            # A deck is dealt from the top until a reshuffle; the stub keeps its top at the END of the
            # list so that dealing is a slice.  ``_shuffled``: a trusted permutation (simulations).
            order = _shuffled if _shuffled is not None else parse_cards(deck, count=52)
            self.stub = order[::-1] if type(order) is list else list(order)[::-1]
            self._deckmode = True
        else:
            self.stub = list(range(52))
        # A given deck deals each hand as one slice (_deal_hands); otherwise cards are appended one by one.
        self.hands: list[list[int]] = [None] * n if self._deckmode else [[] for _ in range(n)]
        self.log: list[tuple[int, Action]] = []
        self.payouts: list[int] | None = None
        self.settlement = None  # the showdown's Settlement (None for a fold win), for explanations
        self._legal = None  # legal_actions() of the current state, cached until the next change
        self._cap = config.cap if config.cap is not None else 1 << 60
        self._hu_uncapped = config.heads_up_uncapped
        self.returned = [0] * n
        self.discard_counts: list[list[int]] = []
        self.draw_queue: list[int] = []
        self.nlive = n
        self.street = 0
        self.bet_size = config.small_bet
        self._post_forced_bets()
        self._deal_hands()
        self._start_round(0)

    # ----------------------------------------------------------------------------------------- dealing
    def _card(self) -> int:
        stub = self.stub
        script = self._script
        if script is not None and self._spos < len(script):
            c = script[self._spos]
            self._spos += 1
            try:
                i = stub.index(c)
            except ValueError:
                raise IllegalActionError(f"scripted card {format_cards([c])} is not in the stub") from None
        elif self._deckmode:
            c = stub.pop()
            self.dealt.append(c)
            return c
        else:
            i = int(self._rnd() * len(stub))
            c = stub[i]
        stub[i] = stub[-1]
        stub.pop()
        self.dealt.append(c)
        return c

    def _deal_hands(self) -> None:
        n, b, hands = self.n, self.button, self.hands
        if self._deckmode:
            # One card at a time from the top: the seat p places left of the button gets cards
            # p, p + n, p + 2n, ... of the top, i.e. one slice per seat.
            stub = self.stub
            m = n * self.config.hand_size
            top = stub[:-m - 1:-1]
            for p in range(n):
                hands[(b + 1 + p) % n] = top[p::n]
            del stub[-m:]
            self.dealt = top
            return
        order = [(b + k) % n for k in range(1, n + 1)] * self.config.hand_size
        if self._script is not None:
            card = self._card
            for seat in order:
                hands[seat].append(card())
            return
        # The hot path of every simulated hand: a partial Fisher-Yates shuffle moving each dealt card to
        # the tail of the stub, one card at a time in dealing order (same distribution as shuffling first).
        stub, rnd = self.stub, self._rnd
        m = 52
        for seat in order:
            i = int(rnd() * m)
            m -= 1
            c = stub[i]
            stub[i] = stub[m]
            stub[m] = c
            hands[seat].append(c)
        dealt = stub[m:]
        dealt.reverse()
        self.dealt = dealt
        del stub[m:]

    # ----------------------------------------------------------------------------------------- betting
    def _post_forced_bets(self) -> None:
        cfg, n, b = self.config, self.n, self.button
        stacks, contrib, sbet = self.stacks, self.contrib, self.sbet
        if cfg.ante:
            for i in range(n):
                a = min(cfg.ante, stacks[i])
                stacks[i] -= a
                contrib[i] += a
        if cfg.uses_blinds:
            if n == 2:
                sb, bb = b, (b + 1) % n
            else:
                sb, bb = (b + 1) % n, (b + 2) % n
            for seat, blind in ((sb, cfg.small_blind), (bb, cfg.big_blind)):
                p = min(blind, stacks[seat])
                stacks[seat] -= p
                contrib[seat] += p
                sbet[seat] = p
            self.sb_seat, self.bb_seat = sb, bb
        else:
            self.sb_seat = self.bb_seat = -1
        if self.posts:
            self._post_extra_blinds()

    # ---- extra posts (badacey_fast.game.table): begin ----
    def _post_extra_blinds(self) -> None:
        """Each seat in ``posts`` posts a full big blind, LIVE (it counts as that seat's bet before the
        draw, like the big blind: unraised, it may check), in addition to the normal blinds.  RULES.md §4:
        a player joining a running table may post a big blind instead of waiting for it."""
        cfg, posts = self.config, self.posts
        if not cfg.uses_blinds:
            raise ConfigError("posts need blinds: an ante game has no big blind to post")
        for seat in posts:
            if type(seat) is not int:
                raise TypeError(f"posts must be seat ints, not {type(seat).__name__}")
            if not 0 <= seat < self.n or seat in (self.sb_seat, self.bb_seat) or posts.count(seat) > 1:
                raise ConfigError(f"post seat {seat}: must be a seat 0..{self.n - 1}, once, "
                                  f"not a blind (small blind {self.sb_seat}, big blind {self.bb_seat})")
            p = min(cfg.big_blind, self.stacks[seat])  # a short poster posts what it has, like a short big blind
            self.stacks[seat] -= p
            self.contrib[seat] += p
            self.sbet[seat] = p
    # ---- extra posts: end ----

    def _start_round(self, street: int) -> None:
        n, stacks, folded = self.n, self.stacks, self.folded
        self.street = street
        self.phase = BETTING
        self.bet_size = self.config.small_bet if street < 2 else self.config.big_bet
        if self.nlive == n:  # nobody folded (always so before the first draw): chips decide alone
            active = [s > 0 for s in stacks]
        else:
            active = [not folded[i] and stacks[i] > 0 for i in range(n)]
        self.nactive = nactive = sum(active)
        self.pending = active
        self.can_raise = active[:]
        if street == 0 and self.bb_seat >= 0:
            self.level = self.full_level = self.config.big_blind
            self.nbets = 1
            first = self.bb_seat + 1
        else:
            self.sbet = [0] * n
            self.level = self.full_level = self.nbets = 0
            first = self.button + 1
        if nactive > 1:  # the usual round: the first active seat from ``first`` on acts (_next_actor, inlined)
            for j in _AFTER[n][first - 1]:
                if active[j]:
                    self.to_act = j
                    return
        self._next_actor(first % n)

    def _next_actor(self, start: int) -> None:
        """Find who acts next from ``start`` on; end the round when nobody needs to act."""
        pending = self.pending
        alone = self.nactive <= 1
        for j in _AFTER[self.n][start - 1]:  # start first, clockwise (index -1 is the last seat)
            if pending[j]:
                if alone and self.sbet[j] >= self.level:
                    pending[j] = False  # alone with chips and nothing to call: nothing to decide
                    continue
                self.to_act = j
                return
        self._end_round()

    def _end_round(self) -> None:
        if self.street < 3:
            self.phase = DRAWING
            n, b, folded = self.n, self.button, self.folded
            order = _DRAW_ORDERS.get((n, b))
            if order is None:  # the button's seat ring, last drawer first (the queue pops from its end)
                order = _DRAW_ORDERS[(n, b)] = [(b + k) % n for k in range(n, 0, -1)]
            self.draw_queue = [s for s in order if not folded[s]]
            self.discard_counts.append([-1] * n)
            if self.config.burn:
                self._burn()
            self.to_act = self.draw_queue.pop()
        else:
            self._finish()

    def _burn(self) -> None:
        if len(self.stub) <= 1:
            self._reshuffle_for(())
        c = self._card()
        self.burned.append(c)
        self.muck.append(c)

    def _reshuffle_for(self, held_aside: Sequence[int]) -> None:
        # ``held_aside``: the served seat's discards.  They are not in the muck yet (they join it after
        # the seat is served), which is exactly how they stay out of the new stub.
        stub = self.stub
        stub.extend(self.muck)
        self.muck = []
        self.reshuffles.append(len(self.dealt))
        self._deckmode = False  # a given deck's order ends here; the new stub is dealt in random order
        if len(stub) <= 1:
            raise IllegalActionError("the deck ran out: no cards left to complete the draw")

    # ----------------------------------------------------------------------------------------- queries
    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act (empty once the hand is over).

        Betting: fold (only when facing a bet), check or call (with the chips it adds), bet or raise
        (with the total it makes the seat's bet this round).  Drawing: one ``draw`` whose ``cards`` are
        the cards held; any subset of them may be discarded.

        >>> g = Game(stacks=[20, 20], seed=1)
        >>> [a.kind for a in g.legal_actions()]
        ['fold', 'call', 'raise']
        >>> g.apply("fold").legal_actions()
        ()
        """
        legal = self._legal
        if legal is not None:
            return legal
        phase = self.phase
        if phase == BETTING:
            i = self.to_act
            sb = self.sbet[i]
            level = self.level
            to_call = level - sb
            stack = self.stacks[i]
            call = to_call if to_call < stack else stack
            if (
                self.can_raise[i]
                and stack > to_call
                and self.nactive > 1
                and (self.nbets < self._cap or (self._hu_uncapped and self.nlive == 2))
            ):
                target = self.full_level + self.bet_size
                if target > sb + stack:
                    target = sb + stack
                key = (call, target, level > 0)
            else:
                key = (call, 0, False)
            # Legal sets repeat endlessly (fold/call 2/raise to 4 ...): share one tuple per shape.
            legal = _LEGAL_SETS.get(key)
            if legal is None:
                if len(_LEGAL_SETS) > 4096:  # bounded: odd stack sizes must not grow it forever
                    _LEGAL_SETS.clear()
                legal = _LEGAL_SETS[key] = _legal_set(*key)
            self._legal = legal
            return legal
        if phase == DRAWING:
            legal = self._legal = (_new(Action, (DRAW, None, tuple(self.hands[self.to_act]))),)
            return legal
        return ()

    def _capped(self) -> bool:
        if self.nbets < self._cap:
            return False
        return not (self._hu_uncapped and self.nlive == 2)

    # ----------------------------------------------------------------------------------------- actions
    def apply(self, action: Action | str, seat: int | None = None) -> "Game":
        """Apply one action of the seat to act and return this (updated) game.

        ``action`` is an :class:`Action` (or a bare kind like ``"call"`` when the limit fixes the
        amount).  ``seat``, when given, must be the seat to act (a server passes who acted).
        Raises :class:`IllegalActionError` naming the rule broken, with the state unchanged.

        >>> g = Game(stacks=[50, 50], seed=1)
        >>> g.apply("call").apply("check").phase     # heads-up: button calls, big blind checks
        'drawing'
        >>> g.apply("check")
        Traceback (most recent call last):
        ...
        badacey_fast.errors.IllegalActionError: seat 1 must draw now (discard 0 to 5 cards), not check
        """
        if seat is None:
            phase = self.phase
            if phase == BETTING:
                legal = self._legal
                if legal is not None and action in legal:
                    # Fast path: an action legal_actions() offered (bots return the very object).
                    a = legal[legal.index(action)]
                else:
                    a = self._validate(action, None)
            elif phase == DRAWING and type(action) is Action and action[0] == DRAW:
                # _draw, inlined: int card ids, every discard held and none twice, is served at once.
                i = self.to_act
                cards = action[2]
                if type(cards) is tuple and _INT_TYPES.issuperset(map(type, cards)):
                    hand = self.hands[i]
                    keep = [c for c in hand if c not in cards]
                    if len(keep) + len(cards) == len(hand):
                        self._serve(i, action, cards, keep)
                        return self
                self._draw_slow(i, action)
                return self
            else:
                a = self._validate(action, None)
        else:
            a = self._validate(action, seat)
        if a is None:  # a draw, already applied
            return self
        # A validated betting action ``a`` (one of the legal set's objects): mutate.  Inlined here
        # rather than in helpers because this is the hottest path of a simulated hand.
        i = self.to_act
        self._legal = None
        self.log.append((i, a))
        pending = self.pending
        pending[i] = False
        self.can_raise[i] = False
        if a is _FOLD:  # every validated fold is this one object
            self.folded[i] = True
            self.nlive -= 1
            self.nactive -= 1  # a seat facing a bet always has chips behind
            self.muck.extend(self.hands[i])
            if self.nlive == 1:
                self._finish()
                return self
        elif a is not _CHECK:
            stacks, sbet = self.stacks, self.sbet
            pay = a[1] if a[0] == CALL else a[1] - sbet[i]
            stacks[i] -= pay
            sbet[i] += pay
            self.contrib[i] += pay
            if stacks[i] == 0:
                self.nactive -= 1
            new = sbet[i]
            if new > self.level:
                n, folded = self.n, self.folded
                if (new - self.full_level) * 2 >= self.bet_size:
                    # A full raise (or an all-in of at least half a bet): reopens and counts to the cap.
                    self.nbets += 1
                    self.full_level = new
                    can_raise = self.can_raise
                    for j in _OTHERS[n][i]:  # one pass: every other seat with chips may raise again...
                        if not folded[j] and stacks[j] > 0:
                            can_raise[j] = True
                            if sbet[j] < new:  # ...and must act again if it is now short
                                pending[j] = True
                else:
                    for j in _OTHERS[n][i]:
                        if not folded[j] and stacks[j] > 0 and sbet[j] < new:
                            pending[j] = True
                self.level = new
        # _next_actor, inlined: the seats after i clockwise, i itself last (it is no longer pending).
        for j in _AFTER[self.n][i]:
            if pending[j]:
                if self.nactive <= 1 and self.sbet[j] >= self.level:  # nactive first: usually > 1
                    pending[j] = False  # alone with chips and nothing to call: nothing to decide
                    continue
                self.to_act = j
                return self
        self._end_round()
        return self

    def _validate(self, action: object, seat: int | None) -> Action | None:
        """The slow path of :meth:`apply`: check everything, apply a draw (returns None) or return the
        legal betting Action that ``action`` stands for; raise IllegalActionError naming the rule."""
        phase = self.phase
        if phase == COMPLETE:
            raise IllegalActionError("the hand is over: no action is allowed after it ended")
        if type(action) is not Action:
            if isinstance(action, str):
                action = Action(action)
            elif not isinstance(action, Action):
                raise TypeError(f"action must be an Action or an action kind, not {type(action).__name__}")
        i = self.to_act
        if seat is not None and seat != i:
            raise IllegalActionError(f"out of turn: seat {seat} acted but it is seat {i}'s turn")
        kind = action[0]
        if phase == DRAWING:
            if kind != DRAW:
                raise IllegalActionError(
                    f"seat {i} must draw now (discard 0 to {self.config.hand_size} cards), not {kind}"
                )
            self._draw(i, action)
            return None
        if kind == DRAW:
            raise IllegalActionError(f"seat {i} must bet now: this is betting round {self.street + 1}, not a draw")
        amount = action[1]
        for a in self.legal_actions():
            if a[0] == kind and (amount is None or amount == a[1]):
                return a
        self._reject(i, action)
        raise AssertionError("unreachable: _reject always raises")  # pragma: no cover

    def _draw(self, i: int, action: Action) -> None:
        cards = action[2]
        if type(cards) is tuple:
            for c in cards:
                if type(c) is not int:
                    break
            else:
                hand = self.hands[i]
                keep = [c for c in hand if c not in cards]
                if len(keep) + len(cards) == len(hand):  # every discard held, none twice
                    self._serve(i, action, cards, keep)
                    return
        self._draw_slow(i, action)

    def _draw_slow(self, i: int, action: Action) -> None:
        """Validate an unusual discard set (text, lists, bad cards) and name the rule it breaks."""
        cards = action[2]
        hand = self.hands[i]
        if cards is None:
            cards = ()
        elif type(cards) is not tuple or not all(type(c) is int for c in cards):
            cards = parse_cards(cards)
        for c in cards:
            if c not in hand:
                raise IllegalActionError(f"seat {i} cannot discard {format_cards([c]) if 0 <= c < 52 else c}: "
                                         "it does not hold that card")
        if len(set(cards)) != len(cards):
            raise IllegalActionError(f"seat {i} discards the same card twice: {cards}")
        self._serve(i, _new(Action, (DRAW, None, cards)), cards, [c for c in hand if c not in cards])

    def _serve(self, i: int, action: Action, cards: tuple[int, ...], hand: list[int]) -> None:
        """Mutate for a validated draw: deal the replacements (reshuffling if needed), then move on."""
        self._legal = None
        self.log.append((i, action))
        self.hands[i] = hand
        stub = self.stub
        k = len(cards)
        if self._deckmode and len(stub) > k:
            if k:
                new = stub[:-k - 1:-1]  # the top k cards, in order
                del stub[-k:]
                self.dealt += new
                hand += new
        elif self._script is None and len(stub) > k:
            # The common case, inlined: random deck, no reshuffle.  Each card drawn uniformly from the
            # stub is swapped to its tail; the k tail cards are then dealt in order in one slice.
            rnd = self._rnd
            m = len(stub)
            for _ in cards:
                j = int(rnd() * m)
                m -= 1
                c = stub[j]
                stub[j] = stub[m]
                stub[m] = c
            new = stub[:m - 1:-1] if k else []
            del stub[m:]
            self.dealt += new
            hand += new
        else:
            for _ in cards:
                if len(stub) <= 1:
                    self._reshuffle_for(cards)
                hand.append(self._card())
        self.muck.extend(cards)
        self.discard_counts[-1][i] = k
        if self.draw_queue:
            self.to_act = self.draw_queue.pop()
        else:
            self._start_round(self.street + 1)

    def _finish(self) -> None:
        n, contrib, stacks = self.n, self.contrib, self.stacks
        # Uncalled chips go back to their owner before anything is settled.
        ranked = sorted(contrib)
        top, second = ranked[-1], ranked[-2]
        owner = contrib.index(top)
        if top > second:
            back = top - second
            contrib[owner] -= back
            stacks[owner] += back
            self.returned[owner] = back
        folded = self.folded
        if self.nlive == 1:
            winner = folded.index(False)
            payouts = [0] * n
            payouts[winner] = won = sum(contrib)
            stacks[winner] += won
        else:
            if not _SETTLE:  # lazy, once: the showdown module sits above the engine's imports
                from ..showdown import settle

                _SETTLE.append(settle)
            hands = [None if folded[j] else tuple(self.hands[j]) for j in range(n)]
            self.settlement = _SETTLE[0](contrib, hands, button=self.button, game=self.config.settle_game,
                                     odd_chip=self.config.odd_chip)
            payouts = list(self.settlement.payouts)
            for j in range(n):
                stacks[j] += payouts[j]
        self.payouts = payouts
        self.phase = COMPLETE
        self.to_act = -1
        self.pending = [False] * n
