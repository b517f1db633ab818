"""A seated player that misbehaves, is dropped, and redials with its seat key, again and
again (issue 34 item 2). As a process, for the loopback attack test.

Once its game began it sends every other player three malformed frames (three offences:
each honest peer drops it and tells the others with a `SeatDropped` claim), then dials
each player that dropped it again, as a player with its table id and a proof of its seat
key — what an honest player does after a lost connection — and misbehaves on each new
connection. Before the fix it was admitted every time with a fresh allowance, and the
honest players' repeated claims about it were counted as their own offences, until an
honest player was dropped and the table stalled.

It prints "readmitted N times" for each new connection and "refused: ..." when a peer
turns it away. It stops dialling after `ROUNDS` dials; the test ends it.

Run as: python tests/net/redialling_peer.py join HOST:PORT --code C --headless ...

Used by tests/net/trust/test_redial_attack.py.
"""

from __future__ import annotations

import struct
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402

if TYPE_CHECKING:
    from cli.runner import HeadlessReactor
    from net.transport.peer import PeerConnection

ROUNDS = 20          # redials in all, as in the runs
EVERY = 0.3          # seconds between looks at its connections
GARBAGE = struct.pack(">I", 3) + b"\xc1\xc1\xc1"      # malformed msgpack: one offence


class Redialler:
    """Misbehave on every connection once; redial every player that dropped me."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.offended: set[int] = set()       # id() of the connections already misused
        self.admitted = 0                     # connections made after the game began
        self.dials = 0
        self.idle = 0                         # looks with no one left to misuse

    def look(self) -> None:
        session = self.session
        reactor = cast("HeadlessReactor", session.reactor)
        if session.closed or session.shared.over():
            return
        live = [c for c in session.conns if c.ready and not c.closed and c.seat is not None]
        for conn in live:
            if id(conn) not in self.offended:
                self.misuse(conn)
        connected = {c.seat for c in live}
        others = [s for s in session.addresses if s != session.my_seat
                  and s not in connected]
        if self.dials < ROUNDS:
            for seat in others:
                self.redial(seat)
        elif not live:
            self.idle += 1
            if self.idle > 30:
                print(f"giving up after {self.dials} redials", flush=True)
                reactor.stop()
                return
        reactor.callLater(EVERY, self.look)

    def misuse_once(self, conn: PeerConnection) -> None:
        if id(conn) not in self.offended and not conn.closed:
            self.misuse(conn)

    def misuse(self, conn: PeerConnection) -> None:
        self.offended.add(id(conn))
        if conn.redialed:
            self.admitted += 1
            print(f"readmitted {self.admitted} times (seat {conn.seat})", flush=True)
        for _ in range(3):
            conn.send_body(GARBAGE[4:])     # sealed on its own channel: it knows the code
        print(f"garbage sent to seat {conn.seat}", flush=True)

    def redial(self, seat: int) -> None:
        session = self.session
        assert session.start_info is not None and session.my_seat is not None
        host, port = session.addresses[seat]
        self.dials += 1
        session.dialer.dial(host, port, {"role": "player", "seat": session.my_seat,
                                         "table": session.start_info["table"]})

    def refused(self, reason: str) -> None:
        print(f"refused: {reason}", flush=True)


def prepare(session: TableSession) -> None:
    attacker = Redialler(session)
    started = session.on_started
    refused = session.on_refused
    done: list[bool] = []

    def on_started(*args) -> None:
        started(*args)
        if not done:
            done.append(True)
            session.reactor.callLater(0.5, attacker.look)

    def on_refused(reason: str) -> None:
        if session.started:
            attacker.refused(reason)      # a redial turned away: keep trying the others
            return
        refused(reason)

    ready = session.reports.ready

    def connection_ready(conn: PeerConnection) -> None:
        ready(conn)
        if done and conn.ready and conn.seat is not None:      # a redial: at once
            session.reactor.callLater(0.05, attacker.misuse_once, conn)

    session.on_started = on_started
    session.on_refused = on_refused
    session.reports = replace(session.reports, ready=connection_ready)
    # it redials on its own schedule (`look`), not by the session's mesh rule
    session.liveness.may_redial = lambda conn: False       # type: ignore[method-assign]


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
