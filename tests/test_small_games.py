"""Small draw games (RULES.md §6, issue 26): the config fields and the deck, the one rule of which deck never
runs out (checked against an exhaustive search of the reshuffle procedure), the engine on small decks (chance
mode over the small deck, showdown ranks on the full scale, draws and hand sizes), the set-of-cards chance
events against card-by-card enumeration, and the exact tree sizes of game/small.py."""

from __future__ import annotations

import random
from collections import defaultdict
from itertools import product

import pytest

from badacey_fast.cards import parse_cards
from badacey_fast.errors import BadaceyError, IllegalActionError, ShowdownError
from badacey_fast.game import Action, ConfigError, Game, GameConfig
from badacey_fast.game.bots import RandomBot, RuleBot
from badacey_fast.game.simulate import play_hand, simulate
from badacey_fast.game.small import SMALL_GAMES, tree_size
from badacey_fast.pots import settle
from badacey_fast.rules import reference
from badacey_fast.rules.games import PRESETS, scoring
from badacey_fast.rules.stub import Stub

#: Each game's ranks from its lowest up, as text (RULES.md §6: A.. for the ace-low games, 2.. for the 2-7 ones).
ORDER = {False: "A23456789TJQK", True: "23456789TJQKA"}


# ---------------------------------------------------------------------------------------------------------
# the config


@pytest.mark.backend_independent
def test_full_games_are_unchanged() -> None:
    # The full game's config reads, prints and serialises as before small decks existed.
    assert repr(GameConfig()) == ("GameConfig(game='badacey', small_blind=1, big_blind=2, ante=0, small_bet=2, "
                                  "big_bet=4, cap=4, heads_up_uncapped=False, burn=False, odd_chip='position')")
    for game in PRESETS:
        c = GameConfig(game=game)
        assert c.hand_size == (4 if game == "badugi" else 5)
        assert (c.ranks, c.suits, c.draws, c.small) == (13, 4, 3, False)
        assert c.deck == tuple(range(52))
        assert set(c.to_dict()) == {"game", "small_blind", "big_blind", "ante", "small_bet", "big_bet", "cap",
                                    "heads_up_uncapped", "burn", "odd_chip"}
        assert GameConfig(**c.to_dict()) == c
        assert GameConfig(game=game, hand_size=c.hand_size, ranks=13, suits=4, draws=3) == c


@pytest.mark.backend_independent
@pytest.mark.parametrize("game", PRESETS)
def test_deck_is_the_lowest_ranks_of_the_games_order(game: str) -> None:
    ace_high = scoring(game).ace_high
    suits_allowed = (2, 3, 4) if game == "badugi" else (4,)
    for ranks in range(4, 14):
        for suits in suits_allowed:
            hand = 1 if game == "badugi" else 5
            c = GameConfig(game=game, ranks=ranks, suits=suits, hand_size=hand if game != "badugi" else 1)
            want = sorted(parse_cards(" ".join(r + s for r in ORDER[ace_high][:ranks] for s in "cdhs"[:suits])))
            assert list(c.deck) == want, (ranks, suits)
            assert c.small == (ranks < 13 or suits < 4 or (game == "badugi"))
            assert GameConfig(**c.to_dict()) == c


@pytest.mark.backend_independent
@pytest.mark.parametrize("kwargs,message", [
    ({"ranks": 0}, "ranks must be 1 to 13, got 0"),
    ({"ranks": 14}, "ranks must be 1 to 13, got 14"),
    ({"draws": 4}, "draws must be 0 to 3, got 4"),
    ({"draws": -1}, "draws must be 0 to 3, got -1"),
    ({"suits": 3}, "suits 3: only Badugi is dealt with fewer than 4 suits"),
    ({"hand_size": 4}, "hand_size 4 is not dealt in badacey: 5 cards only"),
    ({"game": "badugi", "hand_size": 5}, "hand_size 5 is not dealt in badugi: 1 to 4 cards only"),
    ({"game": "badugi", "hand_size": 0}, "hand_size must be 1 to 5, got 0"),
    ({"game": "badugi", "suits": 1}, "suits must be 2 to 4, got 1"),
    ({"game": "badugi", "suits": 5}, "suits must be 2 to 4, got 5"),
])
def test_bad_small_fields_are_refused_by_name(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        GameConfig(**kwargs)  # type: ignore[arg-type]


@pytest.mark.backend_independent
def test_small_field_types() -> None:
    for name in ("ranks", "suits", "hand_size", "draws"):
        with pytest.raises(TypeError, match=f"{name} must be an int, not (str|bool)"):
            GameConfig(game="badugi", **{name: "3" if name != "draws" else True})  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------------
# the rule: which decks can run out


def _can_run_out(cards: int, seats: int, hand: int, draws: int, burn: bool) -> bool:
    """Whether some sequence of discards (any count at any seat, every seat in: a fold only adds to the muck)
    leaves a player owed cards the stub cannot deal, found by playing every sequence of discard counts
    through a real Stub.  Whether it runs out depends on the sizes of the stub and the muck only, so the
    search is memoised on them."""
    stub = Stub(list(range(cards)), rng=random.Random(0))
    try:
        hands = stub.deal_round(seats, hand)
    except IllegalActionError:
        return True
    seen: dict[tuple[int, int, int, int], bool] = {}

    def run(st: Stub, held: list[list[int]], draw: int, seat: int) -> bool:
        key = (draw, seat, len(st.cards), len(st.muck))
        if key not in seen:
            seen[key] = draw < draws and serve(st, held, draw, seat)
        return seen[key]

    def serve(st: Stub, held: list[list[int]], draw: int, seat: int) -> bool:
        if seat == 0 and burn:
            st = st.copy()
            try:
                st.burn()
            except IllegalActionError:
                return True
        for k in range(hand + 1):
            t = st.copy()
            h = [x[:] for x in held]
            try:
                h[seat] = h[seat][k:] + t.draw(h[seat][:k])
            except IllegalActionError:
                return True
            if run(t, h, *((draw, seat + 1) if seat + 1 < seats else (draw + 1, 0))):
                return True
        return False

    return run(stub, hands, 0, 0)


@pytest.mark.backend_independent
@pytest.mark.exhaustive  # a search of every seats x hand size x suits x draws x burn
def test_refusal_names_the_smallest_ranks_found_by_search() -> None:
    # For every seats x hand size x suits x draws x burn a small game may have, the smallest number of ranks
    # whose deck no sequence of draws exhausts (searched through the real Stub) is the one below which Game
    # refuses, naming it; at it and above, the game is accepted.  GameConfig, which knows no seats, refuses
    # what cannot be dealt even heads-up, naming heads-up's smallest.
    checked = 0
    for seats, hand, suits, draws, burn in product((2, 3, 4), (1, 2, 3, 4, 5), (2, 3, 4), (0, 1, 2), (False, True)):
        if hand == 5 and suits != 4:
            continue
        game = "badugi" if hand < 5 else "a5"

        def smallest(n: int) -> int | None:
            return next((r for r in range(1, 14) if not _can_run_out(r * suits, n, hand, draws, burn)), None)

        here, heads_up = smallest(seats), smallest(2)
        config = dict(game=game, suits=suits, hand_size=hand, draws=draws, burn=burn)
        if game != "badugi":
            del config["hand_size"]
        for ranks in range(1, 14):
            try:
                c = GameConfig(ranks=ranks, **config)  # type: ignore[arg-type]
            except ConfigError as exc:
                assert heads_up is None or ranks < heads_up, (seats, hand, suits, draws, burn, ranks, exc)
                assert str(exc).endswith(f"the smallest R that works is ranks={heads_up}"), str(exc)
                continue
            try:
                Game(c, [20] * seats, seed=1)
            except ConfigError as exc:
                assert here is None or ranks < here, (seats, hand, suits, draws, burn, ranks, exc)
                if here is None:
                    assert str(exc).endswith(f"no number of ranks works with {suits} suits: use more suits or "
                                             f"fewer seats"), str(exc)
                else:
                    assert str(exc).endswith(f"the smallest R that works is ranks={here}"), str(exc)
                continue
            assert here is not None and ranks >= here, (seats, hand, suits, draws, burn, ranks)
            checked += 1
    assert checked > 500


@pytest.mark.backend_independent
def test_the_boundary_deck_survives_every_discard_and_one_less_runs_out() -> None:
    # Heads-up 2-card Badugi with one draw needs 7 cards: at 3 ranks x 3 suits every hand of seats that throw
    # everything, burn or not, is dealt in full; with 2 ranks x 3 suits the first player throwing both cards
    # is owed more than the stub can deal (shown on the Stub the engine deals through).
    for burn in (False, True):
        c = GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=3, burn=burn, cap=1)
        for seed in range(200):
            g = Game(c, [50, 50], seed=seed)
            while not g.is_over:
                if g.phase == "drawing":
                    g.apply(Action("draw", cards=tuple(g.hands[g.to_act])))
                else:
                    g.apply("check" if g.to_call() == 0 else "call")
            assert len(g.dealt) == 4 + 3 * (4 + burn) and g.reshuffles
    stub = Stub(list(range(6)))
    hands = stub.deal_round(2, 2)
    with pytest.raises(IllegalActionError, match="the deck ran out: 2 cards are owed, 1 can be dealt"):
        stub.draw(hands[0])
    with pytest.raises(ConfigError, match="the smallest R that works is ranks=3"):
        GameConfig(game="badugi", ranks=2, suits=3, hand_size=2, draws=1)


@pytest.mark.backend_independent
def test_seats_are_checked_where_they_are_known() -> None:
    c = GameConfig(ranks=6)  # 24 cards: heads-up needs 16, three seats 21, four seats 26
    Game(c, [10, 10, 10], seed=1)
    with pytest.raises(ConfigError, match="4 seats of 5 cards with draws need 26 cards.*ranks=7"):
        Game(c, [10] * 4, seed=1)
    with pytest.raises(ConfigError, match="ranks=7"):
        Game(c, [10] * 4, chance=True)
    with pytest.raises(ConfigError, match="ranks=7"):
        simulate([RandomBot()] * 4, hands=1, config=c)
    with pytest.raises(ConfigError, match="ranks=7"):
        c.check_seats(4)


# ---------------------------------------------------------------------------------------------------------
# the engine on small decks


SMALL = [
    GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=1, cap=1),
    GameConfig(game="badugi", ranks=5, draws=1, cap=2),
    GameConfig(game="badugi", ranks=4, suits=2, hand_size=1, draws=3, burn=True),
    GameConfig(game="badacey", ranks=6, draws=2),
    GameConfig(game="badeucy", ranks=7, draws=1, odd_chip="low"),
    GameConfig(game="a5", ranks=5, draws=0),
    GameConfig(game="27", ranks=6, draws=3, burn=True),
]


@pytest.mark.parametrize("config", SMALL, ids=lambda c: f"{c.game}-{c.ranks}x{c.suits}-{c.hand_size}-{c.draws}")
def test_small_games_deal_only_their_deck_and_rank_on_the_full_scale(config: GameConfig) -> None:
    # Random hands to the end: every card dealt is of the deck, hands have the hand size, the hand ends after
    # `draws` draws, and every showdown rank is the reference evaluator's rank of the same cards.
    rules = scoring(config.game)
    deck = set(config.deck)
    showdowns = reshuffles = 0
    for seed in range(150):
        seats = 2 + seed % 2 if len(deck) >= (3 + (config.draws > 0)) * config.hand_size + 1 else 2
        g = Game(config, [30] * seats, seed=seed)
        play_hand(g, [RandomBot(seed * 7 + i) if i else RuleBot(seed) for i in range(seats)])
        assert set(g.dealt) <= deck and len(g.discard_counts) <= config.draws
        assert all(len(h) == config.hand_size for h in g.hands)
        reshuffles += bool(g.reshuffles)
        s = g.settlement
        if s is None:
            continue
        showdowns += 1
        assert len(g.discard_counts) == config.draws
        for seat, hand in enumerate(g.hands):
            if g.folded[seat]:
                continue
            if "low" in rules.halves:
                assert s.low_ranks[seat] == reference.low_rank(tuple(hand), config.game)
            if "badugi" in rules.halves:
                assert s.badugi_ranks[seat] == reference.badugi_rank(tuple(hand), rules.ace_high)
    assert showdowns > 10
    if config.burn and config.draws == 3:
        assert reshuffles > 0


def test_a_small_badugi_hand_settles_on_the_full_scale() -> None:
    # 2-card Badugi: Ac 2d (a two-card badugi) beats Ah 2h (one card, the ace); settle refuses a hand size the
    # game is not dealt.
    s = settle([2, 2], [parse_cards("Ac 2d"), parse_cards("Ah 2h")], game="badugi", hand_size=2)
    assert s.payouts == [4, 0]
    assert s.badugi_ranks == (reference.badugi_rank(parse_cards("Ac 2d")), reference.badugi_rank(parse_cards("Ah")))
    with pytest.raises(ShowdownError, match="badacey hands have 5 cards, not 4"):
        settle([2, 2], [parse_cards("Ac 2d 3h 4s"), parse_cards("Ad 2h 3s 4c")], hand_size=4)
    with pytest.raises(ShowdownError, match="badugi hands have 1 to 4 cards, not 5"):
        settle([2, 2], [parse_cards("Ac 2d 3h 4s 5c"), parse_cards("Ad 2h 3s 4c 5d")], game="badugi", hand_size=5)


def test_given_small_deck_is_checked() -> None:
    c = GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=1)
    g = Game(c, [10, 10], deck=list(c.deck)[::-1])
    assert g.hands == [[9, 6], [10, 8]]  # dealt from the top, one card at a time from seat 1 (left of the button)
    with pytest.raises(BadaceyError, match="card Ks is not in this game's deck of 9 cards"):
        Game(c, [10, 10], deck=list(c.deck[:-1]) + [51])
    with pytest.raises(BadaceyError, match="expected 9 cards"):
        Game(c, [10, 10], deck=range(52))


@pytest.mark.parametrize("config", SMALL[:3], ids=lambda c: f"{c.ranks}x{c.suits}-{c.hand_size}-{c.draws}")
def test_chance_outcomes_enumerate_the_small_deck_and_sum_to_one(config: GameConfig) -> None:
    rnd = random.Random(3)
    g = Game(config, [20, 20], chance=True)
    assert [c for c, _ in g.chance_outcomes()] == list(config.deck)
    for _ in range(40):
        g = Game(config, [20, 20], chance=True)
        while not g.is_over:
            if g.is_chance:
                outcomes = g.chance_outcomes()
                cards = [c for c, _ in outcomes]
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-12 and set(cards) <= set(config.deck)
                held = {c for h in g.hands for c in h} | set(g.chance_cards)
                assert not held & set(cards)
                g = g.chance_child(rnd.choice(cards))
            else:
                g = g.apply(rnd.choice(g.legal_actions()) if g.phase == "betting" else
                            Action("draw", cards=tuple(c for c in g.hands[g.to_act] if rnd.random() < 0.6)))


def _sets_by_enumeration(g: Game) -> dict[tuple[int, ...], float]:
    """Every set the dealing step owed at ``g`` may deal, with its probability, by dealing card by card
    (chance_outcomes and chance_child) through every order."""
    out: dict[tuple[int, ...], float] = defaultdict(float)

    def walk(h: Game, cards: tuple[int, ...], p: float) -> None:
        if not h.is_chance or h.cards_owed == 0 or len(cards) == k:
            out[tuple(sorted(cards))] += p
            return
        for c, q in h.chance_outcomes():
            walk(h.chance_child(c), cards + (c,), p * q)

    k = g.cards_owed
    walk(g, (), 1.0)
    return out


@pytest.mark.backend_independent
def test_chance_sets_equal_card_by_card_enumeration_reshuffles_included() -> None:
    # Two draws of 2-card Badugi on 9 cards with burns: the second draw reshuffles.  At every draw of random
    # hands, the sets chance_sets() gives, their probabilities and the order each is dealt in agree with
    # dealing card by card through every order.
    c = GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=3, burn=True, cap=1)
    rnd = random.Random(11)
    compared = with_reshuffle = 0
    for _ in range(60):
        g = Game(c, [20, 20], chance=True)
        while not g.is_over:
            if g.is_chance:
                if g.cards_owed >= 2 and g.chance_cards == [] and g.phase == "chance" and g._chance[1] is not None:
                    sets = g.chance_sets()
                    want = _sets_by_enumeration(g)
                    got = {tuple(sorted(s)): p for s, p in sets}
                    assert len(got) == len(sets) and set(got) == set(want)
                    assert all(abs(got[s] - want[s]) < 1e-12 for s in want)
                    compared += 1
                    reshuffle = g.cards_owed > len(g.stub) - 1
                    with_reshuffle += reshuffle
                    cards, _ = rnd.choice(sets)
                    h = g.chance_child(*cards)  # each set is dealt in the order given
                    assert not h.is_chance or h.cards_owed == 1
                    g = h
                    continue
                g = g.chance_child(rnd.choice(g.chance_outcomes())[0])
            elif g.phase == "betting":
                g = g.apply(rnd.choice([a for a in g.legal_actions() if a.kind != "fold"]))
            else:
                g = g.apply(Action("draw", cards=tuple(g.hands[g.to_act][:rnd.choice((1, 2, 2))])))
    assert compared > 100 and with_reshuffle > 10


def test_chance_sets_refusals() -> None:
    g = Game(GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=1), [10, 10], chance=True)
    with pytest.raises(IllegalActionError, match="this step deals card by card"):
        g.chance_sets()
    assert g.cards_owed == 4 and g.chance_child(0, 1, 2, 4).hands == [[1, 4], [0, 2]]
    with pytest.raises(IllegalActionError, match="5 cards given, but this dealing step deals only 4"):
        g.chance_child(0, 1, 2, 4, 5)
    with pytest.raises(IllegalActionError, match="not in the stub"):
        g.chance_child(0, 0)
    assert Game("badugi", [10, 10], seed=1).chance_sets() == []


def test_rule_bot_plays_the_draws_a_small_game_has() -> None:
    # RuleBot counts the draws left from the game's own number: in a one-draw game the draw is the last.
    c = GameConfig(game="badugi", ranks=5, draws=1, cap=2)
    result = simulate([RuleBot(), RandomBot()], hands=300, config=c, seed=2)
    assert result.totals[0] > 0 and sum(result.totals) == 0


# ---------------------------------------------------------------------------------------------------------
# sizes


@pytest.mark.backend_independent
def test_tree_size_of_the_named_games_by_formula() -> None:
    # Deals, and the first layers of histories, checked by hand against the formulas: mini Badugi deals
    # C(20, 4) C(16, 4) = 4845 * 1820.
    t = tree_size(SMALL_GAMES["mini-badugi"])
    assert t.deals == 4845 * 1820
    assert t.histories > t.terminal > t.deals and t.information_sets > 0
    with pytest.raises(ConfigError, match="can reach a reshuffle"):
        tree_size(GameConfig(game="badugi", ranks=3, suits=3, hand_size=2, draws=2))


@pytest.mark.backend_independent
def test_the_docs_size_table_is_the_counters() -> None:
    # (docs/solving.md's examples need OpenSpiel: tests/test_envs_openspiel.py runs them.)
    from pathlib import Path

    from badacey_fast.game.small import size_table

    page = Path(__file__).resolve().parents[1] / "docs" / "solving.md"
    text = page.read_text()
    begin = text.index("\n", text.index("<!-- size table")) + 1
    assert text[begin:text.index("<!-- end of size table -->")].strip() == size_table()


@pytest.mark.parametrize("config", SMALL[:4], ids=lambda c: f"{c.game}-{c.ranks}x{c.suits}-{c.hand_size}-{c.draws}")
def test_small_game_histories_replay(config: GameConfig) -> None:
    # JSON and PHH histories carry the small game's size and replay to the same hand, reshuffles included.
    from badacey_fast.game.history import from_json, replay, to_json
    from badacey_fast.game.phh import replay_phh, to_phh

    for seed in range(30):
        g = Game(config, [30, 30], seed=seed)
        play_hand(g, [RandomBot(seed), RandomBot(seed + 100)])
        again = replay(from_json(to_json(g)))
        assert again.config == config
        assert (again.hands, again.stacks, again.payouts, again.log, again.dealt, again.reshuffles) == (
            g.hands, g.stacks, g.payouts, g.log, g.dealt, g.reshuffles)
        phh = replay_phh(to_phh(g))
        assert phh.config == config and phh.stacks == g.stacks and phh.hands == g.hands


@pytest.mark.backend_independent
@pytest.mark.parametrize("key", sorted(SMALL_GAMES))
def test_the_readme_names_every_preset_with_its_sizes(key: str) -> None:
    # The README names each small preset with the counters' deals, information sets and histories.
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    name = key.replace("-badugi", " Badugi").replace("-badacey", " Badacey").replace("-27", " 2-7")
    row = next((line for line in text.splitlines() if line.startswith(f"| {name} |")), None)
    assert row is not None, f"README has no row for {name}"
    t = tree_size(SMALL_GAMES[key])
    assert row.split("|")[3:6] == [f" {t.deals:,} ", f" {t.information_sets:,} ", f" {t.histories:,} "], row
