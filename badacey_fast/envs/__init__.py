"""Environments for learning bots: PettingZoo, Gymnasium and OpenSpiel (issue 12).

Each framework lives in its own module, imported only when used (``import badacey_fast`` never imports
gymnasium, pettingzoo or pyspiel):

- :mod:`badacey_fast.envs.pettingzoo` -- an AEC environment, every preset, 2 to 6 seats;
- :mod:`badacey_fast.envs.gymnasium` -- one seat against the library's bots (or any callables),
  registered as ``badacey_fast/<Preset>-v0``, and a vectorised form stepping N tables at once;
- :mod:`badacey_fast.envs.openspiel` -- ``python_badacey``, ... registered with pyspiel, chance nodes
  from :class:`~badacey_fast.game.Game`'s chance mode.

The observation vector and the action numbering shared by all three: :mod:`badacey_fast.envs.encoding`.
"""

from __future__ import annotations

__all__: list[str] = []
