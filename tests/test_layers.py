"""The package's walls: every module imports alone and cleanly; no import cycle, not even through imports
under ``if TYPE_CHECKING:`` or inside functions; no private name used across modules; every exception class
in ``badacey_fast.errors``; and the import-linter layers contract (``[tool.importlinter]`` in pyproject.toml).

Modules are discovered with :func:`pkgutil.walk_packages` (a module added later is covered without
editing this file).

None of this depends on the serving twin: the whole module opts out of the two-backend parametrisation.
"""

from __future__ import annotations

import ast
import concurrent.futures
import importlib
import importlib.util
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import badacey_fast

pytestmark = pytest.mark.backend_independent

ROOT = badacey_fast.__name__
#: the compiled extensions, which only ``badacey_fast.kernel`` may import
COMPILED = (f"{ROOT}._kernel", f"{ROOT}._speedups")


def _walk() -> dict[str, Path]:
    """Every Python-source module of the package (name -> source file), ``__main__`` modules excepted."""
    errors: list[str] = []
    infos = list(pkgutil.walk_packages(badacey_fast.__path__, ROOT + ".", onerror=errors.append))
    if errors:
        raise ImportError(f"cannot walk badacey_fast subpackages: {errors}")
    found = {ROOT: Path(badacey_fast.__file__)}
    for info in infos:
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        spec = importlib.util.find_spec(info.name)
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            found[info.name] = Path(spec.origin)
    return found


SOURCES = _walk()
PACKAGES = {name for name, path in SOURCES.items() if path.name == "__init__.py"}
MODULES = sorted(SOURCES)


def test_discovery_sees_the_package() -> None:
    for name in (ROOT, f"{ROOT}.cards", f"{ROOT}.kernel", f"{ROOT}.kernel.backend", f"{ROOT}.game.table",
                 f"{ROOT}.cli.command"):
        assert name in MODULES


# --- (a) every module imports alone, in a fresh isolated interpreter, with warnings as errors ---------

#: One isolated interpreter (``-I -W error``) per batch of modules: it imports numpy, then forks one child per
#: module, which imports that module and nothing else of ours.  numpy's start-up (~0.2 s, most of a fresh
#: interpreter's import of any of our modules) is paid once a batch instead of once a module; the package
#: itself is never imported in the parent, so each child still meets our modules in its own order.
_FORK_EACH = r"""
import os, sys, traceback
import numpy  # not ours: paid once; numpy's own warnings would fail this parent under -W error
for name in sys.argv[1:]:
    sys.stdout.flush()  # else the child inherits the parent's unwritten lines and writes them again
    sys.stderr.flush()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.dup2(write, 1)
        os.dup2(write, 2)
        status = 0
        try:
            __import__(name)
        except BaseException:
            traceback.print_exc()
            status = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode("utf-8", "replace")
    _, wait = os.waitpid(pid, 0)
    print(repr((name, os.waitstatus_to_exitcode(wait), said)))
"""


def _import_each_alone(names: list[str]) -> list[tuple[str, int, str]]:
    """(module, exit status, what it printed) for each module imported alone in a forked child."""
    import ast as _ast

    proc = subprocess.run([sys.executable, "-I", "-W", "error", "-c", _FORK_EACH, *names],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and not proc.stderr, proc.stdout + proc.stderr
    results = [_ast.literal_eval(line) for line in proc.stdout.splitlines()]
    assert [name for name, _, _ in results] == names, proc.stdout
    return results


def test_every_module_imports_alone_without_warnings() -> None:
    """Each module imported first and alone (a module imported first is the one that would meet a cycle
    half-initialised), in a fresh isolated interpreter with warnings as errors, batches in parallel."""
    batches = [MODULES[i::2] for i in range(2)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(batches)) as pool:
        results = [r for batch in pool.map(_import_each_alone, batches) for r in batch]
    failures = [f"{name}: exit {rc}\n{said}" for name, rc, said in results if rc or said]
    assert not failures, "\n\n".join(failures)


def test_a_module_that_warns_or_fails_on_import_is_reported(tmp_path, monkeypatch) -> None:
    """The check itself can fail: a module that warns at import, and one that raises, are each reported."""
    (tmp_path / "warns_on_import.py").write_text("import warnings\nwarnings.warn('planted')\n")
    (tmp_path / "fails_on_import.py").write_text("raise RuntimeError('planted')\n")
    (tmp_path / "clean_on_import.py").write_text("X = 1\n")
    code = _FORK_EACH.replace("import numpy", f"sys.path.insert(0, {str(tmp_path)!r}); import numpy")
    monkeypatch.setattr(sys.modules[__name__], "_FORK_EACH", code)
    results = {name: (rc, said) for name, rc, said in
               _import_each_alone(["warns_on_import", "fails_on_import", "clean_on_import"])}
    assert results["clean_on_import"] == (0, "")
    assert results["warns_on_import"][0] == 1 and "UserWarning: planted" in results["warns_on_import"][1]
    assert results["fails_on_import"][0] == 1 and "RuntimeError: planted" in results["fails_on_import"][1]


# --- (b) no import cycle, function-level imports included --------------------------------------------

def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(name: str, type_checking: bool = False) -> list[tuple[str, tuple[str, ...], int]]:
    """(imported module, names imported from it, line) for every import of the package in the module's
    source, at any depth (functions included); those under ``if TYPE_CHECKING:`` (never run) only if
    ``type_checking``.  Relative imports are resolved; ``import a.b.c`` yields ``a.b.c``."""
    tree = ast.parse(SOURCES[name].read_text(encoding="utf-8"), filename=str(SOURCES[name]))
    package = name if name in PACKAGES else name.rpartition(".")[0]
    found: list[tuple[str, tuple[str, ...], int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node) and not type_checking:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, (), node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, tuple(alias.name for alias in node.names), node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return [item for item in found if item[0] == ROOT or item[0].startswith(ROOT + ".")]


def _targets(module: str, names: tuple[str, ...]) -> list[str]:
    """The package modules an import statement names: ``from pkg import sub`` names ``pkg.sub``."""
    subs = [f"{module}.{n}" for n in names if f"{module}.{n}" in SOURCES or f"{module}.{n}" in COMPILED]
    rest = [n for n in names if f"{module}.{n}" not in SOURCES and f"{module}.{n}" not in COMPILED]
    return subs + ([module] if rest or not names else [])


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in SOURCES}
    for name in SOURCES:
        for module, names, _ in _imports(name, type_checking=True):
            graph[name].update(t for t in _targets(module, names) if t in SOURCES and t != name)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def strongconnect(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    return sorted(components)


def _a_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One concrete loop inside a strongly connected component, for the failure message."""
    members = set(component)
    path = [component[0]]
    seen = {component[0]: 0}
    while True:
        nxt = sorted(graph[path[-1]] & members)[0]
        if nxt in seen:
            return path[seen[nxt]:] + [nxt]
        seen[nxt] = len(path)
        path.append(nxt)


def test_no_import_cycles() -> None:
    """A module graph of the imports each module names (``from pkg import sub`` names ``pkg.sub``; the
    parent packages Python initialises on the way are not edges), function-level imports included, since
    a lazy import only delays the loop, and the root's lazy re-exports too; imports under
    ``if TYPE_CHECKING:`` too, since a loop a type checker follows is a loop in the design (two modules
    that need each other's names are one concept, or share a third module)."""
    graph = _graph()
    loops = [" -> ".join(_a_cycle(graph, component)) for component in _cycles(graph)]
    assert not loops, "import cycles (TYPE_CHECKING and function-level imports included):\n" + "\n".join(loops)


def test_the_graph_counts_type_checking_and_function_level_imports() -> None:
    graph = _graph()
    # kernel/__init__ imports kernel.twin under TYPE_CHECKING only, and kernel._c inside a function.
    assert f"{ROOT}.kernel.twin" in graph[f"{ROOT}.kernel"]
    assert f"{ROOT}.kernel._c" in graph[f"{ROOT}.kernel.backend"]


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _a_cycle(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]


# --- (c) no private name used across modules ---------------------------------------------------------

def _subpackage(name: str) -> str:
    """``badacey_fast.game.table`` -> ``badacey_fast.game``; a top-level module is its own subpackage."""
    parts = name.split(".")
    return ".".join(parts[:2])


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _is_module(dotted: str) -> bool:
    return dotted in SOURCES or dotted in COMPILED


def _private_module_violation(importer: str, target: str, line: int) -> str | None:
    """A module path with a private part (``pkg._mod``, ``pkg._mod.name``) is its package's own: only the
    package and its modules may import it, and the compiled extensions only ``badacey_fast.kernel``."""
    parts = target.split(".")
    for i, part in enumerate(parts[1:], start=1):
        if not _private(part):
            continue
        private = ".".join(parts[: i + 1])
        if private in COMPILED:
            kernel = f"{ROOT}.kernel"
            if _subpackage(importer) != kernel:
                return f"{importer}:{line} imports {target}: only {kernel} may import the compiled modules"
            return None
        owner = ".".join(parts[:i])
        if importer != owner and not importer.startswith(owner + "."):
            return f"{importer}:{line} imports {target}: a private module of {owner}, imported from outside it"
        return None
    return None


def _private_violations(name: str, imports: list[tuple[str, tuple[str, ...], int]]) -> list[str]:
    """Each import of a private module from outside its package, or of a private name from another module."""
    bad = []
    for module, names, line in imports:
        found = _private_module_violation(name, module, line)
        if found:
            bad.append(found)
            continue
        for n in names:
            if _is_module(f"{module}.{n}"):
                found = _private_module_violation(name, f"{module}.{n}", line)
                if found:
                    bad.append(found)
            elif _private(n) and module != name:
                bad.append(f"{name}:{line} imports the private name {n} of {module}: make it public in its home, "
                           "or move the code that needs it there")
    return bad


def _private_attributes(name: str) -> list[str]:
    """``module._name`` read through a package module the code imported (``from pkg import mod``,
    ``import pkg.mod as m``): a private name crossing modules as surely as an import of it."""
    tree = ast.parse(SOURCES[name].read_text(encoding="utf-8"), filename=str(SOURCES[name]))
    aliases = {}  # local name -> the package module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for module, names, _ in _imports_of(name, node):
                for alias in node.names:
                    if _is_module(f"{module}.{alias.name}"):
                        aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and _is_module(alias.name):
                    aliases[alias.asname] = alias.name
    return [f"{name}:{node.lineno} reads {node.value.id}.{node.attr}: the private name {node.attr} of "
            f"{aliases[node.value.id]}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
            and _private(node.attr) and aliases[node.value.id] != name]


def _imports_of(name: str, node: ast.ImportFrom) -> list[tuple[str, tuple[str, ...], int]]:
    package = name if name in PACKAGES else name.rpartition(".")[0]
    if node.level:
        base = package.split(".")
        base = base[: len(base) - (node.level - 1)]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    return [(module, tuple(a.name for a in node.names), node.lineno)]


def test_no_private_names_across_modules() -> None:
    bad = [problem for name in SOURCES for problem in _private_violations(name, _imports(name, type_checking=True))]
    bad += [problem for name in SOURCES for problem in _private_attributes(name)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("importer, statement, allowed", [
    ("badacey_fast.game.table", ("badacey_fast.game.state", ("_Seat",)), False),  # a sibling's private name
    ("badacey_fast.game.table", ("badacey_fast.game.state", ("Game",)), True),
    ("badacey_fast.game.table", ("badacey_fast.pots.settlement", ("_split",)), False),
    ("badacey_fast.game.table", ("badacey_fast.kernel._c", ()), False),  # a private module, from outside
    ("badacey_fast.game.table", ("badacey_fast.kernel", ("_c",)), False),
    ("badacey_fast.game.table", ("badacey_fast.kernel._c", ("Kernel",)), False),
    ("badacey_fast.kernel.backend", ("badacey_fast.kernel", ("_c",)), True),  # its own package's
    ("badacey_fast.kernel", ("badacey_fast.kernel._c", ("EngineTables",)), True),  # the package itself
    ("badacey_fast.kernel._py", ("badacey_fast.kernel", ("_py_numpy",)), True),
    ("badacey_fast.kernel._c", ("badacey_fast", ("_kernel",)), True),
    ("badacey_fast.kernel._c", ("badacey_fast._speedups", ("make",)), True),
    ("badacey_fast.evaluator", ("badacey_fast._speedups", ("make",)), False),
    ("badacey_fast.evaluator", ("badacey_fast", ("_speedups",)), False),
    ("badacey_fast.evaluator", ("badacey_fast.cards", ("_parse",)), False),
    ("badacey_fast.cards", ("badacey_fast.errors", ("__doc__",)), True),  # dunder names are not private
])
def test_the_private_rule(importer: str, statement: tuple[str, tuple[str, ...]], allowed: bool) -> None:
    assert (not _private_violations(importer, [(*statement, 1)])) is allowed


def test_the_private_attribute_rule_sees_a_read_through_a_module(tmp_path: Path) -> None:
    name = f"{ROOT}.draw.example"
    source = tmp_path / "example.py"
    source.write_text("from badacey_fast.draw import ranges as r\nx = r._hidden(5)\ny = r.Range\n", encoding="utf-8")
    SOURCES[name] = source
    try:
        assert _private_attributes(name) == [f"{name}:2 reads r._hidden: the private name _hidden of "
                                             f"{ROOT}.draw.ranges"]
    finally:
        del SOURCES[name]


# --- (d) every exception class in badacey_fast.errors ----------------------------------------------------

def _exception_classes(name: str) -> list[str]:
    """The exception classes a module defines (its own, not ones it imported)."""
    module = importlib.import_module(name)
    return [attr for attr, value in vars(module).items()
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == name]


def test_every_exception_class_lives_in_errors() -> None:
    errors = f"{ROOT}.errors"
    elsewhere = {name: found for name in MODULES if name != errors and (found := _exception_classes(name))}
    assert not elsewhere, f"exception classes outside {errors}: {elsewhere}"
    assert {"BadaceyError", "ConfigError", "CardOwed", "TableIntegrityError"} <= set(_exception_classes(errors))


# --- the import-linter layers contract -----------------------------------------------------------------

def _lint_imports() -> str:
    script = Path(sys.executable).with_name("lint-imports")
    found = str(script) if script.exists() else shutil.which("lint-imports")
    if found is None:
        raise AssertionError("lint-imports not found: install the test extra (pip install -e '.[test]')")
    return found


def test_import_linter_contracts_hold() -> None:
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([_lint_imports(), "--no-cache", "--no-logo", "--config", str(root / "pyproject.toml")],
                          capture_output=True, text=True, cwd=root, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
