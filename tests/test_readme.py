"""The README's examples run as written (doctest over README.md).

They run once, on the default backend (the C kernel on an installed package; `test_backend_policy` checks
that it is active), hence ``backend_independent``: the twins' agreement is tested operation by operation
elsewhere (the modules' own doctests run on both), and the README's full-deck draw examples take ~50 s on
the pure-Python twin.  The docs pages' examples: tests/test_docs.py.
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


@pytest.mark.backend_independent
def test_readme_python_blocks_run_as_written() -> None:
    # The plain ```python blocks (not doctests: the RL researcher's training loop): each runs in a fresh
    # namespace.  The docs pages' blocks run in tests/test_docs.py.
    text = README.read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    plain = [b for b in blocks if not any(line.lstrip().startswith(">>>") for line in b.splitlines())]
    assert len(plain) >= 1
    for code in plain:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})


@pytest.mark.backend_independent
def test_readme_is_a_guide() -> None:
    # The README teaches; the figures and the internals live in the docs site (docs/).
    text = README.read_text()
    assert len(text.splitlines()) <= 350
    for marker in ("<!-- main-command -->", "<!-- test-command -->", "<!-- docs-command -->"):
        assert text.count(marker) == 1, marker  # .ci/run reads the command after each
