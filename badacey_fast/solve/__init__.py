"""Solving heads-up draw games: suit isomorphism, exact best response and exploitability, CFR, and a
best-response lower bound for full-size games (docs/solving.md).

- :func:`exploitability`, :func:`best_response` -- exact, for small games (RULES.md §6): every deal,
  draw and action summed, card removal exact; mini Badugi on the compact path (:class:`CompactStrategy`);
- :func:`cfr` -- CFR+ (and DCFR, vanilla CFR) over the whole game, its average strategy and exploitability
  curve (mini Badugi over the compact layout: a :class:`CompactStrategy`); :class:`Strategy` and
  :class:`CompactStrategy` save and load it, :class:`StrategyBot` plays it;
- :func:`canonical`, :func:`n_classes`, :func:`hand_of_class`, :func:`canonical_sequence` -- suit
  isomorphism of hands and of an information state's hands;
- :func:`lbr` -- local best response, a lower bound on a bot's exploitability in full-size games;
  :func:`mccfr` -- external-sampling MCCFR for them (:class:`MCCFRStrategy`);
- :class:`StrategyBot` -- a solved or trained strategy playing in the engine, the environments, simulate;
- :class:`GameSpec` -- the game as the solver reads it from a GameConfig or one of our OpenSpiel games.

>>> from badacey_fast import solve
>>> r = solve.cfr(solve.GameSpec.of("badugi", ranks=3, suits=2, hand_size=1, draws=1, cap=1), iterations=100)
>>> r.exploitability_mbb < solve.exploitability(r.game, "uniform").mbb
True
>>> solve.n_classes(4)
16432
"""

from __future__ import annotations

from badacey_fast.errors import SolveError
from badacey_fast.solve.cfr import CFRResult, CurvePoint, cfr
from badacey_fast.solve.compact import CompactStrategy
from badacey_fast.solve.exploit import Exploitability, best_response, exploitability
from badacey_fast.solve.lbr import LBRResult, lbr
from badacey_fast.solve.iso import canonical, canonical_hand, canonical_sequence, hand_of_class, n_classes
from badacey_fast.solve.mccfr import MCCFRStrategy, mccfr
from badacey_fast.solve.bot import StrategyBot
from badacey_fast.solve.spec import GameSpec
from badacey_fast.solve.strategy import InfoState, Strategy, as_strategy, info_state, info_state_index

__all__ = ["GameSpec", "Strategy", "InfoState", "as_strategy", "exploitability", "best_response", "Exploitability",
           "cfr", "CFRResult", "CurvePoint", "canonical", "canonical_hand", "canonical_sequence", "n_classes",
           "hand_of_class", "lbr", "LBRResult", "mccfr", "MCCFRStrategy", "StrategyBot", "info_state_index", "info_state",
           "SolveError", "CompactStrategy"]
