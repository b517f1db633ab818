"""One session of one seat at a correspondence table, as its own process: read the folder,
play what can be played (a scripted player's choices), write, say where it got, exit.

    python -m tests.net.correspondence.folder_player FOLDER LOCAL SEAT [ROUNDS]

Prints one JSON line: ended, step, hash, the findings that name someone, offences, proofs,
the seats expelled (from which record) and the take-overs ([step, seat]).
Used by tests/net/correspondence/test_folder_processes.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.net.correspondence.test_folder_link import folder_table, keys, scripted
from tests.net.fake_game import FakeEngine
from net.correspondence.folder_link import FolderLink


def main() -> None:
    folder, local, seat = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    engine = FakeEngine(rounds)
    link = FolderLink(folder_table(folder, engine), seat, keys()[seat], engine,
                      scripted(engine), local=local)
    link.session()
    ls = link.lockstep
    print(json.dumps({
        "ended": bool(ls is not None and ls.ended), "step": ls.step if ls else None,
        "hash": ls.hash if ls else None,
        "named": [f.sentence for f in link.findings if f.names_someone],
        "offences": [reason for _, reason in link.offences],
        "proofs": [why for _, why in link.proofs],
        "expelled": {str(s): n for s, n in getattr(link, "expelled", {}).items()},
        "takeovers": sorted([e["step"], s] for e in (ls.log if ls else [])
                            for s in e.get("takeovers", ()))}), flush=True)


if __name__ == "__main__":
    main()
