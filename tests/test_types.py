"""Type information: ``mypy --strict`` (the ``[tool.mypy]`` settings of pyproject.toml) passes on the package
and on the README's examples, and the hand-written stubs of the compiled extensions match them.

The README's examples are type-checked as a user's code would be: every ``>>>`` / ``...`` line of the
doctest blocks (they run in one namespace, so they form one module, in README order), and every plain
```python block on its own (each runs in a fresh namespace).  Each README line keeps its line number in
the generated module (the lines between are left blank), so mypy's "readme_doctests.py:123" is README.md
line 123.

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
PACKAGE = ROOT / "badacey_fast"
_FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def readme_modules(text: str) -> dict[str, str]:
    """The README's Python examples as modules to type-check: file name -> source, README line numbers
    kept.  ``readme_doctests.py`` holds the source of every doctest example (as doctest itself parses
    them: the expected output is not code); each plain ```python block is ``readme_block_<line>.py``
    (<line>: the README line of its first line of code)."""
    n_lines = text.count("\n") + 1
    doctest_lines = [""] * n_lines
    for example in doctest.DocTestParser().get_examples(text):
        source = example.source.splitlines()
        doctest_lines[example.lineno:example.lineno + len(source)] = source
    modules = {"readme_doctests.py": "\n".join(doctest_lines) + "\n"}
    for match in _FENCE.finditer(text):
        body = match.group(1).splitlines()
        if any(line.lstrip().startswith(">>>") for line in body):
            continue  # a doctest block: above
        first = text.count("\n", 0, match.start(1))
        lines = [""] * n_lines
        lines[first:first + len(body)] = body
        modules[f"readme_block_{first + 1}.py"] = "\n".join(lines) + "\n"
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
    assert sum(1 for line in doc.splitlines() if line.strip()) > 40  # statements of many doctest blocks
    assert "import badacey_fast as bf" in doc
    assert len(modules) >= 4  # the doctests and the training loops (at least)
    for name, source in modules.items():
        compile(source, name, "exec")


def test_mypy_strict_passes_on_the_package_and_the_readme(tmp_path: Path) -> None:
    """One mypy run (the package's analysis is shared): the package, strict, and the README's examples
    against it.  An error names the file and line (README.md's own line for the readme_* modules)."""
    examples = tmp_path / "readme"
    examples.mkdir()
    for name, source in readme_modules(README.read_text(encoding="utf-8")).items():
        (examples / name).write_text(source, encoding="utf-8")
    proc = _mypy(PACKAGE, *sorted(examples.iterdir()), cache=tmp_path / "cache")
    out = (proc.stdout + proc.stderr).replace(str(examples) + os.sep, "README.md examples: ")
    assert proc.returncode == 0, f"mypy --strict (pyproject.toml's [tool.mypy]) found errors:\n{out}"


def test_mypy_reports_a_type_error(tmp_path: Path) -> None:
    """The check above can fail: the same configuration rejects a wrong call into the package."""
    bad = tmp_path / "bad_example.py"
    bad.write_text('import badacey_fast as bf\n\nrank: str = bf.low_rank("As 2h 3d 4c 5s")\n', encoding="utf-8")
    proc = _mypy(PACKAGE / "errors.py", bad, cache=tmp_path / "cache")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert 'bad_example.py:3: error: Incompatible types in assignment (expression has type "int"' in proc.stdout


def test_the_package_is_marked_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()


def test_the_compiled_extension_stubs_match_the_extensions() -> None:
    """``_kernel.pyi`` declares exactly what the built cffi extension exports (its ``lib`` is assembled
    from the csrc/*.h declarations, so a function added there must be typed here too), and
    ``_speedups.pyi`` exactly the names of ``_speedups`` (its classes and functions)."""
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
