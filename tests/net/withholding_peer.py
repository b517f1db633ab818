"""A headless player that stays connected but keeps one input back (for the loopback
tests of issue 26 item 4). SHOGUN_TEST_WITHHOLD says which:

- `link`: its beacon link of the game's third chance step (it has every other player's
  link by then, so it could work the draw out and keep its own back);
- `plan`: its first plan (it is asked and never answers);
- `echo`: its echo of the first plan step's commitments (`CommitsEchoed`): it plans,
  but the others' bids wait on its echo (issue 52: only its own input, no refusals);
- `link-from-one`: its beacon link of the third chance step, from one victim only
  (SHOGUN_TEST_VICTIM_SEAT): everyone else gets it, so the table moves on and the victim,
  a step behind, looks silent to them (issue 34 item 1). It never answers the victim's
  asks for what it missed (`InputsMissed`), as a withholder would not;
- `links-from-one`: the same, for every beacon link of the game from the third on (a
  repeat withholder: each costs the victim a wait).

Everything else it does as the headless runner does; its heartbeats keep it "alive".

Run as: python tests/net/withholding_peer.py join HOST:PORT --code C --headless ...

Used by tests/net/table/test_input_deadline.py, tests/net/trust/test_takeover_attacks.py,
tests/net/trust/test_blame.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.lockstep.core import Lockstep  # noqa: E402
from net.table.session import TableSession  # noqa: E402
from tests.net.mesh_harness import HostWith  # noqa: E402


def prepare(session: TableSession) -> None:
    what = os.environ.get("SHOGUN_TEST_WITHHOLD", "link")
    if what == "plan":
        answer = session.on_decision

        def on_decision(decision, state) -> None:
            if decision.kind == "plan":
                print("withholding my plan", flush=True)
                return
            answer(decision, state)
        session.on_decision = on_decision
        return
    send = Lockstep.send
    links: list[int] = []
    echoes: list[int] = []          # the plan step whose echo it keeps
    if what in ("link-from-one", "links-from-one"):
        _keep_from_one(session, int(os.environ["SHOGUN_TEST_VICTIM_SEAT"]),
                       every=what == "links-from-one")
        return

    def withholding_send(lockstep: Lockstep, msg: dict[str, Any]) -> dict[str, Any]:
        if what == "echo":
            if msg.get("type") == "CommitsEchoed" and echoes in ([], [msg["step"]]):
                echoes[:] = [msg["step"]]
                print(f"withholding my echo of step {msg['step']}", flush=True)
                return msg          # kept, never sent
            return send(lockstep, msg)
        if msg.get("type") == "LinkRevealed":
            links.append(msg["step"])
            if len(set(links)) == 3:
                print(f"withholding my beacon link of step {msg['step']}", flush=True)
                return msg          # kept, never sent (the table sees nothing)
        return send(lockstep, msg)
    setattr(Lockstep, "send", withholding_send)     # the withholder's own program


def _keep_from_one(session: TableSession, victim: int, every: bool = False) -> None:
    send = Lockstep.send
    links: list[int] = []

    def send_to_all_but_the_victim(lockstep: Lockstep, msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("type") != "LinkRevealed":
            return send(lockstep, msg)
        links.append(msg["step"])
        if len(set(links)) < 3 or (len(set(links)) > 3 and not every):
            return send(lockstep, msg)
        print(f"withholding my beacon link of step {msg['step']} from seat {victim}",
              flush=True)
        everyone = lockstep.host

        def all_but_the_victim(m: dict[str, Any]) -> None:
            for c in list(session.conns):
                if c.ready and c.seat != victim:
                    c.send(m)
        lockstep.host = HostWith(everyone, broadcast=all_but_the_victim)
        try:
            return send(lockstep, msg)
        finally:
            lockstep.host = everyone
    setattr(Lockstep, "send", send_to_all_but_the_victim)     # the withholder's program
    missed = getattr(session, "missed", None)
    if missed is not None:              # nor does it answer the victim's asks
        answer = missed.inputs_missed
        setattr(missed, "inputs_missed",
                lambda conn, msg: None if conn.seat == victim else answer(conn, msg))
    # (the connection's handler table holds the bound method: replace it there too)
    handlers = getattr(getattr(session, "connections", None), "handlers", {})
    if "InputsMissed" in handlers:
        handlers["InputsMissed"] = getattr(missed, "inputs_missed")


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
