"""The tutorial: a short scripted first game that teaches by playing ("Learn to play").

`script` holds the steps as data, `progress` follows a game to say which step is due
(pure, no window), `coach` shows the steps on the table and holds the game at them.

Tests: tests/client/tutorial/.
"""
