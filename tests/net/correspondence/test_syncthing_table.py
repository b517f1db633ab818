"""A correspondence table carried by real Syncthing (issue 51, "Done when"): three
Syncthing instances on 127.0.0.1 (`syncthing_cluster.py`: discovery, relays and NAT
traversal off), one per player; the players' programs take turns — each starts on its own
machine's copy of the folder, plays what it can, exits; never two at once — and the
sync brings each session's record to the others before the next starts. The game ends
with one hash, and nobody is named.

The game is the protocol-test game (`tests/net/fake_game.py`); the real rules over a folder
are tested over a plain directory (`test_replay_save.py`, `test_real_kill.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.net.correspondence.syncthing_cluster import syncthing_cluster
from tests.net.correspondence.test_folder_processes import run_session


@pytest.mark.slow
@pytest.mark.network
def test_three_players_over_real_syncthing_finish_with_one_hash(tmp_path):
    with syncthing_cluster(tmp_path, 3) as cluster:
        local = tmp_path / "local"
        ended: dict[int, dict] = {}
        said: list[dict] = []
        turn = 0
        while len(ended) < 3:
            assert turn < 120, f"not over after {turn} sessions: {said[-3:]}"
            seat = turn % 3
            out = run_session(cluster[seat].folder, local, seat)
            said.append(out)
            if out["ended"]:
                ended[seat] = out
            cluster.wait_in_sync(timeout=60)
            turn += 1
        assert len({out["hash"] for out in ended.values()}) == 1
        assert all(not s["named"] and not s["offences"] and not s["proofs"] for s in said), said
        names = {sorted_names for sorted_names in
                 (tuple(sorted(p.name for p in inst.folder.iterdir() if not p.name.startswith(".")))
                  for inst in cluster.instances)}
        assert names == {("seat-0.shogun", "seat-1.shogun", "seat-2.shogun")}
