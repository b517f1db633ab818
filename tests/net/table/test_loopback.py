"""Real processes on 127.0.0.1: headless bot peers play whole games (run with --runslow)."""

import socket
import struct
import time

import msgpack
import pytest

from net.transport.versions import local_versions
from tests.net.raw_dialer import RawDialer, hello as make_hello
from tests.net import processes as P

pytestmark = [pytest.mark.network, pytest.mark.slow]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_bot_peers_finish_with_identical_hashes(tmp_path, players):
    peers = P.play(tmp_path, players, watchers=1, timeout=240)
    codes = [p.proc.returncode for p in peers]
    assert codes == [0] * len(peers), [p.errors()[-1500:] for p in peers]
    finals = {p.name: p.final_hash() for p in peers}
    assert None not in finals.values() and len(set(finals.values())) == 1, finals
    # the spectator's final hash equals the players'
    assert finals["watcher0"] == finals["host"]


def test_table_with_bot_seats(tmp_path):
    peers = P.play(tmp_path, 4, bots=2, timeout=240)
    assert [p.proc.returncode for p in peers] == [0] * len(peers)
    assert len({p.final_hash() for p in peers}) == 1


@pytest.mark.parametrize("victim_name", ["guest1", "host"])
def test_sigkilled_peer_resumes_and_the_game_completes(tmp_path, victim_name):
    peers = []
    try:
        host, port = P.host(tmp_path, 4)
        peers.append(host)
        guests = [P.join(tmp_path, port, f"guest{i}") for i in range(3)]
        peers += guests
        victim = {p.name: p for p in peers}[victim_name]
        victim.wait_for(r"game started", 60)
        log = tmp_path / f"{victim_name}.save.log"
        end = time.monotonic() + 60
        while time.monotonic() < end and (not log.exists() or log.stat().st_size < 4000):
            time.sleep(0.005)                         # mid-game: some steps applied
        victim.kill()
        assert victim.proc.returncode == -9
        time.sleep(0.5)
        back = P.resume(tmp_path, victim.name)
        peers.append(back)
        survivors = [p for p in peers if p is not victim]
        P.wait_all(survivors, 240)
        assert [p.proc.returncode for p in survivors] == [0] * 4, \
            [p.errors()[-1500:] for p in survivors]
        assert len({p.final_hash() for p in survivors}) == 1
        witness = survivors[0]
        assert "paused: seat" in witness.errors()
        assert "a bot plays it" not in witness.errors()
    finally:
        P.kill_all(peers)


def _read_body(sock):
    """One whole frame (length and body) as it came."""
    head = b""
    while len(head) < 4:
        head += sock.recv(4 - len(head))
    (n,) = struct.unpack(">I", head)
    body = b""
    while len(body) < n:
        body += sock.recv(n - len(body))
    return head + body


def _read_frame(sock):
    return msgpack.unpackb(_read_body(sock)[4:], raw=False)


def test_a_hostile_peer_cannot_disturb_the_game(tmp_path):
    peers = []
    try:
        host, port = P.host(tmp_path, 3)
        peers.append(host)
        # 1. garbage before any handshake
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"\x00\x00\x00\x03\xc1\xc1\xc1" * 3 + b"\xff\xff\xff\xff")
            time.sleep(0.3)
        # 2. a spectator (right code) that then tries to act
        evil = socket.create_connection(("127.0.0.1", port), timeout=5)
        raw = RawDialer(P.CODE)
        evil.sendall(raw.offer())              # the dialer speaks first (protocol 6)
        raw.welcomed(_read_frame(evil))
        evil.sendall(raw.seal(make_hello(local_versions(), b"e" * 16, role="spectator",
                                         name="evil", listen_port=0)))
        assert raw.read(_read_body(evil))[0]["type"] == "Accepted"
        guests = [P.join(tmp_path, port, f"guest{i}") for i in range(2)]
        peers += guests
        host.wait_for(r"game started", 60)
        for step in range(3):
            evil.sendall(raw.seal({"type": "LinkRevealed", "step": step, "seat": 0,
                                   "link": b"x" * 32, "hash": "0" * 64, "sig": b"s" * 64}))
        P.wait_all([host] + guests, 240)
        evil.close()
        assert [p.proc.returncode for p in [host] + guests] == [0, 0, 0]
        assert len({p.final_hash() for p in [host] + guests}) == 1
        errors = host.errors()
        assert "malformed msgpack" in errors and "spectators can send nothing" in errors
        assert "dropping evil" in errors
    finally:
        P.kill_all(peers)


def test_wrong_code_is_refused_and_exits(tmp_path):
    peers = []
    try:
        host, port = P.host(tmp_path, 3)
        peers.append(host)
        bad = P.Peer("bad", ["join", f"127.0.0.1:{port}", "--code", "WRONG", "--headless"],
                     tmp_path)
        peers.append(bad)
        bad.proc.wait(30)
        assert bad.proc.returncode == 1
        assert "the join code is wrong" in bad.errors()
    finally:
        P.kill_all(peers)


def test_game_logs_of_players_and_a_spectator_agree(tmp_path):
    import json
    peers = []
    try:
        host, port = P.host(tmp_path, 3, extra=["--log", str(tmp_path / "host.jsonl")])
        watcher = P.Peer("watcher", ["watch", f"127.0.0.1:{port}", "--code", P.CODE,
                                     "--headless", "--log", str(tmp_path / "watch.jsonl")],
                         tmp_path)
        peers += [host, watcher]
        peers += [P.join(tmp_path, port, f"guest{i}") for i in range(2)]
        P.wait_all(peers, 240)
        assert [p.proc.returncode for p in peers] == [0] * 4
        logs = [[json.loads(line) for line in (tmp_path / name).read_text().splitlines()]
                for name in ("host.jsonl", "watch.jsonl")]
        assert logs[0] == logs[1]
        assert logs[0][0]["event"] == "GameStarted" and logs[0][0]["seq"] == 0
        assert logs[0][-1]["event"] == "GameEnded"
        assert [e["seq"] for e in logs[0]] == list(range(len(logs[0])))
    finally:
        P.kill_all(peers)


def test_a_peer_that_never_returns_is_played_by_a_bot(tmp_path):
    peers = []
    try:
        host, port = P.host(tmp_path, 3, timeout=2.0)
        guests = [P.join(tmp_path, port, f"guest{i}", timeout=2.0) for i in range(2)]
        peers += [host] + guests
        victim = guests[0]
        victim.wait_for(r"game started", 60)
        log = tmp_path / "guest0.save.log"
        end = time.monotonic() + 60
        while time.monotonic() < end and (not log.exists() or log.stat().st_size < 3000):
            time.sleep(0.005)
        victim.kill()
        P.wait_all([host, guests[1]], 240)
        assert host.proc.returncode == guests[1].proc.returncode == 0
        assert host.final_hash() == guests[1].final_hash()
        assert "a bot plays it" in host.errors() + guests[1].errors()
    finally:
        P.kill_all(peers)


def test_a_hostile_player_is_dropped_and_the_others_finish(tmp_path):
    peers = []
    try:
        host, port = P.host(tmp_path, 3, timeout=2.0)
        guest = P.join(tmp_path, port, "guest0", timeout=2.0)
        hostile = P.Peer("hostile", ["join", f"127.0.0.1:{port}", "--code", P.CODE,
                                     "--headless", "--save", str(tmp_path / "hostile.save")],
                         tmp_path, script=P.ROOT / "tests" / "net" / "hostile_peer.py")
        peers += [host, guest, hostile]
        P.wait_all([host, guest], 240)
        assert host.proc.returncode == guest.proc.returncode == 0
        assert host.final_hash() == guest.final_hash()
        assert "hostile frames sent" in hostile.text()
        errors = host.errors() + guest.errors()
        assert "malformed msgpack" in errors and "dropping" in errors
        assert "a bot plays it" in errors
    finally:
        P.kill_all(peers)


def test_a_network_game_replays_and_verifies(tmp_path):
    import subprocess
    peers = P.play(tmp_path, 3, timeout=240)
    host = peers[0]
    assert host.proc.returncode == 0
    replay = tmp_path / "host.save.replay"
    assert replay.exists(), host.text()
    r = subprocess.run([P.PYTHON, str(P.ROOT / "main.py"), "replay", str(replay), "--verify"],
                       capture_output=True, text=True, timeout=120, cwd=P.ROOT)
    assert r.returncode == 0, r.stderr
    assert host.final_hash() in r.stdout and "game over" in r.stdout


def test_a_reset_live_peer_redials_and_the_game_ends_with_one_hash(tmp_path):
    """Every connection of one live player is reset (RST) mid-game. Before: nobody
    redialled; after the timeout the three took its seat and it took theirs — two games,
    two final hashes, all exit 0. Now it redials (or is redialled), nobody takes a seat
    over, and all four finish one game."""
    peers = []
    try:
        host, port = P.host(tmp_path, 4, timeout=20.0)
        guests = [P.join(tmp_path, port, f"guest{i}", timeout=20.0) for i in range(2)]
        reset = P.Peer("reset", ["join", f"127.0.0.1:{port}", "--code", P.CODE, "--headless",
                                 "--rejoin-timeout", "20", "--save",
                                 str(tmp_path / "reset.save")],
                       tmp_path, script=P.ROOT / "tests" / "net" / "reset_peer.py")
        peers += [host, *guests, reset]
        P.wait_all(peers, 240)
        assert "reset 3 connections at step 6" in reset.text()
        assert [p.proc.returncode for p in peers] == [0, 0, 0, 0]
        assert len({p.final_hash() for p in peers}) == 1
        errors = "".join(p.errors() for p in peers)
        assert "a bot plays it" not in errors and "dropped" in errors
    finally:
        P.kill_all(peers)


def _stalling_table(tmp_path, stalling: set[str], work: str = "drop", bots: int = 0) -> list:
    """A 3-seat table on loopback (`bots` of them bots); the peers named in `stalling`
    block for 7 s once, in `work` (tests/net/stalling_peer.py). The finished peers."""
    script = P.ROOT / "tests" / "net" / "stalling_peer.py"
    env = {"SHOGUN_TEST_STALL": work}
    port = P.free_port()
    peers = []
    try:
        host = P.Peer("host", ["host", "--headless", "--port", str(port), "--code", P.CODE,
                               "--players", "3", "--bots", str(bots), "--rejoin-timeout",
                               "60", "--save", str(tmp_path / "host.save")], tmp_path, env,
                      script=script if "host" in stalling else P.ROOT / "main.py")
        peers.append(host)
        host.wait_for(r"table open on port", 30)
        for i in range(2 - bots):
            name = f"guest{i}"
            peers.append(P.Peer(name, ["join", f"127.0.0.1:{port}", "--code", P.CODE,
                                       "--headless", "--rejoin-timeout", "60",
                                       "--save", str(tmp_path / f"{name}.save")], tmp_path,
                                env, script=script if name in stalling else P.ROOT / "main.py"))
        P.wait_all(peers, 240)
        return peers
    finally:
        P.kill_all(peers)


def _one_game_and_nobody_dropped(peers: list) -> None:
    assert [p.proc.returncode for p in peers] == [0] * len(peers)
    assert len({p.final_hash() for p in peers}) == 1
    errors = "".join(p.errors() for p in peers)
    assert "silent for" not in errors and "dropped" not in errors, errors[-2000:]


def test_a_table_busy_at_once_for_longer_than_the_silence_limit_drops_nobody(tmp_path):
    """Every peer computes every drop itself, so a slow drop stalls the whole table
    together. Waking, no peer counts the others silent: their messages waited unread.
    (Before: peers dropped each other, and the table paused and redialled.)"""
    peers = _stalling_table(tmp_path, {"host", "guest0", "guest1"})
    assert all("busy for 7 s in drop 3" in p.text() for p in peers)
    _one_game_and_nobody_dropped(peers)


def test_the_last_input_goes_out_before_a_slow_bot_move(tmp_path):
    """A bot seat's move is computed by every peer as soon as the step before is
    complete, and the peer whose input completed it computes at once. That input goes
    out first (before, it waited in the sender's buffer until the sender was done, so
    the others saw the sender silent for 7 s and dropped it)."""
    peers = _stalling_table(tmp_path, {"host", "guest0"}, work="bot", bots=1)
    assert all("busy for 7 s in a bot seat's move" in p.text() for p in peers)
    _one_game_and_nobody_dropped(peers)


def test_one_peer_busy_for_longer_than_the_silence_limit_is_dropped_and_comes_back(tmp_path):
    """One slow laptop: the others count it gone after 5 s and pause; it is back once it
    wakes, nobody takes its seat, one game."""
    peers = _stalling_table(tmp_path, {"guest1"})
    assert "busy for 7 s in drop 3" in peers[2].text()
    assert [p.proc.returncode for p in peers] == [0, 0, 0]
    assert len({p.final_hash() for p in peers}) == 1
    errors = "".join(p.errors() for p in peers)
    assert "dropped" in errors and "a bot plays it" not in errors, errors[-2000:]
