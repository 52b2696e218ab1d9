"""Shared fixtures.

Every test runs once per twin, ``[python]`` and ``[c]``, without asking: ``backend`` is autouse and
:func:`pytest_generate_tests` parametrises it for every test that is not marked
``@pytest.mark.backend_independent``.  A test that wants the twin's name takes ``backend`` as an argument.
A missing C kernel is a test *error* (``kernel.using("c")`` raises in setup), never a skip: CI must build it.

A test marked ``backend_independent`` runs once, on the session's default twin (``BADACEY_FAST_BACKEND``,
normally C), and may not ask for ``backend``.
"""

from __future__ import annotations

import inspect
import os

import pytest

import badacey_fast
from badacey_fast import kernel as _kernel

# Both twins, always, unless a job narrows it on purpose: the sanitizer job runs the C twin only (every
# test that reaches C, under ASan/UBSan, where the Python twin would only double the time).
BACKENDS = tuple(os.environ.get("BADACEY_FAST_TEST_TWINS", "python,c").split(","))
MARKER = "backend_independent"  # registered with its meaning in pyproject.toml



def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:  # only tests under tests/ see the autouse fixture
        return
    if metafunc.definition.get_closest_marker(MARKER) is not None:
        if "backend" in inspect.signature(metafunc.function).parameters:
            raise pytest.UsageError(f"{metafunc.definition.nodeid} is marked {MARKER} but asks for the backend")
        return
    metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture(autouse=True)
def backend(request: pytest.FixtureRequest):
    """Serve every evaluation from one twin for the duration of the test; yields its name."""
    which = getattr(request, "param", None)
    if which is None:  # a backend_independent test: the session's default twin, untouched
        yield badacey_fast.backend
        return
    with _kernel.using(which):
        yield which



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
