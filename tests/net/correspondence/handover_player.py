"""One session of one seat at a correspondence table with a turn timer, as its own process:
read the folder, play what can be played, and with `claim` write my claim for every seat
whose timer ran out on my clock (`FolderLink.overdue`, `hand_over`); with `lone` write a
claim against SEAT2 at once, the timer or not (an attacker deciding a take-over alone).

    python -m tests.net.correspondence.handover_player FOLDER LOCAL SEAT TIMER [claim|lone SEAT2]

Prints one JSON line: ended, step, hash, whom the step waits for, the seats handed over,
the claims written, offences, the take-overs ([step, seat]).
Used by tests/net/correspondence/test_handover_processes.py.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from net.correspondence.folder_link import FolderLink
from tests.net.correspondence.test_folder_link import folder_table, keys, scripted
from tests.net.fake_game import FakeEngine

ROUNDS = 2


def main() -> None:
    folder, local, seat = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    timer, mode = int(sys.argv[4]), sys.argv[5] if len(sys.argv) > 5 else ""
    engine = FakeEngine(ROUNDS)
    table = replace(folder_table(folder, engine), turn_timer=timer)
    link = FolderLink(table, seat, keys()[seat], engine, scripted(engine), local=local)
    link.session()
    claimed = []
    if mode == "claim":
        for s in link.overdue(time.time()):
            said = link.hand_over(s, time.time())
            assert said == "", said
            claimed.append(s)
    elif mode == "lone" and link.lockstep is not None:
        victim = int(sys.argv[6])
        link._claim(victim, link.lockstep.step, False)     # no timer asked: the attack
        link.pump()
        link.flush()
        claimed.append(victim)
    ls = link.lockstep
    print(json.dumps({
        "ended": bool(ls is not None and ls.ended), "step": ls.step if ls else None,
        "hash": ls.hash if ls else None,
        "waiting": ls.waiting_for() if ls is not None and not ls.ended else [],
        "handed": {str(s): n for s, n in link.handed.items()}, "claimed": claimed,
        "offences": [reason for _, reason in link.offences],
        "takeovers": sorted([e["step"], s] for e in (ls.log if ls else [])
                            for s in e.get("takeovers", ()))}), flush=True)


if __name__ == "__main__":
    main()
