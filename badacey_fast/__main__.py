"""``python -m badacey_fast``: the ``badacey`` command (:func:`badacey_fast.cli.main`), for an environment
whose scripts directory is not on ``PATH``."""

import sys

from badacey_fast.cli import main

if __name__ == "__main__":
    sys.exit(main())
