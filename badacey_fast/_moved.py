"""Old module paths kept for one release: each forwards its names to the module's new home with a
``DeprecationWarning`` (the package was reorganised into subpackages; see the README's Layout section).

>>> import warnings
>>> from badacey_fast import scoring
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     f = scoring.showdown_many
>>> f.__module__, caught[0].category.__name__
('badacey_fast.bulk.showdown', 'DeprecationWarning')
>>> scoring.no_such_name
Traceback (most recent call last):
...
AttributeError: module 'badacey_fast.bulk.showdown' has no attribute 'no_such_name'
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable

#: old module (under badacey_fast) -> new module
MOVED: dict[str, str | tuple[str, ...]] = {
    "games": "badacey_fast.rules.games",
    "halves": ("badacey_fast.rules.games", "badacey_fast.rules.odd_chips", "badacey_fast.pots.results"),
    "reference": "badacey_fast.rules.reference",
    "value": "badacey_fast.rules.value",
    "explain": "badacey_fast.pots.results",
    "one_pot": "badacey_fast.pots.one_pot",
    "scoring": "badacey_fast.bulk.showdown",
    "equities": "badacey_fast.draw.equities",
    "scorefile": "badacey_fast.files.score",
    "deal_lines": "badacey_fast.files.lines",
    "deal_io": "badacey_fast.files.streams",
    "deal_gen": "badacey_fast.files.generate",
    "benchmark": "badacey_fast.cli.benchmark",
}


def forward(old: str) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``badacey_fast.<old>``: warn once per name, then return the new home's."""
    target = MOVED[old]
    homes = target if isinstance(target, tuple) else (target,)

    def __getattr__(name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        for new in homes:  # a module split in several: the first home that has the name
            module = importlib.import_module(new)
            if hasattr(module, name):
                break
        value = getattr(module, name)
        warnings.warn(f"badacey_fast.{old} is deprecated and will be removed in the next release: "
                      f"import {name} from {new} (or from badacey_fast)", DeprecationWarning, stacklevel=2)
        return value

    return __getattr__
