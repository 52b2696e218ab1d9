"""The hand state machine: one fixed-limit triple-draw hand from the blinds to the last chip (RULES.md §4).

Design choices (documented, tested):

- **In-place apply with atomic validation.**  :meth:`Game.apply` validates the whole action first and
  only then mutates; it returns the same :class:`Game` (so ``g = g.apply(a)`` reads as "the new
  state").  A rejected action raises :class:`~badacey_fast.errors.IllegalActionError` naming the rule
  broken and leaves the state unchanged.  :meth:`Game.copy` gives an independent state when needed.
- Plain lists and ints with ``__slots__``: a hand is cheap enough for millions of simulated hands.
- **Dealing.**  The cards are one :class:`~badacey_fast.rules.stub.Stub`, the object every part of the
  library deals draws through.  A seeded deck is dealt lazily: each card is drawn uniformly from the stub
  (a lazy Fisher-Yates shuffle, the same distribution as shuffling up front, without its cost).  A given
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
- **Showdown** through :func:`badacey_fast.pots.settle` after uncalled chips went back to their owner.

The rules are split by concept into mixins: :mod:`~badacey_fast.game.betting` (rounds, paying the
pot), :mod:`~badacey_fast.game.dealing` (stub, deal, draws, reshuffles) and
:mod:`~badacey_fast.game.queries` (read-only side); the rule of each action, with the wording of its
refusal, is stated once in :mod:`~badacey_fast.game.verify` (apply's checked path).  The hottest methods
stay here, on the class itself: :meth:`Game.apply` and :meth:`Game.legal_actions`, which keep a fast
form of those rules (held equal to them by ``tests/test_game_verify.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import ConfigError, IllegalActionError, InvalidCardError
from badacey_fast.game.actions import DRAW, Action
from badacey_fast.game.betting import (BETTING, CHANCE, CHECK_ACTION, COMPLETE, DRAWING, FOLD_ACTION, SEATS_AFTER,
                                       GameBetting, legal_set, put_in)
from badacey_fast.errors import CardOwed, ConfigError
from badacey_fast.game.config import GameConfig, resolve_config
from badacey_fast.game.dealing import GameDealing
from badacey_fast.game.queries import GameQueries
from badacey_fast.game.verify import raise_callable, verify_action
from badacey_fast.rules.stub import CALLER, Stub

__all__ = ["Game", "BETTING", "DRAWING", "COMPLETE", "CHANCE", "check_stacks"]

_Random = random.Random
_new_game = object.__new__

#: How a hand's cards are dealt (the ``_dealing`` slot, set once by ``__init__``'s choice of stub): at
#: random from its random source, from a given deck, a scripted replay, or chance mode.  next_hand follows
#: the first two only (it reads this, rather than the stub, which a reshuffle turns from ordered to random).
DEAL_RANDOM, DEAL_DECK, DEAL_SCRIPT, DEAL_CHANCE = "random", "deck", "script", "chance"

#: Why next_hand refuses a hand, by its ``_dealing``: a random hand when given a deck, a deck hand when
#: given none, the other two always (a hand with extra posts always too: _NO_NEXT_HAND_POSTS).
_NO_NEXT_HAND = {
    DEAL_RANDOM: "it was dealt at random, so the next one is too: give no deck",
    DEAL_DECK: "it was dealt from a deck, so the next one is too: give its deck",
    DEAL_SCRIPT: "it is a scripted replay, which has no next hand",
    DEAL_CHANCE: "it is a chance-mode hand, which has no next hand",
}
_NO_NEXT_HAND_POSTS = "it has extra posts, which have no next hand"

_new = tuple.__new__  # an Action from its fields, unchecked: the engine builds only legal ones
#: (to call, bet target, raising) -> the legal betting actions, interned (bounded in legal_actions)
_LEGAL_SETS: dict[tuple[int, int, bool], tuple[Action, ...]] = {}
_INT_TYPES = {int}


def check_stacks(stacks: list[int]) -> None:
    """Refuse a seat's chips that are not a positive int (``TypeError`` / ``ConfigError`` naming the first
    such stack): :class:`Game`'s check, shared with the environments, which check their stacks before
    they build a hand (badacey_fast/envs/gymnasium.py).

    >>> check_stacks([100, 100])
    >>> check_stacks([100, 0])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: every seat needs chips to be dealt in: stack 0
    """
    if set(map(type, stacks)) != _INT_TYPES or min(stacks) <= 0:  # one pass in C; worded below
        for s in stacks:
            if type(s) is not int:
                raise TypeError(f"stacks must be ints, not {type(s).__name__}")
            if s <= 0:
                raise ConfigError(f"every seat needs chips to be dealt in: stack {s}")


def _stub_cards(config: GameConfig) -> tuple[int, ...] | None:
    """The cards a random, scripted or chance-mode stub holds: None for the 52 (the full game's stub,
    made as it always was), else the small game's deck."""
    return None if config.ranks == 13 and config.suits == 4 else config.deck


def _given_deck(config: GameConfig, deck: str | Iterable[int | str]) -> tuple[int, ...]:
    """A given deck order checked: every card of the game's deck once (the 52, or a small game's)."""
    cards = config.deck
    ids = parse_cards(deck, count=len(cards))
    if len(cards) != 52 and sorted(ids) != list(cards):
        bad = next(c for c in ids if c not in cards)
        raise InvalidCardError(f"card {format_cards([bad])} is not in this game's deck of {len(cards)} cards "
                               f"({config.ranks} ranks x {config.suits} suits)")
    return ids


class Game(GameBetting, GameDealing, GameQueries):
    """One hand of fixed-limit triple draw (Badacey by default) for 2 to 6 seats.

    ``stacks``: chips of each seat (seat 0 first, clockwise); ``button``: the dealer seat;
    ``seed`` (int) or ``rng`` (a :class:`random.Random`) shuffle the deck, or ``deck`` gives the full
    52-card order dealt from the top (a small game's: its :attr:`GameConfig.deck` in any order).  Blinds (or antes) are posted and the cards dealt on creation.
    ``posts``: seats that post an extra, live big blind (players joining a running table; see table.py).
    ``config``: a :class:`GameConfig` or a preset name; ``game=`` names the game as every other entry
    point does (``Game(game="badeucy")``), and if both are given they must agree (a
    :class:`~badacey_fast.errors.ConfigError` otherwise).

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
    badacey_fast.errors.ConfigError: a hand needs 2 to 6 seats, got 1
    """

    __slots__ = (
        "config", "n", "button", "starting_stacks", "stacks", "contrib", "sbet", "folded", "hands",
        "_stub", "_rnd", "_rng",  # the cards: a rules.Stub (stub, muck, dealt, ... are read through it)
        "_guarded",  # a scripted replay with burn cards, or chance mode: apply() on a copy-and-restore basis
        "_chance",  # chance mode, while a card is owed: (the state before the dealing step, the step, outcomes)
        "street", "phase", "to_act", "level", "full_level", "nbets", "bet_size", "pending", "can_raise",
        "nlive", "nactive", "draw_queue", "discard_counts", "log", "payouts", "returned", "seed",
        "sb_seat", "bb_seat", "settlement", "_legal", "_cap", "_hu_uncapped",
        "_tmin",  # a lower bound of what any seat with chips can put in this round (see _start_round)
        "posts",  # extra big-blind posts (joiners of a running table, see _post_forced_bets)
        "_dealing",  # DEAL_RANDOM, DEAL_DECK, DEAL_SCRIPT or DEAL_CHANCE: which stub __init__ chose
    )

    def __init__(
        self,
        config: GameConfig | str | None = None,
        stacks: Sequence[int] = (100,) * 6,
        button: int = 0,
        seed: int | None = None,
        deck: str | Iterable[int | str] | None = None,
        rng: random.Random | None = None,
        posts: Sequence[int] = (),
        _script: Sequence[int] | None = None,
        _shuffled: list[int] | None = None,
        chance: bool = False,
        game: str | None = None,
    ) -> None:
        if type(config) is not GameConfig or game is not None:  # (a simulation passes a GameConfig alone)
            config = resolve_config(config, game)
        stacks = list(stacks)
        n = len(stacks)
        if not 2 <= n <= 6:
            raise ConfigError(f"a hand needs 2 to 6 seats, got {n}")
        check_stacks(stacks)
        if type(button) is not int:
            raise TypeError(f"button must be an int, not {type(button).__name__}")
        if not 0 <= button < n:
            raise ConfigError(f"button {button} is not a seat 0..{n - 1}")
        cards = _stub_cards(config)
        if cards is not None:
            config.check_seats(n)  # a small deck may be too small for this many seats (RULES.md §6)
        if chance:
            # Chance mode has no random source: the caller chooses every card (a new Random would cost
            # an OS entropy read, and copying its state every clone of a search).
            if seed is not None or rng is not None:
                raise TypeError("chance mode deals the caller's cards: give no seed or rng")
        elif rng is None:
            rng = random.Random(seed)
        elif seed is not None:
            raise TypeError("give seed or rng, not both")
        if chance:
            # Chance mode: every card is a chance event the caller resolves (chance_outcomes /
            # apply_chance); the stub deals the chosen cards as a script (dealing.py).
            if deck is not None or _script is not None or _shuffled is not None:
                raise TypeError("chance mode deals the caller's cards: give no deck")
            stub, dealing = Stub(rng=CALLER, script=[], cards=cards), DEAL_CHANCE
        elif _script is not None:
            stub, dealing = Stub(rng=rng, script=_script, cards=cards), DEAL_SCRIPT
        elif _shuffled is not None:
            # A deck is dealt from the top until a reshuffle.  ``_shuffled``: a trusted permutation
            # (simulations); a ``deck`` is checked here.
            stub, dealing = Stub(_shuffled, rng=rng, check=False), DEAL_DECK
        elif deck is not None:
            stub, dealing = Stub(_given_deck(config, deck), rng=rng, check=False), DEAL_DECK
        else:
            stub, dealing = Stub(rng=rng, cards=cards), DEAL_RANDOM
        # A burn card is dealt inside the betting action that ends a round, after that action took
        # effect: in a scripted replay (a recorded hand, maybe tampered with) a refused burn would leave
        # the action half done, so such a game applies each action on a copy-and-restore basis.
        self._begin(config, stacks, button, seed, tuple(posts), rng, stub, dealing,
                    (_script is not None and config.burn) or bool(chance))
        if chance:
            self.hands = [[] for _ in range(n)]
            # The betting fields _start_round sets, before the first round: no bet, nobody to act or
            # raise (true of a hand not dealt yet; _start_round sets them once the deal is complete).
            self.level = self.full_level = self.nbets = self.nactive = self._tmin = 0
            self.pending = [False] * n
            self.can_raise = [False] * n
            self.phase, self.to_act = CHANCE, -1
            self._deal_step(None)
        else:
            self._deal_hands()
            self._start_round(0)

    def _begin(self, config: GameConfig, stacks: list[int], button: int, seed: int | None, posts: tuple[int, ...],
               rng: random.Random | None, stub: Stub, dealing: str, guarded: bool) -> None:
        """Every slot of a hand about to be dealt, from checked arguments, and the forced bets posted
        (shared by ``__init__`` and :meth:`next_hand`; the deal is the caller's)."""
        n = len(stacks)
        self.config = config
        self.n = n
        self.button = button
        self.starting_stacks = tuple(stacks)
        self.stacks = stacks
        self.contrib = [0] * n
        self.sbet = [0] * n
        self.folded = [False] * n
        self.seed = seed
        self.posts = posts
        self._rng = rng
        self._rnd = None if rng is None else rng.random
        self._guarded = guarded
        self._chance = None
        self._stub = stub
        self._dealing = dealing
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

    def next_hand(self, button: int, deck: str | Iterable[int | str] | None = None,
                  _shuffled: list[int] | None = None) -> "Game":
        """A new hand at this table: the same config and starting stacks as this hand, the button at
        ``button``, dealt as this hand was (what ``Game(g.config, g.starting_stacks, button=button,
        rng=g's Random, deck=deck)`` deals, without checking again what this hand checked; a learning
        environment deals millions of hands).

        A hand dealt at random is followed by one dealt at random from the same source; a hand dealt
        from a given deck by one dealt from ``deck`` (the full 52-card order, or a small game's deck, checked
        like ``Game``'s; ``_shuffled``: a trusted permutation of the game's deck, unchecked, as ``Game``'s), reshuffles
        drawn from the same source.  A replay, chance mode or a hand with extra posts has no next hand
        (``ValueError``).

        >>> g = Game(stacks=[30, 30], seed=5)
        >>> h = g.next_hand(1)
        >>> h.button, h.stacks, h.log, h.config is g.config
        (1, [28, 29], [], True)
        >>> d = Game(stacks=[30, 30], deck=range(52), seed=5).next_hand(1, deck=range(51, -1, -1))
        >>> d.hands
        [[51, 49, 47, 45, 43], [50, 48, 46, 44, 42]]
        """
        if type(button) is not int:
            raise TypeError(f"button must be an int, not {type(button).__name__}")
        if not 0 <= button < self.n:
            raise ConfigError(f"button {button} is not a seat 0..{self.n - 1}")
        dealing = self._dealing
        given = deck is not None or _shuffled is not None
        if self.posts or dealing != (DEAL_DECK if given else DEAL_RANDOM):
            reason = _NO_NEXT_HAND_POSTS if self.posts else _NO_NEXT_HAND[dealing]
            raise ConfigError(f"next_hand deals as this hand was dealt, and {reason}")
        rng = self._rng
        assert rng is not None  # dealt at random or from a deck: __init__ made a random source
        if _shuffled is not None:
            stub = Stub(_shuffled, rng=rng, check=False)
        elif deck is not None:
            stub = Stub(_given_deck(self.config, deck), rng=rng, check=False)
        else:
            stub = Stub(rng=rng, cards=_stub_cards(self.config))
        new = _new_game(type(self))
        new._begin(self.config, list(self.starting_stacks), button, None, (), rng, stub, dealing, False)
        new._deal_hands()
        new._start_round(0)
        return new

    # ------------------------------------------------------------------------------------------- copies
    def copy(self) -> "Game":
        """An independent copy of this state: its lists and the stub copied, the random source duplicated
        (a seeded copy deals the very cards the original would).  ``copy.copy``, ``copy.deepcopy`` and
        pickle give the same copy (search and OpenSpiel clone states).

        >>> g = Game(stacks=[20, 20], seed=3); h = g.copy(); _ = h.apply("call")
        >>> g.to_act != h.to_act, g.log, h.snapshot() != g.snapshot()
        (True, [], True)
        """
        # Written out slot by slot: searches clone states by the million (a loop over __slots__ with
        # getattr/setattr cost several times as much).  tests/test_game_chance.py checks that every slot
        # is set and that no list is shared.
        cls = type(self)
        new = cls.__new__(cls)
        new.config = self.config
        new.n = self.n
        new.button = self.button
        new.starting_stacks = self.starting_stacks
        new.seed = self.seed
        new.posts = self.posts
        new._guarded = self._guarded
        new._dealing = self._dealing
        new._chance = self._chance
        new.street = self.street
        new.phase = self.phase
        new.to_act = self.to_act
        new.level = self.level
        new.full_level = self.full_level
        new.nbets = self.nbets
        new.bet_size = self.bet_size
        new.nlive = self.nlive
        new.nactive = self.nactive
        new.sb_seat = self.sb_seat
        new.bb_seat = self.bb_seat
        new.settlement = self.settlement
        new._legal = self._legal  # interned actions (fold and check are recognised by identity): shared
        new._cap = self._cap
        new._hu_uncapped = self._hu_uncapped
        new._tmin = self._tmin
        rng = old = self._rng
        if old is not None:
            rng = _Random.__new__(_Random)  # not Random(): that seeds from the OS first
            rng.setstate(old.getstate())
            new._rnd = rng.random
        else:
            new._rnd = None
        new._rng = rng
        if self._chance is not None:
            # A card is owed (chance mode): this state is frozen -- it shows the state before the dealing
            # step, and apply_chance only rebinds whole slots (dealing.py) -- so the copy shares its lists.
            new.stacks = self.stacks
            new.contrib = self.contrib
            new.sbet = self.sbet
            new.folded = self.folded
            new.hands = self.hands
            new.pending = self.pending
            new.can_raise = self.can_raise
            new.draw_queue = self.draw_queue
            new.discard_counts = self.discard_counts
            new.log = self.log
            new.payouts = self.payouts
            new.returned = self.returned
            new._stub = self._stub
            return new
        new.stacks = self.stacks[:]
        new.contrib = self.contrib[:]
        new.sbet = self.sbet[:]
        new.folded = self.folded[:]
        new.hands = [h[:] for h in self.hands]
        new.pending = self.pending[:]
        new.can_raise = self.can_raise[:]
        new.draw_queue = self.draw_queue[:]
        new.discard_counts = [d[:] for d in self.discard_counts]
        new.log = self.log[:]
        payouts = self.payouts
        new.payouts = None if payouts is None else payouts[:]
        new.returned = self.returned[:]
        new._stub = self._stub.copy(rng)
        return new

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
                p = blind if blind < stacks[seat] else stacks[seat]  # min(), without the builtin's call
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
                # No raise that nobody can call (RULES.md §4): some other live seat must be able to put
                # in more than the current bet.  Below _tmin every seat with chips can, so the scan of
                # the seats only runs once the betting reaches a short stack.
                and (level < self._tmin or raise_callable(self, i))
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
                legal = _LEGAL_SETS[key] = legal_set(*key)
            self._legal = legal
            return legal
        if phase == DRAWING:
            legal = self._legal = (_new(Action, (DRAW, None, tuple(self.hands[self.to_act]))),)
            return legal
        return ()

    # ----------------------------------------------------------------------------------------- actions
    def _validate(self, action: object, seat: int | None) -> Action | None:
        """The checked path of :meth:`apply`: :func:`~badacey_fast.game.verify.verify_action` checks the
        action (raising IllegalActionError naming the rule, nothing changed); a draw is applied here
        (returns None), a betting action is returned for apply to carry out."""
        a, keep = verify_action(self, action, seat)
        if keep is None:
            return a
        cards = a[2]
        assert cards is not None  # verify_action returns a draw with its discards
        self._serve(self.to_act, a, cards, keep)
        return None

    def _apply_restoring(self, action: Action | str, seat: int | None) -> "Game":
        """apply() that leaves the state exactly as it was when it refuses (a scripted burn card); in
        chance mode, an action that needs a card leaves the state as it was in the ``chance`` phase."""
        saved = self.copy()
        self._guarded = False
        try:
            return self.apply(action, seat)
        except IllegalActionError:
            self._restore(saved)
            raise
        except CardOwed as owed:
            self._restore(saved)
            self._owe(saved, (action, seat), owed.outcomes)
            return self
        finally:
            self._guarded = True

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
        if self._guarded:
            return self._apply_restoring(action, seat)
        if seat is None:
            phase = self.phase
            if phase == BETTING:
                legal = self._legal
                if legal is not None and action in legal:
                    # Fast path: an action legal_actions() offered (bots return the very object).
                    a: Action | None = legal[legal.index(action)]
                else:
                    a = self._validate(action, None)
            elif phase == DRAWING and type(action) is Action and action[0] == DRAW and action[1] is None:
                # verify_draw's fast form, inlined: int card ids, every discard held and none twice, is
                # served at once; anything else is checked (and any refusal worded) by verify_draw.
                i = self.to_act
                cards = action[2]
                if type(cards) is tuple and _INT_TYPES.issuperset(map(type, cards)):
                    hand = self.hands[i]
                    keep = [c for c in hand if c not in cards] if cards else hand[:]  # (standing pat: all)
                    if len(keep) + len(cards) == len(hand):
                        self._serve(i, action, cards, keep)
                        return self
                a = self._validate(action, None)
            else:
                a = self._validate(action, None)
        else:
            a = self._validate(action, seat)
        if a is None:  # a draw, already applied
            return self
        # A validated betting action ``a`` (one of the legal set's objects): mutate.  The fold and the next
        # seat inlined here, the hottest path of a simulated hand; the chips of a call, bet or raise by
        # betting.put_in, the rule's one home (the replay's ledger calls it too; the call costs a simulated
        # hand about 1 % of its instructions: put_in's docstring).
        i = self.to_act
        self._legal = None
        self.log.append((i, a))
        pending = self.pending
        pending[i] = False
        self.can_raise[i] = False
        if a is FOLD_ACTION:  # every validated fold is this one object
            self.folded[i] = True
            self.nlive -= 1
            self.nactive -= 1  # a seat facing a bet always has chips behind
            self._stub.muck += self.hands[i]  # the folded hand into the muck (no property call)
            if self.nlive == 1:
                self._finish()
                return self
        elif a is not CHECK_ACTION:
            amount = a[1]
            assert amount is not None  # a validated call, bet or raise always carries its amount
            put_in(self, i, a[0], amount)  # the chips' rule, shared with the replay's ledger
        # _next_actor, inlined: the seats after i clockwise, i itself last (it is no longer pending).
        for j in SEATS_AFTER[self.n][i]:
            if pending[j]:
                if self.nactive <= 1 and self.sbet[j] >= self.level:  # nactive first: usually > 1
                    pending[j] = False  # alone with chips and nothing to call: nothing to decide
                    continue
                self.to_act = j
                return self
        self._end_round()
        return self
