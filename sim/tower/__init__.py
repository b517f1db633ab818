"""The battle tower: geometry and materials as data, one drop as a pymunk run, its contents
in the state (no pymunk), the odds and the fallback that settle a drop without physics, and
its statistics.

Tests: tests/sim/tower/.
"""
