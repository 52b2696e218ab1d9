"""Backend policy: which twin (``_c`` or ``_python``) serves the evaluators.

One environment variable, ``BADACEY_FAST_BACKEND``, governs the choice:

- ``auto`` (default): the C kernel when its extension imports, else the reference with one warning;
- ``c``: the C kernel or an ``ImportError`` saying why not;
- ``python``: the pure-Python reference.

Both twins export the same private functions (``evaluate5``, ``low_rank5``, ``badugi_rank``); the
public API calls ``_backend.impl.<function>`` at call time, so :func:`using` can switch twins in tests.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Iterator
from types import ModuleType

from . import _python
from .errors import BadaceyError

__all__ = ["ENV_VAR", "POLICIES", "impl", "name", "load", "using"]

ENV_VAR = "BADACEY_FAST_BACKEND"
POLICIES = ("auto", "c", "python")


class BackendError(BadaceyError):
    """An unknown value of ``BADACEY_FAST_BACKEND``."""


def _policy() -> str:
    raw = os.environ.get(ENV_VAR, "auto")
    policy = raw.strip().lower() or "auto"
    if policy not in POLICIES:
        raise BackendError(f"{ENV_VAR}={raw!r} is not one of auto, c, python")
    return policy


def load(which: str) -> ModuleType:
    """Return the twin module for ``"c"`` or ``"python"``; ``"c"`` raises ``ImportError`` if unavailable."""
    if which == "python":
        return _python
    if which == "c":
        from . import _c  # imports the compiled extension; tables are loaded lazily on first use

        return _c
    raise BackendError(f"unknown backend {which!r}: expected 'c' or 'python'")


def _choose() -> ModuleType:
    policy = _policy()
    if policy == "python":
        return _python
    try:
        return load("c")
    except ImportError as exc:
        if policy == "c":
            raise ImportError(f"{ENV_VAR}=c but the C kernel is unavailable: {exc}") from exc
        warnings.warn(
            f"badacey_fast: C kernel unavailable ({exc}); using the pure-Python reference "
            f"(set {ENV_VAR}=python to silence this, or reinstall to build the kernel)",
            RuntimeWarning,
            stacklevel=3,
        )
        return _python


impl: ModuleType = _choose()
name: str = impl.NAME


@contextlib.contextmanager
def using(which: str) -> Iterator[ModuleType]:
    """Temporarily serve every evaluation from the named twin (``"c"`` or ``"python"``); for tests."""
    global impl, name
    saved = impl, name
    impl = load(which)
    name = impl.NAME
    try:
        yield impl
    finally:
        impl, name = saved
