"""Shared fixtures.

Every test runs once per twin, ``[python]`` and ``[c]``, without asking: ``backend`` is autouse and
:func:`pytest_generate_tests` parametrises it for every test that is not marked
``@pytest.mark.backend_independent``.  A test that wants the twin's name takes ``backend`` as an argument.
A missing C kernel is a test *error* (``kernel.using("c")`` raises in setup), never a skip: CI must build it.

A test marked ``backend_independent`` runs once, on the session's default twin (``BADACEY_FAST_BACKEND``,
normally C), and may not ask for ``backend``.

A test marked ``exhaustive`` is soak-sized (the whole deck, thousands of hands, a hundred solver
iterations): the README's test command leaves it out (``-m "not exhaustive"``) and CI runs it
(``.ci/run``).  ``@pytest.mark.exhaustive("python")`` marks only that twin's run of the test: the
pure-Python twin is the one that costs minutes where the C twin costs a second.
"""

from __future__ import annotations

import inspect
import os
import site
import subprocess
import sys
import tempfile
from collections.abc import Callable

import pytest

import badacey_fast
from badacey_fast import kernel as _kernel

# Both twins, always, unless a job narrows it on purpose: the sanitizer job runs the C twin only (every
# test that reaches C, under ASan/UBSan, where the Python twin would only double the time).
BACKENDS_ALL = ("python", "c")
BACKENDS = tuple(os.environ.get("BADACEY_FAST_TEST_TWINS", ",".join(BACKENDS_ALL)).split(","))
MARKER = "backend_independent"  # registered with its meaning in pyproject.toml
EXHAUSTIVE = "exhaustive"  # registered with its meaning in pyproject.toml


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:  # only tests under tests/ see the autouse fixture
        return
    if metafunc.definition.get_closest_marker(MARKER) is not None:
        if "backend" in inspect.signature(metafunc.function).parameters:
            raise pytest.UsageError(f"{metafunc.definition.nodeid} is marked {MARKER} but asks for the backend")
        return
    metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.hookimpl(tryfirst=True)  # before -m selects: it must see the markers as this leaves them
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``exhaustive("python")`` on a test becomes a plain ``exhaustive`` mark on its python-twin item only."""
    for item in items:
        own = getattr(item, "own_markers", [])
        named = [m for m in own if m.name == EXHAUSTIVE and m.args]
        if not named:
            continue
        twins = {twin for m in named for twin in m.args}
        if not twins <= set(BACKENDS_ALL) or item.get_closest_marker(MARKER) is not None:
            raise pytest.UsageError(f"{item.nodeid}: exhaustive() takes twin names {BACKENDS_ALL} of a test that "
                                    f"runs on both twins, got {sorted(twins)}")
        item.own_markers[:] = [m for m in own if m not in named]
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("backend") in twins:
            item.add_marker(EXHAUSTIVE)


@pytest.fixture(autouse=True, scope="session")
def _temporary_files_under_pytest(tmp_path_factory: pytest.TempPathFactory):
    """The docstrings' and pages' examples make folders with ``tempfile.mkdtemp()`` and leave them, as a
    reader's session would; under the suite, they and every child process's temporary files go to this
    session's own folder, which pytest prunes, so a run leaves nothing in the system's temporary folder."""
    old_dir, old_env = tempfile.tempdir, os.environ.get("TMPDIR")
    folder = str(tmp_path_factory.mktemp("tempfile"))
    tempfile.tempdir = folder
    os.environ["TMPDIR"] = folder
    yield
    tempfile.tempdir = old_dir
    if old_env is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = old_env


@pytest.fixture(autouse=True)
def backend(request: pytest.FixtureRequest):
    """Serve every evaluation from one twin for the duration of the test; yields its name."""
    which = getattr(request, "param", None)
    if which is None:  # a backend_independent test: the session's default twin, untouched
        yield badacey_fast.backend
        return
    with _kernel.using(which):
        yield which


def _fresh_python(code: str, env: dict[str, str] | None = None,
                  timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -c code`` in a fresh interpreter that imports the same ``badacey_fast`` as this process:
    it runs in a temporary directory (a source checkout in the current directory, which has the tables but
    not the compiled kernel after ``pip install .``, cannot shadow the installed package), with the
    directory holding this process's package first on ``PYTHONPATH`` unless it is a site directory.
    ``env`` adds environment variables; the output is captured as text."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(badacey_fast.__file__)))
    child = dict(os.environ, **(env or {}))
    site_dirs = {os.path.abspath(p) for p in site.getsitepackages() + [site.getusersitepackages()]}
    if root not in site_dirs:
        child["PYTHONPATH"] = os.pathsep.join(p for p in (root, child.get("PYTHONPATH", "")) if p)
    with tempfile.TemporaryDirectory() as cwd:
        return subprocess.run([sys.executable, "-c", code], env=child, cwd=cwd, capture_output=True,
                              text=True, timeout=timeout)


@pytest.fixture
def fresh_python() -> Callable[..., subprocess.CompletedProcess[str]]:
    """:func:`_fresh_python`: ``fresh_python(code, env=None)`` -> the completed child process."""
    return _fresh_python


# Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (default "ci").  "ci" keeps hypothesis' usual 100
# examples (the fuzz files scale their slow tests down from it) so the suite stays
# within CI's budget on two cores; "soak" is the standing run documented in the README (200x as many).  deadline=None: one example may take a kernel
# table load or a few thousand reference evaluations, and timing is not what these tests judge.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "soak", max_examples=20_000, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
