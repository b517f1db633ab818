"""The protocol with the real rules (in memory): identical play, spectators, plan secrecy."""

import msgpack
import pytest

from net.lockstep import commitment
from net.lockstep.engine import SimEngine
from net.transport.framing import FrameDecoder
from net.transport.messages import PLAN_FIELD_NAMES
from net.table.session import SessionOptions, TableSession
from tests.net.fakenet import FakeNet
from tests.net.tables import CODE, finished, hashes, open_table


@pytest.fixture(scope="module")
def engine():
    return SimEngine()


def test_a_real_game_in_lockstep_with_a_spectator(engine, tmp_path):
    net = FakeNet()
    net_, engine, sessions = open_table(players=4, bots=1, engine=engine, net=net,
                                        tmp_path=tmp_path, start=False)
    watcher = TableSession.watch(SessionOptions(interface="127.0.0.1"), "127.0.0.1:7531", code=CODE, reactor=net,
                                 engine=engine)
    net.pump()
    sessions[0].start_game()
    net.pump()
    assert finished(sessions) and watcher.lockstep.ended
    assert len(hashes(sessions + [watcher])) == 1
    assert engine.pending(sessions[0].state).kind == "over"


def test_bytes_sent_before_the_bids_open_do_not_show_the_plan(engine, tmp_path, monkeypatch):
    """Record every message seat 0 sends until its first BidOpened, before sealing
    (the wire itself is encrypted): the plan is not there. (Each action card is opened
    later still, at its turn: tests/net/lockstep/test_field_reveal.py.)"""
    from net.transport.peer import PeerConnection
    net = FakeNet()
    net_, engine, sessions = open_table(players=3, engine=engine, net=net, tmp_path=tmp_path,
                                        start=False)
    host = sessions[0]
    bodies = []
    original = PeerConnection.send_body

    def recording(conn, body):
        if conn.session is host:
            bodies.append((conn, body))
        original(conn, body)
    monkeypatch.setattr(PeerConnection, "send_body", recording)
    host.start_game()
    net.pump_until(lambda: any(b"BidOpened" in body for _, body in bodies))
    cut = next(i for i, (_, body) in enumerate(bodies) if b"BidOpened" in body)
    before = bodies[:cut]
    opened = msgpack.unpackb(bodies[cut][1], raw=False)
    nonce, plan = host.lockstep.my_plans[opened["step"]]
    cards = {**plan["actions"], "bid": plan["bid"]}
    # 1. every message sent before is one of these kinds (none carries a plan)
    kinds = set()
    for conn, body in before:
        msg = msgpack.unpackb(body, raw=False)
        kinds.add(msg["type"])
        if msg["type"] == "PlanCommitted":
            assert set(msg) == {"type", "step", "seat", "lock", "fields", "hash", "sig"}
            assert msg["fields"] == commitment.field_digests(
                nonce, 0, msg["step"], PLAN_FIELD_NAMES, cards)
    assert "PlanCommitted" in kinds
    assert kinds <= {"Welcomed", "Accepted", "Hello", "LobbyChanged", "GameStarted",
                     "ChainCommitted", "LinkRevealed", "PlanCommitted", "CommandSent",
                     "CommitsEchoed", "TowerVoted"}
    # the wire carries none of it in clear
    wire = b"".join(data for s, _, data in net.written if s is host)
    assert b"PlanCommitted" not in wire and b"GameStarted" not in wire
    # 2. no byte pattern of the plan is there: not its nonce or a field's salt, not any
    #    province it names
    raw = b"".join(body for _, body in before)
    assert nonce not in raw
    assert not any(commitment.field_salt(nonce, f) in raw for f in PLAN_FIELD_NAMES)
    for name in {p for p in cards.values() if isinstance(p, str)}:
        assert msgpack.packb(name) not in raw, name
    assert any(plan["actions"].values()), "the plan names provinces"
    # 3. the bid opening shows the bid's salt only: no other field can be derived from it
    assert opened["salt"] == commitment.field_salt(nonce, "bid")
    assert all(commitment.field_salt(nonce, f) != opened["salt"] for f in PLAN_FIELD_NAMES[:-1])
