"""bench/ is not a package: its suites and scripts import the side-by-side runner (``side_by_side``), its
case modules (``cases_*``) and ``workloads`` by name, as ``python bench/side_by_side.py`` does (a script's
own directory comes first on ``sys.path``).  Under pytest (``--import-mode=importlib``) that directory is
put there here."""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
