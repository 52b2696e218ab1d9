"""Showdown and settlement of one hand (RULES.md §3): ties, quartering, odd chips, side pots, results.

- :mod:`.settlement`: ``showdown``, ``showdown_detail`` and ``settle`` (main and side pots: ``side_pots``);
- :mod:`.one_pot`: settle's fast path for the common one-pot showdown (tested equal to the general path);
- :mod:`.results`: the result objects and their words (``explain()``), and ``UNSHOWN``.

Ranks are dense, lower is better; chips are ints, every chip is paid out and none is created.
"""

from __future__ import annotations

from badacey_fast.pots.results import UNSHOWN, PotResult, Settlement, ShowdownResult
from badacey_fast.pots.settlement import settle, showdown, showdown_detail, side_pots

__all__ = ["UNSHOWN", "PotResult", "ShowdownResult", "Settlement", "showdown", "showdown_detail", "settle",
           "side_pots"]
