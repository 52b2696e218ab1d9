"""Run the doctests of every module of the installed ``badacey_fast`` package.

Modules are discovered with :func:`pkgutil.walk_packages`, so a module added later is covered without
editing this file.  Only two kinds are left out: compiled extensions (no Python source) and modules whose
source has no docstring example at all, found by reading the source with :mod:`ast` (no import needed
to decide, so a module that fails to import still gets a test, and that test fails).

Each module's doctests run once per twin (``[python-...]`` and ``[c-...]``, the autouse ``backend``
fixture of conftest): the examples call the public API, which asks the backend switch at call time.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import inspect
import pkgutil

import pytest

import badacey_fast


def _has_examples(path: str) -> bool:
    """True when any docstring (module, class, function) in the source file holds a ``>>>`` example."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), filename=path)
    nodes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return any(">>>" in (ast.get_docstring(n, clean=False) or "") for n in nodes)


def _discover() -> tuple[list[str], list[str]]:
    """(modules with examples, every Python-source module found)."""
    walk_errors: list[str] = []
    names = [badacey_fast.__name__] + [
        info.name
        for info in pkgutil.walk_packages(badacey_fast.__path__, badacey_fast.__name__ + ".",
                                          onerror=walk_errors.append)
    ]
    if walk_errors:  # a subpackage that cannot even be imported to list its modules
        raise ImportError(f"cannot walk badacey_fast subpackages: {walk_errors}")
    with_examples, sources = [], []
    for name in names:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if not origin or not origin.endswith(".py"):  # compiled extension (or namespace package)
            continue
        sources.append(name)
        if _has_examples(origin):
            with_examples.append(name)
    return with_examples, sources


MODULES, SOURCE_MODULES = _discover()


def test_discovery_sees_the_package() -> None:
    # the foundation's documented modules must be among those checked (discovery cannot silently shrink)
    for core in ("badacey_fast", "badacey_fast.cards", "badacey_fast.rules.games", "badacey_fast.rules.reference",
                 "badacey_fast.evaluator"):
        assert core in MODULES


def test_the_doctest_runner_sees_the_switched_twin(backend: str) -> None:
    source = f">>> import badacey_fast\n>>> badacey_fast.backend\n{backend!r}\n"
    example = doctest.DocTestParser().get_doctest(source, {}, "switch", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(example)
    assert runner.summarize(verbose=False) == (0, 2)


#: Modules whose examples run the C hand loop only (local best response, MCCFR and its bots have no
#: Python twin: on the Python twin they raise SolveError, which tests/test_solve_play.py checks).
C_ONLY = {"badacey_fast.solve.lbr", "badacey_fast.solve.mccfr", "badacey_fast.solve.bot", "badacey_fast.solve.compact"}


#: Modules whose examples are soak-sized on the reference twin (best_discards enumerates every replacement of
#: 32 discards; the iso, range and range-term examples walk whole decks): their Python-twin run is in CI's
#: exhaustive step, their C-twin run here.
REFERENCE_SOAK = {"badacey_fast.draw.outcomes", "badacey_fast.solve.iso", "badacey_fast.draw.range_equity",
                  "badacey_fast.bulk.evaluate", "badacey_fast.draw.ranges"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.exhaustive("python")) if n in REFERENCE_SOAK else n
                                  for n in MODULES])
def test_module_doctests(backend: str, name: str) -> None:
    if name in C_ONLY and backend != "c":
        pytest.skip(f"{name} runs on the C hand loop only")
    module = importlib.import_module(name)
    assert badacey_fast.backend == backend  # the twin the examples below are served by
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True, verbose=False)
    assert result.attempted > 0, f"{name}: its source has examples but doctest found none"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} doctest examples failed"


def _public_functions() -> list[str]:
    return [n for n in badacey_fast.__all__ if inspect.isfunction(getattr(badacey_fast, n))]


@pytest.mark.parametrize("name", _public_functions())
def test_public_function_has_an_example_with_an_error_case(name: str) -> None:
    doc = inspect.getdoc(getattr(badacey_fast, name)) or ""
    assert ">>>" in doc, f"badacey_fast.{name} has no runnable example in its docstring"
    # house rule: the example includes an error case (doctest checks the exception type and message)
    assert "Traceback (most recent call last):" in doc, f"badacey_fast.{name} shows no error case"
