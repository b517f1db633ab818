"""A 4-peer bot game where every link adds 50 ms each way (issue 16, latency).

The links pass the userspace delay hub (tests/net/delay_hub.py) in a network namespace
this test makes; the kernel here has no netem. Timing is the benchmark's business
(benchmarks/bench_latency.py); this test asks that the game finishes as one game.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.net import processes as P
from tests.net.netns import Lab, enter, missing_reason

pytestmark = [pytest.mark.network, pytest.mark.slow]

_missing = missing_reason()
needs_lab = pytest.mark.skipif(_missing is not None, reason=f"no namespace lab: {_missing}")


@needs_lab
def test_the_hub_delays_every_link(tmp_path):
    """Without this, the game below could pass on a hub that delays nothing."""
    code = """
import socket, threading, time
srv = socket.create_server(('127.0.0.1', 5001))
def echo():
    c, _ = srv.accept()
    while (d := c.recv(100)):
        c.sendall(d)
threading.Thread(target=echo, daemon=True).start()
s = socket.create_connection(('127.0.0.1', 5001))
s.sendall(b'x'); s.recv(10)              # the first exchange also waits for the dial
times = []
for i in range(3):
    a = time.perf_counter(); s.sendall(b'x'); s.recv(10); times.append(time.perf_counter() - a)
print(min(times))
"""
    with Lab(tmp_path) as lab:
        ns = lab.delayed_loopback(0.05)
        done = subprocess.run([sys.executable, "-c", code], preexec_fn=enter(ns),
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) >= 0.1, done.stdout      # 50 ms there, 50 ms back


@needs_lab
def test_four_peers_with_50_ms_per_link_finish_one_game(tmp_path):
    with Lab(tmp_path) as lab:
        ns = lab.delayed_loopback(0.05)
        peers = []
        try:
            host, port = P.host(tmp_path, 4, timeout=120, preexec=enter(ns))
            peers.append(host)
            peers += [P.join(tmp_path, port, f"guest{i}", timeout=120, preexec=enter(ns))
                      for i in range(3)]
            P.wait_all(peers, 280)
        finally:
            P.kill_all(peers)
    assert [p.proc.returncode for p in peers] == [0] * 4, [p.errors()[-1500:] for p in peers]
    finals = {p.final_hash() for p in peers}
    assert len(finals) == 1 and None not in finals, finals
    stats = host.load_stats()
    # the game's traffic went through the hub: a typical wait for all players took at
    # least one delayed message (a single wait may be shorter: the others' messages of
    # that step may already be on their way when a peer sends its own)
    waits = sorted(stats["round_trips"])
    assert waits[len(waits) // 2] >= 0.05, waits
    # what the benchmarks pace their local game by (benchmarks/local_game.py): where the
    # host waited for the network and how long; on these links most waits are long
    paused = stats["waited_before"]
    indices = [index for index, _ in paused]
    assert indices == sorted(set(indices)) and len(paused) > 20, paused[:20]
    idles = sorted(idle for _, idle in paused)
    assert idles[len(idles) // 2] >= 0.04, idles
