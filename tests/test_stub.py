"""rules.Stub: the one reshuffle procedure of RULES.md §4, worked by hand, and the issue 9 check that the
engine and policy_equity deal through it alike (same deck, same random source, same discards: the same
cards to every seat, across reshuffles)."""

from __future__ import annotations

import random

import pytest

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.draw import equities
from badacey_fast.draw.equities import deal_draws, policy_equity
from badacey_fast.errors import HandSizeError, IllegalActionError
from badacey_fast.game import Action, Game
from badacey_fast.rules.stub import Stub


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def fc(ids) -> str:
    return format_cards(list(ids))


class Latest:
    """A scripted random source: 0.999 picks the end of the stub list, i.e. after a reshuffle the card
    mucked last (the new stub is the last card followed by the muck in mucking order)."""

    def random(self) -> float:
        return 0.999


class Script:
    """A scripted random source: the given floats in order."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


# ------------------------------------------------------------------------------------------ by hand

def test_a_hand_worked_by_hand_fold_burn_and_the_servers_own_discards():
    s = Stub("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah", rng=Latest())
    a, b, c = s.deal_round(3, 2)
    assert (fc(a), fc(b), fc(c)) == ("As 4s", "2s 5s", "3s 6s")        # one card at a time around
    s.add_to_muck(c)                                                    # seat 2 folds
    assert fc([s.burn()]) == "7s"                                       # first draw: burn, then serve
    assert fc(s.draw(a)) == "8s 9s" and fc(s.draw(b)) == "Ts Js"
    a, b = cards("8s 9s"), cards("Ts Js")
    assert fc([s.burn()]) == "Qs"                                       # second draw
    assert fc(s.order) == "Ks Ah" and fc(s.muck) == "3s 6s 7s As 4s 2s 5s Qs"
    # Seat 0 throws 8s 9s: it gets Ks, then Ah is the last card and it is still owed one: Ah and the muck
    # (the folded 3s 6s, the burned 7s and Qs, every discard) form the new stub -- not 8s 9s, its own
    # discards of this draw, which join the muck only once it is served.
    got = s.draw(a)
    assert fc(got) == "Ks Qs"                                           # Qs: the latest mucked (Latest)
    assert s.reshuffles == [13]                                         # after 13 cards dealt
    assert sorted(s.cards) == sorted(cards("Ah 3s 6s 7s As 4s 2s 5s"))
    assert fc(s.muck) == "8s 9s"
    # Seat 1's discards of the FIRST draw are ordinary muck: it may get them back now.
    assert fc(s.draw(b)) == "5s 2s"
    assert s.burned == list(cards("7s Qs"))
    assert len(s.dealt) == 16 and s.reshuffles == [13]


def test_more_than_one_reshuffle_in_a_hand():
    # Two seats of two cards; 7 cards: the stub runs out on every draw.
    s = Stub("As 2s 3s 4s 5s 6s 7s", rng=Latest())
    a, b = s.deal_round(2, 2)                                           # As 3s / 2s 4s; stub 5s 6s 7s
    a = s.draw(a)                                                       # 5s 6s: 7s is the last card
    assert fc(a) == "5s 6s" and not s.reshuffles
    b = s.draw(b)                                                       # owed 2: 7s + As 3s
    assert fc(b) == "3s As" and s.reshuffles == [6] and fc(s.cards) == "7s"
    a = s.draw(a)                                                       # owed 2: 7s + 2s 4s (not 5s 6s)
    assert fc(a) == "4s 2s" and s.reshuffles == [6, 8] and fc(s.cards) == "7s"
    b = s.draw(b)                                                       # owed 2: 7s + 5s 6s (not 3s As)
    assert fc(b) == "6s 5s" and s.reshuffles == [6, 8, 10]
    assert fc(s.muck) == "3s As"


def test_the_last_card_is_dealt_after_a_reshuffle_and_a_new_last_card_is_kept():
    # Script: 0.0 picks the first card of the new stub, which is the old last card.
    s = Stub("As 2s 3s 4s", rng=Script(0.0))
    s.add_to_muck(cards("Kh Qh"))                  # cards of an earlier hand folded
    assert fc(s.draw((), 3)) == "As 2s 3s"         # no reshuffle: 4s left
    assert fc(s.draw(cards("Ad"), 1)) == "4s"      # reshuffled: 4s Kh Qh, 4s drawn
    assert s.reshuffles == [3] and len(s) == 2 and fc(s.muck) == "Ad"


def test_a_burn_with_only_the_last_card_left_reshuffles_first():
    s = Stub("As 2s 3s", rng=Latest())
    s.add_to_muck(cards("Kd"))
    s.deal(2)
    assert fc([s.burn()]) == "Kd" and s.reshuffles == [2] and fc(s.cards) == "3s"
    assert fc(s.muck) == "Kd" and fc(s.burned) == "Kd"   # the burn card is muck: it comes back next time


def test_nothing_owed_no_reshuffle():
    s = Stub("As 2s", rng=Latest())
    s.add_to_muck(cards("Kd"))
    s.deal(1)
    assert s.draw(()) == [] and s.draw((), 0) == [] and not s.reshuffles and fc(s.cards) == "2s"


def test_refusals_change_nothing():
    s = Stub("As 2s 3s 4s", rng=Latest())
    s.add_to_muck(cards("Kd"))
    before = s.state()
    with pytest.raises(IllegalActionError, match="the deck ran out: 5 cards are owed, 4 can be dealt"):
        s.draw(cards("Ah 2h 3h 4h 5h"))
    with pytest.raises(IllegalActionError, match="the deck ran out"):
        s.deal(5)
    with pytest.raises(HandSizeError, match="int 0 or more"):
        s.draw((), -1)
    assert s.state() == before
    empty = Stub("As", rng=Latest())
    with pytest.raises(IllegalActionError, match="the deck ran out"):
        empty.burn()
    assert empty.state() == Stub("As").state()


def test_a_script_is_dealt_in_order_across_a_reshuffle_and_a_card_not_in_the_stub_is_refused():
    script = list(range(47))                        # 47 cards in order: the stub is down to 5
    s = Stub(script=script + [47, 48, 49, 50, 2, 3], rng=random.Random(1))
    s.deal(47)
    s.add_to_muck([0, 1, 2])                        # mucked (Ac Ad Ah); 3 (As) is the drawing player's
    before = s.state()
    with pytest.raises(IllegalActionError, match=r"scripted card As is not in the stub"):
        s.draw([3], 6)                              # 47..50, then 51 is the last: Ah comes back, As never
    assert s.state() == before
    assert s.draw([3, 4], 5) == [47, 48, 49, 50, 2]  # the script still holds 3 for the next card
    assert s.reshuffles == [51]
    assert set(s.cards) == {51, 0, 1} and s.muck == [3, 4]


def test_random_stub_never_deals_its_last_card_and_deals_each_card_once_between_reshuffles():
    s = Stub(rng=random.Random(7))
    dealt = s.deal(51)
    assert len(set(dealt)) == 51 and len(s) == 1 and set(dealt) | set(s.cards) == set(range(52))
    with pytest.raises(IllegalActionError):
        s.deal(1)


def test_deal_round_rotates_and_copy_is_independent():
    s = Stub("As 2s 3s 4s 5s 6s 7s 8s", rng=random.Random(2))
    assert [fc(h) for h in s.deal_round(3, 2, first=2)] == ["2s 5s", "3s 6s", "As 4s"]
    t = s.copy(random.Random(2))
    assert t.state() == s.state()
    t.deal(1)
    assert len(s) == 2 and len(t) == 1 and s.dealt != t.dealt
    with pytest.raises(TypeError, match="not both"):
        Stub("As", script=[3])


# ------------------------------------------------------------------------------------------ issue 9

def scripted_policies(n: int, seed: int, heavy: bool) -> list:
    """Per seat, per draw, which positions of the hand to throw (a fixed script of discards)."""
    rng = random.Random(seed)
    table = [{left: sorted(rng.sample(range(5), rng.randint(3 if heavy else 0, 5))) for left in (1, 2, 3)}
             for _ in range(n)]

    def policy(seat):
        return lambda hand, left: tuple(hand[i] for i in table[seat][left])

    return [policy(s) for s in range(n)]


def recording(policies, seen):
    return [lambda hand, left, p=p, s=s: (seen.append((s, left, tuple(hand))), p(hand, left))[1]
            for s, p in enumerate(policies)]


def engine_deal(deck, rng, policies, seen):
    """The engine: seat 0 left of the button, everybody checks or calls, discards as scripted."""
    n = len(policies)
    g = Game(stacks=[10_000] * n, button=n - 1, deck=deck, rng=rng)
    while not g.is_over:
        if g.phase == "drawing":
            seat = g.to_act
            hand = tuple(g.hands[seat])
            left = 4 - len(g.discard_counts)
            seen.append((seat, left, hand))
            g.apply(Action("draw", cards=tuple(policies[seat](hand, left))))
        else:
            kinds = [a.kind for a in g.legal_actions()]
            g.apply("check" if "check" in kinds else "call")
    return g


@pytest.mark.parametrize("source", ["random", "latest"])
def test_engine_and_policy_equity_deal_every_seat_the_same_cards(source):
    reshuffled = again = 0
    for k in range(60):
        n = 2 + k % 5
        deck = list(range(52))
        random.Random(1000 + k).shuffle(deck)
        policies = scripted_policies(n, k, heavy=k % 3 != 0)
        rng = (lambda: random.Random(k)) if source == "random" else Latest
        seen_engine: list = []
        g = engine_deal(deck, rng(), policies, seen_engine)
        seen_equity: list = []
        stub = Stub(deck, rng=rng())
        final = deal_draws(stub, [None] * n, recording(policies, seen_equity), draws=3)
        # Every seat holds the same cards before each draw and at the end, dealt in the same order.
        assert seen_equity == seen_engine
        assert final == [tuple(h) for h in g.hands]
        assert stub.dealt == g.dealt and stub.reshuffles == g.reshuffles
        reshuffled += bool(g.reshuffles)
        again += len(g.reshuffles) > 1
    assert reshuffled > 30 and again > 10      # many hands reshuffled, many more than once


def test_policy_equity_deals_each_sample_through_deal_draws(monkeypatch):
    calls = []

    def spy(stub, hands, policies, draws=3, **options):
        assert isinstance(stub, Stub)
        out = deal_draws(stub, hands, policies, draws, **options)
        calls.append(stub.reshuffles[:])
        return out

    monkeypatch.setattr(equities, "deal_draws", spy)
    throw_all = lambda hand, left: hand  # noqa: E731
    policy_equity([None] * 6, throw_all, draws=3, samples=12, seed=3)
    assert len(calls) == 12 and all(len(r) >= 2 for r in calls)


def test_policy_equity_never_deals_a_seat_its_own_discards_of_the_draw_and_is_reproducible():
    seen: list = []

    def thrower(seat):
        def policy(hand, left):
            seen.append((seat, left, hand))
            return hand[:4]
        return policy

    a = policy_equity([None] * 6, [thrower(s) for s in range(6)], draws=3, samples=30, seed=9)
    # Per sample the calls come seat by seat, draw by draw: the hand a seat holds at its next draw shares
    # only the kept card with its hand before (its four discards did not come back in the same draw).
    per_sample = 6 * 3
    assert len(seen) == 30 * per_sample
    for i in range(0, len(seen), per_sample):
        calls = seen[i:i + per_sample]
        for seat in range(6):
            mine = [hand for s, _, hand in calls if s == seat]
            for before, after in zip(mine, mine[1:]):
                assert set(before[:4]).isdisjoint(after) and after[0] == before[4]
    b = policy_equity([None] * 6, [thrower(s) for s in range(6)], draws=3, samples=30, seed=9)
    assert a == b


def test_a_scripted_deal_at_once_is_the_deal_card_by_card():
    """A script's cards dealt k at a time (the replay's path: _scripted) are the cards, placeholders and
    stub left that dealing them one at a time gives (the reference: _one, card by card): named cards,
    repeated ones, cards not in the stub, UNKNOWN entries with named and unnamed last cards."""
    from badacey_fast.rules.stub import UNKNOWN

    for seed in range(400):
        r = random.Random(seed)
        pool = r.sample(range(52), r.randint(8, 52))
        script = [UNKNOWN if r.random() < 0.55 else r.choice(pool if r.random() < 0.9 else range(52))
                  for _ in range(r.randint(1, 40))]
        at_once, one_by_one = Stub(script=script, cards=pool, rng=random.Random(seed)), \
            Stub(script=script, cards=pool, rng=random.Random(seed))
        dealt: list[int] = []
        while len(dealt) < len(script) and len(at_once.cards) > 1:
            k = min(r.randint(1, 6), len(script) - len(dealt), len(at_once.cards) - 1)
            try:
                got = at_once.draw((), k)
            except IllegalActionError:
                with pytest.raises(IllegalActionError):
                    one_by_one.draw((), k)
                break
            assert got == [one_by_one._one() for _ in range(k)], seed
            dealt += got
            assert (at_once.cards, at_once.dealt, at_once._spos) == (one_by_one.cards, one_by_one.dealt,
                                                                      one_by_one._spos), seed
    # Worked by hand: stub (bottom to top) 2c 3c 4c 5c; the script is 5c, UNKNOWN, 4c.  5c is taken from
    # the top; the UNKNOWN's stand-in is the top card no entry names: 4c is named (next), so 3c, dealt as
    # a placeholder; then 4c; 2c is left.
    s = Stub(script=[parse_cards("5c")[0], UNKNOWN, parse_cards("4c")[0]], cards=parse_cards("2c 3c 4c 5c"),
             rng=random.Random(0))
    got = s.draw((), 3)
    assert got[0] == parse_cards("5c")[0] and got[2] == parse_cards("4c")[0]
    assert got[1] == parse_cards("3c")[0] + UNKNOWN and s.cards == list(parse_cards("2c"))


def test_a_scripted_deal_refused_half_way_changes_nothing():
    # No reshuffle inside the deal (the replay's hot path): the first card (5) is dealt before the second
    # (Ac, dealt already) is refused, and the refusal puts the stub back as it was.
    s = Stub(script=[0, 1, 5, 0, 6], rng=random.Random(1))
    assert s.deal(2) == [0, 1]
    before = s.state()
    with pytest.raises(IllegalActionError, match="scripted card Ac is not in the stub"):
        s.draw((), 2)
    assert s.state() == before
    with pytest.raises(IllegalActionError, match="scripted card Ac is not in the stub"):
        s.draw((), 2)                               # refused again: the script did not move on
    assert s.state() == before
