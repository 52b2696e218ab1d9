"""Deal files: text and CSV layouts, streams, random generation, and scoring a file.
"""

from __future__ import annotations

from badacey_fast.files.lines import parse_deal
from badacey_fast.files.generate import generate_deals
from badacey_fast.files.score import DEFAULT_POT, ScoreReport, score_file, generate_deals, parse_deal

__all__ = ['parse_deal', 'generate_deals', 'DEFAULT_POT', 'ScoreReport', 'score_file']
