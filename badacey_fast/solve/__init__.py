"""Solving draw games (work in progress)."""
