"""Bots, simulate, seat views, and the `badacey simulate` / `badacey play` commands (play driven by stdin)."""

from __future__ import annotations

import io
import json
import os
import random
import sys

import pytest

from badacey_fast.cli.command import main
from badacey_fast.cli.game import run_play
from badacey_fast.errors import ConfigError, IllegalActionError
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


def test_play_refuses_to_save_over_the_file_its_moves_come_from(monkeypatch, capsys, tmp_path):
    moves = tmp_path / "moves.jsonl"
    moves.write_text("f\nf\n")
    with open(moves, encoding="utf-8") as f:  # badacey play --save moves.jsonl < moves.jsonl
        monkeypatch.setattr("sys.stdin", f)
        assert main(["play", "--bots", "random", "--seed", "1", "--hands", "2", "--save", str(moves)]) == 2
    err = capsys.readouterr().err
    assert f"output '{moves}' is the input" in err and len(err.splitlines()) == 1
    assert moves.read_text() == "f\nf\n" and os.listdir(tmp_path) == ["moves.jsonl"]
    with open(moves, encoding="utf-8") as f:  # another file: played and saved
        monkeypatch.setattr("sys.stdin", f)
        assert main(["play", "--bots", "random", "--seed", "1", "--hands", "2", "--save", str(tmp_path / "h.jsonl")]) == 0
    assert "wrote 2 hand histories" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------------
# badacey play: every bad input asked again; help, quit, shorthands, the end of input (issue 24 item 4)


def _hand_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Your cards:"))


def test_play_asks_again_for_a_draw_naming_a_card_not_in_the_hand():
    # Seed 3 deals seat 0 no king of spades (checked below, so the typo really names a card not held).
    moves = io.StringIO("c\nKs\nKs Ks\nk\nzap\npat\n" + "k\nc\npat\n" * 6)
    out = io.StringIO()
    run_play([RandomBot(seed=1)], seed=3, inp=moves, out=out)
    text = out.getvalue()
    draw_cards = text.split("--- draw 1 ---")[1]
    assert "Ks" not in _hand_line(draw_cards).split(":")[1]
    assert "Ks is not in your hand (" in text                         # the typo: refused, asked again
    assert "not possible now: k (this is a draw)" in text              # a betting letter while drawing
    assert "cannot read 'zap' as the cards to throw" in text
    assert text.count("Your move") >= 6 and "--- result ---" in text   # the hand went on to its end


def test_play_help_quit_and_the_letters_people_use(monkeypatch, capsys):
    # Heads-up, seat 0 is the button and small blind: facing the big blind, 'k'/'x' cannot check.
    monkeypatch.setattr("sys.stdin", io.StringIO("help\nx\nc\nquit\nf\n"))
    assert main(["play", "--bots", "random", "--seed", "1", "--hands", "3"]) == 0
    out = capsys.readouterr().out
    assert "Legal now: fold (f), call 1 (c), raise to 4 (r or b)." in out
    assert "not possible now: x (check); legal: fold, call 1, raise to 4" in out
    assert "(leaving the table)" in out and out.count("=== Badacey: hand") == 1     # quit: no more hands
    assert "f\n" not in out.split("(leaving the table)")[1]                     # nothing read after quit


def test_play_c_checks_when_nothing_is_owed_and_b_raises_a_bet():
    from badacey_fast.cli.game import _betting_move  # the letters' one home

    g = Game(stacks=[40, 40], seed=1)                  # heads-up: seat 0 (button) faces the big blind
    assert _betting_move(g, "b") == next(a for a in g.legal_actions() if a.kind == "raise")
    assert _betting_move(g, "c").kind == "call" and _betting_move(g, "call 1").kind == "call"
    g.apply("call").apply("check").apply(draw()).apply(draw())  # the second round: nothing owed
    assert _betting_move(g, "c").kind == "check" and _betting_move(g, "x").kind == "check"
    assert _betting_move(g, "r").kind == "bet" and _betting_move(g, "b").kind == "bet"
    with pytest.raises(IllegalActionError, match="not possible now: f .fold.; legal: check, bet 2"):
        _betting_move(g, "f")
    with pytest.raises(IllegalActionError, match="not possible now: 7h kd .this is a betting round|not possible"):
        _betting_move(g, "7h kd")


def test_play_refuses_no_hands(capsys):
    assert main(["play", "--hands", "0"]) == 2
    assert "hands must be a positive int, got 0" in capsys.readouterr().err


def test_play_ends_cleanly_at_the_end_of_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("c\n"))
    assert main(["play", "--bots", "rule,random", "--seed", "5", "--hands", "4"]) == 0
    out = capsys.readouterr().out
    assert "(end of input: leaving the table)" in out and out.count("=== Badacey: hand") == 1


def test_play_and_simulate_help_state_the_bots_default_and_print_one_percent_sign(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default rule,random,random,random,random,random" in text and "module:Class" in text
    assert "95% confidence interval" in text and "95% band" in text and "%%" not in text
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default rule,rule" in text and "'help'" in text and "'quit'" in text and "%%" not in text


# ------------------------------------------------------------------------------------------------------
# --bots plugins (issue 24): module:Class or path/to/file.py:Class, mixed with built-in names

PLUGIN = '''
from badacey_fast.game.actions import CALL, CHECK, DRAW, Action


class CallingStation:
    """Calls or checks every bet, stands pat: a bot of one's own."""
    name = "station"

    def __call__(self, view):
        acts = view.legal_actions()
        if acts[0].kind == DRAW:
            return Action(DRAW, None, ())
        return next(a for a in acts if a.kind in (CHECK, CALL))


class NeedsArguments:
    def __init__(self, aggression):
        self.aggression = aggression

    def __call__(self, view):
        return view.legal_actions()[0]


class NoCall:
    pass


def takes_two(view, other):
    return None


class ReturnsNumber:
    def __call__(self, view):
        return 42


class Raises:
    def __call__(self, view):
        raise RuntimeError("out of ideas")
'''


@pytest.fixture
def plugin_file(tmp_path):
    path = tmp_path / "mybots.py"
    path.write_text(PLUGIN)
    return path


def test_simulate_plays_a_plugin_from_a_file_or_a_module_beside_built_in_bots(plugin_file, monkeypatch, capsys):
    assert main(["simulate", "--hands", "200", "--seed", "4", "--bots", f"rule,{plugin_file}:CallingStation",
                 "--json"]) == 0
    by_path = json.loads(capsys.readouterr().out)
    assert [s["bot"] for s in by_path["seats"]] == ["rule", "station"] and by_path["engine"] == "python"
    monkeypatch.syspath_prepend(str(plugin_file.parent))
    assert main(["simulate", "--hands", "200", "--seed", "4", "--bots", "rule,mybots:CallingStation"]) == 0
    out = capsys.readouterr().out
    assert "Python hand loop: plugin bots play in Python" in out and "station" in out
    # The same bots, seed and loop: the same result whichever way the plugin was named.
    assert main(["simulate", "--hands", "200", "--seed", "4", "--bots", "rule,mybots:CallingStation",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == by_path


@pytest.mark.parametrize("spec, words", [
    ("no_such_module_xyz:Bot", "no module named 'no_such_module_xyz'"),
    ("{file}:Missing", "has no 'Missing'"),
    ("{dir}/absent.py:Bot", "no file"),
    ("{file}:NeedsArguments", "a plugin class is called with no arguments"),
    ("{file}:NoCall", "is not a bot: a bot is a callable bot(view) -> Action"),
    ("{file}:takes_two", "cannot be called with one argument"),
    ("shark", "unknown bot 'shark'"),
    ("{dir}/broken.py:Bot", "importing '{dir}/broken.py' failed: ZeroDivisionError"),
])
def test_a_bad_plugin_is_one_line_and_status_2(plugin_file, capsys, spec, words):
    (plugin_file.parent / "broken.py").write_text("class Bot:\n    pass\n\n1 / 0\n")
    spec, words = (x.format(file=plugin_file, dir=plugin_file.parent) for x in (spec, words))
    for command in (["simulate", "--hands", "10"], ["play"]):
        assert main(command + ["--bots", f"random,{spec}"]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and words in err, err


@pytest.mark.parametrize("name, words", [("ReturnsNumber", "at seat 1 returned 42: a bot returns an Action"),
                                         ("Raises", "at seat 1 failed: RuntimeError: out of ideas")])
def test_a_plugin_going_wrong_mid_run_is_one_line_naming_it(plugin_file, monkeypatch, capsys, name, words):
    assert main(["simulate", "--hands", "50", "--bots", f"random,{plugin_file}:{name}"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"bot '{plugin_file}:{name}' {words}" in err, err
    monkeypatch.setattr("sys.stdin", io.StringIO("c\n" + "k\npat\n" * 4))
    assert main(["play", "--bots", f"{plugin_file}:{name}", "--seed", "2", "--hands", "3"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and words in err, err


def test_play_against_a_plugin(plugin_file, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("c\n" + "k\npat\n" * 4))
    assert main(["play", "--bots", f"{plugin_file}:CallingStation", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Seat 1 (station)" in out and "--- result ---" in out


# ------------------------------------------------------------------------------------------------------
# simulate's outputs: --json, -o records, --save histories, --plot


def _json_run(capsys, *argv: str) -> dict:
    assert main(["simulate", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_is_the_library_result(capsys, backend):
    got = _json_run(capsys, "--hands", "400", "--seed", "9", "--bots", "rule,random,random", "--game", "badeucy")
    lib = simulate([RuleBot(), RandomBot(), RandomBot()], hands=400, seed=9, game="badeucy")
    assert got == {"game": "badeucy", "seed": 9, "engine": "c" if backend == "c" else "python", **lib.to_dict()}
    seats = got["seats"]
    assert [s["total"] for s in seats] == list(lib.totals) and all(type(s["total"]) is int for s in seats)
    assert sum(s["total"] for s in seats) == 0 and got["big_blind"] == 2
    assert [s["bb100"] for s in seats] == [p / 2 for p in lib.per100]
    assert [s["ci95"] for s in seats] == list(lib.ci95) and got["hands"] == 400


@pytest.mark.parametrize("name", ["hands.parquet", "hands.csv", "hands.jsonl"])
def test_simulate_writes_one_row_a_hand_that_pandas_reads_with_readable_cards(tmp_path, capsys, name):
    import pandas as pd

    target = tmp_path / name
    got = _json_run(capsys, "--hands", "300", "--seed", "2", "--bots", "rule,random,random", "-o", str(target))
    frame = {"hands.parquet": pd.read_parquet, "hands.csv": pd.read_csv,
             "hands.jsonl": lambda p: pd.read_json(p, lines=True)}[name](target)
    assert len(frame) == 300 and list(frame["hand"]) == list(range(300))
    assert [int(frame[f"net_{s}"].sum()) for s in range(3)] == [s["total"] for s in got["seats"]]
    for s in range(3):
        hands = [parse_cards(text) for text in frame[f"cards_{s}"]]     # text such as "As 2h 3d 4c 5s"
        assert all(len(h) == 5 for h in hands)
    row = [parse_cards(frame[f"cards_{s}"][0]) for s in range(3)]
    assert len({c for h in row for c in h}) == 15                      # one deck: no card twice in a hand
    assert sorted(os.listdir(tmp_path)) == [name]                      # no temporary left beside it


def test_simulate_records_through_dask_are_the_library_records(tmp_path, capsys):
    import pandas as pd

    from badacey_fast.dask import simulate as simulate_dask

    target = tmp_path / "hands.parquet"
    got = _json_run(capsys, "--hands", "250", "--seed", "3", "--bots", "rule,random", "--dask", "--local-scheduler",
                    "sync", "--partition-hands", "100", "-o", str(target), "--no-progress")
    lib = simulate_dask([RuleBot(), RandomBot()], 250, 3, partition_hands=100, scheduler="sync", records=True)
    assert lib.records is not None and [s["total"] for s in got["seats"]] == list(lib.totals)
    frame = pd.read_parquet(target)
    assert frame.equals(lib.records.to_pandas()) and len(frame) == 250


def test_simulate_refuses_an_unknown_output_extension_before_playing(tmp_path, capsys):
    for flag, name, words in (("-o", "hands.xlsx", "expected .parquet, .csv or .jsonl"),
                              ("--save", "hands.txt", "expected .phhs or .jsonl"),
                              ("--plot", "net.xyz", "unknown extension '.xyz' for a --plot image")):
        assert main(["simulate", "--hands", "10", flag, str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and words in err
    assert main(["simulate", "--hands", "10", "-o", str(tmp_path / "a.csv"), "--save", str(tmp_path / "a.csv")]) == 2
    assert "name the same file" in capsys.readouterr().err
    assert main(["simulate", "--hands", "10", "--dask", "--save", str(tmp_path / "a.phhs")]) == 2
    assert "drop --dask" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", ["hands.phhs", "hands.jsonl"])
def test_simulate_saves_every_hand_history_and_they_replay_to_its_totals(tmp_path, capsys, name):
    from badacey_fast.game.history_file import read_histories

    target = tmp_path / name
    got = _json_run(capsys, "--hands", "150", "--seed", "6", "--bots", "rule,random,random", "--save", str(target))
    games = read_histories(target)
    assert len(games) == 150 and got["engine"] == "python"
    assert [sum(g.winnings[s] for g in games) for s in range(3)] == [s["total"] for s in got["seats"]]
    assert [g.button for g in games[:4]] == [0, 1, 2, 0]
    # The same run in the library, saved by its own HistoryFile, gives the same hands.
    from badacey_fast.game.history_file import HistoryFile

    again = tmp_path / ("again" + target.suffix)
    with HistoryFile(again) as out:
        lib = simulate([RuleBot(), RandomBot(), RandomBot()], hands=150, seed=6, save=out)
    assert again.read_text() == target.read_text() and list(lib.totals) == [s["total"] for s in got["seats"]]
    with pytest.raises(ConfigError, match="keeps no hand histories"):
        with HistoryFile(tmp_path / "c.phhs") as out:
            simulate([RuleBot(), RandomBot()], hands=5, save=out, engine="c")


def test_an_interrupted_simulation_leaves_the_old_files(tmp_path, plugin_file, capsys):
    plugin_file.write_text(PLUGIN + '''

class Breaks:
    name = "breaks"

    def __init__(self):
        self.calls = 0

    def __call__(self, view):
        self.calls += 1
        if self.calls > 200:
            raise ValueError("the bot broke down")
        return view.legal_actions()[0] if view.phase == "drawing" else view.legal_actions()[-1]
''')
    saved, rows = tmp_path / "hands.phhs", tmp_path / "hands.csv"
    saved.write_text("old hands\n")
    rows.write_text("old rows\n")
    assert main(["simulate", "--hands", "500", "--bots", f"random,{plugin_file}:Breaks", "--save", str(saved),
                 "-o", str(rows)]) == 2
    assert "the bot broke down" in capsys.readouterr().err
    assert saved.read_text() == "old hands\n" and rows.read_text() == "old rows\n"
    assert sorted(os.listdir(tmp_path)) == ["hands.csv", "hands.phhs", "mybots.py"]


def test_play_saves_the_finished_hands(tmp_path, monkeypatch, capsys):
    from badacey_fast.game.history_file import read_histories

    target = tmp_path / "mine.phhs"
    monkeypatch.setattr("sys.stdin", io.StringIO("f\nf\nc\n"))         # hands folded, then one left unfinished
    assert main(["play", "--bots", "rule", "--seed", "8", "--hands", "5", "--save", str(target)]) == 0
    out = capsys.readouterr().out
    games = read_histories(target)
    finished = out.count("--- result ---")
    assert finished >= 2 and len(games) == finished and f"wrote {finished} hand histories" in out
    assert "(end of input: leaving the table)" in out                 # the unfinished hand is not saved
    assert sum(g.winnings[0] for g in games) == int(out.split(" in total)")[-2].split("(")[-1])


def test_simulate_plot_renders_a_png(tmp_path, capsys):
    target = tmp_path / "net.png"
    assert main(["simulate", "--hands", "500", "--seed", "1", "--bots", "rule,random", "--plot", str(target)]) == 0
    assert "wrote the plot to" in capsys.readouterr().out
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    assert sorted(os.listdir(tmp_path)) == ["net.png"]


def test_simulate_plot_without_matplotlib_is_one_line_naming_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)               # as if not installed
    assert main(["simulate", "--hands", "100000000", "--plot", str(tmp_path / "net.png")]) == 2   # refused at once
    err = capsys.readouterr().err
    assert err == 'badacey simulate: error: plots need matplotlib: pip install "badacey_fast[plot]"\n'


def test_simulate_parquet_without_pyarrow_is_one_line_naming_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyarrow", None)                  # as if not installed
    assert main(["simulate", "--hands", "100000000", "-o", str(tmp_path / "hands.parquet")]) == 2   # at once
    assert capsys.readouterr().err == ('badacey simulate: error: Parquet files need pyarrow: '
                                       'pip install "badacey_fast[parquet]"\n')
    assert os.listdir(tmp_path) == []
