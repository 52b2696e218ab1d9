"""The one seam to C: the only importer of the compiled modules (``_kernel``, ``_speedups``).

:mod:`.backend` holds the backend policy (``BADACEY_FAST_BACKEND``: auto, c, python); ``_c`` is the C
twin (cffi kernel and tables), ``_py`` the pure-Python twin with the same names.
"""

from __future__ import annotations

from badacey_fast.kernel.backend import ENV_VAR, POLICIES, kernel, load, using

__all__ = ["ENV_VAR", "POLICIES", "kernel", "load", "using"]
