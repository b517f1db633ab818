"""Where a scene's commands go and its events come from: a local game, a network table, a replay; and the autosave.

Tests: tests/client/sessions/.
"""
