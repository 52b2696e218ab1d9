"""The package surface: every exported name resolves to what it names, and ``import badacey_fast`` stays
light (showdowns, draws, equities, numpy and the engine load on first use)."""

from __future__ import annotations

import importlib

import pytest

import badacey_fast as bf
from badacey_fast.cli.benchmark import fresh_python


def test_every_exported_name_resolves() -> None:
    for name in bf.__all__:
        assert getattr(bf, name) is not None, name
    assert set(bf.__all__) <= set(dir(bf))


def test_functions_are_not_shadowed_by_their_modules() -> None:
    # The modules behind the lazy names are imported the usual way, as other code would...
    pots = importlib.import_module("badacey_fast.pots.settlement")
    equities = importlib.import_module("badacey_fast.draw.equities")
    draw = importlib.import_module("badacey_fast.draw.outcomes")
    # ...and the package's names still are the functions and classes, not modules.
    assert bf.showdown is pots.showdown and bf.settle is pots.settle
    assert bf.showdown_detail is pots.showdown_detail and bf.UNSHOWN is pots.UNSHOWN
    assert bf.equity is equities.equity and bf.policy_equity is equities.policy_equity
    assert bf.draw_outcomes is draw.draw_outcomes and bf.best_discards is draw.best_discards
    assert bf.showdown(["As 2h 3d 4c 5s", "2c 3s 4h 5d 6c"], 100) == [100, 0]  # seed 000: Alma scoops


@pytest.mark.backend_independent  # a fresh interpreter: what `import badacey_fast` loads, whatever the twin
def test_import_loads_only_what_evaluation_needs() -> None:
    code = ("import sys, badacey_fast\n"
            "heavy = ['numpy', 'badacey_fast.pots.settlement', 'badacey_fast.pots.results', 'badacey_fast.draw.outcomes',\n"
            "         'badacey_fast.draw.equities', 'badacey_fast.game', 'badacey_fast.bulk.evaluate']\n"
            "print([m for m in heavy if m in sys.modules])\n"
            "badacey_fast.settle\n"
            "print('badacey_fast.pots.settlement' in sys.modules)")
    out = fresh_python(code)  # the same badacey_fast as this process, not a checkout in the cwd
    assert out.stdout.split("\n")[:2] == ["[]", "True"], out.stderr
