"""``badacey draw``, ``best-discard`` and ``equity`` (issue 24 items 1, 6 and 10): every game with its own
hand size and halves, the discard named, ``--json`` against the library's own results, ``--plot``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from badacey_fast.cards import format_cards, parse_cards
from badacey_fast.draw.equities import equity
from badacey_fast.draw.outcomes import best_discards, draw_outcomes
from badacey_fast.draw.range_equity import equity_by_class, range_equity

pytestmark = pytest.mark.backend_independent  # the library's figures are held on both twins elsewhere

DEAD = "Qs Qd Qc Qh Js Jd Jc Jh Ts Td Tc Th 9s 9d 9c 9h"  # a quicker best-discard


def run(capsys, *argv: str) -> tuple[int, str, str]:
    from badacey_fast.cli.command import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_draw_help_lists_every_game(capsys):
    with pytest.raises(SystemExit):
        run(capsys, "draw", "--help")
    out = capsys.readouterr().out
    assert "badacey, badeucy, badugi, a5, 27" in " ".join(out.split())
    assert "badacey or badeucy" not in out


def test_draw_takes_a_four_card_badugi_hand(capsys):
    status, out, err = run(capsys, "draw", "As 2h 3d Kc", "--discard", "Kc", "--game", "badugi")
    assert status == 0, err
    assert "48 equally likely outcomes" in out and "4-card  18.75%" in out  # 9 clubs 4c..Qc of 48
    assert "low category" not in out and "low rank" not in out  # Badugi has no low half
    status, _, err = run(capsys, "draw", "As 2h 3d 4c Kc", "--game", "badugi")
    assert status == 2 and "expected 4 cards" in err


@pytest.mark.parametrize("game", ["27", "a5"])
def test_a_game_without_a_badugi_half_prints_no_badugi(capsys, game):
    status, out, err = run(capsys, "draw", "As 2h 3d 4c 7d", "--discard", "7d", "--game", game)
    assert status == 0, err
    assert "badugi" not in out and "low category" in out and "expected low rank" in out
    status, out, err = run(capsys, "best-discard", "As 2h 3d 4c 7d", "--dead", DEAD, "--game", game)
    assert status == 0, err
    assert "badugi" not in out.lower() and "E[bdg]" not in out
    status, out, err = run(capsys, "equity", "As 2h 3d 4c 7d", "2c 3h 4d 5c 6s", "--game", game)
    assert status == 0, err
    assert "badugi half" not in out


def test_singular_outcome(capsys):
    status, out, _ = run(capsys, "draw", "As 2h 3d 4c 7d")
    assert status == 0 and "1 equally likely outcome " in out


def test_best_discard_defaults_to_the_pot_share_and_names_the_best(capsys):
    status, out, err = run(capsys, "best-discard", "As 2h 3d 4c Kd")
    assert status == 0, err
    assert "expected pot share" in out and "best: throw [Kd]" in out


def test_equity_vs_a_range_names_hero_s_discard_and_the_two_half_figure(capsys):
    argv = ["equity", "As 2h 3d 4c Kd", "--vs", "8low+, 9badugi+", "--draws", "1", "--samples", "4000", "--seed", "1"]
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    lib = range_equity("As 2h 3d 4c Kd", "8low+, 9badugi+", draws=1, samples=4000, seed=1)
    assert format_cards(lib.hero_discard) == "Kd"  # the two-half objective throws the king
    assert "hero's first draw: throws [Kd]" in out
    assert f"share {lib.shares[0]:.4f}" in out and lib.shares[0] > 0.7  # not 0.59, the pat hand's
    status, out, err = run(capsys, *argv, "--discard", "-")
    assert status == 0 and "stands pat (given" in out


def test_draws_without_vs_is_refused(capsys):
    status, _, err = run(capsys, "equity", "As 2h 3d 4c Kd", "2c 3h 4d 5c 6s", "--draws", "2")
    assert status == 2 and "--draws is for --vs" in err


def test_help_texts_match_the_behaviour(capsys):
    with pytest.raises(SystemExit):
        run(capsys, "--help")
    top = " ".join(capsys.readouterr().out.split())
    assert "after one draw" not in top
    with pytest.raises(SystemExit):
        run(capsys, "equity", "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "0 (showdown now) to 3" in text and "after one draw" not in text


def test_draw_json_is_the_library_s_result(capsys):
    status, out, err = run(capsys, "draw", "As 2h 3d Kc Kd", "--discard", "Kc Kd", "--low-target", "8", "--json")
    assert status == 0, err
    got = json.loads(out)
    lib = draw_outcomes("As 2h 3d Kc Kd", "Kc Kd")
    assert got["discard"] == "Kc Kd" and got["outcomes"] == lib.total == 1081
    assert got["low"]["categories"] == lib.low_category_counts()
    assert got["low"]["no_pair_by_top_card"] == lib.low_high_card_counts()
    assert got["low"]["at_most_target"] == sum(lib.low_counts[:8]) and got["low"]["at_most_target"] / 1081 == lib.p_low(8)
    assert got["badugi"]["sizes"] == {str(k): v for k, v in lib.badugi_size_counts().items()}
    assert got["badugi"]["expected_rank"] == lib.expected_badugi_rank
    assert all(isinstance(v, int) for v in got["low"]["categories"].values())
    status, out, _ = run(capsys, "draw", "As 2h 3d Kc", "--discard", "Kc", "--game", "badugi", "--json")
    got = json.loads(out)
    assert "low" not in got and got["badugi"]["sizes"]["4"] == 9


def test_best_discard_json_is_the_library_s_result(capsys):
    status, out, err = run(capsys, "best-discard", "As 2h 3d 4c Kd", "--json")
    assert status == 0, err
    got = json.loads(out)
    lib = best_discards("As 2h 3d 4c Kd")
    assert got["objective"] == "share" and got["best"] == "Kd"
    assert [(d["discard"], d["score"]) for d in got["discards"]] == [(format_cards(c.discard), c.score) for c in lib]
    assert len(got["discards"]) == 32


def test_equity_json_is_the_library_s_result(capsys):
    status, out, err = run(capsys, "equity", "As 2h 3d Kc Kd", "2c 3s 4h 5d 6c", "--discard", "Kc Kd",
                           "--discard", "-", "--json")
    assert status == 0, err
    got = json.loads(out)
    lib = equity(["As 2h 3d Kc Kd", "2c 3s 4h 5d 6c"], ["Kc Kd", None])
    assert got["exact"] is True and got["outcomes"] == lib.outcomes
    assert [s["share"] for s in got["seats"]] == list(lib.shares)
    assert [s["discard"] for s in got["seats"]] == ["Kc Kd", ""]
    assert [s["low"] for s in got["seats"]] == list(lib.low)
    argv = ["equity", "As 2h 3d 4c Kd", "--vs", "8low+, 9badugi+", "--draws", "1", "--samples", "2000", "--seed", "3"]
    status, out, err = run(capsys, *argv, "--json")
    got = json.loads(out)
    lib = range_equity("As 2h 3d 4c Kd", "8low+, 9badugi+", draws=1, samples=2000, seed=3)
    assert got["hero_discard"] == "Kd" and got["exact"] is False and got["outcomes"] == 2000
    assert [s["share"] for s in got["seats"]] == list(lib.shares)
    assert [s["stderr"] for s in got["seats"]] == list(lib.stderr)


def test_plots_render_to_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    draw_png, eq_png, cls_png = tmp_path / "draw.png", tmp_path / "eq.png", tmp_path / "classes.png"
    status, _, err = run(capsys, "draw", "As 2h 3d 4c Kd", "--discard", "Kd", "--plot", str(draw_png))
    assert status == 0, err
    status, _, err = run(capsys, "equity", "As 2h 3d Kc Kd", "2c 3s 4h 5d 6c", "--discard", "Kc Kd",
                         "--discard", "-", "--plot", str(eq_png))
    assert status == 0, err
    status, out, err = run(capsys, "equity", "As 2h 3d 4c Kd", "--vs", "8low+, 9badugi+", "--plot", str(cls_png))
    assert status == 0, err
    by = equity_by_class("As 2h 3d 4c Kd", "8low+, 9badugi+")
    assert f"hero vs 4-card badugi ({100 * by.weights[0]:.1f}% of the range): share {by.shares[0]:.4f}" in out
    assert abs(by.share - range_equity("As 2h 3d 4c Kd", "8low+, 9badugi+").shares[0]) < 1e-9
    for png in (draw_png, eq_png, cls_png):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    status, _, err = run(capsys, "draw", "As 2h 3d 4c Kd", "--plot", str(tmp_path / "x.xlsx"))
    assert status == 2 and "--plot" in err and ".png" in err and not (tmp_path / "x.xlsx").exists()


def test_plot_without_matplotlib_is_one_line(tmp_path):
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from badacey_fast.cli.command import main\n"
            f"sys.exit(main(['draw', 'As 2h 3d 4c Kd', '--plot', {str(tmp_path / 'd.png')!r}]))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "plot" in proc.stderr and "Traceback" not in proc.stderr and proc.stdout == ""
    assert not (tmp_path / "d.png").exists()
