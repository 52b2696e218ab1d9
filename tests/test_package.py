"""The package surface: every exported name resolves to what it names, and ``import badacey_fast`` stays
light (showdowns, draws, equities, numpy and the engine load on first use; docs/import.md says what it
loads and why, and the test below holds the page to it)."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import badacey_fast as bf

#: the conftest fixture: ``fresh_python(code, env=None)`` -> the completed child process
FreshPython = Callable[..., subprocess.CompletedProcess[str]]


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
def test_import_loads_only_what_evaluation_needs(fresh_python) -> None:
    code = ("import sys, badacey_fast\n"
            "heavy = ['numpy', 'badacey_fast.pots.settlement', 'badacey_fast.pots.results', 'badacey_fast.draw.outcomes',\n"
            "         'badacey_fast.draw.equities', 'badacey_fast.game', 'badacey_fast.bulk.evaluate']\n"
            "print([m for m in heavy if m in sys.modules])\n"
            "badacey_fast.settle\n"
            "print('badacey_fast.pots.settlement' in sys.modules)")
    out = fresh_python(code)  # the same badacey_fast as this process, not a checkout in the cwd
    assert out.stdout.split("\n")[:2] == ["[]", "True"], out.stderr


#: Modules ``import badacey_fast`` must never load (docs/import.md, "The lazy boundary"): numpy and cffi's
#: Python package (the bulk calls and the kernel's build, not its use), dataclasses and what it pulls in
#: (inspect, ast, dis, tokenize: ~15 ms), threading (the helper threads of a split batch),
#: importlib.metadata (``__version__`` is looked up on demand), and the layers above the evaluator.
HEAVY = ("numpy", "cffi", "dataclasses", "inspect", "ast", "dis", "tokenize", "threading", "importlib.metadata",
         "badacey_fast.rules.reference", "badacey_fast.rules.stub", "badacey_fast.pots", "badacey_fast.bulk",
         "badacey_fast.draw", "badacey_fast.files", "badacey_fast.game", "badacey_fast.kernel.twin",
         "badacey_fast.kernel.threads", "badacey_fast.kernel._py_numpy")
#: ... and, on the C twin (the Python twin's reference evaluators use typing, and typing all of these),
#: the standard library a bare interpreter has not loaded yet: typing (the TYPE_CHECKING idiom keeps
#: annotations free), re (cards scan their text), and what they and contextlib (the backend's switch is a
#: class) import.  An editable install's path finder loads some of them at start-up: the test then
#: cannot see them, an ordinary install (CI's) can.
STANDARD_LIBRARY = ("typing", "re", "enum", "functools", "collections", "contextlib", "warnings")
IMPORT_PAGE = Path(__file__).resolve().parents[1] / "docs" / "import.md"


def _loaded_by_import(twin: str, fresh_python: FreshPython) -> set[str]:
    """The modules a fresh interpreter loads for ``import badacey_fast`` on the given twin."""
    code = ("import sys\nbefore = set(sys.modules)\nimport badacey_fast\n"
            "print(sorted(set(sys.modules) - before))")
    out = fresh_python(code, env={"BADACEY_FAST_BACKEND": twin})
    assert out.returncode == 0, out.stderr
    loaded: list[str] = ast.literal_eval(out.stdout.strip().splitlines()[-1])
    return set(loaded)


def _heavy(loaded: set[str], heavy: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in heavy))


@pytest.mark.backend_independent  # fresh interpreters, each choosing its twin by environment
@pytest.mark.parametrize("twin", ["c", "python"])
def test_import_loads_no_heavy_module(twin: str, fresh_python: FreshPython) -> None:
    loaded = _loaded_by_import(twin, fresh_python)
    if twin == "c":
        heavy = _heavy(loaded, HEAVY + STANDARD_LIBRARY)
    else:  # the Python twin serves from the reference evaluators
        heavy = [m for m in _heavy(loaded) if m != "badacey_fast.rules.reference"]
    assert not heavy, f"import badacey_fast (BADACEY_FAST_BACKEND={twin}) loads {heavy}: see docs/import.md"


@pytest.mark.backend_independent
def test_the_import_page_lists_what_import_loads(fresh_python: FreshPython) -> None:
    """docs/import.md names exactly the package's modules that ``import badacey_fast`` loads (C twin)."""
    page = IMPORT_PAGE.read_text(encoding="utf-8")
    section = page.split("<!-- loaded-modules -->")[1].split("<!-- /loaded-modules -->")[0]
    listed = set(re.findall(r"`(badacey_fast(?:\.\w+)*)`", section))
    loaded = {m for m in _loaded_by_import("c", fresh_python) if m.startswith("badacey_fast")}
    assert listed == loaded, f"docs/import.md lists {sorted(listed - loaded)} it does not load, " \
                             f"and omits {sorted(loaded - listed)}"


@pytest.mark.backend_independent
def test_the_heavy_check_can_fail() -> None:
    # A heavy module or one of its submodules is named; a module that only shares a prefix is not.
    assert _heavy({"badacey_fast", "dataclasses", "numpy.core", "typing_extensions", "badacey_fast.bulky"}) == [
        "dataclasses", "numpy.core"]


@pytest.mark.backend_independent  # a fresh interpreter started on the Python twin
def test_backend_stays_readable_after_the_c_extension_loads_late(fresh_python: FreshPython) -> None:
    # On the Python twin the C extension badacey_fast._kernel is imported only when C is first asked
    # for; importing it binds the package attribute `_kernel`, which must not be the name of anything
    # the package itself reads (it was the alias of badacey_fast.kernel: `backend` then raised).
    code = ("import badacey_fast\n"
            "from badacey_fast import kernel\n"
            "print(badacey_fast.backend)\n"
            "with kernel.using('c'):\n"
            "    print(badacey_fast.backend)\n"
            "print(badacey_fast.backend)")
    out = fresh_python(code, env={"BADACEY_FAST_BACKEND": "python"})
    assert out.stdout.split() == ["python", "c", "python"], out.stderr
