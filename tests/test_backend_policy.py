"""The backend policy, ``BADACEY_FAST_BACKEND=auto|c|python``, exercised in fresh interpreters.

The policy runs once, at import, so each case imports ``badacey_fast`` in a subprocess with the variable
set.  "C unavailable" is simulated by poisoning ``sys.modules["badacey_fast.kernel._c"]`` before the import,
which makes ``from . import _c`` raise ``ImportError`` exactly as a missing extension would.
The cases where the C kernel *is* available need the built kernel: without it they fail, by design.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import badacey_fast
from badacey_fast.kernel import backend as _backend
from badacey_fast.errors import BadaceyError

# Each case chooses its twin by BADACEY_FAST_BACKEND in a fresh interpreter (or with using() in-process):
# the in-process switch of conftest cannot reach them, so they run once.
pytestmark = pytest.mark.backend_independent

# The directory holding the package under test, so the child imports the very same badacey_fast.
PACKAGE_PARENT = str(Path(badacey_fast.__file__).resolve().parent.parent)

CHILD = r"""
import json, sys, warnings
if BLOCK_C:
    sys.modules["badacey_fast.kernel._c"] = None  # `from . import _c` now raises ImportError
out = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        import badacey_fast
        out["backend"] = badacey_fast.backend
        out["value"] = list(badacey_fast.evaluate("As 2h 3d 4c 5s"))
    except Exception as exc:
        out["error"] = type(exc).__name__
        out["message"] = str(exc)
        out["value_error"] = isinstance(exc, ValueError)
out["warnings"] = [[w.category.__name__, str(w.message)] for w in caught]
print(json.dumps(out))
"""


def run_child(policy: str | None, block_c: bool = False) -> dict:
    env = {k: v for k, v in os.environ.items() if k != _backend.ENV_VAR}
    if policy is not None:
        env[_backend.ENV_VAR] = policy
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    code = f"BLOCK_C = {block_c!r}\n" + CHILD
    # cwd: `python -c` puts the working directory first on sys.path; from a source checkout that would
    # shadow the installed package (and its compiled kernel) with the bare sources.
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, cwd=PACKAGE_PARENT
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("policy", ["python", "PYTHON", " python "])
def test_python_policy(policy: str) -> None:
    out = run_child(policy)
    assert out.get("backend") == "python", out
    assert out["value"] == [1, 1]
    assert out["warnings"] == []


def test_python_policy_needs_no_c_kernel() -> None:
    out = run_child("python", block_c=True)
    assert out.get("backend") == "python", out
    assert out["warnings"] == []


@pytest.mark.parametrize("policy", ["garbage", "cpython", "C kernel"])
def test_garbage_policy_is_named(policy: str) -> None:
    out = run_child(policy)
    assert "backend" not in out, out
    assert out["value_error"] is True, out
    assert repr(policy) in out["message"] and _backend.ENV_VAR in out["message"]


@pytest.mark.parametrize("policy", ["auto", None, ""])
def test_auto_without_c_warns_once_and_uses_python(policy: str | None) -> None:
    out = run_child(policy, block_c=True)
    assert out.get("backend") == "python", out
    assert out["value"] == [1, 1]
    runtime = [msg for cat, msg in out["warnings"] if cat == "RuntimeWarning"]
    assert len(runtime) == 1, out["warnings"]
    assert "C kernel unavailable" in runtime[0] and _backend.ENV_VAR in runtime[0]
    assert len(out["warnings"]) == 1, out["warnings"]


def test_c_policy_without_c_is_an_import_error_naming_the_variable() -> None:
    out = run_child("c", block_c=True)
    assert out.get("error") == "ImportError", out
    assert f"{_backend.ENV_VAR}=c" in out["message"]
    assert out["warnings"] == []


@pytest.mark.parametrize("policy", ["c", "auto", None])
def test_c_kernel_serves_when_built(policy: str | None) -> None:
    out = run_child(policy)
    assert out.get("backend") == "c", out
    assert out["value"] == [1, 1]
    assert out["warnings"] == []


# --- in-process helpers ----------------------------------------------------------------------------


def test_load_unknown_backend_is_named() -> None:
    with pytest.raises(BadaceyError, match="'fortran'"):
        _backend.load("fortran")


def test_using_switches_and_restores() -> None:
    before = _backend.name
    with _backend.using("python") as twin:
        assert twin.NAME == "python" and badacey_fast.backend == "python"
    assert _backend.name == before
    with pytest.raises(KeyError):
        with _backend.using("python"):
            raise KeyError("boom")
    assert _backend.name == before == badacey_fast.backend
