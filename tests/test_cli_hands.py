"""``badacey eval``, ``badacey showdown`` and ``badacey demo``: output in words, exit status 2 on bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import badacey_fast
from badacey_fast.cli.command import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_error_line(status, out, err, *fragments):
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0]


# --- eval -----------------------------------------------------------------------------------------------


def test_eval_both_halves_ranks_and_words(backend, capsys):
    status, out, _ = run(capsys, "eval", "As 2h 3d 4c 5s")
    assert status == 0
    assert "low:    5-4-3-2-A low (rank 1 of 6175, lower is better)" in out
    assert "badugi: 4-3-2-A badugi (rank 1 of 1092, lower is better)" in out


def test_eval_badeucy_and_unquoted_cards(backend, capsys):
    status, out, _ = run(capsys, "eval", "7c", "5d", "4h", "3s", "2c", "--game", "badeucy")
    assert status == 0
    assert out.startswith("Badeucy: 7c 5d 4h 3s 2c")
    assert "7-5-4-3-2 low (rank 1 of 7462" in out
    assert "badugi: 5-4-3-2 badugi (rank 1 of 1092" in out  # ace high: 2c 3s 4h 5d is the nuts
    status, out, _ = run(capsys, "eval", "2h 4h 6h 7h Ac")
    assert "7-6-4-2-A low" in out and "2-card 2-A" in out


def test_eval_single_pot_games(backend, capsys):
    status, out, _ = run(capsys, "eval", "As 2c 3d 4h", "--game", "badugi")
    assert status == 0 and "4-3-2-A badugi (rank 1 of 1092" in out and "low:" not in out
    status, out, _ = run(capsys, "eval", "As 2c 3d 4h 5s", "--game", "27")
    assert status == 0 and "A-5-4-3-2 low" in out and "badugi:" not in out


@pytest.mark.parametrize(
    "argv, fragments",
    [
        (["eval", "As 2h 3d 4c"], ["badacey eval: error:", "expected 5 cards, got 4"]),
        (["eval", "As 2h 3d 4c 4c"], ["'4c' is given twice"]),
        (["eval", "As 2h 3d 4c 5x"], ["unknown card '5x'"]),
        (["eval", "As 2h 3d 4c 5s", "--game", "razz"], ["unknown game 'razz'"]),
    ],
)
def test_eval_bad_input(capsys, argv, fragments):
    assert_one_error_line(*run(capsys, *argv), *fragments)


# --- showdown -------------------------------------------------------------------------------------------


def test_showdown_scoop_and_payouts(backend, capsys):
    status, out, _ = run(capsys, "showdown", "--pot", "100", "--button", "0", "As2h3d4c5s", "2c3s4h5d6c")
    assert status == 0
    assert "Low half: seat 0 wins with 5-4-3-2-A low" in out
    assert "seat 0 scoops the whole pot (100 chips)" in out
    assert out.rstrip().endswith("Payouts: seat 0 100, seat 1 0")


def test_showdown_folded_seat_odd_chip_and_names(backend, capsys):
    argv = ["showdown", "--pot", "101", "--names", "Cora,Eve,Dmitri", "2h 4h 6h 7h Ac", "fold", "Ks Qd 9c 5h 5s"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert "Eve: folded" in out
    # Button 0: clockwise the first winner is Dmitri (seat 2), who gets the odd chip.
    assert "The odd chip goes to Dmitri" in out
    assert out.rstrip().endswith("Payouts: Cora 50, Eve folded, Dmitri 51")
    status, out, _ = run(capsys, *argv, "--odd-chip", "low")
    assert out.rstrip().endswith("Payouts: Cora 51, Eve folded, Dmitri 50")


def test_showdown_badeucy_and_fold_win(backend, capsys):
    status, out, _ = run(capsys, "showdown", "--game", "badeucy", "As2h3d4c5s", "2c3s4h5d6c")
    assert status == 0 and "6-5-4-3-2 straight" in out
    assert out.rstrip().endswith("Payouts: seat 0 75, seat 1 25")  # default pot of 100
    status, out, _ = run(capsys, "showdown", "--pot", "30", "-", "?")
    assert status == 0 and "seat 1 wins the whole pot (30 chips): everyone else folded" in out


def test_showdown_with_contributions_builds_side_pots(backend, capsys):
    status, out, _ = run(
        capsys, "showdown", "--contributions", "10,30,30", "As 2h 3d 4c 5s", "2c 3s 4h 5d 6c", "fold"
    )
    assert status == 0
    assert "Main pot: 30 chips, for seat 0 and seat 1" in out
    assert "Side pot 1: 40 chips, for seat 1" in out
    assert out.rstrip().endswith("Payouts: seat 0 30, seat 1 40, seat 2 folded")


@pytest.mark.parametrize(
    "argv, fragments",
    [
        (["--pot", "-1"], ["pot is negative: -1"]),
        (["--pot", "ten"], ["--pot must be an int, got 'ten'"]),
        (["--button", "2"], ["button 2 is outside the seats 0..1"]),
        (["--odd-chip", "high"], ["unknown odd_chip policy 'high'"]),
        (["--names", "Ann"], ["1 names for 2 seats"]),
        (["--pot", "5", "--contributions", "1,2"], ["not both"]),
        (["--contributions", "1,x"], ["'x'"]),
        (["--contributions", "1,2,3"], ["3 contributions for 2 seats"]),
    ],
)
def test_showdown_bad_options(capsys, argv, fragments):
    result = run(capsys, "showdown", *argv, "As2h3d4c5s", "2c3s4h5d6c")
    assert_one_error_line(*result, "badacey showdown: error:", *fragments)


@pytest.mark.parametrize(
    "hands, fragments",
    [
        (["As2h3d4c5s", "As3s4h5d6c"], ["'As' is in the hands of both seat 0 and seat 1"]),
        (["As2h3d4c5s", "2c3s4h5d"], ["seat 1: expected 5 cards, got 4"]),
        (["fold", "fold"], ["no live hand"]),
        (["?", "2c3s4h5d6c"], ["UNSHOWN but 2 seats are live"]),
    ],
)
def test_showdown_bad_hands(capsys, hands, fragments):
    assert_one_error_line(*run(capsys, "showdown", *hands), *fragments)


# --- demo -----------------------------------------------------------------------------------------------


def test_demo_prints_the_seeds_three_results(backend, capsys):
    status, out, _ = run(capsys, "demo")
    assert status == 0
    assert "Alma scoops the whole pot (100 chips)" in out
    assert "Cora takes half (50 chips) · Dmitri takes half (50 chips)" in out
    assert "Ann takes a quarter (25 chips) · Ben takes three quarters (75 chips)" in out
    assert "Payouts: Alma 100, Bruno 0" in out and "Payouts: Ann 25, Ben 75" in out
    # Each half in the seeds' words.
    for words in ("5-4-3-2-A low", "4-3-2-A badugi", "7-6-4-2-A low", "2-card 2-A", "pair of fives",
                  "K-Q-9-5 badugi", "K-4-3-2-A low"):
        assert words in out


def test_demo_badeucy_says_so_and_judges_by_badeucy(backend, capsys):
    status, out, _ = run(capsys, "demo", "--game", "Baduci", "--pot", "10")
    assert status == 0
    assert "judged by Badeucy rules" in out
    assert "6-5-4-3-2 straight" in out  # Bruno's straight counts against him in 2-7
    # Low 5 to Alma; the tied badugi half of 5 is 2 each + 1 to Bruno, first clockwise from button 0.
    assert "Payouts: Alma 7, Bruno 3" in out


def test_demo_bad_input(capsys):
    assert_one_error_line(*run(capsys, "demo", "--game", "razz"), "unknown game 'razz'")
    assert_one_error_line(*run(capsys, "demo", "--pot", "-4"), "pot is negative: -4")


# --- the real console entry point -----------------------------------------------------------------------


def _cli(*argv):
    env = dict(os.environ)
    root = str(Path(badacey_fast.__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    # cwd=root: `python -m` puts the working directory first on sys.path, and from a source checkout
    # that would shadow the installed package (and its compiled kernel) with the bare sources.
    return subprocess.run(
        [sys.executable, "-m", "badacey_fast.cli", *argv],
        capture_output=True, text=True, env=env, timeout=120, cwd=root,
    )


@pytest.mark.backend_independent  # a fresh interpreter on the default twin: the switch cannot reach it
def test_console_script_bad_input_is_one_line_and_status_2():
    proc = _cli("showdown", "--pot", "-3", "As2h3d4c5s", "2c3s4h5d6c")
    assert_one_error_line(proc.returncode, proc.stdout, proc.stderr, "pot is negative: -3")
    proc = _cli("eval", "As 2h 3d 4c Zz")
    assert_one_error_line(proc.returncode, proc.stdout, proc.stderr, "unknown card 'Zz'")


@pytest.mark.backend_independent  # a fresh interpreter on the default twin: the switch cannot reach it
def test_console_script_demo_runs():
    proc = _cli("demo")
    assert proc.returncode == 0, proc.stderr
    assert "Alma scoops the whole pot" in proc.stdout and "Traceback" not in proc.stderr
