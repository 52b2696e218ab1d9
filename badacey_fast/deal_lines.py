"""Deprecated: moved to :mod:`badacey_fast.files.lines` (this path works for one more release, with a DeprecationWarning)."""

from badacey_fast._moved import forward

__getattr__ = forward("deal_lines")
