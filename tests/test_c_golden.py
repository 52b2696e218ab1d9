"""csrc/tests/golden.txt (the C-only test's answers) is what the Python reference says today."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_golden_file_matches_the_reference() -> None:
    spec = importlib.util.spec_from_file_location("make_golden", ROOT / "csrc" / "tests" / "make_golden.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = (ROOT / "csrc" / "tests" / "golden.txt").read_text(encoding="ascii").splitlines()
    assert written == module.lines(), "rules changed? run: python csrc/tests/make_golden.py > csrc/tests/golden.txt"
