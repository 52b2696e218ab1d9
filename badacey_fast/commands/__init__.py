"""Subcommands of the ``badacey`` command line, one module per group (see :mod:`badacey_fast.cli`)."""
