"""The docs site's pages (docs/*.md) say what the code does.

- Every page's ``>>>`` examples run as doctests, as the README's do (tests/test_readme.py): one namespace
  per page, on the default backend (the modules' own doctests run on both twins).
- Every plain ```python block of a page (the training loops of docs/rl.md) runs as written, each in a
  fresh namespace.
- The layer picture of docs/contributing.md is the import-linter contract's order (pyproject.toml).
- The API reference's overview names every public name of ``badacey_fast``.

The build itself (links, anchors, every docstring rendered) is ``mkdocs build --strict``, which CI runs
from a clean clone with the ``docs`` extra (.ci/run).  The examples are type-checked by tests/test_types.py.
"""

from __future__ import annotations

import doctest
import os
import re
import sys
from pathlib import Path

import pytest

import badacey_fast

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

pytestmark = pytest.mark.backend_independent  # see the module docstring

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
_FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


#: Pages whose examples run elsewhere: docs/solving.md needs OpenSpiel, which only some CI Pythons install
#: (tests/test_envs_openspiel.py::test_the_solving_docs_examples_run runs them where it is).
ELSEWHERE = {DOCS / "solving.md"}


def _with_examples() -> list[Path]:
    return [page for page in PAGES
            if page not in ELSEWHERE and doctest.DocTestParser().get_examples(page.read_text(encoding="utf-8"))]


def _plain_blocks(text: str) -> list[str]:
    return [b for b in _FENCE.findall(text) if not any(line.lstrip().startswith(">>>") for line in b.splitlines())]


def test_the_pages_with_examples_are_found() -> None:
    names = {_name(page) for page in _with_examples()}
    assert {"docs/hands.md", "docs/bulk.md", "docs/draws.md", "docs/engine.md"} <= names, sorted(names)


@pytest.mark.parametrize("page", _with_examples(), ids=_name)
def test_page_examples(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0, f"{_name(page)}: {result.failed} of {result.attempted} examples failed"


_BLOCKS = [(page, i, code) for page in PAGES for i, code in enumerate(_plain_blocks(page.read_text(encoding="utf-8")))]


def test_the_training_loops_are_found() -> None:
    assert sum(1 for page, _, _ in _BLOCKS if page.name == "rl.md") == 3  # PettingZoo, Gymnasium, OpenSpiel


@pytest.mark.parametrize("page,index,code", _BLOCKS, ids=[f"{_name(p)}-{i}" for p, i, _ in _BLOCKS])
def test_page_python_blocks_run_as_written(page: Path, index: int, code: str) -> None:
    exec(compile(code, f"{_name(page)} block {index}", "exec"), {"__name__": "docs"})


def _picture(text: str) -> list[list[str]]:
    """The layer picture after the ``<!-- layers -->`` line of a page, lowest layer first: each layer a
    list of its modules (siblings are written ``(a | b)``)."""
    block = text.split("<!-- layers -->", 1)[1].split("```", 2)[1].strip()
    return [[name.strip() for name in step.strip().strip("()").split("|")] for step in block.split("→")]


def test_the_layer_picture_is_the_import_linter_contract() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "layers"]
    layers = [[name.strip() for name in line.split("|")] for line in reversed(contract["layers"])]
    picture = _picture((DOCS / "contributing.md").read_text(encoding="utf-8"))
    assert [sorted(step) for step in picture] == [sorted(step) for step in layers]


def test_the_picture_reader_reads_siblings() -> None:
    assert _picture("x\n<!-- layers -->\n```\nerrors → (a | b) → cli\n```\n") == [["errors"], ["a", "b"], ["cli"]]


def test_the_api_overview_names_every_public_name() -> None:
    text = (DOCS / "api" / "index.md").read_text(encoding="utf-8")
    missing = [name for name in badacey_fast.__all__ if f"`{name}`" not in text]
    assert not missing, f"docs/api/index.md does not name: {missing}"


def _marked_exhaustive() -> set[str]:
    """``file.py::test_name`` of every test function decorated ``@pytest.mark.exhaustive`` (with or without
    twins), or with an ``exhaustive`` parametrisation, read from the test files' source."""
    import ast

    found = set()
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                if any("mark.exhaustive" in ast.unparse(d) for d in node.decorator_list):
                    found.add(f"{path.name}::{node.name}")
    return found


def test_the_testing_page_lists_every_exhaustive_test() -> None:
    text = (DOCS / "testing.md").read_text(encoding="utf-8")
    table = text.split("## What the exhaustive tests are", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([\w.]+::\w+)", table, re.M))
    assert listed == _marked_exhaustive()


def test_exhaustive_with_a_twin_marks_that_twin_only() -> None:
    """``@pytest.mark.exhaustive("python")``: -m exhaustive selects the Python twin's run, -m "not
    exhaustive" the C twin's (tests/conftest.py), in a pytest of its own."""
    import subprocess

    node = "tests/test_arrow.py::test_payout_files_plain_and_uncompressed_by_default_any_codec_on_request"

    # Both twins collected whatever this run serves (CI's sanitizer job and other Pythons set the C twin only).
    env = {k: v for k, v in os.environ.items() if k != "BADACEY_FAST_TEST_TWINS"}

    def collected(expression: str) -> list[str]:
        run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              "-m", expression, node], cwd=ROOT, capture_output=True, text=True, timeout=600,
                             env=env)
        assert run.returncode == 0, run.stdout + run.stderr
        return [line.split("::")[-1] for line in run.stdout.splitlines() if line.startswith(node)]

    assert collected("exhaustive") == ["test_payout_files_plain_and_uncompressed_by_default_any_codec_on_request[python]"]
    assert collected("not exhaustive") == ["test_payout_files_plain_and_uncompressed_by_default_any_codec_on_request[c]"]
