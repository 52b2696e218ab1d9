"""``badacey solve``: the exact solver's curve, the [plot] extra, local best response and MCCFR runs."""

from __future__ import annotations

import json
import os
import sys

import pytest

from badacey_fast.cli import main

TINY = ["badugi", "--ranks", "3", "--suits", "2", "--hand-size", "1", "--draws", "1", "--cap", "1"]


def test_solve_prints_the_curve_and_saves(backend, capsys, tmp_path):
    from badacey_fast.solve import Strategy

    path = tmp_path / "s.npz"
    assert main(["solve", *TINY, "--iterations", "50", "--no-progress", "--save", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["iteration", "seconds", "mbb/hand"]
    rows = [line.split() for line in out[1:-1]]
    assert int(rows[-1][0]) == 50 and float(rows[-1][2]) < float(rows[0][2])
    assert "cfr+ on badugi R3 S2 H1 D1 cap1: 50 iterations" in out[-1]
    assert Strategy.load(path).game.ranks == 3


def test_solve_json_and_target(backend, capsys):
    assert main(["solve", *TINY, "--target-mbb", "5", "--iterations", "5000", "--json", "--no-progress"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["stopped"] == "target_mbb" and got["exploitability_mbb"] <= 5
    assert got["curve"][-1][0] == got["iterations"]


def test_plot_needs_its_extra(backend, capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the [plot] extra were not installed
    assert main(["solve", *TINY, "--iterations", "5", "--plot", str(tmp_path / "c.png"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ['badacey solve: error: plots need matplotlib: pip install "badacey_fast[plot]"']
    assert not (tmp_path / "c.png").exists()


def test_plot_writes_an_image(backend, tmp_path):
    path = tmp_path / "c.png"
    assert main(["solve", *TINY, "--iterations", "20", "--plot", str(path), "--no-progress"]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_solve_checks_its_outputs_before_the_run(backend, capsys, tmp_path):
    ckpt = tmp_path / "c.npz"
    assert main(["solve", *TINY, "--iterations", "10", "--every", "5", "--checkpoint", str(ckpt), "--no-progress"]) == 0
    capsys.readouterr()
    before = ckpt.read_bytes()
    # An output over the checkpoint the run resumes from: refused, the checkpoint as it was.
    for flag in ("--checkpoint", "--save"):
        assert main(["solve", *TINY, "--iterations", "20", "--resume", str(ckpt), flag, str(ckpt), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert f"output '{ckpt}' is the input '{ckpt}'" in err and len(err.splitlines()) == 1
        assert ckpt.read_bytes() == before
    # Two outputs in one file; a plot in a format matplotlib cannot write: refused before any iteration.
    both = tmp_path / "s.npz"
    assert main(["solve", *TINY, "--iterations", "20", "--checkpoint", str(both), "--save", str(both), "--no-progress"]) == 2
    assert "--checkpoint and --save name the same file" in capsys.readouterr().err
    assert main(["solve", *TINY, "--iterations", "20", "--checkpoint", str(both), "--plot", str(tmp_path / "c.xyz"),
                 "--no-progress"]) == 2
    assert "unknown extension '.xyz' for a --plot image" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["c.npz"]
    # Resumed into another file: fine.
    assert main(["solve", *TINY, "--iterations", "20", "--resume", str(ckpt), "--save", str(both), "--no-progress"]) == 0
    assert ckpt.read_bytes() == before and both.exists()


def test_solve_refuses_bad_games(backend, capsys):
    assert main(["solve", "badugi", "--ranks", "2", "--iterations", "3", "--no-progress"]) == 2
    assert "reshuffle" in capsys.readouterr().err
    assert main(["solve", "poker", "--iterations", "3"]) == 2
    assert "unknown game 'poker'" in capsys.readouterr().err
    # Too big for the full layers: one line naming the size, at once (it used to die in a MemoryError).  The
    # C twin solves it on the compact layout instead (tests/test_solve_compact_cfr.py, exhaustive: minutes).
    if backend == "python":
        assert main(["solve", "mini-badugi", "--iterations", "1", "--no-progress"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "4,930,984,215 strategy entries" in err[0]


@pytest.mark.backend_independent
def test_lbr_and_mccfr_commands(capsys, tmp_path):
    assert main(["solve", "badugi", "--lbr", "random", "--hands", "100", "--particles", "16", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["hands"] == 100 and got["mbb"] > 0 and got["se_mbb"] > 0
    path = tmp_path / "m.npz"
    assert main(["solve", "badugi", "--mccfr", "--iterations", "20", "--save", str(path), "--no-progress"]) == 0
    assert "MCCFR on heads-up badugi (64 equity buckets): 20 iterations" in capsys.readouterr().out
    assert main(["solve", "badugi", "--lbr", str(path), "--hands", "40", "--particles", "8"]) == 0
    assert "LBR vs an MCCFR strategy in heads-up badugi" in capsys.readouterr().out
