"""The window's foundation: the Arcade window, the scene tree, theme, scale, settings, sound, palette, GPU meshes.

Tests: tests/client/core/.
"""
