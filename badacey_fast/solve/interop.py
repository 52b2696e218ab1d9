"""The exact solver and the rest of the world: strategies from OpenSpiel policies and from bots, the
solver's strategies as OpenSpiel policies, and a suit-canonical information-state tensor.

Every information state of a small game is rebuilt as a real hand -- the rules engine in chance mode, or
one of our OpenSpiel games -- holding the seat's cards through its draws and the public actions, the
other seat holding any cards that fit (a strategy sees only its own cards): the policy or the bot is
asked there, once per information state (no walk of the whole tree).

>>> from badacey_fast.game import GameConfig
>>> from badacey_fast.game.bots import RandomBot
>>> from badacey_fast.solve import exploitability
>>> small = GameConfig(game="badugi", ranks=3, suits=3, hand_size=1, draws=1, cap=1)
>>> round(exploitability(small, RandomBot()).mbb, 6) == round(exploitability(small, "uniform").mbb, 6)
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from badacey_fast.errors import SolveError
from badacey_fast.game.actions import DRAW, Action
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.strategy import InfoState, Strategy
from badacey_fast.solve.tree import BET, DRAW as DRAW_NODE, OPENSPIEL_ACTION

__all__ = ["strategy_of", "to_tabular_policy", "canonical_information_state_tensor", "suit_renaming", "replay"]

Event = tuple[Any, ...]


def _config(spec: GameSpec) -> Any:
    from badacey_fast.game import GameConfig
    from badacey_fast.rules.odd_chips import OddChip

    return GameConfig(game=spec.game, ranks=spec.ranks, suits=spec.suits, hand_size=spec.hand_size,
                      draws=spec.draws, cap=spec.cap, small_blind=spec.small_blind, big_blind=spec.big_blind,
                      small_bet=spec.small_bet, big_bet=spec.big_bet, burn=spec.burn,
                      odd_chip=OddChip(spec.odd_chip))


def replay(spec: GameSpec, history: tuple[str, ...], seat: int, hands: tuple[tuple[int, ...], ...]) -> list[Event]:
    """The events of a hand reaching an information state of ``seat`` (0: the button): ``("deal", hand of
    seat 1, hand of seat 0)``, ``("bet", token)``, ``("draw", seat, thrown, received)`` -- card ids, the
    seat's own ``hands`` (the deal, then after each draw), the other seat's cards any that fit: never one
    the seat holds or held (so that they fit its later draws too)."""
    deck = list(spec.deck)
    mine = set(c for h in hands for c in h)
    taken = set(mine)

    def fresh(k: int) -> tuple[int, ...]:
        got = tuple(c for c in deck if c not in taken)[:k]
        if len(got) < k:
            raise SolveError("no cards left to rebuild the hand")  # a deck the spec refuses
        taken.update(got)
        return got

    other = [fresh(spec.hand_size)]
    own = [tuple(sorted(hands[0]))]
    events: list[Event] = [("deal", own[0] if seat == 1 else other[0], own[0] if seat == 0 else other[0])]
    draws = {0: 0, 1: 0}
    drawer = 1  # the big blind draws first
    for tok in history:
        if not tok.startswith("d"):
            events.append(("bet", tok))
            continue
        k = int(tok[1:])
        if drawer == seat:
            before, after = set(own[-1]), set(hands[draws[seat] + 1])
            thrown = tuple(sorted(before - after))
            received = tuple(sorted(after - before))
            if len(thrown) != k:
                raise SolveError(f"the hands {hands} do not match the draw of {k} at {' '.join(history)}")
            own.append(tuple(sorted(after)))
        else:
            hand = other[-1]
            thrown = hand[:k]
            received = fresh(k)
            other.append(tuple(sorted(hand[k:] + received)))
        draws[drawer] += 1
        events.append(("draw", drawer, thrown, received))
        drawer = 1 - drawer
    return events


def _engine_at(spec: GameSpec, events: list[Event]) -> Any:
    from badacey_fast.game import Game

    stack = spec.stack if spec.stack is not None else spec.max_contribution
    g = Game(_config(spec), [stack, stack], button=0, chance=True)
    for ev in events:
        if ev[0] == "deal":
            h1, h0 = ev[1], ev[2]
            order = [c for pair in zip(h1, h0) for c in pair]  # one at a time, left of the button first
            g = g.chance_child(*order)
        elif ev[0] == "bet":
            g = g.copy().apply({"f": "fold", "k": "check", "c": "call", "b": "bet", "r": "raise"}[ev[1]])
        else:
            _, s, thrown, received = ev
            g = g.copy().apply(Action(DRAW, None, thrown))
            if received:
                g = g.chance_child(*received)
    return g


def _openspiel_at(game: Any, events: list[Event]) -> Any:
    state = game.new_initial_state()
    sets = game.get_parameters().get("deal", "card") == "set"
    for ev in events:
        if ev[0] == "deal":
            h1, h0 = ev[1], ev[2]
            if sets:
                state.apply_action(game.set_action(tuple(h1)))
                state.apply_action(game.set_action(tuple(h0)))
            else:
                for pair in zip(h1, h0):
                    for c in pair:
                        state.apply_action(c)
        elif ev[0] == "bet":
            state.apply_action(OPENSPIEL_ACTION[{"f": "fold", "k": "check", "c": "call", "b": "bet",
                                                 "r": "raise"}[ev[1]]])
        else:
            _, s, thrown, received = ev
            hand = sorted(state.game.hands[s])
            state.apply_action(3 + sum(1 << j for j, c in enumerate(hand) if c in thrown))
            if received:
                if sets:
                    state.apply_action(game.set_action(tuple(received)))
                else:
                    for c in received:
                        state.apply_action(c)
    return state


def _states(strat: Strategy) -> Iterator[tuple[int, int, InfoState, list[Event]]]:
    tree = strat.tree
    for node, idx, info in _infos(strat):
        yield node, idx, info, replay(strat.game, info.history, info.seat, info.hands)


def _infos(strat: Strategy) -> Iterator[tuple[int, int, InfoState]]:
    tree = strat.tree
    deck = strat.game.deck
    for i, nd in enumerate(tree.nodes):
        if nd.kind not in (BET, DRAW_NODE):
            continue
        layer = tree.layer(i, nd.player)
        for idx in range(tree.layer_sizes[layer]):
            hands = tuple(tuple(deck[p] for p in h) for h in tree.hands_of(layer, idx))
            yield i, idx, InfoState(nd.player, nd.history, hands, nd.actions)


def strategy_of(game: object, spec: GameSpec, strategy: Any) -> Strategy:
    """A :class:`Strategy` of ``spec`` from an OpenSpiel policy (``action_probabilities(state)``) of one
    of our OpenSpiel games (``game``, or the policy's own ``game``), or from a bot with action
    probabilities (``probabilities(view) -> {Action: p}``, as :class:`~badacey_fast.solve.bot.StrategyBot`;
    the built-in random and rule-of-thumb bots are read through their C twins' rules below)."""
    out = Strategy.uniform(spec)
    policy = hasattr(strategy, "action_probabilities")
    if policy:
        own = getattr(strategy, "game", None)
        pyspiel_game = game if hasattr(game, "new_initial_state") else own
        if (pyspiel_game is None or GameSpec.of(pyspiel_game) != spec
                or (own is not None and GameSpec.of(own) != spec)):
            raise SolveError("an OpenSpiel policy is read on its game: give one of our OpenSpiel games of "
                             f"{spec.label()} and a policy of that game")
    for node, idx, info, events in _states(out):
        row = out.rows(node)[idx]
        nd = out.tree.nodes[node]
        hand = sorted(info.hands[-1])
        if policy:
            state = _openspiel_at(pyspiel_game, events)
            probs = strategy.action_probabilities(state, state.current_player())
            row[:] = 0.0
            for action, p in probs.items():
                if nd.kind == BET:
                    names = [n for n in nd.actions if OPENSPIEL_ACTION[n] == action]
                    if not names:
                        raise SolveError(f"the policy gives action {action} at {info}, which has {nd.actions}")
                    row[nd.actions.index(names[0])] += p
                else:
                    row[int(action) - 3] += p
        else:
            g = _engine_at(spec, events)
            view = g.view(g.to_act)
            probs = _bot_probabilities(strategy, view)
            row[:] = 0.0
            for action, p in probs.items():
                if nd.kind == BET:
                    row[nd.actions.index(action.kind)] += p
                else:
                    row[sum(1 << j for j, c in enumerate(hand) if c in (action.cards or ()))] += p
    out.check()
    return out


def _bot_probabilities(bot: Any, view: Any) -> dict[Action, float]:
    got = getattr(bot, "probabilities", None)
    if got is not None:
        return dict(got(view))
    from badacey_fast.game.bots import RandomBot, RuleBot

    acts = view.legal_actions()
    if isinstance(bot, RandomBot):
        if acts[0].kind == DRAW:
            hand = tuple(view.hand)
            n = len(hand)
            return {Action(DRAW, None, tuple(c for j, c in enumerate(hand) if m >> j & 1)): 1.0 / (1 << n)
                    for m in range(1 << n)}
        return {a: 1.0 / len(acts) for a in acts}
    if isinstance(bot, RuleBot):
        probe = RuleBot()
        probe._rnd = lambda: 0.05  # its only random choice: a 10 % call instead of a fold
        low = probe(view)
        probe._rnd = lambda: 0.5
        high = probe(view)
        return {low: 1.0} if low == high else {low: 0.1, high: 0.9}
    raise SolveError(f"the bot {type(bot).__name__} gives no action probabilities (a method probabilities(view) "
                     "-> {Action: p}): an exact exploitability needs them")


def to_tabular_policy(strategy: Strategy, game: Any) -> Any:
    """``strategy`` as an OpenSpiel ``TabularPolicy`` of ``game`` (one of our OpenSpiel games of the same
    small game), every information state's row set from the strategy: what OpenSpiel's own algorithms
    take (``exploitability.exploitability(game, to_tabular_policy(s, game))``)."""
    from open_spiel.python import policy as os_policy

    if GameSpec.of(game) != strategy.game:
        raise SolveError(f"the strategy is of {strategy.game.label()}, the OpenSpiel game of {GameSpec.of(game).label()}")
    table = os_policy.TabularPolicy(game)
    for node, idx, info, events in _states(strategy):
        state = _openspiel_at(game, events)
        player = state.current_player()
        row = table.policy_for_key(state.information_state_string(player))
        probs = strategy.rows(node)[idx]
        row[:] = 0.0
        nd = strategy.tree.nodes[node]
        if nd.kind == BET:
            for name, p in zip(nd.actions, probs):
                row[OPENSPIEL_ACTION[name]] = p
        else:
            row[3:3 + probs.size] = probs
    return table


def suit_renaming(hands: tuple[tuple[int, ...], ...]) -> tuple[int, int, int, int]:
    """The renaming (old suit -> new suit) that puts an information state's hands in canonical form
    (:func:`badacey_fast.solve.iso.canonical_sequence`).

    >>> suit_renaming(((3, 7),))          # two spades: spades become clubs
    (1, 2, 3, 0)
    """
    n = len(hands)
    key = [0, 0, 0, 0]
    for st, row in enumerate(hands):
        for c in row:
            key[c & 3] |= 1 << (13 * (n - 1 - st) + (c >> 2))
    perm = sorted(range(4), key=lambda s: (-key[s], s))
    to = [0, 0, 0, 0]
    for new, old in enumerate(perm):
        to[old] = new
    return to[0], to[1], to[2], to[3]


def canonical_information_state_tensor(state: Any, player: int) -> np.ndarray[Any, Any]:
    """The information-state tensor of one of our OpenSpiel games with the player's suits renamed to
    canonical form: suit-isomorphic information states give equal tensors (a learner's table or network
    then shares what it learns across suits).  Only the cards change: the own-cards block, the sorted card
    slots and the hands through the draws; the actions keep their meaning on the real cards (a draw's mask
    is over the real hand sorted by id: map it through :func:`suit_renaming` to compare).

    >>> import pyspiel, badacey_fast.envs.openspiel
    >>> game = pyspiel.load_game("python_badugi", {"ranks": 3, "suits": 3, "hand_size": 1, "draws": 1, "cap": 1})
    >>> a = game.new_initial_state().child(0).child(1)       # Ac to seat 1, Ad to seat 0
    >>> b = game.new_initial_state().child(1).child(2)       # Ad to seat 1, Ah to seat 0
    >>> np.array_equal(canonical_information_state_tensor(a, 0), canonical_information_state_tensor(b, 0))
    True
    """
    from badacey_fast.envs.encoding import OBS_SIZE

    t = np.asarray(state.information_state_tensor(player), np.float32).copy()
    view = state.game.view(player)
    to = suit_renaming(view.hands_seen)
    perm = np.array([(c & ~3) | to[c & 3] for c in range(52)])  # old card id -> new card id
    own = np.zeros(52, np.float32)
    own[perm[np.flatnonzero(t[:52])]] = 1.0
    t[:52] = own
    cards = np.flatnonzero(own)  # sorted by (new) id: the 5 slots of 13 ranks + 4 suits
    slots = np.zeros(85, np.float32)
    for k, c in enumerate(cards[:5]):
        slots[17 * k + (c >> 2)] = 1.0
        slots[17 * k + 13 + (c & 3)] = 1.0
    t[52:137] = slots
    hands = t[OBS_SIZE:OBS_SIZE + 208].reshape(4, 52)
    for k in range(4):
        row = hands[k].copy()
        hands[k] = 0.0
        hands[k, perm[np.flatnonzero(row)]] = 1.0
    out: np.ndarray[Any, Any] = t
    return out
