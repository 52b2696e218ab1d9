"""Simulate many hands between bots: winnings per 100 hands with a 95 % confidence interval.

Seat ``i`` holds ``bots[i]`` for every hand; the button moves one seat each hand and every hand starts
from the same stacks (a cash game with top-ups), so each hand is an independent sample.

When every bot is a built-in one (:class:`~badacey_fast.game.bots.RandomBot`,
:class:`~badacey_fast.game.bots.RuleBot`) and the C twin is active, the hands are played by the C hand
loop (``csrc/simulate.c`` with the bots of ``csrc/bots.c``, decision for decision the Python bots' rules):
the same game in distribution, from other random streams, so a seed gives another (reproducible) run than
on the Python path.  ``engine="python"`` keeps the Python path; ``engine="c"`` insists on C.

>>> from badacey_fast.game.bots import RandomBot, RuleBot
>>> r = simulate([RuleBot(), RandomBot()], hands=200, seed=1)
>>> r.hands, sum(r.totals)              # zero-sum: every chip won was lost by someone
(200, 0)
>>> simulate([RandomBot()], hands=10)
Traceback (most recent call last):
...
badacey_fast.errors.ConfigError: a hand needs 2 to 6 seats, got 1
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from types import FunctionType, MethodType
from typing import TYPE_CHECKING, Any

from badacey_fast.game.actions import Action
from badacey_fast.errors import ConfigError
from badacey_fast.game.config import GameConfig, resolve_config
from badacey_fast.game.state import COMPLETE, Game
from badacey_fast.game.view import SeatView

if TYPE_CHECKING:
    import os

    import pandas as pd
    import pyarrow as pa
    from matplotlib.figure import Figure

    from badacey_fast.game.history_file import HistoryFile
    from badacey_fast.game.records import HandRecords
    from badacey_fast.kernel import Simulator

__all__ = ["SimulationResult", "PlayedHands", "simulate", "summarize", "play_hand", "shuffled_decks", "direct_calls", "ENGINES",
           "resolve_engine"]

Bot = Callable[[SeatView], Action]
#: The hand loops :func:`simulate` can run on: ``"auto"`` (C when it can), ``"c"``, ``"python"``.
ENGINES = ("auto", "c", "python")
# Hands per call of the C loop: the progress callback's step, and few enough that the int64 sums of one
# call cannot overflow with the chips the C loop allows (checked again in C: refused, never wrapped).
_C_CHUNK = 1000


class PlayedHands(int):
    """The hands of a simulation: their number (an ``int``, as arithmetic and ``==`` see it) and, when the
    simulation kept them (``simulate(..., records=True)``), one row a hand out to pandas, Arrow, files and
    plots (:class:`~badacey_fast.game.records.HandRecords` does the work).  ``len()`` is the number too.

    >>> from badacey_fast.game.bots import RandomBot, RuleBot
    >>> r = simulate([RuleBot(), RandomBot()], hands=100, seed=1, records=True)
    >>> r.hands == 100, len(r.hands), r.hands + 1
    (True, 100, 101)
    >>> df = r.hands.to_pandas()
    >>> len(df), int(df["net_0"].sum() + df["net_1"].sum())
    (100, 0)
    >>> simulate([RuleBot(), RandomBot()], hands=10).hands.to_pandas()
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: the hands were not kept: simulate(..., records=True) keeps them
    """

    records: HandRecords | None

    def __new__(cls, count: int, records: HandRecords | None = None) -> PlayedHands:
        self = super().__new__(cls, count)
        self.records = records
        return self

    def __repr__(self) -> str:
        return int.__repr__(self)

    def __len__(self) -> int:
        return int(self)

    def kept(self) -> HandRecords:
        """The per-hand records, or a :class:`~badacey_fast.errors.ConfigError` when the simulation did not
        keep them (see the class example)."""
        if self.records is None:
            raise ConfigError("the hands were not kept: simulate(..., records=True) keeps them")
        return self.records

    def to_pandas(self, cards: str = "text") -> pd.DataFrame:
        """One row a hand as a pandas ``DataFrame`` (:meth:`HandRecords.to_pandas
        <badacey_fast.game.records.HandRecords.to_pandas>`; ``cards`` ``"text"`` or ``"array"``)."""
        return self.kept().to_pandas(cards)

    def to_arrow(self, cards: str = "text") -> pa.Table:
        """One row a hand as a pyarrow ``Table`` (:meth:`HandRecords.to_arrow
        <badacey_fast.game.records.HandRecords.to_arrow>`)."""
        return self.kept().to_arrow(cards)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the hands to ``.parquet``, ``.csv`` or ``.jsonl`` (:meth:`HandRecords.write
        <badacey_fast.game.records.HandRecords.write>`: whole or not at all)."""
        self.kept().write(path)


@dataclass(frozen=True)
class SimulationResult:
    """Per-bot totals over ``hands`` hands.  ``per100`` and ``ci95`` are chips per 100 hands.
    ``hands``: a :class:`PlayedHands`, the number of hands played (an int) which also holds one row a hand
    (``result.hands.to_pandas()``) when the simulation was asked to keep them (``records=True``);
    ``records`` is the same rows (:class:`~badacey_fast.game.records.HandRecords`) or None.
    ``squares``: each seat's sum of squared winnings (chips², exact ints): with ``totals``, what merging
    runs needs (:func:`badacey_fast.dask.simulate`)."""

    names: tuple[str, ...]
    hands: PlayedHands
    big_blind: int
    totals: tuple[int, ...]
    per100: tuple[float, ...]
    ci95: tuple[float, ...]
    showdowns: int
    records: HandRecords | None = None
    squares: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # One object for both spellings: ``hands`` counts the hands and carries ``records`` when kept.
        object.__setattr__(self, "hands", PlayedHands(self.hands, self.records))

    def plot(self) -> Figure:
        """Each seat's running net in big blinds over the hands with a 95 % band (a matplotlib ``Figure``:
        :meth:`~badacey_fast.game.records.HandRecords.plot`).  Needs the simulation's records
        (``simulate(..., records=True)``) and matplotlib (``pip install "badacey_fast[plot]"``).

        >>> from badacey_fast.game.bots import RandomBot, RuleBot
        >>> fig = simulate([RuleBot(), RandomBot()], hands=300, seed=1, records=True).plot()
        >>> [line.get_label() for line in fig.axes[0].lines[:2]]
        ['seat 0 (rule)', 'seat 1 (random)']
        >>> simulate([RuleBot(), RandomBot()], hands=30).plot()
        Traceback (most recent call last):
        ...
        badacey_fast.errors.ConfigError: the hands were not kept: simulate(..., records=True) keeps them
        """
        return self.hands.kept().plot(unit=self.big_blind or 1)

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (``badacey simulate --json`` prints it, with the seed and game):
        ``hands``, ``showdowns``, ``big_blind`` (chips), and ``seats``, one object a seat: ``seat``,
        ``bot`` (its name), ``total`` (chips won over all hands, an exact int), ``per100`` and ``ci95``
        (chips per 100 hands and the half-width of their 95 % interval), ``bb100`` and ``bb100_ci95``
        (the same in big blinds per 100 hands).

        >>> from badacey_fast.game.bots import RandomBot
        >>> d = simulate([RandomBot(), RandomBot()], hands=50, seed=2).to_dict()
        >>> sorted(d), sorted(d["seats"][0])
        (['big_blind', 'hands', 'seats', 'showdowns'], ['bb100', 'bb100_ci95', 'bot', 'ci95', 'per100', 'seat', 'total'])
        >>> d["seats"][0]["total"] + d["seats"][1]["total"]
        0
        """
        bb = self.big_blind or 1
        seats = [{"seat": i, "bot": name, "total": self.totals[i], "per100": self.per100[i], "ci95": self.ci95[i],
                  "bb100": self.per100[i] / bb, "bb100_ci95": self.ci95[i] / bb} for i, name in enumerate(self.names)]
        return {"hands": self.hands, "showdowns": self.showdowns, "big_blind": self.big_blind, "seats": seats}

    def table(self) -> str:
        """A readable results table (chips and big blinds per 100 hands, with 95 % intervals).

        >>> from badacey_fast.game.bots import RandomBot
        >>> print(simulate([RandomBot(), RandomBot()], hands=50, seed=2).table().splitlines()[0])
        seat  bot        chips/100 hands       bb/100 hands   total chips
        """
        bb = self.big_blind or 1
        lines = [f"{'seat':<6}{'bot':<10}{'chips/100 hands':>16}{'bb/100 hands':>19}{'total chips':>14}"]
        for i, name in enumerate(self.names):
            chips = f"{self.per100[i]:+.1f} ± {self.ci95[i]:.1f}"
            bbs = f"{self.per100[i] / bb:+.2f} ± {self.ci95[i] / bb:.2f}"
            lines.append(f"{i:<6}{name:<10}{chips:>16}{bbs:>19}{self.totals[i]:>14}")
        lines.append(f"{self.hands} hands, {self.showdowns} showdowns; ± is a 95 % confidence interval")
        return "\n".join(lines)


def shuffled_decks(seed: int | None, batch: int = 1024,
                   cards: Sequence[int] | None = None) -> Iterator[list[int]]:
    """Endless shuffled 52-card decks (lists of card ids), made in bulk with numpy: a simulation's deals.
    ``cards``: the deck's cards (default the 52 in id order; a small game's
    :attr:`~badacey_fast.game.GameConfig.deck`).

    Shuffling a thousand decks at once costs about a microsecond per deck, several times less than
    drawing each card from a Python RNG.  ``seed`` makes the sequence reproducible.

    >>> d = next(shuffled_decks(1)); sorted(d) == list(range(52))
    True
    >>> sorted(next(shuffled_decks(1, cards=(3, 7, 11))))
    [3, 7, 11]
    >>> next(shuffled_decks(1, batch=0))
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: batch must be a positive int, got 0
    """
    if type(batch) is not int or batch < 1:
        raise ConfigError(f"batch must be a positive int, got {batch!r}")
    import numpy as np  # only simulations need it

    gen = np.random.default_rng(seed)
    deck = np.arange(52, dtype=np.int64) if cards is None else np.array(cards, dtype=np.int64)
    base = np.tile(deck, (batch, 1))
    while True:
        yield from gen.permuted(base, axis=1).tolist()


def play_hand(game: Game, bots: Sequence[Bot], views: list[SeatView] | None = None) -> Game:
    """Let ``bots[seat]`` act for each seat until the hand is over; returns the finished game.

    ``views``: one :class:`SeatView` per seat to reuse (rebound to ``game``), saving their creation in
    long simulations.
    """
    if views is None:
        views = [SeatView(game, i) for i in range(game.n)]
    else:
        for v in views:
            v._g = game
    apply = game.apply
    while game.phase != COMPLETE:
        i = game.to_act
        apply(bots[i](views[i]))
    return game


def direct_calls(bots: Sequence[Bot]) -> list[Bot]:
    """The bots as the cheapest callables doing the same: for an instance of a class with a Python
    ``__call__``, that method bound to it (``bot(view)`` runs ``type(bot).__call__(bot, view)``, looked up
    on every call); any other bot as it is.  Long simulations pass these to :func:`play_hand`.

    >>> from badacey_fast.game.bots import RandomBot
    >>> bot = RandomBot(seed=1)
    >>> call, same = direct_calls([bot, len])
    >>> call.__self__ is bot, same is len
    (True, True)
    >>> direct_calls(None)
    Traceback (most recent call last):
    ...
    TypeError: 'NoneType' object is not iterable
    """
    out = []
    for bot in bots:
        call = getattr(type(bot), "__call__", None)
        out.append(MethodType(call, bot) if type(call) is FunctionType else bot)
    return out


def simulate(
    bots: Sequence[Bot],
    hands: int = 1000,
    seed: int | None = 0,
    config: GameConfig | str | None = None,
    stack: int | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    game: str | None = None,
    engine: str = "auto",
    records: bool = False,
    save: HistoryFile | None = None,
) -> SimulationResult:
    """Play ``hands`` hands between ``bots`` (2 to 6, seat i = bots[i]) and report their winnings.

    ``stack``: chips each seat starts every hand with (default 100 big blinds, or 100 bets in an ante
    game).  ``seed`` makes the run reproducible (deals and the bots' own random choices).
    ``progress(k)`` is called every 1000 hands and at the end with the number of hands done.
    ``config``: a :class:`GameConfig` or a preset name; ``game=`` a preset name as every entry point takes
    it (both given must agree: :func:`~badacey_fast.game.config.resolve_config`).
    ``engine``: ``"auto"`` plays on the C hand loop when every bot is a built-in
    :class:`~badacey_fast.game.bots.RandomBot` or :class:`~badacey_fast.game.bots.RuleBot` and the C twin
    is active (about 20x the hands a second), else in Python; ``"c"`` refuses (``ValueError``) what
    only Python can play; ``"python"`` always plays in Python.
    ``records=True`` keeps one row a hand in the result's ``records`` (each seat's net, final cards and
    fold, the button, the showdown, the pot: :class:`~badacey_fast.game.records.HandRecords`, to pandas
    and Arrow), 60 bytes or so a hand.
    ``save``: an open :class:`~badacey_fast.game.history_file.HistoryFile` that gets every hand's history
    (PHH or JSON lines); the C loop keeps no histories, so the hands are played in Python (``engine="c"``
    with ``save`` is refused).

    >>> from badacey_fast.game.bots import RandomBot, RuleBot
    >>> r = simulate([RuleBot(), RandomBot(), RandomBot()], hands=300, seed=5)
    >>> r.names, r.per100[0] > 0          # the rule-of-thumb bot beats random play
    (('rule', 'random', 'random'), True)
    >>> simulate([RandomBot(), RandomBot()], hands=0)
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: hands must be a positive int, got 0
    """
    config = resolve_config(config, game)
    if engine not in ENGINES:
        raise ConfigError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    n = len(bots)
    if not 2 <= n <= 6:
        raise ConfigError(f"a hand needs 2 to 6 seats, got {n}")
    if type(hands) is not int or hands < 1:
        raise ConfigError(f"hands must be a positive int, got {hands!r}")
    config.check_seats(n)  # a small game's deck may be too small for this many (on either engine)
    unit = config.big_blind or config.small_bet
    stacks = [stack if stack is not None else 100 * unit] * n
    names = tuple(getattr(b, "name", getattr(b, "__name__", type(b).__name__)) for b in bots)
    if save is not None and engine == "c":
        raise ConfigError("engine='c' is unavailable: the C loop keeps no hand histories (save=): Python plays them")
    sim = None if engine == "python" or save is not None else _c_simulator(bots, config, stacks, seed, engine == "c")
    if sim is not None:
        import numpy as np

        rows = {k: np.zeros((hands,) + shape, dtype) for k, (dtype, shape) in sim.RECORDS.items()} if records \
            else None
        totals, squares, showdowns = [0] * n, [0] * n, 0
        for first in range(0, hands, _C_CHUNK):
            count = min(_C_CHUNK, hands - first)
            t, q, sd = sim.run(first, count, None if rows is None else
                               {k: a[first:first + count] for k, a in rows.items()})
            totals = [a + b for a, b in zip(totals, t)]  # Python ints: the grand sums never wrap
            squares = [a + b for a, b in zip(squares, q)]
            showdowns += sd
            if progress is not None:
                progress(first + count)
        result = summarize(names, hands, unit, totals, squares, showdowns)
        if rows is None:
            return result
        from badacey_fast.game.records import HandRecords  # (numpy: only simulations need it)

        h = config.hand_size
        return replace(result, records=HandRecords(names, rows["net"][:, :n], rows["cards"][:, :n, :h],
                                                   rows["folded"][:, :n], rows["button"], rows["showdown"],
                                                   rows["pot"]))
    rng = random.Random(seed)
    for i, bot in enumerate(bots):
        reseed = getattr(bot, "reseed", None)
        if reseed is not None:
            reseed(None if seed is None else seed * 7919 + i + 1)
    totals = [0] * n
    squares = [0] * n
    showdowns = 0
    decks = shuffled_decks(None if seed is None else seed + 1, batch=min(hands, 1024), cards=config.deck)
    views = None
    calls = direct_calls(bots)
    kept: list[tuple[list[int], list[tuple[int, ...]], list[bool], int, bool, int]] = []
    for h in range(hands):
        g = Game(config, stacks, button=h % n, rng=rng, _shuffled=next(decks))
        if views is None:
            views = [SeatView(g, i) for i in range(n)]
        play_hand(g, calls, views)
        won = g.winnings
        for i, w in enumerate(won):
            totals[i] += w
            squares[i] += w * w
        showdowns += g.nlive > 1
        if save is not None:
            save.add(g)
        if records:
            kept.append((won, [tuple(c) for c in g.hands], list(g.folded), g.button, g.nlive > 1,
                         sum(g.payouts or ())))
        if progress is not None and ((h + 1) % 1000 == 0 or h + 1 == hands):
            progress(h + 1)
    result = summarize(names, hands, unit, totals, squares, showdowns)
    if not records:
        return result
    from badacey_fast.game.records import HandRecords

    return replace(result, records=HandRecords(names, *(list(col) for col in zip(*kept))))


def resolve_engine(bots: Sequence[Bot], config: GameConfig | str | None = None, engine: str = "auto",
                   stack: int | None = None) -> str:
    """The hand loop :func:`simulate` plays ``bots`` on with these rules here: ``"c"`` or ``"python"``
    (``engine="auto"`` decided in this process, with its backend).  A caller that shards a simulation
    across processes (:func:`badacey_fast.dask.simulate`) decides once and passes the answer, so every
    shard deals from the same engine's streams whatever each process's backend.  ``engine="c"`` that
    cannot be played is the ``ValueError`` of :func:`simulate`.

    >>> from badacey_fast.game.bots import RandomBot, RuleBot
    >>> resolve_engine([RuleBot(), RandomBot()], engine="python")
    'python'
    >>> resolve_engine([RuleBot(), len])                     # a bot of one's own plays in Python
    'python'
    >>> resolve_engine([RuleBot(), RandomBot()], engine="jit")
    Traceback (most recent call last):
    ...
    badacey_fast.errors.ConfigError: engine must be one of auto, c, python, not 'jit'
    """
    if engine not in ENGINES:
        raise ConfigError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "python":
        return "python"
    config = resolve_config(config)
    unit = config.big_blind or config.small_bet
    stacks = [stack if stack is not None else 100 * unit] * len(bots)
    return "c" if _c_simulator(bots, config, stacks, 0, engine == "c") is not None else "python"


def _c_simulator(bots: Sequence[Bot], config: GameConfig, stacks: list[int], seed: int | None,
                 insist: bool) -> Simulator | None:
    """The C hand loop set up for these bots and rules, or None when Python must play (``insist``: a
    ``ValueError`` saying why instead)."""
    from badacey_fast import kernel
    from badacey_fast.game.bots import RandomBot, RuleBot
    from badacey_fast.rules.games import PRESETS

    sim = kernel.simulator()
    # Exactly the built-in classes: a subclass may decide otherwise, and only Python can ask it.
    kinds = {RandomBot: "random", RuleBot: "rule"}
    others = [type(b).__name__ for b in bots if type(b) not in kinds]
    total = sum(stacks)
    why = (f"the C kernel is not active (backend {kernel.name!r})" if sim is None else
           f"bots other than the built-in RandomBot and RuleBot play in Python only: {', '.join(others)}"
           if others else
           # The C loop's int64 sums of _C_CHUNK hands: a hand moves at most every chip on the table.
           f"stacks of {max(stacks)} chips are beyond the C loop's sums" if total * total * _C_CHUNK >= 1 << 63
           else None)
    if why is None:
        assert sim is not None
        root = random.Random(seed)  # seed None: a fresh run each time, as on the Python path
        try:
            return sim(PRESETS.index(config.game), stacks, config.small_blind, config.big_blind, config.ante,
                       config.small_bet, config.big_bet, config.cap, config.heads_up_uncapped, config.burn,
                       config.odd_chip.odd_low, config.scoring.ace_high,
                       (config.ranks, config.suits, config.hand_size, config.draws),
                       [kinds[type(b)] for b in bots], root.getrandbits(64), [root.getrandbits(64) for _ in bots])
        except ValueError as exc:
            why = str(exc)
    if insist:
        raise ConfigError(f"engine='c' is unavailable: {why}")
    return None


def summarize(names: tuple[str, ...], hands: int, unit: int, totals: Sequence[int], squares: Sequence[int],
              showdowns: int) -> SimulationResult:
    """A :class:`SimulationResult` from each seat's total winnings and sum of squared winnings (chips)
    over ``hands`` hands (``unit``: the big blind): chips per 100 hands and their 95% intervals.  The
    one summary of a simulation, also of one merged from partitions (:mod:`badacey_fast.dask`).

    >>> summarize(("a", "b"), 4, 2, [8, -8], [16, 16], 2).per100      # +2 chips a hand, every hand
    (200.0, -200.0)
    """
    per100, ci95 = [], []
    for i in range(len(names)):
        mean = totals[i] / hands
        var = max(0.0, squares[i] / hands - mean * mean) * hands / max(1, hands - 1)
        per100.append(100 * mean)
        ci95.append(100 * 1.96 * math.sqrt(var / hands))
    return SimulationResult(names, PlayedHands(hands), unit, tuple(totals), tuple(per100), tuple(ci95), showdowns,
                            squares=tuple(squares))
