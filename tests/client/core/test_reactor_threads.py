"""The window drives Twisted's reactor by hand (client/sessions/reactor_pump.py) and never stops it,
so the reactor's thread pool must not keep the program alive: after a port mapping or a
name lookup ran in a thread, closing the window has to end the process. (It did not: a
whole CI run finished its tests and then hung in Python's exit, waiting for the pool.)"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROGRAM = """
import time
from client.sessions.reactor_pump import window_reactor
from twisted.internet.threads import deferToThread
reactor = window_reactor()
done = []
deferToThread(lambda: 42).addCallback(done.append)
deadline = time.time() + 10
while not done and time.time() < deadline:
    reactor.runUntilCurrent()
    reactor.doIteration(0.01)
print("result", done)
"""


def test_a_program_that_used_the_reactors_threads_still_exits():
    try:
        out = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True,
                             text=True, timeout=30)
    except subprocess.TimeoutExpired:
        raise AssertionError("the program did not exit: a reactor thread kept it alive")
    assert out.returncode == 0, out.stderr
    assert "result [42]" in out.stdout
