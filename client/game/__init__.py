"""The table scene of a game in progress: board, tower and panels, the decisions asked of the players, the comforts around them.

Tests: tests/client/game/.
"""
