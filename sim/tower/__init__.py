"""The battle tower: geometry and materials as data, one drop as a pymunk run, its contents in the state, and its statistics.

Tests: tests/sim/tower/.
"""
