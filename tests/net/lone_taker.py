"""A headless player that decides a take-over alone (issue 52): the moment its clock for
the victim's input runs out (the table's turn timer, before any take-over countdown or
anyone's agreement), it plays the victim's seat with a bot in its own lockstep. From then
on its program refuses the victim's real inputs as "not a human seat in play" (the
lockstep's own check), echoes plan commitments without the victim's, and waits for
inputs the honest players never send: everything else it does as the headless runner
does, its claims on the seats it then waits for included (the ordinary take-over path).

Its victim is the first other seat whose turn timer runs out on its clock (at the tests'
table, the slow planner, tests/net/slow_planner.py).

Run as: python tests/net/lone_taker.py host|join ... --headless --turn-time 10 ...

Used by tests/net/trust/test_blame.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.table.session import TableSession  # noqa: E402


def prepare(session: TableSession) -> None:
    overdue = session.takeover.input_overdue
    done: list[int] = []

    def input_overdue(seat: int, step: int, waited: float, what: str) -> None:
        overdue(seat, step, waited, what)
        ls = session.lockstep
        if not done and seat != session.my_seat and what == "a decision" and ls is not None:
            done.append(seat)
            print(f"took seat {seat} for a bot alone at step {step}", flush=True)
            ls.take_over(seat, step)
    setattr(session.takeover, "input_overdue", input_overdue)


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
