"""The package's version as installed: the one home of ``badacey_fast.__version__`` and ``badacey --version``.

The version itself is written once, in ``pyproject.toml``; this module reads it back from the installed
distribution's metadata.  It sits below every other module (nothing here imports the package), so the
command line and the package root both ask it without an import running back up the layers.
"""

from __future__ import annotations


def installed_version() -> str:
    """The installed distribution's version, as ``importlib.metadata.version("badacey_fast")`` gives it.

    Importing importlib.metadata costs ~35 ms (email, zipfile, csv...), most of what ``badacey --version``
    would take: the usual layout, one ``badacey_fast-*.dist-info`` in the first ``sys.path`` entry that
    holds any metadata of the package, is read directly (its ``METADATA``'s ``Version:`` line, where
    importlib.metadata reads it); anything else (several candidates, an ``.egg-info``, a zip) goes to
    importlib.metadata itself.

    >>> from importlib.metadata import version
    >>> installed_version() == version("badacey_fast")
    True
    """
    import os
    import sys

    for entry in sys.path:
        try:
            names = [n for n in os.listdir(entry or ".") if n.startswith("badacey_fast")]
        except OSError:  # not a directory (a zip, a missing entry)
            continue
        found = [n for n in names if n.startswith("badacey_fast-") and n.endswith(".dist-info")]
        if len(found) == 1 and not any(n.endswith(".egg-info") for n in names):
            try:
                with open(os.path.join(entry or ".", found[0], "METADATA"), encoding="utf-8") as f:
                    for line in f:
                        if line.startswith("Version:"):
                            return line[len("Version:"):].strip()
                        if not line.strip():  # the headers end at the first blank line
                            break
            except OSError:
                pass
            break
        if found or any(n.endswith((".egg-info", ".egg-link")) for n in names):
            break
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("badacey_fast")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"
