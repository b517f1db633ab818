"""A window drives the reactor from its own clock: sessions work without reactor.run().

Run in a child process: a reactor that was started and stopped cannot be restarted, and
other tests in this process may need the global reactor.
"""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.network

ROOT = Path(__file__).resolve().parents[3]

SCENARIO = r'''
import sys, tempfile, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from twisted.internet import reactor
from net.table.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.processes import free_port
from tests.net.tables import autoplay, finished, hashes

tmp = Path(tempfile.mkdtemp())
engine = FakeEngine(3)
port = free_port()
opts = lambda n: SessionOptions(name=n, code="ITER1", interface="127.0.0.1",
                                save_path=str(tmp / f"{n}.save"))
host = TableSession.host(opts("h"), port=port, players=3, reactor=reactor, engine=engine)
guests = [TableSession.join(opts(f"g{i}"), f"127.0.0.1:{port}", code="ITER1",
                            reactor=reactor, engine=engine) for i in range(2)]
sessions = [host] + guests
for s in sessions:
    autoplay(reactor, s, engine)
reactor.startRunning(installSignalHandlers=False)       # once, when the window opens
end = time.monotonic() + 20
while time.monotonic() < end and not finished(sessions):
    reactor.iterate(0.01)                               # what the window's on_update does
    if not host.started and host.lobby_full():
        host.start_game()
assert finished(sessions), [s.lockstep and s.lockstep.step for s in sessions]
assert len(hashes(sessions)) == 1
for s in sessions:
    s.close()
print("ok")
'''


def test_sessions_on_real_sockets_driven_by_iterate():
    r = subprocess.run([sys.executable, "-c", SCENARIO, str(ROOT)], capture_output=True,
                       text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-3000:]
