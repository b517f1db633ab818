"""A headless player that pings every other table in a loop (issue 39: the round trip's
`Pinged`, net/transport/round_trip.py): `PINGS` sealed pings on each of its connections
every tenth of a second, all game long, and it counts the answers. Everything else it does as
the headless runner does.

What it may cost an honest table: one small answer for each ping it answers. The budget
caps that (4 at once, then 2 a second per connection); the rest are ignored, never an
offence, so the pinger keeps its seat and the game goes on.

Run as: python tests/net/pinging_peer.py join 127.0.0.1:PORT --code C --headless ...
Prints "pinged N times, answered M" when the game ends.

Used by tests/net/trust/test_hostile_pings.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402
from sim.state import State  # noqa: E402

PINGS = 25
EVERY = 0.1


def prepare(session: TableSession) -> None:
    counts = {"pinged": 0, "answered": 0}
    reactor = session.setting.reactor
    counted: set[int] = set()

    def flood() -> None:
        if session.closed:
            return
        for conn in list(session.conns):
            if not conn.ready or conn.closed:
                continue
            if id(conn) not in counted:        # count the answers that come back
                counted.add(id(conn))
                setattr(conn.round_trip, "answered", lambda ping: counts.__setitem__(
                    "answered", counts["answered"] + 1))
            for n in range(1, PINGS + 1):
                conn.send({"type": "Pinged", "ping": n})
            counts["pinged"] += PINGS
        reactor.callLater(EVERY, flood)
    reactor.callLater(EVERY, flood)
    ended = session.callbacks.on_ended

    def on_ended(result: State) -> None:
        print(f"pinged {counts['pinged']} times, answered {counts['answered']}", flush=True)
        ended(result)
    session.callbacks.on_ended = on_ended


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
