"""Saves and logs on disk: the local game's save, the JSON game log, a network player's save journal. Below net and cli, above sim.

Tests: tests/store/, tests/cli/test_headless.py.
"""
