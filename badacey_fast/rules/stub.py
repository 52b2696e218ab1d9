"""The stub: the cards not yet dealt, the muck, and the one reshuffle procedure of RULES.md §4.

Every part of the library that deals draws (the rules engine :class:`~badacey_fast.game.Game`, the
multi-draw equity :func:`~badacey_fast.draw.equities.policy_equity`, the simulations built on them)
deals through a :class:`Stub`, so they all follow the same rule:

- the last card of the stub is never dealt;
- the player being served gets cards from the stub down to (not including) its last card; when that card
  is all that is left and the player is still owed cards, it is shuffled together with every card
  already discarded, folded or burned -- except the discards of the player being served in this draw --
  into a new stub, and the draw continues.  This can happen more than once in a hand.

A player's discards join the muck only once the player is served (:meth:`Stub.draw` takes them as its
argument), which is exactly how they stay out of the new stub of their own draw.

A stub is dealt in one of three ways:

- a **given deck** (``Stub(deck)``): from the top, in order, until the first reshuffle;
- **at random** (``Stub()``, the 52 cards): each card drawn uniformly from the stub with ``rng.random()``
  (a lazy Fisher-Yates shuffle: the same distribution as shuffling first, without its cost);
- a **script** (``Stub(script=cards)``, a replay): the given cards, in order, each taken from wherever it
  is in the stub (a card not in the stub is refused); once the script is over, at random.  A script entry
  :data:`UNKNOWN` is a card nobody saw (a real hand history): see below.

The reshuffle is the same in all three: the last card and the muck form the new stub (``cards``: the last
card, then the muck in the order it was mucked), and from then on every card is drawn uniformly from the
stub with ``rng.random()`` -- that is the shuffle, done lazily.  So a given deck and a given random
source (a seeded :class:`random.Random`, numpy's ``Generator``, or a scripted one) determine every card.

**Unknown cards.**  A replay of a real hand knows some cards (a player's own, those shown) and not the
others.  A script entry :data:`UNKNOWN` (any id 52 or more) deals one card of the stub that no script entry
names -- which one stands in is immaterial, but it is a real card of the deck, so the stub's count, and with
it the reshuffle, stay exact -- under a placeholder id: ``52 + `` the stand-in's id, or the placeholder
itself when a reshuffle brought one back.  Ids 52..103 in ``dealt``, a hand or the muck are therefore
unknown cards, distinct from each other; they are never evaluated (see ``Game``'s showdown).

Dealing methods check first and then change the stub: a refused call (:class:`IllegalActionError`) leaves
it as it was.  Card ids as in :mod:`badacey_fast.cards` (``As`` = 3, ``2s`` = 7, ...).

>>> from badacey_fast.cards import format_cards as fc, parse_cards
>>> class Latest:              # a scripted random source: always the stub's end, i.e. the latest mucked
...     def random(self):
...         return 0.999
>>> s = Stub("As 2s 3s 4s 5s 6s 7s 8s", rng=Latest())
>>> [fc(h) for h in s.deal_round(2, 2)]                # one card at a time, two seats, two cards each
['As 3s', '2s 4s']
>>> fc(s.draw(parse_cards("As 3s")))                   # seat 0 throws both: 5s 6s; 7s and 8s are left
'5s 6s'
>>> fc(s.draw(parse_cards("2s 4s")))    # 7s, then 8s is the last card: reshuffled with As 3s (not 2s 4s)
'7s 3s'
>>> fc(s.order), fc(s.muck), s.reshuffles               # the stub top first, the muck, where it reshuffled
('As 8s', '2s 4s', [7])
>>> s.draw((), 5)
Traceback (most recent call last):
...
badacey_fast.errors.IllegalActionError: the deck ran out: 5 cards are owed, 3 can be dealt (the stub's 2 but its last card, and the muck's 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from math import comb, floor
from typing import TYPE_CHECKING, Protocol, cast

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.errors import CardOwed, HandSizeError, IllegalActionError

# Card indices are drawn as floor(random() * k), not int(...): the same index (a float in [0, k) truncates
# and floors alike), but a plain function call instead of int's type call: measured ~800 fewer machine
# instructions a card, on every card every hand deals.

if TYPE_CHECKING:
    import random

__all__ = ["Stub", "CALLER", "RandomSource", "UNKNOWN", "is_unknown"]

#: A script entry for a card nobody saw (the first placeholder id: every id from 52 up is an unknown card).
UNKNOWN = 52


def is_unknown(card: int) -> bool:
    """True for a placeholder id (52 or more): a card dealt that the history never showed.

    >>> is_unknown(UNKNOWN), is_unknown(51)
    (True, False)
    """
    return card >= UNKNOWN


class RandomSource(Protocol):
    """What a stub deals with: anything whose ``random()`` returns a float in [0, 1) (a
    :class:`random.Random`, numpy's ``Generator``, :data:`CALLER`, a scripted source)."""

    def random(self) -> float:
        """A float uniformly distributed in [0, 1)."""
        ...


class _CallerDeals:
    """The random source of a stub whose every card is chosen by the caller (chance events): it never
    draws; :meth:`Stub._one` raises :class:`CardOwed` instead, with the legal cards."""

    __slots__ = ()

    def random(self) -> float:  # pragma: no cover - _one never calls it
        raise CardOwed(())

    def __reduce__(self) -> str:
        return "CALLER"

    def __repr__(self) -> str:
        return "CALLER"


#: ``Stub(script=[], rng=CALLER)``: every card past the script is a chance event the caller resolves
#: (raises :class:`CardOwed`; the caller appends its choice to the script and deals again).
CALLER = _CallerDeals()
_DECK = list(range(52))  # copied by every random stub (a slice copy: cheaper than list(range(52)))
_NO_STAND_IN = "an unknown card is owed but no card left in the stub can stand in for it"


def _new_rng() -> random.Random:
    """A new unseeded random source, imported on first use (``import badacey_fast`` stays light)."""
    import random

    return random.Random()


class Stub:
    """The cards not yet dealt (``cards``), the ``muck``, and the log of every card dealt (``dealt``, with
    the ``reshuffles`` points and the ``burned`` cards) of one hand.  See the module docstring.

    ``deck``: the cards dealt from the top, first card first (text or ids; any number of distinct cards,
    e.g. the unseen cards of an equity); ``None``: the 52 cards (or ``cards``), dealt at random.
    ``script``: cards to deal in this order from a 52-card stub (or ``cards``) (a replay), at random
    afterwards; not with ``deck``.  ``cards``: the cards of a stub dealt at random or by script, distinct
    ids 0..51 (trusted: a small game's deck, :attr:`badacey_fast.game.GameConfig.deck`); default the 52.
    ``rng``: the random source, anything whose ``random()`` returns a float in [0, 1) (a
    :class:`random.Random`, numpy's ``Generator``); default a new unseeded :class:`random.Random`, made
    when first needed (a given deck needs none until it reshuffles).  ``check=False`` skips checking ``deck`` (callers passing a trusted list of distinct ids 0..51).

    ``cards`` is the stub bottom first: in a given deck its last item is the next card dealt; ``order`` is
    the stub top first.

    >>> import random
    >>> s = Stub(rng=random.Random(1)); len(s), len(s.deal(5)), len(s)
    (52, 5, 47)
    >>> Stub("As 2s", script=[3])
    Traceback (most recent call last):
    ...
    TypeError: give a deck or a script, not both
    """

    __slots__ = ("cards", "muck", "dealt", "reshuffles", "burned", "_rng", "_ordered", "_script", "_spos",
                 "_named")

    def __init__(
        self,
        deck: str | Iterable[int | str] | None = None,
        *,
        rng: RandomSource | None = None,
        script: Sequence[int] | None = None,
        check: bool = True,
        cards: Sequence[int] | None = None,
    ) -> None:
        self.cards: list[int]
        if deck is not None:
            if script is not None or cards is not None:
                raise TypeError("give a deck or a script, not both" if cards is None else
                                "a given deck is its own cards: give no cards")
            # check=False: the caller promises distinct ids 0..51
            ids = parse_cards(deck) if check else cast("Iterable[int]", deck)
            self.cards = ids[::-1] if type(ids) is list else list(ids)[::-1]  # the top at the end
            self._ordered = True
        else:
            self.cards = _DECK[:] if cards is None else list(cards)
            self._ordered = False
            if rng is None:
                rng = _new_rng()
        self._rng: RandomSource | None = rng
        self._script: list[int] | None = None if script is None else list(script)
        self._spos = 0
        # The cards a script names: an UNKNOWN entry is dealt as a stand-in none of them (None: no UNKNOWN).
        self._named: frozenset[int] | None = None
        if self._script is not None and self._script and max(self._script) >= UNKNOWN:
            self._named = frozenset(filter(UNKNOWN.__gt__, self._script))  # the entries below UNKNOWN
        self.muck: list[int] = []
        self.dealt: list[int] = []
        self.reshuffles: list[int] = []  # index into ``dealt`` where each reshuffle happened
        self.burned: list[int] = []

    # ----------------------------------------------------------------------------------------- dealing
    def deal(self, n: int) -> list[int]:
        """``n`` cards off the stub (reshuffling the muck in if the stub runs down to its last card).

        >>> from badacey_fast.cards import format_cards as fc
        >>> fc(Stub("Ks Qs Js Ts 9s").deal(3))
        'Ks Qs Js'
        """
        return self.draw((), n)

    def deal_round(self, seats: int, per_seat: int, first: int = 0) -> list[list[int]]:
        """The initial deal: ``per_seat`` cards to each of ``seats`` seats, one card at a time clockwise
        from seat ``first`` (the seat left of the button); returns the hands by seat.

        >>> from badacey_fast.cards import format_cards as fc
        >>> [fc(h) for h in Stub("Ks Qs Js Ts 9s 8s 7s").deal_round(3, 2)]
        ['Ks Ts', 'Qs 9s', 'Js 8s']
        >>> [fc(h) for h in Stub("Ks Qs Js Ts 9s 8s 7s").deal_round(3, 2, first=1)]
        ['Js 8s', 'Ks Ts', 'Qs 9s']
        """
        m = seats * per_seat
        cards = self.cards
        if len(cards) > m and self._script is None and m:
            if self._ordered:
                top = cards[:-m - 1:-1]  # the top m cards, in order
                del cards[-m:]
            else:
                # A partial Fisher-Yates shuffle moving each dealt card to the tail of the stub, in dealing
                # order (the hot path of every simulated hand; the same distribution as shuffling first).
                assert self._rng is not None  # not ordered: made by __init__ or _reshuffle
                rnd = self._rng.random
                k = len(cards)
                end = k - m
                while k > end:
                    i = floor(rnd() * k)
                    k -= 1
                    c = cards[i]
                    cards[i] = cards[k]
                    cards[k] = c
                top = cards[:end - 1:-1]  # end >= 1: the last card stays
                del cards[end:]
            if self.dealt:
                self.dealt += top
            else:
                self.dealt = top
        else:
            top = self.deal(m)
        if first:  # seat s is place (s - first) % seats: gets cards (s - first) % seats + k * seats
            return [top[(s - first) % seats::seats] for s in range(seats)]
        return [top[s::seats] for s in range(seats)]

    def burn(self) -> int:
        """Deal one card face down to the muck (the optional burn card before a draw's replacements).

        >>> from badacey_fast.cards import format_cards as fc
        >>> s = Stub("Ks Qs Js"); fc([s.burn()]), fc(s.muck), fc(s.burned), fc(s.order)
        ('Ks', 'Ks', 'Ks', 'Qs Js')
        """
        (c,) = self.draw((), 1)
        self.burned.append(c)
        self.muck.append(c)
        return c

    def add_to_muck(self, cards: Iterable[int]) -> None:
        """Put cards into the muck (a folded hand): they come back at the next reshuffle."""
        self.muck.extend(cards)

    def draw(self, discards: Sequence[int], n: int | None = None) -> list[int]:
        """Serve one player's draw: ``n`` replacement cards (default one per discard), by RULES.md §4, then
        the ``discards`` join the muck.  Refused (nothing changed) when the cards owed cannot exist, or
        when a script names a card not in the stub.

        >>> from badacey_fast.cards import format_cards as fc, parse_cards
        >>> import random
        >>> s = Stub("Ks Qs Js Ts", rng=random.Random(3))
        >>> fc(s.draw(parse_cards("2d 3d"))), fc(s.muck)     # 2d 3d: cards held, not in the stub
        ('Ks Qs', '2d 3d')
        >>> fc(s.draw(parse_cards("Ks"))), s.reshuffles      # Js: only Ts, the last card, is left
        ('Js', [])
        >>> fc(s.draw(parse_cards("Qs"))), s.reshuffles, fc(s.muck)  # a card of Ts + the muck 2d 3d Ks
        ('Ts', [3], 'Qs')
        """
        if n is None:
            k = len(discards)
        elif type(n) is not int or n < 0:
            raise HandSizeError(f"the number of cards owed must be an int 0 or more, not {n!r}")
        else:
            k = n
        cards = self.cards
        if len(cards) > k and self._script is None:  # the common case: no reshuffle, no script
            new: list[int]
            if not k:
                new = []
            elif self._ordered:
                new = cards[:-k - 1:-1]  # the top k cards, in order
                del cards[-k:]
            else:
                # Each card drawn uniformly from the stub is swapped to its tail; the k tail cards are then
                # dealt in order in one slice.
                assert self._rng is not None  # not ordered: made by __init__ or _reshuffle
                rnd = self._rng.random
                m = len(cards)
                end = m - k
                while m > end:
                    j = floor(rnd() * m)
                    m -= 1
                    c = cards[j]
                    cards[j] = cards[m]
                    cards[m] = c
                new = cards[:end - 1:-1]
                del cards[end:]
            self.dealt += new
        else:
            script = self._script
            if script is not None and len(cards) > k and not self._ordered and self._spos + k <= len(script):
                # A replay's scripted deal with no reshuffle inside it: _one's steps, inlined (the hot path of
                # every replayed hand: each card of the deal and of the draws).  They refuse a card exactly
                # where _check's dry run of the same steps would, so they run on the stub itself, without the
                # dry run, and a refusal puts the stub back as it was: nothing changed.
                cards_before, dealt_before, spos_before = cards[:], len(self.dealt), self._spos
                try:
                    new = self._scripted(k)
                except IllegalActionError:
                    cards[:] = cards_before
                    del self.dealt[dealt_before:]
                    self._spos = spos_before
                    raise
            else:
                self._check(k)
                new = []
                for _ in range(k):
                    if len(cards) <= 1:
                        self._reshuffle()
                        cards = self.cards
                    new.append(self._one())
        if discards:
            self.muck += discards
        return new

    def draw_sets(self, k: int) -> list[tuple[tuple[int, ...], float]]:
        """Every set of cards a player owed ``k`` cards can be served now, with its exact probability
        (summing to 1), by the one procedure above: each set in an order the stub deals it (cards of the
        stub first, then those of the muck, each part sorted), so that a script of that order deals it.

        Without a reshuffle (``k`` below the stub's size) the set is a uniform ``k``-subset of the stub.
        With one -- the stub's ``s`` cards but its last are dealt, then the last card and the muck's ``m``
        form the new stub -- the last card is any of the ``s`` alike, and the ``r = k - s + 1`` cards after
        the reshuffle a uniform subset of the ``m + 1``: a set holding the whole stub has probability
        ``1 / C(m + 1, r)``; a set missing one card of the stub (which was the last card, not dealt
        again) ``1 / (s * C(m + 1, r))``.  (One reshuffle at most: a deal is refused unless ``k <= s - 1
        + m``.)  Refused like :meth:`draw` when ``k`` cards cannot be dealt.  OpenSpiel's games deal a
        draw's replacements as one chance outcome with this (:mod:`badacey_fast.envs.openspiel`).

        >>> from badacey_fast.cards import format_cards as fc
        >>> [(fc(c), p) for c, p in Stub("As 2s 3s").draw_sets(2)]
        [('As 2s', 0.3333333333333333), ('As 3s', 0.3333333333333333), ('2s 3s', 0.3333333333333333)]
        >>> s = Stub("Ks Qs"); s.add_to_muck([0, 1])           # stub Qs Ks, muck Ac Ad: a reshuffle
        >>> sorted((fc(c), round(p, 4)) for c, p in s.draw_sets(2))
        [('Ks Ac', 0.1667), ('Ks Ad', 0.1667), ('Qs Ac', 0.1667), ('Qs Ad', 0.1667), ('Qs Ks', 0.3333)]
        """
        if type(k) is not int or k < 0:
            raise HandSizeError(f"the number of cards owed must be an int 0 or more, not {k!r}")
        stub, muck = sorted(self.cards), sorted(self.muck)
        s, m = len(stub), len(muck)
        if k > s - 1 + m:
            raise IllegalActionError(f"the deck ran out: {k} cards are owed, {max(s - 1, 0) + m} can be dealt")
        if k <= s - 1:
            p = 1.0 / comb(s, k)
            return [(c, p) for c in combinations(stub, k)]
        r = k - s + 1  # cards dealt after the reshuffle, from the last card and the muck
        whole = 1.0 / comb(m + 1, r)  # the last card was dealt again: a set with every stub card
        missing = whole / s  # the last card was c and not dealt again: a set without c
        out = [(tuple(stub) + b, whole) for b in combinations(muck, r - 1)]
        for i in range(s):
            rest = tuple(stub[:i] + stub[i + 1:])
            out += [(rest + b, missing) for b in combinations(muck, r)]
        return out

    # ----------------------------------------------------------------------------------------- the rule
    def _check(self, k: int) -> None:
        """Refuse, before anything changes, a deal of ``k`` cards that cannot be made."""
        stub = self.cards
        muck: Sequence[int] = self.muck
        if k > len(stub) - 1 + len(muck):
            raise IllegalActionError(
                f"the deck ran out: {k} cards are owed, {len(stub) - 1 + len(muck)} can be dealt (the stub's "
                f"{len(stub)} but its last card, and the muck's {len(muck)})")
        script, pos = self._script, self._spos
        if script is None or pos >= len(script):
            return
        if len(stub) > k:
            # No reshuffle inside this deal (the common case): each named card must be in the stub, and
            # the unknown cards need as many stand-ins.
            left = set(stub)
            named, unknown = self._named, 0
            for c in script[pos:pos + k]:
                if c >= UNKNOWN:
                    unknown += 1
                elif c in left:
                    left.discard(c)
                elif named is not None and c + UNKNOWN in left:
                    left.discard(c + UNKNOWN)
                else:
                    break  # a case for the dry run below (a placeholder standing for it), or a refusal
            else:
                # Stand-ins: placeholders and unnamed cards, i.e. all but the named cards (all below 52).
                if not unknown or (named is not None and len(left) - len(left.intersection(named)) >= unknown):
                    return
                # else too few unnamed cards: the dry run below picks named ones (see _stand_in)
        cards, mucked = stub[:], list(muck)  # a dry run on copies: the very steps _one takes
        for _ in range(k):
            if len(cards) <= 1:
                cards += mucked
                mucked = []
            if pos >= len(script):  # the script is over: the rest is dealt at random
                return
            i, _c = self._pick(cards, pos)
            cards[i] = cards[-1]
            cards.pop()
            pos += 1

    def _reshuffle(self) -> None:
        """The stub's last card and the muck form the new stub (the served player's discards of this
        draw are not in the muck yet), dealt at random from now on."""
        self.cards += self.muck
        self.muck = []
        self.reshuffles.append(len(self.dealt))
        if self._ordered:  # a given deck's order ends here
            self._ordered = False
            if self._rng is None:
                self._rng = _new_rng()

    def _pick(self, cards: list[int], pos: int) -> tuple[int, int]:
        """Script entry ``pos`` dealt from ``cards`` (a stub): (its index there, the id dealt).  A named card
        is taken where it is, or as its placeholder if the stub once dealt it as an unknown card, or, when it
        was never dealt face up and is not in the muck, as any placeholder in the stub (it was dealt unseen);
        an UNKNOWN entry takes a stand-in (:meth:`_stand_in`) and deals it as a placeholder."""
        script = self._script
        assert script is not None  # only scripted stubs pick
        c = script[pos]
        if c >= UNKNOWN:
            i = self._stand_in(cards, pos)
            d = cards[i]
            return i, d if d >= UNKNOWN else d + UNKNOWN
        try:
            return cards.index(c), c
        except ValueError:
            pass
        if self._named is not None:
            if c + UNKNOWN in cards:
                return cards.index(c + UNKNOWN), c
            # Not dealt face up, nor in the muck: the card was dealt unseen (a placeholder, whichever:
            # their identities are arbitrary), so any placeholder in the stub may be it.
            if c not in self.muck and c not in self.dealt:
                for i in range(len(cards) - 1, -1, -1):
                    if cards[i] >= UNKNOWN:
                        return i, c
        raise IllegalActionError(f"scripted card {format_cards([c])} is not in the stub")

    def _stand_in(self, cards: list[int], pos: int) -> int:
        """Where in ``cards`` (a stub) the card an UNKNOWN script entry ``pos`` deals is: the last card that
        is a placeholder already or that no script entry names (so every named card stays for its turn);
        when every card left is named (a reshuffle is coming: the named cards will come back through the
        muck), the one the script names furthest ahead."""
        named = self._named
        assert named is not None  # set by __init__ whenever the script holds an UNKNOWN
        for i in range(len(cards) - 1, -1, -1):
            c = cards[i]
            if c >= UNKNOWN or c not in named:
                return i
        script = self._script
        assert script is not None  # _one and _check deal only from a scripted stub
        if not cards:
            raise IllegalActionError(_NO_STAND_IN)
        ahead = script[pos + 1:]
        return max(range(len(cards)), key=lambda i: ahead.index(cards[i]) if cards[i] in ahead else len(ahead))

    def _scripted(self, k: int) -> list[int]:
        """The next ``k`` script entries dealt as :meth:`_one` deals them, one after another (the caller
        made sure the stub keeps more than its last card throughout and the script has the ``k`` entries):
        a named card is taken where it is, an UNKNOWN entry takes the last card when that is a placeholder
        or unnamed; anything else goes through :meth:`_pick`."""
        cards, script, named, dealt = self.cards, self._script, self._named, self.dealt
        assert script is not None  # the caller checked
        new: list[int] = []
        spos = self._spos
        for pos in range(spos, spos + k):
            c = script[pos]
            if c < UNKNOWN:
                try:
                    i = cards.index(c)
                except ValueError:
                    i, c = self._pick(cards, pos)
            else:
                last = cards[-1]
                if last >= UNKNOWN:  # _stand_in's first look: a placeholder already...
                    i, c = len(cards) - 1, last
                elif named is not None and last not in named:  # ...or a card no entry names
                    i, c = len(cards) - 1, last + UNKNOWN
                else:
                    i, c = self._pick(cards, pos)
            cards[i] = cards[-1]
            cards.pop()
            dealt.append(c)  # as it goes: _pick reads what was dealt
            new.append(c)
        self._spos = spos + k  # (a refusal above leaves the caller to put the stub back)
        return new

    def _one(self) -> int:
        """One card off the stub (already checked: the stub has more than its last card)."""
        cards = self.cards
        script = self._script
        if self._ordered:
            c = cards.pop()
        else:
            if script is not None and self._spos < len(script):
                i, c = self._pick(cards, self._spos)
                self._spos += 1
            else:
                rng = self._rng
                if rng is CALLER:  # a chance event: the caller chooses among the stub's cards
                    raise CardOwed(tuple(sorted(cards)))
                assert rng is not None  # not ordered: made by __init__ or _reshuffle
                i = floor(rng.random() * len(cards))
                c = cards[i]
            cards[i] = cards[-1]
            cards.pop()
        self.dealt.append(c)
        return c

    # ----------------------------------------------------------------------------------------- state
    @property
    def has_unknown(self) -> bool:
        """True when the script holds an :data:`UNKNOWN` entry: hands may hold placeholder ids (52 or more)."""
        return self._named is not None

    @property
    def order(self) -> list[int]:
        """The stub top first (a given deck deals it in this order; a random stub in any order)."""
        return self.cards[::-1]

    def copy(self, rng: RandomSource | None = None) -> Stub:
        """An independent copy (lists copied); ``rng``: the copy's random source (default: the same one).

        >>> s = Stub("Ks Qs Js"); t = s.copy(); _ = t.deal(1); len(s), len(t)
        (3, 2)
        """
        new = Stub.__new__(Stub)
        # Slot by slot (a getattr/setattr loop costs twice as much): searches copy a stub at every node.
        new.cards = self.cards[:]
        new.muck = self.muck[:]
        new.dealt = self.dealt[:]
        new.reshuffles = self.reshuffles[:]
        new.burned = self.burned[:]
        new._ordered, new._spos, new._named = self._ordered, self._spos, self._named
        if self._rng is CALLER:  # the caller's choices extend the script: each copy its own
            assert self._script is not None  # a CALLER stub always has one
            new._script, new._rng = self._script[:], CALLER
        else:
            new._script = self._script  # never changed: shared
            new._rng = self._rng if rng is None else rng
        return new

    def state(self) -> tuple[object, ...]:
        """Every piece of state as a comparable tuple (not the random source's)."""
        return (tuple(self.cards), tuple(self.muck), tuple(self.dealt), tuple(self.reshuffles),
                tuple(self.burned), self._ordered, self._spos)

    def __len__(self) -> int:
        return len(self.cards)

    def __repr__(self) -> str:
        how = "a given deck" if self._ordered else "a script" if self._script is not None else "at random"
        return (f"Stub({len(self.cards)} cards dealt from {how}, muck {len(self.muck)}, "
                f"{len(self.reshuffles)} reshuffles)")
