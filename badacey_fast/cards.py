"""Cards: the 0..51 encoding, parsing from text or ints, and formatting back.

A card is an ``int`` in ``0..51``: ``card = 4 * rank + suit`` where ``rank`` is 0=A, 1=2, ..., 9=T,
10=J, 11=Q, 12=K and ``suit`` is 0=c, 1=d, 2=h, 3=s.  The encoding is part of the public API: the
bulk functions take numpy arrays of these ids.

>>> parse_cards("As 2h Td")
(3, 6, 37)
>>> format_cards((3, 6, 37))
'As 2h Td'
>>> parse_cards("As As")
Traceback (most recent call last):
...
badacey_fast.errors.DuplicateCardError: card 'As' is given twice
"""

from __future__ import annotations

import operator

from badacey_fast.errors import DuplicateCardError, HandSizeError, InvalidCardError

__all__ = [
    "Cards",
    "RANK_CHARS",
    "SUIT_CHARS",
    "SUIT_SYMBOLS",
    "DECK",
    "card_id",
    "card_rank",
    "card_suit",
    "parse_card",
    "parse_cards",
    "format_card",
    "format_cards",
"card_ids_of_text"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (docs/import.md); mypy reads it alike
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Union

    #: Anything :func:`parse_cards` accepts: text like ``"As 2h 3d 4c 5s"``, or a sequence of card ids or
    #: card texts.  The one alias every module's signatures use.
    Cards = Union[str, Iterable[Union[str, int]]]
else:  # at run time the alias is only ever an annotation: its text (typing is not imported for it)
    Cards = "str | Iterable[str | int]"

#: Rank characters indexed by rank (0 = ace ... 12 = king).
RANK_CHARS = "A23456789TJQK"
#: Suit characters indexed by suit (0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades).
SUIT_CHARS = "cdhs"
#: Unicode suit symbols in the same order.
SUIT_SYMBOLS = "♣♦♥♠"
#: All 52 card ids in order.
DECK = tuple(range(52))

_RANK_OF = {ch: i for i, ch in enumerate(RANK_CHARS)}
_RANK_OF.update({ch.lower(): i for i, ch in enumerate(RANK_CHARS)})
_RANK_OF["10"] = 9
_SUIT_OF = {ch: i for i, ch in enumerate(SUIT_CHARS)}
_SUIT_OF.update({ch.upper(): i for i, ch in enumerate(SUIT_CHARS)})
_SUIT_OF.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS)})
# Text-presentation and outline variants that keyboards and web pages produce.
_SUIT_OF.update({"\u2667": 0, "\u2662": 1, "\u2661": 2, "\u2664": 3})


# Precomputed text of every card: formatting is on hot paths (CLI, histories).
_ASCII = tuple(RANK_CHARS[c >> 2] + SUIT_CHARS[c & 3] for c in DECK)
_SYMBOL = tuple(RANK_CHARS[c >> 2] + SUIT_SYMBOLS[c & 3] for c in DECK)
_ID_OF_TEXT = {}
for _c in DECK:
    for _r in [k for k, v in _RANK_OF.items() if v == _c >> 2]:
        for _s in [k for k, v in _SUIT_OF.items() if v == _c & 3]:
            _ID_OF_TEXT[_r + _s] = _c
del _c, _r, _s


def card_id(rank: int, suit: int) -> int:
    """Return the card id ``4 * rank + suit`` (rank 0=A..12=K, suit 0=c, 1=d, 2=h, 3=s).

    >>> card_id(0, 3)  # the ace of spades
    3
    >>> card_id(13, 0)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: rank 13 is outside 0..12
    """
    rank = _as_int(rank, "rank")
    suit = _as_int(suit, "suit")
    if not 0 <= rank <= 12:
        raise InvalidCardError(f"rank {rank} is outside 0..12")
    if not 0 <= suit <= 3:
        raise InvalidCardError(f"suit {suit} is outside 0..3")
    return 4 * rank + suit


def card_rank(card: int) -> int:
    """Return the rank of a card id, 0 (ace) to 12 (king).

    >>> card_rank(parse_card("Kd"))
    12
    >>> card_rank(52)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: card id 52 is outside 0..51
    """
    return _check_id(card) >> 2


def card_suit(card: int) -> int:
    """Return the suit of a card id, 0=c, 1=d, 2=h, 3=s.

    >>> card_suit(parse_card("Kd"))
    1
    >>> card_suit(-1)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: card id -1 is outside 0..51
    """
    return _check_id(card) & 3


def parse_card(card: str | int) -> int:
    """Parse one card, text (``"As"``, ``"10h"``, ``"a♠"``) or an id in 0..51, to its id.

    >>> parse_card("Td"), parse_card("10d"), parse_card(37)
    (37, 37, 37)
    >>> parse_card("1x")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: unknown card '1x'
    """
    if isinstance(card, str):
        text = card.strip()
        cid = _ID_OF_TEXT.get(text)
        if cid is None:
            raise InvalidCardError(f"unknown card {card!r}")
        return cid
    return _check_id(card)


def parse_cards(cards: str | Iterable[str | int], count: int | Iterable[int] | None = None) -> tuple[int, ...]:
    """Parse cards from text or a sequence of texts/ints into a tuple of distinct card ids (0..51).

    Text is two characters per card, rank then suit (``10`` for ``T`` and the suit symbols ♣♦♥♠ are
    accepted, case does not matter), separated by spaces or commas or not separated at all.
    ``count`` (an int or a collection of allowed ints) checks the number of cards.

    >>> parse_cards("As2h3d4c5s")
    (3, 6, 9, 12, 19)
    >>> parse_cards(["A♠", "10h", 0])
    (3, 38, 0)
    >>> parse_cards("As 2h", count=5)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.HandSizeError: expected 5 cards, got 2: 'As 2h'
    >>> parse_cards("As 2h 3x")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: unknown card '3x' in 'As 2h 3x'
    """
    if isinstance(cards, str):
        ids = _parse_text(cards)
    elif isinstance(cards, (bytes, bytearray)):
        raise TypeError(f"cards must be text or a sequence of cards, not {type(cards).__name__}")
    else:
        try:
            items = list(cards)
        except TypeError:
            raise TypeError(
                f"cards must be text or a sequence of cards, not {type(cards).__name__}"
            ) from None
        ids = tuple(parse_card(c) if isinstance(c, str) else _check_id(c) for c in items)
    if len(set(ids)) != len(ids):
        seen: set[int] = set()
        for c in ids:
            if c in seen:
                raise DuplicateCardError(f"card {_ASCII[c]!r} is given twice")
            seen.add(c)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(ids) not in allowed:
            want = str(allowed[0]) if len(allowed) == 1 else f"{min(allowed)} to {max(allowed)}"
            raise HandSizeError(f"expected {want} cards, got {len(ids)}: {format_cards(ids)!r}")
    return ids


def format_card(card: int, symbols: bool = False) -> str:
    """Format one card id as text, ``"As"`` (or ``"A♠"`` with ``symbols=True``).

    >>> format_card(3), format_card(3, symbols=True)
    ('As', 'A♠')
    >>> format_card(60)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: card id 60 is outside 0..51
    """
    return (_SYMBOL if symbols else _ASCII)[_check_id(card)]


def format_cards(cards: Iterable[int | str] | str, symbols: bool = False) -> str:
    """Format cards (ids or anything :func:`parse_cards` accepts) as canonical text ``"As 2h 3d"``.

    >>> format_cards([3, 6, 9])
    'As 2h 3d'
    >>> format_cards("ac10D", symbols=True)
    'A♣ T♦'
    >>> format_cards([52])
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: card id 52 is outside 0..51
    """
    table = _SYMBOL if symbols else _ASCII
    if isinstance(cards, str):
        return " ".join(table[c] for c in _parse_text(cards))
    try:
        items = list(cards)
    except TypeError:
        raise TypeError(f"cards must be a sequence of card ids, not {type(cards).__name__}") from None
    return " ".join(table[parse_card(c) if isinstance(c, str) else _check_id(c)] for c in items)


def card_ids_of_text(text: str) -> tuple[int, ...]:
    """The card ids of a card text in order, repeats kept: no count or duplicate check (for callers that
    word a repeated card in their own terms, as the engine does for a discard named twice).

    >>> card_ids_of_text("7h 7h 2c")
    (26, 26, 4)
    >>> card_ids_of_text("7x")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.InvalidCardError: unknown card '7x'
    """
    return _parse_text(text)


def _parse_text(text: str) -> tuple[int, ...]:
    # Chunks between blanks and commas; each chunk is cards written one after another ("As2h3d"), a card
    # being its rank ("10" or one character) then its suit: every such pair is a key of _ID_OF_TEXT.
    # (A scan of slices rather than a regular expression: as fast, and `re` stays out of the import.)
    ids: list[int] = []
    for chunk in text.replace(",", " ").split():
        pos, end = 0, len(chunk)
        while pos < end:
            width = 3 if chunk.startswith("10", pos) else 2
            card = _ID_OF_TEXT.get(chunk[pos : pos + width])
            if card is None:
                bad = chunk[pos : pos + width]
                where = "" if bad == text.strip() else f" in {text!r}"
                raise InvalidCardError(f"unknown card {bad!r}{where}")
            ids.append(card)
            pos += width
    return tuple(ids)


def _as_int(value: object, what: str) -> int:
    # numpy's bool (np.bool_, named "bool" from numpy 2) is refused by name too: older numpy releases
    # still let operator.index take it, with only a DeprecationWarning.
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        raise TypeError(f"{what} must be an int, not bool")
    # Anything with __index__ (hasattr also tells the type checker so); operator.index may still refuse it.
    if hasattr(value, "__index__"):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{what} must be an int, not {type(value).__name__}") from None


def _check_id(card: object) -> int:
    cid = _as_int(card, "card id")
    if not 0 <= cid <= 51:
        raise InvalidCardError(f"card id {cid} is outside 0..51")
    return cid
