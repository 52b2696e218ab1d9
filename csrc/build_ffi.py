"""cffi builder (out-of-line API mode) for the extension ``badacey_fast._kernel``.

Every ``csrc/*.c`` file is compiled into the one extension (``csrc/cpython/`` holds the CPython-API glue,
built by ``setup.py`` as ``badacey_fast._speedups``), and the cdef is assembled from EVERY
``csrc/*.h`` header: the text between the lines ``/* BD_CDEF_BEGIN */`` and ``/* BD_CDEF_END */``.
Declarations therefore live in headers (which each ``.c`` includes, so the compiler checks them), and a
new kernel file pair ``csrc/foo.{h,c}`` is picked up with no edit here (a header whose ``.c`` does not
exist yet is skipped with a message, so a half-added pair cannot break the extension's import).  ``badacey.h`` comes first so
other headers' declarations may use its constants.

Used by ``setup.py`` (``cffi_modules=["csrc/build_ffi.py:ffibuilder"]``) and runnable directly for a
quick in-place rebuild of a source checkout (after adding or editing csrc files)::

    python csrc/build_ffi.py     # = python setup.py build_ext --inplace, plus removal of stale copies

Extra compiler flags may be given in ``BADACEY_FAST_CFLAGS`` (e.g. ``-march=native``).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BEGIN, END = "/* BD_CDEF_BEGIN */", "/* BD_CDEF_END */"


def _headers() -> list[Path]:
    # badacey.h first: the others include it and may use its constants.  A header whose foo.c is not
    # there yet (a kernel file pair being written) would declare functions nothing defines, and the
    # extension would fail to import with "undefined symbol": skip it, loudly.
    found = []
    for header in sorted(HERE.glob("*.h"), key=lambda p: (p.name != "badacey.h", p.name)):
        if header.with_suffix(".c").exists():
            found.append(header)
        else:
            print(f"build_ffi: skipping {header.name}: no {header.stem}.c beside it", file=sys.stderr)
    return found


def cdef_of(header: Path) -> str:
    """The cdef text of one header: everything between its BD_CDEF markers (empty if it has none)."""
    text = header.read_text(encoding="utf-8")
    blocks = re.findall(re.escape(BEGIN) + r"(.*?)" + re.escape(END), text, flags=re.S)
    if text.count(BEGIN) != len(blocks) or text.count(END) != len(blocks):
        raise SystemExit(f"{header}: unbalanced {BEGIN} / {END} markers")
    return "\n".join(blocks)


def _sources(absolute: bool) -> list[str]:
    # setuptools wants paths relative to the project root (where setup.py runs); cffi's own compile()
    # runs in a temporary directory and needs absolute ones.
    paths = sorted(HERE.glob("*.c"))
    if absolute or Path.cwd().resolve() != ROOT:
        return [str(p) for p in paths]
    return [os.path.relpath(p, ROOT) for p in paths]


def compile_args() -> list[str]:
    """Compiler flags of every C file of the package (the kernel here, the glue in setup.py)."""
    if os.name == "nt":
        return []
    # -g0 overrides the -g of Python's own flags: debug info makes showdown.c's compile, the longest of the
    # install, 30 % slower (2.5 s against 1.9 s here); BADACEY_FAST_CFLAGS="-g" brings it back.
    cflags = ["-O3", "-g0", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-unused-function"]
    return cflags + shlex.split(os.environ.get("BADACEY_FAST_CFLAGS", ""))


def make_builder(absolute: bool = False) -> FFI:
    """A configured cffi builder for ``badacey_fast._kernel``."""
    builder = FFI()
    headers = _headers()
    builder.cdef("\n".join(cdef_of(h) for h in headers))
    builder.set_source(
        "badacey_fast._kernel",
        "\n".join(f'#include "{h.name}"' for h in headers),
        sources=_sources(absolute),
        include_dirs=[str(HERE)],
        extra_compile_args=compile_args(),
    )
    return builder


if __name__ != "__main__":  # setuptools (cffi_modules) execs this file and reads `ffibuilder`
    ffibuilder = make_builder()

if __name__ == "__main__":
    # Build in place exactly as `setup.py build_ext --inplace` does (same file name, _kernel.abi3.so), then
    # drop any differently named copy an older build left, which Python would otherwise import first.
    import subprocess

    subprocess.check_call([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=str(ROOT))
    for stale in (ROOT / "badacey_fast").glob("_kernel*.so"):  # _speedups is not abi3: left alone
        if not stale.name.endswith(".abi3.so"):
            stale.unlink()
            print(f"removed stale {stale}")
