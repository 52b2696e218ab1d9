"""The ``*_many`` calls over numpy arrays: N hands or N showdowns at once (ranks: lower is better).
"""

from __future__ import annotations

from badacey_fast.bulk.evaluate import evaluate_many, badugi_rank_many, all_hands, evaluate_all
from badacey_fast.bulk.buffers import release_buffers
from badacey_fast.bulk.showdown import MIN_SEATS, MAX_SEATS, Winners, BulkShowdown, showdown_many, winners_many, score_many, ColumnShowdown, score_columns

__all__ = ['evaluate_many', 'badugi_rank_many', 'all_hands', 'evaluate_all', 'MIN_SEATS', 'MAX_SEATS', 'Winners', 'BulkShowdown', 'showdown_many', 'winners_many', 'score_many', 'ColumnShowdown', 'score_columns', 'release_buffers']
