"""A stranger's flood against a real host process on 127.0.0.1 (issue 26): slowloris and
idle connections cost the host little memory, are closed within the handshake deadline,
and an honest player still joins and plays afterwards."""

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net.transport.handshake_limits import HANDSHAKE_DEADLINE
from tests.net import processes as P

pytestmark = [pytest.mark.network, pytest.mark.slow]

ATTACKER = Path(__file__).with_name("flood_attacker.py")
SLOW, IDLE = 300, 200
MEMORY_LIMIT = 150 * 1024 * 1024


def rss(pid: int) -> int:
    """The process's resident memory in bytes (VmRSS in /proc)."""
    found = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    assert found is not None, "no VmRSS in /proc (Linux only)"
    return int(found.group(1)) * 1024


def test_a_slowloris_and_idle_flood_is_bounded_and_closed_and_an_honest_player_joins(tmp_path):
    host, port = P.host(tmp_path, players=3, bots=1)
    peers = [host]
    try:
        before = rss(host.proc.pid)
        check_after = HANDSHAKE_DEADLINE + 5.0
        attacker = subprocess.Popen([sys.executable, str(ATTACKER), str(port), str(SLOW),
                                     str(IDLE), str(check_after)], stdout=subprocess.PIPE,
                                    text=True, cwd=P.ROOT)
        peak = before
        while attacker.poll() is None:
            peak = max(peak, rss(host.proc.pid))
            time.sleep(0.1)
        out = attacker.stdout.read()
        print(f"host RSS before {before >> 20} MiB, peak {peak >> 20} MiB; attacker: {out!r}")
        assert peak < MEMORY_LIMIT, f"host RSS peaked at {peak >> 20} MiB"
        flooded, still_open, total = map(int, re.search(r"flooded (\d+)\s+open (\d+) of (\d+)",
                                                        out).groups())
        assert flooded == SLOW + IDLE     # the kernel accepts; the host closes them
        assert still_open == 0, f"{still_open} of {total} connections still open " \
                                f"{check_after} s after the flood"
        guest = P.join(tmp_path, port, "Bo")
        peers.append(guest)
        P.wait_all(peers, 240)
        assert host.final_hash() is not None and host.final_hash() == guest.final_hash()
    finally:
        P.kill_all(peers)
