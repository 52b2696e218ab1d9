"""Placeholder (MCCFR comes next)."""

from __future__ import annotations


class MCCFRStrategy:
    game = ""
