"""``python -m badacey_fast.cli``: the ``badacey`` command."""

import sys

from badacey_fast.cli import main

sys.exit(main())
