"""Backend policy: which twin (``_c`` or ``_python``) serves the evaluators.

``BADACEY_FAST_BACKEND=auto|c|python`` governs the choice (default ``auto``).
"""

from __future__ import annotations

import os

from . import _python

ENV_VAR = "BADACEY_FAST_BACKEND"

impl = _python
name = impl.NAME
