"""Named small draw games (RULES.md §6) and the exact size of their game trees.

A small game is a :class:`~badacey_fast.game.GameConfig` with fewer ranks (and, for Badugi in tests,
fewer suits or cards), fewer draws and a small cap, heads-up, with stacks deep enough that the cap, not
the chips, ends the betting.  :data:`SMALL_GAMES` names a few:

=================  ========================================================================================
name               game
=================  ========================================================================================
``mini-badugi``    Badugi, 5 ranks (A-5) x 4 suits, 4-card hands, one draw, cap 2 -- the solver's yardstick
``mini-badacey``   Badacey, 6 ranks (A-6) x 4 suits, 5-card hands, one draw, cap 2
``mini-27``        2-7, 7 ranks (2-8) x 4 suits, 5-card hands, one draw, cap 2
``tiny-badugi``    Badugi, 3 ranks x 3 suits, 2-card hands, one draw, cap 1, all-in before the draw
``micro-badugi``   Badugi, 3 ranks x 3 suits, 1-card hands, one draw, cap 1, one bet after the draw
``nano-badugi``    Badugi, 3 ranks x 3 suits, 1-card hands, one draw, cap 1, all-in before the draw
=================  ========================================================================================

The three smallest are for OpenSpiel's own Python algorithms (best response, CFR) through
:mod:`badacey_fast.envs.openspiel` (``SmallGame.openspiel_params``): ``nano-badugi`` (5,554 histories)
and ``micro-badugi`` (38,458) take them seconds, ``tiny-badugi`` (272,953) minutes.  Their sizes, and the
others', are counted exactly by :func:`tree_size` (``python -m badacey_fast.game.small`` prints the table
of docs/solving.md).

>>> g = SMALL_GAMES["mini-badugi"]
>>> g.config.ranks, g.config.hand_size, g.config.draws, g.config.cap, g.seats, len(g.config.deck)
(5, 4, 1, 2, 2, 20)
>>> tree_size(SMALL_GAMES["micro-badugi"]).deals
72
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, prod
from typing import Any

from badacey_fast.game.actions import DRAW, Action
from badacey_fast.errors import ConfigError
from badacey_fast.game.config import GameConfig
from badacey_fast.game.state import Game

__all__ = ["SmallGame", "SMALL_GAMES", "TreeSize", "tree_size", "size_table"]


@dataclass(frozen=True)
class SmallGame:
    """A named small game: its rules, the seats, each seat's chips (deep enough for the cap unless the
    description says otherwise), in words."""

    name: str
    config: GameConfig
    seats: int
    stack: int
    description: str

    def game(self, **kwargs: Any) -> Game:
        """A hand of this game (``Game(config, stacks, **kwargs)``: ``seed=``, ``chance=True``...).

        >>> len(SMALL_GAMES["mini-badugi"].game(seed=1).hands[0])
        4
        """
        return Game(self.config, [self.stack] * self.seats, **kwargs)

    def openspiel_params(self, deal: str = "set") -> dict[str, Any]:
        """The parameters of this game for ``pyspiel.load_game(f"python_{config.game}", params)``
        (:mod:`badacey_fast.envs.openspiel`); ``deal="set"``: each hand and each draw one chance outcome.

        >>> SMALL_GAMES["tiny-badugi"].openspiel_params()["hand_size"]
        2
        """
        c = self.config
        return {"players": self.seats, "stack": self.stack, "cap": c.cap or 0, "ranks": c.ranks, "suits": c.suits,
                "hand_size": c.hand_size, "draws": c.draws, "deal": deal}


def _small(name: str, description: str, seats: int = 2, stack: int = 40, **config: Any) -> SmallGame:
    return SmallGame(name, GameConfig(**config), seats, stack, description)


#: The named small games, by name.
SMALL_GAMES: dict[str, SmallGame] = {g.name: g for g in (
    _small("mini-badugi", "Badugi, 5 ranks (A-5) x 4 suits, 4-card hands, one draw, cap 2",
           game="badugi", ranks=5, draws=1, cap=2),
    _small("mini-badacey", "Badacey, 6 ranks (A-6) x 4 suits, 5-card hands, one draw, cap 2",
           game="badacey", ranks=6, draws=1, cap=2),
    _small("mini-27", "2-7, 7 ranks (2-8) x 4 suits, 5-card hands, one draw, cap 2",
           game="27", ranks=7, draws=1, cap=2),
    _small("tiny-badugi", "Badugi, 3 ranks x 3 suits, 2-card hands, one draw, cap 1; stacks of one big blind "
           "(all-in before the draw)", stack=2, game="badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=1),
    _small("micro-badugi", "Badugi, 3 ranks x 3 suits, 1-card hands, one draw, cap 1; stacks of two big "
           "blinds (one bet after the draw)", stack=4, game="badugi", ranks=3, suits=3, hand_size=1, draws=1,
           cap=1),
    _small("nano-badugi", "Badugi, 3 ranks x 3 suits, 1-card hands, one draw, cap 1; stacks of one big "
           "blind (all-in before the draw)", stack=2, game="badugi", ranks=3, suits=3, hand_size=1, draws=1,
           cap=1),
)}


@dataclass(frozen=True)
class TreeSize:
    """The size of a small game's tree, each hand and each draw's replacements dealt as one chance
    outcome (OpenSpiel's ``deal="set"``).

    - ``deals``: the initial deals (a hand for each seat, in seat order);
    - ``histories``: every node of the tree -- chance, decision and terminal;
    - ``terminal``: the hands played out (terminal histories);
    - ``information_sets``: the decision points of all players: what a player to act knows (his cards
      through every draw, his discards, the betting and the others' draw counts), summed over players;
    - ``public_states``: the decision and terminal nodes of the public tree (betting and draw counts).
    """

    deals: int
    histories: int
    terminal: int
    information_sets: int
    public_states: int


def _reshuffle_free(config: GameConfig, seats: int) -> bool:
    """True when no hand of these rules can reach a reshuffle: every card the hand could deal (the deal,
    every seat throwing its whole hand at every draw, the burns) fits in the deck with its last card left."""
    h = config.hand_size
    return seats * h + config.draws * (seats * h + config.burn) <= len(config.deck) - 1


def tree_size(game: SmallGame | GameConfig, seats: int = 2, stack: int | None = None, button: int = 0) -> TreeSize:
    """The exact size of a small game's tree (:class:`TreeSize`), counted over its public tree: the
    betting and the draw counts do not depend on the cards, so the engine plays each public line once on
    a fixed deck (a draw of ``k`` cards standing for its ``C(hand, k)`` discard sets), and each line
    carries how many histories and information states it stands for:

    - histories: the deals (``C(D, h) C(D - h, h) ...``), then at each draw of ``k`` cards ``C(h, k)``
      discard sets times ``C(s, k)`` replacement sets from a stub of ``s`` cards, ``s`` outcomes of a
      burn card;
    - a player's information states: ``C(D, h)`` hands, then at each of his draws ``C(h, k)`` discard
      sets times ``C(u, k)`` replacement sets, ``u`` the cards he has not seen.

    Only for games in which no hand can reach a reshuffle (where the cards a player may get depend on
    what he threw before): others are refused (``ConfigError``) -- count those by walking the OpenSpiel
    game.  ``game``: a :class:`SmallGame` (its seats and stacks), or a config with ``seats`` and
    ``stack`` (default 100 big blinds).

    >>> t = tree_size(SMALL_GAMES["tiny-badugi"])
    >>> t.deals, t.histories, t.terminal, t.information_sets
    (756, 272953, 205632, 180)
    >>> tree_size(GameConfig(game="badugi", ranks=4, draws=2))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: a hand of these rules can reach a reshuffle (16 cards, 2 seats of 4 cards, 2 draws): its tree is not counted in closed form
    """
    if isinstance(game, SmallGame):
        config, seats, stack = game.config, game.seats, game.stack
    else:
        config = game
    if stack is None:
        stack = 100 * (config.big_blind or config.small_bet)
    if not _reshuffle_free(config, seats):
        raise ConfigError(f"a hand of these rules can reach a reshuffle ({len(config.deck)} cards, {seats} seats of "
                          f"{config.hand_size} cards, {config.draws} draws): its tree is not counted in closed form")
    deck = len(config.deck)
    h = config.hand_size
    start = Game(config, [stack] * seats, button=button, deck=config.deck)
    layers = [prod(comb(deck - j * h, h) for j in range(i)) for i in range(seats + 1)]
    deals = layers[-1]
    totals = [sum(layers[:-1]), 0, 0, 0]  # histories, terminal, information sets, public states
    hands = comb(deck, h)

    def walk(g: Game, hist: int, private: list[int], unseen: list[int]) -> None:
        totals[3] += 1
        totals[0] += hist
        if g.phase == "complete":
            totals[1] += hist
            return
        p = g.to_act
        totals[2] += private[p]
        if g.phase == "drawing":
            hand = g.hands[p]
            s = len(g.stub)
            for k in range(len(hand) + 1):
                child = g.copy().apply(Action(DRAW, cards=tuple(hand[:k])))
                masks = comb(len(hand), k)
                if k:
                    totals[0] += hist * masks  # the chance node of the replacements
                mine = private[:]
                mine[p] *= masks * comb(unseen[p], k)
                left = unseen[:]
                left[p] -= k
                walk(child, hist * masks * comb(s, k), mine, left)
            return
        for a in g.legal_actions():
            burned = len(g.burned)
            child = g.copy().apply(a)
            if len(child.burned) > burned:  # the round ended and a card was burned: a chance node
                totals[0] += hist
                walk(child, hist * (len(child.stub) + 1), private, unseen)
            else:
                walk(child, hist, private, unseen)

    walk(start, deals, [hands] * seats, [deck - h] * seats)
    return TreeSize(deals, totals[0], totals[1], totals[2], totals[3])


def size_table(games: dict[str, SmallGame] | None = None) -> str:
    """The named small games and their sizes as a Markdown table (docs/solving.md's, made by this).

    >>> print(size_table({"micro-badugi": SMALL_GAMES["micro-badugi"]}).splitlines()[2][-36:])
    2 x 4 | 72 | 693 | 38,458 | 20,592 |
    """
    rows = ["| name | game | seats x chips | deals | information sets | histories | terminal histories |",
            "|---|---|---|--:|--:|--:|--:|"]
    for name, g in (SMALL_GAMES if games is None else games).items():
        t = tree_size(g)
        rows.append(f"| {name} | {g.description} | {g.seats} x {g.stack} | {t.deals:,} | {t.information_sets:,} "
                    f"| {t.histories:,} | {t.terminal:,} |")
    return "\n".join(rows)


if __name__ == "__main__":  # pragma: no cover - the table of docs/solving.md
    print(size_table())
