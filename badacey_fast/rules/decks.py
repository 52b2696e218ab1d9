"""Small decks (RULES.md §6): the R lowest ranks of a game's own order x S suits, the hand sizes each game
may be dealt, and the one rule of which deck, seats and hand size can always be dealt.

A small draw game is the full game on fewer cards, for solving: the R lowest ranks of the game's order
(A..R for the ace-low games Badacey, Badugi and A-5; 2..R+1 for the 2-7 games Badeucy and 2-7, whose ace
is their 13th rank) in S suits (4; Badugi may use 2 or 3 in tests).  Cards keep their ids (``4 * rank +
suit``, :mod:`badacey_fast.cards`) and hands keep their values on the full game's scale: a small deck
changes which hands exist, never how two hands compare.  R = 13 with 4 suits is the full game.

**When the cards can run out.**  RULES.md §4's stub never deals its last card; when a player is owed
more, the last card and the muck -- every card discarded, folded or burned, except the served player's
own discards of this draw -- become the new stub.  While a player is served, every card is therefore in
one of three places: in a live player's hand (his own discards of this draw still count as his: they join
the muck only once he is served), in the muck, or in the stub.  The cards he can be given are the stub's
but its last one, plus the muck: ``deck - 1 - (cards held by the live players)``.  The fewest is reached
when every seat is still in (a folded hand goes to the muck, where it can be dealt again), so with ``n``
seats of ``h`` cards it is ``deck - 1 - n*h``, and the most he can be owed is ``h`` (he throws his whole
hand).  A burn card changes nothing: it leaves the stub for the muck, where it can be dealt again (and
it needs one card, which a deck big enough for a draw of ``h >= 1`` cards has).  The initial deal needs
``n*h`` cards with the stub's last one left.  So a game is playable whatever anyone does exactly when

- ``deck >= n*h + 1`` (no draws), or
- ``deck >= (n + 1)*h + 1`` (one draw or more),

and with fewer cards the first player to throw his whole hand would be owed cards that do not exist.

>>> small_deck(False, 3, 2), small_deck(True, 2, 4)        # A, 2, 3 in clubs and diamonds; 2s and 3s
((0, 1, 4, 5, 8, 9), (4, 5, 6, 7, 8, 9, 10, 11))
>>> cards_needed(seats=2, hand_size=4, draws=1), smallest_ranks(seats=2, hand_size=4, draws=1, suits=4)
(13, 4)
>>> check_deck(3, 4, seats=2, hand_size=4, draws=1)
Traceback (most recent call last):
...
badacey_fast.errors.BadaceyError: a deck of 3 ranks x 4 suits (12 cards) can run out: 2 seats of 4 cards with draws need 13 cards (a player throwing his whole hand is owed 4 and only 3 can be dealt); the smallest R that works is ranks=4
"""

from __future__ import annotations

from badacey_fast.errors import BadaceyError, ShowdownError
from badacey_fast.rules.games import BADUGI, Scoring

__all__ = ["FULL_RANKS", "FULL_SUITS", "MAX_DRAWS", "rank_order", "small_deck", "hand_sizes", "cards_needed",
           "smallest_ranks", "check_deck", "dealt"]

FULL_RANKS = 13
FULL_SUITS = 4
MAX_DRAWS = 3

#: Rank indices (``card // 4``: 0 = ace ... 12 = king) from a game's lowest rank up: A..K for the ace-low
#: games, 2..K then A for the 2-7 games (indexed by ``ace_high``).
_ORDER = (tuple(range(13)), tuple(range(1, 13)) + (0,))


def rank_order(ace_high: bool) -> tuple[int, ...]:
    """The 13 rank indices (0 = ace ... 12 = king) from the game's lowest rank up: a small deck of ``R``
    ranks takes the first ``R``.

    >>> rank_order(False)[:3], rank_order(True)[:3], rank_order(True)[-1]
    ((0, 1, 2), (1, 2, 3), 0)
    """
    return _ORDER[bool(ace_high)]


def small_deck(ace_high: bool, ranks: int, suits: int) -> tuple[int, ...]:
    """The card ids (sorted) of the deck of the ``ranks`` (1..13) lowest ranks of a game's order (ace-low:
    A..; ``ace_high``: 2.., the ace 13th) in the suits ``0..suits-1`` (1..4: clubs, diamonds, hearts,
    spades).  Ranges are the caller's to check (:class:`~badacey_fast.game.GameConfig` checks them).

    >>> from badacey_fast.cards import format_cards
    >>> format_cards(small_deck(True, 13, 4)) == format_cards(range(52))
    True
    >>> format_cards(small_deck(False, 2, 3))
    'Ac Ad Ah 2c 2d 2h'
    """
    return tuple(sorted(4 * r + s for r in _ORDER[bool(ace_high)][:ranks] for s in range(suits)))


def hand_sizes(rules: Scoring) -> tuple[int, ...]:
    """The hand sizes a game may be dealt (RULES.md §6): 1 to 4 for Badugi (a badugi of 1 to 4 cards is on
    its scale; fewer than 4 for tests only), 5 for every game with a low half.

    >>> from badacey_fast.rules.games import scoring
    >>> hand_sizes(scoring("badugi")), hand_sizes(scoring("badacey"))
    ((1, 2, 3, 4), (5,))
    """
    return (1, 2, 3, 4) if rules.halves == (BADUGI,) else (5,)


def dealt(rules: Scoring, hand_size: int) -> Scoring:
    """The scoring of a game whose hands have ``hand_size`` cards (one of :func:`hand_sizes`): ``rules``
    itself at the game's own size, else the same halves and scales with that hand size (made once).
    Raises ``ShowdownError`` for a size the game is not dealt.

    >>> from badacey_fast.rules.games import scoring
    >>> dealt(scoring("badugi"), 2).hand_size, dealt(scoring("a5"), 5) is scoring("a5")
    (2, True)
    >>> dealt(scoring("badacey"), 4)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ShowdownError: badacey hands have 5 cards, not 4
    """
    if hand_size == rules.hand_size:
        return rules
    sizes = hand_sizes(rules)
    if hand_size not in sizes:
        allowed = f"{sizes[0]} to {sizes[-1]}" if len(sizes) > 1 else str(sizes[0])
        raise ShowdownError(f"{rules.game} hands have {allowed} cards, not {hand_size!r}")
    return rules.resized(hand_size)


def cards_needed(seats: int, hand_size: int, draws: int) -> int:
    """The fewest cards with which ``seats`` seats of ``hand_size`` cards and ``draws`` draws can never run
    out, whatever anyone does (the module docstring works it out; a burn card changes nothing).

    >>> cards_needed(6, 5, 3), cards_needed(2, 5, 0), cards_needed(2, 2, 1)
    (36, 11, 7)
    """
    return (seats + (1 if draws else 0)) * hand_size + 1


def smallest_ranks(seats: int, hand_size: int, draws: int, suits: int) -> int:
    """The smallest number of ranks whose deck (``ranks x suits`` cards) never runs out (may exceed 13:
    then no deck of that many suits does).

    >>> smallest_ranks(6, 5, 3, 4), smallest_ranks(2, 2, 1, 3), smallest_ranks(6, 4, 3, 2)
    (9, 3, 15)
    """
    return -(-cards_needed(seats, hand_size, draws) // suits)


def check_deck(ranks: int, suits: int, seats: int, hand_size: int, draws: int,
               error: type[BadaceyError] = BadaceyError) -> None:
    """Refuse (``error``, a ValueError subclass; :class:`~badacey_fast.game.GameConfig` passes its
    ``ConfigError``) a deck of ``ranks x suits`` cards in which some sequence of draws could leave a
    player owed cards that cannot be dealt, naming the smallest number of ranks that works.  The one
    home of the rule (RULES.md §6); the arguments are ints already checked in range.

    >>> check_deck(13, 4, seats=6, hand_size=5, draws=3)          # the full game: always enough
    >>> check_deck(13, 2, seats=6, hand_size=4, draws=3)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.BadaceyError: a deck of 13 ranks x 2 suits (26 cards) can run out: 6 seats of 4 cards with draws need 29 cards (a player throwing his whole hand is owed 4 and only 1 can be dealt); no number of ranks works with 2 suits: use more suits or fewer seats
    """
    cards = ranks * suits
    need = cards_needed(seats, hand_size, draws)
    if cards >= need:
        return
    if draws:
        why = (f"{seats} seats of {hand_size} cards with draws need {need} cards (a player throwing his whole "
               f"hand is owed {hand_size} and only {max(0, cards - 1 - seats * hand_size)} can be dealt)")
    else:
        why = f"{seats} seats of {hand_size} cards need {need} cards (the stub's last card is never dealt)"
    least = smallest_ranks(seats, hand_size, draws, suits)
    fix = (f"the smallest R that works is ranks={least}" if least <= FULL_RANKS else
           f"no number of ranks works with {suits} suits: use more suits or fewer seats")
    raise error(f"a deck of {ranks} ranks x {suits} suits ({cards} cards) can run out: {why}; {fix}")
