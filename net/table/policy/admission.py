"""Who may join this peer, as what: one policy over role × phase × credential.

Why one function: admission was spread over flags, and a gap there was a seat hijack
(after the start, anyone with the join code and a dropped player's peer id — which every
spectator learns — could play that seat). Here every case is one line of one table:

| role asked | `Phase.LOBBY` (no GameStarted known) | MESH, PLAY, RECOVERY, ENDED (GameStarted known) |
|------------|-----------------------------------|--------------------------------------------------|
| spectator  | admitted (a spectator's seat: none) while the table has fewer than `MAX_SPECTATORS` and its address fewer than `MAX_SPECTATORS_PER_ADDRESS` | the same |
| player     | the host seats it if a seat is open; a mesh dial that beat GameStarted waits | only with this table's id and a proof, on this connection, of the seat's pinned key; not for a seat a bot plays (a redial after a take-over) or one dropped here twice for offences; it replaces a connection I still hold for that seat |
| rejoin     | refused                           | the seat's key proof, and the committed rejoin token if I hold its hash; not for a seat a bot plays, an expelled one or one dropped here twice for offences |

The channel (a PAKE on the join code) already proved the join code; the seat key proves
the seat. A player that dials me after the start does so because it lost its connection
to me (the mesh and the redials dial each pair one way), so a connection I still hold for
its seat is dead on its side (half-open, or its close not read yet): the new one, proved
with the seat's key, replaces it rather than being refused until my silence limit ends
the dead one. A spectator never holds a seat key that GameStarted pinned, so it can never
take a seat. A peer that is itself a spectator (`Phase.SPECTATE`) admits no one; a
resuming peer that has not caught up yet knows no table and so admits only spectators.

Why spectators are capped (issue 34): someone with the code opened 800 spectator
connections; under a 1,024 open-files limit they took the descriptors and a seated
player's rejoin was refused. Now a table holds at most `MAX_SPECTATORS` (and one address
`MAX_SPECTATORS_PER_ADDRESS`), a spectator silent for `net.table.spectate.SILENT_AFTER`
is dropped, and so the listener's connections — at most `MAX_UNPROVEN` strangers, the
spectators and two per player — stay far below what the open-files budget leaves
(`net.transport.handshake_limits.accepted_files_limit`): a player's redial or rejoin is
never refused for want of a descriptor.

Tests: tests/net/table/test_admission.py (the spectator rows), tests/net/trust/test_attacks.py
(seat hijacks), tests/net/table/test_session.py, tests/net/trust/test_spectator_flood.py
(800 spectators against a real host under 1,024 open files).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from net.lockstep.beacon import H
from net.table.phase import Phase
from net.table.shared import Role

from net.trust.seat_keys import seat_proved

HelloRole = Literal["player", "spectator", "rejoin"]     # what a Hello asks to be

# Friends who watch: a room's worth. Per address: a household behind one router.
MAX_SPECTATORS = 16
MAX_SPECTATORS_PER_ADDRESS = 4


@dataclass(frozen=True)
class Credential:
    """What a `Hello` claims and proves, and the connection it came on."""
    role: HelloRole
    peer: bytes
    seat: int | None
    table: bytes | None
    seat_key: bytes | None       # the public key it brings (lobby)
    seat_proof: bytes | None     # its signature of this connection's binding
    token: bytes | None          # rejoin token preimage
    binding: bytes


@dataclass(frozen=True)
class TableView:
    """What this peer knows that admission depends on."""
    my_role: Role
    closed: bool
    phase: Phase
    open_seat: bool              # the lobby has an open seat
    table: bytes | None          # GameStarted's table id; None before it is known
    seats: dict[int, dict[str, Any]]    # seat -> GameStarted entry (kind, peer, key)
    token_hashes: dict[int, bytes]
    bot_seats: frozenset[int]
    expelled: frozenset[int]
    connected: frozenset[int]    # seats with a live connection here
    # seats dropped here for offences too often to come back (`net.table.policy.report_counting`)
    barred: frozenset[int] = frozenset()
    spectators: int = 0          # spectators connected here
    spectators_there: int = 0    # ... from the address this Hello came from


@dataclass(frozen=True)
class Admission:
    reason: str | None = None    # None: admitted
    pending_mesh: bool = False   # a mesh dial before my GameStarted: checked at the start
    replaces: int | None = None  # a seat whose old connection must close (rejoin, redial)


def admit(view: TableView, cred: Credential) -> Admission:
    """The one admission policy (see the table in the module doc)."""
    if view.closed:
        return Admission("join refused: this peer has left the table")
    if view.my_role == "watch":
        return Admission("join refused: this peer is a spectator")
    if cred.role == "spectator":
        if view.spectators >= MAX_SPECTATORS:
            return Admission(f"join refused: this table has its {MAX_SPECTATORS} spectators")
        if view.spectators_there >= MAX_SPECTATORS_PER_ADDRESS:
            return Admission("join refused: your address already has "
                             f"{MAX_SPECTATORS_PER_ADDRESS} spectators here")
        return Admission()
    if view.phase is Phase.LOBBY or view.table is None:
        # before the start (a resuming peer not yet caught up knows no table either)
        if cred.role != "player":
            return Admission("join refused: no game is running here to rejoin")
        if cred.table is not None and view.my_role == "join":
            return Admission(pending_mesh=True)
        if view.my_role != "host":
            return Admission("join refused: join the host, not another guest")
        if cred.seat_key is None:
            return Admission("join refused: a player must bring a seat key")
        if not view.open_seat:
            return Admission("join refused: the table is full")
        return Admission()
    if cred.table != view.table:
        return Admission("join refused: the game has started (no seat for a new player)")
    seat = cred.seat
    entry = view.seats.get(seat) if seat is not None else None
    if seat is None or entry is None or entry.get("kind") != "human":
        return Admission(f"join refused: seat {seat} is not a player's seat")
    if seat in view.expelled:
        return Admission(f"join refused: seat {seat} was expelled for cheating")
    if seat in view.barred:
        return Admission(f"join refused: seat {seat} was dropped twice for offences")
    if not seat_proved(entry.get("key"), view.table, seat, cred.binding, cred.seat_proof):
        return Admission(f"join refused: no proof of seat {seat}'s key (only the player "
                         "who holds it may take that seat)")
    if seat in view.bot_seats:
        return Admission(f"{'rejoin' if cred.role == 'rejoin' else 'join'} refused: seat "
                         f"{seat} is now played by a bot")
    if cred.role == "player":
        if entry.get("peer") != cred.peer:
            return Admission(f"join refused: seat {seat} belongs to another peer")
        return Admission(replaces=seat if seat in view.connected else None)
    known = view.token_hashes.get(seat)
    if known is not None and (cred.token is None or H(cred.token) != known):
        return Admission(f"rejoin refused: wrong rejoin token for seat {seat}")
    return Admission(replaces=seat if seat in view.connected else None)
