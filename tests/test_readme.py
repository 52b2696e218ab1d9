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


@pytest.mark.backend_independent
def test_readme_training_loops_run_as_written() -> None:
    # The plain ```python blocks of the training section (not doctests): each runs in a fresh namespace.
    text = README.read_text()
    section = text[text.index("## Training bots"):]
    section = section[:section.index("\n## ", 3)]
    blocks = [b.split("```", 1)[0] for b in section.split("```python\n")[1:]]
    assert len(blocks) == 3
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
