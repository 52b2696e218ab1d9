"""Only what pyproject.toml cannot say: the table build step and the cffi extension.

``build_py`` first runs ``tables/generate.py`` (numpy, ~2 s), which writes the lookup tables into
``badacey_fast/_data/``; only then is package data collected, so the tables install as package data.
The same step runs for ``pip install .`` and ``pip install -e .`` (editable: the tables stay in the
source tree, where the package looks for them).  The C kernel is ``cffi_modules``.
"""

import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class build_py_with_tables(build_py):
    """build_py that generates the lookup tables before collecting package data."""

    def run(self):
        # A subprocess: the generator forces the Python backend and imports this source tree.
        subprocess.check_call([sys.executable, str(ROOT / "tables" / "generate.py")], cwd=str(ROOT))
        self.__dict__.pop("data_files", None)  # recompute: the .tbl files exist only now
        super().run()


setup(
    cmdclass={"build_py": build_py_with_tables},
    cffi_modules=["csrc/build_ffi.py:ffibuilder"],
)
