"""A headless player that holds its first plan back until someone at the table says "go"
in the chat (for the window's loopback test: the window must lock, unlock and relock its
plan while another player still plans, which a bot answering at once never allows).
It plans anyway after GIVE_UP seconds (SHOGUN_TEST_PLAN_AFTER, if set), so it can never
hang a test: a slow but present player.

Run as: python tests/net/slow_planner.py join HOST:PORT --code C --headless ...

Used by tests/client/sessions/test_net_window.py, tests/net/trust/test_takeover_attacks.py
(the victim of a lone take-over claim, planning in 15 s).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402

GIVE_UP = float(os.environ.get("SHOGUN_TEST_PLAN_AFTER", "60"))


def prepare(session: TableSession) -> None:
    """Chained onto the runner's public hooks: the first plan decision waits for "go"."""
    answer = session.on_decision
    heard = session.on_chat_received
    held: list = []            # the first plan decision, while it waits
    state = {"released": False}

    def release() -> None:
        if not state["released"]:
            state["released"] = True
            print("planning now", flush=True)
            for decision, game_state in held:
                answer(decision, game_state)

    def on_decision(decision, game_state) -> None:
        if decision.kind == "plan" and not state["released"]:
            if not held:
                print("holding my plan until someone says go", flush=True)
                session.reactor.callLater(GIVE_UP, release)
            held[:] = [(decision, game_state)]
            return
        answer(decision, game_state)

    def on_chat_received(line) -> None:
        heard(line)
        if line.text.strip().lower() == "go":
            release()

    session.on_decision = on_decision
    session.on_chat_received = on_chat_received


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
