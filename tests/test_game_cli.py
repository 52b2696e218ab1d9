"""Bots, simulate, seat views, and the `badacey simulate` / `badacey play` commands (play driven by stdin)."""

from __future__ import annotations

import io
import json
import random
import sys

import pytest

from badacey_fast.cli.command import main
from badacey_fast.cli.game import run_play
from badacey_fast.game import ConfigError, Game, draw
from badacey_fast.game.bots import RandomBot, RuleBot, keep_cards
from badacey_fast.game.simulate import simulate
from badacey_fast import parse_cards, format_cards


def test_views_hide_other_seats_cards_and_the_deck():
    g = Game(stacks=[40] * 4, seed=9)
    g.apply("call")
    for seat in range(4):
        v = g.view(seat)
        d = v.to_dict()
        text = json.dumps(d)
        assert d["hand"] == g.hands[seat]
        assert "stub" not in d and "muck" not in d and "dealt" not in d
        others = {c for s in range(4) if s != seat for c in g.hands[s]}
        numbers = set(d["hand"]) | {c for a in d["legal_actions"] for c in (a[2] or [])}
        assert not others & numbers
        assert all(format_cards([c]) not in text for c in others)
    # Draws are public only as counts.
    while g.phase == "betting":
        g.apply("check" if g.to_call() == 0 else "call")
    thrown = tuple(g.hands[g.to_act][:2])
    g.apply(draw(thrown))
    log = g.view(0).public_log()
    assert log[-1][1:] == ("draw", None, 2)


def test_bots_always_choose_legal_actions(backend):
    rng = random.Random(4)
    for h in range(150):
        g = Game(rng.choice(["badacey", "badeucy", "badugi", "a5", "27"]), [rng.randint(3, 50) for _ in range(4)],
                 seed=h)
        bots = [RuleBot(seed=h), RandomBot(seed=h), RuleBot(seed=h + 1), RandomBot(seed=h + 1)]
        while not g.is_over:
            a = bots[g.to_act](g.view(g.to_act))
            if a.kind == "draw":
                assert set(a.cards) <= set(g.hands[g.to_act])
            else:
                assert a in g.legal_actions()
            g.apply(a)


def test_rule_bot_keeps_badugi_and_low_cards():
    assert format_cards(keep_cards(parse_cards("As 2h 3h Kd Ks"), "badacey")) == "As 2h 3h"
    # 2-7: the ace is high (not kept), the badugi of the deuce-to-seven game is ace-high too.
    assert format_cards(keep_cards(parse_cards("As 2h 3d 4c 7s"), "27")) == "2h 3d 4c 7s"
    assert format_cards(keep_cards(parse_cards("Ac 2d 3h 4s"), "badugi")) == "Ac 2d 3h 4s"


def test_simulate_is_zero_sum_reproducible_and_rule_bot_beats_random():
    a = simulate([RuleBot(), RandomBot(), RandomBot()], hands=600, seed=11)
    b = simulate([RuleBot(), RandomBot(), RandomBot()], hands=600, seed=11)
    assert a == b and sum(a.totals) == 0 and a.hands == 600
    assert a.per100[0] - a.ci95[0] > 0            # the rule-of-thumb bot wins, beyond its interval
    assert all(c > 0 for c in a.ci95)
    with pytest.raises(ConfigError, match="2 to 6 seats"):
        simulate([RandomBot()] * 7, hands=1)


def test_badacey_simulate_prints_a_table_and_a_progress_bar(capsys, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)  # the bar is drawn only on a terminal
    assert main(["simulate", "--hands", "1500", "--bots", "rule,random", "--seed", "3"]) == 0
    out, _ = capsys.readouterr()
    assert "chips/100 hands" in out and "rule" in out and "1500 hands" in out
    assert "1500/1500" in terminal.getvalue() and "simulate" in terminal.getvalue()
    monkeypatch.undo()
    assert main(["simulate", "--bots", "random,shark"]) == 2
    assert "unknown bot 'shark'" in capsys.readouterr().err


def test_play_a_full_hand_from_stdin_to_the_showdown():
    # Call/check everything and stand pat: the hand must reach a showdown explained in words.
    moves = io.StringIO("c\n" + "pat\nk\nc\nc\n" * 6)
    out = io.StringIO()
    run_play([RandomBot(seed=2), RuleBot(seed=3)], game="badacey", seed=21, inp=moves, out=out)
    text = out.getvalue()
    assert "Your cards:" in text and "Your move" in text and "--- draw 1 ---" in text
    assert "--- result ---" in text
    # The showdown in the seeds' words: each half named with its winner and the winning hand.
    assert "Low half:" in text and "Badugi half:" in text and " low" in text and "badugi" in text
    assert "this hand" in text


def test_play_rejects_bad_moves_and_reprompts():
    out = io.StringIO()
    run_play([RandomBot(seed=1)], seed=3, inp=io.StringIO("zap\nf\n"), out=out)
    text = out.getvalue()
    assert "not possible now: zap" in text


def test_badacey_play_command_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("f\nf\nf\n"))
    assert main(["play", "--bots", "random", "--seed", "1", "--hands", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("=== Badacey: hand") == 2
