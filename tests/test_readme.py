"""The README's examples run as written (doctest over README.md).

They run once, on the default backend (the C kernel on an installed package; `test_backend_policy` checks
that it is active), hence ``backend_independent``: the twins' agreement is tested operation by operation
elsewhere (the modules' own doctests run on both), and the README's full-deck draw examples take ~50 s on
the pure-Python twin.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.backend_independent
def test_readme_examples() -> None:
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert result.attempted > 20
    assert result.failed == 0
