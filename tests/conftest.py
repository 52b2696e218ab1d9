"""Shared fixtures.

``backend`` runs a test once per twin ("python" and "c").  A missing C kernel is a test *error*, never a
skip: CI must build it.
"""

from __future__ import annotations

import pytest

from badacey_fast.kernel import backend as _backend


@pytest.fixture(params=["python", "c"])
def backend(request: pytest.FixtureRequest):
    """Serve every evaluation from one twin for the duration of the test; yields its name."""
    with _backend.using(request.param):
        yield request.param
