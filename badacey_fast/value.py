"""Deprecated: moved to :mod:`badacey_fast.rules.value` (this path works for one more release, with a DeprecationWarning)."""

from badacey_fast._moved import forward

__getattr__ = forward("value")
