"""Type information: ``mypy --strict`` (the ``[tool.mypy]`` settings of pyproject.toml) passes on the package
and on the examples of the README and of the docs pages, and the hand-written stubs of the compiled
extensions match them.

The examples are type-checked as a user's code would be: every ``>>>`` / ``...`` line of a page's doctest
blocks (they run in one namespace, so they form one module, in page order), and every plain ```python
block on its own (each runs in a fresh namespace).  Each line keeps its line number in the generated
module (the lines between are left blank), so mypy's "readme_doctests.py:123" is README.md line 123, and
"docs_rl_block_14.py:16" is docs/rl.md line 16.

No evaluation happens here, hence ``backend_independent``.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.backend_independent

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PACKAGE = ROOT / "badacey_fast"
_FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def readme_modules(text: str, prefix: str = "readme") -> dict[str, str]:
    """A page's Python examples as modules to type-check: file name -> source, the page's line numbers
    kept.  ``<prefix>_doctests.py`` holds the source of every doctest example (as doctest itself parses
    them: the expected output is not code); each plain ```python block is ``<prefix>_block_<line>.py``
    (<line>: the page line of its first line of code)."""
    n_lines = text.count("\n") + 1
    doctest_lines = [""] * n_lines
    for example in doctest.DocTestParser().get_examples(text):
        source = example.source.splitlines()
        doctest_lines[example.lineno:example.lineno + len(source)] = source
    modules = {f"{prefix}_doctests.py": "\n".join(doctest_lines) + "\n"}
    for match in _FENCE.finditer(text):
        body = match.group(1).splitlines()
        if any(line.lstrip().startswith(">>>") for line in body):
            continue  # a doctest block: above
        first = text.count("\n", 0, match.start(1))
        lines = [""] * n_lines
        lines[first:first + len(body)] = body
        modules[f"{prefix}_block_{first + 1}.py"] = "\n".join(lines) + "\n"
    return modules


def _mypy(*targets: str | Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """``python -m mypy`` with the project's configuration and a private cache (xdist workers do not share)."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(cache),
         "--no-error-summary", "--hide-error-context", *map(str, targets)],
        capture_output=True, text=True, cwd=ROOT, timeout=900,
        env={**os.environ, "MYPY_FORCE_COLOR": "0", "PYTHONUTF8": "1"},
    )


def test_the_readme_extraction_keeps_line_numbers() -> None:
    text = 'intro\n```python\n>>> x = 1\n>>> for i in (1,\n...     2):\n...     x += i\n>>> x\n4\n' \
           '>>> 1 / 0\nTraceback (most recent call last):\n...\nZeroDivisionError: division by zero\n\n```\n' \
           'more\n```python\nimport os\nprint(os.sep)\n```\n'
    modules = readme_modules(text)
    assert sorted(modules) == ["readme_block_17.py", "readme_doctests.py"]
    doc = modules["readme_doctests.py"].splitlines()
    assert doc[2:9] == ["x = 1", "for i in (1,", "    2):", "    x += i", "x", "", "1 / 0"]
    assert doc[10] == ""  # the traceback's "..." is output, not code
    assert modules["readme_block_17.py"].splitlines()[16:18] == ["import os", "print(os.sep)"]
    compile(modules["readme_doctests.py"], "readme_doctests.py", "exec")


def test_the_readme_examples_are_extracted() -> None:
    modules = readme_modules(README.read_text(encoding="utf-8"))
    doc = modules["readme_doctests.py"]
    assert sum(1 for line in doc.splitlines() if line.strip()) > 20  # statements of many doctest blocks
    assert "import badacey_fast as bf" in doc
    assert len(modules) >= 2  # the doctests and the training loop (at least)
    for name, source in modules.items():
        compile(source, name, "exec")


def example_modules() -> dict[str, tuple[str, str]]:
    """Every example of the README and of the docs pages: module file name -> (source, page it is from)."""
    pages = [(README, "readme")] + [(page, "docs_" + page.stem.lower()) for page in sorted(DOCS.rglob("*.md"))]
    modules = {}
    for page, prefix in pages:
        for name, source in readme_modules(page.read_text(encoding="utf-8"), prefix).items():
            if source.strip():
                modules[name] = (source, str(page.relative_to(ROOT)))
    return modules


@pytest.mark.exhaustive
def test_mypy_strict_passes_on_the_package_and_the_examples_and_reports_a_planted_error(tmp_path: Path) -> None:
    """One mypy run (the package's analysis is shared): the package, strict, every example of the README
    and of the docs pages against it, and one planted wrong call, which must be the only error (so the
    check can fail).  An error names the page and its line."""
    examples = tmp_path / "examples"
    examples.mkdir()
    pages = {}
    for name, (source, page) in example_modules().items():
        (examples / name).write_text(source, encoding="utf-8")
        pages[name] = page
    bad = examples / "planted_error.py"
    bad.write_text('import badacey_fast as bf\n\nrank: str = bf.low_rank("As 2h 3d 4c 5s")\n', encoding="utf-8")
    proc = _mypy(PACKAGE, *sorted(examples.iterdir()), cache=tmp_path / "cache")
    out = proc.stdout + proc.stderr
    for name, page in pages.items():
        out = out.replace(str(examples / name), f"{page} example ({name})")
    planted = 'planted_error.py:3: error: Incompatible types in assignment (expression has type "int"'
    others = [line for line in out.splitlines() if line.strip() and "planted_error.py" not in line]
    assert not others, "mypy --strict (pyproject.toml's [tool.mypy]) found errors:\n" + "\n".join(others)
    assert proc.returncode == 1 and planted in out, out  # the same configuration rejects a wrong call


def test_the_examples_of_the_docs_pages_are_extracted() -> None:
    modules = example_modules()
    pages = {page for _, page in modules.values()}
    assert {"README.md", "docs/hands.md", "docs/rl.md"} <= pages, sorted(pages)
    assert any(name.startswith("docs_rl_block_") for name in modules)  # the training loops, one module each


def test_the_package_is_marked_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()


def test_the_compiled_extension_stubs_match_the_extensions() -> None:
    """``_kernel.pyi`` declares exactly what the built cffi extension exports (its ``lib`` is assembled
    from the csrc/*.h declarations, so a function added there must be typed here too), and
    ``_speedups.pyi`` exactly the names of ``_speedups`` (its classes, functions and constants)."""
    # (imported by name: the package's own ``_kernel`` attribute is its alias of badacey_fast.kernel)
    _kernel = importlib.import_module("badacey_fast._kernel")
    _speedups = importlib.import_module("badacey_fast._speedups")
    stub = ast.parse((PACKAGE / "_kernel.pyi").read_text(encoding="utf-8"))
    lib_class = next(node for node in stub.body if isinstance(node, ast.ClassDef) and node.name == "_Lib")
    declared = {node.name for node in lib_class.body if isinstance(node, ast.FunctionDef)}
    declared |= {node.target.id for node in lib_class.body
                 if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    assert declared == set(dir(_kernel.lib))
    stub = ast.parse((PACKAGE / "_speedups.pyi").read_text(encoding="utf-8"))
    public = {node.name for node in stub.body
              if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and not node.name.startswith("_")}
    public |= {node.target.id for node in stub.body  # its constants
               if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    assert public == {name for name in dir(_speedups) if not name.startswith("_")}


def test_the_lazy_names_of_the_package_are_typed() -> None:
    """Every name of ``badacey_fast.__all__`` is bound for type checkers in ``__init__.py``: imported or
    declared at the top level, or under ``if TYPE_CHECKING:`` (the names ``__getattr__`` loads on first
    use), so a user's ``bf.showdown_many`` is typed rather than ``object``."""
    import badacey_fast

    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            bound.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            bound.add(node.target.id)
    missing = sorted(set(badacey_fast.__all__) - bound)
    assert not missing, f"names of __all__ a type checker cannot see in badacey_fast/__init__.py: {missing}"
