"""A headless player that claims a seat for a bot on its own word (issue 34 item 1): the
moment its clock for another seat's input runs out — the table's turn timer, before any
take-over countdown — it tells every player that seat is taken over, once.

What it sends is what one peer could say in the protocol it runs: before take-overs by
agreement a `SeatTakenOver` (which every peer obeyed, the victim's own included), now a
signed `TakeoverClaimed` (one claim of the more than half a take-over needs). It does not
give the seat to a bot itself; everything else it does as the headless runner does.

Run as: python tests/net/lone_claimer.py host --headless --turn-time 10 ...

Used by tests/net/trust/test_takeover_attacks.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402
from net.transport import messages  # noqa: E402


def claim_alone(session: TableSession, seat: int, step: int) -> None:
    """One peer's word that `seat` is gone at `step`, to every player."""
    ls = session.lockstep
    assert ls is not None
    if "TakeoverClaimed" in messages.SCHEMAS:
        msg = session.signer.sign({"type": "TakeoverClaimed", "step": step,
                                   "seat": session.my_seat, "absent": seat, "hash": ls.hash})
    else:
        msg = {"type": "SeatTakenOver", "step": step, "seat": seat}
    session.roster.broadcast(msg)
    print(f"claimed seat {seat} for a bot alone at step {step}", flush=True)


def prepare(session: TableSession) -> None:
    overdue = session.takeover.input_overdue
    done: list[int] = []

    def input_overdue(seat: int, step: int, waited: float, what: str) -> None:
        overdue(seat, step, waited, what)
        if not done and seat != session.my_seat:
            done.append(seat)
            claim_alone(session, seat, step)
    setattr(session.takeover, "input_overdue", input_overdue)


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
