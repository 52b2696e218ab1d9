"""A griffe extension for the API reference (mkdocs.yml loads it): the package's docstrings are written
for ``help()`` and doctest, in reStructuredText habits, and this turns those habits into Markdown as
mkdocstrings renders each docstring.

- a run of doctest lines (``>>>``, ``...`` and the expected output up to a blank line) becomes a
  ``pycon`` code block, so examples keep their lines instead of flowing into a paragraph;
- a reST literal block (a paragraph ending in ``::``, then an indented block) becomes a code block;
- Sphinx roles (``:func:`x```, ``:class:`~a.b.C```, ...) become inline code;
- each object is shown once, in the module that defines it (re-exported names are left out).

Only what is shown changes: the docstrings themselves, and so ``help()`` and the doctests, are untouched.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj|const|ref|term):`~?([^`]+)`")


def _blocks(text: str) -> str:
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped.startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
                i += 1
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if stripped.endswith("::") and not stripped.startswith(">>>") and i + 1 < len(lines):
            # a literal block follows: "Run::" + blank line + indented lines
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and len(lines[j]) - len(lines[j].lstrip()) > len(indent):
                out.append(line[:-1] if stripped != "::" else "")
                deeper = len(lines[j]) - len(lines[j].lstrip())
                block = []
                while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) >= deeper):
                    block.append(lines[j][deeper:])
                    j += 1
                while block and not block[-1].strip():
                    block.pop()
                out += ["", f"{indent}```", *(indent + b if b else "" for b in block), f"{indent}```", ""]
                i = j
                continue
        out.append(_ROLE.sub(r"`\1`", line))
        i += 1
    return "\n".join(out)


class Docstrings(griffe.Extension):
    """Rewrite each docstring's doctest runs, literal blocks and roles as Markdown (see the module)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _blocks(obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Each object is documented once, in the module that defines it: the names a package or module
        re-exports (aliases, e.g. ``badacey_fast.pots.settle`` for ``badacey_fast.pots.settlement.settle``)
        are left out of the pages; the reference's overview page says where each top-level name lives."""
        _drop_aliases(pkg)


def _drop_aliases(module: griffe.Module) -> None:
    for name, member in list(module.members.items()):
        if member.is_alias:
            del module.members[name]
        elif member.is_module:
            _drop_aliases(member)  # type: ignore[arg-type]
