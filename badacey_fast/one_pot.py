"""Deprecated: moved to :mod:`badacey_fast.pots.one_pot` (this path works for one more release, with a DeprecationWarning)."""

from badacey_fast._moved import forward

__getattr__ = forward("one_pot")
