"""The side-by-side runner and its cases: the runner's own logic (interleaving, the table, the command
line), and what each case times (a case that silently timed nothing, or the wrong count, would print a
meaningless ratio).  These are tests, not timings: no figure is judged here.  CI runs them with the rest
of ``bench/`` (``pytest bench --benchmark-disable``).
"""

from __future__ import annotations

import doctest
import importlib
import os
import subprocess
import sys
from math import comb

import pytest

import side_by_side
from side_by_side import Case, InterleavedCase

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("name", ["side_by_side", *side_by_side.PROVIDERS, "workloads"])
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True, verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} doctest examples failed"


# ---- the runner's interleaved timing (how the 1- and 2-thread cases are compared) ---------------------


def _logging_case(log: list, name: str, key: str = "", group: str = "g") -> Case:
    setup = lambda: (lambda: log.append(name))  # noqa: E731
    return InterleavedCase(group, name, setup, 1, interleave=key) if key else Case(group, name, setup, 1)


def _runs(log: list) -> list[str]:
    """The log collapsed to runs of equal names: ['a', 'b', 'a'] for a a b a."""
    return [name for i, name in enumerate(log) if i == 0 or log[i - 1] != name]


def test_runner_alternates_interleaved_cases_and_keeps_the_order() -> None:
    log: list = []
    cases = [_logging_case(log, "plain"), _logging_case(log, "one", "t"), _logging_case(log, "two", "t"),
             _logging_case(log, "after")]
    results = side_by_side.run(cases, quick=True)
    assert [r.case.name for r in results] == ["plain", "one", "two", "after"]
    assert all(r.rate > 0 and r.best <= r.median for r in results)
    inner = _runs(log)[1:-1]  # between the plain cases: warm-ups, then alternating blocks
    assert set(inner) == {"one", "two"} and len(inner) > 10  # many alternations, not one run each
    assert "~" in side_by_side.format_table(results) and "~" not in side_by_side.format_table(results[:1])


def test_runner_does_not_mix_different_keys_or_groups() -> None:
    log: list = []
    cases = [_logging_case(log, "a", "k1"), _logging_case(log, "b", "k2"), _logging_case(log, "c", "k2", "h")]
    side_by_side.run(cases, quick=True)
    assert _runs(log) == ["a", "b", "c"]  # each timed on its own
    group, name, setup, items = cases[0]  # still the 4-tuple every provider's code unpacks
    assert (group, name, items) == ("g", "a", 1)


# ---- the command line -------------------------------------------------------------------------------


def test_the_script_lists_runs_a_group_and_refuses_an_unknown_one() -> None:
    def script(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, os.path.join(HERE, "side_by_side.py"), *args],
                              capture_output=True, text=True, timeout=600)

    listed = script("--list")
    assert listed.returncode == 0, listed.stderr
    for group in ("single-evaluate", "evaluate-many", "enumerate-all", "table-build", "import", "showdown-many",
                  "draw-outcomes", "range-equity", "game-random-hands"):
        assert f"\n{group} " in "\n" + listed.stdout, group
    table = script("--quick", "--group", "import")
    assert table.returncode == 0, table.stderr
    assert "import badacey_fast (fresh interpreter)" in table.stdout and " ms " in table.stdout
    assert table.stdout.splitlines()[-1].rstrip().endswith("×")  # the ratio column
    unknown = script("--group", "no-such-group")
    assert unknown.returncode == 2 and "no benchmark group named 'no-such-group'" in unknown.stderr


_ISA = """
import sys
sys.path.insert(0, {here!r})
import side_by_side
sys.exit(side_by_side.main(["--quick", "--group", "evaluate-vs-take", "--group", "showdown-vs-hands",
                            "--group", "showdown-vs-hands-new"]))
"""


def test_issue_13_ratios_run_on_the_path_they_name() -> None:
    """The yardstick groups time the path BADACEY_FAST_ISA selects and say which one (fresh interpreters:
    the switch is read once)."""
    from badacey_fast import kernel

    names = ("scalar", "avx2", "avx512")
    with kernel.using("c"):
        best = kernel.simd_level()
    for level in range(best + 1):
        env = dict(os.environ, BADACEY_FAST_BACKEND="c", BADACEY_FAST_ISA=names[level])
        run = subprocess.run([sys.executable, "-c", _ISA.format(here=HERE)], env=env, capture_output=True,
                             text=True, timeout=600)
        assert run.returncode == 0, run.stderr
        rows = [line for line in run.stdout.splitlines() if line.startswith(("evaluate-vs-take", "showdown-vs-hands"))]
        groups = [row.split()[0] for row in rows]
        assert groups == ["evaluate-vs-take"] * 2 + ["showdown-vs-hands"] * 3 + ["showdown-vs-hands-new"] * 3, rows
        for row in rows:
            assert row.rstrip().endswith("×"), row  # every case carries its ratio to the group's first
            if "np.take" not in row:  # every kernel case names the path it ran on, and only that one
                named = [name for name in names if f"{name} path" in row or f"({name})" in row]
                assert named == [names[level]], row


# ---- what the cases time ------------------------------------------------------------------------------


def test_draw_cases_count_their_outcomes() -> None:
    from cases_draw import bench_cases

    cases = bench_cases(quick=True)
    by = {c.name: c for c in cases}
    assert [c.group for c in cases] == ["draw-outcomes", "draw-outcomes-small", "draw-outcomes-small",
                                        "best-discards", "equity-exact", "equity-monte-carlo"]
    draw_case = by["draw_outcomes 3-card draw"]
    assert draw_case.setup()().total == draw_case.items == comb(47, 3)
    c_twin, py_twin = (by[f"draw_outcomes 2-card draw, {t} twin"] for t in ("C", "Python"))
    assert c_twin.setup()() == py_twin.setup()() and c_twin.items == comb(47, 2)
    exact = by["equity heads-up, both draw one (exact)"]
    got = exact.setup()()
    assert got.exact and got.outcomes == exact.items
    assert by["best_discards all 32 discards"].items == comb(52, 5) == sum(comb(5, k) * comb(47, k) for k in range(6))


def test_game_cases_play_the_hands_they_count() -> None:
    from cases_game import bench_cases

    group, name, setup, items = bench_cases(quick=True)[0]
    assert group == "game-random-hands" and "Badacey" in name
    assert setup()() == items


def test_range_cases_count_their_combos() -> None:
    from cases_ranges import bench_cases

    assert "cases_ranges" in side_by_side.PROVIDERS
    cases = bench_cases(quick=True)
    assert [c.group for c in cases] == ["range-equity", "range-parse", "range-parse"]
    assert cases[0].setup()().outcomes == cases[0].items == 1_533_939
    assert len(cases[1].setup()()[0]) == cases[1].items


def test_every_provider_is_listed_and_yields_cases() -> None:
    cases = side_by_side.collect(quick=True)
    assert {c.group for c in cases} >= {"single-evaluate", "evaluate-many", "showdown-many", "score-file",
                                        "draw-outcomes", "range-equity", "game-random-hands"}
    assert all(c.items > 0 for c in cases)
    assert sorted(f[:-3] for f in os.listdir(HERE) if f.startswith("cases_") and f.endswith(".py")) == \
        sorted(side_by_side.PROVIDERS)
