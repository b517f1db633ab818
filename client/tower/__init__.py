"""The battle tower on screen: the cut-away tower, its cubes, and the battle view.

Tests: tests/client/tower/.
"""
