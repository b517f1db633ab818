"""Relays: a dropped seat's last messages passed on by those who heard them.

Why: a seat that dropped mid-broadcast may have reached some players only; without the
relay they would be a step ahead of a take-over and the table would fork. Every relayed
message is signed by its seat, so it proves itself whoever relays it. The same path
carries the messages of a seat to a player that parted from it alone
(`net.table.drop_claims`), the inputs a player missed (`net.table.missed_inputs`), and
the signed claims that gave a seat to a bot (`net.table.policy.takeover_agreement`).

Tests: tests/net/table/test_relays.py.
"""

from __future__ import annotations

import logging
from typing import Any, TYPE_CHECKING

from net.transport.messages import Wire

from net.lockstep.core import Offence
from net.table.expulsion import Expulsion
from net.table.seat_signer import SeatSigner
from net.table.missed_inputs import MissedInputs
from net.table.play import Play
from net.table.shared import Roster, StartRecord, TableState
from net.table.before_start.start_mesh import StartHandshake
from net.table.takeover import Takeover
from net.transport import messages
from net.transport.message_records import Relayed, as_wire, checked

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")


class Relays:
    """Takes the messages other players relay for a seat (each signed by that seat)."""

    def __init__(self, shared: TableState, roster: Roster, start: StartRecord,
                 signer: SeatSigner,
                 expulsion: Expulsion, handshake: StartHandshake, takeover: Takeover,
                 play: Play, missed: MissedInputs) -> None:
        self._shared = shared
        self._missed = missed        # told of a seat that withholds its inputs from me
        self._play = play            # keeps a relayed input that came before the game began
        self._roster = roster
        self._start = start
        self._takeover = takeover
        self._signer = signer
        self._expulsion = expulsion
        self._handshake = handshake

    def relayed(self, conn: PeerConnection, msg: Relayed) -> None:
        """A `Relayed` message of another seat."""
        table = self._shared
        seat = msg["seat"]
        if isinstance(msg["message"], dict) and msg["message"].get("type") == "ChainCommitted":
            self._relayed_chain(conn, seat, msg["message"])
            return
        if table.lockstep is None and self._start.started and conn.seat is not None \
                and conn.role != "spectator" and seat != conn.seat \
                and self._play.early.keep(conn, as_wire(msg)):
            # a dropped seat's last input, relayed before the game began here: kept for
            # then, or I would fork from the players that got it
            return
        if conn.seat is None or conn.role == "spectator" or conn is self._roster.source \
                or table.lockstep is None or seat == conn.seat:
            conn.offence("Relayed from a connection that cannot relay")
            return
        # taken even while the seat still looks connected here: its drop may reach me
        # after the relay does. Signed by the seat, it proves itself, from any relayer.
        try:
            inner = checked(msg["message"])
        except messages.BadMessage as exc:
            conn.offence(f"relayed message is malformed: {exc}")
            return
        if inner.get("seat") != seat or not self._signer.signed_by_seat(seat, inner):
            conn.offence(f"relayed {inner['type']} for seat {seat} is not signed by seat "
                         f"{seat}'s key (forged)")
            return
        if inner["type"] == "TakeoverClaimed":      # a claim that gave a seat to a bot
            self._takeover.claim_received(inner)
            return
        step = table.lockstep.step
        try:
            table.lockstep.receive_relayed(seat, as_wire(inner))
        except Offence as exc:
            conn.offence(str(exc))
            return
        if table.lockstep.step > step and self._roster.conn_for_seat(seat) is not None:
            # its input, relayed, let my game go on though its own connection lives: it
            # kept the input from me (`net.table.missed_inputs` asks for it at once now)
            self._missed.withheld(seat, step, conn.seat)

    def _relayed_chain(self, conn: PeerConnection, seat: int, inner: Wire) -> None:
        """A dropped seat's chain commitment, relayed: signed by the seat, it proves
        itself, so it is taken from any relayer (the links relayed after it can then be
        checked)."""
        table = self._shared
        if conn.seat is None or conn.role == "spectator" or conn is self._roster.source \
                or not self._start.started or seat == conn.seat:
            conn.offence("Relayed from a connection that cannot relay")
            return
        try:
            chain = checked(inner)
        except messages.BadMessage as exc:
            conn.offence(f"relayed message is malformed: {exc}")
            return
        if chain["type"] != "ChainCommitted":     # the caller saw its type
            return
        if chain["seat"] != seat or seat == table.my_seat or seat not in self._start.humans():
            conn.offence(f"relayed chain commitment for seat {chain['seat']} is not relayable")
            return
        if not self._signer.signed_by_seat(seat, chain):
            conn.offence(f"relayed ChainCommitted for seat {seat} is not signed by seat "
                         f"{seat}'s key (forged)")
            return
        known = self._start.chain_ends.get(seat)
        if known is not None:
            if known != chain["chain_end"]:
                self._expulsion.cheated(seat, self._start.chain_msgs.get(seat), chain)
            return
        if not self._handshake.same_start(conn, seat, chain):
            return
        self._start.chain_msgs[seat] = chain
        self._start.chain_ends[seat] = chain["chain_end"]
        self._start.token_hashes[seat] = chain["token_hash"]
        if table.lockstep is not None:
            table.lockstep.add_chain(seat, chain["chain_end"], chain["token_hash"])
        self._handshake.maybe_begin()
