"""The scenes around a game: menu, settings, help, lobby, end screen.

Tests: tests/client/scenes/.
"""
