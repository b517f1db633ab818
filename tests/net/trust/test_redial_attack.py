"""A seated peer that misbehaves, is dropped and redials with its seat key (issue 34
item 2), as a real process on loopback (`tests/net/redialling_peer.py`).

Before: it was readmitted 20 times, each time with a fresh allowance of offences; the
honest players' repeated `SeatDropped` claims about it were counted as *their* offences
("too many SeatDropped claims"), an honest player was dropped, and the table stalled.
Now: claims are counted per reporter and accused seat (`net.table.policy.report_counting`), a
seat keeps its offences across redials, a seat dropped for offences twice is refused,
and a bot plays it by the table's take-over rule; the honest players finish one game."""

from __future__ import annotations

import re

import pytest

from tests.net import processes as P

pytestmark = [pytest.mark.network, pytest.mark.slow]

SCRIPT = P.ROOT / "tests" / "net" / "redialling_peer.py"


def test_a_redialling_offender_never_gets_an_honest_player_dropped(tmp_path):
    host, port = P.host(tmp_path, 4, timeout=10.0)
    peers = [host]
    try:
        honest = [host] + [P.join(tmp_path, port, f"guest{i}", timeout=10.0) for i in range(2)]
        peers += honest[1:]
        attacker = P.Peer("attacker", ["join", f"127.0.0.1:{port}", "--code", P.CODE,
                                       "--headless", "--rejoin-timeout", "10",
                                       "--save", str(tmp_path / "attacker.save")],
                          tmp_path, script=SCRIPT)
        peers.append(attacker)
        P.wait_all(honest, 240)
        said = attacker.text()
        assert "garbage sent to seat" in said, said[-2000:] + attacker.errors()[-2000:]
        errors = "".join(p.errors() for p in honest)
        for p in honest:
            assert p.proc.returncode == 0, p.errors()[-2000:]
        assert len({p.final_hash() for p in honest}) == 1 and host.final_hash()
        # no honest player is ever accused for what it reported
        assert "too many SeatDropped claims" not in errors
        for name in ("host", "guest0", "guest1"):
            assert not re.search(rf"dropping {name} ", errors), errors[-3000:]
        # the attacker came back at most once per honest player, then was refused
        readmitted = re.findall(r"readmitted (\d+) times", said)
        assert len(readmitted) <= 3, said[-2000:]
        assert "dropped twice for offences" in said, said[-2000:]
        attacker_seat = int(re.search(r"game started: seat (\d)", said).group(1))
        assert all(re.search(rf"seat {attacker_seat} is played by a bot from step", p.errors())
                   for p in honest), errors[-3000:]
    finally:
        P.kill_all(peers)
