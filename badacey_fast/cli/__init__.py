"""The ``badacey`` command: one module per group of subcommands, the benchmark runner and workloads."""

from __future__ import annotations

from badacey_fast.cli.command import main

__all__ = ["main"]
