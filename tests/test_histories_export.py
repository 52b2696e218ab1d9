"""Real hands out: JSON (with the engine's own history), PHH, the table of hands and the players' stats."""

from __future__ import annotations

import json
import math
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from badacey_fast.errors import HandHistoryError
from badacey_fast.game.history import replay as replay_history
from badacey_fast.histories import parse, stats, to_table
from badacey_fast.histories.export import PHH_VARIANTS, to_phh

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

DATA = Path(__file__).parent / "data" / "histories"


def _all() -> list:
    return [h for name in ("pokerstars.txt", "fulltilt.txt", "kingsclub.txt", "winamax.txt", "merge.xml")
            for h in parse(DATA / name, on_bad_hand="error")]


def test_json_has_every_field_and_the_engines_history_which_replays():
    for hand in _all():
        d = json.loads(hand.to_json())
        assert d["format"] == "badacey_fast/real-hand" and d["hand_id"] == hand.hand_id
        assert d["collected"] == hand.collected and len(d["actions"]) == len(hand.actions)
        if d["engine"] is None:
            assert d["engine_skipped"]
            continue
        game = replay_history(d["engine"])  # the engine's own format: replays to its recorded result
        assert game.is_over and list(game.contrib) == list(hand.replay().contrib)
    badeucy = list(parse(DATA / "kingsclub.txt"))[1]
    engine = json.loads(badeucy.to_json())["engine"]
    assert "??" in engine["dealt"] and engine["config"]["game"] == "badeucy"


def test_phh_writes_every_game_with_a_code_and_refuses_the_others():
    written = {}
    for hand in _all():
        try:
            text = to_phh(hand)
        except HandHistoryError as exc:
            assert hand.game is None or hand.betting != "fixed" or not hand.players
            assert "no PHH variant" in str(exc) or "no player dealt in" in str(exc)
            continue
        data = tomllib.loads(text)
        written[(hand.site, hand.hand_id)] = data
        assert data["variant"] == PHH_VARIANTS[(hand.game, hand.betting)]
        assert len(data["players"]) == len(data["starting_stacks"]) == len(data["antes"]) == len(hand.players)
        assert sum(data["winnings"]) == sum(hand.collected.values()) and data["_rake"] == (hand.rake or 0)
    assert {d["variant"] for d in written.values()} == {"FB", "F2L3D", "FAL3D", "FBAL3D", "FB2L3D"}
    stars = written[("PokerStars", "900000001")]
    # p1 is the seat left of the button (Alma, the small blind); Bruno's and Cora's cards are unseen.
    assert stars["players"] == ["Alma", "Bruno", "Cora"] and stars["blinds_or_straddles"] == [10, 25, 0]
    assert stars["actions"][:4] == ["d dh p1 Kd4s7h2c", "d dh p2 ????????", "d dh p3 ????????", "p3 cbr 50"]
    assert "p1 sd Kd" in stars["actions"] and "d dh p1 9d" in stars["actions"] and "p2 sd ????" in stars["actions"]
    assert stars["finishing_stacks"] == [1240 - 175, 800 - 175 + 405, 1510 - 75]
    with pytest.raises(HandHistoryError, match="no PHH variant for no limit \"Hold'em\""):
        to_phh(list(parse(DATA / "pokerstars.txt"))[3])


def test_pokerkit_reads_the_phh_of_its_own_games():
    pokerkit = pytest.importorskip("pokerkit")  # pokerkit needs Python 3.11
    read = 0
    for hand in _all():
        if hand.game in ("27", "badugi") and hand.betting == "fixed" and hand.players:
            hh = pokerkit.HandHistory.loads(to_phh(hand))
            assert sorted(hh.players) == sorted(hand.players)
            assert sum(hh.starting_stacks) == sum(s.stack for s in hand.seats if s.dealt)
            read += 1
    assert read == 8  # PokerStars 4, Full Tilt 1, Winamax 2, Merge 1


def test_the_table_has_one_row_per_hand_per_player():
    hands = list(parse(DATA / "pokerstars.txt"))
    t = to_table(hands)
    assert t.num_rows == 3 + 3 + 5 + 2 + 4
    rows = [r for r in t.to_pylist() if r["hand_id"] == "900000001"]
    assert [(r["player"], r["position"], r["actions_0"], r["actions_1"], r["actions_2"], r["actions_3"]) for r in rows] == [
        ("Alma", "SB", "c", "kc", "b", "b"), ("Bruno", "BB", "c", "b", "c", "c"), ("Cora", "BTN", "r", "c", "f", "")]
    assert [(r["drawn_1"], r["drawn_2"], r["drawn_3"]) for r in rows] == [(1, 0, 0), (2, 1, 1), (1, 1, None)]
    assert [(r["put_in"], r["won"], r["net"], r["net_bb"]) for r in rows] == [
        (175, 0, -175, -3.5), (175, 405, 230, 4.6), (75, 0, -75, -1.5)]
    assert [(r["showdown"], r["won_showdown"], r["cards_dealt"], r["cards_final"]) for r in rows] == [
        (True, False, "Kd 4s 7h 2c", "4s 7h 2c 9d"), (True, True, None, "3h 5c 8d As"), (False, False, None, None)]
    assert rows[0]["started_utc"].isoformat() == "2024-03-05T20:14:03+00:00" and rows[0]["started"] == "2024-03-05T15:14:03-05:00"
    frame = to_table(hands, pandas=True)
    assert list(frame.columns) == t.column_names and len(frame) == t.num_rows


def test_stats_formulas_on_hands_worked_by_hand():
    hands = list(parse(DATA / "pokerstars.txt"))[:3]  # three cash hands: Alma, Bruno, Cora in all three
    s = stats(hands)
    alma = s.loc[("Alma", "badugi")]
    assert int(alma.hands) == 1 and alma.vpip == 1.0 and alma.pfr == 0.0
    assert alma.three_bet == 0.0  # she faced Cora's raise (one raise) and called it
    assert alma.cards_per_draw == pytest.approx(1 / 3) and alma.stand_pat == pytest.approx(2 / 3)
    assert alma.showdown == 1.0 and alma.won_showdown == 0.0 and alma.net == Decimal("-1.75")
    td = s.loc[("Alma", "27")]
    # Hand 2: raised first in from the button, lost 5.50 (2.75 big bets); hand 3: raised, won 3 (1.5 bb).
    assert int(td.hands) == 2 and td.vpip == 1.0 and td.pfr == 1.0 and td.net == Decimal("-2.50")
    assert td.bb_per_100 == pytest.approx(100 * (-2.75 + 1.5) / 2)
    half = 1.96 * math.sqrt(((-2.75 + 0.625) ** 2 + (1.5 + 0.625) ** 2) / 1) / math.sqrt(2) * 100
    assert (td.bb_per_100_low, td.bb_per_100_high) == (pytest.approx(-62.5 - half), pytest.approx(-62.5 + half))
    # Fold to steal: Alma's first raises, from the button (hand 2) and the CO (hand 3), were steals.  In the
    # blinds Bruno called one (hand 2), Cora called one and folded to the other, Dmitri folded (hand 3).
    assert s.loc[("Bruno", "27"), "fold_to_steal"] == 0.0 and s.loc[("Cora", "27"), "fold_to_steal"] == 0.5
    assert s.loc[("Dmitri", "27"), "fold_to_steal"] == 1.0
    assert math.isnan(s.loc[("Elif", "27"), "fold_to_steal"])  # never in a blind against a steal
    assert math.isnan(s.loc[("Elif", "27"), "cards_per_draw"])  # never drew
    assert stats(to_table(hands)).equals(s)
