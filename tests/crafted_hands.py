"""Hand histories crafted for the histories tests, one home for the texts and the helpers that more than one
test file builds them with (tests/test_histories_audit.py checks each hand's settlement as worked by hand,
tests/test_histories_fast_paths.py holds the replay's fast paths equal to the engine's on the same hands).

Not a test module: pytest's ``pythonpath`` (pyproject.toml) puts tests/ on the import path, so a test file
imports it by name (``from crafted_hands import ...``), as it would any module.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from badacey_fast.histories.model import EXAMPLE

DATA = Path(__file__).parent / "data" / "histories"  # the fixture hand histories, one file a room


def stars(k: int) -> str:
    """The text of hand ``k`` (0-based) of the PokerStars fixture file."""
    text = (DATA / "pokerstars.txt").read_text()
    return [h for h in text.split("\n\n\n\n") if h.strip()][k]


def ending(text: str, cut: str, end: str) -> str:
    """``text`` up to the first ``cut``, then ``end`` instead of the rest."""
    return text[: text.index(cut)] + end


def mutants(texts: list[str], seed: int, count: int, delete: float, chars: list[str]) -> Iterator[str]:
    """``count`` damaged hand histories, each one of ``texts`` (drawn by ``random.Random(seed)``) with one to
    three of its lines damaged: deleted (with probability ``delete``), else one character of a non-empty line
    replaced by one of ``chars``."""
    rng = random.Random(seed)
    for _ in range(count):
        lines = rng.choice(texts).split("\n")
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(lines))
            if rng.random() < delete:
                del lines[k]
            elif lines[k]:
                j = rng.randrange(len(lines[k]))
                lines[k] = lines[k][:j] + rng.choice(chars) + lines[k][j + 1:]
        yield "\n".join(lines)


#: A fold when a check is free: Bruno folds to no bet after the third draw (the engine checks for him).
FREE_FOLD = ending(stars(0), "*** THIRD DRAW ***", """*** THIRD DRAW ***
Alma: stands pat on [4s 7h 2c 9d]
Bruno: discards 1 card
Alma: checks
Bruno: folds
Alma collected $3.10 from pot
*** SUMMARY ***
Total pot $3.25 | Rake $0.15
""")

#: A tournament's all-in small blind, sitting out, that the room folds (the engine keeps it live; it wins
#: nothing).
ROOM_FOLDS_ALL_IN = """PokerStars Hand #900000012: Tournament #3000002, $1.00+$0.10 USD Badugi Limit - Level V (100/200) - 2024/03/06 21:00:00 CET [2024/03/06 15:00:00 ET]
Table '3000002 1' 6-max Seat #1 is the button
Seat 1: Alma (2000 in chips)
Seat 2: Bruno (40 in chips) is sitting out
Seat 3: Cora (2000 in chips)
Bruno: posts small blind 40 and is all-in
Cora: posts big blind 100
*** DEALING HANDS ***
Dealt to Alma [Ah 2c 3d 4s]
Alma: raises 100 to 200
Bruno: folds
Cora: folds
Uncalled bet (100) returned to Alma
Alma collected 240 from pot
*** SUMMARY ***
Total pot 240 | Rake 0
"""

#: Heads-up, raised past the cap after the draw: a room that lifts the cap heads-up.
UNCAPPED_HEADS_UP = ending(EXAMPLE.replace("#1:", "#77:"), "Villain: checks\nHero: bets $0.50", """Villain: bets $0.50
Hero: raises $0.50 to $1
Villain: raises $0.50 to $1.50
Hero: raises $0.50 to $2
Villain: raises $0.50 to $2.50
Hero: folds
Uncalled bet ($0.50) returned to Villain
Villain collected $5.80 from pot
*** SUMMARY ***
Total pot $6 | Rake $0.20
""")

#: Six players draw five cards each on the first draw: the deck runs out during Elif's draw and the room
#: reshuffles.
DECK_PLAYERS = ["Alma", "Bruno", "Cora", "Dmitri", "Elif", "Farid"]
DECK_RUNS_OUT = "\n".join(
    ["PokerStars Hand #900000010:  Triple Draw 2-7 Lowball Limit ($1/$2 USD) - 2024/03/05 22:00:00 CET "
     "[2024/03/05 16:00:00 ET]", "Table 'Fixture III' 6-max Seat #6 is the button"]
    + [f"Seat {k + 1}: {p} ($20 in chips)" for k, p in enumerate(DECK_PLAYERS)]
    + ["Alma: posts small blind $0.50", "Bruno: posts big blind $1", "*** DEALING HANDS ***",
       "Dealt to Alma [Ac Ad Ah As Kc]", "Cora: calls $1", "Dmitri: calls $1", "Elif: calls $1", "Farid: calls $1",
       "Alma: calls $0.50", "Bruno: checks", "*** FIRST DRAW ***", "Alma: discards 5 cards [Ac Ad Ah As Kc]",
       "Dealt to Alma [2c 3d 4h 5s 7c]", "Bruno: discards 5 cards", "Cora: discards 5 cards",
       "Dmitri: discards 5 cards", "The deck is reshuffled", "Elif: discards 5 cards", "Farid: discards 5 cards",
       "Alma: bets $1"]
    + [f"{p}: folds" for p in DECK_PLAYERS[1:]]
    + ["Uncalled bet ($1) returned to Alma", "Alma collected $5.70 from pot", "*** SUMMARY ***",
       "Total pot $6 | Rake $0.30"]) + "\n"
