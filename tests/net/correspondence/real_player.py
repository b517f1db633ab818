"""One player's program at a correspondence table of the real rules, as its own process:
a scripted human (`real_table.scripted`) that keeps the table open, reading the folder
every `EVERY` seconds and playing what it can (as `FolderWatch` does), until the game is
over. Killed at any moment, it is started again and goes on from the folder and its own
saved replays.

    python -m tests.net.correspondence.real_player FOLDER LOCAL SEAT HUMANS [SAVES]

HUMANS: the human seats, "0,1,2" (the others of 4 are bots); SAVES 0: no saved replays.
Prints a JSON line after its first session (the step its replay began at, the saves
passed over), and one when the game is over: step, hash, where it started from, the
findings that name someone, offences, proofs.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from net.correspondence.folder_link import FolderLink
from net.lockstep.engine import SimEngine
from tests.net.correspondence.real_table import keys, real_table, scripted

EVERY = 0.05


def main() -> None:
    folder, local, seat = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    humans = tuple(int(s) for s in sys.argv[4].split(","))
    saves = len(sys.argv) <= 5 or sys.argv[5] != "0"
    engine = SimEngine()
    link = FolderLink(real_table(folder, engine, 4, humans), seat, keys(humans)[seat], engine,
                      scripted(engine), local=local, saves=saves)
    over = link.session()
    print(json.dumps({"started": link.restored_from, "passed_over": link.passed_over}),
          flush=True)
    while not over:
        time.sleep(EVERY)
        over = link.session()
    ls = link.lockstep
    assert ls is not None
    print(json.dumps({
        "step": ls.step, "hash": ls.hash, "restored_from": link.restored_from,
        "named": [f.sentence for f in link.findings if f.names_someone],
        "offences": [reason for _, reason in link.offences],
        "proofs": [why for _, why in link.proofs]}), flush=True)


if __name__ == "__main__":
    main()
