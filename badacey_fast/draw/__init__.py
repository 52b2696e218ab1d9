"""Draws: exact draw outcomes, best discards, equity and policy equity.
"""

from __future__ import annotations

from badacey_fast.draw.outcomes import DrawOutcomes, DiscardChoice, draw_outcomes, best_discards, OBJECTIVES
from badacey_fast.draw.equities import Equity, equity, policy_equity, EXACT_LIMIT, DEFAULT_SAMPLES

__all__ = ['DrawOutcomes', 'DiscardChoice', 'draw_outcomes', 'best_discards', 'OBJECTIVES', 'Equity', 'equity', 'policy_equity', 'EXACT_LIMIT', 'DEFAULT_SAMPLES']
