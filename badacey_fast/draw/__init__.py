"""Draws: exact draw outcomes, best discards, equity and policy equity.
"""

from __future__ import annotations

from badacey_fast.draw.outcomes import DrawOutcomes, DiscardChoice, draw_outcomes, best_discards, OBJECTIVES
from badacey_fast.draw.equities import Equity, equity, policy_equity, EXACT_LIMIT, DEFAULT_SAMPLES
from badacey_fast.draw.ranges import Range
from badacey_fast.draw.range_equity import range_equity

__all__ = ['DrawOutcomes', 'DiscardChoice', 'draw_outcomes', 'best_discards', 'OBJECTIVES', 'Equity', 'equity', 'policy_equity', 'EXACT_LIMIT', 'DEFAULT_SAMPLES', 'Range', 'range_equity']
