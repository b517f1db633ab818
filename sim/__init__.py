"""The pure rules engine: no clock, no I/O during play, no global random generator
(docs/sim-api.md).

Tests: tests/sim/; tests/test_layering.py checks that sim imports nothing above it.
"""
