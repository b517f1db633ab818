"""Helpers for session tests: open a table on the in-memory network and let bots play.

Used by most tests under tests/net, tests/cli/test_runner_options.py, tests/store/test_table_save.py.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from net.table.session import SessionOptions, TableSession
from tests.net.fake_game import FakeEngine
from tests.net.fakenet import FakeNet

# One folder for every table's saves in this test process, removed when the process ends
# (a property test opens hundreds of tables; each left a folder in /tmp before).
_SCRATCH = tempfile.TemporaryDirectory(prefix="shogun-net-tests-")


def scratch_dir(prefix: str) -> Path:
    """A fresh folder for one table's saves and reports, gone when the tests end."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=_SCRATCH.name))

CODE = "K3F9Q"


def bot_seed(session, step):
    return hashlib.sha256(f"test/{session.my_seat}/{step}".encode()).digest()


def autoplay(net, session, engine, bot="heuristic", policy=None):
    """Answer every decision of the session's seat (like the headless runner)."""
    def act(step):
        ls = session.lockstep
        if ls is None or ls.ended or ls.step != step or session.closed:
            return
        if session.my_seat not in ls.decision().seats:
            return
        cmd = (policy or (lambda s, st: engine.choose(st, s.my_seat, bot, bot_seed(s, step))))(
            session, ls.state)
        session.submit(cmd)

    session.on_decision = lambda d, state: net.callLater(0, act, session.lockstep.step)
    return session


def open_table(players=4, bots=0, engine=None, net=None, tmp_path=None, rejoin_timeout=120.0,
               start=True, joiners=None):
    """A host and `players - bots - 1` joiners on a FakeNet; returns (net, engine, sessions)."""
    net = net or FakeNet()
    engine = engine or FakeEngine(3)
    if tmp_path is None:          # saves and reports never go to the user's data dir
        tmp_path = scratch_dir("net-test-")

    def opts(name):
        return SessionOptions(interface="127.0.0.1", name=name, code=CODE, rejoin_timeout=rejoin_timeout,
                              save_path=str(tmp_path / f"{name}.save") if tmp_path else None,
                              report_dir=str(tmp_path) if tmp_path else None)
    host = TableSession.host(opts("host"), port=7531, players=players, bots=bots,
                             reactor=net, engine=engine)
    sessions = [host]
    count = players - bots - 1 if joiners is None else joiners
    for i in range(count):
        sessions.append(TableSession.join(opts(f"guest{i}"), "127.0.0.1:7531", code=CODE,
                                          reactor=net, engine=engine))
        net.pump()
    for s in sessions:
        autoplay(net, s, engine)
    if start:
        host.start_game()
        net.pump()
    return net, engine, sessions


def hashes(sessions):
    return {s.lockstep.hash for s in sessions if s.lockstep is not None}


def finished(sessions):
    return all(s.lockstep is not None and s.lockstep.ended for s in sessions)
