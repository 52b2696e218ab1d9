"""Backend policy: which twin (``_c`` or ``_py``) serves the evaluators; the C kernel handle.

One environment variable, ``BADACEY_FAST_BACKEND``, governs the choice:

- ``auto`` (default): the C kernel when its extension imports and its table files are present, else the
  reference with one warning.  A table file that is present but damaged (size, header, checksum or
  ranges, checked on first use) raises ``TableIntegrityError`` as in ``c``: falling back is for a
  missing kernel, not for damaged data, which would otherwise hide behind a 100-1000x slowdown;
- ``c``: the C kernel, or an ``ImportError`` (extension not built) / ``TableIntegrityError`` (tables
  missing or damaged, naming the file and the fix) saying why not;
- ``python``: the pure-Python reference.

Both twins export the same functions (listed in :mod:`badacey_fast.kernel`, which dispatches to
``impl`` at call time, so :func:`using` can switch twins in tests; their common contract is
:class:`badacey_fast.kernel.twin.Twin`).  ``name`` is the serving twin's name,
``"c"`` or ``"python"``; :func:`using` also re-sets the package's ``kernel.name`` and ``kernel.single``.

For the tests of the C kernel itself, :func:`kernel` returns the loaded kernel object (``_c.KERNEL``):

- ``kernel().ffi`` and ``kernel().lib``: the cffi handles of the extension ``badacey_fast._kernel``
  (every ``csrc/*.c`` file; declarations from every ``csrc/*.h`` between the BD_CDEF markers);
- ``kernel().table(ace_high)``: a cffi ``uint32_t[]`` usable as the ``const uint32_t *table`` argument
  of the kernel functions: Badacey's table (``False``) or Badeucy's (``True``), read and checksummed on
  the first call, then cached.  Layout in ``csrc/badacey.h`` and :mod:`badacey_fast.tables`;
- ``kernel().badugi4(ace_high)``: a cffi ``uint16_t[BD_HANDS4]`` of four-card badugi ranks by colex
  index (for ``bd_badugi4_many``), derived from that table on first use.

The package itself never calls it: its C calls are the C twin's functions.
"""

from __future__ import annotations

import os
import sys

from badacey_fast.errors import BackendError, TableIntegrityError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (docs/import.md); mypy reads it alike
if TYPE_CHECKING:
    from types import TracebackType

    from badacey_fast.kernel._c import Kernel
    from badacey_fast.kernel.twin import Single, Twin

__all__ = ["ENV_VAR", "POLICIES", "impl", "name", "load", "using", "kernel"]

ENV_VAR = "BADACEY_FAST_BACKEND"
POLICIES = ("auto", "c", "python")


def _policy() -> str:
    raw = os.environ.get(ENV_VAR, "auto")
    policy = raw.strip().lower() or "auto"
    if policy not in POLICIES:
        raise BackendError(f"{ENV_VAR}={raw!r} is not one of auto, c, python")
    return policy


def load(which: str) -> Twin:
    """Return the twin module for ``"c"`` or ``"python"``; ``"c"`` raises ``ImportError`` if unavailable."""
    if which == "python":
        # Imported when chosen: the reference evaluators it serves cost import time the C twin does not need.
        from badacey_fast.kernel import _py as _py

        return _py
    if which == "c":
        from badacey_fast.kernel import _c as _c  # imports the compiled extension; tables are loaded lazily on first use

        return _c
    raise BackendError(f"unknown backend {which!r}: expected 'c' or 'python'")


def _choose() -> Twin:
    policy = _policy()
    if policy == "python":
        return load("python")
    try:
        return load("c")
    except (ImportError, TableIntegrityError) as exc:
        if isinstance(exc, TableIntegrityError) and not exc.missing:
            raise
        if policy == "c":
            if isinstance(exc, TableIntegrityError):
                raise
            raise ImportError(f"{ENV_VAR}=c but the C kernel is unavailable: {exc}") from exc
        import warnings  # (here: only a fallback warns)

        warnings.warn(
            f"badacey_fast: C kernel unavailable ({exc}); using the pure-Python reference "
            f"(set {ENV_VAR}=python to silence this, or reinstall to build the kernel)",
            RuntimeWarning,
            stacklevel=3,
        )
        return load("python")


impl: Twin = _choose()
name: str = impl.NAME
_NO_SINGLE: Single = (None, None)
#: evaluate()'s single-hand call, per ace_high: ``f(cards) -> Value or None`` (C twin, table loaded), else
#: None.
single: Single = getattr(impl, "SINGLE", _NO_SINGLE)


def _publish() -> None:
    """Mirror ``name`` and ``single`` on the package (``kernel.name``, ``kernel.single``): plain
    attributes there keep evaluate()'s fast path at one dict lookup, and this keeps them live."""
    package = sys.modules.get("badacey_fast.kernel")
    if package is not None:
        setattr(package, "name", name)  # (a module object: its attributes are set by name)
        setattr(package, "single", single)


class _Using:
    """:func:`using`'s context manager (a class rather than ``contextlib.contextmanager``: contextlib and
    what it imports would cost ``import badacey_fast`` a third of its time, docs/import.md)."""

    __slots__ = ("which", "saved")

    def __init__(self, which: str) -> None:
        self.which = which
        self.saved: tuple[Twin, str, Single] | None = None

    def __enter__(self) -> Twin:
        global impl, name, single
        self.saved = impl, name, single
        impl = load(self.which)
        name = impl.NAME
        single = getattr(impl, "SINGLE", _NO_SINGLE)
        _publish()
        return impl

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        global impl, name, single
        if self.saved is not None:
            impl, name, single = self.saved
            self.saved = None
            _publish()


def using(which: str) -> _Using:
    """Temporarily serve every evaluation from the named twin (``"c"`` or ``"python"``) within a ``with``
    block, which gets the twin; for tests.

    >>> from badacey_fast import kernel as served
    >>> with using("python") as twin:
    ...     twin.NAME, served.name
    ('python', 'python')
    """
    return _Using(which)


def kernel() -> Kernel:  # (_c is imported on call: the extension may be missing)
    """The C kernel object: ``.ffi``, ``.lib``, ``.table(ace_high)`` (see the module docstring).

    Raises ``ImportError`` if the extension is not built, ``TableIntegrityError`` if the table files are
    missing.

    >>> k = kernel()
    >>> k.lib.BD_HANDS5, len(k.ffi.buffer(k.table(False))) // 4 > k.lib.BD_HANDS5   # table: 5-card part first
    (2598960, True)
    """
    from badacey_fast.kernel import _c as _c

    return _c.KERNEL
