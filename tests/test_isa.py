"""The kernel's code-path switch, ``BADACEY_FAST_ISA=auto|avx512|avx2|scalar``, in fresh interpreters.

The switch is read by the C kernel (csrc/badacey.c) once, at first use; a value the CPU cannot honour is
a ``SettingError`` (a ValueError) when the package loads the C twin (``kernel._c``, before any call), never
an illegal instruction.  Here: each path this CPU has is selected and gives the same answers as the others; a
misspelt value and a missing path are refused in words.  The full exhaustive and bulk suites run once
per path in CI (.ci/isa); the C-only golden test (csrc/tests/run) does the same without Python.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from badacey_fast.kernel import backend as _backend

NAMES = ("scalar", "avx2", "avx512")

_LEVELS = """
import badacey_fast as bf
from badacey_fast.kernel import backend
bf.evaluate((3, 6, 9, 12, 19))  # loads a table: the switch is checked here
lib = backend.kernel().lib
print(lib.bd_simd_level(), lib.bd_cpu_simd_level())
"""

_RESULTS = """
import hashlib
import numpy as np
import badacey_fast as bf
from badacey_fast import bulk

rng = np.random.default_rng(5)
digest = hashlib.sha256()
hands = np.argsort(rng.random((50_003, 52)), axis=1)[:, :5].astype(np.uint8)
for game in ("badacey", "badeucy"):
    low, badugi = bulk.evaluate_many(hands, game)
    digest.update(low.tobytes() + badugi.tobytes())
for seats in (2, 3, 6):
    deals = np.argsort(rng.random((4_001, 52)), axis=1)[:, :5 * seats].reshape(-1, seats, 5)
    live = rng.random((len(deals), seats)) < 0.8
    live[:, 0] = True
    pot = rng.integers(0, 1000, len(deals))
    button = rng.integers(0, seats, len(deals))
    for game in ("badacey", "badeucy"):
        digest.update(bulk.showdown_many(deals, live, game).tobytes())
        digest.update(bulk.showdown_many(deals, live, game, pot=pot, button=button).tobytes())
        digest.update(bulk.showdown_many(deals, live, game, pot=pot, button=button, odd_chip="low").tobytes())
print(digest.hexdigest())
"""


def _child(code: str, isa: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "BADACEY_FAST_ISA"}
    env["BADACEY_FAST_BACKEND"] = "c"
    if isa is not None:
        env["BADACEY_FAST_ISA"] = isa
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def cpu_level() -> int:
    with _backend.using("c"):
        return _backend.kernel().lib.bd_cpu_simd_level()


def test_each_path_the_cpu_has_is_selected(cpu_level: int) -> None:
    for level in range(cpu_level + 1):
        run = _child(_LEVELS, NAMES[level])
        assert run.returncode == 0, run.stderr
        assert run.stdout.split() == [str(level), str(cpu_level)]
    for auto in (None, "auto", "", " AUTO "):
        run = _child(_LEVELS, auto)
        assert run.returncode == 0, run.stderr
        assert run.stdout.split() == [str(cpu_level), str(cpu_level)]


def test_every_path_gives_the_same_answers(cpu_level: int) -> None:
    digests = {}
    for level in range(cpu_level + 1):
        run = _child(_RESULTS, NAMES[level])
        assert run.returncode == 0, run.stderr
        digests[NAMES[level]] = run.stdout.strip()
    assert len(set(digests.values())) == 1, digests


def test_a_misspelt_value_is_refused_in_words() -> None:
    run = _child(_LEVELS, "avx-512")
    assert run.returncode != 0
    # A ValueError subclass (errors.SettingError), raised as the package loads the C twin
    assert "SettingError: BADACEY_FAST_ISA=avx-512 is not one of auto, avx512, avx2, scalar" in run.stderr
    assert "this CPU has: " in run.stderr


@pytest.mark.parametrize("level", [1, 2])
def test_a_path_is_served_if_the_cpu_has_it_else_refused_in_words(cpu_level: int, level: int) -> None:
    # Which answer is right depends on the CPU, so both are tested: a path the CPU has is served (the
    # kernel reports that level), one it lacks is refused by name (csrc/tests/run also checks the refusal
    # on a scalar-only build, where every vector path is missing).
    run = _child(_LEVELS, NAMES[level])
    if cpu_level >= level:
        assert run.returncode == 0, run.stderr
        assert run.stdout.split()[0] == str(level), run.stdout
    else:
        assert run.returncode != 0
        assert f"BADACEY_FAST_ISA={NAMES[level]} asks for the {NAMES[level]} code path, which this CPU lacks" in run.stderr
