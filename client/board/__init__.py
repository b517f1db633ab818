"""The map: provinces, armies, buildings and the marks that come and go on it.

Tests: tests/client/board/.
"""
