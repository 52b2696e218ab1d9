"""The [plot] extra: a simulation's running nets, a draw's distribution and an equity's shares, each a
matplotlib Figure (no pyplot) rendered to PNG here; the drawn data is the result's own numbers."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from badacey_fast.draw import draw_outcomes, equity
from badacey_fast.errors import MissingExtraError, ShapeError
from badacey_fast.game import simulate
from badacey_fast.game.bots import RandomBot, RuleBot

pytest.importorskip("matplotlib")  # the test extra installs it: CI runs these

pytestmark = pytest.mark.backend_independent  # the figures draw numbers each twin gives alike


def png(fig, tmp_path, name):
    path = tmp_path / name
    fig.savefig(path, dpi=50)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
    return data


def test_simulation_plot_draws_each_seats_running_net(tmp_path):
    r = simulate([RuleBot(), RandomBot(), RandomBot()], hands=400, seed=2, records=True)
    fig = r.plot()
    ax = fig.axes[0]
    lines = ax.lines[:3]
    assert [ln.get_label() for ln in lines] == ["seat 0 (rule)", "seat 1 (random)", "seat 2 (random)"]
    for s, ln in enumerate(lines):
        assert np.allclose(ln.get_ydata(), np.cumsum(r.records.net[:, s]) / r.big_blind)
        assert ln.get_ydata()[-1] == pytest.approx(r.totals[s] / r.big_blind)
    assert len(ax.collections) == 3  # one 95 % band a seat
    png(fig, tmp_path, "net.png")
    with pytest.raises(ValueError, match="records=True"):
        simulate([RuleBot(), RandomBot()], hands=20).plot()
    with pytest.raises(ValueError, match="unit must be a positive int"):
        r.records.plot(unit=0)


def test_draw_plot_draws_the_distribution(tmp_path):
    out = draw_outcomes("As 2h 3d 4c Kd", discard="Kd")
    fig = out.plot()
    low_ax, bd_ax = fig.axes
    heights = [b.get_height() for b in low_ax.patches]
    assert heights[: len(out.low_high_cards())] == pytest.approx(list(out.low_high_cards().values()))
    assert sum(heights) == pytest.approx(1.0)
    assert [b.get_height() for b in bd_ax.patches] == pytest.approx(list(out.badugi_sizes().values()))
    png(fig, tmp_path, "draw.png")


def test_equity_plot_draws_shares_and_intervals(tmp_path):
    eq = equity(["As 2h 3d 4c Kd", "2c 3s 4h 5d 6c", "7c 8d 9h Ts Js"], discards=["Kd", "6c", ""],
                samples=3000, seed=1)
    assert not eq.exact
    fig = eq.plot(names=["hero", "v1", "v2"])
    ax = fig.axes[0]
    from matplotlib.container import BarContainer

    shares, low, badugi = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [b.get_height() for b in shares] == pytest.approx(list(eq.shares))
    assert [b.get_height() for b in low] == pytest.approx(list(eq.low))
    assert [b.get_height() for b in badugi] == pytest.approx(list(eq.badugi))
    segments = shares.errorbar.lines[2][0].get_segments()  # each share's interval, bottom to top
    assert [seg[1][1] - seg[0][1] for seg in segments] == pytest.approx([2 * 1.96 * e for e in eq.stderr])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["hero", "v1", "v2"]
    png(fig, tmp_path, "equity.png")
    with pytest.raises(ShapeError, match="2 names for 3 seats"):
        eq.plot(names=["a", "b"])


def test_without_matplotlib_a_plot_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingExtraError, match=r'plots need matplotlib: pip install "badacey_fast\[plot\]"'):
        draw_outcomes("As 2h 3d 4c Kd", discard="Kd").plot()
