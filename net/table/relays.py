"""Relays: a dropped seat's last messages passed on by those who heard them.

Why: a seat that dropped mid-broadcast may have reached some players only; without the
relay they would be a step ahead of a take-over and the table would fork. Every relayed
message is signed by its seat, so it proves itself whoever relays it. The same path
carries the messages of a seat to a player that parted from it alone
(`net.table.expulsion`, drop claims).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from net.transport import messages
from net.table.connections import BUFFER_LIMIT
from net.lockstep.core import RELAYABLE, Offence

if TYPE_CHECKING:
    from net.transport.peer import PeerConnection

log = logging.getLogger("net.table.session")



class Relays:
    """Mixed into `net.table.session.TableSession`."""

    def _forward(self, seat: int, msg: dict) -> None:
        """Pass `seat`'s message, just accepted from it, on to the players that parted
        from it alone (`net.table.expulsion.DropClaims`): they hear it through me."""
        if msg["type"] not in RELAYABLE:
            return
        for target in self.forwards.get(seat, ()):
            conn = self._conn_for_seat(target)
            if conn is not None:
                conn.send({"type": "Relayed", "seat": seat, "message": msg})

    def _on_Relayed(self, conn: PeerConnection, msg: dict) -> None:
        seat = msg["seat"]
        if isinstance(msg["message"], dict) and msg["message"].get("type") == "ChainCommitted":
            self._relayed_chain(conn, seat, msg["message"])
            return
        if self.lockstep is None and self.started and conn.seat is not None \
                and conn.role != "spectator" and seat != conn.seat \
                and len(self.buffer) < BUFFER_LIMIT:
            # a dropped seat's last input, relayed before the game began here: kept for
            # then, or I would fork from the players that got it
            self.buffer.append((conn, msg))
            return
        if conn.seat is None or conn.role == "spectator" or conn is self.source \
                or self.lockstep is None or seat == conn.seat:
            conn.offence("Relayed from a connection that cannot relay")
            return
        # taken even while the seat still looks connected here: its drop may reach me
        # after the relay does. Signed by the seat, it proves itself, from any relayer.
        try:
            inner = messages.check(msg["message"])
        except messages.BadMessage as exc:
            conn.offence(f"relayed message is malformed: {exc}")
            return
        if inner.get("seat") != seat or not self.signed_by_seat(seat, inner):
            conn.offence(f"relayed {inner['type']} for seat {seat} is not signed by seat "
                         f"{seat}'s key (forged)")
            return
        try:
            self.lockstep.receive_relayed(seat, inner)
        except Offence as exc:
            conn.offence(str(exc))

    def _relayed_chain(self, conn: PeerConnection, seat: int, inner: dict) -> None:
        """A dropped seat's chain commitment, relayed: signed by the seat, it proves
        itself, so it is taken from any relayer (the links relayed after it can then be
        checked)."""
        if conn.seat is None or conn.role == "spectator" or conn is self.source \
                or not self.started or seat == conn.seat:
            conn.offence("Relayed from a connection that cannot relay")
            return
        try:
            inner = messages.check(inner)
        except messages.BadMessage as exc:
            conn.offence(f"relayed message is malformed: {exc}")
            return
        if inner["seat"] != seat or seat == self.my_seat or seat not in self._humans():
            conn.offence(f"relayed chain commitment for seat {inner['seat']} is not relayable")
            return
        if not self.signed_by_seat(seat, inner):
            conn.offence(f"relayed ChainCommitted for seat {seat} is not signed by seat "
                         f"{seat}'s key (forged)")
            return
        known = self.chain_ends.get(seat)
        if known is not None:
            if known != inner["chain_end"]:
                self._cheated(seat, self.chain_msgs.get(seat), inner)
            return
        self.chain_msgs[seat] = inner
        self.chain_ends[seat] = inner["chain_end"]
        self.token_hashes[seat] = inner["token_hash"]
        if self.lockstep is not None:
            self.lockstep.add_chain(seat, inner["chain_end"], inner["token_hash"])
        self._maybe_begin()
