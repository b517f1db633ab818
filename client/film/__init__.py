"""Films of battles: a saved game's battle rendered by the window's own scene into an
animated GIF (issue 28 item 5).

Tests: tests/client/film/.
"""
