"""The game window: Arcade scenes over a session (local, network or replay).

Tests: tests/client/.
"""
