"""Which part of the table takes which message kind: the table `Connections` dispatches by.

Why a table: one place answers "who handles a `SeatDropped`?", and each entry is checked
by the type checker: `handles` takes a part's method only if the method reads the record
of that kind (`net.transport.message_records`). Every player game message the table does
not name here is the lockstep's own traffic.

Tests: tests/net/table/test_session.py, tests/net/transport/test_message_records.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.table.connections import Handler
from net.transport import message_records as records
from net.transport import messages
from net.transport.message_records import handles

if TYPE_CHECKING:
    from net.table.session import TableSession


def routes(s: TableSession) -> dict[str, Handler]:
    """Message kind -> the method of the part of `s` that takes it."""
    handlers: dict[str, Handler] = dict((
        handles(records.LobbyChanged, s.seating.lobby_changed_received),
        handles(records.SeatRequested, s.seating.seat_requested),
        handles(records.GameStarted, s.handshake.game_started_received),
        handles(records.ChainCommitted, s.handshake.chain_committed),
        handles(records.TakeoverClaimed, s.takeover.takeover_claimed),
        handles(records.InputsMissed, s.missed.inputs_missed),
        handles(records.Relayed, s.relays.relayed),
        handles(records.CheatingProved, s.expulsion.cheating_proved),
        handles(records.SeatDropped, s.claims.seat_dropped),
        handles(records.Heartbeat, s.liveness.heartbeat),
        handles(records.CaughtUp, s.recovery.caught_up_received),
        handles(records.StepApplied, s.spectate.step_applied),
        handles(records.InputsAwaited, s.deadlines.inputs_awaited),
        handles(records.ChatSent, s.chat.chat_sent),
        handles(records.ChatRecalled, s.chat.chat_recalled),
    ))
    for kind in messages.PLAYER_GAME_MESSAGES - handlers.keys():
        handlers[kind] = s.play.lockstep_message     # the lockstep's own traffic
    return handlers
