"""A modified client that votes the tower outcome it likes (for the tower attack tests).

Run as: python tests/net/tower_cheat_peer.py host|join ... --headless, with
  SHOGUN_CHEAT      ours-out | illegal | overlap | twice | honest
  SHOGUN_CHEAT_GANG a folder where each colluder leaves its player name: the players whose
                    cubes should come out (ours-out, twice) are those players' seats
  SHOGUN_CHEAT_BUILD  deterministic | platform: the build its votes claim (default: its own)

* ours-out: every cube of the named players comes out, the rest as the physics left it
  (a legal outcome: every cube accounted for, no overlap). It also applies it itself.
* illegal: an outcome that accounts for no cube.
* overlap: the honest outcome with one kept cube moved onto another.
* twice: the honest vote, then a second signed vote with the ours-out outcome.
* honest: plays honestly (with SHOGUN_CHEAT_BUILD=platform: a platform-build peer).

Used by tests/net/trust/test_tower_attacks.py.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from main import build_parser, table_options  # noqa: E402
from cli import runner  # noqa: E402
from net.lockstep.engine import SimEngine  # noqa: E402
from net.table.session import TableSession  # noqa: E402
from sim.commands import TowerSettled  # noqa: E402
from sim.tower.contents import Cube, TowerContents  # noqa: E402

MODE = os.environ.get("SHOGUN_CHEAT", "honest")
GANG = Path(os.environ.get("SHOGUN_CHEAT_GANG", "")) if os.environ.get("SHOGUN_CHEAT_GANG") \
    else None


class CheatEngine(SimEngine):
    """The real rules; its drops are the ones this cheater wants (module doc)."""

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        build = os.environ.get("SHOGUN_CHEAT_BUILD")
        if build:
            self.deterministic = build == "deterministic"

    def ours(self) -> set[int]:
        names = {p.read_text() for p in GANG.iterdir()} if GANG is not None \
            else {self.session.name}
        seats = self.session.lobby.get("seats", [])
        return {s["seat"] for s in seats if s.get("name") in names and s.get("kind") == "human"}

    def ours_out(self, honest: TowerSettled) -> TowerSettled:
        ours = self.ours()
        out = dict(honest.out)
        kept = []
        for cube in honest.contents.cubes:
            if cube.colour in ours:
                out[cube.colour] = out.get(cube.colour, 0) + 1
            else:
                kept.append(cube)
        return TowerSettled(tuple(sorted(out.items())), TowerContents(tuple(kept)))

    def settle(self, decision: Any) -> TowerSettled:
        honest = super().settle(decision)
        assert isinstance(honest, TowerSettled)
        if MODE == "ours-out":
            return self.ours_out(honest)
        if MODE == "illegal":
            return TowerSettled((), TowerContents(()))
        if MODE == "overlap":
            cubes = list(honest.contents.cubes)
            out = dict(honest.out)
            if len(cubes) < 2 and cubes and out:
                colour = min(out)
                out[colour] -= 1
                cubes.append(Cube(colour, 0, 0, 0))
            if len(cubes) >= 2:
                a, b = cubes[0], cubes[1]
                cubes[1] = Cube(b.colour, a.x + 30 if a.x < 9000 else a.x - 30, a.y, a.angle)
                return TowerSettled(tuple((c, n) for c, n in sorted(out.items()) if n),
                                    TowerContents(tuple(cubes)))
        if MODE == "twice":
            steered = self.ours_out(honest)
            ls = self.session.lockstep
            if steered != honest and ls is not None:
                self.session.reactor.callLater(0, self.vote_again, steered, ls.step, ls.hash)
        return honest

    def vote_again(self, steered: TowerSettled, step: int, state_hash: str) -> None:
        ls = self.session.lockstep
        if ls is None or ls.my_seat is None:
            return
        vote = {"type": "TowerVoted", "step": step, "seat": ls.my_seat,
                "outcome": self.to_wire(steered), "hash": state_hash}
        if hasattr(self, "deterministic"):      # (before issue 25 a vote named no build)
            vote["build"] = "deterministic" if self.deterministic else "platform"
        self.session.roster.broadcast(self.session.sign(vote))
        print(f"second vote sent for step {step}", flush=True)


def prepare(session: TableSession) -> None:
    if GANG is not None:
        GANG.mkdir(parents=True, exist_ok=True)
        (GANG / str(os.getpid())).write_text(session.name)
    session.engine = CheatEngine(session)


if __name__ == "__main__":
    sys.exit(runner.run(table_options(build_parser().parse_args(sys.argv[1:])), prepare=prepare))
