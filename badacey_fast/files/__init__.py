"""Deal files: one deal per line (text or CSV), scored in bulk.

- :mod:`.lines`: one line's layout and parsing (``parse_deal``);
- :mod:`.streams`: reading and writing streams in blocks of lines (the 1 MiB line limit, line ends);
- :mod:`.generate`: random deal files (``generate_deals``);
- :mod:`.score`: scoring a whole file (``score_file``), the C fast path and the reference path;
- :mod:`.outputs`: an output is never an input, and every output is written whole or not at all
  (``check_not_input``, ``AtomicFile``, ``AtomicFolder``);
- :mod:`.arrow`: Arrow and Parquet deal datasets (the ``parquet`` extra);
- :mod:`.deals`: deals in memory and their cards as text, to pandas and Arrow (``decode_cards``, ``Deals``).

Payouts are ints (chips); lower rank is better wherever a rank is involved.
"""

from __future__ import annotations

from badacey_fast.files.deals import Deals, decode_cards
from badacey_fast.files.generate import generate_deals
from badacey_fast.files.lines import parse_deal
from badacey_fast.files.score import DEFAULT_POT, ScoreReport, score_file

__all__ = ["DEFAULT_POT", "ScoreReport", "score_file", "generate_deals", "parse_deal", "decode_cards", "Deals"]
