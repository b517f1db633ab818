"""Keeping every peer's game identical: steps and their inputs, secret plans, the chance beacon, commitments, echoes, tower votes.

Tests: tests/net/lockstep/ (each module names its own).
"""
