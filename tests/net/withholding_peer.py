"""A headless player that stays connected but keeps one input back (for the loopback
tests of issue 26 item 4). SHOGUN_TEST_WITHHOLD says which:

- `link`: its beacon link of the game's third chance step (it has every other player's
  link by then, so it could work the draw out and keep its own back);
- `plan`: its first plan (it is asked and never answers).

Everything else it does as the headless runner does; its heartbeats keep it "alive".

Run as: python tests/net/withholding_peer.py join HOST:PORT --code C --headless ...

Used by tests/net/table/test_input_deadline.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser  # noqa: E402
from cli import runner  # noqa: E402
from net.lockstep.core import Lockstep  # noqa: E402
from net.table.session import TableSession  # noqa: E402


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

    def withholding_send(lockstep: Lockstep, msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("type") == "LinkRevealed":
            links.append(msg["step"])
            if len(set(links)) == 3:
                print(f"withholding my beacon link of step {msg['step']}", flush=True)
                return msg          # kept, never sent (the table sees nothing)
        return send(lockstep, msg)
    setattr(Lockstep, "send", withholding_send)     # the withholder's own program


if __name__ == "__main__":
    sys.exit(runner.run(build_parser().parse_args(sys.argv[1:]), prepare=prepare))
