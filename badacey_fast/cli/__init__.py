"""The ``badacey`` command: one module per group of subcommands (command.py lists them)."""

from __future__ import annotations

from badacey_fast.cli.command import main

__all__ = ["main"]
