"""badacey_fast: exact, fast evaluation, showdown and settlement for Badacey and Badeucy.

Badacey is triple-draw lowball whose pot is split between the best A-5 low and the best ace-low badugi;
Badeucy pairs a 2-7 low with an ace-high badugi.  Every hand value is a dense rank, lower is better.

>>> import badacey_fast as bf
>>> bf.evaluate("As 2h 3d 4c 5s")
Value(low=1, badugi=1)
"""

from __future__ import annotations

try:
    # Not `_kernel`: importing the C extension badacey_fast._kernel binds that name on this package.
    from badacey_fast import kernel as _twins
    from badacey_fast.cards import card_id, card_rank, card_suit, format_card, format_cards, parse_card, parse_cards
    from badacey_fast.errors import (
        BadaceyError,
        DuplicateCardError,
        HandSizeError,
        IllegalActionError,
        InvalidCardError,
        RankError,
        ShowdownError,
        RangeError,
        TableIntegrityError,
        UnknownGameError,
    )
    from badacey_fast.evaluator import (Comparison, Description, Value, badugi_rank, compare, describe, evaluate,
                                        low_rank)
    from badacey_fast.rules.games import GAMES, normalize_game
except KeyboardInterrupt:
    # Ctrl-C while the `badacey` command starts (most of its start-up is these imports): one line and status
    # 130, as once the command runs, not a traceback.  Anywhere else the interrupt goes on as usual.
    from badacey_fast.cli.signals import interrupted_while_starting

    interrupted_while_starting()
    raise
except ValueError as exc:
    # A BADACEY_FAST_* variable whose value is refused (errors.SettingError, raised as the kernel loads):
    # the `badacey` command prints one line and exits with status 2; an importer gets the error.
    from badacey_fast.cli.signals import refused_while_starting
    from badacey_fast.errors import SettingError

    if isinstance(exc, SettingError):
        refused_while_starting(exc)
    raise

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (docs/import.md); mypy reads it alike
if TYPE_CHECKING:
    # The names loaded on first use by __getattr__ below, for type checkers only (never run: importing
    # them here would cost the import time the lazy loading saves).  tests/test_types.py checks that
    # every name of __all__ is bound here or above.
    from badacey_fast.bulk import all_hands, badugi_rank_many, evaluate_all, evaluate_many
    from badacey_fast.bulk import score_many, showdown_many, winners_many
    from badacey_fast.draw import DiscardChoice, DrawOutcomes, Equity, Range, best_discards, draw_outcomes
    from badacey_fast.draw import equity, policy_equity
    from badacey_fast.draw.range_equity import range_equity
    from badacey_fast.files import Deals, decode_cards, generate_deals, score_file
    from badacey_fast.game import Action, Game, GameConfig, SeatView
    from badacey_fast.game.simulate import simulate
    from badacey_fast.pots import UNSHOWN, PotResult, Settlement, ShowdownResult, settle, showdown
    from badacey_fast.pots import showdown_detail

    #: the serving twin's name, ``"c"`` or ``"python"`` (read live)
    backend: str
    __version__: str


# Bulk names live in badacey_fast.bulk, which imports numpy: loaded on first use, so that
# `import badacey_fast` stays fast for a bot that only evaluates single hands.
_BULK_NAMES = ("evaluate_many", "badugi_rank_many", "all_hands", "evaluate_all")
# The rules engine (badacey_fast.game) is loaded on first use too: evaluation alone does not need it.
_GAME_NAMES = ("Game", "GameConfig", "Action", "SeatView", "simulate")
# Loaded on first use, module of each name: bulk showdowns and scoring files (numpy); showdowns and
# settlement, draws and equities (half the import time of the package, and a bot that only evaluates
# hands does not need them).
_LAZY_NAMES = {"showdown_many": "bulk", "winners_many": "bulk", "score_many": "bulk",
               "score_file": "files", "generate_deals": "files", "decode_cards": "files", "Deals": "files",
               "showdown": "pots", "showdown_detail": "pots", "settle": "pots", "ShowdownResult": "pots",
               "Settlement": "pots", "PotResult": "pots", "UNSHOWN": "pots",
               "draw_outcomes": "draw", "best_discards": "draw", "DrawOutcomes": "draw", "DiscardChoice": "draw",
               "equity": "draw", "policy_equity": "draw", "Equity": "draw",
               "Range": "draw", "range_equity": "draw"}


def __dir__() -> list[str]:
    # The lazily loaded names of __all__ too; not the module's own helpers (`annotations` of the
    # __future__ import, TYPE_CHECKING), which are no part of the API.
    return sorted((set(globals()) - {"annotations", "TYPE_CHECKING"}) | set(__all__))


def __getattr__(attr: str) -> object:
    # ``backend`` is read live so that it always names the twin actually serving calls.
    if attr == "backend":
        return _twins.name
    if attr == "__version__":  # importlib.metadata costs ~35 ms of import time: look it up on demand
        global __version__
        from badacey_fast.version import installed_version

        __version__ = installed_version()
        return __version__
    if attr in _BULK_NAMES:
        from badacey_fast import bulk

        return getattr(bulk, attr)
    if attr in _GAME_NAMES:
        from badacey_fast import game

        return getattr(game, attr)
    if attr in _LAZY_NAMES:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY_NAMES[attr]}"), attr)
        globals()[attr] = value  # once: later lookups are plain attribute reads
        return value
    raise AttributeError(f"module 'badacey_fast' has no attribute {attr!r}")

__all__ = [
    "__version__",
    "backend",
    "GAMES",
    "normalize_game",
    "card_id",
    "card_rank",
    "card_suit",
    "parse_card",
    "parse_cards",
    "format_card",
    "format_cards",
    "Value",
    "Description",
    "Comparison",
    "evaluate",
    "evaluate_many",
    "badugi_rank_many",
    "all_hands",
    "evaluate_all",
    "showdown_many",
    "winners_many",
    "score_many",
    "score_file",
    "generate_deals",
    "decode_cards",
    "Deals",
    "low_rank",
    "badugi_rank",
    "describe",
    "compare",
    "showdown",
    "showdown_detail",
    "settle",
    "ShowdownResult",
    "Settlement",
    "PotResult",
    "UNSHOWN",
    "draw_outcomes",
    "best_discards",
    "DrawOutcomes",
    "DiscardChoice",
    "equity",
    "policy_equity",
    "Equity",
    "Range",
    "range_equity",
    "Game",
    "GameConfig",
    "Action",
    "SeatView",
    "simulate",
    "BadaceyError",
    "InvalidCardError",
    "DuplicateCardError",
    "HandSizeError",
    "RankError",
    "UnknownGameError",
    "ShowdownError",
    "IllegalActionError",
    "TableIntegrityError",
    "RangeError",
]
