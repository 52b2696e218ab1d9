"""Pure Python rules of the game (RULES.md): no numpy, no backend, nothing but the standard library.

- :mod:`.games`: the five games, every spelling of their names, what each scores (one table);
- :mod:`.odd_chips`: the odd-chip policies, their one check, the seat order from the button, and the one
  split of a pot among its winners;
- :mod:`.reference`: the reference evaluators, the judge of correctness (dense ranks, lower is better),
  and the hands' words;
- :mod:`.value`: the value of a five-card hand (its two ranks);
- :mod:`.stub`: the deck and the stub, with the one reshuffle procedure (RULES.md §4);
- :mod:`.decks`: small decks (RULES.md §6): which cards, which hand sizes, and which decks never run out.

Nothing is imported here: ``import badacey_fast`` needs :mod:`.games` and :mod:`.value` but not the
reshuffle or the words, and a package ``__init__`` that imported them would load them all (import each
name from its module).
"""
