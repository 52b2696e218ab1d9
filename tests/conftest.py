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


# Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (default "ci").  "ci" keeps hypothesis' usual 100
# examples (the fuzz files scale their slow tests down from it) so the suite stays
# within CI's budget on two cores; "soak" is the standing run documented in the README (200x as many).  deadline=None: one example may take a kernel
# table load or a few thousand reference evaluations, and timing is not what these tests judge.
import os  # noqa: E402  (kept beside the profiles it serves)

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
