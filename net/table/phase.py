"""The phase a table is in, from one peer's point of view.

Why an explicit phase: what a peer accepts and does depended on a handful of flags
(`start_info`, `lockstep`, a "started resume" flag, the role rewritten on a rejoin);
a named phase says it in one word, and admission (`net.table.policy.admission`) decides over
role × phase × credential.

Tests: tests/net/table/test_session.py (the phase of each role through a game).
"""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    LOBBY = "lobby"          # before GameStarted: the host seats players
    MESH = "mesh"            # GameStarted: players dial each other, chains are committed
    PLAY = "play"            # the lockstep runs
    RECOVERY = "recovery"    # rejoining a seat (resume, or after a desync): catching up
    SPECTATE = "spectate"    # watching: following one player's log
    ENDED = "ended"          # the game is over here
