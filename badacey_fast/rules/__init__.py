"""Pure Python rules of the game (RULES.md): no numpy, no backend, nothing but the standard library.

- :mod:`.games`: the five games, every spelling of their names, what each scores (one table);
- :mod:`.odd_chips`: the odd-chip policies, their one check, the seat order from the button;
- :mod:`.reference`: the reference evaluators, the judge of correctness (dense ranks, lower is better),
  and the hands' words;
- :mod:`.value`: the value of a five-card hand (its two ranks);
- :mod:`.stub`: the deck and the stub, with the one reshuffle procedure (RULES.md §4);
- :mod:`.decks`: small decks (RULES.md §6): which cards, which hand sizes, and which decks never run out.
"""

from __future__ import annotations

from badacey_fast.rules.games import (BADACEY, BADEUCY, BADUGI, GAMES, LOW, PRESETS, SCORINGS, SPELLINGS, Scoring,
                                      is_ace_high, normalize_game, scoring)
from badacey_fast.rules.odd_chips import ODD_CHIP_POLICIES, check_odd_chip, clockwise
from badacey_fast.rules.reference import (BADUGI_CLASS_COUNT, LOW_CLASS_COUNTS, BadugiValue, LowValue, badugi_class_hands,
                                          badugi_key, badugi_rank, badugi_value, best_badugi, describe_badugi_rank,
                                          describe_low_rank, low_class_hands, low_key, low_rank, low_value)
from badacey_fast.rules.stub import Stub
from badacey_fast.rules.value import VALUES, Value, from_entry

__all__ = ["BADACEY", "BADEUCY", "GAMES", "PRESETS", "SPELLINGS", "LOW", "BADUGI", "Scoring", "SCORINGS", "scoring",
           "normalize_game", "is_ace_high", "ODD_CHIP_POLICIES", "check_odd_chip", "clockwise", "LOW_CLASS_COUNTS",
           "BADUGI_CLASS_COUNT", "LowValue", "BadugiValue", "low_key", "badugi_key", "low_rank", "badugi_rank",
           "best_badugi", "low_value", "badugi_value", "describe_low_rank", "describe_badugi_rank",
           "low_class_hands", "badugi_class_hands", "Value", "VALUES", "from_entry", "Stub"]
